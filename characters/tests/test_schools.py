"""[HOUSE] schools and school debt (characters.schools, issue 19): C-35 replayed through the
service and the time-advance job (NCO Leadership I, 3 weeks, its pips on the sheet, a missing
skill gained at its attribute), C-36 (half of the CP earned repay the debt, through the
ledger), and the refusals that change nothing: 101 CP owed, a second school at once, someone
else's character, a campaign not under the House Rules."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import downtime
from characters.advancement import award_all, complete_due
from characters.downtime import start_advance
from characters.models import Character, Currency, LedgerEntry, Skill, TimeAdvance
from characters.month_end import post_pending_cp
from characters.school_models import Enrolment, School
from characters.schools import (
    SchoolError,
    character_enrolment,
    earn_cp,
    enrol_character,
    finish_day,
    save_school,
    schools_due,
    set_school_open,
    withdraw,
)
from characters.services import change_balance
from characters.tests.factories import CharacterFactory, SkillFactory
from characters.tests.test_downtime import celery_app
from rules import RuleSet
from rules.advancement.schools import NCO_LEADERSHIP_I

pytestmark = pytest.mark.django_db


REAL_HANDLERS = downtime.HANDLERS


@pytest.fixture(autouse=True)
def eager(monkeypatch):
    """Advances run at once (Celery eager), with the handlers these tests are about (other
    kinds of downtime work have tests of their own)."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    monkeypatch.setattr(downtime, "HANDLERS", (complete_due, schools_due, post_pending_cp))
    yield
    celery_app.conf.task_always_eager = before


def house_campaign(**overrides) -> Campaign:
    campaign = CampaignFactory()
    campaign.set_ruleset(RuleSet.preset("house", **overrides))
    campaign.save()
    return campaign


def student(campaign: Campaign, cp: int = 20) -> Character:
    """C-35's student: Perception 3D, Strength 3D, Knowledge 2D+1, command 4D, no persuasion."""
    player = MembershipFactory(campaign=campaign).user
    character = CharacterFactory(
        campaign=campaign, owner=player, perception="3D", strength="3D", knowledge="2D+1"
    )
    SkillFactory(character=character, name="command", attribute="perception", code="4D")
    if cp:
        change_balance(character, Currency.CP, cp, "Starting Character Points")
    return character


def nco(campaign: Campaign, **changes) -> School:
    fields = {
        "name": NCO_LEADERSHIP_I.name,
        "weeks": NCO_LEADERSHIP_I.weeks,
        "cp_cost": NCO_LEADERSHIP_I.cp_cost,
        "bonuses": NCO_LEADERSHIP_I.bonuses,
        "instructor": "Lt. Norva",
        "restrictions": "Enlisted only; must have before T-2",
    }
    return save_school(campaign.pk, actor=campaign.created_by, **{**fields, **changes})


def advance(campaign: Campaign, days: int) -> TimeAdvance:
    campaign.refresh_from_db()
    return start_advance(campaign, days, actor=campaign.created_by)


def skills(character: Character) -> dict[str, str]:
    return {s.name: str(s.code) for s in Skill.objects.filter(character=character)}


def snapshot(character: Character) -> tuple:
    """Everything an enrolment may change: balances, ledger, skills, enrolments."""
    character.refresh_from_db()
    return (
        character.character_points,
        character.cp_owed,
        character.pending_cp,
        LedgerEntry.objects.filter(character=character).count(),
        skills(character),
        list(Enrolment.objects.filter(character=character).values_list("school_id", "status")),
    )


