"""Buying equipment: [RC] permit and licence fees and checks, [HOUSE] black-market prices
(droids-and-equipment.md §7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.difficulty import DIFFICULT, EASY, MODERATE, DifficultyLevel
from rules.equipment._common import EquipmentError, percent_of

__all__ = [
    "AVAILABILITY_PERCENT",
    "AvailabilityFee",
    "availability_fee",
    "black_market_price_range",
    "license_check_difficulty",
]


@dataclass(frozen=True, slots=True)
class AvailabilityFee:
    """[RC] permit or license fee: the standard amount and the known range."""

    standard: int
    low: int
    high: int
    background_check: bool = False


#: [RC] P: fee or permit, 5% (1%-15%); R: restricted licence, 10% (5%-100%), background check.
AVAILABILITY_PERCENT = {"P": (5, 1, 15), "R": (10, 5, 100)}


def availability_fee(code: str, price: int) -> AvailabilityFee:
    """[RC] the fee for buying an item with availability P or R (E17, E18).

    Other codes (X ...) are not in the sources: the GM sets the fee (ambiguity 22)."""
    key = code.strip().upper()
    if key not in AVAILABILITY_PERCENT:
        raise EquipmentError(f"availability {code!r} has no fee rule; only P and R are covered")
    if price < 0:
        raise EquipmentError("a price cannot be negative")
    standard, low, high = AVAILABILITY_PERCENT[key]
    return AvailabilityFee(
        standard=percent_of(standard, price),
        low=percent_of(low, price),
        high=percent_of(high, price),
        background_check=key == "R",
    )


def license_check_difficulty(
    renown: Literal["unknown", "infamous", "famous"],
) -> DifficultyLevel:
    """[RC] the NPC's bureaucracy or computer roll on an R-licence applicant: Difficult;
    Moderate with a touch of infamy; Easy if as well known as Han Solo."""
    levels = {"unknown": DIFFICULT, "infamous": MODERATE, "famous": EASY}
    if renown not in levels:
        raise EquipmentError("renown is 'unknown', 'infamous' or 'famous'")
    return levels[renown]


def black_market_price_range(price: int) -> tuple[int, int]:
    """[HOUSE] black-market prices run 2 to 5 times the standard price."""
    if price < 0:
        raise EquipmentError("a price cannot be negative")
    return 2 * price, 5 * price
