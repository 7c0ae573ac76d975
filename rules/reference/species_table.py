"""The species table: each species' attribute limits, Move and what the sources say."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.dice import DieCode
from rules.reference.loader import (
    ReferenceDataError,
    _check_source,
    _check_unique,
    _code,
    _find,
    _optional_code,
    _optional_int,
    _read,
    _record,
)
from rules.reference.skill_table import attribute, attributes


# ---------------------------------------------------------------------------------------------
# Species
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AttributeRange:
    """A species' starting minimum and maximum for one attribute."""

    minimum: DieCode
    maximum: DieCode

    def __contains__(self, code: object) -> bool:
        if isinstance(code, str):
            code = DieCode.parse(code)
        if not isinstance(code, DieCode):
            return False
        return self.minimum <= code <= self.maximum

    def __str__(self) -> str:
        return f"{self.minimum}/{self.maximum}"


@dataclass(frozen=True, slots=True)
class Species:
    """A species or House PC type. ``attributes``/``move`` are ``None`` when no source (and
    no confident 2E R&E value) gives them: the GM enters those."""

    name: str
    plural: str
    source: str
    named_in: tuple[str, ...]
    citation: str
    attribute_dice: DieCode | None
    attributes: tuple[tuple[str, AttributeRange], ...] | None
    move: int | None
    max_move: int | None
    setting: str = "star_wars"
    house_force_sensitivity: str = "allowed"
    aliases: tuple[str, ...] = ()
    notes: str = ""

    @property
    def has_statistics(self) -> bool:
        return self.attributes is not None

    def attribute_range(self, name: str) -> AttributeRange:
        """Minimum and maximum of one attribute (``'Strength'``, ``'str'``…)."""
        key = attribute(name).name
        if self.attributes is None:
            raise ReferenceDataError(
                f"the sources give no attribute limits for {self.plural}; the GM must enter them"
            )
        return dict(self.attributes)[key]

    @classmethod
    def from_json(cls, data: Any) -> Species:
        data, where = _record(data, "species")
        ranges = data.get("attributes")
        parsed: tuple[tuple[str, AttributeRange], ...] | None = None
        if ranges is not None:
            if not isinstance(ranges, Mapping):
                raise ReferenceDataError(f"{where}: attributes must map names to min/max")
            given = {attribute(k).name: v for k, v in ranges.items()}
            missing = [a.name for a in attributes() if a.name not in given]
            if missing:
                raise ReferenceDataError(f"{where}: no limits for {', '.join(missing)}")
            parsed = tuple(
                (a.name, _attribute_range(given[a.name], f"{where} {a.name}")) for a in attributes()
            )
        move = data.get("move") or {}
        if not isinstance(move, Mapping):
            raise ReferenceDataError(f"{where}: move must give normal and max")
        normal, top = move.get("normal"), move.get("max")
        normal, top = _optional_int(normal, f"{where} move"), _optional_int(top, f"{where} move")
        if normal is not None and top is not None and top < normal:
            raise ReferenceDataError(f"{where}: maximum Move {top} is below its Move {normal}")
        sensitivity = data.get("house_force_sensitivity", "allowed")
        if sensitivity not in ("allowed", "forbidden", "loses_cones"):
            raise ReferenceDataError(f"{where}: unknown house_force_sensitivity {sensitivity!r}")
        return cls(
            name=data["name"],
            plural=data.get("plural", data["name"]),
            source=_check_source(data.get("source"), where),
            named_in=tuple(_check_source(t, where) for t in data.get("named_in", ())),
            citation=data.get("citation", ""),
            attribute_dice=_optional_code(data.get("attribute_dice"), f"{where} attribute dice"),
            attributes=parsed,
            move=normal,
            max_move=top,
            setting=data.get("setting", "star_wars"),
            house_force_sensitivity=sensitivity,
            aliases=tuple(data.get("aliases", ())),
            notes=data.get("notes", ""),
        )


def _attribute_range(data: Any, where: str) -> AttributeRange:
    if not isinstance(data, Mapping):
        raise ReferenceDataError(f"{where}: give a min and a max")
    low, high = _code(data.get("min"), where), _code(data.get("max"), where)
    if high < low:
        raise ReferenceDataError(f"{where}: maximum {high} is below minimum {low}")
    return AttributeRange(low, high)


@functools.cache
def species() -> tuple[Species, ...]:
    """Every species the sources name, in table order (Human first)."""
    parsed = tuple(Species.from_json(s) for s in _read("species")["species"])
    _check_unique((n for s in parsed for n in (s.name, *s.aliases)), "species")
    return parsed


def species_by_name(name: str) -> Species:
    """A species by name, plural or alias, in any case (``'wookiees'``, ``'Sand People'``)."""
    return _find(species(), name, "species", lambda s: (s.name, s.plural, *s.aliases), "species()")
