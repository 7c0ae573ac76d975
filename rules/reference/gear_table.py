"""The weapons and armour tables: personal weapons (damage, ranges, blast bands) and armour,
with the source of each value."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Literal

from rules.dice import DieCode
from rules.reference.loader import (
    ReferenceDataError,
    _check_source,
    _check_unique,
    _code,
    _find,
    _optional_code,
    _optional_int,
    _provenance,
    _read,
    _record,
)
from rules.reference.skill_table import skill


# ---------------------------------------------------------------------------------------------
# Weapons and armour
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WeaponRanges:
    """Range bands in metres, as printed ``3-10/30/120``: short 3–10, medium 11–30, long
    31–120 (closer than short is point-blank)."""

    short_min: int
    short_max: int
    medium_max: int
    long_max: int

    def __str__(self) -> str:
        return f"{self.short_min}-{self.short_max}/{self.medium_max}/{self.long_max}"

    @classmethod
    def from_json(cls, data: Any, where: str) -> WeaponRanges:
        try:
            (low, high), medium, long = data["short"], data["medium"], data["long"]
        except (TypeError, KeyError, ValueError):
            raise ReferenceDataError(
                f"{where}: ranges need short [min, max], medium and long"
            ) from None
        values = [_optional_int(v, f"{where} ranges") for v in (low, high, medium, long)]
        known = [v for v in values if v is not None]
        if len(known) != len(values) or known != sorted(known):
            raise ReferenceDataError(f"{where}: ranges must increase: {low}-{high}/{medium}/{long}")
        return cls(*known)


@dataclass(frozen=True, slots=True)
class BlastBand:
    """Everyone within ``radius`` metres (and outside the smaller bands) takes ``damage``."""

    radius: int
    damage: DieCode


@dataclass(frozen=True, slots=True)
class Weapon:
    """A personal weapon. ``damage`` is added to the wielder's Strength when
    ``adds_strength`` (``STR+1D``); ``provenance`` names the source of each value."""

    name: str
    category: str
    skill: str
    source: str
    scale: str = "character"
    damage: DieCode | None = None
    adds_strength: bool = False
    stun_damage: DieCode | None = None
    can_stun: bool = False
    fire_control: DieCode | None = None
    difficulty: str | None = None
    ranges: WeaponRanges | None = None
    long_range_penalty: DieCode | None = None
    blast: tuple[BlastBand, ...] = ()
    ammo: int | None = None
    cost: int | None = None
    availability: str | None = None
    provenance: tuple[tuple[str, str], ...] = ()
    citation: str = ""
    notes: str = ""

    @property
    def damage_text(self) -> str:
        """As printed: ``4D``, ``STR+1D``, ``STR``, or the blast bands ``10D/8D/5D/2D``."""
        if self.blast:
            return "/".join(str(b.damage) for b in self.blast)
        if self.damage is None:
            return "—"
        if self.adds_strength:
            return "STR" if not self.damage else f"STR{self.damage.signed()}"
        return str(self.damage)

    def damage_code(self, strength: DieCode | str | None = None) -> DieCode:
        """The damage dice to roll: the weapon's code, or Strength plus it for ``STR+`` weapons
        (pips kept as they are, as in play)."""
        if self.damage is None:
            raise ReferenceDataError(f"{self.name} has no single damage code; use its blast bands")
        if not self.adds_strength:
            return self.damage
        if strength is None:
            raise ReferenceDataError(f"{self.name} does STR{self.damage.signed()}: give Strength")
        return DieCode.parse(strength).pool_add(self.damage)

    def source_of(self, field_name: str) -> str:
        """Where one value comes from (falls back to the record's ``source``)."""
        return dict(self.provenance).get(field_name, self.source)

    @classmethod
    def from_json(cls, data: Any) -> Weapon:
        data, where = _record(data, "weapon")
        skill_name = data.get("skill")
        if not isinstance(skill_name, str):
            raise ReferenceDataError(f"{where}: name the skill used to attack with it")
        ranges = data.get("ranges")
        return cls(
            name=data["name"],
            category=data.get("category", "ranged"),
            skill=skill(skill_name).name,
            source=_check_source(data.get("source"), where),
            scale=data.get("scale", "character"),
            damage=_optional_code(data.get("damage"), f"{where} damage"),
            adds_strength=bool(data.get("adds_strength", False)),
            stun_damage=_optional_code(data.get("stun_damage"), f"{where} stun damage"),
            can_stun=bool(data.get("can_stun", False)),
            fire_control=_optional_code(data.get("fire_control"), f"{where} fire control"),
            difficulty=data.get("difficulty"),
            ranges=None if ranges is None else WeaponRanges.from_json(ranges, where),
            long_range_penalty=_optional_code(data.get("long_range_penalty"), where),
            blast=_blast(data.get("blast", ()), where),
            ammo=_optional_int(data.get("ammo"), f"{where} ammo"),
            cost=_optional_int(data.get("cost"), f"{where} cost"),
            availability=data.get("availability"),
            provenance=_provenance(data, where),
            citation=data.get("citation", ""),
            notes=data.get("notes", ""),
        )


def _blast(bands: Any, where: str) -> tuple[BlastBand, ...]:
    parsed = tuple(
        BlastBand(
            radius=_optional_int(b.get("radius"), f"{where} blast radius") or 0,
            damage=_code(b.get("damage"), f"{where} blast damage"),
        )
        for b in bands
    )
    radii = [b.radius for b in parsed]
    if radii != sorted(set(radii)) or [b.damage for b in parsed] != sorted(
        (b.damage for b in parsed), reverse=True
    ):
        raise ReferenceDataError(f"{where}: blast bands must widen as their damage falls")
    return parsed


@dataclass(frozen=True, slots=True)
class Armour:
    """Armour: dice added to the Strength roll against physical or energy damage, and the
    Dexterity it costs the wearer."""

    name: str
    physical: DieCode
    energy: DieCode
    dexterity_penalty: DieCode
    covers: tuple[str, ...]
    source: str
    cost: int | None = None
    availability: str | None = None
    provenance: tuple[tuple[str, str], ...] = ()
    citation: str = ""
    notes: str = ""

    def protection(self, kind: Literal["physical", "energy"]) -> DieCode:
        """The dice this armour adds to Strength against ``kind`` damage."""
        if kind not in ("physical", "energy"):
            raise ReferenceDataError(
                f"armour protects against physical or energy damage, not {kind!r}"
            )
        return self.physical if kind == "physical" else self.energy

    def source_of(self, field_name: str) -> str:
        return dict(self.provenance).get(field_name, self.source)

    @classmethod
    def from_json(cls, data: Any) -> Armour:
        data, where = _record(data, "armour")
        return cls(
            name=data["name"],
            physical=_code(data.get("physical", "0D"), f"{where} physical"),
            energy=_code(data.get("energy", "0D"), f"{where} energy"),
            dexterity_penalty=_code(data.get("dexterity_penalty", "0D"), f"{where} Dexterity"),
            covers=tuple(data.get("covers", ())),
            source=_check_source(data.get("source"), where),
            cost=_optional_int(data.get("cost"), f"{where} cost"),
            availability=data.get("availability"),
            provenance=_provenance(data, where),
            citation=data.get("citation", ""),
            notes=data.get("notes", ""),
        )


@functools.cache
def weapons() -> tuple[Weapon, ...]:
    """Personal weapons whose statistics appear in the sources (some fields [2E-STD])."""
    parsed = tuple(Weapon.from_json(w) for w in _read("weapons")["weapons"])
    _check_unique((w.name for w in parsed), "weapon")
    return parsed


def weapon_by_name(name: str) -> Weapon:
    """A weapon by name, in any case (``'blaster pistol'``)."""
    return _find(weapons(), name, "weapon", lambda w: (w.name,), "weapons()")


@functools.cache
def armour() -> tuple[Armour, ...]:
    """Armour named in the sources."""
    parsed = tuple(Armour.from_json(a) for a in _read("armour")["armour"])
    _check_unique((a.name for a in parsed), "armour")
    return parsed


def armour_by_name(name: str) -> Armour:
    """Armour by name, in any case; "armor" and "armour" are both understood."""
    spelled = re.sub(r"armor\b", "armour", name, flags=re.I) if isinstance(name, str) else name
    return _find(armour(), spelled, "armour", lambda a: (a.name,), "armour()")
