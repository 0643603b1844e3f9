"""The shared result as a card: what it says (`card`, read by the SVG template and by the
PNG painter alike, so the two never tell different things) and the PNG, 1200×630, the
shape link previews show (WhatsApp, Signal, Telegram, Slack show no SVG).

The PNG is drawn with Roboto (Google, Apache License 2.0: fonts/LICENSE; the files of the
font-roboto 0.0.1 package), shipped with the app: Pillow's bundled default font has ASCII
only (Jürgen's ü, ß and é would be boxes), and nothing is fetched at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from flask_babel import gettext
from markupsafe import Markup
from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT, MARGIN = 1200, 630, 48
FONTS = Path(__file__).resolve().parent / "fonts"


@dataclass(frozen=True)
class Row:
    place: int
    entries: str  # "Anna (34) · Ben (34)": a tie shares its place


@dataclass(frozen=True)
class Card:
    title: str
    game: str  # the game's name where the table gave the evening another title, else ""
    date: str
    headline: str  # who won, or how it ended ("Ended early: nobody wins. (the pizza came)")
    rows: tuple[Row, ...]
    players: str  # "Players: Anna, Ben, Cem"


def shorten(text: str, length: int) -> str:
    """At most `length` characters, an ellipsis where cut."""
    return text if len(text) <= length else text[:length - 1].rstrip() + "…"


def card(shared: dict[str, Any]) -> Card:
    """What the image of a shared result (`board_pages.shared_result`) says, in the reader's language."""
    rows = tuple(Row(row["place"], " · ".join(name if score is None else f"{name} ({score})" for name, score in zip(row["names"], row["scores"])))
                 for row in shared["standings"])
    # The title on one line, whatever a record from before titles were checked holds.
    return Card(title=shorten(" ".join(shared["title"].split()), 40), game=shared["game"] if shared["title"] != shared["game"] else "", date=shared["date"],
                headline=shared["winner"] or Markup(shared["end"]).striptags(), rows=rows,
                players=f"{gettext('Players')}: {shorten(shared['players'], 90)}")


def row_step(card: Card) -> int:
    """The distance between two rows of standings: 56 pixels, closer where many rows share 300."""
    return min(56, 300 // (len(card.rows) or 1))


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("Roboto-Bold.ttf" if bold else "Roboto-Regular.ttf")), size)


def png(card: Card) -> bytes:
    """The card drawn as result.svg draws it: the same places, sizes and colours."""
    image = Image.new("RGB", (WIDTH, HEIGHT), "#fff")
    draw = ImageDraw.Draw(image)

    def text(x: int, y: int, words: str, size: int, fill: str, bold: bool = False, anchor: str = "ls") -> float:
        """`words` on the baseline at y, smaller where they would run past the margin; their width."""
        room = WIDTH - MARGIN - x if anchor == "ls" else x - MARGIN
        width = draw.textlength(words, font=font(size, bold))
        if width > room:
            size = max(12, int(size * room / width))
        draw.text((x, y), words, font=font(size, bold), fill=fill, anchor=anchor)
        return draw.textlength(words, font=font(size, bold))

    draw.rectangle((0, 0, WIDTH, 84), fill="#0b5fff")
    text(MARGIN, 56, "Table Referee", 34, "#fff", bold=True)
    text(WIDTH - MARGIN, 56, card.date, 28, "#fff", anchor="rs")
    text(MARGIN, 148, card.title, 52, "#111", bold=True)
    if card.game:
        text(MARGIN, 190, card.game, 28, "#444")
    text(MARGIN, 246, card.headline, 38, "#106b21", bold=True)
    step = row_step(card)
    for index, row in enumerate(card.rows):
        y, size = 300 + index * step, min(40, step - 10)
        place = text(MARGIN, y, f"{row.place}.", size, "#111", bold=True)
        text(MARGIN + round(place), y, f" {row.entries}", size, "#111")
    text(MARGIN, 606, card.players, 24, "#444")
    out = BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
