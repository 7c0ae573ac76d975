"""[HOUSE] critical injuries in the fight (injuries-and-healing.md §5; combat.md §5.2, §11.3
step 12, CA-21; IH-20, IH-21), with the campaign's ``critical_injuries = "house"``.

When a damage roll's Wild Die shows 6 the roller may take it as a critical injury instead of
re-rolling it. The encounter cannot stop a roll halfway to ask, so the choice is made with the
step (``ResolveAttack.critical``, ``Detonate.critical``, true unless said otherwise): true takes
the critical at the first 6, which then counts 6 and does not explode; false explodes every 6.
Steps stored before the choice existed load as false, so they replay as they were rolled.

Which table (IH-20): none when the hit has no effect or kills (the 6 is lost); the Stunned
table for a stunned result or any hit from a weapon set on stun, even on a wounded character;
otherwise the table of the level the hit leaves him at (wounded twice → the wounded table).
The table roll (1D, or 2D on the wounded table), the attribute roll of a Horrific or Gruesome
Injury (2D) and the treatment deadline of Deafness, Blinded (2D days) and Paralysis (1D days)
are plain dice, drawn in that order after the damage and Strength rolls, and recorded in a
``critical`` event.

What the engine then applies (the rest is recorded on the combatant and shown in the log for
the GM): Slowed Down (-1D on his side's initiative roll), Dazed (no more than one action in a
round), Winded (last in the order), Internal Bruising/Bleeding (-2D on Strength against
damage), The end is Nigh (death rolls on 1D), and on first aid a wounded-table critical makes
the medpac one level harder (H-43). Stunned-table criticals last the rest of the round and the
next; wounded-table ones clear when a medpac heals him fully (IH-21); incapacitated and mortal
ones stay (bacta or surgery only)."""

from __future__ import annotations

from collections.abc import Callable

from rules.combat import DamageResult
from rules.dice import DiceSource, Roll
from rules.encounter.criticals import CriticalTaken
from rules.encounter.events import Event, Scalar, plain_roll
from rules.encounter.state import Combatant, EncounterError, EncounterState
from rules.injuries import (
    WoundLevel,
    critical_attribute,
    critical_heal_shift,
    critical_injury,
    critical_table_for,
)

__all__ = [
    "check_action_count",
    "critical_offer",
    "end_is_nigh",
    "lasting_criticals",
    "medpac_critical_shift",
    "resist_penalty_dice",
    "roll_critical",
    "slowed_down",
    "treated_criticals",
    "winded_last",
]

W = WoundLevel
_ATTRIBUTE_ROLLS = ("Horrific Injury", "Gruesome Injury")
_BLEEDING = "Internal Bruising/Bleeding"


def _take(chain: list[int]) -> bool:
    return True


def critical_offer(critical: bool) -> Callable[[list[int]], bool] | None:
    """What the damage roll asks on a Wild Die 6 (``offer_crit`` of :func:`rules.dice.roll`):
    take it as a critical, or None to explode as usual. The roll asks only in a campaign with
    ``critical_injuries = "house"``."""
    return _take if critical else None


def _table(result: DamageResult, after: WoundLevel, *, stun_weapon: bool) -> WoundLevel | None:
    """The critical table of a hit (IH-20), None when it has none."""
    if result.level is W.none and result.unconscious_for is None:
        return None
    if stun_weapon or result.level is W.stunned:
        return W.stunned
    found = critical_table_for(after)
    return None if found is None else found[0]


