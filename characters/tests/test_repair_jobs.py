"""Repairs of craft and droids as downtime jobs (characters.repair_jobs, issue 19;
droids-and-equipment.md §5): the vectors E23-E29 and E34 that make sense as jobs, run through
the time-advance handler with scripted dice (the difficulty, the cost and the work before each
roll as the job sees them); a catch-up advance equals daily ones; a day run twice does nothing;
a payer short of credits pauses the job; bad input refused with nothing changed; the pages."""

from functools import partial

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.tests.factories import MembershipFactory
from characters import downtime
from characters.craft_damage import clear_damage, request_repair, resolve_repair
from characters.craft_models import RepairRequest
from characters.craft_services import CraftRefused, create_craft, crew_station
from characters.downtime import start_advance
from characters.models import Character, DiceRoll, LedgerEntry
from characters.repair_jobs import (
    RepairJobError,
    cancel_job,
    repairs_due,
    resume_job,
    start_craft_repair,
    start_droid_repair,
)
from characters.repair_models import DroidRepair
from characters.tests.factories import CharacterFactory, SkillFactory
from characters.tests.test_craft_repairs import _damage, _gm, _member
from characters.tests.test_downtime import celery_app
from rules import RuleSet
from rules.craft import CraftStats, CraftWeapon
from rules.dice import DieCode, FixedDice
from rules.scale import Scale

pytestmark = pytest.mark.django_db

SHIP = CraftStats(
    name="Stellar Envoy",
    kind="starship",
    scale=Scale.STARFIGHTER,
    maneuverability=DieCode(4),
    space=4,
    hull=DieCode(4),
    shields=DieCode(4),
    hyperdrive=2.0,
    piloting_skill="space transports",
    weapons=(CraftWeapon("Laser cannon", fire_control=DieCode(2), damage=DieCode(4)),),
)
# Han rolls 5D (four dice and the Wild Die): WIN makes 25, LOSE 10.
WIN = [5] * 5
LOSE = [2] * 5
SEED = 20261124  # a job seed whose 1D repair against 20 takes several days


class Script:
    """``rng_for``: the faces of each day's work, by day; another day's roll fails the test."""

    def __init__(self, days):
        self.days = days
        self.asked = []

    def __call__(self, seed, key):
        kind, _, day = key.partition(":")
        self.asked.append((kind, int(day)))
        return FixedDice(self.days.get(int(day), []))


@pytest.fixture(autouse=True)
def eager():
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


@pytest.fixture
def crew(db):
    """A party freighter worth 100,000 credits; Han (a player's) at the engineer station with
    space transports repair 5D and 20,000 credits; the campaign on day 10."""
    han = CharacterFactory(name="Han", credits=20_000)
    SkillFactory(character=han, name="space transports repair", attribute="technical", code="5D")
    Campaign.objects.filter(pk=han.campaign_id).update(game_day=10)
    ship = create_craft(han.campaign, SHIP, party=True, value=100_000)
    crew_station(_gm(han.campaign), ship.stations.get(role="engineer"), han)
    return ship, han


def _rules(campaign, ruleset):
    campaign = Campaign.objects.get(pk=campaign.pk)
    campaign.set_ruleset(ruleset)
    campaign.save()


def _job(ship, han, key="maneuverability", pace="normal", **kwargs):
    repair = request_repair(
        _member(han), ship, key, payer=han, **{k: v for k, v in kwargs.items() if k == "hired"}
    )
    rest = {k: v for k, v in kwargs.items() if k != "hired"}
    return start_craft_repair(ship.campaign_id, repair.pk, actor=han.owner, pace=pace, **rest)


def _advance(campaign_id, days):
    campaign = Campaign.objects.get(pk=campaign_id)
    return start_advance(campaign, days, actor=campaign.created_by)


def _scripted(monkeypatch, days):
    script = Script(days)
    monkeypatch.setattr(downtime, "HANDLERS", (partial(repairs_due, rng_for=script),))
    return script


def _rolls(job):
    return [len(d["rolls"]) for d in job.rolls[1:]]


