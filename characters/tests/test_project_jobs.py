"""Improvement projects as downtime jobs (characters.projects, issue 19): the worked examples of
droids-and-equipment.md §10 that take days and rolls replayed through the time-advance job
with scripted dice, each test named after its vector; holding and giving back the cost through
the ledger; pause, resume, abandon; bad input refused with nothing changed."""

from functools import partial

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import downtime
from characters.craft_models import Craft
from characters.craft_services import create_craft
from characters.downtime import start_advance
from characters.models import Character, Item, LedgerEntry
from characters.project_models import Project
from characters.projects import (
    ProjectError,
    change_project,
    next_roll_day,
    projects_due,
    start_project,
)
from characters.projects_quote import quote_craft, quote_item
from characters.tests.factories import CharacterFactory, ItemFactory
from characters.tests.test_downtime import celery_app
from rules import DieCode, FixedDice
from rules.craft import CraftStats
from rules.scale import Scale

pytestmark = pytest.mark.django_db

# The worker rolls 4D: four dice (the Wild Die among them). WIN beats any difficulty up to
# Very Difficult rolled on ones; LOSE fails against any difficulty rolled on sixes.
WIN = [5, 5, 5, 5]
LOSE = [2, 2, 2, 2]


def dice(worker: list[int], difficulty_dice: int, face: int) -> list[int]:
    return [*worker, *[face] * difficulty_dice]


class Script:
    """``rng_for``: the faces for each day's work; a roll on another day fails the test."""

    def __init__(self, days: dict[int, list[int]]):
        self.days = days
        self.asked: list[int] = []

    def __call__(self, seed: int, key: str):
        day = int(key)
        self.asked.append(day)
        return FixedDice(self.days.get(day, []))


@pytest.fixture(autouse=True)
def eager():
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def scripted(monkeypatch, days: dict[int, list[int]]) -> Script:
    script = Script(days)
    monkeypatch.setattr(downtime, "HANDLERS", (partial(projects_due, rng_for=script),))
    return script


def advance(campaign: Campaign, days: int):
    campaign.refresh_from_db()
    return start_advance(campaign, days, actor=campaign.created_by)


RC = {"equipment_improvement": "rc_skill_points"}


@pytest.fixture
def table():
    """An RC campaign at day 10; a player whose Erisson carries a blaster now at 5D."""
    campaign = CampaignFactory(rule_options=RC, game_day=10)
    player = MembershipFactory(campaign=campaign).user
    hero = CharacterFactory(
        campaign=campaign, owner=player, name="Erisson", character_points=20, credits=500
    )
    blaster = ItemFactory(character=hero, kind=Item.Kind.WEAPON, name="blaster", damage="5D")
    return campaign, player, hero, blaster


def start_item(campaign, player, item, stat="damage", **quote_args) -> Project:
    quote = quote_item(item, stat, ruleset=campaign.ruleset, **quote_args)
    return start_project(
        campaign.pk,
        actor=player,
        worker_id=item.character_id,
        quote=quote,
        stat=stat,
        skill=DieCode(4),
        item_id=item.pk,
    )


def balances(character: Character) -> tuple[int, int]:
    character.refresh_from_db()
    return character.character_points, character.credits


def code(item: Item, field: str = "damage") -> str:
    item.refresh_from_db()
    return str(getattr(item, field))


# --- [RC] skill points, a roll per pip (E1-E4, E9, E10) ----------------------------------------
def test_e1_erissons_blaster_5d_to_5d1_is_a_difficult_roll_on_the_next_day(monkeypatch, table):
    campaign, player, hero, blaster = table
    project = start_item(campaign, player, blaster, original="4D", target="5D+1")
    assert balances(hero) == (15, 450)  # 5 skill points as CP, 50 credits, held at once
    assert next_roll_day(project) == 11
    script = scripted(monkeypatch, {11: dice(WIN, 5, 1)})  # Difficult: 5D of difficulty
    advance(campaign, 1)
    assert script.asked == [11]
    assert code(blaster) == "5D+1"
    project.refresh_from_db()
    assert project.status == Project.Status.DONE
    assert project.rolls == [
        {
            "day": 11,
            "step": 4,  # the 4th pip above the original 4D
            "total": 20,
            "number": 5,
            "success": True,
            "faces": [5] * 4 + [1] * 5,
        }
    ]
    assert balances(hero) == (15, 450)


