"""Announcing an attack (:class:`~rules.encounter.Attack`): one attacker, a group firing at one
target with their own attacks ("all 8 troopers fire at Kira"), or combined fire (combat.md §8,
dice-and-core.md §8): the characters combining add a bonus to the lead firer's roll.

Combined fire follows the campaign's ``combined_actions`` option:

* ``command`` ([UPG] [WIKI] = [HOUSE §17]): the leader, the character with the highest
  *command* (or Perception), rolls command against the GM's difficulty in the announcing step;
  supervising only, that is his action; commanding and firing, two actions. He commands at
  most as many characters as he has command dice (not counting himself, A8). The bonus, one
  pip per character combining, loses 1D per point the roll missed by, goes to the combining
  character with the highest skill (the lead) and may be split between attack and damage.
* ``rc_support`` ([RC]): every supporter adds one pip per full die of his code after his
  penalties; a coordinating ``commander`` (an action) lets at most his command dice, less 1D
  per action beyond the first, combine; above that the bonus is lost and 3 pips come off per
  extra character. With no commander there is no cap (the RC's stormtroopers).

Every refusal comes before the command roll, the only die this step can draw."""

from __future__ import annotations

from rules.combat import (
    AttackKind,
    RangeBand,
    called_shot,
    combined_action_bonus,
    max_combining,
    range_difficulty,
    situational_modifier,
    split_combined_bonus,
)
from rules.dice import DiceSource, DieCode
from rules.encounter._turns import spend
from rules.encounter.auto import announce_fire, check_fire
from rules.encounter.commands import Attack
from rules.encounter.craft_aboard import aboard, check_target, gun_attack
from rules.encounter.events import Event, Scalar
from rules.encounter.points import FORCE_POINT_SAID, spend_points
from rules.encounter.resolve import penalty_dice, roll_for
from rules.encounter.state import Combatant, EncounterError, EncounterState, PendingAttack
from rules.ruleset import RuleSet

__all__ = ["announce_attack"]

Numbers = tuple[tuple[str, Scalar], ...]


def _kind(c: Combatant) -> AttackKind:
    return c.weapon.kind if c.weapon else "brawling"


def _skill(c: Combatant) -> str:
    return c.weapon.skill if c.weapon else "brawling"


