"""CB-3 (combat.md §13, [WIKI]): the Sandor/Cantrell round replayed through the encounter's
``apply`` with fixed dice, asserting every printed number of the walkthrough (and D-15…D-19,
which are its pieces).

Replay flags as the digest gives them: ``declare_timing = round_start``, ``whole_pose`` turns
(:func:`next_to_act`), drawing a weapon is an action, ``reaction_mode = replace`` and the
[WIKI] ``subtract_pool`` convention: each roll is the full code ("check") less a separately
rolled penalty pool ("pen"). Skill codes are not printed; the dice below make the printed
checks and penalty totals. Mahon is side B with a lower Perception than Cantrell and one
declared action (the digest's assumptions)."""

from __future__ import annotations

import pytest

from rules.combat import WeaponRange
from rules.dice import DieCode, FixedDice
from rules.encounter import (
    Act,
    AddCombatant,
    Attack,
    ChooseOrder,
    Combatant,
    Command,
    DeclareActions,
    EncounterError,
    EncounterState,
    EndRound,
    Event,
    React,
    ResolveAttack,
    RollInitiative,
    Weapon,
    apply,
    next_to_act,
    penalty_dice,
    recorded_dice,
    replay,
)
from rules.injuries import WoundLevel
from rules.ruleset import RuleSet

D = DieCode.parse
WIKI = RuleSet(declare_timing="round_start", wiki_penalty_convention="subtract_pool")
PISTOL = WeaponRange(3, 10, 30, 120)


def fighter(cid: str, side: str, perception: str, blaster: str, damage: str) -> Combatant:
    return Combatant(
        id=cid,
        name=cid.capitalize(),
        side=side,
        perception=D(perception),
        dexterity=D("3D"),
        strength=D("3D"),
        skills=(("blaster", D(blaster)), ("dodge", D("5D"))),
        weapon=Weapon("blaster", damage, "blaster", "ranged", PISTOL),
    )


SANDOR = fighter("sandor", "A", "3D", "4D", "4D")
CANTRELL = fighter("cantrell", "B", "3D", "5D", "5D")
MAHON = fighter("mahon", "B", "2D", "4D", "5D")


class Table:
    """The encounter as the dashboard drives it: one step at a time, dice handed in."""

    def __init__(self) -> None:
        self.state = EncounterState.new()
        self.steps: list[Command] = []
        self.events: list[Event] = []

    def do(self, command: Command, *faces: int) -> list[Event]:
        state, events = apply(self.state, command, ruleset=WIKI, rng=FixedDice(faces))
        self.state = state
        self.steps.append(command)
        self.events.extend(events)
        return events

    def who(self, cid: str) -> Combatant:
        return self.state.combatant(cid)


def round_one() -> Table:
    t = Table()
    for c in (SANDOR, CANTRELL, MAHON):
        t.do(AddCombatant(c))
    return t


