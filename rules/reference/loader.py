"""Reading the reference tables (``rules/data/*.json`` or ``.toml``) and checking their records.

Files are read once, lazily, through ``importlib.resources`` so they are found wherever the
package is installed. The small helpers here parse and check the fields every table shares
(name, source tags, die codes, provenance) for the typed tables beside this module.
"""

from __future__ import annotations

import copy
import difflib
import functools
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Literal

from rules.dice import DieCode, DieCodeError
from rules.errors import RulesError

#: Tables the rules package ships or will ship (other modules add theirs as they land).
DATA_TABLES = (
    "attributes_skills",
    "species",
    "weapons",
    "armour",
    "droids",
    "starships",
    "vehicles",
    "force_powers",
)

#: The provenance tags a ``source`` may combine (see rules/README in ../shared/rules).
SOURCE_TAGS = ("UPG", "WIKI", "HOUSE", "RC", "2E-STD, not in sources", "derived")

Edition = Literal["2e", "1e", "all"]


class ReferenceDataError(RulesError):
    """A reference table that is missing, malformed, or asked for by an unknown name."""


class UnknownNameError(ReferenceDataError):
    """A lookup by name found nothing; ``suggestions`` holds the closest known names."""

    def __init__(self, message: str, suggestions: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.suggestions = tuple(suggestions)


# ---------------------------------------------------------------------------------------------
# Loading files
# ---------------------------------------------------------------------------------------------
def _data_dir() -> Traversable:
    return resources.files("rules").joinpath("data")


def _table_name(name: str) -> str:
    if not isinstance(name, str):
        raise ReferenceDataError(f"a reference table is named by text, not {type(name).__name__}")
    key = re.sub(r"\.(json|toml)$", "", name.strip().lower())
    key = re.sub(r"[\s-]+", "_", key)
    if not re.fullmatch(r"[a-z0-9_]+", key):
        raise ReferenceDataError(f"{name!r} is not a reference table name (use e.g. 'droids')")
    return key


def available() -> tuple[str, ...]:
    """The tables present in this installation, by name (``'species'``, ``'droids'``…)."""
    names = {
        entry.name.rsplit(".", 1)[0]
        for entry in _data_dir().iterdir()
        if entry.is_file() and entry.name.endswith((".json", ".toml"))
    }
    return tuple(sorted(names))


@functools.cache
def _read(key: str) -> Any:
    folder = _data_dir()
    for suffix in (".json", ".toml"):
        entry = folder.joinpath(key + suffix)
        if entry.is_file():
            text = entry.read_text(encoding="utf-8")
            try:
                return json.loads(text) if suffix == ".json" else tomllib.loads(text)
            except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
                raise ReferenceDataError(f"rules/data/{key}{suffix} is not valid: {exc}") from None
    if key in DATA_TABLES:
        raise ReferenceDataError(
            f"the {key!r} table (rules/data/{key}.json) is not installed yet; "
            f"tables available now: {', '.join(available())}"
        )
    raise UnknownNameError(
        f"there is no reference table called {key!r}; known tables: {', '.join(DATA_TABLES)}",
        difflib.get_close_matches(key, DATA_TABLES, n=3, cutoff=0.5),
    )


def load(name: str) -> Any:
    """The parsed document of table ``name`` (``'droids'``, ``'force_powers.json'``…).

    Files are read once and cached; each call returns a fresh copy, so callers may change it.
    A table that another module has not shipped yet raises ``ReferenceDataError``."""
    return copy.deepcopy(_read(_table_name(name)))


# ---------------------------------------------------------------------------------------------
# Small parsing helpers
# ---------------------------------------------------------------------------------------------
def _key(text: str) -> str:
    """How names are compared: case-blind, typographic apostrophes and spacing ignored."""
    text = text.replace("’", "'").replace("‘", "'").casefold()
    text = re.sub(r"\s*/\s*", "/", text)
    return re.sub(r"\s+", " ", text).strip()


def _check_source(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ReferenceDataError(f"{where}: every record needs a 'source' tag")
    for part in value.split("; "):
        if part not in SOURCE_TAGS:
            raise ReferenceDataError(
                f"{where}: unknown source tag {part!r}; use {', '.join(SOURCE_TAGS)}"
            )
    return value


def _code(value: Any, where: str) -> DieCode:
    try:
        code = DieCode.parse(value)
    except DieCodeError as exc:
        raise ReferenceDataError(f"{where}: {exc}") from None
    if not code.is_standard:
        raise ReferenceDataError(f"{where}: {value!r} is not a die code as printed on a sheet")
    return code


def _optional_code(value: Any, where: str) -> DieCode | None:
    return None if value is None else _code(value, where)


def _optional_int(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ReferenceDataError(f"{where}: {value!r} should be a whole number of 0 or more")
    return value


def _record(data: Any, what: str) -> tuple[Mapping[str, Any], str]:
    if not isinstance(data, Mapping):
        raise ReferenceDataError(f"a {what} record must be a JSON object, not {data!r}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ReferenceDataError(f"a {what} record has no name: {dict(data)!r}")
    return data, f"{what} {name!r}"


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ReferenceDataError(f"{where}: {key!r} must be text")
    return value


def _provenance(data: Mapping[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    raw = data.get("provenance") or {}
    return tuple((k, _check_source(v, f"{where} ({k})")) for k, v in raw.items())


def _find[T](items: Iterable[T], name: str, what: str, keys: Any, listing: str) -> T:
    """The item whose ``keys(item)`` contains ``name`` (case-blind), or a helpful error."""
    if not isinstance(name, str):
        raise UnknownNameError(f"look up a {what} by its name, not {name!r}")
    wanted = _key(name)
    index: dict[str, T] = {}
    for item in items:
        for k in keys(item):
            index.setdefault(_key(k), item)
    if wanted in index:
        return index[wanted]
    close = [k for k in index if wanted and (wanted in k or k in wanted)]
    close += difflib.get_close_matches(wanted, index, n=4, cutoff=0.6)
    # Name each suggested item once, by its own name (not the alias that matched).
    suggestions = list(dict.fromkeys(keys(index[k])[0] for k in close))[:4]
    hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else f"; see {listing}"
    raise UnknownNameError(f"unknown {what} {name!r}{hint}", suggestions)


def _check_unique(names: Iterable[str], what: str) -> None:
    seen: set[str] = set()
    for name in names:
        if _key(name) in seen:
            raise ReferenceDataError(f"the {what} {name!r} is listed twice")
        seen.add(_key(name))