def test_e1_a_failed_roll_wastes_the_points_and_the_next_attempt_pays_again(monkeypatch, table):
    campaign, player, hero, blaster = table
    project = start_item(campaign, player, blaster, original="4D", target="5D+1")
    scripted(monkeypatch, {11: dice(LOSE, 5, 6), 12: dice(WIN, 5, 1)})
    advance(campaign, 1)
    assert code(blaster) == "5D"  # works as before
    assert balances(hero) == (15, 450)
    advance(campaign, 1)
    assert code(blaster) == "5D+1"
    assert balances(hero) == (10, 400)  # the second attempt cost 5 more and 50 credits
    project.refresh_from_db()
    assert [r["success"] for r in project.rolls] == [False, True]
    advance_row = campaign.time_advances.order_by("pk").first()
    line = advance_row.report[0]
    assert line["kind"] == "project" and line["outcome"] == "not_improved"
    assert "dice 2, 2, 2, 2, 6, 6, 6, 6, 6" in line["words"]


def test_e2_blaster_4d_to_4d1_takes_4_cp_40_credits_and_a_very_easy_roll(monkeypatch, table):
    campaign, player, hero, blaster = table
    blaster.damage = DieCode(4)
    blaster.save()
    start_item(campaign, player, blaster, target="4D+1")
    assert balances(hero) == (16, 460)
    scripted(monkeypatch, {11: dice(WIN, 1, 1)})  # Very Easy: 1D
    advance(campaign, 1)
    assert code(blaster) == "4D+1"


def test_e3_e4_armour_1d_to_1d2_is_two_days_a_very_easy_then_an_easy_roll(monkeypatch, table):
    campaign, player, hero, _ = table
    armour = ItemFactory(character=hero, kind=Item.Kind.ARMOUR, name="armour", armour_physical="1D")
    start_item(campaign, player, armour, stat="armour_physical", target="1D+2")
    assert balances(hero) == (12, 420)  # [1+3] + [1+3] skill points, additive
    scripted(monkeypatch, {11: dice(WIN, 1, 1), 12: dice(WIN, 2, 1)})
    advance(campaign, 1)
    assert code(armour, "armour_physical") == "1D+1"
    advance(campaign, 1)
    assert code(armour, "armour_physical") == "1D+2"


def test_e4_the_dexterity_enhancement_is_not_started_as_a_project(table):
    campaign, player, hero, _ = table
    armour = ItemFactory(character=hero, kind=Item.Kind.ARMOUR, name="armour", armour_physical="1D")
    with pytest.raises(ProjectError, match="Dexterity enhancement"):
        start_item(
            campaign, player, armour, stat="armour_physical", target="1D+2", erase_dexterity=True
        )
    assert balances(hero) == (20, 500)
    assert not Project.objects.exists()


def test_e9_3d_improved_three_times_is_3d1_3d2_then_4d_one_day_each(monkeypatch, table):
    campaign, player, hero, blaster = table
    blaster.damage = DieCode(3)
    blaster.save()
    hero.character_points = 9
    hero.save()
    start_item(campaign, player, blaster, target="4D")
    assert balances(hero) == (0, 410)  # 3 + 3 + 3
    scripted(monkeypatch, {11: dice(WIN, 1, 1), 12: dice(WIN, 2, 1), 13: dice(WIN, 3, 1)})
    seen = []
    for _ in range(3):
        advance(campaign, 1)
        seen.append(code(blaster))
    assert seen == ["3D+1", "3D+2", "4D"]


def test_e10_a_stand_alone_0d_code_improves_for_1_cp(monkeypatch, table):
    campaign, player, hero, blaster = table
    blaster.damage = DieCode()
    blaster.save()
    start_item(campaign, player, blaster, target="0D+1")
    assert balances(hero) == (19, 490)
    scripted(monkeypatch, {11: dice(WIN, 1, 1)})
    advance(campaign, 1)
    assert code(blaster) == "0D+1"


def block(craft) -> CraftStats:
    """The craft's stat block as stored now."""
    return Craft.objects.get(pk=craft.pk).stat_block


def ship(campaign, owner, **stats) -> object:
    block = CraftStats(name="Stellar Envoy", kind="starship", scale=Scale.STARFIGHTER, **stats)
    return create_craft(campaign, block, owner_character=owner)


def start_craft(campaign, player, craft, worker, stat, **quote_args) -> Project:
    quote = quote_craft(craft, stat, ruleset=campaign.ruleset, **quote_args)
    return start_project(
        campaign.pk,
        actor=player,
        worker_id=worker.pk,
        quote=quote,
        stat=stat,
        skill=DieCode(4),
        craft_id=craft.pk,
    )