def test_cb3_the_sandor_cantrell_round_step_by_step():
    t = round_one()

    # Step 1: initiative (rolls not printed): Sandor 12 against Cantrell 6 for side B (the
    # side's highest Perception rolls); Sandor's side chooses to act first. Not an action.
    events = t.do(RollInitiative(), 4, 4, 4, 2, 2, 2)
    assert [(e.combatant, e.number("total")) for e in events[:2]] == [
        ("sandor", 12),
        ("cantrell", 6),
    ]
    assert events[-1].number("side") == "A"
    t.do(ChooseOrder("A", first=True))
    assert t.state.order == ("sandor", "cantrell", "mahon")

    # Step 2: declared counts: Sandor 2, Cantrell 2 → both at -1D (D-15); Mahon 1.
    assert t.do(DeclareActions("sandor", 2))[0].number("penalty_dice") == 1
    assert t.do(DeclareActions("cantrell", 2))[0].number("penalty_dice") == 1
    assert t.do(DeclareActions("mahon", 1))[0].number("penalty_dice") == 0
    assert next_to_act(t.state, whole_pose=True) == ("sandor", 1)

    # Step 3: Sandor draws (an action, CA-3). Step 4: fires at Cantrell, medium range, GM 14.
    assert t.do(Act("sandor", "draws his blaster"))[0].number("actions_left") == 1
    assert next_to_act(t.state, whole_pose=True) == ("sandor", 2)
    declared = t.do(Attack("sandor", "cantrell", difficulty=14, range_band="medium"))[0]
    assert declared.number("base_difficulty") == 14
    assert t.who("sandor").actions.used == 2

    # Steps 5–6: Cantrell dodges as an extra action → 3 actions, -2D; check 25, pen 2D 5 → 20.
    dodge = t.do(React("cantrell", "dodge", extra=True), 5, 5, 5, 5, 5, 2, 3)[0]
    assert dodge.number("actions") == 3
    assert dodge.number("penalty_dice") == 2
    assert dodge.roll("reaction").total == 25
    assert dodge.roll("reaction penalty").total == 5
    assert dodge.number("total") == 20
    assert t.who("cantrell").reaction("dodge").total == 20

    # Step 7: Sandor's shot, check 20, pen 1D 3 → 17 < 20: a miss (it would have hit 14).
    (shot,) = t.do(ResolveAttack(), 5, 5, 5, 5, 3)
    assert shot.roll("attack").total == 20
    assert shot.roll("attack penalty").total == 3
    assert shot.number("penalty_dice") == 1
    assert (shot.number("reaction"), shot.number("difficulty")) == (20, 20)
    assert shot.number("attack_total") == 17
    assert shot.number("hit") is False
    assert shot.number("base_difficulty") == 14  # which 17 would have hit

    # Step 8: Cantrell draws (1 of his 2 declared), still at -2D.
    assert next_to_act(t.state, whole_pose=True) == ("cantrell", 1)
    t.do(Act("cantrell", "draws his blaster"))
    assert penalty_dice(t.who("cantrell"), now_round=1, ruleset=WIKI) == 2

    # Step 9: Cantrell fires at Sandor: medium range, GM 15.
    assert next_to_act(t.state, whole_pose=True) == ("cantrell", 2)
    t.do(Attack("cantrell", "sandor", difficulty=15, range_band="medium"))
    assert t.who("cantrell").actions.remaining == 0

    # Step 10: Sandor has no declared actions left: only an extra action is possible.
    with pytest.raises(EncounterError, match="no declared actions left"):
        t.do(React("sandor", "dodge", extra=False), 5, 5, 5, 5, 5, 2, 2)
    # Step 11: the extra dodge → 3 actions, -2D; net 21 (check 25 − pen 4).
    dodge = t.do(React("sandor", "dodge", extra=True), 5, 5, 5, 5, 5, 2, 2)[0]
    assert (dodge.number("actions"), dodge.number("penalty_dice")) == (3, 2)
    assert dodge.number("total") == 21
    # His step-7 roll at -1D is not re-rolled: the earlier attack event still says 17.
    assert shot.number("attack_total") == 17

    # Step 12: Cantrell's shot: check 25, pen 2D 3 → 22 ≥ 21 → hit.
    shot, damage = t.do(ResolveAttack(), 5, 5, 5, 5, 5, 1, 2, 4, 4, 4, 3, 3, 5, 5, 4)
    assert shot.roll("attack").total == 25
    assert shot.roll("attack penalty").total == 3
    assert (shot.number("base_difficulty"), shot.number("difficulty")) == (15, 21)
    assert shot.number("attack_total") == 22
    assert shot.number("hit") is True
    # Steps 13–15: damage 5D → 18 (no penalty on damage); Strength 14 (none on resisting);
    # 18 − 14 = 4 → Wounded (D-19).
    assert damage.number("damage_code") == "5D"
    assert damage.number("damage_total") == 18
    assert damage.number("strength_code") == "3D"
    assert damage.number("strength_total") == 14
    assert damage.number("margin") == 4
    assert damage.number("result") == "wounded"
    # Step 16: prone, no more actions, -1D until healed; his dodge 21 stays in force.
    sandor = t.who("sandor")
    assert sandor.wounds.level is WoundLevel.wounded
    assert sandor.prone and sandor.lost_actions
    assert sandor.actions.total == 3  # the penalty stays -2D for the round (CA-9)
    assert penalty_dice(sandor, now_round=1, ruleset=WIKI) == 2 + 1
    assert sandor.reaction("dodge").total == 21

    # Step 17: Mahon fires at Sandor: he needs 21 (the standing dodge, not a new range
    # difficulty); Sandor, wounded, rolls no new reaction.
    assert next_to_act(t.state, whole_pose=True) == ("mahon", 1)
    t.do(Attack("mahon", "sandor", difficulty=13, range_band="medium"))
    with pytest.raises(EncounterError, match="cannot roll a new reaction"):
        t.do(React("sandor", "dodge"), 6, 6, 6, 6, 6)
    shot, damage = t.do(ResolveAttack(), 5, 5, 5, 6, 1, 4, 4, 4, 4, 4, 5, 5, 4)
    assert shot.number("difficulty") == 21
    assert shot.roll("attack penalty") is None  # one action: no penalty pool
    assert shot.number("attack_total") == 22
    assert shot.number("hit") is True
    # Step 18: damage 20 against full Strength 14 (the wound penalty does not apply):
    # 6 → "Wounded" on the chart; already Wounded → Wounded Twice (-2D, prone, no actions).
    assert (damage.number("damage_total"), damage.number("strength_total")) == (20, 14)
    assert damage.number("margin") == 6
    assert damage.number("result") == "wounded"
    assert damage.number("wound_level") == "wounded_twice"
    sandor = t.who("sandor")
    assert sandor.wounds.level is WoundLevel.wounded_twice
    assert sandor.prone and sandor.lost_actions
    assert penalty_dice(sandor, now_round=1, ruleset=WIKI) == 2 + 2
    # The order was Sandor 1, Sandor 2, Cantrell 1, Cantrell 2, Mahon 1; nobody is left.
    assert next_to_act(t.state, whole_pose=True) is None

    # Step 19 (the text's continuation): another wounding hit → Incapacitated. Next round:
    # Sandor rolls initiative at 3D − 2D = 1D; side B wins and acts first.
    t.do(EndRound())
    assert t.state.round == 2 and t.state.phase == "initiative"
    events = t.do(RollInitiative(), 2, 4, 4, 4)
    assert events[0].number("pool") == "1D"
    assert events[-1].number("side") == "B"
    t.do(ChooseOrder("B", first=True))
    assert t.state.order == ("cantrell", "mahon", "sandor")
    t.do(DeclareActions("mahon", 1))
    t.do(Attack("mahon", "sandor", difficulty=13, range_band="medium"))
    shot, damage = t.do(ResolveAttack(), 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 4)
    assert shot.number("hit") is True
    assert damage.number("margin") == 6
    assert t.who("sandor").wounds.level is WoundLevel.incapacitated
    assert t.who("sandor").out_of_fight


