"""Storing an encounter: steps applied through the service are stored with every die and read
back to the same state; a refused step changes nothing; undo gives exactly the state before
the last step. Dice are seeded or fixed, never luck."""

from __future__ import annotations

import json

import pytest

from campaigns.tests.factories import CampaignFactory
from encounters.models import Encounter, Step
from encounters.services import (
    StaleEncounter,
    apply_step,
    end_encounter,
    start_encounter,
    undo_last_step,
)
from encounters.tests.helpers import KIRA, TK1, ready_to_choose, started
from rules.dice import FixedDice, SeededDice
from rules.encounter import (
    Act,
    AddCombatant,
    Attack,
    ChooseOrder,
    DeclareActions,
    EncounterError,
    EncounterState,
    EndRound,
    Event,
    React,
    ResolveAttack,
    RollInitiative,
    apply,
    command_from_json,
    recorded_dice,
    replay,
)
from rules.errors import RulesError
from rules.ruleset import RuleSet

pytestmark = pytest.mark.django_db


def take(encounter: Encounter, command, rng=None) -> tuple[Encounter, list[Event]]:
    """One step at the encounter's current version, sent as JSON text like a view would."""
    return apply_step(
        encounter.pk,
        json.dumps(command.to_json()),
        expected_version=encounter.version,
        actor=encounter.created_by,
        rng=rng or FixedDice([]),
    )


def snapshot(encounter_id: int) -> tuple[dict, int, int, str]:
    row = Encounter.objects.get(pk=encounter_id)
    return row.state, row.version, Step.objects.filter(encounter=row).count(), row.status


def fight_commands(winner: str) -> list:
    return [
        ChooseOrder(winner, first=True),
        DeclareActions("kira", 2),
        DeclareActions("tk1", 2),
        Attack("tk1", "kira", difficulty=10),
        React("kira", extra=False),
        ResolveAttack(),
    ]


def test_steps_are_stored_with_their_dice_and_the_state_reads_back():
    campaign = CampaignFactory()
    encounter = started(campaign)
    assert encounter.version == 0
    assert encounter.state == encounter.initial_state == EncounterState.new().to_json()

    rng = SeededDice(11)
    reference, reference_rng = EncounterState.new(), SeededDice(11)
    for command in (AddCombatant(KIRA), AddCombatant(TK1), RollInitiative()):
        encounter, events = take(encounter, command, rng)
        reference, expected = apply(reference, command, ruleset=RuleSet(), rng=reference_rng)
        assert [e.to_json() for e in events] == [e.to_json() for e in expected]
    winner = reference.initiative_winner
    assert winner in ("rebels", "empire")
    for command in fight_commands(winner):
        encounter, events = take(encounter, command, rng)
        reference, _ = apply(reference, command, ruleset=RuleSet(), rng=reference_rng)

    stored = Encounter.objects.get(pk=encounter.pk)
    assert stored.version == 9
    assert stored.status == Encounter.Status.ACTIVE
    assert stored.current_state().to_json() == reference.to_json() == stored.state
    assert stored.current_state().combatant("kira").reaction("dodge") is not None
    steps = list(stored.steps.all())
    assert [s.number for s in steps] == list(range(1, 10))
    assert [s.command["type"] for s in steps][-3:] == ["attack", "react", "resolve_attack"]
    assert all(s.actor == campaign.created_by for s in steps)
    # Every die is in the stored events: replaying them from the initial state gives the
    # stored state again.
    events = [Event.from_json(e) for s in steps for e in s.events]
    again, _ = replay(
        EncounterState.from_json(stored.initial_state),
        [command_from_json(s.command) for s in steps],
        ruleset=RuleSet(),
        rng=FixedDice(recorded_dice(events)),
    )
    assert again.to_json() == stored.state