# --- E23-E29 through the job ------------------------------------------------------------------
def test_e23_minus_2d_maneuverability_as_a_job_moderate_15000_paid_on_success(monkeypatch, crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    job = _job(ship, han)
    assert (job.status, job.difficulty, job.cost, job.started_day) == (
        "working",
        "Moderate",
        15_000,
        10,
    )
    assert job.rolls[0]["job"] == {
        "code": "5D",
        "difficulty": 15,  # the top of Moderate
        "interval": 15,  # E28: the first roll after 15 minutes of work
        "pace": "normal",
        "rolls_made": 0,
        "done": False,
    }
    _scripted(monkeypatch, {11: [*LOSE, *LOSE, *WIN]})
    advance = _advance(ship.campaign_id, 1)
    job.refresh_from_db()
    ship.refresh_from_db()
    han.refresh_from_db()
    assert (job.status, job.finished_day, job.note) == ("done", 11, "Repaired on day 11 (3 rolls)")
    assert _rolls(job) == [3]
    assert [r["total"] for r in job.rolls[1]["rolls"]] == [10, 10, 25]
    assert job.rolls[1]["rolls"][2]["normal"] == [5, 5, 5, 5]
    assert ship.damage_state.maneuverability_lost == 0
    assert han.credits == 5_000
    entry = LedgerEntry.objects.get(character=han, currency="credits")
    assert entry.delta == -15_000 and entry.roll == job.roll
    assert job.roll.total == 25 and job.roll.difficulty == 15
    assert DiceRoll.objects.filter(dice__repair=job.pk).count() == 1  # only the success
    (line,) = advance.report
    assert line["kind"] == "repair" and line["character_id"] == han.pk
    assert line["outcome"] == "repaired" and line["roll"]["character"]["total"] == 25
    assert any("15,000 credits paid by Han" in w for w in line["words"])


@pytest.mark.parametrize(("hired", "cost"), [(2, 30_000), (3, 45_000)])
def test_e23_hired_work_costs_double_or_triple_through_the_job(monkeypatch, crew, hired, cost):
    ship, han = crew
    Character.objects.filter(pk=han.pk).update(credits=50_000)
    han.refresh_from_db()
    _damage(ship, maneuverability_lost=2)
    job = _job(ship, han, hired=hired)
    assert job.cost == cost
    _scripted(monkeypatch, {11: WIN})
    _advance(ship.campaign_id, 1)
    han.refresh_from_db()
    assert han.credits == 50_000 - cost


def test_e24_house_minus_4d_maneuverability_is_very_difficult_30_percent_as_a_job(crew):
    ship, han = crew
    _rules(ship.campaign, RuleSet(repair_tables="house"))
    Character.objects.filter(pk=han.pk).update(credits=50_000)
    han.refresh_from_db()
    _damage(ship, maneuverability_lost=4)
    job = _job(ship, han)
    assert (job.difficulty, job.cost, job.rolls[0]["job"]["difficulty"]) == (
        "Very Difficult",
        30_000,
        30,
    )


def test_e25_minus_4d_shields_very_difficult_10_percent_as_a_job(crew):
    ship, han = crew
    _damage(ship, shield_dice_lost=4)
    job = _job(ship, han, key="shields")
    assert (job.difficulty, job.cost) == ("Very Difficult", 10_000)


def test_e26_a_heavily_damaged_laser_cannon_worth_2000_as_a_job(monkeypatch, crew):
    ship, han = crew
    _damage(ship, weapon_damage=("arc_disabled",))
    repair = request_repair(_member(han), ship, "weapon:0", payer=han, weapon_value=2_000)
    job = start_craft_repair(ship.campaign_id, repair.pk, actor=han.owner)
    assert (job.difficulty, job.cost) == ("Moderate", 500)
    assert job.rolls[0]["skill"] == "Technical (no starship weapon repair skill)"
    _scripted(monkeypatch, {11: [2, 2, 2, 2, 2]})  # Technical 2D+2 = 3 dice: 2+2+2+2 = 8
    _advance(ship.campaign_id, 1)
    job.refresh_from_db()
    assert job.rolls[0]["job"]["code"] == "2D+2"


def test_e27_a_destroyed_drive_is_replaced_difficult_35_percent_as_a_job(crew):
    ship, han = crew
    Character.objects.filter(pk=han.pk).update(credits=50_000)
    han.refresh_from_db()
    _damage(ship, moves_lost=5)
    job = _job(ship, han, key="moves")
    assert (job.difficulty, job.cost) == ("Difficult", 35_000)


def test_e28_a_day_holds_32_rolls_at_15_minutes_and_8_for_a_hyperdrive(monkeypatch, crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=1, hyperdrive="damaged")
    maneuver = _job(ship, han)
    hyper = _job(ship, han, key="hyperdrive")
    assert (hyper.minutes, hyper.rolls[0]["job"]["interval"], hyper.cost) == (60, 60, 0)
    # Easy 10 is hit by a LOSE of 10: roll sixes... no: give ones so every roll fails.
    ones = [1, 1, 1, 1, 2]
    script = _scripted(monkeypatch, {11: ones * 40})
    _advance(ship.campaign_id, 1)
    maneuver.refresh_from_db()
    hyper.refresh_from_db()
    assert _rolls(maneuver) == [32] and maneuver.status == "working"
    assert _rolls(hyper) == [8] and hyper.status == "working"
    assert script.asked == [("craft", 11), ("craft", 11)]


def test_e29_a_rushed_hyperdrive_repair_rolls_every_half_hour_at_half_the_skill(monkeypatch, crew):
    ship, han = crew
    han.skills.filter(name="space transports repair").update(code="6D")
    _damage(ship, hyperdrive="damaged")
    job = _job(ship, han, key="hyperdrive", pace="rushed")
    assert (job.rolls[0]["job"]["interval"], job.rolls[0]["job"]["code"]) == (30, "3D")
    _scripted(monkeypatch, {11: [1, 1, 2] * 16})
    _advance(ship.campaign_id, 1)
    job.refresh_from_db()
    assert _rolls(job) == [16]


def test_e29_preparing_doubles_the_interval_and_is_refused_under_the_rules_companion(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    job = _job(ship, han, pace="prepared")
    assert (job.rolls[0]["job"]["interval"], job.rolls[0]["job"]["code"]) == (30, "6D")
    _damage(ship, maneuverability_lost=2, shield_dice_lost=1)
    _rules(ship.campaign, RuleSet(preparing="rc_prepare_round"))
    repair = request_repair(_member(han), ship, "shields", payer=han)
    with pytest.raises(RepairJobError, match="Rules Companion"):
        start_craft_repair(ship.campaign_id, repair.pk, actor=han.owner, pace="prepared")
    repair.refresh_from_db()
    assert repair.status == "open" and repair.rolls == []


def test_e34_rules_companion_helpers_combine_up_to_the_highest_skills_dice(crew):
    ship, han = crew
    _rules(ship.campaign, RuleSet(combined_actions="rc_support"))
    han.skills.filter(name="space transports repair").update(code="3D")
    helpers = [CharacterFactory(campaign=han.campaign, technical="3D") for _ in range(3)]
    _damage(ship, maneuverability_lost=2)
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    with pytest.raises(RepairJobError, match="at most 3"):
        start_craft_repair(
            ship.campaign_id,
            repair.pk,
            actor=ship.campaign.created_by,
            helper_ids=[h.pk for h in helpers],
        )
    job = start_craft_repair(
        ship.campaign_id,
        repair.pk,
        actor=ship.campaign.created_by,
        helper_ids=[h.pk for h in helpers[:2]],
    )
    assert job.rolls[0]["job"]["code"] == "3D+6"
    assert job.rolls[0]["helpers"] == sorted(h.name for h in helpers[:2])


# --- the handler: catch-up, idempotence, pauses, bounded queries ------------------------------
def test_a_catch_up_advance_rolls_what_daily_advances_roll(crew):
    ship, han = crew
    Character.objects.filter(pk=han.pk).update(credits=90_000)
    han.refresh_from_db()
    han.skills.filter(name="space transports repair").update(code="1D")
    _damage(ship, maneuverability_lost=4)  # Difficult 20 at 1D: days of work
    job = _job(ship, han)
    RepairRequest.objects.filter(pk=job.pk).update(seed=SEED)
    job.refresh_from_db()
    start = {f: getattr(job, f) for f in ("rolls", "worked_through_day", "status", "note")}
    once = repairs_due(ship.campaign_id, 40, seed=1)
    job.refresh_from_db()
    caught_up = (job.rolls, job.status, job.finished_day)
    assert len(job.rolls) > 2  # more than one day's work
    RepairRequest.objects.filter(pk=job.pk).update(**start, finished_day=None, roll=None)
    _damage(ship, maneuverability_lost=4)
    Character.objects.filter(pk=han.pk).update(credits=90_000)
    daily = []
    for day in range(11, 41):
        daily.extend(repairs_due(ship.campaign_id, day, seed=day))
    job.refresh_from_db()
    assert (job.rolls, job.status, job.finished_day) == caught_up
    assert [(line["repair_day"], line["outcome"]) for line in once] == [
        (line["repair_day"], line["outcome"]) for line in daily
    ]


def test_a_day_run_twice_does_nothing_the_second_time(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=4)
    Character.objects.filter(pk=han.pk).update(credits=90_000)
    han.skills.filter(name="space transports repair").update(code="1D")
    job = _job(ship, han)
    first = repairs_due(ship.campaign_id, 11, seed=5, rng_for=lambda s, k: FixedDice([1] * 40))
    job.refresh_from_db()
    before = (job.rolls, job.worked_through_day)
    assert first and job.worked_through_day == 11
    again = repairs_due(ship.campaign_id, 11, seed=5, rng_for=lambda s, k: FixedDice([]))
    job.refresh_from_db()
    assert again == [] and (job.rolls, job.worked_through_day) == before


def test_nothing_due_costs_one_query(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    _job(ship, han)
    with CaptureQueriesContext(connection) as queries:
        assert repairs_due(ship.campaign_id, 10, seed=1) == []
    assert len(queries) == 1


def test_a_payer_short_of_credits_pauses_the_job_until_resumed(monkeypatch, crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    job = _job(ship, han)
    Character.objects.filter(pk=han.pk).update(credits=1_000)
    script = _scripted(monkeypatch, {13: WIN})
    advance = _advance(ship.campaign_id, 2)
    job.refresh_from_db()
    assert job.status == "working" and job.worked_through_day == 10
    assert job.note.startswith("Paused on day 11: Han holds 1,000 credits")
    assert script.asked == []  # no roll while paused, and day 12 did not look at it
    assert [line["outcome"] for line in advance.report] == ["paused"]
    with pytest.raises(RepairJobError, match="not enough Credits"):
        resume_job(ship.campaign_id, "craft", job.pk, actor=han.owner)
    Character.objects.filter(pk=han.pk).update(credits=20_000)
    resume_job(ship.campaign_id, "craft", job.pk, actor=han.owner)
    job.refresh_from_db()
    assert (job.worked_through_day, job.note) == (12, "Resumed on day 12.")
    _advance(ship.campaign_id, 1)
    job.refresh_from_db()
    han.refresh_from_db()
    assert (job.status, job.finished_day, han.credits) == ("done", 13, 5_000)


def test_damage_cleared_by_the_gm_stops_the_job_nothing_paid(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2, shield_dice_lost=1)
    job = _job(ship, han)
    clear_damage(ship, "maneuverability")
    lines = repairs_due(ship.campaign_id, 11, seed=1, rng_for=lambda s, k: FixedDice([]))
    job.refresh_from_db()
    han.refresh_from_db()
    assert job.status == "cancelled" and job.note.startswith("Stopped on day 11")
    assert [line["outcome"] for line in lines] == ["stopped"] and han.credits == 20_000


def test_clearing_all_damage_cancels_jobs_under_way(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    job = _job(ship, han)
    clear_damage(ship)
    job.refresh_from_db()
    assert job.status == "cancelled"


def test_at_the_table_resolution_still_works_and_refuses_a_job_under_way(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2, shield_dice_lost=1)
    job = _job(ship, han)
    with pytest.raises(CraftRefused, match="under way"):
        resolve_repair(_member(han), job, rng=FixedDice(WIN))
    with pytest.raises(CraftRefused, match="already has an open repair"):
        request_repair(_member(han), ship, "maneuverability", payer=han)
    other = request_repair(_member(han), ship, "shields", payer=han)
    done = resolve_repair(_member(han), other, rng=FixedDice(WIN))
    assert done.status == "done"


def test_cancel_asks_nothing_of_the_ledger_and_keeps_the_rolls(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=4)
    Character.objects.filter(pk=han.pk).update(credits=90_000)
    han.skills.filter(name="space transports repair").update(code="1D")
    job = _job(ship, han)
    repairs_due(ship.campaign_id, 11, seed=1, rng_for=lambda s, k: FixedDice([1] * 40))
    stranger = MembershipFactory(campaign=ship.campaign).user
    with pytest.raises(RepairJobError, match="only the GM or the owner"):
        cancel_job(ship.campaign_id, "craft", job.pk, actor=stranger)
    done = cancel_job(ship.campaign_id, "craft", job.pk, actor=han.owner)
    assert (
        done.status == "cancelled"
        and done.note == "Cancelled on day 10 after 32 rolls; nothing paid."
    )
    assert not LedgerEntry.objects.filter(character=han).exists()


# --- bad input: refused, nothing changed ------------------------------------------------------
def _unchanged(repair):
    repair.refresh_from_db()
    assert (repair.status, repair.rolls, repair.seed, repair.started_day) == (
        "open",
        [],
        None,
        None,
    )


def test_someone_elses_craft_is_refused(crew):
    _, han = crew
    owner = CharacterFactory(campaign=han.campaign, credits=99_000)
    theirs = create_craft(han.campaign, SHIP, owner_character=owner, value=100_000)
    _damage(theirs, maneuverability_lost=2)
    repair = request_repair(_gm(han.campaign), theirs, "maneuverability", payer=owner)
    with pytest.raises(RepairJobError, match="not yours"):
        start_craft_repair(han.campaign_id, repair.pk, actor=han.owner, engineer_id=han.pk)
    _unchanged(repair)


def test_a_destroyed_weapon_cannot_be_repaired(crew):
    ship, han = crew
    _damage(ship, weapon_damage=("one_destroyed",))
    with pytest.raises(CraftRefused, match="may not be repaired"):
        request_repair(_member(han), ship, "weapon:0", payer=han, weapon_value=2_000)
    forced = RepairRequest.objects.create(
        craft=ship, entry="weapon:0", description="one weapon destroyed", difficulty="Moderate"
    )
    with pytest.raises(RepairJobError, match="may not be repaired"):
        start_craft_repair(ship.campaign_id, forced.pk, actor=ship.campaign.created_by)
    _unchanged(forced)


def test_no_engineer_and_nobody_named_is_refused(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    crew_station(_gm(han.campaign), ship.stations.get(role="engineer"), None)
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    with pytest.raises(RepairJobError, match="nobody holds the engineer station"):
        start_craft_repair(ship.campaign_id, repair.pk, actor=han.owner)
    _unchanged(repair)
    job = start_craft_repair(ship.campaign_id, repair.pk, actor=han.owner, engineer_id=han.pk)
    assert job.engineer == han


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"pace": "slowly"}, "pace"),
        ({"difficulty": "١٥"}, "digits 0-9"),
        ({"difficulty": "9"}, "from 11 to 15"),
        ({"hired_code": "lots"}, "hired technician"),
    ],
)
def test_bad_job_input_is_refused_with_nothing_changed(crew, kwargs, reason):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    with pytest.raises(RepairJobError, match=reason):
        start_craft_repair(ship.campaign_id, repair.pk, actor=ship.campaign.created_by, **kwargs)
    _unchanged(repair)


def test_a_player_cannot_set_the_difficulty_or_a_hired_code(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    for kwargs in ({"difficulty": "12"}, {"hired_code": "5D"}):
        with pytest.raises(RepairJobError, match="only the GM"):
            start_craft_repair(ship.campaign_id, repair.pk, actor=han.owner, **kwargs)
    _unchanged(repair)


# --- droids -----------------------------------------------------------------------------------
@pytest.fixture
def droid(crew):
    """R2 (Han's player's droid, wounded) and Han with droid repair 5D."""
    _, han = crew
    SkillFactory(character=han, name="droid repair", attribute="technical", code="5D")
    return CharacterFactory(
        campaign=han.campaign, owner=han.owner, name="R2", nature="droid", wound_level="wounded"
    )


@pytest.mark.parametrize(
    ("level", "difficulty", "number"),
    [
        ("wounded", "Easy", 10),
        ("wounded_twice", "Moderate", 15),
        ("incapacitated", "Moderate", 15),
        ("mortally_wounded", "Difficult", 20),
    ],
)
def test_a_droid_repair_difficulty_by_its_damage_our_reading(
    droid, crew, level, difficulty, number
):
    _, han = crew
    Character.objects.filter(pk=droid.pk).update(wound_level=level)
    job = start_droid_repair(droid.campaign_id, droid.pk, actor=han.owner, engineer_id=han.pk)
    assert (job.difficulty, job.from_level) == (difficulty, level)
    assert job.rolls[0]["job"]["difficulty"] == number and job.rolls[0]["job"]["interval"] == 60
    assert job.rolls[0]["skill"] == "droid repair" and job.rolls[0]["job"]["code"] == "5D"


def test_a_droid_repair_finishes_in_game_time_and_the_gms_cost_is_paid(monkeypatch, droid, crew):
    _, han = crew
    gm = droid.campaign.created_by
    job = start_droid_repair(
        droid.campaign_id, droid.pk, actor=gm, engineer_id=han.pk, cost="300", payer_id=han.pk
    )
    _scripted(monkeypatch, {11: [1, 1, 1, 1, 2] * 8, 12: [1, 1, 1, 1, 2, *WIN]})
    advance = _advance(droid.campaign_id, 2)
    job.refresh_from_db()
    droid.refresh_from_db()
    han.refresh_from_db()
    assert _rolls(job) == [8, 2]
    assert (job.status, job.finished_day, job.note) == ("done", 12, "Repaired on day 12 (10 rolls)")
    assert droid.wound_level == "none" and han.credits == 19_700
    assert [line["character_id"] for line in advance.report] == [droid.pk, droid.pk]


def test_a_hired_technician_repairs_a_droid(monkeypatch, droid):
    job = start_droid_repair(
        droid.campaign_id, droid.pk, actor=droid.campaign.created_by, hired_code="4D"
    )
    assert (job.engineer, job.hired_code) == (None, "4D")
    _scripted(monkeypatch, {11: [5, 5, 5, 5]})
    _advance(droid.campaign_id, 1)
    droid.refresh_from_db()
    assert droid.wound_level == "none"


@pytest.mark.parametrize(
    ("setup", "kwargs", "reason"),
    [
        ({"wound_level": "none"}, {}, "not damaged"),
        ({"wound_level": "killed"}, {}, "destroyed"),
        ({"nature": "organic"}, {}, "not a droid"),
        ({}, {"cost": "٣٠٠"}, "digits 0-9"),
        ({}, {"pace": "slowly"}, "pace"),
    ],
)
def test_bad_droid_repairs_are_refused_with_nothing_changed(droid, crew, setup, kwargs, reason):
    _, han = crew
    Character.objects.filter(pk=droid.pk).update(**setup)
    with pytest.raises(RepairJobError, match=reason):
        start_droid_repair(
            droid.campaign_id,
            droid.pk,
            actor=droid.campaign.created_by,
            engineer_id=han.pk,
            **kwargs,
        )
    assert not DroidRepair.objects.exists()


def test_a_second_repair_of_the_same_droid_and_someone_elses_droid_are_refused(droid, crew):
    _, han = crew
    start_droid_repair(droid.campaign_id, droid.pk, actor=han.owner, engineer_id=han.pk)
    with pytest.raises(RepairJobError, match="being repaired already"):
        start_droid_repair(droid.campaign_id, droid.pk, actor=han.owner, engineer_id=han.pk)
    stranger = MembershipFactory(campaign=droid.campaign).user
    with pytest.raises(RepairJobError, match="not yours"):
        start_droid_repair(droid.campaign_id, droid.pk, actor=stranger, engineer_id=han.pk)
    assert DroidRepair.objects.count() == 1


def test_a_player_cannot_set_a_droid_repairs_cost(droid, crew):
    _, han = crew
    with pytest.raises(RepairJobError, match="only the GM"):
        start_droid_repair(
            droid.campaign_id, droid.pk, actor=han.owner, engineer_id=han.pk, cost="100"
        )
    assert not DroidRepair.objects.exists()


# --- the pages --------------------------------------------------------------------------------
def test_the_ship_sheet_starts_a_job_and_shows_it(client, crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    client.force_login(han.owner)
    page = client.get(ship.get_absolute_url()).content.decode()
    assert "Work on it in downtime" in page
    url = reverse("characters:craft_repair_job", args=[ship.campaign_id, ship.pk, repair.pk])
    response = client.post(url, {"pace": "rushed"}, follow=True)
    page = response.content.decode()
    assert "Under way since day 10" in page and "rolls space transports repair 2D+1" in page
    # Rushed: 2D+1, a die and the Wild Die: 6, then 6 and 4 = 17 against 15.
    repairs_due(ship.campaign_id, 11, seed=1, rng_for=lambda s, k: FixedDice([6, 6, 4]))
    page = client.get(ship.get_absolute_url()).content.decode()
    assert "Repaired on day 11 (1 roll)" in page


def test_a_refused_start_shows_the_reason_beside_the_repair(client, crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    client.force_login(ship.campaign.created_by)
    url = reverse("characters:craft_repair_job", args=[ship.campaign_id, ship.pk, repair.pk])
    response = client.post(url, {"pace": "normal", "difficulty": "١٥"})
    assert response.status_code == 400
    assert "Not started: the difficulty number is a whole number" in response.content.decode()
    _unchanged(repair)


def test_stopping_a_job_asks_first(client, crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    job = _job(ship, han)
    client.force_login(han.owner)
    url = reverse("characters:craft_repair_job_cancel", args=[ship.campaign_id, ship.pk, job.pk])
    page = client.get(url)
    assert page.status_code == 200 and "Stop the repair of" in page.content.decode()
    job.refresh_from_db()
    assert job.status == "working"
    client.post(url)
    job.refresh_from_db()
    assert job.status == "cancelled"
    assert client.post(url).status_code == 400


def test_the_droid_panel_starts_a_repair_and_refuses_in_place(client, droid, crew):
    _, han = crew
    client.force_login(han.owner)
    panel = reverse("characters:droid_repair", args=[droid.campaign_id, droid.pk])
    page = client.get(panel, headers={"HX-Request": "true"}).content.decode()
    assert "Repair R2 in downtime" in page and "an Easy repair roll" in page
    start = reverse("characters:droid_repair_start", args=[droid.campaign_id, droid.pk])
    bad = client.post(start, {"engineer": "٣", "pace": "normal"}, headers={"HX-Request": "true"})
    assert bad.status_code == 400 and "Select a valid choice" in bad.content.decode()
    assert not DroidRepair.objects.exists()
    good = client.post(
        start, {"engineer": str(han.pk), "pace": "normal"}, headers={"HX-Request": "true"}
    )
    assert good.status_code == 200 and "Under way since day 10" in good.content.decode()
    sheet = client.get(droid.get_absolute_url()).content.decode()
    assert reverse("characters:droid_repair", args=[droid.campaign_id, droid.pk]) in sheet


def test_the_droid_panel_shows_a_finished_repair(client, droid, crew):
    _, han = crew
    start_droid_repair(droid.campaign_id, droid.pk, actor=han.owner, engineer_id=han.pk)
    repairs_due(droid.campaign_id, 11, seed=1, rng_for=lambda s, k: FixedDice(WIN))
    client.force_login(han.owner)
    panel = reverse("characters:droid_repair", args=[droid.campaign_id, droid.pk])
    page = client.get(panel).content.decode()
    assert "Repaired on day 11 (1 roll) · from wounded" in page
    assert "R2 is not damaged." in page and "Repair R2 in downtime" not in page


def test_a_paused_job_is_resumed_from_the_sheet(client, crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    job = _job(ship, han)
    Character.objects.filter(pk=han.pk).update(credits=0)
    repairs_due(ship.campaign_id, 11, seed=1, rng_for=lambda s, k: FixedDice([]))
    client.force_login(han.owner)
    page = client.get(ship.get_absolute_url()).content.decode()
    assert "Paused on day 11: Han holds 0 credits" in page and ">Resume</button>" in page
    url = reverse("characters:craft_repair_job_resume", args=[ship.campaign_id, ship.pk, job.pk])
    refused = client.post(url)
    assert refused.status_code == 400 and "not enough Credits" in refused.content.decode()
    Character.objects.filter(pk=han.pk).update(credits=20_000)
    assert client.post(url).status_code == 302
    job.refresh_from_db()
    assert job.note == "Resumed on day 10."


def test_a_player_cannot_start_a_job_on_someone_elses_craft_by_url(client, crew):
    ship, han = crew
    owner = CharacterFactory(campaign=han.campaign, credits=99_000)
    theirs = create_craft(han.campaign, SHIP, owner_character=owner, value=100_000)
    _damage(theirs, maneuverability_lost=2)
    repair = request_repair(_gm(han.campaign), theirs, "maneuverability", payer=owner)
    client.force_login(han.owner)
    url = reverse("characters:craft_repair_job", args=[ship.campaign_id, theirs.pk, repair.pk])
    assert client.post(url, {"pace": "normal"}).status_code == 403
    _unchanged(repair)


def test_an_engineer_who_cannot_act_cannot_start_the_work(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    Character.objects.filter(pk=han.pk).update(wound_level="incapacitated")
    with pytest.raises(RepairJobError, match="cannot work"):
        start_craft_repair(ship.campaign_id, repair.pk, actor=han.owner)
    _unchanged(repair)
