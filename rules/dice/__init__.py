"""Die codes and rolling them with the Wild Die.

* ``codes``: :class:`DieCode` (``4D+2``), parsing, printing and its two kinds of arithmetic;
* ``sources``: random sources (:class:`SeededDice`, :class:`SystemDice`, :class:`FixedDice`);
* ``rolling``: :func:`roll` and the kept :class:`Roll`, the pool actually rolled
  (:func:`effective_pool`, :func:`rollable_pool`) and :func:`multiple_action_penalty`.

Import the names from here (``from rules.dice import DieCode, roll``).
"""

from rules.dice.codes import MAX_DICE, MAX_PIPS, DieCode, DieCodeError
from rules.dice.rolling import (
    MAX_EXPLOSIONS,
    PoolTooSmallError,
    Roll,
    effective_pool,
    explode,
    multiple_action_penalty,
    roll,
    rollable_pool,
)
from rules.dice.sources import DiceError, DiceSource, FixedDice, SeededDice, SystemDice

__all__ = [
    "MAX_DICE",
    "MAX_EXPLOSIONS",
    "MAX_PIPS",
    "DiceError",
    "DiceSource",
    "DieCode",
    "DieCodeError",
    "FixedDice",
    "PoolTooSmallError",
    "Roll",
    "SeededDice",
    "SystemDice",
    "effective_pool",
    "explode",
    "multiple_action_penalty",
    "roll",
    "rollable_pool",
]