def test_cb3_replays_to_the_same_state_from_the_recorded_dice():
    t = round_one()
    t.do(RollInitiative(), 4, 4, 4, 2, 2, 2)
    t.do(ChooseOrder("A", first=True))
    for cid, n in (("sandor", 2), ("cantrell", 2), ("mahon", 1)):
        t.do(DeclareActions(cid, n))
    t.do(Act("sandor", "draw"))
    t.do(Attack("sandor", "cantrell", difficulty=14))
    t.do(React("cantrell", "dodge"), 5, 5, 5, 5, 5, 2, 3)
    t.do(ResolveAttack(), 5, 5, 5, 5, 3)
    t.do(Act("cantrell", "draw"))
    t.do(Attack("cantrell", "sandor", difficulty=15))
    t.do(React("sandor", "dodge"), 5, 5, 5, 5, 5, 2, 2)
    t.do(ResolveAttack(), 5, 5, 5, 5, 5, 1, 2, 4, 4, 4, 3, 3, 5, 5, 4)
    start = EncounterState.new()
    dice = FixedDice(recorded_dice(t.events))
    state, events = replay(start, t.steps, ruleset=WIKI, rng=dice)
    assert state == t.state
    assert [e.to_json() for e in events] == [e.to_json() for e in t.events]
    assert state.combatant("sandor").wounds.level is WoundLevel.wounded

    # Undo: the same steps without the last one. The dice recorded for them come first in the
    # recording, so the whole recording replays them.
    undone, _ = replay(start, t.steps[:-1], ruleset=WIKI, rng=FixedDice(recorded_dice(t.events)))
    assert undone.pending is not None and undone.pending.target == "sandor"
    assert undone.combatant("sandor").reaction("dodge").total == 21
    assert undone.combatant("sandor").wounds.level is WoundLevel.none