def test_e5_e6_a_starfighter_hyperdrive_x2_to_x1_takes_a_week_and_20_cp(monkeypatch, table):
    campaign, player, hero, _ = table
    hero.credits = 10_000
    hero.save()
    envoy = ship(campaign, hero, hyperdrive=2.0)
    project = start_craft(campaign, player, envoy, hero, "hyperdrive", target="x1")
    assert balances(hero) == (0, 0)  # 20 skill points, 20 × 500 credits
    assert next_roll_day(project) == 17
    scripted(monkeypatch, {17: dice(WIN, 3, 1)})  # x2 → x1 is the 3rd level: Moderate
    advance(campaign, 7)
    assert block(envoy).hyperdrive == 1.0


# --- [UPG] percentages, a roll a month (E19-E22, E36) ------------------------------------------
@pytest.fixture
def upg():
    campaign = CampaignFactory(game_day=0)
    player = MembershipFactory(campaign=campaign).user
    pilot = CharacterFactory(campaign=campaign, owner=player, name="Dash", credits=20_000)
    return campaign, player, pilot


def test_e19_maneuverability_1d_to_1d2_is_two_monthly_rolls_for_15000(monkeypatch, upg):
    campaign, player, pilot = upg
    envoy = ship(campaign, pilot, maneuverability=DieCode(1))
    start_craft(
        campaign, player, envoy, pilot, "maneuverability", target="1D+2", item_value=100_000
    )
    assert balances(pilot) == (pilot.character_points, 5_000)
    script = scripted(monkeypatch, {35: dice(WIN, 2, 1), 70: dice(WIN, 3, 1)})
    advance(campaign, 34)
    assert str(block(envoy).maneuverability) == "1D"
    advance(campaign, 36)
    assert str(block(envoy).maneuverability) == "1D+2"
    assert [d for d in script.asked if d in (35, 70)] == [35, 70]
    assert balances(pilot)[1] == 5_000


def test_e36_read_cumulatively_the_same_work_costs_10000(monkeypatch, upg):
    campaign, player, pilot = upg
    campaign.rule_options = {"upg_improve_cost": "cumulative_total"}
    campaign.save()
    envoy = ship(campaign, pilot, maneuverability=DieCode(1))
    start_craft(
        campaign, player, envoy, pilot, "maneuverability", target="1D+2", item_value=100_000
    )
    assert balances(pilot)[1] == 10_000


def test_e19_abandoned_after_the_first_step_gives_back_the_second_steps_credits(monkeypatch, upg):
    campaign, player, pilot = upg
    envoy = ship(campaign, pilot, maneuverability=DieCode(1))
    project = start_craft(
        campaign, player, envoy, pilot, "maneuverability", target="1D+2", item_value=100_000
    )
    scripted(monkeypatch, {35: dice(WIN, 2, 1)})
    advance(campaign, 40)
    change_project(campaign.pk, project.pk, actor=player, action="abandon")
    assert balances(pilot)[1] == 15_000  # 5,000 spent on step 1 stays spent
    assert str(block(envoy).maneuverability) == "1D+1"
    project.refresh_from_db()
    assert project.status == Project.Status.ABANDONED


def test_e20_a_pip_past_the_cap_is_refused_and_nothing_changes(client, upg):
    campaign, player, pilot = upg
    envoy = ship(campaign, pilot, maneuverability=DieCode.parse("2D+2"))
    client.force_login(player)
    url = reverse("characters:craft_quote", args=[campaign.pk, envoy.pk])
    data = {"stat": "maneuverability", "original": "1D", "add": "0D+1", "item_value": "100000"}
    page = client.post(url, {**data, "worker": pilot.pk, "skill": "4D"})
    assert page.status_code == 400
    assert "+1D+2 above stock" in page.content.decode()
    assert not Project.objects.exists()
    assert balances(pilot)[1] == 20_000


def test_e21_a_failed_hyperdrive_modification_waits_for_the_gm(monkeypatch, upg):
    campaign, player, pilot = upg
    envoy = ship(campaign, pilot, hyperdrive=2.0)
    project = start_craft(
        campaign, player, envoy, pilot, "hyperdrive", target="x1", item_value=10_000
    )
    scripted(monkeypatch, {35: dice(LOSE, 7, 6)})  # Very Difficult: 7D
    advance(campaign, 40)
    project.refresh_from_db()
    assert project.status == Project.Status.FAILED
    assert next_roll_day(project) is None
    with pytest.raises(ProjectError, match="GM decides"):
        change_project(campaign.pk, project.pk, actor=player, action="resume")
    change_project(campaign.pk, project.pk, actor=campaign.created_by, action="resume")
    project.refresh_from_db()
    assert project.status == Project.Status.RUNNING


