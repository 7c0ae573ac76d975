"""Force Points and the Dark Side: spending a Force Point, Dark Side Points and being consumed,
calling on the Dark Side, the Lure, atonement and redemption."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.advancement import cp_and_fp_same_round_allowed
from rules.dice import DiceSource, DieCode, explode
from rules.difficulty import DifficultyLevel
from rules.force.powers import raise_level
from rules.force.skills import ForceError, ForcePower, force_power
from rules.ruleset import RuleSet

__all__ = [
    "Atonement",
    "CPTarget",
    "ConsumptionCheck",
    "DarkSideCall",
    "FPUse",
    "ForcePointOutcome",
    "Redemption",
    "atone",
    "check_force_point_spend",
    "consumption_check",
    "cp_damage_gives_dark_side_point",
    "dark_side_call_difficulty",
    "force_point_outcome",
    "force_point_pool",
    "is_consumed",
    "lure_pool",
    "lure_refused_level",
    "power_gives_dark_side_point",
    "redeem",
    "resolve_dark_side_call",
]


# ---------------------------------------------------------------------------------------------
# Force Points
# ---------------------------------------------------------------------------------------------
def force_point_pool(code: DieCode | str) -> DieCode:
    """[RC] a Force Point doubles a code, pips kept as pips: 5D+2 -> 10D+4."""
    return DieCode.parse(code).doubled()


FPUse = Literal["heroic", "selfish", "evil", "atonement", "transfer_force", "dark_side_call"]


@dataclass(frozen=True, slots=True)
class ForcePointOutcome:
    returned_at_end_of_adventure: bool
    dark_side_points: int
    spend_this_round: bool = False


_OUTCOMES: dict[str, ForcePointOutcome] = {
    "heroic": ForcePointOutcome(True, 0),
    "selfish": ForcePointOutcome(False, 0),
    "evil": ForcePointOutcome(False, 1),
    "atonement": ForcePointOutcome(True, 0),
    "transfer_force": ForcePointOutcome(True, 0),
    "dark_side_call": ForcePointOutcome(False, 0, spend_this_round=True),
}


def force_point_outcome(use: FPUse) -> ForcePointOutcome:
    """What happens to a spent Force Point: heroic use comes back at the end of the adventure,
    selfish use is lost, evil use is lost and gives a Dark Side Point ([2E-STD]); atonement and
    transfer Force count as heroic, and a point from calling on the Dark Side must be spent in
    that round ([RC])."""
    try:
        return _OUTCOMES[use]
    except KeyError:
        raise ForceError(
            f"unknown Force Point use {use!r}; choose one of {', '.join(_OUTCOMES)}"
        ) from None


def check_force_point_spend(
    force_points_this_round: int, cp_this_round: int, *, ruleset: RuleSet
) -> None:
    """Raise if another Force Point may not be spent this round: one per round ([2E-STD]) and
    never with Character Points ([UPG] 001 l.313)."""
    if force_points_this_round >= 1:
        raise ForceError("only one Force Point may be spent in a round")
    if cp_this_round > 0 and not cp_and_fp_same_round_allowed(ruleset=ruleset):
        raise ForceError(
            "a character uses Character Points or a Force Point in a round, never both"
        )


# ---------------------------------------------------------------------------------------------
# The Dark Side
# ---------------------------------------------------------------------------------------------
def power_gives_dark_side_point(power: str | ForcePower, used_to_harm: bool = False) -> bool:
    """[RC] injure/kill, inflict pain and telekinetic kill always give a Dark Side Point;
    telekinesis when used to injure or attack."""
    p = force_power(power)
    return p.dark_side == "always" or (p.dark_side == "if_used_to_harm" and used_to_harm)


CPTarget = Literal["being", "droid", "empty_vehicle"]


def cp_damage_gives_dark_side_point(
    target: CPTarget, stun: bool = False, *, ruleset: RuleSet
) -> bool:
    """[HOUSE] 004 l.139: CP on a damage roll against another being gives a Dark Side Point;
    not against an empty vehicle or a droid, nor on stun damage."""
    if target not in ("being", "droid", "empty_vehicle"):
        raise ForceError("the target is a being, a droid or an empty vehicle")
    return ruleset.cp_spend_limits == "house" and target == "being" and not stun


def is_consumed(dark_side_points: int, die: int, *, ruleset: RuleSet) -> bool:
    """The consumption check on gaining a Dark Side Point: [RC] consumed if the die is less than
    or equal to the total (000 l.4057); [2E-STD] less than (``dsp_check``, A-F6)."""
    if dark_side_points < 0:
        raise ForceError("Dark Side Points cannot be negative")
    return die <= dark_side_points if ruleset.dsp_check == "le" else die < dark_side_points


@dataclass(frozen=True, slots=True)
class ConsumptionCheck:
    dice: tuple[int, ...]
    total: int
    consumed: bool


def consumption_check(
    dark_side_points: int, *, ruleset: RuleSet, rng: DiceSource
) -> ConsumptionCheck:
    """The GM's 1D roll; with ``dsp_check_wild_die`` a 6 explodes and a 1 counts as 1."""
    dice = list(explode(rng=rng)[0]) if ruleset.dsp_check_wild_die else [rng.d6()]
    total = sum(dice)
    return ConsumptionCheck(
        tuple(dice), total, is_consumed(dark_side_points, total, ruleset=ruleset)
    )


