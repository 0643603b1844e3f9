"""The htmx pages for the phones at the table."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register the pages (filled in by the phone UI)."""
