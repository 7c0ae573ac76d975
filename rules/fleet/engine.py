"""A fleet action as a state machine: :func:`apply` (one step → the new state and its events,
every die drawn from ``rng`` and kept in the events) and :func:`replay`. The rules themselves
are :mod:`rules.craft.capital` and :mod:`rules.craft.capital_tactics`; this module only
sequences them over the ships' templates (capital-ships.md §5-§11)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from rules.craft import (
    CapitalDamage,
    CapitalState,
    apply_capital_damage,
    attack_pools,
    capital_damage,
    command_budget,
    coordinated_guns,
    counter_battery,
    facing_change_cost,
    gun_status,
    guns_modifier,
    ram_damage_code,
    ram_hits,
    reduce_by_pips,
    reroute_shield_power,
    ship_code,
    ship_damage_status,
    targeting,
)
from rules.dice import DiceSource, DieCode, Roll, roll
from rules.difficulty import DIFFICULT, number_range
from rules.errors import RulesError
from rules.fleet.commands import (
    AddShip,
    AdjustDamage,
    ChangeFacing,
    Evade,
    FireBattery,
    FleetCommand,
    GiveOrders,
    NextRound,
    RaiseShields,
    Ram,
    RemoveShip,
    RerouteShields,
)
from rules.fleet.events import FleetEvent
from rules.fleet.state import MAX_SHIPS, FleetError, FleetShip, FleetState
from rules.ruleset import RuleSet

__all__ = ["action_code", "apply", "replay"]

Result = tuple[FleetState, list[FleetEvent]]


def apply(state: FleetState, command: FleetCommand, *, ruleset: RuleSet, rng: DiceSource) -> Result:
    """Carry out one step. A step the rules refuse raises :class:`FleetError` with the reason
    before any die is drawn; the state given is never changed (it is frozen)."""
    if ruleset.capital_combat != "rc":
        raise FleetError("this campaign does not use the Rules Companion's capital ship combat")
    try:
        return _dispatch(state, command, ruleset=ruleset, rng=rng)
    except FleetError:
        raise
    except RulesError as exc:
        raise FleetError(str(exc)) from None


def replay(
    state: FleetState, commands: Iterable[FleetCommand], *, ruleset: RuleSet, rng: DiceSource
) -> Result:
    """Apply the steps in order from ``state`` (undo: the steps kept, with their recorded
    dice)."""
    events: list[FleetEvent] = []
    for command in commands:
        state, more = apply(state, command, ruleset=ruleset, rng=rng)
        events.extend(more)
    return state, events


def _dispatch(state: FleetState, cmd: FleetCommand, *, ruleset: RuleSet, rng: DiceSource) -> Result:
    match cmd:
        case AddShip():
            return _add(state, cmd)
        case RemoveShip():
            ship = state.ship(cmd.ship)
            left = replace(state, ships=tuple(s for s in state.ships if s.id != ship.id))
            return left, [FleetEvent("remove", ship.id, f"{ship.name} leaves the battle.")]
        case GiveOrders():
            return _orders(state, cmd)
        case Evade():
            ship = _active(state, cmd.ship)
            if ship.evasion is not None:
                raise FleetError(f"{ship.name} has rolled its evasion this round")
            ship, event = _evade(ship, ruleset=ruleset, rng=rng)
            return state.with_ship(ship), [event]
        case RaiseShields():
            return _shields(state, cmd, ruleset=ruleset, rng=rng)
        case RerouteShields():
            return _reroute(state, cmd, ruleset=ruleset, rng=rng)
        case ChangeFacing():
            return _facing(state, cmd)
        case FireBattery():
            return _fire(state, cmd, ruleset=ruleset, rng=rng)
        case Ram():
            return _ram(state, cmd, ruleset=ruleset, rng=rng)
        case AdjustDamage():
            ship = state.ship(cmd.ship)
            ship = replace(ship, damage=replace(ship.damage, **{cmd.row: cmd.pips}))
            text = (
                f"The GM sets {ship.name}'s {cmd.row.replace('_', ' ')} row to {cmd.pips} "
                f"pip(s): {_damage_text(ship.damage)}."
            )
            return state.with_ship(ship), [
                FleetEvent("adjust", ship.id, text, ((cmd.row, cmd.pips),))
            ]
        case NextRound():
            return _next_round(state)
    raise FleetError(f"unknown fleet step {cmd!r}")


# --- helpers ------------------------------------------------------------------------------------
def _active(state: FleetState, ship_id: str) -> FleetShip:
    ship = state.ship(ship_id)
    if ship.destroyed:
        raise FleetError(f"{ship.name} is destroyed")
    return ship


def action_code(ship: FleetShip, code: DieCode, officer: str | None = None) -> DieCode:
    """The code a ship rolls for an action: less its Ship Damage pips and the ionization in
    force (never the hull roll, §8.1), and 1D less when the officer in charge was left without
    a die of command (§9.1)."""
    reduced = ship_code(code, ship.damage.ship_damage, ship.ionized, roll="action")
    if officer is not None and ship.uncommanded and officer in ship.uncommanded:
        reduced = reduce_by_pips(reduced, 3)
    return reduced


def _roll(code: DieCode, what: str, *, ruleset: RuleSet, rng: DiceSource) -> Roll:
    if code.dice < 1:
        raise FleetError(f"{what}: {code} is left to roll, and a roll needs at least 1D")
    return roll(code, ruleset=ruleset, rng=rng)


def _damage_text(damage: CapitalState) -> str:
    status = ship_damage_status(damage.ship_damage)
    words = {
        "none": "undamaged",
        "damaged": f"{damage.ship_damage} pip(s) of Ship Damage",
        "heavily": "heavily damaged",
        "severely": "severely damaged",
        "destroyed": "destroyed",
    }
    return words[status.level]


# --- steps --------------------------------------------------------------------------------------
def _add(state: FleetState, cmd: AddShip) -> Result:
    if any(s.id == cmd.ship.id for s in state.ships):
        raise FleetError(f"a ship with id {cmd.ship.id!r} is already in the battle")
    if len(state.ships) >= MAX_SHIPS:
        raise FleetError(f"a fleet action holds at most {MAX_SHIPS} ships")
    ship = cmd.ship
    text = (
        f"{ship.name} joins the battle on the {ship.side} side "
        f"(crew {ship.crew}, hull {ship.hull})."
    )
    return replace(state, ships=(*state.ships, ship)), [FleetEvent("join", ship.id, text)]


def _orders(state: FleetState, cmd: GiveOrders) -> Result:
    ship = _active(state, cmd.ship)
    if ship.uncommanded is not None:
        raise FleetError(f"{ship.name}'s captain has given this round's orders")
    code = action_code(ship, ship.command)
    budget = command_budget(
        code,
        haste_orders=cmd.haste_orders,
        coordinations=cmd.coordinations,
        bonuses=cmd.bonuses,
        officers=cmd.officers,
    )
    text = f"{ship.name}'s captain ({code} command) gives orders: {budget.after_uses} left"
    text += (
        f" after {cmd.haste_orders + cmd.coordinations + cmd.bonuses} order(s) beyond the basic"
        f"; commanded: {', '.join(budget.commanded) or 'nobody'}"
    )
    if budget.uncommanded:
        text += f"; out of coordination (−1D): {', '.join(budget.uncommanded)}"
    numbers = (
        ("command", str(code)),
        ("after_uses", str(budget.after_uses)),
        ("uncommanded", ",".join(budget.uncommanded)),
    )
    ship = replace(ship, uncommanded=budget.uncommanded)
    return state.with_ship(ship), [FleetEvent("orders", ship.id, text + ".", numbers)]


def _evade(ship: FleetShip, *, ruleset: RuleSet, rng: DiceSource) -> tuple[FleetShip, FleetEvent]:
    maneuver = reduce_by_pips(ship.maneuver, ship.damage.maneuver)
    code = action_code(ship, maneuver.pool_add(ship.crew), "pilot")
    rolled = _roll(code, f"{ship.name}'s evasion", ruleset=ruleset, rng=rng)
    text = f"{ship.name} evades: {code} rolls {rolled.total}."
    event = FleetEvent(
        "evasion",
        ship.id,
        text,
        (("code", str(code)), ("evasion", rolled.total)),
        (("evasion", rolled),),
    )
    return replace(ship, evasion=rolled.total), event


def _shields(state: FleetState, cmd: RaiseShields, *, ruleset: RuleSet, rng: DiceSource) -> Result:
    ship = _active(state, cmd.ship)
    if ship.shield_roll is not None:
        raise FleetError(f"{ship.name} has rolled its shields this round")
    shields = ship.facing_shields(ship.facing)
    if not shields:
        raise FleetError(f"{ship.name} has no shields left on its {ship.facing} facing")
    code = action_code(ship, ship.crew.pool_add(shields), "shields")
    if ship.boosted is not None and ship.boosted != ship.facing:
        code = reduce_by_pips(code, 3 * ship.shield_penalty)
    events: list[FleetEvent] = []
    if ship.evasion is None:
        ship, event = _evade(ship, ruleset=ruleset, rng=rng)
        events.append(event)
    rolled = _roll(code, f"{ship.name}'s shields", ruleset=ruleset, rng=rng)
    number = (ship.evasion or 0) + rolled.total
    text = f"{ship.name} raises shields: {code} rolls {rolled.total}; shield number {number}."
    numbers = (("code", str(code)), ("shield_roll", rolled.total), ("shield_number", number))
    events.append(FleetEvent("shields", ship.id, text, numbers, (("shields", rolled),)))
    return state.with_ship(replace(ship, shield_roll=rolled.total)), events


def _reroute(
    state: FleetState, cmd: RerouteShields, *, ruleset: RuleSet, rng: DiceSource
) -> Result:
    ship = _active(state, cmd.ship)
    if ship.boosted is not None:
        raise FleetError(f"{ship.name} has rerouted shield power this round")
    after = reroute_shield_power(ship.shields_by_facing(), cmd.donor, cmd.receiver)
    difficulty = cmd.difficulty
    if difficulty is None:
        difficulty = number_range(DIFFICULT, ruleset=ruleset)[1]
    code = action_code(ship, ship.shields_officer, "shields")
    rolled = _roll(code, f"{ship.name}'s shields officer", ruleset=ruleset, rng=rng)
    success = rolled.total >= difficulty
    numbers: list[tuple[str, int | str | bool | None]] = [
        ("roll", rolled.total),
        ("difficulty", difficulty),
        ("success", success),
    ]
    if not success:
        text = f"{ship.name} fails to reroute shield power ({rolled.total} against {difficulty})."
        return state, [FleetEvent("reroute", ship.id, text, tuple(numbers), (("shields", rolled),))]
    boosted = after.shields[cmd.receiver]
    numbers.append(("receiver_code", str(boosted)))
    text = (
        f"{ship.name} reroutes power from its {cmd.donor} shield to its {cmd.receiver} shield "
        f"({rolled.total} against {difficulty}): {cmd.receiver} {boosted} this round, "
        f"{cmd.donor} burnt out, other shielding rolls −{after.other_shielding_penalty}."
    )
    ship = replace(
        ship,
        burnt=(*ship.burnt, cmd.donor),
        boosted=cmd.receiver,
        shield_penalty=after.other_shielding_penalty.dice,
    )
    return state.with_ship(ship), [
        FleetEvent("reroute", ship.id, text, tuple(numbers), (("shields", rolled),))
    ]


def _facing(state: FleetState, cmd: ChangeFacing) -> Result:
    ship = _active(state, cmd.ship)
    cost = facing_change_cost(ship.facing, cmd.facing)
    if cost > cmd.reserved_actions:
        raise FleetError(
            f"turning {ship.name} from its {ship.facing} to its {cmd.facing} facing takes "
            f"{cost} reserved speed action(s); {cmd.reserved_actions} reserved"
        )
    text = f"{ship.name} turns to show its {cmd.facing} facing ({cost} speed action(s))."
    return state.with_ship(replace(ship, facing=cmd.facing)), [
        FleetEvent("facing", ship.id, text, (("cost", cost),))
    ]


def _fire(state: FleetState, cmd: FireBattery, *, ruleset: RuleSet, rng: DiceSource) -> Result:
    ship = _active(state, cmd.ship)
    battery = ship.battery(cmd.battery)
    target = _active(state, cmd.target)
    if target.id == ship.id:
        raise FleetError(f"{ship.name} cannot fire on itself")
    if target.side == ship.side:
        raise FleetError(f"{target.name} is on {ship.name}'s side")
    if cmd.battery in ship.fired:
        raise FleetError(f"{ship.name}'s {battery.name} has fired this round")
    if cmd.guns > battery.usable:
        raise FleetError(
            f"{ship.name}'s {battery.name} has {battery.usable} gun(s) that can fire, "
            f"not {cmd.guns}"
        )
    aim = targeting(cmd.aim, cmd.vital_locations)  # type: ignore[arg-type]
    counter = cmd.aim in ("weapon_beam", "weapon_missile")
    targeted = None
    if counter:
        if cmd.target_battery is None or cmd.target_guns is None:
            raise FleetError("counter-battery fire names the target's battery and its guns")
        targeted = target.battery(cmd.target_battery)
        if targeted.missile != (cmd.aim == "weapon_missile"):
            kind = "missile tubes" if targeted.missile else "beam weapons"
            raise FleetError(f"{target.name}'s {targeted.name} are {kind}: aim at those")
        standing = sum(1 for p in targeted.gun_points if p < 3)
        if cmd.target_guns > standing:
            raise FleetError(f"{target.name}'s {targeted.name} has {standing} gun(s) left")
    groups = [(cmd.guns, battery.ion)]
    for other_id, other_battery, other_guns in cmd.coordinate:
        other = _active(state, other_id)
        if other.id in (ship.id, target.id) or other.side != ship.side:
            raise FleetError(f"{other.name} cannot coordinate with {ship.name}")
        coordinated = other.battery(other_battery)
        if not 1 <= other_guns <= coordinated.usable:
            raise FleetError(f"{other.name}'s {coordinated.name} has {coordinated.usable} gun(s)")
        groups.append((other_guns, coordinated.ion))
    together = coordinated_guns(groups) if cmd.coordinate else None
    firing = sorted(battery.gun_points)[: cmd.guns]
    fire_control = ship.fire_control(battery)
    if 1 in firing:  # a wounded gun fires at -1D fire control
        fire_control = reduce_by_pips(fire_control, 3)
    crew = ship.crew
    if ship.uncommanded and "gunnery" in ship.uncommanded:
        crew = reduce_by_pips(crew, 3)

    def pools(shields_down: bool) -> tuple[DieCode, DieCode]:
        found = attack_pools(
            fire_control,
            battery.damage,
            cmd.guns,
            crew,
            coordinated_guns=together,
            aim=aim,
            shields_down=shields_down,
            ship_damage_pips=ship.damage.ship_damage,
        )
        return reduce_by_pips(found.to_hit, 3 * ship.ionized), found.damage

    to_hit, _ = pools(False)
    if to_hit.dice < 1:
        raise FleetError(f"the attack leaves {to_hit} to hit, and a roll needs at least 1D")
    events: list[FleetEvent] = []
    if target.evasion is None:
        target, event = _evade(target, ruleset=ruleset, rng=rng)
        events.append(event)
    evasion = target.evasion or 0
    hit_roll = roll(to_hit, ruleset=ruleset, rng=rng)
    hit = hit_roll.total >= evasion
    ship = replace(ship, fired=(*ship.fired, cmd.battery))
    numbers: list[tuple[str, int | str | bool | None]] = [
        ("guns", cmd.guns),
        ("guns_modifier", str(guns_modifier(together or cmd.guns))),
        ("to_hit_pool", str(to_hit)),
        ("to_hit", hit_roll.total),
        ("evasion", evasion),
        ("hit", hit),
    ]
    name = f"{ship.name} fires {cmd.guns} {battery.name} at {target.name}"
    if cmd.aim != "hull" or cmd.vital_locations:
        name += f" ({cmd.aim.replace('_', ' ')}" + (
            f", {cmd.vital_locations}× vital location)" if cmd.vital_locations else ")"
        )
    if not hit:
        text = f"{name}: {to_hit} rolls {hit_roll.total} against evasion {evasion}, a miss."
        events.append(FleetEvent("attack", ship.id, text, tuple(numbers), (("to_hit", hit_roll),)))
        state = state.with_ship(target).with_ship(ship)
        return state, events
    facing = cmd.facing or target.facing
    shields = target.facing_shields(facing)
    blown = not shields
    penetrated = True
    if target.shield_roll is not None and not blown:
        penetrated = hit_roll.total >= evasion + target.shield_roll
    held = not penetrated
    _, damage_code = pools(penetrated or blown)
    hull = target.hull.pool_add(shields) if held else target.hull
    hull = reduce_by_pips(hull, aim.hull_penalty.total_pips)
    damage_roll = _roll(damage_code, "the damage", ruleset=ruleset, rng=rng)
    hull_roll = roll(hull, ruleset=ruleset, rng=rng)
    result = capital_damage(damage_roll.total, hull_roll.total, ion=battery.ion)
    numbers += [
        ("shields_held", held),
        ("damage_pool", str(damage_code)),
        ("damage", damage_roll.total),
        ("hull_pool", str(hull)),
        ("hull", hull_roll.total),
        ("pips", result.pips),
        ("shield_pips", result.shield_pips),
        ("ion_dice", result.ion_dice),
    ]
    if targeted is not None and cmd.target_battery is not None and cmd.target_guns is not None:
        target, spread = _counter_battery(target, cmd, result, held, ship_guns=cmd.guns)
        numbers.append(("gun_points", ",".join(str(p) for p in spread)))
    else:
        damage = apply_capital_damage(
            target.damage,
            result,
            target.shields if not blown else None,
            shields_held=held,
            target=aim.target,
        )
        target = replace(target, damage=damage)
    text = (
        f"{name}: {to_hit} rolls {hit_roll.total} against evasion {evasion}, a hit"
        + (" (the shields hold)" if held else "")
        + f". Damage {damage_code} rolls {damage_roll.total} against hull {hull} "
        f"{hull_roll.total}: {_result_text(result)}; {target.name} is "
        f"{_damage_text(target.damage)}."
    )
    rolls = (("to_hit", hit_roll), ("damage", damage_roll), ("hull", hull_roll))
    events.append(FleetEvent("attack", ship.id, text, tuple(numbers), rolls))
    if target.destroyed:
        events.append(FleetEvent("destroyed", target.id, f"{target.name} is destroyed."))
    return state.with_ship(target).with_ship(ship), events


def _result_text(result: CapitalDamage) -> str:
    if result.ion_dice:
        return f"{result.ion_dice}D of ionization"
    if result.pips:
        return f"{result.pips} pip(s) of damage"
    if result.shield_pips:
        return "1 shield pip"
    return "no effect"


def _counter_battery(
    target: FleetShip, cmd: FireBattery, result: CapitalDamage, held: bool, *, ship_guns: int
) -> tuple[FleetShip, tuple[int, ...]]:
    """Counter-battery fire: pips the shields do not absorb, times the guns firing, spread over
    the targeted guns (§10.2); shield pips and ionization as for any hit."""
    assert cmd.target_battery is not None and cmd.target_guns is not None
    pips = result.pips
    damage = target.damage
    if held:
        absorbed = min(target.shields_left.total_pips, pips)
        pips -= absorbed
        damage = replace(damage, shield_pips_lost=damage.shield_pips_lost + absorbed)
    damage = apply_capital_damage(
        damage,
        CapitalDamage(shield_pips=result.shield_pips, ion_dice=result.ion_dice),
        target.shields,
    )
    battery = target.batteries[cmd.target_battery]
    spread = counter_battery(pips, ship_guns, cmd.target_guns)
    points = list(battery.gun_points)
    standing = [i for i, p in enumerate(points) if p < 3][: cmd.target_guns]
    for index, extra in zip(standing, spread, strict=True):
        points[index] = min(3, points[index] + extra)
        gun_status(points[index])
    battery = replace(battery, points=tuple(points))
    return replace(target.with_battery(cmd.target_battery, battery), damage=damage), spread


def _ram(state: FleetState, cmd: Ram, *, ruleset: RuleSet, rng: DiceSource) -> Result:
    ship = _active(state, cmd.ship)
    target = _active(state, cmd.target)
    if target.id == ship.id:
        raise FleetError(f"{ship.name} cannot ram itself")
    if cmd.speed_actions < 1:
        raise FleetError("a ram takes at least one speed action")
    sublight = reduce_by_pips(ship.sublight, ship.damage.sublight)
    piloting_code = action_code(ship, ship.pilot.pool_add(sublight), "pilot")
    if piloting_code.dice < 1:
        raise FleetError(f"{ship.name}'s pilot has {piloting_code} left: a roll needs 1D")
    events: list[FleetEvent] = []
    if target.evasion is None:
        target, event = _evade(target, ruleset=ruleset, rng=rng)
        events.append(event)
    evasion = target.evasion or 0
    piloting = roll(piloting_code, ruleset=ruleset, rng=rng)
    numbers: list[tuple[str, int | str | bool | None]] = [
        ("piloting", piloting.total),
        ("evasion", evasion),
    ]
    if not ram_hits(piloting.total, evasion):
        numbers.append(("hit", False))
        text = (
            f"{ship.name} tries to ram {target.name}: {piloting.total} against {evasion}, missed."
        )
        events.append(FleetEvent("ram", ship.id, text, tuple(numbers), (("piloting", piloting),)))
        return state.with_ship(target), events
    rolls = [("piloting", piloting)]
    results = []
    for striker, struck, actions in (
        (ship, target, cmd.speed_actions),
        (target, ship, cmd.target_speed_actions),
    ):
        code = ram_damage_code(striker.hull, actions)
        shields = (
            struck.facing_shields(struck.facing) if struck.shield_roll is not None else DieCode()
        )
        hull = struck.hull.pool_add(shields)
        dealt = roll(code, ruleset=ruleset, rng=rng)
        resisted = roll(hull, ruleset=ruleset, rng=rng)
        rolls += [(f"{striker.id}_damage", dealt), (f"{struck.id}_hull", resisted)]
        result = capital_damage(dealt.total, resisted.total)
        numbers += [
            (f"{striker.id}_damage_pool", str(code)),
            (f"{struck.id}_hull_pool", str(hull)),
            (f"{struck.id}_pips", result.pips),
        ]
        results.append(
            (
                struck,
                result,
                bool(shields),
                f"{code} {dealt.total} against {hull} {resisted.total}: {_result_text(result)}",
            )
        )
    numbers.append(("hit", True))
    for struck, result, held, _ in results:
        current = ship if struck.id == ship.id else target
        damaged = apply_capital_damage(current.damage, result, current.shields, shields_held=held)
        if struck.id == ship.id:
            ship = replace(ship, damage=damaged)
        else:
            target = replace(target, damage=damaged)
    text = (
        f"{ship.name} rams {target.name} ({piloting.total} against {evasion}). "
        f"{ship.name}: {results[0][3]}. {target.name}: {results[1][3]}."
    )
    events.append(FleetEvent("ram", ship.id, text, tuple(numbers), tuple(rolls)))
    for hurt in (target, ship):
        if hurt.destroyed:
            events.append(FleetEvent("destroyed", hurt.id, f"{hurt.name} is destroyed."))
    return state.with_ship(target).with_ship(ship), events


def _next_round(state: FleetState) -> Result:
    ships = tuple(
        replace(
            s,
            evasion=None,
            shield_roll=None,
            fired=(),
            boosted=None,
            shield_penalty=0,
            uncommanded=None,
            ionized=s.damage.ionization,
            damage=replace(s.damage, ionization=0),
        )
        for s in state.ships
    )
    text = f"Round {state.round} ends; round {state.round + 1} begins."
    return FleetState(round=state.round + 1, ships=ships), [FleetEvent("round", None, text)]