# --- C-35 ----------------------------------------------------------------------------------------
def test_C35_nco_leadership_finishes_after_three_house_weeks_with_its_pips():
    campaign = house_campaign()
    school = nco(campaign)
    hero = student(campaign)
    enrolment = enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=5)
    assert finish_day(enrolment) == 15  # 3 weeks of 5 days, counted from the day after day 0
    assert advance(campaign, 14).report == []
    assert skills(hero) == {"command": "4D"}
    assert character_enrolment(hero.pk).finishes == 15

    report = advance(campaign, 1).report
    assert skills(hero) == {
        "command": "4D+2",
        "persuasion": "3D+1",  # gained at Perception 3D, then +1 pip (C-35)
        "stamina": "3D+1",
        "survival": "3D",  # Knowledge 2D+1 +2 pips
        "tactics": "2D+2",
        "willpower": "2D+2",
    }
    (line,) = report
    assert (line["day"], line["kind"], line["character_id"]) == (15, "school", hero.pk)
    assert "persuasion gained at 3D+1 (Perception 3D +1 pip)" in line["words"]
    assert "command 4D → 4D+2" in line["words"]
    enrolment.refresh_from_db()
    assert (enrolment.status, enrolment.finished_day, enrolment.worked_through_day) == (
        "done",
        15,
        15,
    )
    assert enrolment.result["persuasion"] == ["", "3D+1"]
    assert enrolment.result["command"] == ["4D", "4D+2"]
    assert enrolment.state["days_done"] == 15
    assert character_enrolment(hero.pk) is None
    hero.refresh_from_db()
    assert (hero.character_points, hero.cp_owed) == (15, 0)


def test_a_school_lasts_its_weeks_in_the_campaigns_week_length():
    campaign = house_campaign(days_per_week=7)
    hero = student(campaign)
    enrolment = enrol_character(campaign.pk, nco(campaign).pk, hero.pk, actor=hero.owner, pay=0)
    assert finish_day(enrolment) == 21
    advance(campaign, 20)
    assert skills(hero) == {"command": "4D"}
    assert advance(campaign, 1).report[0]["day"] == 21
    assert skills(hero)["command"] == "4D+2"


def test_a_school_begun_later_counts_from_its_own_day():
    campaign = house_campaign()
    hero = student(campaign)
    advance(campaign, 7)
    enrolment = enrol_character(campaign.pk, nco(campaign).pk, hero.pk, actor=hero.owner, pay=5)
    assert (enrolment.started_day, finish_day(enrolment)) == (7, 22)
    advance(campaign, 14)
    assert skills(hero)["command"] == "4D"
    advance(campaign, 1)
    assert skills(hero)["command"] == "4D+2"


def test_the_days_run_twice_finish_the_school_once():
    campaign = house_campaign()
    hero = student(campaign)
    enrol_character(campaign.pk, nco(campaign).pk, hero.pk, actor=hero.owner, pay=5)
    Campaign.objects.filter(pk=campaign.pk).update(game_day=15)
    first = schools_due(campaign.pk, 15, seed=1)
    again = schools_due(campaign.pk, 15, seed=2)
    assert len(first) == 1 and again == []
    assert skills(hero)["command"] == "4D+2"  # not 4D+4


def test_a_catch_up_advance_equals_daily_advances():
    def run(step: int) -> tuple:
        campaign = house_campaign()
        hero = student(campaign)
        enrol_character(campaign.pk, nco(campaign).pk, hero.pk, actor=hero.owner, pay=2)
        for _ in range(20 // step):
            advance(campaign, step)
        enrolment = Enrolment.objects.get(character=hero)
        hero.refresh_from_db()
        reports = [
            {k: v for k, v in line.items() if k not in ("character_id", "character")}
            for a in TimeAdvance.objects.filter(campaign=campaign).order_by("pk")
            for line in a.report
        ]
        return (
            skills(hero),
            hero.character_points,
            hero.cp_owed,
            enrolment.status,
            enrolment.finished_day,
            enrolment.worked_through_day,
            enrolment.state,
            enrolment.result,
            reports,
        )

    assert run(1) == run(20)


def test_nothing_due_costs_one_query_a_day(django_assert_num_queries):
    campaign = house_campaign()
    school = nco(campaign)
    for _ in range(5):
        hero = student(campaign)
        enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=5)
    with django_assert_num_queries(1):
        assert schools_due(campaign.pk, 3, seed=0) == []


