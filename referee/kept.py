"""Kept folds: a fold written as plain JSON and sealed with an HMAC, never pickled.

A snapshot is a cache beside the log, and the database file is not trusted: whoever can
write it could plant bytes that a pickle would run as code, or a fold that serves an
invented flag. So a fold is written as JSON with a tag for each Python type JSON lacks,
read back only into the frozen dataclasses and enums of the rules (nothing else can be
named, and no constructor runs), and sealed with an HMAC under the instance's secret key
(which is not in the database), bound to the game, the seq, the chain hash of that event
and the rules fingerprint. A snapshot that fails the seal is not used: the game is
replayed from its log, and `referee verify` names it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import os
import secrets
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import Any

from . import replay
from .database import is_url
from .games import base, employee_of_the_month, ftw, karriere_poker, ladies_gentlemen, senators

MAC_SIZE = 32


def _registry(*modules: ModuleType) -> dict[str, type]:
    """The classes a kept fold may name: the dataclasses and enums defined in these modules."""
    return {
        f"{cls.__module__}:{cls.__qualname__}": cls
        for module in modules
        for cls in vars(module).values()
        if isinstance(cls, type) and cls.__module__ == module.__name__ and (dataclasses.is_dataclass(cls) or issubclass(cls, Enum))
    }


CLASSES = _registry(base, replay, karriere_poker, employee_of_the_month, ftw, senators, ladies_gentlemen)


class Unreadable(ValueError):
    """Bytes that are not a kept fold of these rules."""


def encode(value: Any) -> Any:
    """A value of a fold as JSON: tuples as arrays, everything else tagged."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if isinstance(value, list):
        return {"l": [encode(item) for item in value]}
    if isinstance(value, frozenset):
        return {"f": [encode(item) for item in value]}
    if isinstance(value, dict):
        return {"d": [[encode(key), encode(item)] for key, item in value.items()]}
    if isinstance(value, Enum):
        return {"e": _name(type(value)), "v": encode(value.value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"c": _name(type(value)), "v": {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    raise TypeError(f"a fold cannot keep a {type(value).__name__}")


def _name(cls: type) -> str:
    name = f"{cls.__module__}:{cls.__qualname__}"
    if CLASSES.get(name) is not cls:
        raise TypeError(f"{name} is not a class of the rules")
    return name


def decode(data: Any) -> Any:
    """The value `encode` wrote; raises Unreadable for anything else."""
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return tuple(decode(item) for item in data)
    if not isinstance(data, dict) or len(data) not in (1, 2):
        raise Unreadable("not a kept value")
    if "l" in data:
        return [decode(item) for item in data["l"]]
    if "f" in data:
        return frozenset(decode(item) for item in data["f"])
    if "d" in data:
        return {decode(key): decode(item) for key, item in data["d"]}
    cls = CLASSES.get(data.get("e") or data.get("c"))  # type: ignore[arg-type]
    if cls is None:
        raise Unreadable("names a class that is not one of the rules")
    if "e" in data:
        return cls(decode(data["v"]))  # an Enum lookup by value: runs no code of the data's choosing
    values = data.get("v")
    names = {f.name for f in dataclasses.fields(cls)}
    if not isinstance(values, dict) or set(values) != names:
        raise Unreadable(f"{cls.__qualname__} with other fields")
    made = object.__new__(cls)
    object.__setattr__(made, "__dict__", {name: decode(value) for name, value in values.items()})  # frozen: as base.made
    return made


def seal(key: bytes, context: str, value: Any) -> bytes:
    """`value` as sealed bytes: the HMAC of (context, payload), then the payload."""
    payload = json.dumps(encode(value), separators=(",", ":")).encode()
    return _mac(key, context, payload) + payload


def unseal(key: bytes, context: str, blob: bytes) -> Any:
    """The value of sealed bytes; raises Unreadable when the seal or the payload is wrong."""
    mac, payload = blob[:MAC_SIZE], blob[MAC_SIZE:]
    if not hmac.compare_digest(mac, _mac(key, context, payload)):
        raise Unreadable("the seal does not match (edited, or not made with this instance's key)")
    try:
        return decode(json.loads(payload))
    except (ValueError, TypeError, KeyError, RecursionError) as error:
        raise Unreadable(str(error)) from None


def _mac(key: bytes, context: str, payload: bytes) -> bytes:
    return hmac.new(key, context.encode() + b"\0" + payload, hashlib.sha256).digest()


def signature(key: bytes, context: str, value: Any) -> str:
    """The seal of a plain JSON value (a kept answer), as hex: checked with `hmac.compare_digest`."""
    return _mac(key, context, json.dumps(value, sort_keys=True).encode()).hex()


def snapshot_key(secret: str) -> bytes:
    """The key that seals snapshots, derived from the instance's secret key."""
    return hashlib.sha256(b"table-referee snapshots\0" + secret.encode()).digest()


def secret_path(database: str) -> Path:
    """Where the instance's secret key lives: beside a SQLite file; for a database URL the
    file `$REFEREE_SECRET_KEY_FILE`, else `instance/secret_key` (every process that serves
    one database must have the same)."""
    if is_url(database):
        return Path(os.environ.get("REFEREE_SECRET_KEY_FILE") or Path("instance") / "secret_key").resolve()
    return Path(database).resolve().parent / "secret_key"


def secret_beside(database: str) -> str:
    """The instance's secret key: the file `secret_key` beside the database, made on first
    use (owner only). Whoever can read it can seal snapshots, so it is not in the database."""
    if database == ":memory:":
        return secrets.token_hex(32)
    path = secret_path(database)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()
