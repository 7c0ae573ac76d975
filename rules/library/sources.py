"""The sources' entries (``rules/data``) as library entries, a species entry's limits for
creation, and the shareable library document."""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable, Mapping
from typing import Any

from rules import reference
from rules.creation.species import SpeciesLimits
from rules.dice import DieCode
from rules.library.fields import (
    DOCUMENT_FORMAT,
    DOCUMENT_VERSION,
    KINDS,
    MAX_DOCUMENT_ENTRIES,
    EntryData,
    LibraryError,
    _kind_of,
    _known,
    _object,
)
from rules.library.kinds import check_entry
from rules.traits import ATTRIBUTES


# ---------------------------------------------------------------------------------------------
# The sources' entries
# ---------------------------------------------------------------------------------------------
def _builtin_species(s: reference.Species) -> EntryData:
    return {
        "name": s.name,
        "source": s.source,
        "notes": s.notes,
        "attributes": (
            None
            if s.attributes is None
            else {a: {"min": str(r.minimum), "max": str(r.maximum)} for a, r in s.attributes}
        ),
        "move": (
            None
            if s.move is None
            else {"normal": s.move, "max": s.max_move if s.max_move is not None else s.move}
        ),
        "force_sensitivity": s.house_force_sensitivity,
    }


def _builtin_weapon(w: reference.Weapon) -> EntryData:
    ranges = w.ranges
    return {
        "name": w.name,
        "source": w.source,
        "notes": w.notes,
        "skill": w.skill,
        "damage": None if w.damage is None else str(w.damage),
        "adds_strength": w.adds_strength,
        "stun_damage": None if w.stun_damage is None else str(w.stun_damage),
        "can_stun": w.can_stun,
        "blast": [{"radius": b.radius, "damage": str(b.damage)} for b in w.blast],
        "ranges": (
            None
            if ranges is None
            else {
                "short": [ranges.short_min, ranges.short_max],
                "medium": ranges.medium_max,
                "long": ranges.long_max,
            }
        ),
        "ammo": w.ammo,
        "scale": w.scale,
        "cost": w.cost,
        "availability": w.availability,
    }


def _builtin_armour(a: reference.Armour) -> EntryData:
    return {
        "name": a.name,
        "source": a.source,
        "notes": a.notes,
        "physical": str(a.physical),
        "energy": str(a.energy),
        "dexterity_penalty": str(a.dexterity_penalty),
        "covers": list(a.covers),
        "cost": a.cost,
        "availability": a.availability,
    }


@functools.cache
def _builtins(kind: str) -> tuple[EntryData, ...]:
    raw: Iterable[EntryData]
    if kind == "species":
        raw = (_builtin_species(s) for s in reference.species())
    elif kind == "weapon":
        raw = (_builtin_weapon(w) for w in reference.weapons())
    elif kind == "armour":
        raw = (_builtin_armour(a) for a in reference.armour())
    else:  # the sources' tables hold no templates and no gear beyond weapons and armour
        raw = ()
    return tuple(sorted((check_entry(kind, e) for e in raw), key=lambda e: e["name"].casefold()))


def builtin_entries(kind: str) -> tuple[EntryData, ...]:
    """The sources' entries of ``kind`` (``rules/data``), as :func:`check_entry` returns them,
    sorted by name; fresh copies, so a caller may change them. Species the sources name without
    statistics have ``"attributes": None, "move": None``. No templates or gear ship."""
    if kind not in KINDS:
        raise LibraryError("kind", f"{kind!r} is not one of {', '.join(KINDS)}")
    return copy.deepcopy(_builtins(kind))


def species_limits(entry: Mapping[str, Any]) -> SpeciesLimits | None:
    """A species entry's attribute limits and Move for creation; ``None`` when it has no
    attribute limits (a GM must enter them). Move defaults to 10 when not given."""
    limits = entry.get("attributes")
    if not limits:
        return None
    move = entry.get("move") or {}
    return SpeciesLimits(
        str(entry.get("name", "")),
        tuple(
            (a, DieCode.parse(limits[a]["min"]), DieCode.parse(limits[a]["max"]))
            for a in ATTRIBUTES
        ),
        int(move.get("normal") or 10),
    )


# ---------------------------------------------------------------------------------------------
# The shareable document
# ---------------------------------------------------------------------------------------------
def library_document(entries: Iterable[tuple[str, Mapping[str, Any]]]) -> EntryData:
    """The shareable JSON document of ``(kind, entry)`` pairs, each entry checked."""
    out = []
    for i, (kind, entry) in enumerate(entries):
        try:
            out.append({"kind": kind, "entry": check_entry(kind, entry)})
        except LibraryError as exc:
            raise exc.inside(f"entries[{i}]") from None
    return {"format": DOCUMENT_FORMAT, "version": DOCUMENT_VERSION, "entries": out}


def parse_library_document(doc: object) -> list[tuple[str, EntryData]]:
    """Every ``(kind, entry)`` of a library document, checked; the whole document is read
    before anything is returned. Two entries of one kind may not share a name (in any case).
    Raises :class:`LibraryError` naming the place (``entries[3].attributes.strength.max``)."""
    data = _object(doc, "")
    if data.get("format") != DOCUMENT_FORMAT:
        raise LibraryError(
            "format", f"this is not a Datapad library file (expected {DOCUMENT_FORMAT!r})"
        )
    if data.get("version") != DOCUMENT_VERSION:
        raise LibraryError(
            "version",
            f"version {data.get('version')!r} is not one this Datapad reads "
            f"(it reads version {DOCUMENT_VERSION})",
        )
    _known(data, ("format", "version", "entries"), "")
    items = data.get("entries")
    if not isinstance(items, list):
        raise LibraryError("entries", f"must be a list, not {_kind_of(items)}")
    if len(items) > MAX_DOCUMENT_ENTRIES:
        raise LibraryError("entries", f"holds {len(items)} entries; at most {MAX_DOCUMENT_ENTRIES}")
    parsed: list[tuple[str, EntryData]] = []
    seen: dict[tuple[str, str], int] = {}
    for i, raw in enumerate(items):
        where = f"entries[{i}]"
        item = _object(raw, where)
        _known(item, ("kind", "entry"), where)
        kind = item.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            raise LibraryError(f"{where}.kind", f"{kind!r} is not one of {', '.join(KINDS)}")
        try:
            entry = check_entry(kind, item.get("entry"))
        except LibraryError as exc:
            raise exc.inside(where) from None
        key = (kind, entry["name"].casefold())
        if key in seen:
            raise LibraryError(
                f"{where}.name", f"{entry['name']!r} is also the name of entries[{seen[key]}]"
            )
        seen[key] = i
        parsed.append((kind, entry))
    return parsed
