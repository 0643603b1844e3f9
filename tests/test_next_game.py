"""Ben joined the group's game by its code and is no member of the group: when the game is
over and the host starts the group's next one, Ben's table and result pages lead him to it
("Next game: FTW?! — join", to its seat picker), as members are led to theirs."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from test_groups import new_group
from test_sentences import log, new_game


@pytest.mark.parametrize(("language", "said"), [("en", "Next game: FTW?! — join"), ("de", "Nächstes Spiel: FTW?! – mitspielen")])
def test_ben_who_joined_by_code_is_led_from_the_finished_game_to_the_groups_next(client: FlaskClient, language: str, said: str) -> None:
    app = client.application
    group_id = new_group(client)
    first = new_game(client, "ftw", ["Anna", "Ben", "Cem"], plays="")
    client.post(f"/g/{first}/host/group", data={"group": group_id})
    ben, stranger = app.test_client(), app.test_client()
    for phone in (ben, stranger):
        phone.set_cookie("lang", language)
    ben.post(f"/g/{first}/seats/1", data={"code": app.extensions["referee"].access.join_code(first)})
    log(client, first, type="end", reason="out of time")
    assert said not in ben.get(f"/g/{first}").get_data(as_text=True)  # no newer game yet
    client.post(f"/g/{first}/again", data={"seats": "same"})
    [second] = [g for g in app.extensions["referee"].groups.games(group_id) if g != first]
    for page in (f"/g/{first}", f"/g/{first}/result"):
        shown = html.unescape(ben.get(page).get_data(as_text=True))
        assert said in shown, page
        link = re.search(r'href="([^"]*)">' + re.escape(said), shown).group(1)  # type: ignore[union-attr]
        picker = ben.get(link).get_data(as_text=True)
        assert link.startswith(f"/g/{second}/seats?code=") and 'name="code"' in picker
        assert said not in html.unescape(stranger.get(page).get_data(as_text=True))  # a watcher is given no code
