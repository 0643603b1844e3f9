"""The Flask app: JSON API and htmx pages over one event store."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from ..access import Access
from ..store import Store
from ..tables import Tables

TOP = Path(__file__).resolve().parent.parent
limiter = Limiter(key_func=get_remote_address, storage_uri="memory://", default_limits=[])


def resource_dir(name: str) -> Path:
    """`templates/` or `events/`: top level in a checkout, inside the package when installed."""
    checkout = TOP.parent / name
    return checkout if checkout.is_dir() else TOP / name


@dataclass
class Referee:
    """What every request works with."""

    tables: Tables
    access: Access


def referee() -> Referee:
    extension: Referee = current_app.extensions["referee"]
    return extension


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create and configure the app (flaskr's factory, with our top-level templates).

    Settings: defaults, then `instance/config.py`, then `test_config` (tests, `referee serve`).
    """
    app = Flask(
        __name__,
        instance_path=os.path.abspath(os.environ.get("REFEREE_INSTANCE", "instance")),
        instance_relative_config=True,
        template_folder=str(resource_dir("templates")),
    )
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "referee.sqlite3"),
        MAX_CONTENT_LENGTH=64 * 1024,
        JOIN_RATE_LIMIT="10 per minute",
        LONG_POLL_SECONDS=20,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
    )
    app.config.from_pyfile("config.py", silent=True)
    if test_config is not None:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path) / "secret_key")

    store = Store(app.config["DATABASE"])
    app.extensions["referee"] = Referee(Tables(store), Access(store))
    limiter.init_app(app)

    from . import api, pages

    app.register_blueprint(api.bp)
    pages.init_app(app)
    return app


def _instance_secret(path: Path) -> str:
    """A secret key kept in the instance folder, made on first start."""
    if not path.exists():
        path.write_text(secrets.token_hex(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()
