"""A campaign's library: species, character templates, weapons, armour and gear, as JSON values.

A library entry is a plain JSON object (``dict``) of one of :data:`KINDS`. The campaign stores
what :func:`check_entry` returns; the sources' own entries (``rules/data``) come from
:func:`builtin_entries` in the same shape, read-only. Every entry has ``name`` (1 to
:data:`NAME_MAX` characters), ``source`` (where it comes from, at most :data:`SOURCE_MAX`) and
``notes``. Die codes are written as on a sheet (``4D+2``: 0, 1 or 2 pips) and stored in their
canonical spelling. The kinds and their fields:

* ``species``: ``attributes`` ``{dexterity: {min, max}, ...}`` for all six attributes, each
  code above 0D and at most 10D, minimum at most maximum (or ``None``: the sources print no
  numbers, a GM must fill them); ``move`` ``{normal, max}``, 1 to 40 metres, max at least normal
  (or ``None``); ``special_abilities`` text; ``force_sensitivity`` ``"allowed"``,
  ``"forbidden"`` or ``"loses_cones"`` (may be Force-sensitive but loses its head cones'
  senses, the House rule for Gotals).
* ``template``: ``species`` (a species' name, or empty: the player chooses), ``attributes``
  (six codes above 0D, at most 10D), ``skills`` ``[{name, code, attribute, specialization_of,
  advanced}]`` (codes above 0D, at most 20D; ``attribute`` may be left out for a skill the
  reference list knows or a specialization of one), ``force`` ``{sensitive, control, sense,
  alter, powers}`` (Force skills only when sensitive; powers by name from the power table),
  ``gear`` ``{weapons: [names], armour: [names], items: "one per line"}``, ``credits`` (0 to
  :data:`CREDITS_MAX`), ``background``, ``personality``.
* ``weapon``: ``skill``, ``damage`` (0D to 30D, or ``None`` for a blast weapon),
  ``adds_strength`` (damage is STR plus it), ``stun_damage``, ``can_stun``, ``blast``
  ``[{radius, damage}]``, ``ranges`` ``{short: [min, max], medium, long}`` in metres (or
  ``None``: a melee weapon), ``ammo``, ``scale``, ``cost``, ``availability``.
* ``armour``: ``physical``, ``energy``, ``dexterity_penalty`` (0D to 10D), ``covers``,
  ``cost``, ``availability``.
* ``gear``: ``description``, ``cost``, ``availability``.

Every refusal is a :class:`LibraryError` whose message starts with the place
(``attributes.strength.max: '9D+7' is not a die code ...``). :func:`library_document` and
:func:`parse_library_document` write and read the shareable file
``{"format": "datapad-library", "version": 1, "entries": [{"kind", "entry"}, ...]}``.
"""

from rules.library.fields import (
    ATTRIBUTE_MAX,
    CREDITS_MAX,
    DOCUMENT_FORMAT,
    DOCUMENT_VERSION,
    FORCE_SENSITIVITY,
    KIND_LABELS,
    KINDS,
    MAX_DOCUMENT_ENTRIES,
    NAME_MAX,
    SKILL_MAX,
    SOURCE_MAX,
    TEXT_MAX,
    EntryData,
    LibraryError,
)
from rules.library.kinds import check_entry
from rules.library.sources import (
    builtin_entries,
    library_document,
    parse_library_document,
    species_limits,
)

__all__ = [
    "ATTRIBUTE_MAX",
    "CREDITS_MAX",
    "DOCUMENT_FORMAT",
    "DOCUMENT_VERSION",
    "FORCE_SENSITIVITY",
    "KINDS",
    "KIND_LABELS",
    "MAX_DOCUMENT_ENTRIES",
    "NAME_MAX",
    "SKILL_MAX",
    "SOURCE_MAX",
    "TEXT_MAX",
    "EntryData",
    "LibraryError",
    "builtin_entries",
    "check_entry",
    "library_document",
    "parse_library_document",
    "species_limits",
]
