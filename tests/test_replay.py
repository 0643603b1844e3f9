"""Replay semantics of DESIGN.md: flag and skip, voids, notes, the end, one flag per event."""

from __future__ import annotations

from conftest import events, flags, last_flag, play_out, table

from referee.games.base import Termination
from referee.replay import replay, report

KP = table("karriere-poker", "Anna Ben Cem Dora")
DEAL = {"type": "deal", "dealer": 3}


def test_a_flagged_event_is_skipped_and_the_next_is_judged_without_it() -> None:
    # Anna leads three 7s; Ben's two 9s are flagged; Ben then raises properly with three 9s.
    fold = play_out(
        KP, DEAL,
        {"type": "play", "seat": 0, "cards": [7, 7, 7]},
        {"type": "play", "seat": 1, "cards": [9, 9]},
        {"type": "play", "seat": 1, "cards": [9, 9, 9]},
    )
    assert flags(fold) == {3: "kp.raise.count"}
    assert fold.state.top_cards == (9, 9, 9)
    assert fold.state.sizes == (10, 10, 13, 13)


def test_void_withdraws_an_event_and_rejudges_what_follows() -> None:
    # Cem's three 8s (seq 4) are flagged as not higher than Ben's 9s. Ben's 9s are voided:
    # now Cem's 8s are judged again, out of turn, as Ben still has to act.
    body = [
        DEAL,
        {"type": "play", "seat": 0, "cards": [7, 7, 7]},
        {"type": "play", "seat": 1, "cards": [9, 9, 9]},
        {"type": "play", "seat": 2, "cards": [8, 8, 8]},
    ]
    before = play_out(KP, *body)
    assert flags(before) == {4: "kp.raise.higher"}
    after = play_out(KP, *body, {"type": "void", "target": 3, "reason": "Ben had passed"})
    assert flags(after) == {4: "kp.turn"}  # without Ben's play it is Ben's turn, not Cem's
    # The table logs Ben's pass and Cem's 8s again: both legal.
    fixed = play_out(KP, *body, {"type": "void", "target": 3}, {"type": "pass", "seat": 1},
                     {"type": "play", "seat": 2, "cards": [8, 8, 8]})
    assert flags(fixed) == {4: "kp.turn"}
    assert fixed.state.top_cards == (8, 8, 8)


def test_a_voided_flagged_event_is_withdrawn_not_a_standing_violation() -> None:
    # Ben's two 9s are flagged, voided, and Ben plays three 9s: the table played a legal game.
    fold = play_out(
        KP, DEAL,
        {"type": "play", "seat": 0, "cards": [7, 7, 7]},
        {"type": "play", "seat": 1, "cards": [9, 9]},
        {"type": "void", "target": 3, "reason": "typo"},
        {"type": "play", "seat": 1, "cards": [9, 9, 9]},
    )
    shown = report(fold)
    assert shown["violations"] == []
    assert shown["voided"] == [3]
    assert shown["withdrawn"] == [
        {"seq": 3, "rule": "kp.raise.count", "message": "Ben played two 9s, but the lead was three cards.", "voided_by": 4}
    ]
    assert fold.state.top_cards == (9, 9, 9)


def test_a_withdrawn_legal_event_carries_no_flag_and_the_first_void_withdrew_it() -> None:
    fold = play_out(KP, DEAL, {"type": "play", "seat": 0, "cards": [7]},
                    {"type": "void", "target": 2}, {"type": "void", "target": 2, "reason": "again"})
    assert report(fold)["withdrawn"] == [{"seq": 2, "rule": None, "message": None, "voided_by": 3}]
    assert flags(fold) == {}


