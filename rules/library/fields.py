"""The library's building blocks: its limits, :class:`LibraryError` and the checks of single
fields (text, numbers, die codes, lists of names), each naming its place."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from rules.dice import DieCode, DieCodeError
from rules.errors import RulesError

EntryData = dict[str, Any]

KINDS: Final = ("species", "template", "weapon", "armour", "gear")
KIND_LABELS: Final = {
    "species": "Species",
    "template": "Templates",
    "weapon": "Weapons",
    "armour": "Armour",
    "gear": "Gear",
}
"""Each kind's heading, as a page lists it."""

NAME_MAX: Final = 100
SOURCE_MAX: Final = 120
SHORT_TEXT_MAX: Final = 100
"""Skill names, availability, the names a template's gear lists."""
TEXT_MAX: Final = 10_000
"""Notes, special abilities, background and other free text."""
ATTRIBUTE_MAX: Final = DieCode(10)
SKILL_MAX: Final = DieCode(20)
DAMAGE_MAX: Final = DieCode(30)
MOVE_MAX: Final = 40
RANGE_MAX: Final = 1_000_000
CREDITS_MAX: Final = 1_000_000_000
LIST_MAX: Final = 200
"""The most skills, powers or gear names one entry may list."""
FORCE_SENSITIVITY: Final = ("allowed", "forbidden", "loses_cones")
FORCE_SKILLS: Final = ("control", "sense", "alter")

DOCUMENT_FORMAT: Final = "datapad-library"
DOCUMENT_VERSION: Final = 1
MAX_DOCUMENT_ENTRIES: Final = 5_000


class LibraryError(RulesError):
    """A library entry or document the engine refuses. ``where`` is the place (``skills[2].code``,
    empty for the whole value), ``detail`` what is wrong there; the message joins them."""

    def __init__(self, where: str, detail: str) -> None:
        self.where = where
        self.detail = detail
        super().__init__(f"{where}: {detail}" if where else detail)

    def inside(self, prefix: str) -> LibraryError:
        """The same refusal with its place inside ``prefix`` (``entries[3]``)."""
        if not self.where:
            return LibraryError(prefix, self.detail)
        joiner = "" if self.where.startswith("[") else "."
        return LibraryError(f"{prefix}{joiner}{self.where}", self.detail)


# ---------------------------------------------------------------------------------------------
# Field checks: each takes the value and its place, returns the normalised value or raises
# ---------------------------------------------------------------------------------------------
def _at(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def _object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise LibraryError(where, f"must be an object, not {_kind_of(value)}")
    return value


def _kind_of(value: object) -> str:
    names = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list"}
    if value is None:
        return "null"
    return names.get(type(value), type(value).__name__)


def _known(data: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    allowed = tuple(allowed)
    for key in data:
        if key not in allowed:
            raise LibraryError(
                _at(where, str(key)), f"unknown field; expected {', '.join(allowed)}"
            )


def _text(value: object, where: str, *, limit: int = TEXT_MAX, required: bool = False) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise LibraryError(where, f"must be text, not {_kind_of(value)}")
    if "\x00" in value:
        raise LibraryError(where, "contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise LibraryError(
            where, "contains a character that is not text (a lone surrogate)"
        ) from None
    text = value.replace("\r\n", "\n").strip()
    if required and not text:
        raise LibraryError(where, "must not be empty")
    if len(text) > limit:
        raise LibraryError(where, f"is {len(text)} characters long; at most {limit}")
    return text


def _name(value: object, where: str) -> str:
    return " ".join(_text(value, where, limit=NAME_MAX, required=True).split())


def _optional_text(value: object, where: str, limit: int = SHORT_TEXT_MAX) -> str | None:
    text = _text(value, where, limit=limit)
    return text or None


def _bool(value: object, where: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise LibraryError(where, f"must be true or false, not {value!r}")
    return value


def _int(value: object, where: str, *, low: int = 0, high: int = CREDITS_MAX) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise LibraryError(where, f"must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise LibraryError(where, f"{value} is outside {low} to {high}")
    return value


def _optional_int(value: object, where: str, *, high: int = CREDITS_MAX) -> int | None:
    return None if value is None else _int(value, where, high=high)


def _code(value: object, where: str, *, high: DieCode, zero: bool = False) -> str:
    """A die code as written on a sheet, canonical (``4d + 1`` -> ``4D+1``), above 0D (or at
    least 0D with ``zero``) and at most ``high``."""
    if not isinstance(value, str):
        raise LibraryError(where, f"must be a die code such as 3D+1, not {_kind_of(value)}")
    try:
        code = DieCode.parse(value)
    except DieCodeError as exc:
        raise LibraryError(where, f"{value.strip()!r} is not a die code ({exc})") from None
    if not code.is_standard:
        raise LibraryError(
            where,
            f"{value.strip()!r} is not a die code as written on a sheet: 0, 1 or 2 pips and no "
            f"negative dice (three pips make a die: {code.normalized()})",
        )
    if code > high:
        raise LibraryError(where, f"{code} is too high: at most {high} here")
    if not zero and not code:
        raise LibraryError(where, f"{code} is too low: above 0D here")
    return str(code)


def _optional_code(value: object, where: str, *, high: DieCode, zero: bool = False) -> str | None:
    if value is None or value == "":
        return None
    return _code(value, where, high=high, zero=zero)


def _names(
    value: object, where: str, *, lookup: Callable[[str, str], str] | None = None
) -> list[str]:
    """A list of distinct names (case-blind), each checked by ``lookup`` if given."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise LibraryError(where, f"must be a list of names, not {_kind_of(value)}")
    if len(value) > LIST_MAX:
        raise LibraryError(where, f"lists {len(value)} names; at most {LIST_MAX}")
    names: list[str] = []
    seen: set[str] = set()
    for i, item in enumerate(value):
        name = " ".join(_text(item, _at(where, i), limit=SHORT_TEXT_MAX, required=True).split())
        if lookup is not None:
            name = lookup(name, _at(where, i))
        if name.casefold() in seen:
            raise LibraryError(_at(where, i), f"{name!r} is listed twice")
        seen.add(name.casefold())
        names.append(name)
    return names
