"""A species' attribute limits and Move at creation, and what a player may propose alone."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from rules import reference
from rules.dice import DieCode
from rules.errors import RulesError
from rules.traits import ATTRIBUTE_LABELS, ATTRIBUTES, attribute_key

__all__ = [
    "HUMAN",
    "PROPOSED_MAXIMUM_CEILING",
    "PROPOSED_MAX_MOVE",
    "PROPOSED_MINIMUM_FLOOR",
    "CreationError",
    "SpeciesLimits",
    "proposed_maximum_problem",
    "proposed_minimum_problem",
    "proposed_move_problem",
    "proposed_species_problems",
]


class CreationError(RulesError):
    """Creation data the engine cannot check at all (a species without limits, a template
    missing an attribute); what a player chose wrongly is reported, not raised."""


def _key(name: str) -> str:
    try:
        return attribute_key(name)
    except RulesError:
        raise CreationError(f"{name!r} is not an attribute") from None


@dataclass(frozen=True, slots=True)
class SpeciesLimits:
    """Attribute minimum and maximum per attribute (keyed as :data:`rules.traits.ATTRIBUTES`),
    and Move."""

    name: str
    limits: tuple[tuple[str, DieCode, DieCode], ...]
    move: int = 10

    @classmethod
    def uniform(cls, name: str, minimum: str, maximum: str, move: int = 10) -> SpeciesLimits:
        lo, hi = DieCode.parse(minimum), DieCode.parse(maximum)
        return cls(name, tuple((a, lo, hi) for a in ATTRIBUTES), move)

    @classmethod
    def of(cls, name: str, limits: Mapping[str, tuple[str, str]], move: int = 10) -> SpeciesLimits:
        """Limits keyed by attribute (``"strength"`` or ``"Strength"``) as (minimum, maximum)."""
        given = {_key(a): v for a, v in limits.items()}
        missing = [ATTRIBUTE_LABELS[a] for a in ATTRIBUTES if a not in given]
        if missing:
            raise CreationError(f"{name}: no limits given for {', '.join(missing)}")
        rows = tuple(
            (a, DieCode.parse(given[a][0]), DieCode.parse(given[a][1])) for a in ATTRIBUTES
        )
        return cls(name, rows, move)

    @classmethod
    def from_reference(cls, species: reference.Species) -> SpeciesLimits:
        """Limits from a ``rules.reference`` species record (``species_by_name("Human")``)."""
        if species.attributes is None:
            raise CreationError(f"{species.name}: the sources give no attribute limits; enter them")
        rows = dict(species.attributes)
        return cls(
            species.name,
            tuple((a, rows[a].minimum, rows[a].maximum) for a in ATTRIBUTES),
            species.move or 10,
        )

    @classmethod
    def not_entered(cls, name: str, move: int = 10) -> SpeciesLimits:
        """A species whose limits nobody has entered yet: no attribute code is outside them
        (the caller says what is missing); never another species' numbers."""
        return cls(name, tuple((a, DieCode(0), DieCode(99)) for a in ATTRIBUTES), move)

    def range_of(self, attribute: str) -> tuple[DieCode, DieCode]:
        """(minimum, maximum) of ``attribute`` (any case)."""
        key = _key(attribute)
        for name, lo, hi in self.limits:
            if name == key:
                return lo, hi
        raise CreationError(f"{self.name} has no limits for {attribute!r}")  # pragma: no cover


HUMAN = SpeciesLimits.uniform("Human", "2D", "4D")
"""Humans: 2D-4D in every attribute, Move 10 [2E-STD]."""


# ---------------------------------------------------------------------------------------------
# What a player may propose alone
# ---------------------------------------------------------------------------------------------
PROPOSED_MINIMUM_FLOOR: Final = DieCode(1)
PROPOSED_MAXIMUM_CEILING: Final = DieCode(4)
PROPOSED_MAX_MOVE: Final = 10
"""The sources print limits only for Humans and Wookiees (``rules/data/species.json``); for every
other species "the GM enters them from the species' sourcebook entry". A player's own proposal
for such a species (or a custom one) is held to what the printed species give a player
character: every minimum at least 1D (no attribute is below 1D; the Wookiee minima), every
maximum at most 4D and Move at most 10 (the human maximum and Move, §2.1). Wider limits are the
GM's to set."""


def proposed_species_problems(species: SpeciesLimits) -> list[str]:
    """What in a player's proposed species limits only the GM may set (empty when every
    minimum is at least :data:`PROPOSED_MINIMUM_FLOOR`, every maximum at most
    :data:`PROPOSED_MAXIMUM_CEILING` and Move at most :data:`PROPOSED_MAX_MOVE`)."""
    problems = []
    for attribute, lo, hi in species.limits:
        label = ATTRIBUTE_LABELS.get(attribute, attribute)
        problems += [
            proposed_minimum_problem(label, lo),
            proposed_maximum_problem(label, hi),
        ]
    problems.append(proposed_move_problem(species.move))
    return [p for p in problems if p]


def proposed_minimum_problem(attribute: str, minimum: DieCode) -> str | None:
    if minimum < PROPOSED_MINIMUM_FLOOR:
        return (
            f"{attribute} minimum {minimum}: every attribute has at least {PROPOSED_MINIMUM_FLOOR}"
        )
    return None


def proposed_maximum_problem(attribute: str, maximum: DieCode) -> str | None:
    if maximum > PROPOSED_MAXIMUM_CEILING:
        return (
            f"{attribute} maximum {maximum}: a player may propose at most "
            f"{PROPOSED_MAXIMUM_CEILING}, the human maximum; higher limits are the GM's to set"
        )
    return None


def proposed_move_problem(move: int) -> str | None:
    if move > PROPOSED_MAX_MOVE:
        return (
            f"Move {move}: a player may propose at most {PROPOSED_MAX_MOVE}, the human Move; "
            "a faster species is the GM's to set"
        )
    return None
