"""Running an improvement or repair project through game time (droids-and-equipment.md §9):
:func:`validate_project` prices every step up front and returns the starting
:class:`~rules.equipment.projects.ProjectState`; :func:`advance_project` lets days pass,
charging and rolling as the work is done; :func:`resolve_roll`, :func:`resume_project` and
:func:`abandon_project` record what happens at the table. Every function returns a new state.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from rules.dice import DiceSource, DieCode, DieCodeError, SeededDice, roll
from rules.difficulty import VERY_DIFFICULT, DifficultyLevel, number_range, random_difficulty
from rules.droids import droid_skill_cost
from rules.equipment._common import (
    MINUTES_PER_DAY,
    UPG_HIRED_MULTIPLIERS,
    EquipmentError,
    ImprovementStep,
    as_int,
)
from rules.equipment.improvement import (
    RC_ADDITIVE_STATS,
    rc_hyperdrive_improvement,
    rc_improvement,
    rc_tech_difficulty,
    rc_time_per_pip,
    rc_weapon_install,
    upg_improvement,
)
from rules.equipment.projects import (
    LogEntry,
    ProjectRequest,
    ProjectState,
    ProjectStatus,
    ProjectSystem,
    StatValue,
)
from rules.equipment.repairs import repair_requirement, work_pace
from rules.ruleset import RuleSet
from rules.time import DAYS_PER_MONTH

__all__ = [
    "abandon_project",
    "advance_project",
    "resolve_roll",
    "resume_project",
    "validate_project",
]

Steps = tuple[ProjectSystem, tuple[ImprovementStep, ...], list[str]]


def _code(value: StatValue) -> DieCode:
    if isinstance(value, DieCode | str):
        return DieCode.parse(value)
    raise DieCodeError(f"a die code must be text, not {type(value).__name__}")


def _rc_improvement_steps(request: ProjectRequest, ruleset: RuleSet) -> Steps:
    npc = request.labour == "hired"
    if request.stat == "hyperdrive":
        steps = rc_hyperdrive_improvement(
            request.current, request.target, ruleset=ruleset, scale=request.scale, npc=npc
        )
    elif request.stat == "armor_dexterity":
        if request.stock is None:
            raise EquipmentError("give the armor's Dexterity penalty as the stock value")
        penalty = _code(request.stock).total_pips
        if abs(penalty) < _code(request.target).total_pips:
            raise EquipmentError(
                "Dexterity enhancements may only cancel the armor's Dexterity penalty"
            )
        steps = rc_improvement(
            "0D",
            _code(request.current),
            _code(request.target),
            ruleset=ruleset,
            additive=True,
            scale=request.scale,
            npc=npc,
        )
    else:
        additive = (
            request.stat in RC_ADDITIVE_STATS if request.additive is None else request.additive
        )
        original = request.current if request.stock is None else request.stock
        steps = rc_improvement(
            _code(original),
            _code(request.current),
            _code(request.target),
            ruleset=ruleset,
            additive=additive,
            scale=request.scale,
            npc=npc,
        )
    warnings = []
    if any(s.difficulty == VERY_DIFFICULT for s in steps):
        warnings.append("the 5th and later pips need Very Difficult technology rolls")
    return "rc", steps, warnings


def _improvement_steps(request: ProjectRequest, ruleset: RuleSet) -> Steps:
    if ruleset.equipment_improvement == "rc_skill_points":
        return _rc_improvement_steps(request, ruleset)
    warnings: list[str] = []
    if request.item_value is None:
        raise EquipmentError("Rules Upgrade improvements cost a % of the item's original value")
    multiplier = request.hired_multiplier if request.labour == "hired" else 1
    steps = upg_improvement(
        request.stat,
        request.stock if request.stock is not None else request.current,
        request.current,
        request.target,
        base_value=request.item_value,
        hired_multiplier=multiplier,
        ruleset=ruleset,
    )
    if request.stat == "hyperdrive":
        warnings.append("a failed hyperdrive modification may damage it permanently (GM's call)")
    if request.first_roll_immediate:
        steps = (dataclasses.replace(steps[0], minutes=0), *steps[1:])
    return "upg", steps, warnings


def _repair_steps(request: ProjectRequest, ruleset: RuleSet) -> Steps:
    multiplier = request.hired_multiplier if request.labour == "hired" else 1
    need = repair_requirement(
        request.stat,
        request.damage,
        base_value=request.item_value,
        hired_multiplier=multiplier,
        ruleset=ruleset,
    )
    minutes, _ = work_pace(need.first_roll_minutes, request.skill, request.pace, ruleset=ruleset)
    warnings = [need.note] if need.note else []
    five_lost = request.stat == "moves" and as_int(request.damage, "moves lost") >= 5
    if five_lost and ruleset.lost_moves_5 == "destroyed":
        warnings.append("at -5 Moves the vehicle is destroyed: rebuild only with the GM's leave")
    step = ImprovementStep(
        ordinal=1,
        before=f"{request.stat} damaged ({request.damage})",
        after=f"{request.stat} repaired",
        difficulty=need.difficulty,
        credits=need.credits or 0,
        skill_points=0,
        minutes=minutes,
        percent=need.percent,
    )
    system: ProjectSystem = "house_repair" if ruleset.repair_tables == "house" else "upg_repair"
    return system, (step,), warnings


def _weapon_steps(request: ProjectRequest, ruleset: RuleSet) -> Steps:
    cost = rc_weapon_install(
        request.scale,
        purchased_price=request.purchased_price,
        method=request.install_method,
        npc=request.labour == "hired",
        ruleset=ruleset,
    )
    if cost.options and request.install_method is None:
        raise EquipmentError("choose how to install the weapon: pay the 'fee' or 'skill_points'")
    step = ImprovementStep(
        ordinal=1,
        before="no weapon",
        after="weapon installed",
        difficulty=rc_tech_difficulty(1),  # suggestion (§9.1): as for a first pip
        credits=cost.credits,
        skill_points=cost.skill_points,
        minutes=rc_time_per_pip(request.scale, ruleset=ruleset),
    )
    warnings = (
        ["adding weapons is a Rules Companion rule"]
        if ruleset.equipment_improvement != "rc_skill_points"
        else []
    )
    return "rc", (step,), warnings


def _droid_skill_steps(request: ProjectRequest, ruleset: RuleSet) -> Steps:
    if request.attribute is None:
        raise EquipmentError("a droid skill needs its attribute's code")
    target = _code(request.target)
    current = None if request.current is None else _code(request.current)
    steps: list[ImprovementStep] = []
    code = current
    while code is None or code < target:
        cost = droid_skill_cost(request.stat, code, request.attribute, ruleset=ruleset)
        steps.append(
            ImprovementStep(
                ordinal=len(steps) + 1,
                before="none" if code is None else str(code),
                after=str(cost.result),
                difficulty=None,  # no roll in the source
                credits=cost.credits,
                skill_points=cost.points,
                minutes=request.step_minutes or 0,
            )
        )
        code = cost.result
    system: ProjectSystem = "rc" if ruleset.advancement_table == "rc_skill_points" else "gm"
    return system, tuple(steps), []


def validate_project(request: ProjectRequest, *, ruleset: RuleSet) -> ProjectState:
    """Check a project against the campaign's rules and price every step up front.

    Raises ``EquipmentError`` for what the rules refuse (a cap passed, a destroyed weapon, a
    Force skill on a droid ...); returns the starting :class:`ProjectState` with warnings."""
    if request.labour == "hired" and request.hired_multiplier not in UPG_HIRED_MULTIPLIERS:
        raise EquipmentError("hired work costs double or triple (multiplier 2 or 3)")
    if request.pace != "normal" and request.kind != "repair":
        raise EquipmentError("only repairs can be prepared for or rushed")
    for level, number in request.difficulty_numbers:
        if not isinstance(level, DifficultyLevel):
            raise EquipmentError(f"{level!r} is not a difficulty level")
        low, high = number_range(level, ruleset=ruleset)
        if not low <= number <= high:
            raise EquipmentError(f"a {level} difficulty number is {low}-{high}, not {number}")
    builders = {
        "repair": _repair_steps,
        "improve": _improvement_steps,
        "add_weapon": _weapon_steps,
        "droid_skill": _droid_skill_steps,
    }
    if request.kind not in builders:
        raise EquipmentError(f"unknown project kind {request.kind!r}")
    system, steps, warnings = builders[request.kind](request, ruleset)
    for step in steps:
        if step.difficulty is not None:
            number_range(step.difficulty, ruleset=ruleset)  # an RC-scale campaign has no Heroic
    if request.step_minutes is not None and request.kind != "droid_skill":
        steps = tuple(dataclasses.replace(s, minutes=request.step_minutes) for s in steps)
    return ProjectState(request=request, system=system, steps=steps, warnings=tuple(warnings))


def _interval(state: ProjectState, step: ImprovementStep) -> int:
    if state.attempt == 0:
        return step.minutes
    if state.system.endswith("_repair") and state.request.retry_minutes is not None:
        return state.request.retry_minutes
    if state.system == "upg":
        return DAYS_PER_MONTH * MINUTES_PER_DAY  # a new roll every month
    return step.minutes


def _difficulty_number(
    level: DifficultyLevel, request: ProjectRequest, rng: DiceSource, ruleset: RuleSet
) -> int:
    pinned = dict(request.difficulty_numbers)
    if level in pinned:
        return pinned[level]
    return random_difficulty(level, ruleset=ruleset, rng=rng).number


def _charge(state: ProjectState, step: ImprovementStep) -> ProjectState:
    credits = step.credits if state.request.charge_credits == "each_attempt" else 0
    return dataclasses.replace(
        state,
        paid=True,
        credits_spent=state.credits_spent + credits,
        skill_points_spent=state.skill_points_spent + step.skill_points,
    )


def _settle(
    state: ProjectState, success: bool, number: int | None, total: int | None
) -> ProjectState:
    """Record an attempt on the current step and move on (or stay) accordingly."""
    step = state.steps[state.step_index]
    late_credits = step.credits if success and state.request.charge_credits == "on_success" else 0
    entry = LogEntry(
        at_minutes=state.elapsed_minutes,
        step=step.ordinal,
        difficulty=step.difficulty,
        number=number,
        total=total,
        success=success,
        credits=step.credits if state.request.charge_credits == "each_attempt" else late_credits,
        skill_points=step.skill_points,
        note="" if success else _failure_note(state),
    )
    state = dataclasses.replace(
        state,
        log=(*state.log, entry),
        credits_spent=state.credits_spent + late_credits,
        rolls_made=state.rolls_made + (total is not None),
        paid=False,
        minutes_worked=0,
    )
    if success:
        index = state.step_index + 1
        done = index >= len(state.steps)
        return dataclasses.replace(
            state, step_index=index, attempt=0, status="completed" if done else "in_progress"
        )
    status: ProjectStatus = "awaiting_gm" if _hyperdrive_upg(state) else "in_progress"
    return dataclasses.replace(state, attempt=state.attempt + 1, status=status)


def _hyperdrive_upg(state: ProjectState) -> bool:
    return state.system == "upg" and state.request.stat == "hyperdrive"


def _failure_note(state: ProjectState) -> str:
    if _hyperdrive_upg(state):
        return "failed: the GM decides whether the hyperdrive is damaged or sporadic"
    if state.system == "rc":
        return "failed: the skill points are wasted; the equipment works as before"
    return "failed: try again"


def _roll_code(request: ProjectRequest) -> tuple[DieCode, DieCode]:
    code = request.skill
    bonus = request.bonus
    if request.pace == "rushed":
        code = code.halved()
    elif request.pace == "prepared":
        bonus = bonus + DieCode(1)
    return code, bonus


def _dice(rng: DiceSource | int, state: ProjectState) -> DiceSource:
    if isinstance(rng, bool):
        raise EquipmentError("dice come from a dice source or a whole-number seed")
    if isinstance(rng, int):
        return SeededDice(hash((rng, state.rolls_made, state.elapsed_minutes, state.step_index)))
    return rng


def advance_project(
    state: ProjectState,
    days: int | float | Fraction,
    *,
    ruleset: RuleSet,
    rng: DiceSource | int,
) -> ProjectState:
    """Let ``days`` of game time pass on a project and return the new state.

    Each time the work for a step's roll is done, the attempt is charged (credits per the
    request's policy; [RC] skill points always, and wasted on failure); then, with
    ``roll_mode == "auto"``, the worker's skill (+ bonus; rushed: half; prepared: +1D) is
    rolled against the level's number, else the project waits for :func:`resolve_roll`.
    A failed [UPG] hyperdrive modification waits for the GM (:func:`resume_project`).
    Dice come from ``rng``; an ``int`` seeds a source from the state, so the same state, days
    and seed always give the same result."""
    if days < 0:
        raise EquipmentError("game time only moves forward")
    if state.status != "in_progress":
        return state
    minutes = round(Fraction(days) * MINUTES_PER_DAY)
    dice = _dice(rng, state)
    budget = state.minutes_worked + minutes
    start = state.elapsed_minutes
    clock = start - state.minutes_worked  # when work on the next roll began
    while state.status == "in_progress":
        step = state.steps[state.step_index]
        need = _interval(state, step)
        if budget < need:
            break
        budget -= need
        clock += need
        state = _charge(dataclasses.replace(state, elapsed_minutes=clock), step)
        if step.difficulty is None:
            state = _settle(state, True, None, None)
            continue
        if state.request.roll_mode != "auto":
            state = dataclasses.replace(state, status="awaiting_roll")
            break
        code, bonus = _roll_code(state.request)
        total = roll(code, ruleset=ruleset, rng=dice, bonus=bonus or None).total
        number = _difficulty_number(step.difficulty, state.request, dice, ruleset)
        state = _settle(state, total >= number, number, total)
    worked = budget if state.status == "in_progress" else 0
    return dataclasses.replace(state, minutes_worked=worked, elapsed_minutes=start + minutes)


def resolve_roll(state: ProjectState, total: int, difficulty_number: int) -> ProjectState:
    """Settle a roll made at the table for a project that is ``awaiting_roll``."""
    if state.status != "awaiting_roll":
        raise EquipmentError("this project is not waiting for a roll")
    state = dataclasses.replace(state, status="in_progress")
    return _settle(state, total >= difficulty_number, difficulty_number, total)


def resume_project(state: ProjectState) -> ProjectState:
    """The GM has ruled on a failed hyperdrive modification: work on the step goes on."""
    if state.status != "awaiting_gm":
        raise EquipmentError("this project is not waiting for the GM")
    return dataclasses.replace(state, status="in_progress")


def abandon_project(state: ProjectState) -> ProjectState:
    """Stop a project; what was spent stays spent."""
    if state.status == "completed":
        raise EquipmentError("a completed project cannot be abandoned")
    return dataclasses.replace(state, status="abandoned", paid=False, minutes_worked=0)
