"""Reference data shipped with the rules: attributes and skills, species, weapons and armour.

The tables live in ``rules/data/*.json`` (or ``.toml``) and are read once, lazily. Typed
accessors (:func:`skills`, :func:`species`, :func:`weapons`, :func:`armour`) return tuples of
frozen dataclasses with :class:`~rules.dice.DieCode` fields; :func:`load` returns the parsed
document of any table (droids, starships, vehicles, force_powers…) as plain JSON values.

Every record carries ``source``: one or more of the digest tags [UPG], [WIKI], [HOUSE], [RC]
or "2E-STD, not in sources" (a standard Second Edition value the five texts do not print),
joined with "; ". Weapons and armour also say, field by field, where each value comes from.

Modules: ``loader`` (reading tables, :func:`load`, :func:`available`, the errors),
``skill_table`` (attributes and skills), ``species_table`` (species), ``gear_table`` (weapons
and armour). Import the names from here.
"""

from rules.reference import gear_table, loader, skill_table, species_table
from rules.reference.gear_table import (
    Armour,
    BlastBand,
    Weapon,
    WeaponRanges,
    armour,
    armour_by_name,
    weapon_by_name,
    weapons,
)
from rules.reference.loader import (
    DATA_TABLES,
    SOURCE_TAGS,
    ReferenceDataError,
    UnknownNameError,
    available,
    load,
)
from rules.reference.skill_table import (
    Attribute,
    Prerequisite,
    Skill,
    Specialization,
    attribute,
    attributes,
    force_skills,
    skill,
    skills,
)
from rules.reference.species_table import AttributeRange, Species, species, species_by_name

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
    "clear_cache",
    "force_skills",
    "load",
    "skill",
    "skills",
    "species",
    "species_by_name",
    "weapon_by_name",
    "weapons",
]


def clear_cache() -> None:
    """Forget every table read and parsed so far (the next call reads the files again)."""
    for cached in (
        loader._read,
        skill_table.attributes,
        skill_table._all_skills,
        species_table.species,
        gear_table.weapons,
        gear_table.armour,
    ):
        cached.cache_clear()
