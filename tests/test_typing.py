"""The game modules stay clean under `mypy --strict` (configured in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_game_modules_are_mypy_strict_clean() -> None:
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", "/dev/null", str(ROOT / "referee" / "games")])
    assert status == 0, out + err
