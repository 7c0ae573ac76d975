"""Worked examples E17, E18 and E29-E35 of droids-and-equipment.md §10 (availability fees,
rushed repairs, combined actions, combined fire, the Rules Companion's combining limit,
[HOUSE] severe wounds on gear). E17 and E18 show on the campaign library's page.

Combined fire (E30-E33) runs through ``encounters.services.apply_step``, the service the
encounter page's steps call, so the bonus, its split and the pools are the ones a table sees.
E29, E34 and E35 have no page yet (repairs as downtime jobs, combined repair work and gear
checks after a severe wound come with issue 19's projects): they run through the engine's
project and equipment functions, which those pages will call."""

import html

import pytest
from django.urls import reverse

from campaigns.library import save_entry
from campaigns.tests.factories import CampaignFactory
from encounters.services import apply_step, start_encounter
from rules import DieCode
from rules.combat import max_combining, rc_combined_code
from rules.dice import FixedDice
from rules.difficulty import MODERATE
from rules.encounter import (
    AddCombatants,
    Attack,
    DeclareActions,
    EncounterState,
    NextSegment,
    ResolveAttack,
)
from rules.encounter import replay as replay_steps
from rules.equipment import (
    EquipmentError,
    ProjectRequest,
    gear_must_roll,
    gear_survives,
    validate_project,
    work_pace,
)
from rules.ruleset import RuleSet
from rules.tests.encounter_fixtures import KIRA, ready, trooper

pytestmark = pytest.mark.django_db
D = DieCode.parse
UPG = RuleSet()
RC = RuleSet.preset("rc")
HOUSE = RuleSet.preset("house")


# --- E29 rushing a repair (engine: no repair page rolls a rushed repair yet) ------------------
def test_e29_danik_rushing_a_one_hour_moderate_repair_takes_half_an_hour_at_3d():
    assert work_pace(60, "6D", "rushed", ruleset=UPG) == (30, DieCode(3))


def test_e29_a_rushed_hyperdrive_repair_project_rolls_after_half_an_hour():
    request = ProjectRequest(
        kind="repair", stat="hyperdrive", damage="damaged", skill=DieCode(6), pace="rushed"
    )
    state = validate_project(request, ruleset=UPG)
    assert state.steps[0].difficulty == MODERATE
    assert state.steps[0].minutes == 30  # the hyperdrive's hour, halved


# --- E30-E33 combined fire through the encounter's step service -------------------------------
def _danik(campaign, command_difficulty: int, to_attack: str | None = None):
    """Danik (command 8D+2) supervises eight troopers; the lead has blaster 6D and a 5D rifle."""
    danik = trooper("danik", skills=(("command", D("8D+2")),), weapon=None)
    lead = trooper("tk1", skills=(("blaster", D("6D")),))
    others = tuple(trooper(f"tk{i}") for i in range(2, 9))
    state = ready((KIRA, 1), (danik, 1), (lead, 1), *((t, 1) for t in others))
    encounter = start_encounter(campaign, "Docking bay", campaign.created_by, state=state)
    attack = Attack(
        "tk1",
        "kira",
        difficulty=10,
        supporters=tuple(f"tk{i}" for i in range(2, 9)),
        commander="danik",
        command_difficulty=command_difficulty,
        to_attack=to_attack,
    )
    # Danik's command roll: seven 3s and a Wild Die 4, +2 = 27.
    return apply_step(
        encounter.pk,
        attack.to_json(),
        expected_version=0,
        actor=campaign.created_by,
        rng=FixedDice([3] * 7 + [4]),
    )


def test_e30_danik_rolling_27_against_12_commanding_eight_gives_plus_2d2():
    _, (command, announced) = _danik(CampaignFactory(), command_difficulty=12)
    assert (command.number("total"), command.number("combining")) == (27, 8)
    assert announced.number("combined_bonus") == "2D+2"
    # The bonus on the best trooper's repulsorlift repair 4D+1: 6D+3 (7D normalized).
    assert D("4D+1").pool_add(D(announced.number("combined_bonus"))) == DieCode(6, 3)
    assert DieCode(6, 3).normalized() == DieCode(7)


@pytest.mark.parametrize(
    ("missed_by", "bonus"),
    [(1, "1D+2"), (2, "0D+2"), (3, "0D")],
    ids=["E31-11", "E31-10", "E31-9"],
)
def test_e31_a_command_roll_missed_by_1_2_3_gives_1d2_2_and_nothing(missed_by, bonus):
    # The source's rolls 11, 10, 9 against 12; here 27 against 28, 29, 30: the same misses.
    _, (command, announced) = _danik(CampaignFactory(), command_difficulty=27 + missed_by)
    assert command.number("margin") == -missed_by
    assert announced.number("combined_bonus") == bonus