def test_e22_move_50_to_55_is_a_moderate_monthly_roll(monkeypatch, upg):
    campaign, player, pilot = upg
    stats = CraftStats(name="Speeder", kind="vehicle", scale=Scale.SPEEDER, move=50)
    speeder = create_craft(campaign, stats, owner_character=pilot)
    start_craft(campaign, player, speeder, pilot, "move", target=55, item_value=10_000)
    scripted(monkeypatch, {35: dice(WIN, 3, 1)})
    advance(campaign, 35)
    assert block(speeder).move == 55


# --- The job: idempotent, catch-up equals daily runs, pause ------------------------------------
def test_the_same_day_run_twice_rolls_once(monkeypatch, table):
    campaign, player, hero, blaster = table
    start_item(campaign, player, blaster, original="4D", target="5D+1")
    script = Script({11: dice(LOSE, 5, 6)})
    assert projects_due(campaign.pk, 11, seed=1, rng_for=script)
    assert projects_due(campaign.pk, 11, seed=1, rng_for=script) == []
    assert script.asked == [11]
    assert balances(hero) == (15, 450)


def test_a_catch_up_advance_rolls_what_daily_advances_roll():
    made = []
    for _ in range(2):
        campaign = CampaignFactory(rule_options=RC, game_day=10)
        player = MembershipFactory(campaign=campaign).user
        hero = CharacterFactory(campaign=campaign, owner=player, character_points=99, credits=999)
        gun = ItemFactory(character=hero, kind=Item.Kind.WEAPON, name="gun", damage="3D")
        made.append((campaign, gun, start_item(campaign, player, gun, target="4D")))
    (once, gun_once, one), (daily, gun_daily, two) = made
    Project.objects.filter(pk=two.pk).update(seed=one.seed)
    projects_due(once.pk, 16, seed=1)
    for day in range(11, 17):
        projects_due(daily.pk, day, seed=day)
    one.refresh_from_db()
    two.refresh_from_db()
    assert len(one.rolls) >= 3
    assert one.rolls == two.rolls
    assert code(gun_once) == code(gun_daily)


def test_paused_days_do_not_count_and_resume_goes_on(monkeypatch, table):
    campaign, player, _, blaster = table
    project = start_item(campaign, player, blaster, original="4D", target="5D+1")
    change_project(campaign.pk, project.pk, actor=player, action="pause")
    script = scripted(monkeypatch, {13: dice(WIN, 5, 1)})
    advance(campaign, 2)
    assert script.asked == []
    change_project(campaign.pk, project.pk, actor=player, action="resume")
    project.refresh_from_db()
    assert next_roll_day(project) == 13
    advance(campaign, 1)
    assert code(blaster) == "5D+1"


def test_no_cp_for_another_attempt_pauses_the_project(monkeypatch, table):
    campaign, player, hero, blaster = table
    hero.character_points = 5
    hero.save()
    project = start_item(campaign, player, blaster, original="4D", target="5D+1")
    scripted(monkeypatch, {11: dice(LOSE, 5, 6), 12: dice(WIN, 5, 1)})
    advance(campaign, 2)
    project.refresh_from_db()
    assert project.status == Project.Status.PAUSED
    assert "not enough" in project.note
    assert balances(hero) == (0, 450)


# --- Bad input: nothing changes ----------------------------------------------------------------
def test_not_enough_cp_is_refused_and_nothing_is_taken(table):
    campaign, player, hero, blaster = table
    hero.character_points = 4
    hero.save()
    with pytest.raises(ProjectError, match="not enough Character Points"):
        start_item(campaign, player, blaster, original="4D", target="5D+1")
    assert balances(hero) == (4, 500)
    assert not Project.objects.exists() and not LedgerEntry.objects.exists()


def test_not_enough_credits_is_refused_and_no_cp_is_taken(table):
    campaign, player, hero, blaster = table
    hero.credits = 49
    hero.save()
    with pytest.raises(ProjectError, match="not enough credits"):
        start_item(campaign, player, blaster, original="4D", target="5D+1")
    assert balances(hero) == (20, 49)
    assert not LedgerEntry.objects.exists()


