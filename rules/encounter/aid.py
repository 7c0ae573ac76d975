"""First aid in the fight (:class:`~rules.encounter.FirstAid`; injuries-and-healing.md §3, §6).

The healer spends one of his declared actions and rolls first aid (a Technical skill: the
encounter keeps only Perception, Dexterity and Strength, so it must be listed) with the round's
penalties, against the GM's difficulty number, which must lie in the level the rules give:

* with a medpac (used up either way; ``medpacs_used`` tells the app to take it from the gear):
  [2E-STD] stunned or unconscious from stuns Very Easy → cured; wounded Easy → healthy; wounded
  twice Easy → wounded; incapacitated Moderate → wounded twice; mortally wounded Difficult →
  incapacitated; +1 level for each medpac already used on him in this encounter; missing by
  more than 10 means no more medpacs on him (24 hours); a medpac on oneself rolls at −1D more.
  [HOUSE] the same levels; an incapacitated patient only wakes and a mortally wounded one is
  only held (stabilised) for 30 minutes. [RC] the GM's number inside the wound's scale
  (wounded 6–10, incapacitated 11–15, mortally wounded 16–20), +3 per medpac already used;
* without a medpac: Moderate stabilises the mortally wounded [UPG] (no more death rolls);
  Moderate wakes the incapacitated (groggy, still incapacitated) and Easy revives a stun
  knock-out [HOUSE §3 = 2E text] (IH-13).
"""

from __future__ import annotations

from typing import Literal

from rules.dice import DiceSource
from rules.difficulty import DifficultyLevel, number_range
from rules.encounter._turns import spend
from rules.encounter.commands import FirstAid
from rules.encounter.events import Event, Scalar
from rules.encounter.house import medpac_critical_shift, treated_criticals
from rules.encounter.points import FORCE_POINT_SAID, spend_points
from rules.encounter.resolve import penalty_dice, roll_for
from rules.encounter.state import Combatant, EncounterError, EncounterState
from rules.injuries import (
    WoundLevel,
    WoundState,
    first_aid_difficulty,
    medpac_difficulty,
    medpac_locks_out,
    medpac_success_level,
    rc_medpac_number,
    stuns_affecting,
)
from rules.ruleset import RuleSet

__all__ = ["first_aid"]

W = WoundLevel
Task = Literal["heal", "cure_stun", "stabilise", "revive"]
_HURT = (W.wounded, W.wounded_twice, W.incapacitated, W.mortally_wounded)


