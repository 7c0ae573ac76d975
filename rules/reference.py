"""Reference data shipped with the rules: attributes and skills, species, weapons and armour.

The tables live in ``rules/data/*.json`` (or ``.toml``) and are read once, lazily, through
``importlib.resources`` so they are found wherever the package is installed. Typed accessors
(:func:`skills`, :func:`species`, :func:`weapons`, :func:`armour`) return tuples of frozen
dataclasses with :class:`~rules.dice.DieCode` fields; :func:`load` returns the parsed document
of any table (droids, starships, vehicles, force_powers…) as plain JSON values.

Every record carries ``source``: one or more of the digest tags [UPG], [WIKI], [HOUSE], [RC]
or "2E-STD, not in sources" (a standard Second Edition value the five texts do not print),
joined with "; ". Weapons and armour also say, field by field, where each value comes from.
"""

from __future__ import annotations

import copy
import difflib
import functools
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Literal, NoReturn

from rules.dice import DieCode, DieCodeError
from rules.errors import RulesError

__all__ = [
    "DATA_TABLES",
    "SOURCE_TAGS",
    "Armour",
    "Attribute",
    "AttributeRange",
    "BlastBand",
    "Prerequisite",
    "ReferenceDataError",
    "Skill",
    "Specialization",
    "Species",
    "UnknownNameError",
    "Weapon",
    "WeaponRanges",
    "armour",
    "armour_by_name",
    "attribute",
    "attributes",
    "available",
    "force_skills",
    "load",
    "skill",
    "skills",
    "species",
    "species_by_name",
    "weapon_by_name",
    "weapons",
]

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


def _check_unique(names: Iterable[str], what: str) -> None:
    seen: set[str] = set()
    for name in names:
        if _key(name) in seen:
            raise ReferenceDataError(f"the {what} {name!r} is listed twice")
        seen.add(_key(name))


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
        if None in values or values != sorted(values):
            raise ReferenceDataError(f"{where}: ranges must increase: {low}-{high}/{medium}/{long}")
        return cls(*values)  # type: ignore[arg-type]


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
