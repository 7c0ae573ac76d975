"""Where dice come from: anything with a ``d6()`` method. Seeded dice replay, system dice are
for real play, fixed dice are for tests and worked examples."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Protocol

from rules.errors import RulesError

__all__ = ["DiceError", "DiceSource", "FixedDice", "SeededDice", "SystemDice"]


class DiceError(RulesError):
    """A roll the rules cannot make as asked (no action, negative penalty or Character Point
    dice), or a stored roll that is damaged."""


class DiceSource(Protocol):
    def d6(self) -> int: ...


class SeededDice:
    """A reproducible source: ``SeededDice(42)`` rolls the same dice every time."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def d6(self) -> int:
        return int(self._random.random() * 6) + 1


class SystemDice(SeededDice):
    """The operating system's randomness (for real play)."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()


class FixedDice:
    """Dice given in advance, for tests and worked examples. Raises when it runs out."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces: Iterator[int] = iter(list(faces))

    def d6(self) -> int:
        try:
            face = next(self._faces)
        except StopIteration:
            raise RuntimeError("FixedDice ran out of dice") from None
        if not 1 <= face <= 6:
            raise DiceError(f"a d6 cannot show {face}")
        return face