def roll_critical(
    damage: Roll,
    result: DamageResult,
    target: Combatant,
    *,
    attacker: Combatant,
    stun_weapon: bool,
    now_round: int,
    rng: DiceSource,
) -> tuple[Combatant, list[Event]]:
    """After a damage roll whose Wild Die 6 was taken as a critical (``damage.critical_injury``):
    the target (already carrying the hit's result) with the critical injury added, and the
    ``critical`` event with its dice. Nothing when the roll took no critical."""
    if not damage.critical_injury:
        return target, []
    table = _table(result, target.wounds.level, stun_weapon=stun_weapon)
    numbers: tuple[tuple[str, Scalar], ...] = (("attacker", attacker.id),)
    if table is None:
        why = "the hit kills" if target.wounds.level is W.killed else "the hit has no effect"
        numbers += (("table", None), ("name", None))
        text = f"{attacker.name}'s critical injury on {target.name} is lost: {why}"
        return target, [Event("critical", target.id, text, numbers)]
    faces = [rng.d6() for _ in range(2 if table is W.wounded else 1)]
    injury = critical_injury(table, sum(faces))
    rolls = [("critical", plain_roll(faces))]
    attribute = None
    if injury.name in _ATTRIBUTE_ROLLS:
        attribute_faces = [rng.d6(), rng.d6()]
        attribute = critical_attribute(sum(attribute_faces))
        rolls.append(("attribute", plain_roll(attribute_faces)))
    days = None
    if injury.deadline is not None:
        day_faces = [rng.d6() for _ in range(injury.deadline.dice)]
        days = sum(day_faces)
        rolls.append(("deadline", plain_roll(day_faces)))
    taken = CriticalTaken(table, injury.name, now_round, attribute, days)
    numbers += (
        ("table", table.value),
        ("roll", sum(faces)),
        ("name", taken.name),
        ("effect", taken.effect),
        ("attribute", attribute),
        ("deadline_days", days),
    )
    text = f"{target.name} takes a critical injury: {taken.name} ({taken.effect})"
    updated = target.replace(criticals=(*target.criticals, taken))
    return updated, [Event("critical", target.id, text, numbers, tuple(rolls))]


# --- what the criticals change later in the fight ----------------------------------------------
def _has(c: Combatant, name: str) -> bool:
    return any(k.name == name for k in c.criticals)


def slowed_down(c: Combatant) -> bool:
    """Slowed Down: -1D more on his initiative roll."""
    return _has(c, "Slowed Down")


def check_action_count(c: Combatant, actions: int) -> None:
    """Dazed: he cannot take more than one action in a round (a reaction added as an extra
    action counts)."""
    if actions > 1 and _has(c, "Dazed"):
        raise EncounterError(
            f"{c.name} is Dazed (a critical injury): no more than one action in a round"
        )


def winded_last(state: EncounterState, order: tuple[str, ...]) -> tuple[str, ...]:
    """Winded: he acts last in the round whatever the initiative (in the order he had among
    the Winded)."""
    winded = {c.id for c in state.combatants if _has(c, "Winded")}
    if not winded:
        return order
    return tuple(c for c in order if c not in winded) + tuple(c for c in order if c in winded)


def resist_penalty_dice(c: Combatant) -> int:
    """Internal Bruising/Bleeding: -2D on Strength to resist damage (combat.md §5.1)."""
    return 2 if _has(c, _BLEEDING) else 0


def end_is_nigh(c: Combatant) -> bool:
    """The end is Nigh: his death rolls use 1D instead of 2D."""
    return _has(c, "The end is Nigh")


def lasting_criticals(c: Combatant, *, ending_round: int) -> tuple[CriticalTaken, ...]:
    """His criticals after the end of ``ending_round``: a Stunned-table critical lasts the rest
    of the round it was taken in and the next one."""
    return tuple(k for k in c.criticals if k.table is not W.stunned or k.round >= ending_round)


def medpac_critical_shift(c: Combatant) -> int:
    """Levels a medpac on him is harder for his criticals (§5.2, H-43): a wounded-table critical
    +1; a stunned one none; incapacitated and mortal ones are healed only in a bacta tank or by
    surgery, so they do not change a medpac."""
    medpac_tables = (W.stunned, W.wounded)
    shifts = [critical_heal_shift(k.table) for k in c.criticals if k.table in medpac_tables]
    return max(shifts, default=0)


def treated_criticals(c: Combatant) -> tuple[CriticalTaken, ...]:
    """His criticals after a successful medpac: wounded-table ones clear once he is healed of
    his wounds; stunned-table ones once his stun is cured (no stun is left)."""
    kept = c.criticals
    if c.wounds.level is W.none:
        kept = tuple(k for k in kept if k.table is not W.wounded)
    if not c.wounds.stuns and not c.knocked_out:
        kept = tuple(k for k in kept if k.table is not W.stunned)
    return kept
