"""Which language a page speaks: runs of three or more words of the other language.

The vocabularies come from the catalogue itself: English is every word of its msgids (and
a few stop words), German every word of its translations. A word both languages use
("Boss", "Joker", "in") is neutral, as are numbers, names, card names and rule ids: they
neither count nor break a run. Any other word breaks it.
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.pofile import read_po

CATALOGUE = Path(__file__).resolve().parent.parent / "referee/web/translations/de/LC_MESSAGES/messages.po"
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+(?:['’][a-z]+)?")
# Not words of a language: a rule id (kp.raise.count), a card (red-7, office-censor), a placeholder.
NOT_WORDS = re.compile(r"\b[a-z]+(?:\.[a-z0-9-]+)+\b|\b[a-z]+(?:-[a-z0-9]+)+\b|%\(\w+\)\w|\{\w*\}")
ENGLISH_STOP = "the a an of to and or is are was were be been by from his her its their it this that has have had not no as but with for on at who what which when".split()
GERMAN_STOP = "der die das den dem des und oder ist sind war waren ein eine einen einem einer nicht mit von zu für auf bei nach aus wie hat haben wird wurde wurden noch auch".split()


@cache
def vocabularies() -> tuple[frozenset[str], frozenset[str]]:
    """(English words, German words) of the catalogue, lower case; the shared ones in both."""
    with CATALOGUE.open("rb") as po:
        catalog = read_po(po)
    english, german = set(ENGLISH_STOP), set(GERMAN_STOP)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        english |= {w.lower() for text in ids for w in WORD.findall(NOT_WORDS.sub(" ", text))}
        german |= {w.lower() for text in strings for w in WORD.findall(NOT_WORDS.sub(" ", text))}
    return frozenset(english), frozenset(german)


class Visible(HTMLParser):
    """The text a reader meets: element text and the words of labels and hints, no scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "svg"):
            self.hidden += 1
        for name, value in attrs:
            if name in ("aria-label", "title", "placeholder", "alt") and value:
                self.parts.append("\n" + value + "\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "svg") and self.hidden:
            self.hidden -= 1
        if tag in ("p", "li", "td", "th", "h1", "h2", "h3", "button", "a", "option", "label", "summary", "div", "span", "small", "strong", "code"):
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return "".join(parser.parts)


def words_of(line: str) -> list[str]:
    """The words of a line: what is only letters once its punctuation is stripped; a token
    with digits or underscores (a code, a hash, "b10") is no word."""
    found = []
    for token in NOT_WORDS.sub(" ", line).split():
        found += [word for word in re.split(r"[/&·|]", token.strip(".,;:!?()[]{}“”„\"«»…–—*+=#%£€$<>")) if WORD.fullmatch(word)]
    return found


def foreign_runs(text: str, language: str, ignore: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """Runs of 3+ words of the language that is not `language` ("de" or "en") in `text`,
    two of them at least words only that language has; `ignore` are names (any case)."""
    english, german = vocabularies()
    foreign, own = (english, german) if language == "de" else (german, english)
    skipped = {name.lower() for name in ignore}
    found = []
    for line in text.splitlines():
        run: list[str] = []
        for word in [*words_of(line), ""]:  # "" ends the last run
            lower = word.lower()
            if lower in skipped:
                continue  # a name
            if lower in foreign:
                run.append(word)
                continue
            if len(run) >= 3 and sum(w.lower() not in own for w in run) >= 2:
                found.append(" ".join(run))
            run = []
    return found
