"""Character Points in play (§3.2): how many one roll may take, and never with a Force Point.

The kinds of roll are :data:`rules.traits.ROLL_KINDS`; a few other spellings are accepted
(``"skill roll"``, ``"full dodge"``, ``"starship dodge"``)."""

from __future__ import annotations

import re

from rules.advancement.costs import AdvancementError
from rules.ruleset import RuleSet
from rules.traits import ROLL_KINDS

__all__ = [
    "check_cp_spend",
    "cp_and_fp_same_round_allowed",
    "max_cp_per_roll",
    "roll_kind",
]

_ROLL_ALIASES = {
    "skill_roll": "skill",
    "attribute_roll": "attribute",
    "resist_damage_roll": "resist_damage",
    "strength_to_resist_damage": "resist_damage",
    "damage_roll": "damage",
    "force_power_resistance": "resist_force_power",
    "starship_dodge": "vehicle_dodge",
    "full_dodge": "dodge",
}
_FIVE = frozenset(
    {
        "specialization",
        "dodge",
        "vehicle_dodge",
        "parry",
        "melee_parry",
        "brawling_parry",
        "lightsaber_parry",
        "reaction",
        "resist_force_power",
    }
)


def roll_kind(kind_of_roll: str) -> str:
    """The kind of roll in :data:`rules.traits.ROLL_KINDS` that ``kind_of_roll`` names
    (``"Full dodge"`` → ``"dodge"``); an :class:`AdvancementError` for anything else."""
    key = re.sub(r"[\s-]+", "_", kind_of_roll.strip().lower())
    key = _ROLL_ALIASES.get(key, key)
    if key not in ROLL_KINDS:
        raise AdvancementError(
            f"unknown kind of roll {kind_of_roll!r}; choose one of {', '.join(sorted(ROLL_KINDS))}"
        )
    return key


def max_cp_per_roll(kind_of_roll: str, *, ruleset: RuleSet) -> int | None:
    """The most Character Points one roll may take (None: no limit in this ruleset).

    [UPG] 001 l.307-311: 2 on skill or attribute uses including attacks; 5 on specializations,
    dodges and parries (vehicle, starship, lightsaber) and Perception/control against a Force
    power. [WIKI] 003 l.62: none on initiative. Damage and resisting damage use
    ``cp_on_damage``/``cp_on_resist_damage`` (A-C16). [HOUSE] 004 l.135-140: 5 also on
    Talents; melee/brawling parries or attacks by ``house_cp_melee_brawling`` (A-C15); 2 on
    a weapon's survival roll after a severe wound."""
    key = roll_kind(kind_of_roll)
    if ruleset.cp_spend_limits == "none":
        return None
    if key == "initiative":
        return 0
    if key == "damage":
        return ruleset.cp_on_damage
    if key == "resist_damage":
        return ruleset.cp_on_resist_damage
    house = ruleset.cp_spend_limits == "house"
    if key == "gear_survival":
        return 2 if house else 0
    if house:
        if key == "resist_force_power":
            return 2  # not in the House list: a skill or attribute use
        if ruleset.house_cp_melee_brawling == "attack":
            if key in ("melee_attack", "brawling_attack"):
                return 5
            if key in ("melee_parry", "brawling_parry", "lightsaber_parry", "parry"):
                return 2
    elif key == "talent":
        return 2  # talents are a House term; elsewhere a plain skill use
    return 5 if key in _FIVE or key == "talent" else 2


def cp_and_fp_same_round_allowed(*, ruleset: RuleSet) -> bool:
    """[UPG] 001 l.313: "Characters may use Character Points or a Force Point in a round; they
    may not use both" (the House Rules keep it; the RC has no such rule)."""
    return ruleset.cp_spend_limits == "none"


def check_cp_spend(
    kind_of_roll: str,
    cp: int,
    *,
    ruleset: RuleSet,
    force_point_this_round: bool = False,
) -> None:
    """Raise if spending ``cp`` Character Points on this roll breaks a limit."""
    if isinstance(cp, bool) or not isinstance(cp, int) or cp < 0:
        raise AdvancementError("Character Points spent must be a whole number, 0 or more")
    if cp == 0:
        return
    limit = max_cp_per_roll(kind_of_roll, ruleset=ruleset)
    what = kind_of_roll.replace("_", " ")
    if limit == 0:
        raise AdvancementError(f"Character Points cannot be spent on {what}")
    if limit is not None and cp > limit:
        raise AdvancementError(
            f"up to {limit} Character Points may be spent on {what}; {cp} is too many"
        )
    if force_point_this_round and not cp_and_fp_same_round_allowed(ruleset=ruleset):
        raise AdvancementError(
            "a character uses Character Points or a Force Point in a round, never both"
        )
