"""Table Referee: a referee and scorekeeper for card games played with real cards."""
