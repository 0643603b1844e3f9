"""The repository stands on its own: its reference is made from the game modules, and
nothing a user reads points outside it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.games import GAMES
from referee.record import RecordError, read_record
from referee.reference import german, reference
from referee.replay import CORE_RULES

TOP = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_committed_reference_page_is_the_one_the_game_module_makes(name: str) -> None:
    committed = (TOP / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
    assert committed == reference(name), f"docs/games/{name}.md is stale: run `referee docs`"


def without_closed_objects(document: Any) -> Any:
    """The document without `"additionalProperties"` of `false` or `{}`, which apispec
    releases write on different schemas (the lowest allowed and the newest differ)."""
    if isinstance(document, dict):
        return {key: without_closed_objects(value) for key, value in document.items() if key != "additionalProperties" or value not in (False, {})}
    if isinstance(document, list):
        return [without_closed_objects(item) for item in document]
    return document


def test_the_committed_openapi_document_is_the_one_the_server_serves(client) -> None:  # type: ignore[no-untyped-def]
    committed = json.loads((TOP / "docs" / "openapi.json").read_text(encoding="utf-8"))
    served = client.get("/api/openapi.json").json
    assert without_closed_objects(committed) == without_closed_objects(served), "docs/openapi.json is stale: run `referee docs`"


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("language", ["en", "de"])
def test_referee_rules_prints_every_rule_id_in_english_or_german(name: str, language: str) -> None:
    result = CliRunner().invoke(main, ["rules", name, "--lang", language])
    assert result.exit_code == 0
    for rule, text in {**CORE_RULES, **GAMES[name].rules}.items():
        assert f"`{rule}` | {german()[text] if language == 'de' else text} |" in result.output


def test_every_rule_sentence_has_a_german_one() -> None:
    assert [text for game in GAMES.values() for text in game.rules.values() if text not in german()] == []


def test_nothing_a_user_reads_points_outside_the_repository() -> None:
    read = [TOP / "README.md", *(TOP / "docs").rglob("*.md"), *(TOP / "templates").rglob("*.html")]
    texts = {str(path.relative_to(TOP)): path.read_text(encoding="utf-8") for path in read}
    texts["referee --help"] = CliRunner().invoke(main, ["--help"]).output
    for command in main.commands:
        texts[f"referee {command} --help"] = CliRunner().invoke(main, [command, "--help"]).output
    outside = {where: found for where, text in texts.items() if (found := re.findall(r"\.\./shared|DESIGN\.md|shared/rules", text))}
    assert outside == {}


def test_the_home_page_links_to_the_rules_of_each_game(client) -> None:  # type: ignore[no-untyped-def]
    home = client.get("/").get_data(as_text=True)
    for name in GAMES:
        assert f'href="/rules/{name}"' in home


def test_senators_colours_may_be_any_words_without_dashes() -> None:
    german_colours = '{"colours": ["rot", "gelb", "grün", "blau", "lila", "weiß"]}'
    record = read_record(f'{{"format": "table-record/1", "game": "senators", "seats": ["A", "B", "C"], "options": {german_colours}}}\n'
                         '{"seq": 1, "type": "hand", "seat": 0, "cards": ["grün-1", "weiß-2", "rot-3"]}\n')
    assert record.events[0]["cards"] == ["grün-1", "weiß-2", "rot-3"]
    with pytest.raises(RecordError, match="line 1"):
        read_record('{"format": "table-record/1", "game": "senators", "seats": ["A", "B", "C"], '
                    '"options": {"colours": ["dunkel-rot", "gelb", "grün", "blau", "lila", "weiß"]}}\n')


@pytest.mark.parametrize("event", [
    '{"seq": 2, "type": "visit", "seat": 0, "boutique": "team-1"}',
    '{"seq": 2, "type": "window", "boutique": "team-1", "card": {"name": "hat-1", "kind": "wardrobe", "price": 100, "stars": 1}}',
])
def test_a_boutique_no_team_owns_is_a_format_error_naming_the_line(event: str) -> None:
    header = '{"format": "table-record/1", "game": "ladies-and-gentlemen", "seats": ["Anna", "Ben", "Cem", "Dora"], "options": {}}'
    with pytest.raises(RecordError, match=r"line 3: .*'team-1' is not a boutique of this game \(the boutiques: team-0, team-2\)"):
        read_record(f'{header}\n{{"seq": 1, "type": "day", "n": 1}}\n{event}\n')
    read_record(f'{header}\n{{"seq": 1, "type": "day", "n": 1}}\n{event.replace("team-1", "team-2")}\n')  # the nearest legal case


def test_every_template_and_script_goes_into_the_wheel() -> None:
    """`pip install .` (the README's first command) ships only what package-data names: a
    template of another kind (the shared result is an SVG) would be a 500 on an installed app,
    and so would the font of its PNG."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    web = {folder: [p.removeprefix(f"{folder}/") for p in data["referee.web"] if p.startswith(f"{folder}/")] for folder in ("static", "fonts")}
    for folder, patterns in (("templates", data["referee.templates"]), *((f"referee/web/{folder}", patterns) for folder, patterns in web.items())):
        for path in (root / folder).rglob("*"):
            name = path.relative_to(root / folder).as_posix()
            if path.is_file():
                assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), f"{folder}/{name} is not packaged"
