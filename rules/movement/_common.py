"""What every movement module shares: the error, the kinds of mover and checks of distances."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from rules.difficulty import HEROIC, DifficultyError, DifficultyLevel, parse_level
from rules.errors import RulesError

Mover = Literal["character", "creature", "vehicle", "starship"]
Distance = int | Fraction

_MOVERS = ("character", "creature", "vehicle", "starship")


class MovementError(RulesError):
    """A move, chase or fall the rules do not allow, said in the game's words."""


def terrain_level(terrain: DifficultyLevel | str) -> DifficultyLevel:
    """How hard the ground is to cross: a difficulty level from Very Easy to Heroic."""
    message = f"terrain must be a difficulty level from Very Easy to Heroic, not {terrain!r}"
    if not isinstance(terrain, DifficultyLevel | str):
        raise MovementError(message)
    try:
        level = parse_level(terrain)
    except DifficultyError:
        raise MovementError(message) from None
    if level > HEROIC:
        raise MovementError(message)
    return level


def is_vehicle(mover: str) -> bool:
    if mover not in _MOVERS:
        raise MovementError(f"a mover is a character, creature, vehicle or starship, not {mover!r}")
    return mover in ("vehicle", "starship")


def metres(value: object, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise MovementError(f"{what} must be a number of metres, not {value!r}")
    if value < 0:
        raise MovementError(f"{what} cannot be negative ({value})")
    return Fraction(value)