# --- Paying and owing; C-36 ----------------------------------------------------------------------
def test_the_price_is_paid_or_owed_through_the_ledger():
    campaign = house_campaign()
    hero = student(campaign, cp=3)
    enrolment = enrol_character(campaign.pk, nco(campaign).pk, hero.pk, actor=hero.owner, pay=3)
    hero.refresh_from_db()
    assert (hero.character_points, hero.cp_owed) == (0, 2)
    assert (enrolment.cp_paid, enrolment.cp_owed) == (3, 2)
    entries = list(
        LedgerEntry.objects.filter(character=hero, reason__contains="NCO")
        .order_by("pk")
        .values_list("currency", "delta", "reason")
    )
    assert entries == [
        ("cp", -3, "Paid for NCO Leadership I"),
        ("owed", 2, "Owed for NCO Leadership I"),
    ]


def test_C36_owing_100_earning_12_repays_6_from_the_pending_slot():
    campaign = house_campaign()
    hero = student(campaign)
    change_balance(hero, Currency.CP_OWED, 100, "Owed for the Academy")
    lines = award_all(
        campaign,
        [{"character_id": hero.pk, "reason": "Tocarra Job", "cp": 12}],
        actor=campaign.created_by,
    )
    hero.refresh_from_db()
    assert (hero.pending_cp, hero.cp_owed, hero.character_points) == (6, 94, 20)
    assert lines[0]["repaid"] == 6 and "94 CP still owed" in lines[0]["note"]
    repay = list(
        LedgerEntry.objects.filter(character=hero, reason="Repays school debt: Tocarra Job")
        .order_by("pk")
        .values_list("currency", "delta")
    )
    assert repay == [("pcp", -6), ("owed", -6)]


def test_C36_a_student_owing_100_cannot_take_on_more():
    campaign = house_campaign()
    hero = student(campaign, cp=0)
    change_balance(hero, Currency.CP_OWED, 100, "Owed for the Academy")
    school = nco(campaign)
    before = snapshot(hero)
    with pytest.raises(SchoolError, match="past the 100 CP limit"):
        enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=0)
    assert snapshot(hero) == before


def test_101_cp_owed_is_refused_and_nothing_changes():
    campaign = house_campaign()
    hero = student(campaign, cp=10)
    change_balance(hero, Currency.CP_OWED, 96, "Owed for the Academy")
    school = nco(campaign)
    before = snapshot(hero)
    with pytest.raises(SchoolError, match="to 101 CP, past the 100 CP limit"):
        enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=0)
    assert snapshot(hero) == before
    enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=1)  # owes 100: fine
    hero.refresh_from_db()
    assert (hero.cp_owed, hero.character_points) == (100, 9)


def test_paying_more_than_held_is_refused_and_nothing_changes():
    campaign = house_campaign()
    hero = student(campaign, cp=2)
    school = nco(campaign)
    before = snapshot(hero)
    with pytest.raises(SchoolError, match="not enough to pay 5 CP"):
        enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=5)
    with pytest.raises(SchoolError, match="costs 5 CP: pay at most that"):
        enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=6)
    assert snapshot(hero) == before


def test_earning_repays_half_rounded_up_and_never_more_than_owed():
    campaign = house_campaign()
    hero = student(campaign, cp=0)
    change_balance(hero, Currency.CP_OWED, 4, "Owed")
    got = earn_cp(hero, 5, "Good roleplay")
    assert (got.repaid, got.still_owed) == (3, 1)
    got = earn_cp(hero, 5, "More roleplay")
    assert (got.repaid, got.still_owed) == (1, 0)
    got = earn_cp(hero, 5, "Debt-free")
    assert got.repaid == 0
    hero.refresh_from_db()
    assert (hero.character_points, hero.cp_owed) == (11, 0)