def test_an_encounter_starts_in_segment_one_when_the_campaign_plays_the_rc_round():
    campaign = CampaignFactory()
    campaign.set_ruleset(RuleSet(combat_round="rc_haste"))
    campaign.save()
    encounter = start_encounter(campaign, "  Skyhook   raid ", campaign.created_by)
    assert encounter.name == "Skyhook raid"
    assert encounter.current_state() == EncounterState.new(rc_round=True)
    for name, message in (("  ", "give the encounter a name"), ("x" * 121, "at most 120")):
        with pytest.raises(EncounterError, match=message):
            start_encounter(campaign, name, campaign.created_by)
    assert Encounter.objects.count() == 1


@pytest.fixture
def in_round():
    """Kira and a trooper, order chosen, Kira has used both her declared actions."""
    encounter = started(CampaignFactory(), ready_to_choose())
    for command in (
        ChooseOrder("rebels"),
        DeclareActions("kira", 2),
        DeclareActions("tk1", 1),
        Act("kira", "draws"),
        Act("kira", "moves"),
    ):
        encounter, _ = take(encounter, command)
    return encounter


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (Attack("kira", "tk1", difficulty=10).to_json(), "Kira has no actions left this round"),
        (React("kira").to_json(), "no attack on Kira to react to"),
        ('{"type": "attack", "attacker": "tk1"', "the step is not valid JSON"),
        ("[" * 5000 + "]" * 5000, "not valid JSON|unknown encounter step"),
        (b"\xff\xfe", "not UTF-8"),
        ("x" * 100_001, "longer than 100000 characters"),
        ({"type": "fireball"}, "unknown encounter step 'fireball'"),
        ({"type": "attack", "attacker": "kira"}, "attack step"),
        ({"type": "declare_actions", "combatant": "tk1", "actions": 0, "haste": 0}, "1 or more"),
    ],
)
def test_a_refused_step_says_why_and_changes_nothing(in_round, payload, message):
    before = snapshot(in_round.pk)
    with pytest.raises(EncounterError, match=message):
        apply_step(
            in_round.pk,
            payload,
            expected_version=in_round.version,
            actor=None,
            rng=SeededDice(1),
        )
    assert snapshot(in_round.pk) == before


def test_a_step_on_a_stale_version_is_refused_with_the_new_state(in_round):
    """Kira's last action came after the version this page saw: another step for her (a
    double click of "Other action") is refused, and so is undo from the stale page."""
    before = snapshot(in_round.pk)
    seen = in_round.version - 1
    with pytest.raises(StaleEncounter, match="someone else moved the encounter on") as caught:
        apply_step(
            in_round.pk,
            Act("kira").to_json(),
            expected_version=seen,
            actor=None,
            rng=FixedDice([]),
        )
    assert isinstance(caught.value, RulesError)
    assert caught.value.encounter.version == in_round.version
    assert caught.value.encounter.state == in_round.state
    assert snapshot(in_round.pk) == before
    with pytest.raises(StaleEncounter):
        undo_last_step(in_round.pk, expected_version=seen, actor=None)
    assert snapshot(in_round.pk) == before


def test_a_step_on_an_ended_encounter_is_refused_and_changes_nothing():
    encounter = started(CampaignFactory(), ready_to_choose())
    encounter, events = end_encounter(encounter.pk, expected_version=0, actor=None)
    assert encounter.status == Encounter.Status.ENDED
    assert [e.kind for e in events] == ["end_encounter"]
    assert encounter.steps.get().command == {"type": "end_encounter"}
    before = snapshot(encounter.pk)
    with pytest.raises(EncounterError, match="the encounter has ended"):
        take(encounter, ChooseOrder("rebels"))
    with pytest.raises(EncounterError, match="can no longer be undone"):
        undo_last_step(encounter.pk, expected_version=encounter.version, actor=None)
    with pytest.raises(EncounterError, match="the encounter has ended"):
        end_encounter(encounter.pk, expected_version=encounter.version, actor=None)
    assert snapshot(encounter.pk) == before