def first_aid(
    state: EncounterState, cmd: FirstAid, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """The healer's first aid roll and what it does to the patient. Every refusal comes before
    the roll."""
    healer = spend(state, cmd.healer, ruleset=ruleset)
    patient = healer if cmd.patient == healer.id else state.combatant(cmd.patient)
    try:
        code = healer.code("first aid")
    except EncounterError:
        raise EncounterError(
            f"{healer.name} has no first aid code: first aid is a Technical skill and the "
            "encounter keeps only Perception, Dexterity and Strength, so list his first aid "
            "(his Technical if he never trained it)"
        ) from None
    healer = spend_points(
        healer,
        roll="skill",
        cp_dice=cmd.cp_dice,
        force_point=cmd.force_point,
        now_round=state.round,
        ruleset=ruleset,
    )
    if patient.id == healer.id:
        patient = healer
    task, level = _task(patient, cmd.medpac, now_round=state.round)
    number, named = _difficulty(cmd, task, level, patient, ruleset=ruleset)
    self_medpac = cmd.medpac and patient is healer and ruleset.medpac_rules != "rc"
    penalty = penalty_dice(healer, now_round=state.round, ruleset=ruleset) + int(self_medpac)
    total, rolls, _ = roll_for(
        healer,
        code,
        "first aid",
        penalty=penalty,
        now_round=state.round,
        cp_dice=cmd.cp_dice,
        ruleset=ruleset,
        rng=rng,
    )
    success = total >= number
    before = patient.wounds.level
    treated = patient
    if cmd.medpac:
        treated = treated.replace(medpacs=treated.medpacs + 1)
        if not success and medpac_locks_out(total, number, ruleset=ruleset):
            treated = treated.replace(medpac_locked=True)
    revived = False
    if success:
        treated, revived = _outcome(treated, task, level, ruleset=ruleset)
        if cmd.medpac:
            treated = treated.replace(criticals=treated_criticals(treated))
    new = state.with_combatant(healer).with_combatant(treated)
    after = treated.wounds.level
    numbers: tuple[tuple[str, Scalar], ...] = (
        ("patient", treated.id),
        ("task", task),
        ("medpac", cmd.medpac),
        ("medpacs_used", 1 if cmd.medpac else 0),
        ("difficulty_level", named),
        ("difficulty", number),
        ("penalty_dice", penalty),
        ("total", total),
        ("success", success),
        ("wound_level_before", before.value),
        ("wound_level", after.value),
        ("stabilised", treated.stabilised),
        ("revived", revived),
        ("medpac_locked", treated.medpac_locked),
        ("actions_left", healer.actions.remaining if healer.actions else 0),
    )
    with_pack = " with a medpac" if cmd.medpac else ""
    result = _says(task, success, before, after, revived, treated.medpac_locked)
    text = (
        f"{healer.name} gives {treated.name} first aid{with_pack}: {total} against {number}, "
        f"{result}" + (FORCE_POINT_SAID if cmd.force_point else "")
    )
    return new, [Event("first_aid", healer.id, text, numbers, rolls)]


def _task(patient: Combatant, medpac: bool, *, now_round: int) -> tuple[Task, WoundLevel]:
    """What the first aid can do for him, and the level it is judged on."""
    level = patient.wounds.level
    name = patient.name
    if level is W.killed:
        raise EncounterError(f"{name} is dead: first aid cannot help him")
    stunned = patient.knocked_out or stuns_affecting(
        patient.wounds.stuns, now_round, rested_through=patient.wounds.rested_through
    )
    if medpac:
        if patient.medpac_locked:
            raise EncounterError(
                f"no more medpacs on {name} for 24 hours: the last one missed by more than 10"
            )
        if level in _HURT:
            return "heal", level
        if stunned:
            return "cure_stun", W.stunned
        raise EncounterError(f"{name} is not hurt: a medpac has nothing to treat")
    if level is W.mortally_wounded:
        if patient.stabilised:
            raise EncounterError(
                f"{name} is already stabilised: a medpac or a bacta tank within the hour saves him"
            )
        return "stabilise", level
    if level is W.incapacitated:
        return "revive", level
    if patient.knocked_out:
        return "revive", W.stunned
    raise EncounterError(
        "first aid without a medpac only revives the unconscious or stabilises the mortally "
        f"wounded: {name} needs a medpac"
    )


def _difficulty(
    cmd: FirstAid, task: Task, level: WoundLevel, patient: Combatant, *, ruleset: RuleSet
) -> tuple[int, str | None]:
    """The difficulty number and the level it lies in (None for an [RC] medpac number)."""
    label = level.label.lower()
    what = {
        "heal": f"a medpac on {'an' if label[0] in 'aeiou' else 'a'} {label} patient",
        "cure_stun": "a medpac on a stunned patient",
        "stabilise": "stabilising the mortally wounded",
        "revive": f"reviving the {'incapacitated' if level is W.incapacitated else 'stunned'}",
    }[task]
    if cmd.medpac and ruleset.medpac_rules == "rc":
        if cmd.difficulty is None:
            raise EncounterError(
                f"the GM sets the number for {what} inside its scale (a blaster bolt's wound "
                "6, a thermal detonator's 9); each medpac already used adds +3"
            )
        return rc_medpac_number(level, cmd.difficulty, earlier_today=patient.medpacs), None
    named: DifficultyLevel
    if cmd.medpac:
        named = medpac_difficulty(
            level,
            ruleset=ruleset,
            earlier_uses=patient.medpacs,
            critical_shift=medpac_critical_shift(patient),
        )
    elif task == "stabilise":
        named = first_aid_difficulty("stabilise_mortally_wounded")
    elif level is W.incapacitated:
        named = first_aid_difficulty("revive_incapacitated")
    else:
        named = first_aid_difficulty("revive_stunned")
    low, high = number_range(named, ruleset=ruleset)
    if patient.medpacs and cmd.medpac:
        what += f" after {patient.medpacs} medpac{'s' if patient.medpacs > 1 else ''}"
    if cmd.difficulty is None:
        raise EncounterError(f"the GM sets the difficulty number: {what} is {named} ({low}–{high})")
    if not low <= cmd.difficulty <= high:
        raise EncounterError(f"{what} is {named} ({low}–{high}), not {cmd.difficulty}")
    return cmd.difficulty, str(named)


def _outcome(
    patient: Combatant, task: Task, level: WoundLevel, *, ruleset: RuleSet
) -> tuple[Combatant, bool]:
    """The patient after a successful roll, and whether he was woken."""
    wounds = patient.wounds
    if task == "stabilise":
        return patient.replace(stabilised=True), False
    if task == "cure_stun":
        cured = WoundState(wounds.level, (), wounds.rested_through)
        return patient.replace(wounds=cured, knocked_out=False), patient.knocked_out
    if task == "revive":
        if level is W.incapacitated:
            return patient, True  # awake and groggy: still incapacitated, no skills
        return patient.replace(knocked_out=False), True
    better = medpac_success_level(level, ruleset=ruleset)
    patient = patient.replace(wounds=WoundState(better, wounds.stuns, wounds.rested_through))
    if better is W.mortally_wounded:  # [HOUSE §2] only held for 30 minutes
        return patient.replace(stabilised=True), False
    woke = level is W.incapacitated
    return patient.replace(stabilised=False, mortal_rounds=0), woke


def _says(
    task: Task, success: bool, before: WoundLevel, after: WoundLevel, revived: bool, locked: bool
) -> str:
    if not success:
        return "no change" + ("; no more medpacs on him for 24 hours" if locked else "")
    if task == "stabilise" or (task == "heal" and after is before is W.mortally_wounded):
        return "stabilised: no more death rolls"
    if task == "cure_stun":
        return "the stun is cured"
    if task == "revive" or after is before:
        return "revived (groggy)" if revived else "no change"
    return f"{before.label} → {after.label}"