def test_an_awards_cp_and_kill_bonus_are_halved_together():
    campaign = house_campaign()
    hero = student(campaign)
    change_balance(hero, Currency.CP_OWED, 50, "Owed")
    award = {"character_id": hero.pk, "reason": "Job", "cp": 1, "kill_bonus": 1}
    award_all(campaign, [award], actor=campaign.created_by)
    hero.refresh_from_db()
    assert (hero.pending_cp, hero.cp_owed) == (1, 49)  # half of 2, not 1 + 1


def test_outside_the_house_rules_earned_cp_repay_a_debt_left_from_them():
    campaign = CampaignFactory()
    hero = student(campaign, cp=0)
    change_balance(hero, Currency.CP_OWED, 10, "Owed from the House days")
    award_all(
        campaign, [{"character_id": hero.pk, "reason": "Job", "cp": 12}], actor=campaign.created_by
    )
    hero.refresh_from_db()
    assert (hero.character_points, hero.cp_owed, hero.pending_cp) == (6, 4, 0)


def test_the_month_end_posting_is_not_an_earning():
    campaign = house_campaign()
    hero = student(campaign, cp=0)
    award_all(
        campaign, [{"character_id": hero.pk, "reason": "Job", "cp": 8}], actor=campaign.created_by
    )
    change_balance(hero, Currency.CP_OWED, 10, "Owed")  # a debt taken after the points were earned
    Campaign.objects.filter(pk=campaign.pk).update(game_day=34)
    advance(campaign, 1)
    hero.refresh_from_db()
    assert (hero.character_points, hero.cp_owed) == (8, 10)


# --- Refusals ------------------------------------------------------------------------------------
def test_a_second_school_at_once_is_refused_and_nothing_changes():
    campaign = house_campaign()
    hero = student(campaign)
    enrol_character(campaign.pk, nco(campaign).pk, hero.pk, actor=hero.owner, pay=5)
    other = nco(campaign, name="Pilot School", weeks=2, cp_cost=3)
    before = snapshot(hero)
    with pytest.raises(
        SchoolError, match=r"already at NCO Leadership I \(until day 15\): one school"
    ):
        enrol_character(campaign.pk, other.pk, hero.pk, actor=hero.owner, pay=3)
    assert snapshot(hero) == before


def test_someone_elses_character_is_refused_and_nothing_changes():
    campaign = house_campaign()
    hero = student(campaign)
    stranger = MembershipFactory(campaign=campaign).user
    school = nco(campaign)
    before = snapshot(hero)
    with pytest.raises(SchoolError, match="Only the character's player or the GM"):
        enrol_character(campaign.pk, school.pk, hero.pk, actor=stranger, pay=5)
    assert snapshot(hero) == before
    enrolment = enrol_character(campaign.pk, school.pk, hero.pk, actor=campaign.created_by, pay=5)
    with pytest.raises(SchoolError, match="Only the character's player or the GM"):
        withdraw(campaign.pk, enrolment.pk, actor=stranger)


def test_a_character_of_another_campaign_is_refused():
    campaign = house_campaign()
    school = nco(campaign)
    elsewhere = student(house_campaign())
    with pytest.raises(SchoolError, match="Only the character's player or the GM"):
        enrol_character(campaign.pk, school.pk, elsewhere.pk, actor=campaign.created_by, pay=0)


def test_a_closed_school_takes_no_one_but_its_students_finish():
    campaign = house_campaign()
    hero, late = student(campaign), student(campaign)
    school = nco(campaign)
    enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=5)
    set_school_open(campaign.pk, school.pk, actor=campaign.created_by, open=False)
    with pytest.raises(SchoolError, match="closed to new students"):
        enrol_character(campaign.pk, school.pk, late.pk, actor=late.owner, pay=5)
    advance(campaign, 15)
    assert skills(hero)["command"] == "4D+2"