def announce_attack(
    state: EncounterState, cmd: Attack, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """The attack announced: every attacker's action spent, the base difficulty set, and for
    combined fire the command roll made and the bonus shared out; the target may then react.
    Draws dice only for a 2E command roll."""
    if cmd.others and cmd.supporters:
        raise EncounterError(
            "group fire (others) and combined fire (supporters) are two different ways to "
            "fire together: choose one"
        )
    combined_only = (cmd.to_attack, cmd.commander, cmd.command_difficulty)
    if not cmd.supporters and any(x is not None for x in combined_only):
        raise EncounterError(
            "to_attack, commander and command difficulty belong to combined fire: name the "
            "supporters"
        )
    if cmd.supporters and (cmd.attack_bonus or cmd.damage_bonus):
        raise EncounterError(
            "combined fire works its bonus out from the supporters: leave attack_bonus and "
            "damage_bonus empty"
        )
    attacker = spend(state, cmd.attacker, ruleset=ruleset, combining=bool(cmd.supporters))
    target = state.combatant(cmd.target)
    if target.id == attacker.id:
        raise EncounterError("a combatant cannot attack himself")
    weapon = attacker.weapon
    kind = _kind(attacker)
    skill = cmd.skill or _skill(attacker)
    check_target(state, target)
    if cmd.gun is not None:
        if cmd.others or cmd.supporters or cmd.fire_mode != "single":
            raise EncounterError("a craft's guns fire one at a time: announce each gun")
        if cmd.distance_m is not None:
            raise EncounterError("a craft's gun takes the GM's range band, not a distance")
        kind, skill = gun_attack(state, attacker, target, cmd.gun)
        weapon = None
    group = (*cmd.others, *cmd.supporters)
    mode, shots = cmd.fire_mode, cmd.shots
    fire = check_fire(state, attacker, group, mode=mode, shots=shots, skill=skill, ruleset=ruleset)
    bands = {b.value: b for b in RangeBand}
    if cmd.range_band and cmd.range_band not in bands:
        raise EncounterError(f"the range is one of {', '.join(bands)}; not {cmd.range_band[:40]!r}")
    band = bands[cmd.range_band] if cmd.range_band else None
    if cmd.distance_m is not None:
        if weapon is None or weapon.ranges is None:
            raise EncounterError(f"{attacker.name}'s weapon has no ranges to read a distance on")
        band = weapon.ranges.band(cmd.distance_m)
    level = range_difficulty(band, ruleset=ruleset) if band is not None else None
    if cmd.difficulty is None:
        hint = f": {band} range is {level.level} ({level.low}–{level.high})" if level else ""
        raise EncounterError("the GM sets the difficulty number" + hint)
    cp_kind = {"melee": "melee_attack", "brawling": "brawling_attack"}.get(kind, "attack")
    attacker = spend_points(
        attacker,
        roll=cp_kind,
        cp_dice=cmd.cp_dice,
        force_point=cmd.force_point,
        now_round=state.round,
        ruleset=ruleset,
    )
    for condition in cmd.conditions:
        situational_modifier(condition, ruleset=ruleset)
    if cmd.called_shot_cm is not None:
        called_shot(cmd.called_shot_cm, ruleset=ruleset)
    people = {attacker.id: attacker}
    _group(state, cmd, people, kind, ruleset=ruleset)
    events: list[Event] = []
    combined: Numbers = ()
    shares = (DieCode.parse(cmd.attack_bonus or "0D"), DieCode.parse(cmd.damage_bonus or "0D"))
    bonus = DieCode()
    if cmd.supporters:
        bonus, shares, combined, events = _combine(
            state, cmd, people, skill, kind, ruleset=ruleset, rng=rng
        )
    pending = PendingAttack(
        attacker.id,
        target.id,
        skill,
        kind,
        cmd.difficulty,
        cmd.conditions,
        cmd.called_shot_cm,
        cmd.cp_dice,
        cmd.force_point,
        band.value if band else None,
        shares[0],
        shares[1],
        others=cmd.others,
        supporters=cmd.supporters,
        combined_bonus=bonus,
        gun=cmd.gun,
        speed_actions=cmd.speed_actions,
    )
    lead = people[attacker.id]
    numbers: Numbers = (
        ("target", target.id),
        ("skill", skill),
        ("base_difficulty", cmd.difficulty),
        ("range_band", band.value if band else None),
        ("actions_left", lead.actions.remaining if lead.actions else 0),
    )
    text = f"{lead.name} attacks {target.name} ({skill}, difficulty {cmd.difficulty})"
    if cmd.gun is not None:
        ship = aboard(state, lead)
        gun = ship.craft.guns[cmd.gun].name if ship and ship.craft else "a gun"
        text = f"{lead.name} fires {gun} at {target.name} (difficulty {cmd.difficulty})"
        numbers += (("gun", cmd.gun),)
    if cmd.others:
        names = ", ".join(people[o].name for o in cmd.others)
        numbers += (("others", ",".join(cmd.others)), ("attackers", 1 + len(cmd.others)))
        text = f"{lead.name} and {names} fire at {target.name} (difficulty {cmd.difficulty})"
    if cmd.supporters:
        numbers += combined
        text += (
            f"; {1 + len(cmd.supporters)} combine fire: {bonus.signed()}"
            f" ({shares[0].signed()} on the attack, {shares[1].signed()} on damage)"
        )
    if cmd.force_point:
        text += FORCE_POINT_SAID
    new = state
    for changed in people.values():
        new = new.with_combatant(changed)
    new = announce_fire(new.replace(pending=pending), attacker.id, group, fire)
    return new, [*events, Event("attack_declared", attacker.id, text, numbers)]


def _listed(state: EncounterState, cid: str, cmd: Attack, seen: set[str], role: str) -> None:
    who = state.combatant(cid).name
    if cid == cmd.attacker:
        raise EncounterError(f"{who} leads the attack; the {role} are the others")
    if cid == cmd.target:
        raise EncounterError(f"{who} is the target and cannot fire at himself")
    if cid in seen:
        raise EncounterError(f"{who} is listed twice among the {role}")
    seen.add(cid)


def _group(
    state: EncounterState,
    cmd: Attack,
    people: dict[str, Combatant],
    kind: AttackKind,
    *,
    ruleset: RuleSet,
) -> None:
    """Group fire: each other attacker spends an action (the same refusals as the lead's); his
    weapon must make the same kind of attack and reach the distance."""
    seen: set[str] = set()
    for cid in cmd.others:
        _listed(state, cid, cmd, seen, "others")
        other = spend(state, cid, ruleset=ruleset)
        if _kind(other) != kind:
            raise EncounterError(
                f"group fire is one kind of attack: {other.name}'s is {_kind(other)}, "
                f"the lead's {kind}"
            )
        if cmd.distance_m is not None:
            if other.weapon is None or other.weapon.ranges is None:
                raise EncounterError(f"{other.name}'s weapon has no ranges to read a distance on")
            range_difficulty(other.weapon.ranges.band(cmd.distance_m), ruleset=ruleset)
        people[cid] = other


def _commander(
    state: EncounterState,
    cmd: Attack,
    people: dict[str, Combatant],
    combining: list[Combatant],
    *,
    ruleset: RuleSet,
) -> Combatant | None:
    """The leader or coordinator, after spending his action for the command; None when an
    [RC] combined fire has no coordinator."""
    rc = ruleset.combined_actions == "rc_support"
    if cmd.commander is None:
        if rc:
            return None
        chosen = combining[0]
        for c in combining:  # the highest command (or Perception) leads [UPG] [WIKI]
            if c.code("command") > chosen.code("command"):
                chosen = c
    elif cmd.commander == cmd.target:
        raise EncounterError("the target cannot command the fire at himself")
    else:
        chosen = people.get(cmd.commander) or state.combatant(cmd.commander)
    if not rc:
        better = [c for c in combining if c.code("command") > chosen.code("command")]
        if better:
            raise EncounterError(
                f"the leader is the one with the highest command: {better[0].name} "
                f"({better[0].code('command')}) outranks {chosen.name} "
                f"({chosen.code('command')})"
            )
    if chosen.id in people and not (chosen.actions and chosen.actions.remaining):
        raise EncounterError(
            f"{chosen.name} commands and fires: that is two actions (§8), and he has no action "
            "left for the command; he declares one more, or a leader who only commands takes it"
        )
    return spend(state, chosen, ruleset=ruleset, combining=True)


def _combine(
    state: EncounterState,
    cmd: Attack,
    people: dict[str, Combatant],
    skill: str,
    kind: AttackKind,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
) -> tuple[DieCode, tuple[DieCode, DieCode], Numbers, list[Event]]:
    """Combined fire: the supporters' actions, the commander's, the command roll (2E) and the
    bonus with its split → (bonus, (on the attack, on damage), numbers, events)."""
    rc = ruleset.combined_actions == "rc_support"
    lead = people[cmd.attacker]
    seen: set[str] = set()
    supporters = []
    for cid in cmd.supporters:
        _listed(state, cid, cmd, seen, "supporters")
        s = spend(state, cid, ruleset=ruleset, combining=True)
        if _kind(s) != kind:
            raise EncounterError(
                f"combined fire is one kind of attack: {s.name}'s is {_kind(s)}, the lead's {kind}"
            )
        supporters.append(s)
        people[cid] = s
    combining = [lead, *supporters]
    codes = {c.id: c.code(skill if c is lead else _skill(c)) for c in combining}
    if rc:
        if cmd.command_difficulty is not None:
            raise EncounterError("[RC] combined fire has no command roll: leave its difficulty out")
        if cmd.to_attack is not None:
            raise EncounterError("[RC] the support pips all go on the lead firer's roll")
    else:
        best = max(combining, key=lambda c: codes[c.id])
        if codes[best.id] > codes[lead.id]:
            raise EncounterError(
                f"the bonus goes to the combining character with the highest skill: "
                f"{best.name} ({codes[best.id]}) outranks {lead.name} ({codes[lead.id]}); "
                "make him the lead firer"
            )
        if cmd.command_difficulty is None:
            raise EncounterError(
                "the GM sets the command difficulty for combined fire (Very Easy for a unit "
                "that drills together … Heroic for strangers without a common language)"
            )
    commander = _commander(state, cmd, people, combining, ruleset=ruleset)
    limit = None
    if commander is not None:
        people[commander.id] = commander
        actions = commander.actions.total if commander.actions else 1
        limit = max_combining(commander.code("command"), actions=actions, ruleset=ruleset)
    for c in combining:
        people[c.id] = people[c.id].replace(combining=True)
    numbers: Numbers = (
        ("combining", len(combining)),
        ("supporters", ",".join(cmd.supporters)),
        ("commander", commander.id if commander else None),
        ("limit", limit),
    )
    if rc:
        reduced = [
            codes[s.id].minus_dice(penalty_dice(s, now_round=state.round, ruleset=ruleset))
            for s in supporters
        ]
        bonus = combined_action_bonus(
            len(combining), ruleset=ruleset, supporter_codes=reduced, limit=limit
        )
        shares = (bonus, DieCode())
        numbers += _shares(bonus, shares)
        return bonus, shares, numbers, []
    if commander is None or cmd.command_difficulty is None:  # pragma: no cover - checked above
        raise EncounterError("2E combined fire needs a leader and a command difficulty")
    commanded = len(combining) - (1 if commander.id in codes else 0)
    if limit is not None and commanded > limit:
        raise EncounterError(
            f"{commander.name} can command at most {limit} characters (command "
            f"{commander.code('command')}); {commanded} would combine under him"
        )
    best_case = combined_action_bonus(len(combining), ruleset=ruleset)
    wanted = DieCode.parse(cmd.to_attack) if cmd.to_attack else best_case
    split_combined_bonus(best_case, wanted)  # refuses a share larger than the bonus can be
    penalty = penalty_dice(commander, now_round=state.round, ruleset=ruleset)
    code = commander.code("command")
    total, rolls, _ = roll_for(
        commander,
        code,
        "command",
        penalty=penalty,
        now_round=state.round,
        ruleset=ruleset,
        rng=rng,
    )
    margin = total - cmd.command_difficulty
    bonus = combined_action_bonus(len(combining), margin, ruleset=ruleset)
    on_attack = min(wanted, bonus)
    shares = split_combined_bonus(bonus, on_attack)
    numbers += (
        ("command_code", str(code)),
        ("command_total", total),
        ("command_difficulty", cmd.command_difficulty),
        *_shares(bonus, shares),
    )
    text = (
        f"{commander.name} rolls command {total} against {cmd.command_difficulty}: "
        f"{len(combining)} combine for {bonus.signed()}"
    )
    command_numbers: Numbers = (
        ("command_code", str(code)),
        ("penalty_dice", penalty),
        ("total", total),
        ("difficulty", cmd.command_difficulty),
        ("margin", margin),
        ("combining", len(combining)),
        ("commanded", commanded),
        ("combined_bonus", str(bonus)),
    )
    return bonus, shares, numbers, [Event("command", commander.id, text, command_numbers, rolls)]


def _shares(bonus: DieCode, shares: tuple[DieCode, DieCode]) -> Numbers:
    return (
        ("combined_bonus", str(bonus)),
        ("attack_bonus", str(shares[0])),
        ("damage_bonus", str(shares[1])),
    )