def dark_side_call_difficulty(
    earlier_calls_this_adventure: int,
    harms_living_being: bool = True,
    *,
    ruleset: RuleSet,
) -> int:
    """[RC] calling on the Dark Side: 6, +3 per earlier call this adventure, +10 if no declared
    action is meant to harm a living being (000 l.3992-4000)."""
    if not ruleset.calling_on_dark_side:
        raise ForceError("calling on the Dark Side is not used in this campaign")
    if earlier_calls_this_adventure < 0:
        raise ForceError("earlier calls cannot be negative")
    return 6 + 3 * earlier_calls_this_adventure + (0 if harms_living_being else 10)


@dataclass(frozen=True, slots=True)
class DarkSideCall:
    success: bool
    force_points: int
    dark_side_points: int
    spend_this_round: bool


def resolve_dark_side_call(roll_total: int, difficulty: int) -> DarkSideCall:
    """[RC] success: +1 Force Point (to be used this round) and +1 Dark Side Point; failure:
    neither. A free action either way."""
    ok = roll_total >= difficulty
    return DarkSideCall(ok, int(ok), int(ok), ok)


def lure_pool(
    code: DieCode | str,
    dark_side_points: int,
    accept: bool = True,
    gone_over: bool = False,
    *,
    ruleset: RuleSet,
) -> DieCode:
    """[UPG] the Lure of the Dark Side: +1D per Dark Side Point on a Force skill roll, unless
    refused or the character has gone over (001 l.602-606)."""
    base = DieCode.parse(code)
    if not ruleset.lure_of_dark_side or not accept or gone_over or dark_side_points <= 0:
        return base
    return base.pool_add(DieCode(dark_side_points))


def lure_refused_level(level: DifficultyLevel | str, steps: int = 1) -> DifficultyLevel:
    """[UPG] refusing the Lure raises every Force power difficulty at least one level (A-F7)."""
    return raise_level(level, steps)


@dataclass(frozen=True, slots=True)
class Atonement:
    dark_side_points: int
    force_points: int
    force_point_regained_at_end: bool = True


def atone(
    dark_side_points: int,
    force_points: int,
    atoned_this_adventure: bool = False,
    force_point_from_dark_side: bool = False,
) -> Atonement:
    """[RC] atonement: spend one Force Point (not one from calling on the Dark Side) to remove one
    Dark Side Point, at most once per adventure; heroic, so the point returns at the end of the
    adventure (000 l.4114-4145). The only atonement procedure in the sources."""
    if atoned_this_adventure:
        raise ForceError("only one Dark Side Point can be atoned for per adventure")
    if dark_side_points <= 0:
        raise ForceError("there is no Dark Side Point to atone for")
    if force_points <= 0:
        raise ForceError("atonement needs a Force Point to spend")
    if force_point_from_dark_side:
        raise ForceError("a Force Point from calling on the Dark Side cannot be used to atone")
    return Atonement(dark_side_points - 1, force_points - 1)


@dataclass(frozen=True, slots=True)
class Redemption:
    dark_side_points: int
    force_points: int = 0
    character_points: int = 0


def redeem(dark_side_points: int, force_points: int, character_points: int) -> Redemption:
    """[UPG] returning to the light: a Force Point spent selflessly; the character then loses all
    Force Points and Character Points and the Dark Side total drops to five (001 l.620,
    002 l.471); never raised to five (A-F16)."""
    if force_points <= 0:
        raise ForceError("redemption needs a Force Point spent selflessly")
    if character_points < 0 or dark_side_points < 0:
        raise ForceError("points cannot be negative")
    return Redemption(min(dark_side_points, 5))
