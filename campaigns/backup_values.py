"""Reading one value of a backup file (:mod:`campaigns.backup`): each reader takes the value
the file holds and returns it as the database will hold it, or raises :class:`Problem` saying
what is wrong (the caller adds the place)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_datetime


class Problem(Exception):
    """One thing wrong with a value; ``at`` is its place below the field being read
    (``".combatants[2].id"``), empty for the field itself."""

    def __init__(self, message: str, at: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.at = at


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def short_key(key: str) -> str:
    return key if len(key) <= 40 else key[:37] + "…"


def kind_of(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true or false"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


def as_is(value: Any) -> Any:
    return value


def encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def die_code(f: models.Field, raw: Any) -> Any:
    if not isinstance(raw, str):
        raise Problem(f'{short(raw)} is not a die code (write it as text: "3D+1")')
    try:
        return f.to_python(raw)
    except ValidationError as exc:
        message = " ".join(exc.messages)
        raise Problem(f"{short(raw)} is not a die code ({message})") from None


def boolean(raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise Problem(f"{short(raw)} is not true or false")
    return raw


def whole_number(low: int, high: int, raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise Problem(f"{short(raw)} is not a whole number")
    if not low <= raw <= high:
        raise Problem(f"{raw} is outside {low}…{high}")
    return raw


def holds_nul(value: Any, depth: int = 0) -> bool:
    """Whether text anywhere in a JSON value holds NUL (PostgreSQL refuses it)."""
    if isinstance(value, str):
        return "\x00" in value
    if depth > 100:
        return False
    if isinstance(value, dict):
        return any(holds_nul(k, depth + 1) or holds_nul(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return any(holds_nul(v, depth + 1) for v in value)
    return False


def moment(raw: Any) -> dt.datetime:
    if not isinstance(raw, str):
        raise Problem(f"{short(raw)} is not a date and time (ISO 8601 text)")
    try:
        value = parse_datetime(raw)
    except ValueError:
        value = None
    if value is None:
        raise Problem(f"{short(raw)} is not a date and time (ISO 8601 text)")
    if timezone.is_naive(value):
        raise Problem(f"{short(raw)} gives no time zone")
    try:
        value.astimezone(dt.UTC)
    except OverflowError:
        raise Problem(f"{short(raw)} is out of range") from None
    return value


def text_reader(f: models.Field) -> Callable[[Any], str]:
    """The reader of a text column's values: text that fits the column (its length, blank or
    not, its choices), without NUL characters or lone surrogates."""
    limit = getattr(f, "max_length", None)
    blank = f.blank
    choices = {str(value) for value, _ in f.flatchoices} if f.choices else None
    allowed = ", ".join(str(value) for value, _ in f.flatchoices) if f.choices else ""

    def read(raw: Any) -> str:
        if not isinstance(raw, str):
            raise Problem(f"{short(raw)} is not text")
        if "\x00" in raw:
            raise Problem("holds a NUL character")
        if not raw.isascii() and not encodes(raw):
            raise Problem("is not valid Unicode text (a lone surrogate)")
        if limit is not None and len(raw) > limit:
            raise Problem(f"is {len(raw)} characters long; at most {limit}")
        if not raw and not blank:
            raise Problem("cannot be blank")
        if choices is not None and raw not in choices:
            raise Problem(f"{short(raw)} is not one of {allowed}")
        return raw

    return read