def test_a_second_project_on_the_same_code_is_refused(table):
    campaign, player, _, blaster = table
    start_item(campaign, player, blaster, original="4D", target="5D+1")
    with pytest.raises(ProjectError, match="already under way"):
        start_item(campaign, player, blaster, original="4D", target="5D+1")
    assert Project.objects.count() == 1


def item_post(campaign, character, item, **extra):
    url = reverse("characters:item_quote", args=[campaign.pk, character.pk])
    data = {"item": item.pk, "stat": "damage", "target": "5D+1", "original": "4D", "skill": "4D"}
    return url, {**data, **extra}


def test_starting_from_the_quote_page_holds_the_cost_and_lists_the_project(client, table):
    campaign, player, hero, blaster = table
    client.force_login(player)
    url, data = item_post(campaign, hero, blaster)
    page = client.post(url, data, follow=True)
    assert page.status_code == 200
    text = page.content.decode()
    assert "next roll on day 11" in text
    assert balances(hero) == (15, 450)


def test_a_project_on_someone_elses_gear_is_refused_and_nothing_changes(client, table):
    campaign, _, hero, blaster = table
    other = MembershipFactory(campaign=campaign).user
    client.force_login(other)
    url, data = item_post(campaign, hero, blaster)
    assert client.post(url, data).status_code in (403, 404)
    assert not Project.objects.exists()
    assert balances(hero) == (20, 500)


def test_a_player_cannot_abandon_another_players_project(client, table):
    campaign, player, hero, blaster = table
    project = start_item(campaign, player, blaster, original="4D", target="5D+1")
    other = MembershipFactory(campaign=campaign).user
    client.force_login(other)
    url = reverse("characters:project_change", args=[campaign.pk, project.pk])
    page = client.post(url, {"action": "abandon"})
    assert page.status_code == 400
    assert "Only the worker&#x27;s player or the GM" in page.content.decode()
    project.refresh_from_db()
    assert project.status == Project.Status.RUNNING
    assert balances(hero) == (15, 450)


@pytest.mark.parametrize("field", ["skill", "target", "stat"])
def test_nul_bytes_are_refused_and_nothing_changes(client, table, field):
    campaign, player, hero, blaster = table
    client.force_login(player)
    url, data = item_post(campaign, hero, blaster)
    data[field] = "4D\x00"
    page = client.post(url, data)
    assert page.status_code == 400
    assert not Project.objects.exists()
    assert balances(hero) == (20, 500)


def test_a_bad_worker_roll_is_refused(client, table):
    campaign, player, hero, blaster = table
    client.force_login(player)
    url, data = item_post(campaign, hero, blaster, skill="lots")
    page = client.post(url, data)
    assert page.status_code == 400
    assert "A die code like 4D+1" in page.content.decode()
    assert not Project.objects.exists()


def test_a_player_starts_a_party_craft_project_from_the_craft_page(client, upg):
    campaign, player, pilot = upg
    stats = CraftStats(
        name="Freighter", kind="starship", scale=Scale.STARFIGHTER, maneuverability=DieCode(1)
    )
    freighter = create_craft(campaign, stats, party=True)
    client.force_login(player)
    url = reverse("characters:craft_quote", args=[campaign.pk, freighter.pk])
    data = {"stat": "maneuverability", "add": "0D+1", "item_value": "100000", "skill": "4D+1"}
    page = client.post(url, {**data, "worker": pilot.pk}, follow=True)
    assert page.status_code == 200
    assert "next roll on day 35" in page.content.decode()
    assert balances(pilot)[1] == 15_000


def test_a_player_cannot_put_another_players_character_to_work(client, upg):
    campaign, player, _ = upg
    other = CharacterFactory(campaign=campaign, name="Someone else's", credits=99_999)
    stats = CraftStats(
        name="Freighter", kind="starship", scale=Scale.STARFIGHTER, maneuverability=DieCode(1)
    )
    freighter = create_craft(campaign, stats, party=True)
    client.force_login(player)
    url = reverse("characters:craft_quote", args=[campaign.pk, freighter.pk])
    data = {"stat": "maneuverability", "add": "0D+1", "item_value": "100000", "skill": "4D"}
    page = client.post(url, {**data, "worker": other.pk})
    assert page.status_code == 400
    assert not Project.objects.exists()
    assert balances(other)[1] == 99_999
