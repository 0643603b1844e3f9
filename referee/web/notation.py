"""Short card notation, as typed or tapped at the table, turned into the record's own.

Employee of the Month cards are long in the record ("colleague-3 boss-10 plus-4"); at the
table people write "c3 b10 p4" (German: "k3" Kollege, "chef10"). Only the spelling is
read here: whether a card exists (colleague 11) is a rule the game judges and flags.
A token that is no card at all is refused with a sentence that says how to write one.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from flask_babel import gettext

from ..record import RecordError

TOKEN = re.compile(r"([a-zäöü+]*?)[\s-]*(\d+)")
FAVOURS = {"c": "colleague", "k": "colleague", "colleague": "colleague", "kollege": "colleague",
           "b": "boss", "boss": "boss", "chef": "boss"}
POINTS = {"p": "plus", "+": "plus", "plus": "plus", "pop": "popularity", "popularity": "popularity",
          "beliebtheit": "popularity", "bel": "popularity"}


def favour_card(token: str) -> str:
    """"c3" -> "colleague-3", "B10" -> "boss-10"."""
    return _card(token, FAVOURS, gettext("“%(token)s” is not a favour card: write c3 for colleague 3, b10 for boss 10.", token=token))


def points_card(token: str) -> str:
    """"p4" or "+4" -> "plus-4", "pop6" -> "popularity-6"."""
    return _card(token, POINTS, gettext("“%(token)s” is not a points card: write p4 for plus 4, pop6 for popularity 6.", token=token))


def _card(token: str, kinds: dict[str, str], refusal: str) -> str:
    match = TOKEN.fullmatch(token.strip().lower())
    if match is None or match.group(1) not in kinds:
        raise RecordError(refusal)
    return f"{kinds[match.group(1)]}-{int(match.group(2))}"


# (game, field) -> how a token of that field is read
READERS: dict[tuple[str, str], Callable[[str], str]] = {
    ("employee-of-the-month", "row"): favour_card,
    ("employee-of-the-month", "favour"): favour_card,
    ("employee-of-the-month", "card"): favour_card,
    ("employee-of-the-month", "points"): points_card,
}


def read_token(game: str, field: str, token: str) -> str:
    """A typed token in the record's notation (unchanged where the game has no short one)."""
    reader = READERS.get((game, field))
    return reader(token) if reader else token