def test_a_withdrawn_event_keeps_the_flag_it_had_when_it_was_logged() -> None:
    # Anna leads three 7s (seq 2); Ben answers with two 9s (seq 3): kp.raise.count. The
    # table voids Anna's lead, then Ben's play. Without Anna's lead Ben's play would be
    # out of turn (kp.turn); the record keeps the flag it carried when it was logged.
    fold = play_out(
        KP, DEAL,
        {"type": "play", "seat": 0, "cards": [7, 7, 7]},  # 2: Anna leads three 7s
        {"type": "play", "seat": 1, "cards": [9, 9]},  # 3: two cards on a lead of three
        {"type": "void", "target": 2, "reason": "Anna led 8s"},  # 4
        {"type": "void", "target": 3, "reason": "Ben re-plays"},  # 5
    )
    assert report(fold)["withdrawn"] == [
        {"seq": 2, "rule": None, "message": None, "voided_by": 4},
        {"seq": 3, "rule": "kp.raise.count", "message": "Ben played two 9s, but the lead was three cards.", "voided_by": 5},
    ]
    assert report(fold)["violations"] == []


def test_core_void_target_fires_for_the_header_a_void_and_a_later_event() -> None:
    fold = play_out(
        KP, DEAL,
        {"type": "void", "target": 0},  # the header
        {"type": "void", "target": 9},  # a later, nonexistent seq
        {"type": "void", "target": 2},  # a void
        {"type": "void", "target": 4},  # itself
    )
    assert flags(fold) == {2: "core.void.target", 3: "core.void.target", 4: "core.void.target", 5: "core.void.target"}
    assert fold.voided == ()


def test_core_void_target_nearest_legal_case_voids_the_previous_event() -> None:
    fold = play_out(KP, DEAL, {"type": "void", "target": 1})
    assert flags(fold) == {}
    assert fold.voided == (1,)
    assert fold.state.playing is False  # as if the deal had never been logged


def test_a_note_changes_nothing() -> None:
    with_note = play_out(KP, DEAL, {"type": "note", "text": "Dora shuffles twice"})
    assert with_note.state == play_out(KP, DEAL).state
    assert flags(with_note) == {}


def test_end_finishes_the_game_and_core_game_over_flags_anything_later() -> None:
    fold = play_out(KP, DEAL, {"type": "end", "reason": "out of time"}, {"type": "play", "seat": 0, "cards": [5]})
    assert fold.outcome is not None
    assert fold.outcome.termination is Termination.TABLE_END
    assert fold.outcome.reason == "out of time"
    assert flags(fold) == {3: "core.game.over"}
    assert report(fold)["finished"] is True


def test_core_game_over_nearest_legal_case_is_the_same_move_before_the_end() -> None:
    fold = play_out(KP, DEAL, {"type": "play", "seat": 0, "cards": [5]}, {"type": "end"})
    assert flags(fold) == {}
    assert fold.state.sizes[0] == 12


def test_a_void_after_the_end_can_withdraw_the_end() -> None:
    fold = play_out(KP, DEAL, {"type": "end"}, {"type": "void", "target": 2}, {"type": "play", "seat": 0, "cards": [5]})
    assert flags(fold) == {}
    assert fold.outcome is None


def test_core_rules_come_before_the_game_rules() -> None:
    # After the end, a move that is also out of turn is reported as core.game.over.
    fold = play_out(KP, DEAL, {"type": "end"}, {"type": "play", "seat": 2, "cards": [5, 6]})
    assert last_flag(fold) == "core.game.over"


def test_upto_replays_the_table_as_it_was() -> None:
    body = events(KP, DEAL, {"type": "play", "seat": 0, "cards": [7]}, {"type": "void", "target": 2})
    assert replay(KP, body, upto=2).state.top_cards == (7,)
    assert replay(KP, body).state.top_cards == ()
    assert replay(KP, body, upto=0).seq == 0


def test_replay_is_deterministic() -> None:
    body = events(KP, DEAL, {"type": "play", "seat": 0, "cards": [7]}, {"type": "pass", "seat": 0})
    assert report(replay(KP, body)) == report(replay(KP, body))
