"""The attributes and skills table: the six attributes, the 2E R&E skills, the First Edition
skills the Rules Companion names and the Force skills."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from rules.dice import DieCode
from rules.reference.loader import (
    Edition,
    ReferenceDataError,
    _check_source,
    _check_unique,
    _code,
    _find,
    _key,
    _read,
    _record,
    _text,
)


# ---------------------------------------------------------------------------------------------
# Attributes and skills
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Attribute:
    """One of the six attributes: ``name`` is the key used everywhere (``'dexterity'``)."""

    name: str
    label: str
    abbreviation: str
    source: str

    @classmethod
    def from_json(cls, data: Any) -> Attribute:
        data, where = _record(data, "attribute")
        return cls(
            name=data["name"],
            label=_text(data, "label", where),
            abbreviation=_text(data, "abbreviation", where),
            source=_check_source(data.get("source"), where),
        )


@dataclass(frozen=True, slots=True)
class Prerequisite:
    """A skill that must reach ``minimum`` before another can be bought."""

    skill: str
    minimum: DieCode
    source: str

    @classmethod
    def from_json(cls, data: Any, where: str) -> Prerequisite:
        if not isinstance(data, Mapping) or not isinstance(data.get("skill"), str):
            raise ReferenceDataError(f"{where}: a prerequisite needs a skill and a minimum")
        return cls(
            skill=data["skill"],
            minimum=_code(data.get("minimum"), f"{where} prerequisite"),
            source=_check_source(data.get("source"), f"{where} prerequisite"),
        )


@dataclass(frozen=True, slots=True)
class Specialization:
    """An example specialization of a skill (a separate skill once chosen [UPG])."""

    name: str
    source: str
    advanced: bool = False
    prerequisite: Prerequisite | None = None
    notes: str = ""

    @classmethod
    def from_json(cls, data: Any, skill_name: str) -> Specialization:
        data, where = _record(data, f"{skill_name} specialization")
        prerequisite = data.get("prerequisite")
        return cls(
            name=data["name"],
            source=_check_source(data.get("source"), where),
            advanced=bool(data.get("advanced", False)),
            prerequisite=None
            if prerequisite is None
            else Prerequisite.from_json(prerequisite, where),
            notes=data.get("notes", ""),
        )


_REACTIONS = (None, "dodge", "parry", "vehicle_dodge", "starship_dodge")


@dataclass(frozen=True, slots=True)
class Skill:
    """A skill, its governing attribute (``None`` for the Force skills) and what the sources
    say about it. ``edition`` is ``'2e'`` for the R&E list, ``'1e'`` for First Edition skills
    the Rules Companion names (``equivalent`` gives the nearest 2E skill)."""

    name: str
    attribute: str | None
    source: str
    advanced: bool = False
    prerequisites: tuple[Prerequisite, ...] = ()
    specializations: tuple[Specialization, ...] = ()
    reaction: str | None = None
    edition: str = "2e"
    aliases: tuple[str, ...] = ()
    equivalent: str | None = None
    time_taken: str | None = None
    notes: str = ""

    @property
    def label(self) -> str:
        """As written on a sheet: ``(A) Medicine``, ``Climbing/Jumping``."""
        text = re.sub(r"(^|[\s/])(\w)", lambda m: m[1] + m[2].upper(), self.name)
        return f"(A) {text}" if self.advanced else text

    @property
    def is_force_skill(self) -> bool:
        return self.attribute is None

    @classmethod
    def from_json(cls, data: Any, *, force: bool = False) -> Skill:
        data, where = _record(data, "skill")
        attr = data.get("attribute")
        if force:
            if attr is not None:
                raise ReferenceDataError(f"{where}: a Force skill has no governing attribute")
        else:
            attr = attribute(attr).name if isinstance(attr, str) else _no_attribute(where)
        reaction = data.get("reaction")
        if reaction not in _REACTIONS:
            raise ReferenceDataError(f"{where}: reaction must be one of {_REACTIONS}")
        edition = data.get("edition", "2e")
        if edition not in ("2e", "1e"):
            raise ReferenceDataError(f"{where}: edition must be '2e' or '1e', not {edition!r}")
        return cls(
            name=data["name"],
            attribute=attr,
            source=_check_source(data.get("source"), where),
            advanced=bool(data.get("advanced", False)),
            prerequisites=tuple(
                Prerequisite.from_json(p, where) for p in data.get("prerequisites", ())
            ),
            specializations=tuple(
                Specialization.from_json(s, data["name"]) for s in data.get("specializations", ())
            ),
            reaction=reaction,
            edition=edition,
            aliases=tuple(data.get("aliases", ())),
            equivalent=data.get("equivalent"),
            time_taken=data.get("time_taken"),
            notes=data.get("notes", ""),
        )


def _no_attribute(where: str) -> NoReturn:
    raise ReferenceDataError(f"{where}: every skill needs one of the six attributes")


@functools.cache
def attributes() -> tuple[Attribute, ...]:
    """The six attributes in sheet order: Dexterity, Knowledge, Mechanical, Perception,
    Strength, Technical."""
    return tuple(Attribute.from_json(a) for a in _read("attributes_skills")["attributes"])


def attribute(name: str) -> Attribute:
    """An attribute by name, label or abbreviation, in any case (``'dex'``, ``'DEX'``)."""
    return _find(
        attributes(),
        name,
        "attribute",
        lambda a: (a.name, a.abbreviation),
        "Dexterity, Knowledge, Mechanical, Perception, Strength, Technical",
    )


@functools.cache
def _all_skills() -> tuple[Skill, ...]:
    doc = _read("attributes_skills")
    parsed = tuple(Skill.from_json(s) for s in doc["skills"])
    parsed += tuple(Skill.from_json(s, force=True) for s in doc["force_skills"])
    _check_unique((s.name for s in parsed), "skill")
    names = {_key(s.name) for s in parsed}
    for s in parsed:
        for p in s.prerequisites + tuple(
            x.prerequisite for x in s.specializations if x.prerequisite
        ):
            if _key(p.skill) not in names:
                raise ReferenceDataError(f"skill {s.name!r} needs unknown skill {p.skill!r}")
    return parsed


def skills(edition: Edition = "2e") -> tuple[Skill, ...]:
    """Attribute skills, in list order: the 2E R&E list by default, ``'1e'`` for the First
    Edition skills the Rules Companion names, ``'all'`` for both. Force skills: see
    :func:`force_skills`."""
    if edition not in ("2e", "1e", "all"):
        raise ReferenceDataError(f"edition must be '2e', '1e' or 'all', not {edition!r}")
    return tuple(
        s
        for s in _all_skills()
        if not s.is_force_skill and (edition == "all" or s.edition == edition)
    )


def force_skills() -> tuple[Skill, ...]:
    """control, sense and alter: only for Force-sensitive characters; no attribute."""
    return tuple(s for s in _all_skills() if s.is_force_skill)


def skill(name: str) -> Skill:
    """Any skill (2E, 1st Edition or Force) by name or alias, in any case. ``(A)`` and
    ``(s)`` prefixes are ignored, so ``'(A) Medicine'`` finds medicine."""
    cleaned = re.sub(r"^\s*\((a|s)\)\s*", "", name, flags=re.I) if isinstance(name, str) else name
    return _find(_all_skills(), cleaned, "skill", lambda s: (s.name, *s.aliases), "skills()")
