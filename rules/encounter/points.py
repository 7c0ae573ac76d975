"""Character Points and Force Points in the fight (characters-and-advancement.md §3.1–§3.3).

* A Force Point lasts the round: "[2E-STD] For one round, all of the character's skill,
  attribute and Force-skill codes are doubled (equipment codes such as weapon damage, fire
  control and maneuverability are not). At most one FP per round." Whichever step spends it
  (an attack, a reaction, first aid, a throw) marks :attr:`Combatant.force_point_round`;
  :func:`rules.encounter.roll_for` then doubles every roll of his in that round (attacks,
  reactions, first aid, command, suppression), and his Strength is doubled where the fight
  uses it (:func:`strength`): against damage, and as the ``STR`` part of melee or brawling
  damage (a weapon's own dice are equipment and stay as they are).
* [UPG] 001 l.313: "Characters may use Character Points or a Force Point in a round; they may
  not use both" (:func:`rules.advancement.cp_and_fp_same_round_allowed`: a campaign without CP
  limits allows both). :attr:`Combatant.cp_round` keeps the last round he spent CP in, so the
  refusal works both ways, whichever came first.
"""

from __future__ import annotations

from rules.advancement import check_cp_spend, cp_and_fp_same_round_allowed
from rules.dice import DieCode
from rules.encounter.state import Combatant, EncounterError
from rules.ruleset import RuleSet

__all__ = ["FORCE_POINT_SAID", "force_point_active", "spend_points", "strength"]

NEVER_BOTH = "a character uses Character Points or a Force Point in a round, never both"
FORCE_POINT_SAID = "; a Force Point doubles his rolls this round"
"""What the log adds to the step that spends a Force Point."""


def force_point_active(c: Combatant, now_round: int) -> bool:
    """True when he spent a Force Point in round ``now_round``: his rolls are doubled."""
    return now_round >= 1 and c.force_point_round == now_round


def strength(c: Combatant, now_round: int) -> DieCode:
    """His Strength as the fight rolls it now (resisting damage, ``STR`` damage): doubled in
    the round of his Force Point (an attribute, §3.1)."""
    return c.strength.doubled() if force_point_active(c, now_round) else c.strength


def spend_points(
    c: Combatant,
    *,
    roll: str,
    cp_dice: int,
    force_point: bool,
    now_round: int,
    ruleset: RuleSet,
) -> Combatant:
    """The combatant after spending ``cp_dice`` Character Points on a roll of kind ``roll``
    (:func:`rules.advancement.max_cp_per_roll`) and/or a Force Point in round ``now_round``,
    or the refusal: a second Force Point in one round, more CP than the roll takes, and
    (unless the campaign allows both) CP and a Force Point in the same round."""
    active = force_point_active(c, now_round)
    both = cp_and_fp_same_round_allowed(ruleset=ruleset)
    if force_point:
        if active:
            raise EncounterError(
                f"{c.name} has already spent a Force Point this round: it doubles all his "
                "rolls until the round ends, and one a round is the most"
            )
        if c.cp_round == now_round and not both:
            raise EncounterError(f"{c.name} has spent Character Points this round: {NEVER_BOTH}")
    check_cp_spend(roll, cp_dice, ruleset=ruleset, force_point_this_round=force_point)
    if cp_dice and active and not both:
        raise EncounterError(f"{c.name} has spent a Force Point this round: {NEVER_BOTH}")
    if force_point:
        c = c.replace(force_point_round=now_round)
    if cp_dice:
        c = c.replace(cp_round=now_round)
    return c