def test_e32_1d_of_2d2_on_a_6d_blaster_and_the_rest_on_5d_damage_gives_7d_and_6d2():
    campaign = CampaignFactory()
    encounter, (_, announced) = _danik(campaign, command_difficulty=12, to_attack="1D")
    assert (announced.number("attack_bonus"), announced.number("damage_bonus")) == ("1D", "1D+2")
    resolve = ResolveAttack().to_json()
    _, (shot, damage) = apply_step(
        encounter.pk,
        resolve,
        expected_version=1,
        actor=campaign.created_by,
        rng=FixedDice([4] * 7 + [1] * 6 + [2, 2]),
    )
    assert shot.roll("attack").pool == DieCode(7)
    assert damage.number("damage_code") == "6D+2"


def _rc_stormtroopers(campaign, actions: int):
    shooters = tuple(trooper(f"st{i}", skills=(("blaster", D("3D")),)) for i in (1, 2, 3))
    people = ((KIRA, 1), *((s, actions) for s in shooters))
    state = EncounterState.new(rc_round=True)
    steps = [
        AddCombatants(tuple(c for c, _ in people)),
        *(DeclareActions(c.id, n) for c, n in people),
        NextSegment(),
        NextSegment(),
    ]
    state, _ = replay_steps(state, steps, ruleset=RC, rng=FixedDice([]))
    return start_encounter(campaign, "Corridor", campaign.created_by, state=state)


@pytest.mark.parametrize(
    ("actions", "pool"), [(1, DieCode(3, 6)), (2, DieCode(2, 4))], ids=["E33-one", "E33-two"]
)
def test_e33_three_3d_stormtroopers_combine_one_shot_at_3d6_or_two_at_2d4(actions, pool):
    campaign = CampaignFactory()
    campaign.set_ruleset(RC)
    campaign.save()
    encounter = _rc_stormtroopers(campaign, actions)
    attack = Attack("st1", "kira", difficulty=10, supporters=("st2", "st3"))
    version = 0
    pools = []
    for _ in range(actions):
        apply_step(
            encounter.pk,
            attack.to_json(),
            expected_version=version,
            actor=campaign.created_by,
            rng=FixedDice([]),
        )
        _, (shot, *_) = apply_step(
            encounter.pk,
            ResolveAttack().to_json(),
            expected_version=version + 1,
            actor=campaign.created_by,
            rng=FixedDice([1] * 3),
        )
        version += 2
        pools.append(shot.roll("attack").pool)
    assert pools == [pool] * actions


# --- E34 the Rules Companion's limit on combining (engine: repair work has no page yet) -------
def test_e34_under_time_pressure_only_three_3d_technicians_combine_for_3d6():
    limit = max_combining("3D", ruleset=RC)
    assert limit == 3
    assert rc_combined_code("3D", ["3D", "3D"], limit=limit) == DieCode(3, 6)


def test_e34_the_fourth_only_coordinates_working_too_would_drop_him_to_2d():
    assert max_combining("3D", actions=2, ruleset=RC) == 2
    # Over the limit the bonus is lost and 3 pips come off per extra character.
    assert rc_combined_code("3D", ["3D", "3D", "3D"], limit=3) == DieCode(3, -3)


# --- E35 [HOUSE] a -3D wound makes carried gear roll Body (engine: no aftermath page yet) -----
def test_e35_a_minus_3d_area_wound_makes_every_item_roll_body_in_a_house_campaign():
    assert gear_must_roll(3, area_effect=True, ruleset=HOUSE)
    assert not gear_must_roll(2, area_effect=True, ruleset=HOUSE)
    assert not gear_must_roll(3, area_effect=True, ruleset=UPG)  # the option is off elsewhere


def test_e35_a_weapon_rolls_2d_plus_up_to_two_character_point_dice_against_the_damage():
    check = gear_survives(12, ruleset=HOUSE, rng=FixedDice([6, 5, 1, 1]), cp=2)
    assert check.roll.pool == DieCode(2)
    assert check.roll.total == 13 and check.survived
    with pytest.raises(EquipmentError, match="0 to 2 Character Points"):
        gear_survives(12, ruleset=HOUSE, rng=FixedDice([]), cp=3)


# --- E17, E18 availability, on the library page where the GM and players look items up -------
def _library_page(client, entries) -> str:
    campaign = CampaignFactory()
    for name, availability in entries:
        data = {"name": name, "cost": 1_000, "availability": availability}
        save_entry(campaign, "gear", data, actor=campaign.created_by)
    client.force_login(campaign.created_by)
    return html.unescape(client.get(reverse("campaigns:library", args=[campaign.pk])).text)


def test_e17_an_item_of_availability_p_at_1000_shows_a_50_credit_permit_fee_10_to_150(client):
    page = _library_page(client, [("Hold-out permit", "P")])
    assert "Permit fee" in page
    assert "about 50 cr (10–150)" in page


