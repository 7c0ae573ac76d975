"""Each kind of library entry's schema: :func:`check_entry` validates and normalises one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from rules import reference
from rules.dice import DieCode
from rules.force.skills import ForceError, force_power
from rules.library.fields import (
    ATTRIBUTE_MAX,
    DAMAGE_MAX,
    FORCE_SENSITIVITY,
    FORCE_SKILLS,
    KINDS,
    LIST_MAX,
    MOVE_MAX,
    NAME_MAX,
    RANGE_MAX,
    SHORT_TEXT_MAX,
    SKILL_MAX,
    SOURCE_MAX,
    EntryData,
    LibraryError,
    _at,
    _bool,
    _code,
    _int,
    _kind_of,
    _known,
    _name,
    _names,
    _object,
    _optional_code,
    _optional_int,
    _optional_text,
    _text,
)
from rules.scale import Scale, ScaleError
from rules.traits import ATTRIBUTE_LABELS, ATTRIBUTES

# ---------------------------------------------------------------------------------------------
# The kinds
# ---------------------------------------------------------------------------------------------
COMMON: Final = ("name", "source", "notes")


def _common(data: Mapping[str, Any]) -> EntryData:
    return {
        "name": _name(data.get("name"), "name"),
        "source": " ".join(_text(data.get("source"), "source", limit=SOURCE_MAX).split()),
        "notes": _text(data.get("notes"), "notes"),
    }


def _species(data: Mapping[str, Any]) -> EntryData:
    _known(data, (*COMMON, "attributes", "move", "special_abilities", "force_sensitivity"), "")
    entry = _common(data)
    ranges = data.get("attributes")
    limits: dict[str, dict[str, str]] | None = None
    if ranges is not None:
        ranges = _object(ranges, "attributes")
        _known(ranges, ATTRIBUTES, "attributes")
        limits = {}
        for attr in ATTRIBUTES:
            where = f"attributes.{attr}"
            if attr not in ranges:
                raise LibraryError(where, f"give the {ATTRIBUTE_LABELS[attr]} minimum and maximum")
            pair = _object(ranges[attr], where)
            _known(pair, ("min", "max"), where)
            low = _code(pair.get("min"), f"{where}.min", high=ATTRIBUTE_MAX)
            high = _code(pair.get("max"), f"{where}.max", high=ATTRIBUTE_MAX)
            if DieCode.parse(high) < DieCode.parse(low):
                raise LibraryError(f"{where}.max", f"maximum {high} is below the minimum {low}")
            limits[attr] = {"min": low, "max": high}
    move = data.get("move")
    moves: dict[str, int] | None = None
    if move is not None:
        move = _object(move, "move")
        _known(move, ("normal", "max"), "move")
        normal = _int(move.get("normal"), "move.normal", low=1, high=MOVE_MAX)
        top = _int(move.get("max", normal), "move.max", low=1, high=MOVE_MAX)
        if top < normal:
            raise LibraryError("move.max", f"maximum Move {top} is below the Move {normal}")
        moves = {"normal": normal, "max": top}
    sensitivity = data.get("force_sensitivity", "allowed")
    if sensitivity not in FORCE_SENSITIVITY:
        raise LibraryError(
            "force_sensitivity", f"{sensitivity!r} is not one of {', '.join(FORCE_SENSITIVITY)}"
        )
    return {
        **entry,
        "attributes": limits,
        "move": moves,
        "special_abilities": _text(data.get("special_abilities"), "special_abilities"),
        "force_sensitivity": sensitivity,
    }


def _attribute_name(value: object, where: str) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or value.strip().casefold() not in ATTRIBUTES:
        raise LibraryError(where, f"{value!r} is not one of the six attributes")
    return value.strip().casefold()


def _reference_skill(name: str) -> reference.Skill | None:
    try:
        return reference.skill(name)
    except reference.ReferenceDataError:
        return None


def _skills(value: object) -> list[EntryData]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise LibraryError("skills", f"must be a list of skills, not {_kind_of(value)}")
    if len(value) > LIST_MAX:
        raise LibraryError("skills", f"lists {len(value)} skills; at most {LIST_MAX}")
    rows: list[EntryData] = []
    for i, raw in enumerate(value):
        where = _at("skills", i)
        row = _object(raw, where)
        _known(row, ("name", "code", "attribute", "specialization_of", "advanced"), where)
        name = " ".join(
            _text(row.get("name"), f"{where}.name", required=True, limit=SHORT_TEXT_MAX).split()
        )
        known = _reference_skill(name)
        if known is not None and known.is_force_skill:
            raise LibraryError(f"{where}.name", f"{name} is a Force skill: give it under force")
        base_text = _text(
            row.get("specialization_of"), f"{where}.specialization_of", limit=SHORT_TEXT_MAX
        )
        base = " ".join(base_text.split()) or None
        rows.append(
            {
                "name": name,
                "code": _code(row.get("code"), f"{where}.code", high=SKILL_MAX),
                "attribute": _attribute_name(row.get("attribute"), f"{where}.attribute"),
                "specialization_of": base,
                "advanced": (
                    _bool(row["advanced"], f"{where}.advanced")
                    if "advanced" in row
                    else bool(known and known.advanced)
                ),
            }
        )
    by_name: dict[str, EntryData] = {}
    for i, row in enumerate(rows):
        key = row["name"].casefold()
        if key in by_name:
            raise LibraryError(f"skills[{i}].name", f"{row['name']!r} is listed twice")
        by_name[key] = row
    for i, row in enumerate(rows):
        if row["attribute"] is not None:
            continue
        attribute = _skill_attribute(row["name"])
        base = row["specialization_of"]
        if attribute is None and base is not None:
            other = by_name.get(base.casefold())
            attribute = (other or {}).get("attribute") or _skill_attribute(base)
        if attribute is None:
            raise LibraryError(
                f"skills[{i}].attribute",
                f"Datapad does not know the skill {row['name']!r}; name its attribute",
            )
        row["attribute"] = attribute
    return rows


def _skill_attribute(name: str) -> str | None:
    known = _reference_skill(name)
    return known.attribute if known is not None else None


def _power(name: str, where: str) -> str:
    try:
        return force_power(name).name
    except ForceError as exc:
        raise LibraryError(where, str(exc)) from None


def _template(data: Mapping[str, Any]) -> EntryData:
    _known(
        data,
        (
            *COMMON,
            "species",
            "attributes",
            "skills",
            "force",
            "gear",
            "credits",
            "background",
            "personality",
        ),
        "",
    )
    entry = _common(data)
    species = data.get("species")
    codes = _object(data.get("attributes"), "attributes")
    _known(codes, ATTRIBUTES, "attributes")
    attributes = {}
    for attr in ATTRIBUTES:
        if attr not in codes:
            raise LibraryError(f"attributes.{attr}", f"give the {ATTRIBUTE_LABELS[attr]} code")
        attributes[attr] = _code(codes[attr], f"attributes.{attr}", high=ATTRIBUTE_MAX)
    force = _object(data.get("force") or {}, "force")
    _known(force, ("sensitive", *FORCE_SKILLS, "powers"), "force")
    sensitive = _bool(force.get("sensitive"), "force.sensitive")
    force_out: EntryData = {"sensitive": sensitive}
    for skill in FORCE_SKILLS:
        code = _optional_code(force.get(skill), f"force.{skill}", high=SKILL_MAX)
        if code is not None and not sensitive:
            raise LibraryError(f"force.{skill}", "only a Force-sensitive template has Force skills")
        force_out[skill] = code
    powers = _names(force.get("powers"), "force.powers", lookup=_power)
    if powers and not sensitive:
        raise LibraryError("force.powers", "only a Force-sensitive template knows Force powers")
    force_out["powers"] = powers
    gear = _object(data.get("gear") or {}, "gear")
    _known(gear, ("weapons", "armour", "items"), "gear")
    return {
        **entry,
        "species": ""
        if species is None
        else " ".join(_text(species, "species", limit=NAME_MAX).split()),
        "attributes": attributes,
        "skills": _skills(data.get("skills")),
        "force": force_out,
        "gear": {
            "weapons": _names(gear.get("weapons"), "gear.weapons"),
            "armour": _names(gear.get("armour"), "gear.armour"),
            "items": _text(gear.get("items"), "gear.items"),
        },
        "credits": _int(data.get("credits", 0), "credits"),
        "background": _text(data.get("background"), "background"),
        "personality": _text(data.get("personality"), "personality"),
    }


def _ranges(value: object) -> EntryData | None:
    if value is None:
        return None
    data = _object(value, "ranges")
    _known(data, ("short", "medium", "long"), "ranges")
    short = data.get("short")
    if not isinstance(short, list) or len(short) != 2:
        raise LibraryError("ranges.short", "must be [minimum, maximum] in metres")
    low = _int(short[0], "ranges.short[0]", high=RANGE_MAX)
    high = _int(short[1], "ranges.short[1]", high=RANGE_MAX)
    medium = _int(data.get("medium"), "ranges.medium", high=RANGE_MAX)
    long = _int(data.get("long"), "ranges.long", high=RANGE_MAX)
    for where, a, b in (
        ("ranges.short[1]", low, high),
        ("ranges.medium", high, medium),
        ("ranges.long", medium, long),
    ):
        if b < a:
            raise LibraryError(where, f"ranges must not shrink: {low}-{high}/{medium}/{long}")
    return {"short": [low, high], "medium": medium, "long": long}


def _blast(value: object) -> list[EntryData]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise LibraryError("blast", f"must be a list of {{radius, damage}}, not {_kind_of(value)}")
    bands: list[EntryData] = []
    for i, raw in enumerate(value[: LIST_MAX + 1]):
        where = _at("blast", i)
        band = _object(raw, where)
        _known(band, ("radius", "damage"), where)
        radius = _int(band.get("radius"), f"{where}.radius", high=RANGE_MAX)
        damage = _code(band.get("damage"), f"{where}.damage", high=DAMAGE_MAX)
        if bands and (
            radius <= bands[-1]["radius"]
            or DieCode.parse(damage) > DieCode.parse(bands[-1]["damage"])
        ):
            raise LibraryError(where, "blast bands must widen as their damage falls")
        bands.append({"radius": radius, "damage": damage})
    return bands


def _scale(value: object) -> str:
    if value is None or value == "":
        return "character"
    if not isinstance(value, str):
        raise LibraryError("scale", f"must be text, not {_kind_of(value)}")
    try:
        return Scale.parse(value).key
    except ScaleError as exc:
        raise LibraryError("scale", str(exc)) from None


def _weapon(data: Mapping[str, Any]) -> EntryData:
    _known(
        data,
        (
            *COMMON,
            "skill",
            "damage",
            "adds_strength",
            "stun_damage",
            "can_stun",
            "blast",
            "ranges",
            "ammo",
            "scale",
            "cost",
            "availability",
        ),
        "",
    )
    entry = _common(data)
    skill = " ".join(_text(data.get("skill"), "skill", limit=SHORT_TEXT_MAX, required=True).split())
    known = _reference_skill(skill)
    return {
        **entry,
        "skill": known.name if known is not None else skill,
        "damage": _optional_code(data.get("damage"), "damage", high=DAMAGE_MAX, zero=True),
        "adds_strength": _bool(data.get("adds_strength"), "adds_strength"),
        "stun_damage": _optional_code(data.get("stun_damage"), "stun_damage", high=DAMAGE_MAX),
        "can_stun": _bool(data.get("can_stun"), "can_stun"),
        "blast": _blast(data.get("blast")),
        "ranges": _ranges(data.get("ranges")),
        "ammo": _optional_int(data.get("ammo"), "ammo"),
        "scale": _scale(data.get("scale")),
        "cost": _optional_int(data.get("cost"), "cost"),
        "availability": _optional_text(data.get("availability"), "availability"),
    }


def _armour(data: Mapping[str, Any]) -> EntryData:
    _known(
        data,
        (*COMMON, "physical", "energy", "dexterity_penalty", "covers", "cost", "availability"),
        "",
    )
    entry = _common(data)
    codes = {
        key: _code(data.get(key, "0D"), key, high=ATTRIBUTE_MAX, zero=True)
        for key in ("physical", "energy", "dexterity_penalty")
    }
    return {
        **entry,
        **codes,
        "covers": _names(data.get("covers"), "covers"),
        "cost": _optional_int(data.get("cost"), "cost"),
        "availability": _optional_text(data.get("availability"), "availability"),
    }


def _gear(data: Mapping[str, Any]) -> EntryData:
    _known(data, (*COMMON, "description", "cost", "availability"), "")
    return {
        **_common(data),
        "description": _text(data.get("description"), "description"),
        "cost": _optional_int(data.get("cost"), "cost"),
        "availability": _optional_text(data.get("availability"), "availability"),
    }


_CHECKS: Final[dict[str, Callable[[Mapping[str, Any]], EntryData]]] = {
    "species": _species,
    "template": _template,
    "weapon": _weapon,
    "armour": _armour,
    "gear": _gear,
}


def check_entry(kind: str, data: object) -> EntryData:
    """The entry of ``kind`` validated and normalised (every field present, die codes
    canonical, text trimmed): a JSON-safe ``dict``, unchanged by a second check. Raises
    :class:`LibraryError` naming the place of the first problem."""
    if kind not in _CHECKS:
        raise LibraryError("kind", f"{kind!r} is not one of {', '.join(KINDS)}")
    return _CHECKS[kind](_object(data, ""))
