"""Resolving a task beyond one roll against a number (dice-and-core.md §4–§6).

* opposed rolls: one side's roll is the other's difficulty, and who wins a tie;
* the Rules Companion's optional uncertainty dice, which hide how well a roll went;
* preparing (+1D for extra time) and rushing (half the time, half the skill).

The GM's uncertainty dice never use a Wild Die (dice-and-core.md A6).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from typing import Literal

from rules.dice import DiceSource, DieCode
from rules.difficulty import DifficultyError
from rules.ruleset import RuleSet
from rules.time import ROUND

__all__ = [
    "PREPARING_NOT_ALLOWED",
    "PREPARING_UNLIKELY",
    "OpposedResult",
    "Tie",
    "TimedCode",
    "UncertaintyResult",
    "opposed",
    "prepare",
    "preparing_guideline",
    "resolve_uncertainty",
    "rush",
    "uncertainty_pool",
]


# ---------------------------------------------------------------------------------------------
# Opposed rolls (§4)
# ---------------------------------------------------------------------------------------------
class Tie(StrEnum):
    """Who wins when opposed rolls are equal."""

    ACTIVE = "active"
    """The acting side, as with any difficulty (Rule of Thumb): an attack against a dodge, a
    Force power against a Perception roll, a searcher against a sneak roll [WIKI]."""
    OPPOSING = "opposing"
    """The side that is resisted: a tractor beam holds a ship that only equals its roll
    ([UPG] hull, [RC] sublight: the ship must roll higher)."""
    REROLL = "reroll"
    """Nobody: roll again (initiative [WIKI])."""


@dataclass(frozen=True, slots=True)
class OpposedResult:
    active: int
    opposing: int
    winner: Literal["active", "opposing"] | None

    @property
    def reroll(self) -> bool:
        """True when the rolls tied and the rule says to roll again."""
        return self.winner is None

    @property
    def margin(self) -> int:
        """The active side's total minus the opposing side's."""
        return self.active - self.opposing


def opposed(active: int, opposing: int, tie: Tie | str = Tie.ACTIVE) -> OpposedResult:
    """Compare two rolls where one serves as the other's difficulty (§4). Higher wins; a tie
    goes to the acting side by default (the Rule of Thumb), unless a rule says otherwise."""
    try:
        tie = Tie(tie)
    except ValueError:
        raise DifficultyError(
            f"{tie!r} is not a tie rule; use 'active', 'opposing' or 'reroll'"
        ) from None
    if active != opposing:
        return OpposedResult(active, opposing, "active" if active > opposing else "opposing")
    winner: Literal["active", "opposing"] | None = (
        None if tie is Tie.REROLL else "active" if tie is Tie.ACTIVE else "opposing"
    )
    return OpposedResult(active, opposing, winner)


# ---------------------------------------------------------------------------------------------
# Uncertainty dice (§5) [RC] 000 l.424-478, optional rule
# ---------------------------------------------------------------------------------------------
def _check_uncertainty(count: int, ruleset: RuleSet) -> None:
    if not ruleset.uncertainty_dice:
        raise DifficultyError("this campaign does not use the optional uncertainty dice rule")
    if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= 4:
        raise DifficultyError(f"the GM picks 2 to 4 uncertainty dice, not {count!r}")


def uncertainty_pool(code: DieCode | str, count: int, *, ruleset: RuleSet) -> DieCode:
    """What the player rolls: the skill plus the uncertainty dice (5D with 3 → 8D) [RC]."""
    _check_uncertainty(count, ruleset)
    return DieCode.parse(code).pool_add(DieCode(count))


@dataclass(frozen=True, slots=True)
class UncertaintyResult:
    """The player's visible total, the GM's hidden dice and the total that counts."""

    player_total: int
    gm_dice: tuple[int, ...]

    @property
    def gm_total(self) -> int:
        return sum(self.gm_dice)

    @property
    def effective_total(self) -> int:
        """The player's total less the GM's dice, never below 0. The GM may keep it secret."""
        return max(0, self.player_total - self.gm_total)


def resolve_uncertainty(
    player_total: int,
    count: int,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
) -> UncertaintyResult:
    """The GM secretly rolls as many dice as the player added and subtracts them [RC]. Only for
    non-combat skills; no Wild Die on the GM's dice."""
    _check_uncertainty(count, ruleset)
    if isinstance(player_total, bool) or not isinstance(player_total, int):
        raise DifficultyError(f"a roll total is a whole number, not {player_total!r}")
    return UncertaintyResult(player_total, tuple(rng.d6() for _ in range(count)))


# ---------------------------------------------------------------------------------------------
# Time: preparing and rushing (§6)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TimedCode:
    """The die code to roll for a task and how long the task now takes."""

    code: DieCode
    time: timedelta


# [WIKI] 003 l.98: "generally should not be allowed" / "probably won't be able to".
PREPARING_NOT_ALLOWED = frozenset(
    {
        "dodge",
        "melee parry",
        "brawling parry",
        "repulsorlift operation",
        "space transports",
        "starfighter piloting",
    }
)
PREPARING_UNLIKELY = frozenset({"survival", "hide", "stamina", "swimming"})


def preparing_guideline(skill: str) -> Literal["allowed", "not_allowed", "unlikely"]:
    """The [WIKI] advice on preparing a skill; the GM has the last word. Dodges, parries and
    driving or piloting skills generally not; survival, hide, stamina, swimming probably not."""
    name = re.sub(r"\s+", " ", skill.strip().lower())
    if name in PREPARING_NOT_ALLOWED:
        return "not_allowed"
    if name in PREPARING_UNLIKELY:
        return "unlikely"
    return "allowed"


def _check_time(task_time: timedelta) -> None:
    if not isinstance(task_time, timedelta) or task_time <= timedelta(0):
        raise DifficultyError("a task takes some time; give it as a positive duration")


def prepare(code: DieCode | str, task_time: timedelta = ROUND, *, ruleset: RuleSet) -> TimedCode:
    """Prepare a task for +1D (§6).

    2E [WIKI] (``preparing == "double_time"``): take twice as long, doing nothing else.
    [RC] (``"rc_prepare_round"``): spend one combat round preparing, then roll +1D next round;
    only for skills that normally take one round (no computer programming or repair)."""
    _check_time(task_time)
    better = DieCode.parse(code).pool_add(DieCode(1))
    if ruleset.preparing == "rc_prepare_round":
        if task_time > ROUND:
            raise DifficultyError(
                "under the Rules Companion only actions that take one round can be prepared"
            )
        return TimedCode(better, ROUND + task_time)
    return TimedCode(better, task_time * 2)


def rush(code: DieCode | str, task_time: timedelta) -> TimedCode:
    """Rush a task [WIKI]: half the time, half the skill (6D → 3D; odd codes round down in
    pips, 5D+1 → 2D+2, A4). Only for actions that take two rounds or longer. Not an [RC] rule."""
    _check_time(task_time)
    if task_time < ROUND * 2:
        raise DifficultyError("actions that take one round cannot be rushed")
    return TimedCode(DieCode.parse(code).halved(), task_time / 2)
