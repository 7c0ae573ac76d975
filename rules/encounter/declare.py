"""Declaring, around the engine's own declaration: :class:`~rules.encounter.DeclareAll` (the
GM's "every trooper declares 1"), the [RC] surprise haste added to a declaration, and the [RC]
full reaction (combat.md §9.4, CB-38, CB-39; CA-23).

[RC] full reaction: "Full dodge … You add the dodge skill roll … to the difficulty number of
the attacker. A speed action is required for full dodge … but it does not reduce the die code
… The effects of moving increase the effectiveness of the dodge by 1D, which is cancelled by
the multiple action penalty … Full dodges, parries, and evasions are declared during the
'Declare Actions and Full Reaction Skills' segment … A character who has declared a full
reaction skill may only take the following actions: haste and movement … A character may
increase the degree of haste of a full dodge during the 'Declare Combat Reaction Skills'."

So it belongs with the declaration: ``DeclareActions(..., full_reaction="dodge")`` in segment 1,
where ``actions`` are his movement actions (at least the speed action it needs) and the
reaction is one action more. It is rolled in segment 2 (``React(full=True)``), once his haste
is final: at the multiple-action penalty less the 1D its speed action gives back (CA-23), and
the roll is added to the attacker's difficulty when its haste is at least the attack's. Besides
it he takes only haste and movement (``Act``): no attack, aim, first aid or other reaction
(:func:`rules.encounter.surprise.check_step`).
"""

from __future__ import annotations

from typing import Protocol

from rules.combat import ActionCount, is_reaction_skill
from rules.dice import DiceSource
from rules.encounter._turns import actions_said, rc
from rules.encounter.commands import DeclareActions, DeclareAll, React
from rules.encounter.craft_aboard import reaction_code
from rules.encounter.events import Event
from rules.encounter.points import FORCE_POINT_SAID, spend_points
from rules.encounter.resolve import penalty_dice, roll_for
from rules.encounter.state import Combatant, EncounterError, EncounterState, Reaction
from rules.encounter.surprise import SURPRISE_HASTE, free_haste, surprise_holds
from rules.ruleset import RuleSet

__all__ = ["declare", "declare_all", "react"]

Step = tuple[EncounterState, list[Event]]


class _Declare(Protocol):
    def __call__(self, state: EncounterState, cmd: DeclareActions, *, ruleset: RuleSet) -> Step:
        """The engine's own declaration."""


class _React(Protocol):
    def __call__(
        self, state: EncounterState, cmd: React, *, ruleset: RuleSet, rng: DiceSource
    ) -> Step:
        """The engine's own reaction."""


def _skill(name: str) -> str:
    return " ".join(name.lower().split())


def declare(
    state: EncounterState, cmd: DeclareActions, *, ruleset: RuleSet, base: _Declare
) -> Step:
    """The engine's declaration (``base``), then [RC] the surprising side's two free haste
    actions in round 1 and a full reaction declared with the actions."""
    skill = None if cmd.full_reaction is None else _skill(cmd.full_reaction)
    if skill is not None:
        if not rc(ruleset):
            raise EncounterError(
                "in the 2E round a full reaction is taken when attacked (react with full); "
                "only the Rules Companion round declares it with the actions"
            )
        if ruleset.full_reaction == "none":
            raise EncounterError("this campaign has no full reactions")
        if not (is_reaction_skill(skill) or skill == "lightsaber"):
            raise EncounterError(f"a full reaction is a full dodge or parry, not {skill[:40]!r}")
    new, events = base(state, cmd, ruleset=ruleset)
    c = new.combatant(cmd.combatant)
    free = SURPRISE_HASTE if rc(ruleset) and state.surprise == c.side else 0
    if not free and skill is None:
        return new, events
    before = c.actions
    if free:
        c = free_haste(c, free)
    if skill is not None and c.actions is not None:
        a = c.actions
        count = ActionCount(a.declared + 1, a.extra, a.used + 1, a.free, a.full_auto)
        c = c.replace(actions=count, full_reaction=skill)
    return new.with_combatant(c), [_redeclared(e, before, c, free, ruleset=ruleset) for e in events]


def _redeclared(
    event: Event, before: ActionCount | None, c: Combatant, free: int, *, ruleset: RuleSet
) -> Event:
    """The declare event with the free haste and the full reaction counted in."""
    if event.kind != "declare" or event.combatant != c.id or before is None or c.actions is None:
        return event  # pragma: no cover - the engine declares with one event
    total, pen = c.actions.total, c.actions.penalty_dice(ruleset=ruleset)
    numbers = dict(event.numbers) | {"actions": total, "haste": c.haste, "penalty_dice": pen}
    numbers |= {"free_haste": free, "full_reaction": c.full_reaction}
    text = f"{c.name} declares {actions_said(total, pen)}"
    if free:
        text += f", {free} of them free surprise haste"
    if c.full_reaction:
        text += f", with a full {c.full_reaction}"
    return Event(event.kind, event.combatant, text, tuple(numbers.items()), event.rolls)


