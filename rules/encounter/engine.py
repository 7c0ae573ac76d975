"""The round as a state machine: :func:`apply` (one step → the new state and its events),
:func:`replay` (a list of steps from a starting state) and :func:`next_to_act` (whose action
falls due, §1.4). The 2E round (initiative, order, declarations, actions and reactions, end of
round) and the Rules Companion's segments (§9) both run here, chosen by the ruleset."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Literal

from rules.combat import (
    ActionCount,
    initiative_pool,
    initiative_roller,
    rc_declaration_order,
    reaction_skills,
)
from rules.dice import DiceSource, roll
from rules.encounter._turns import actions_said
from rules.encounter._turns import in_round as _in_round
from rules.encounter._turns import rc as _rc
from rules.encounter._turns import spend as _spend
from rules.encounter.aid import first_aid
from rules.encounter.aim import aim
from rules.encounter.auto import check_full_auto_reaction
from rules.encounter.blast import detonate, throw
from rules.encounter.blasts import Detonate, Throw
from rules.encounter.commands import (
    Act,
    AddCombatant,
    AddCombatants,
    Aim,
    Attack,
    ChooseOrder,
    Command,
    DeclareActions,
    DeclareAll,
    EndEncounter,
    EndRound,
    FirstAid,
    GMOverride,
    NextSegment,
    React,
    RemoveCombatant,
    ResolveAttack,
    RollInitiative,
    SetPosition,
    Surprise,
)
from rules.encounter.craft import Drive, Ram, SetArc, SetShields
from rules.encounter.craft_aboard import (
    aboard,
    acts_itself,
    craft_end_round,
    reaction_code,
    reaction_skills_for,
    reacts_for,
    set_arc,
    set_shields,
)
from rules.encounter.craft_moves import drive, ram
from rules.encounter.declare import declare, declare_all, react
from rules.encounter.events import Event, plain_roll
from rules.encounter.firing import FireState, Suppress
from rules.encounter.house import (
    check_action_count,
    end_is_nigh,
    lasting_criticals,
    slowed_down,
    winded_last,
)
from rules.encounter.override import override
from rules.encounter.points import FORCE_POINT_SAID, spend_points
from rules.encounter.position import attack, set_position
from rules.encounter.resolve import penalty_dice, resolve_attack, roll_for
from rules.encounter.state import (
    Combatant,
    EncounterError,
    EncounterState,
    Reaction,
)
from rules.encounter.suppression import suppress
from rules.encounter.surprise import after_round, check_step, surprise
from rules.errors import RulesError
from rules.injuries import (
    WoundLevel,
    WoundState,
    expire_stuns,
    roll_death,
    stun_penalty,
)
from rules.ruleset import RuleSet
from rules.scale import scale_adjustment

__all__ = ["actions_left", "apply", "is_due", "next_to_act", "replay"]

MAX_INITIATIVE_ROLLS = 50
_CP_KINDS = {
    "dodge": "dodge",
    "melee parry": "melee_parry",
    "brawling parry": "brawling_parry",
    "lightsaber": "lightsaber_parry",
    "vehicle dodge": "vehicle_dodge",
    "starship dodge": "vehicle_dodge",
}


class _Tape:
    """A dice source that keeps the faces it hands out (for rolls made by helpers that return
    only totals, such as the death roll)."""

    def __init__(self, rng: DiceSource) -> None:
        self.rng = rng
        self.faces: list[int] = []

    def d6(self) -> int:
        face = self.rng.d6()
        self.faces.append(face)
        return face


def apply(
    state: EncounterState, command: Command, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """Carry out one step. Returns the new state and what happened (every die in the events).
    A step the rules refuse raises :class:`EncounterError` with the reason; the state given
    is never changed (it is frozen)."""
    if state.phase == "ended":
        raise EncounterError("the encounter has ended; no more steps can be taken")
    try:
        return _dispatch(state, command, ruleset=ruleset, rng=rng)
    except EncounterError:
        raise
    except RulesError as exc:
        raise EncounterError(str(exc)) from None


def _dispatch(
    state: EncounterState, cmd: Command, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    check_step(state, cmd, ruleset=ruleset)  # surprise, [RC] full reaction
    match cmd:
        case AddCombatant():
            return _add(state, cmd, ruleset=ruleset)
        case AddCombatants():
            events: list[Event] = []
            for c in cmd.combatants:
                state, joined = _add(state, AddCombatant(c), ruleset=ruleset)
                events.extend(joined)
            return state, events
        case RemoveCombatant():
            return _remove(state, cmd, ruleset=ruleset)
        case RollInitiative():
            return _roll_initiative(state, ruleset=ruleset, rng=rng)
        case ChooseOrder():
            return _choose_order(state, cmd)
        case DeclareActions():
            return declare(state, cmd, ruleset=ruleset, base=_declare)
        case DeclareAll():
            return declare_all(state, cmd, ruleset=ruleset, base=_declare)
        case Act():
            c = _spend(state, cmd.combatant, ruleset=ruleset)
            left = c.actions.remaining if c.actions else 0
            text = f"{c.name}: {cmd.what}"
            event = Event("act", c.id, text, (("what", cmd.what), ("actions_left", left)))
            return state.with_combatant(c), [event]
        case Attack():
            return attack(state, cmd, ruleset=ruleset, rng=rng)
        case React():
            return react(state, cmd, ruleset=ruleset, rng=rng, base=_react)
        case ResolveAttack():
            return resolve_attack(
                state, ruleset=ruleset, rng=rng, damage_cp=cmd.damage_cp, critical=cmd.critical
            )
        case Throw():
            return throw(state, cmd, ruleset=ruleset, rng=rng)
        case Detonate():
            return detonate(state, cmd, ruleset=ruleset, rng=rng)
        case Suppress():
            return suppress(state, cmd, ruleset=ruleset, rng=rng)
        case NextSegment():
            return _next_segment(state, ruleset=ruleset)
        case EndRound():
            state = craft_end_round(state)
            return after_round(state, *_end_round(state, ruleset=ruleset, rng=rng))
        case SetArc():
            c, other = state.combatant(cmd.craft), state.combatant(cmd.other)
            text = f"{other.name} is in {c.name}'s {cmd.arc} arc"
            numbers = (("other", other.id), ("arc", cmd.arc))
            return set_arc(state, cmd.craft, cmd.other, cmd.arc), [
                Event("arc", c.id, text, numbers)
            ]
        case SetShields():
            return set_shields(state, cmd.craft, cmd.arcs, ruleset=ruleset)
        case Ram():
            return ram(
                state, _spend(state, cmd.pilot, ruleset=ruleset), cmd, ruleset=ruleset, rng=rng
            )
        case Drive():
            return drive(state, cmd, spend=_spend, ruleset=ruleset, rng=rng)
        case EndEncounter():
            if state.pending is not None:
                raise EncounterError("resolve the announced attack before ending the encounter")
            if state.blast is not None:
                raise EncounterError(f"the thrown {state.blast.name} goes off first: detonate it")
            return state.replace(phase="ended"), [Event("end_encounter", None, "The fight ends")]
        case GMOverride():
            return override(state, cmd, ruleset=ruleset)
        case FirstAid():
            return first_aid(state, cmd, ruleset=ruleset, rng=rng)
        case SetPosition():
            return set_position(state, cmd, ruleset=ruleset)
        case Surprise():
            return surprise(state, cmd, ruleset=ruleset)
        case Aim():
            return aim(state, cmd, ruleset=ruleset)
    raise EncounterError(f"unknown encounter step {cmd!r}")  # pragma: no cover


# --- combatants joining and leaving -----------------------------------------------------------
def _order(state: EncounterState, *, ruleset: RuleSet) -> tuple[str, ...]:
    if _rc(ruleset):
        segment: Literal[1, 2] = 2 if state.segment == 2 else 1
        acting = [c for c in state.combatants if acts_itself(c)]
        actors = [(c.id, c.dexterity, c.npc) for c in acting]
        if state.segment == 3:
            return tuple(c.id for c in sorted(acting, key=lambda c: -c.haste))
        return tuple(rc_declaration_order(actors, segment))
    if not state.side_order:
        return ()
    ranked = sorted(
        (c for c in state.combatants if acts_itself(c)), key=lambda c: c.perception, reverse=True
    )
    order = tuple(c.id for side in state.side_order for c in ranked if c.side == side)
    return winded_last(state, order)


def _add(
    state: EncounterState, cmd: AddCombatant, *, ruleset: RuleSet
) -> tuple[EncounterState, list[Event]]:
    c = cmd.combatant
    if any(x.id == c.id for x in state.combatants):
        raise EncounterError(f"a combatant with the id {c.id!r} is already in the encounter")
    sides = state.side_order
    if sides and c.side not in sides:
        sides = (*sides, c.side)
    state = state.replace(combatants=(*state.combatants, c), side_order=sides)
    state = state.replace(order=_order(state, ruleset=ruleset))
    return state, [Event("join", c.id, f"{c.name} joins the fight on side {c.side}")]


def _remove(
    state: EncounterState, cmd: RemoveCombatant, *, ruleset: RuleSet
) -> tuple[EncounterState, list[Event]]:
    c = state.combatant(cmd.combatant)
    pending = state.pending
    if pending is not None and c.id in (pending.attacker, pending.target):
        pending = None
    elif pending is not None:  # a group firer or supporter leaves before the roll
        others = tuple(x for x in pending.others if x != c.id)
        supporters = tuple(x for x in pending.supporters if x != c.id)
        pending = replace(pending, others=others, supporters=supporters)
    people = tuple(x for x in state.combatants if x.id != c.id)
    state = state.replace(combatants=people, pending=pending, order=())
    state = state.replace(order=_order(state, ruleset=ruleset))
    return state, [Event("leave", c.id, f"{c.name} leaves the fight")]


# --- initiative (§1.2) ------------------------------------------------------------------------
def _sides(state: EncounterState) -> list[tuple[str, list[Combatant]]]:
    sides: dict[str, list[Combatant]] = {}
    for c in state.combatants:
        if not c.out_of_fight and acts_itself(c):
            sides.setdefault(c.side, []).append(c)
    return list(sides.items())


def _stun_dice(c: Combatant, now_round: int) -> int:
    return stun_penalty(c.wounds.stuns, now_round)


def _roll_initiative(
    state: EncounterState, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    if _rc(ruleset):
        raise EncounterError("the Rules Companion round has no initiative roll (§9)")
    if state.phase != "initiative":
        raise EncounterError("initiative has already been rolled this round")
    sides = _sides(state)
    if len(sides) < 2:
        raise EncounterError("initiative needs at least two sides still in the fight")
    rollers: dict[str, Combatant] = {}
    for side, members in sides:  # the highest effective Perception: wounds, stuns (CA-4)
        candidates = [
            (c.id, c.perception, c.wounds.level, _stun_dice(c, state.round), slowed_down(c))
            for c in members
        ]
        rollers[side] = state.combatant(initiative_roller(candidates, ruleset=ruleset))
    events: list[Event] = []
    totals: dict[str, int] = {}
    contenders = list(rollers)
    for _ in range(MAX_INITIATIVE_ROLLS):
        for side in contenders:
            c = rollers[side]
            pool = initiative_pool(
                c.perception,
                wound=c.wounds.level,
                stun_dice=_stun_dice(c, state.round),
                slowed_down=slowed_down(c),
                ruleset=ruleset,
            )
            wild = ruleset.wild_die and ruleset.initiative_wild_die
            r = roll(pool, wild_die=wild, ruleset=ruleset, rng=rng)
            totals[side] = r.total
            numbers = (("side", side), ("pool", str(pool)), ("total", r.total))
            text = f"{c.name} rolls initiative for side {side}: {r.total}"
            events.append(Event("initiative", c.id, text, numbers, (("initiative", r),)))
        best = max(totals.values())
        contenders = [s for s, t in totals.items() if t == best]
        if len(contenders) == 1:
            break
        events.append(Event("initiative_tie", None, "Tie: the tied sides roll again"))
    else:
        raise EncounterError("initiative stayed tied after 50 rolls; the GM decides")
    winner = contenders[0]
    people = tuple(
        c.replace(initiative=totals[c.side] if rollers.get(c.side) is c else None)
        for c in state.combatants
    )
    text = f"Side {winner} wins the initiative and chooses to act first or last"
    events.append(Event("initiative_winner", rollers[winner].id, text, (("side", winner),)))
    new = state.replace(combatants=people, initiative_winner=winner, phase="order")
    return new, events


def _choose_order(state: EncounterState, cmd: ChooseOrder) -> tuple[EncounterState, list[Event]]:
    if state.phase != "order":
        raise EncounterError("the side order is chosen after the initiative roll")
    if cmd.side != state.initiative_winner:
        raise EncounterError(f"side {state.initiative_winner} won the initiative and chooses")
    rolls: dict[str, int] = {}
    for c in state.combatants:
        if c.initiative is not None:
            rolls[c.side] = c.initiative
    others = sorted((s for s in rolls if s != cmd.side), key=lambda s: -rolls[s])
    sides = (cmd.side, *others) if cmd.first else (*others, cmd.side)
    sides += tuple(s for s, _ in _sides(state) if s not in sides)
    ranked = sorted(
        (c for c in state.combatants if acts_itself(c)), key=lambda c: c.perception, reverse=True
    )
    order = winded_last(state, tuple(c.id for side in sides for c in ranked if c.side == side))
    new = state.replace(side_order=sides, order=order, phase="round")
    where = "first" if cmd.first else "last"
    names = ", ".join(new.combatant(cid).name for cid in order)
    text = f"Side {cmd.side} acts {where}; order: {names}"
    return new, [Event("order", None, text, (("first", sides[0]), ("order", ",".join(order))))]


# --- declaring and acting (§1.3–§1.5) ---------------------------------------------------------
def _declare(
    state: EncounterState, cmd: DeclareActions, *, ruleset: RuleSet
) -> tuple[EncounterState, list[Event]]:
    _in_round(state, "declaring actions")
    c = state.combatant(cmd.combatant)
    if not acts_itself(c):
        raise EncounterError(f"{c.name} acts through its crew: they declare their actions")
    if c.out_of_fight or c.lost_actions:
        raise EncounterError(f"{c.name} cannot act this round")
    if _rc(ruleset) and state.segment != 1:
        raise EncounterError("[RC] actions and haste are declared in segment 1")
    if cmd.haste and not _rc(ruleset):
        raise EncounterError("haste is a Rules Companion rule; this campaign rolls initiative")
    if c.actions is not None:
        raise EncounterError(f"{c.name} has already declared this round ({c.actions.total})")
    check_action_count(c, cmd.actions + cmd.haste)
    if _rc(ruleset):
        count = ActionCount(cmd.actions + cmd.haste, used=cmd.haste)
    else:
        count = ActionCount(cmd.actions)
    c = c.replace(actions=count, haste=cmd.haste)
    pen = count.penalty_dice(ruleset=ruleset)
    numbers = (("actions", count.total), ("haste", cmd.haste), ("penalty_dice", pen))
    text = f"{c.name} declares {actions_said(count.total, pen)}"
    return state.with_combatant(c), [Event("declare", c.id, text, numbers)]


def _react(
    state: EncounterState, cmd: React, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    _in_round(state, "reacting")
    c = state.combatant(cmd.combatant)
    pending = state.pending
    rc_declaring = _rc(ruleset) and state.segment == 2
    if _rc(ruleset) and not rc_declaring:
        raise EncounterError("[RC] combat reactions are declared in segment 2, before the rolls")
    if c.craft is not None and c.craft.crewed:
        raise EncounterError(f"{c.name} is flown by its crew: its pilot dodges for it")
    if not rc_declaring and (pending is None or not reacts_for(state, c, pending.target)):
        raise EncounterError(f"there is no attack on {c.name} to react to")
    if c.out_of_fight or c.lost_actions:
        raise EncounterError(f"{c.name} can take no more actions and cannot roll a new reaction")
    if c.actions is None:
        raise EncounterError(f"{c.name} declares his actions before reacting")
    skill = " ".join(cmd.skill.lower().split())
    if pending is not None and not rc_declaring:
        attacker = state.combatant(pending.attacker)
        armed = attacker.weapon is not None and attacker.weapon.kind != "brawling"
        covers = reaction_skills_for(state, c, pending.target, ruleset=ruleset) or reaction_skills(
            pending.kind, armed=armed, ruleset=ruleset
        )
        if skill not in covers:
            raise EncounterError(f"{skill} does not answer a {pending.kind} attack ({covers[0]})")
    actions, haste = c.actions, 0
    c = spend_points(
        c,
        roll=_CP_KINDS.get(skill, "reaction"),
        cp_dice=cmd.cp_dice,
        force_point=cmd.force_point,
        now_round=state.round,
        ruleset=ruleset,
    )
    standing = c.reaction(skill)
    if standing is not None:
        raise EncounterError(f"{c.name}'s {skill} of {standing.total} stands for this round")
    if cmd.full:
        if ruleset.full_reaction == "none" or _rc(ruleset):
            raise EncounterError("this campaign has no full reaction in the 2E round")
        if actions.total != 1 or actions.used:
            raise EncounterError("a full reaction is the only action of the round: declare 1")
        actions = actions.take()
    elif rc_declaring:
        if cmd.haste < c.haste:
            raise EncounterError("[RC] haste can be raised in segment 2 but never lowered")
        haste = cmd.haste
        extra = actions.extra + 1 + cmd.haste - c.haste  # free surprise haste stays free
        free, auto = actions.free, actions.full_auto
        actions = ActionCount(actions.declared, extra, actions.used, free, auto)
    elif cmd.extra:
        actions = actions.react(use_declared=False)
    else:
        if not actions.remaining:
            raise EncounterError(f"{c.name} has no declared actions left; react as an extra one")
        actions = actions.react(use_declared=True)
    check_action_count(c, actions.total)
    check_full_auto_reaction(state, c, ruleset=ruleset)
    c = c.replace(actions=actions)
    bonus = None
    if pending is not None and not rc_declaring:
        attacker = state.combatant(pending.attacker)
        firer = aboard(state, attacker) if pending.gun is not None else None
        a_scale = (firer or attacker).scale
        t_scale = state.combatant(pending.target).scale
        bonus = scale_adjustment(a_scale, t_scale, ruleset=ruleset).dodge_bonus or None
    penalty = penalty_dice(c, now_round=state.round, ruleset=ruleset)
    total, rolls, _ = roll_for(
        c,
        reaction_code(state, c, skill, ruleset=ruleset),
        "reaction",
        penalty=penalty,
        now_round=state.round,
        cp_dice=cmd.cp_dice,
        bonus=bonus,
        ruleset=ruleset,
        rng=rng,
    )
    c = c.replace(reactions=(*c.reactions, Reaction(skill, total, cmd.full, haste)))
    numbers = (
        ("skill", skill),
        ("actions", actions.total),
        ("penalty_dice", penalty),
        ("total", total),
        ("full", cmd.full),
        ("haste", haste),
    )
    text = f"{c.name} rolls {skill}: {total} stands for the rest of the round"
    text += FORCE_POINT_SAID if cmd.force_point else ""
    return state.with_combatant(c), [Event("reaction", c.id, text, numbers, rolls)]


# --- Rules Companion segments, end of round ---------------------------------------------------
def _next_segment(state: EncounterState, *, ruleset: RuleSet) -> tuple[EncounterState, list[Event]]:
    if not _rc(ruleset):
        raise EncounterError("segments belong to the Rules Companion round")
    if state.segment >= 3:
        raise EncounterError("segment 3 is the last: end the round")
    new = state.replace(segment=state.segment + 1)
    new = new.replace(order=_order(new, ruleset=ruleset))
    text = f"Segment {new.segment}: {', '.join(new.combatant(c).name for c in new.order)}"
    numbers = (("segment", new.segment), ("order", ",".join(new.order)))
    return new, [Event("segment", None, text, numbers)]


def _end_round(
    state: EncounterState, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    if state.pending is not None:
        raise EncounterError("resolve the announced attack before ending the round")
    if state.blast is not None:
        raise EncounterError(f"the thrown {state.blast.name} goes off first: detonate it")
    events: list[Event] = []
    people = []
    for c in state.combatants:
        wounds = c.wounds
        mortal = c.mortal_rounds
        if wounds.level is WoundLevel.mortally_wounded and not c.stabilised:
            mortal += 1
            tape = _Tape(rng)
            total, dies = roll_death(mortal, rng=tape, end_is_nigh=end_is_nigh(c))
            auto = ruleset.death_automation == "auto"
            if dies and auto:
                wounds = WoundState(WoundLevel.killed, wounds.stuns, wounds.rested_through)
            numbers = (("rounds", mortal), ("total", total), ("dies", dies), ("applied", auto))
            rounds = f"{mortal} round{'' if mortal == 1 else 's'} mortally wounded"
            fate = "he survives"
            if dies:
                fate = "he dies" if auto else "the roll says he dies: the GM decides"
            text = f"{c.name} makes a death roll: {total} against {rounds}; {fate}"
            rolls = (("death", plain_roll(tape.faces)),)
            events.append(Event("death_roll", c.id, text, numbers, rolls))
        wounds = expire_stuns(wounds, state.round + 1, ruleset=ruleset)
        people.append(
            c.replace(
                wounds=wounds,
                mortal_rounds=mortal,
                actions=None,
                haste=0,
                reactions=(),
                lost_actions=c.lose_next_round,
                lose_next_round=False,
                initiative=None,
                combining=False,
                criticals=lasting_criticals(c, ending_round=state.round),
            )
        )
    rc = _rc(ruleset)
    new = state.replace(
        round=state.round + 1,
        segment=1 if rc else 0,
        phase="round" if rc else "initiative",
        combatants=tuple(people),
        side_order=(),
        order=(),
        initiative_winner=None,
        fire=FireState(),
    )
    new = new.replace(order=_order(new, ruleset=ruleset))
    events.append(Event("end_round", None, f"Round {new.round} begins", (("round", new.round),)))
    return new, events


# --- replay and turn order ----------------------------------------------------------------------
def replay(
    initial: EncounterState, commands: Iterable[Command], *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """Apply the steps in order from ``initial``: the state after all of them and every event.
    Undo is a replay without the last step; give ``FixedDice(recorded_dice(events))`` to get
    the same dice as when the steps were first taken."""
    events: list[Event] = []
    for command in commands:
        initial, new = apply(initial, command, ruleset=ruleset, rng=rng)
        events.extend(new)
    return initial, events


def next_to_act(state: EncounterState, *, whole_pose: bool = False) -> tuple[str, int] | None:
    """Whose declared action falls due, and which of his actions it is (§1.4): all first
    actions in order, then all second actions ([UPG] interleaved passes), or each combatant's
    whole pose at once (``whole_pose``, to replay the [WIKI]). A combatant not yet declared is
    due for his first action. None when nobody has an action left."""
    due: list[tuple[int, int, str]] = []
    for position, cid in enumerate(state.order):
        c = state.combatant(cid)
        if c.out_of_fight or c.lost_actions:
            continue
        if c.actions is None:
            due.append((0, position, cid))
        elif c.actions.remaining:
            due.append((c.actions.used, position, cid))
    if not due:
        return None
    used, _, cid = min(due, key=lambda d: (d[1],) if whole_pose else (d[0], d[1]))
    return cid, used + 1


def actions_left(c: Combatant) -> int:
    """The declared actions he can still take this round: 0 before he declares, once he has
    lost his actions (wounded) or when he is out of the fight."""
    if c.actions is None or c.lost_actions or c.out_of_fight:
        return 0
    return c.actions.remaining


def is_due(state: EncounterState, combatant_id: str, *, whole_pose: bool = False) -> bool:
    """True when his action is the one that falls due now (:func:`next_to_act`)."""
    state.combatant(combatant_id)
    due = next_to_act(state, whole_pose=whole_pose)
    return due is not None and due[0] == combatant_id