def test_only_a_gm_of_a_house_campaign_defines_schools():
    campaign = house_campaign()
    player = MembershipFactory(campaign=campaign).user
    with pytest.raises(SchoolError, match="Only the campaign's GM"):
        save_school(
            campaign.pk, actor=player, name="X", weeks=1, cp_cost=1, bonuses=(("strength", "a", 1),)
        )
    plain = CampaignFactory()
    with pytest.raises(SchoolError, match="Schools are a House rule"):
        nco(plain)
    assert School.objects.count() == 0


def test_an_edit_applies_to_later_students_only():
    campaign = house_campaign()
    hero = student(campaign)
    school = nco(campaign)
    enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=5)
    nco(campaign, school_id=school.pk, weeks=10, bonuses=(("perception", "command", 3),))
    advance(campaign, 15)
    assert skills(hero)["command"] == "4D+2"


def test_a_duplicate_school_name_is_refused():
    campaign = house_campaign()
    nco(campaign)
    with pytest.raises(SchoolError, match="already has a school named"):
        nco(campaign, name="nco leadership i")


# --- Withdrawing ---------------------------------------------------------------------------------
def test_withdrawing_keeps_what_was_paid_and_owed():
    campaign = house_campaign()
    hero = student(campaign, cp=3)
    enrolment = enrol_character(campaign.pk, nco(campaign).pk, hero.pk, actor=hero.owner, pay=3)
    advance(campaign, 4)
    withdraw(campaign.pk, enrolment.pk, actor=hero.owner)
    enrolment.refresh_from_db()
    hero.refresh_from_db()
    assert (enrolment.status, enrolment.finished_day, enrolment.state["days_done"]) == (
        "withdrawn",
        4,
        4,
    )
    assert (hero.character_points, hero.cp_owed) == (0, 2)
    advance(campaign, 20)
    assert skills(hero) == {"command": "4D"}
    with pytest.raises(SchoolError, match="no longer at"):
        withdraw(campaign.pk, enrolment.pk, actor=hero.owner)


def test_withdrawing_on_the_day_of_enrolment_undoes_it():
    campaign = house_campaign()
    hero = student(campaign, cp=3)
    enrolment = enrol_character(campaign.pk, nco(campaign).pk, hero.pk, actor=hero.owner, pay=3)
    withdraw(campaign.pk, enrolment.pk, actor=campaign.created_by)
    hero.refresh_from_db()
    assert (hero.character_points, hero.cp_owed) == (3, 0)
    # and he may enrol again at once
    enrol_character(campaign.pk, nco(campaign, name="Other").pk, hero.pk, actor=hero.owner, pay=0)


def test_the_constraint_backs_one_school_at_a_time(monkeypatch):
    """Two requests that both passed the check: the database's constraint refuses the second,
    with the same clear message, and its ledger changes roll back."""
    from characters import schools as service

    campaign = house_campaign()
    hero = student(campaign)
    first = nco(campaign)
    second = nco(campaign, name="Pilot School", cp_cost=3)
    enrol_character(campaign.pk, first.pk, hero.pk, actor=hero.owner, pay=5)
    before = snapshot(hero)

    class Nothing:
        def filter(self, *args, **kwargs):
            return self

        def select_related(self, *args):
            return self

        def first(self):
            return None

    real = service.Enrolment.objects

    class Objects:
        def filter(self, *args, **kwargs):
            if kwargs.get("status") == Enrolment.Status.ATTENDING and "character" in kwargs:
                return Nothing()
            return real.filter(*args, **kwargs)

        def create(self, **kwargs):
            return real.create(**kwargs)

    monkeypatch.setattr(service.Enrolment, "objects", Objects())
    with pytest.raises(SchoolError, match="already at a school: one school at a time"):
        enrol_character(campaign.pk, second.pk, hero.pk, actor=hero.owner, pay=3)
    monkeypatch.undo()
    assert snapshot(hero) == before


def test_handler_refuses_a_bad_day():
    with pytest.raises(SchoolError):
        schools_due(1, -1, seed=0)


def test_handlers_include_schools_after_the_trainings():
    names = [h.__name__ for h in REAL_HANDLERS]
    assert names.index("schools_due") == names.index("complete_due") + 1