def declare_all(
    state: EncounterState, cmd: DeclareAll, *, ruleset: RuleSet, base: _Declare
) -> Step:
    """Each listed combatant who has not declared and can act declares ``cmd.actions`` (and
    haste): one declare event each. Those already declared, out of the fight (or without
    actions this round) or surprised are skipped; an unknown id, or nobody left, is refused."""
    people = [state.combatant(cid) for cid in cmd.combatants]
    why: dict[str, str] = {}
    for c in people:
        if c.actions is not None:
            why[c.id] = f"{c.name} has declared"
        elif c.out_of_fight or c.lost_actions:
            why[c.id] = f"{c.name} cannot act this round"
        elif c.surprised and surprise_holds(state):
            why[c.id] = f"{c.name} is surprised"
    if len(why) == len(people):
        raise EncounterError("nobody is left to declare: " + "; ".join(why.values()))
    events: list[Event] = []
    for c in people:
        if c.id not in why:
            step = DeclareActions(c.id, cmd.actions, cmd.haste)
            state, declared = declare(state, step, ruleset=ruleset, base=base)
            events.extend(declared)
    return state, events


def react(
    state: EncounterState, cmd: React, *, ruleset: RuleSet, rng: DiceSource, base: _React
) -> Step:
    """[RC] a full reaction declared in segment 1, rolled in segment 2 (see the module); any
    other reaction is the engine's (``base``)."""
    if not (rc(ruleset) and cmd.full):
        return base(state, cmd, ruleset=ruleset, rng=rng)
    c = state.combatant(cmd.combatant)
    skill = _skill(cmd.skill)
    if ruleset.full_reaction == "none":
        raise EncounterError("this campaign has no full reactions")
    if state.segment != 2:
        raise EncounterError("[RC] a full reaction is rolled in segment 2, once haste is final")
    if c.full_reaction is None:
        raise EncounterError(
            f"{c.name} declares a full reaction in segment 1, with his actions (full_reaction)"
        )
    if skill != c.full_reaction:
        raise EncounterError(f"{c.name} declared a full {c.full_reaction}, not a full {skill}")
    if c.reaction(skill) is not None:
        raise EncounterError(f"{c.name}'s full {skill} is already rolled for this round")
    if c.out_of_fight or c.lost_actions or c.actions is None:
        raise EncounterError(f"{c.name} can take no more actions and cannot roll a reaction")
    if cmd.haste < c.haste:
        raise EncounterError("[RC] haste can be raised in segment 2 but never lowered")
    a = c.actions
    kind = {"lightsaber": "lightsaber_parry", "starship dodge": "vehicle_dodge"}
    c = spend_points(
        c,
        roll=kind.get(skill, skill.replace(" ", "_")),
        cp_dice=cmd.cp_dice,
        force_point=cmd.force_point,
        now_round=state.round,
        ruleset=ruleset,
    )
    raised = cmd.haste - c.haste
    c = c.replace(actions=ActionCount(a.declared, a.extra + raised, a.used, a.free, a.full_auto))
    map_dice = c.actions.penalty_dice(ruleset=ruleset) if c.actions else 0
    wounds = penalty_dice(c, now_round=state.round, ruleset=ruleset) - map_dice
    penalty = max(0, map_dice - 1) + wounds  # its speed action gives its own 1D back (CA-23)
    total, rolls, _ = roll_for(
        c,
        reaction_code(state, c, skill, ruleset=ruleset),
        "reaction",
        penalty=penalty,
        now_round=state.round,
        cp_dice=cmd.cp_dice,
        ruleset=ruleset,
        rng=rng,
    )
    c = c.replace(reactions=(*c.reactions, Reaction(skill, total, True, cmd.haste)))
    numbers = (
        ("skill", skill),
        ("actions", c.actions.total if c.actions else 0),
        ("penalty_dice", penalty),
        ("total", total),
        ("full", True),
        ("haste", cmd.haste),
    )
    text = f"{c.name} rolls a full {skill}: {total} is added to every difficulty this round"
    text += FORCE_POINT_SAID if cmd.force_point else ""
    return state.with_combatant(c), [Event("reaction", c.id, text, numbers, rolls)]