def test_e18_an_item_of_availability_r_at_1000_shows_a_licence_and_a_background_check(client):
    page = _library_page(client, [("Restricted rifle", "2, R")])
    assert "about 100 cr (50–1,000)" in page
    assert "Difficult (Moderate with a touch of infamy, Easy if famous)" in page
    assert "2,000–5,000 cr" in page  # [HOUSE] black market: 2 to 5 times the price


def test_an_availability_code_without_a_fee_rule_shows_no_fee(client):
    page = _library_page(client, [("Thermal detonator", "X")])
    assert "Permit fee" not in page and "Licence" not in page


def test_e35_through_the_encounter_a_blast_wound_of_3d_costs_a_blaster_that_fails_its_body():
    """E35 [HOUSE], through the fight's steps and its end: a grenade mortally wounds Kira (the
    House −3D wound in one hit); ending the encounter rolls her blaster's Body (2D) against the
    damage: 3 against 18, destroyed; her medpac (no Body on the sheet) does not roll."""
    from characters.models import DiceRoll, Item
    from characters.tests.factories import CharacterFactory
    from encounters.combatants import combatant_for_character
    from encounters.services import end_encounter
    from rules.combat import ActionCount
    from rules.encounter import Detonate, EncounterState, Throw

    campaign = CampaignFactory()
    campaign.set_ruleset(RuleSet.preset("house"))
    campaign.save()
    kira = CharacterFactory(campaign=campaign, name="Kira", strength=DieCode(2))
    Item.objects.create(
        character=kira, kind=Item.Kind.WEAPON, name="Blaster pistol", damage=DieCode(4)
    )
    Item.objects.create(character=kira, kind=Item.Kind.GEAR, name="Medpac")
    pc = combatant_for_character(kira, side="rebels", ruleset=campaign.ruleset)
    tk = trooper("tk1")
    state = EncounterState(
        combatants=(tk.replace(actions=ActionCount(1)), pc.replace(actions=ActionCount(1))),
        phase="round",
        side_order=("empire", "rebels"),
        order=(tk.id, pc.id),
        initiative_winner="empire",
    )
    encounter = start_encounter(campaign, "Grenade", campaign.created_by, state=state)
    gm = campaign.created_by
    apply_step(
        encounter.pk,
        Throw("tk1", "6D", "0-2", difficulty=5).to_json(),
        expected_version=0,
        actor=gm,
        rng=FixedDice([4, 4, 4]),
    )
    _, events = apply_step(
        encounter.pk,
        Detonate(((pc.id, 0),)).to_json(),
        expected_version=1,
        actor=gm,
        rng=FixedDice([3] * 6 + [1, 2]),
    )
    hurt = next(e for e in events if e.kind == "damage")
    assert (hurt.number("result"), hurt.number("damage_total")) == ("mortally_wounded", 18)
    end_encounter(encounter.pk, expected_version=2, actor=gm, rng=FixedDice([1, 2]))
    blaster = Item.objects.get(character=kira, name="Blaster pistol")
    assert blaster.quantity == 0 and "destroyed in Grenade" in blaster.notes
    assert Item.objects.get(character=kira, name="Medpac").quantity == 1
    rolled = DiceRoll.objects.get(character=kira)
    assert (rolled.code, rolled.total, rolled.difficulty) == ("2D", 3, 18)


def test_e35_outside_the_house_rules_a_blast_costs_no_gear():
    from characters.models import DiceRoll, Item
    from characters.tests.factories import CharacterFactory
    from encounters.combatants import combatant_for_character
    from encounters.services import end_encounter
    from rules.combat import ActionCount
    from rules.encounter import Detonate, EncounterState, Throw

    campaign = CampaignFactory()
    kira = CharacterFactory(campaign=campaign, name="Kira", strength=DieCode(2))
    Item.objects.create(
        character=kira, kind=Item.Kind.WEAPON, name="Blaster pistol", damage=DieCode(4)
    )
    pc = combatant_for_character(kira, side="rebels", ruleset=campaign.ruleset)
    tk = trooper("tk1")
    state = EncounterState(
        combatants=(tk.replace(actions=ActionCount(1)), pc.replace(actions=ActionCount(1))),
        phase="round",
        side_order=("empire", "rebels"),
        order=(tk.id, pc.id),
    )
    encounter = start_encounter(campaign, "Grenade", campaign.created_by, state=state)
    gm = campaign.created_by
    apply_step(
        encounter.pk,
        Throw("tk1", "6D", "0-2", difficulty=5).to_json(),
        expected_version=0,
        actor=gm,
        rng=FixedDice([4, 4, 4]),
    )
    apply_step(
        encounter.pk,
        Detonate(((pc.id, 0),)).to_json(),
        expected_version=1,
        actor=gm,
        rng=FixedDice([3] * 6 + [1, 2]),
    )
    end_encounter(encounter.pk, expected_version=2, actor=gm, rng=FixedDice([1, 2]))
    assert Item.objects.get(character=kira).quantity == 1
    assert not DiceRoll.objects.filter(character=kira).exists()