def test_a_missing_encounter_or_version_is_refused():
    with pytest.raises(EncounterError, match="no encounter 999"):
        apply_step(999, {"type": "end_round"}, expected_version=0, actor=None, rng=FixedDice([]))
    encounter = started(CampaignFactory())
    with pytest.raises(EncounterError, match="which version"):
        undo_last_step(encounter.pk, expected_version="0", actor=None)


def test_undo_gives_exactly_the_state_before_the_last_step():
    encounter = started(CampaignFactory())
    rng = SeededDice(5)
    for command in (AddCombatant(KIRA), AddCombatant(TK1), RollInitiative()):
        encounter, _ = take(encounter, command, rng)
    winner = encounter.current_state().initiative_winner
    states = [encounter.state]
    for command in fight_commands(winner):
        encounter, _ = take(encounter, command, rng)
        states.append(encounter.state)
    assert encounter.current_state().pending is None  # the attack was resolved

    version = encounter.version
    undone = undo_last_step(encounter.pk, expected_version=version, actor=None)
    assert undone.version == version + 1
    assert undone.state == states[-2]  # the attack announced, Kira's dodge standing
    assert undone.current_state().pending is not None
    stored = Encounter.objects.get(pk=encounter.pk)
    assert stored.state == states[-2]
    assert stored.steps.count() == 8
    assert stored.steps.last().command["type"] == "react"

    undone = undo_last_step(encounter.pk, expected_version=undone.version, actor=None)
    assert undone.state == states[-3]  # before the dodge roll
    # The fight goes on from there: the step is numbered after the last one kept.
    again, events = take(undone, React("kira", extra=True), FixedDice([6, 6, 6, 1]))
    assert again.steps.last().number == 8
    assert [e.kind for e in events] == ["reaction"]
    dodge = again.current_state().combatant("kira").reaction("dodge")
    assert dodge.total == events[0].number("total")


def test_undo_back_to_the_start_and_no_further():
    encounter = started(CampaignFactory(), ready_to_choose())
    encounter, _ = take(encounter, ChooseOrder("rebels"))
    encounter = undo_last_step(encounter.pk, expected_version=encounter.version, actor=None)
    assert encounter.state == encounter.initial_state == ready_to_choose().to_json()
    before = snapshot(encounter.pk)
    with pytest.raises(EncounterError, match="no step to undo"):
        undo_last_step(encounter.pk, expected_version=encounter.version, actor=None)
    assert snapshot(encounter.pk) == before


def test_a_fight_keeps_the_rules_it_began_with_when_the_campaign_changes_them():
    campaign = CampaignFactory()
    encounter = started(campaign)
    rng = SeededDice(5)
    for command in (AddCombatant(KIRA), AddCombatant(TK1), RollInitiative()):
        encounter, _ = take(encounter, command, rng)
    winner = encounter.current_state().initiative_winner
    states = [encounter.state]
    for command in fight_commands(winner):
        encounter, _ = take(encounter, command, rng)
        states.append(encounter.state)
    # Mid-fight, the GM switches the campaign to the Rules Companion.
    campaign.set_ruleset(RuleSet.preset("rc"))
    campaign.save()
    encounter.refresh_from_db()
    assert encounter.ruleset == RuleSet()  # the fight's own rules
    undone = undo_last_step(encounter.pk, expected_version=encounter.version, actor=None)
    assert undone.state == states[-2]


def test_a_step_for_someone_nothing_since_has_touched_goes_through(in_round):
    """The page saw the version before Kira's last action; the trooper's action does not
    depend on hers, so it is taken on the current state (two players declaring at the same
    moment both go through). A step for the whole fight (end the round) is still refused."""
    seen = in_round.version - 1
    encounter, events = apply_step(
        in_round.pk, Act("tk1").to_json(), expected_version=seen, actor=None, rng=FixedDice([])
    )
    assert encounter.version == in_round.version + 1
    assert [e.kind for e in events] == ["act"]
    with pytest.raises(StaleEncounter):
        apply_step(
            in_round.pk,
            EndRound().to_json(),
            expected_version=encounter.version - 1,
            actor=None,
            rng=FixedDice([]),
        )
