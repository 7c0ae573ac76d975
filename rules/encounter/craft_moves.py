"""Craft on the move in the fight: ramming [UPG §4.4] (both craft take the collision damage
of the rammer's speed against their hulls) and driving through terrain [UPG] (movement.md
§1.3; the craft's lost Moves cap its speed). The hits themselves are read as in
:mod:`rules.encounter.craft_combat`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from rules.craft import apply_damage, craft_damage_result
from rules.dice import DiceSource, DieCode, roll
from rules.difficulty import DifficultyError, number_range
from rules.encounter.craft import Drive, Ram
from rules.encounter.craft_aboard import aboard, craft_stats, dodge_skill, reaction_code
from rules.encounter.craft_combat import (
    _LEVEL_WORDS,
    Numbers,
    _crew_hurt,
    _table_text,
    _Tape,
)
from rules.encounter.events import Event
from rules.encounter.resolve import penalty_dice, roll_for
from rules.encounter.state import Combatant, EncounterError, EncounterState
from rules.errors import RulesError
from rules.movement import (
    MovementError,
    collision_damage,
    movement_check,
    ram_result,
    speed_cap,
    speed_info,
)
from rules.ruleset import RuleSet

__all__ = ["drive", "ram"]


# --- ramming [UPG §4.4] -----------------------------------------------------------------------
def _crash(
    state: EncounterState, victim: Combatant, code: DieCode, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """A craft takes ``code`` (a collision's damage at its own scale) against its hull."""
    part = victim.craft
    assert part is not None
    dmg = roll(code, ruleset=ruleset, rng=rng)
    hull_code = part.code("hull", ruleset=ruleset)
    hull = roll(hull_code, ruleset=ruleset, rng=rng)
    try:
        result = craft_damage_result(dmg.total, hull.total, ruleset=ruleset)
        tape = _Tape(rng)
        after = apply_damage(part.damage, result, craft_stats(victim), ruleset=ruleset, rng=tape)
    except RulesError as exc:
        raise EncounterError(str(exc)) from None
    updated = victim.replace(craft=part.replace(damage=after))
    if after.destroyed:
        updated = updated.replace(knocked_out=True, lost_actions=True)
    said = _LEVEL_WORDS.get(result.level, result.level)
    table = _table_text(part.damage, after)
    text = f"{victim.name} takes {dmg.total} collision damage against hull {hull.total}: {said}"
    text += f" ({table})" if table else ""
    numbers: Numbers = (
        ("damage_code", str(code)),
        ("damage_total", dmg.total),
        ("hull_code", str(hull_code)),
        ("hull_total", hull.total),
        ("result", result.level),
        ("craft_damage", after.damage),
        ("effect", table),
    )
    state = state.with_combatant(updated)
    rolled = (("damage", dmg), ("hull", hull), *tape.rolls("damage table"))
    events = [Event("craft_damage", victim.id, text, numbers, rolled)]
    if after.destroyed and not part.damage.destroyed:
        state, hurt = _crew_hurt(state, updated, ruleset=ruleset, rng=rng)
        events += hurt
    return state, events


def ram(
    state: EncounterState, pilot: Combatant, cmd: Ram, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """The pilot (his action already spent) rolls piloting plus maneuverability against the
    movement difficulty + 10 (:func:`rules.movement.ram_result`): rammed, both craft take the
    vehicle collision damage of the rammer's speed (MV-26's reading) against their hulls; in
    between he crosses safely and the ram fails; below the difficulty it is a movement failure
    the GM reads on the movement failure table."""
    state = state.with_combatant(pilot)
    ship = aboard(state, pilot)
    if ship is None or ship.craft is None or pilot.id not in (ship.craft.holder("pilot"), ship.id):
        raise EncounterError(f"{pilot.name} flies no craft to ram with")
    target = state.combatant(cmd.target)
    if target.craft is None:
        raise EncounterError("a ram hits a vehicle or starship; run a person down with an attack")
    if target.id == ship.id:
        raise EncounterError(f"{ship.name} cannot ram itself")
    speed: str | int = cmd.speed
    if ruleset.collision_table == "rc":
        if not cmd.speed.isdecimal():
            raise EncounterError(
                "Rules Companion collisions are read by speed actions: give a number"
            )
        speed = int(cmd.speed)
    try:
        code = collision_damage(speed, ruleset=ruleset, mover="vehicle")
    except RulesError as exc:
        raise EncounterError(str(exc)) from None
    piloting = reaction_code(state, pilot, dodge_skill(ship.craft), ruleset=ruleset)
    penalty = penalty_dice(pilot, now_round=state.round, ruleset=ruleset)
    total, rolls, _ = roll_for(
        pilot, piloting, "ram", penalty=penalty, now_round=state.round, ruleset=ruleset, rng=rng
    )
    outcome = ram_result(cmd.difficulty, total)
    numbers: Numbers = (
        ("target", target.id),
        ("difficulty", cmd.difficulty + 10),
        ("code", str(piloting)),
        ("penalty_dice", penalty),
        ("total", total),
        ("outcome", outcome.outcome),
        ("margin", outcome.margin),
    )
    words = {
        "rammed": f"rams {target.name}",
        "ram_fails": "crosses safely but misses the ram",
        "movement_failure": f"loses control (missed by {outcome.margin}: the GM reads the "
        "movement failure table)",
    }
    text = f"{ship.name} ({pilot.name}) rolls {total} against {cmd.difficulty + 10}: "
    events = [Event("ram", ship.id, text + words[outcome.outcome], numbers, tuple(rolls))]
    if outcome.outcome != "rammed":
        return state, events
    for victim_id in (target.id, ship.id):
        state, hit = _crash(state, state.combatant(victim_id), code, ruleset=ruleset, rng=rng)
        events += hit
    return state, events


# --- moving through terrain [UPG] (movement.md §1.3) ----------------------------------------
def drive(
    state: EncounterState,
    cmd: Drive,
    *,
    spend: Callable[..., Combatant],
    ruleset: RuleSet,
    rng: DiceSource,
) -> tuple[EncounterState, list[Event]]:
    """The pilot moves his craft: refused faster than its lost Moves allow (or at all with the
    drive disabled); a move the matrix makes an action takes one of his; a roll, when the
    matrix wants one, is his piloting plus maneuverability against the GM's number (or the
    level's top). A miss is a movement failure the GM reads on the table."""
    pilot = state.combatant(cmd.pilot)
    ship = aboard(state, pilot)
    if ship is None or ship.craft is None or pilot.id not in (ship.craft.holder("pilot"), ship.id):
        raise EncounterError(f"{pilot.name} flies no craft to move")
    part = ship.craft
    mover: Literal["vehicle", "starship"] = "vehicle" if part.kind == "vehicle" else "starship"
    lost = part.damage.moves_lost
    try:
        speed = speed_info(cmd.speed, ruleset=ruleset).speed
        top = speed_cap(lost, ruleset=ruleset, mover=mover)
        check = movement_check(speed, cmd.terrain, ruleset=ruleset, mover=mover)
        number = None
        if check.roll_needed and check.difficulty is not None:
            low, high = number_range(check.difficulty, ruleset=ruleset)
            number = high if cmd.difficulty is None else cmd.difficulty
            if not low <= number <= high:
                raise EncounterError(
                    f"{check.difficulty} is {low}–{high}; {number} is not in that range"
                )
    except (MovementError, DifficultyError) as exc:
        raise EncounterError(str(exc)) from None
    if top is None:
        raise EncounterError(f"{ship.name} has lost {lost} Moves: its drive is disabled")
    if _SPEED_ORDER.index(speed.value) > _SPEED_ORDER.index(top.value):
        said = top.value.replace("_", "-")
        raise EncounterError(f"{ship.name} has lost {lost} Moves: {said} speed at most")
    if check.counts_as_action:
        pilot = spend(state, pilot.id, ruleset=ruleset)
        state = state.with_combatant(pilot)
    where = f"{ship.name} moves at {speed.value.replace('_', '-')} speed"
    numbers: Numbers = (
        ("speed", speed.value),
        ("terrain", cmd.terrain),
        ("action", check.counts_as_action),
        ("difficulty", number),
    )
    if number is None:
        return state, [Event("drive", ship.id, f"{where}: no roll needed", numbers)]
    code = reaction_code(state, pilot, dodge_skill(part), ruleset=ruleset)
    penalty = penalty_dice(pilot, now_round=state.round, ruleset=ruleset)
    total, rolls, _ = roll_for(
        pilot, code, "movement", penalty=penalty, now_round=state.round, ruleset=ruleset, rng=rng
    )
    numbers += (("code", str(code)), ("penalty_dice", penalty), ("total", total))
    text = f"{where} ({pilot.name} rolls {total} against {number}): "
    if total >= number:
        text += "made it"
    else:
        text += (
            f"movement failure, missed by {number - total}: the GM reads the movement failure table"
        )
    return state, [Event("drive", ship.id, text, numbers, tuple(rolls))]


_SPEED_ORDER = ("cautious", "normal", "cruising", "fast", "high", "all_out")
