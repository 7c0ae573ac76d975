"""Healing over days between adventures (characters.healing): the natural-healing and bacta
vectors of injuries-and-healing.md §12 replayed through the time-advance job with scripted
dice, each test named after its vector; the job's idempotency (H-58, H-66, H-67); the sheet's
healing panel and its forms, with bad input refused and nothing changed."""

from functools import partial

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from campaigns.models import Campaign, Membership
from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import downtime, healing
from characters.downtime import start_advance
from characters.healing import HealingError, heal_due, healing_status, start_bacta
from characters.healing_models import HealingCourse, HealingEvent
from characters.models import Character
from characters.tests.factories import CharacterFactory
from characters.tests.test_downtime import celery_app
from rules import DieCode, FixedDice, RuleSet

pytestmark = pytest.mark.django_db

# Strength 3D is two dice and the Wild Die: these faces give the totals the vectors name.
STRENGTH_3D = {4: [1, 1, 2], 5: [1, 2, 2], 6: [2, 2, 2], 7: [2, 2, 3], 8: [3, 3, 2], 9: [3, 3, 3]}
STRENGTH_3D[10] = [3, 3, 4]
STRENGTH_3D[3] = [1, 1, 1]  # a Wild Die 1: a complication (2E default), the total stands


class Script:
    """``rng_for`` for the handler: the faces for each (kind, day); any other roll fails the
    test (a roll the rules did not call for)."""

    def __init__(self, rolls: dict[tuple[str, int], list[int]]):
        self.rolls = rolls
        self.keys: list[str] = []

    def __call__(self, seed: int, key: str):
        self.keys.append(key)
        kind, day, _ = key.split(":")
        faces = self.rolls.get((kind, int(day)))
        if faces is None:
            raise AssertionError(f"unexpected roll {key}")
        return FixedDice(faces)


@pytest.fixture(autouse=True)
def eager():
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def scripted(monkeypatch, rolls: dict[tuple[str, int], list[int]]) -> Script:
    script = Script(rolls)
    monkeypatch.setattr(downtime, "HANDLERS", (partial(heal_due, rng_for=script),))
    return script


def campaign_with(ruleset: RuleSet | None = None, **options) -> Campaign:
    campaign = CampaignFactory()
    campaign.set_ruleset(ruleset or RuleSet(**options))
    campaign.save()
    return campaign


def advance(campaign: Campaign, days: int):
    campaign.refresh_from_db()
    return start_advance(campaign, days, actor=campaign.created_by)


def level(character: Character) -> str:
    character.refresh_from_db()
    return character.wound_level


def natural(character: Character) -> list[tuple[int, int, str]]:
    return list(
        HealingEvent.objects.filter(character=character, kind="natural")
        .order_by("day")
        .values_list("day", "total", "level_after")
    )


@pytest.fixture
def campaign():
    return CampaignFactory()


def wounded(campaign, wound="wounded", **kwargs) -> Character:
    return CharacterFactory(campaign=campaign, wound_level=wound, strength="3D", **kwargs)


# --- Natural healing (§7) -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("wound", "total", "after"),
    [
        ("wounded", 4, "wounded_twice"),
        ("wounded", 5, "wounded"),
        ("wounded", 6, "wounded"),
        ("wounded", 7, "none"),
    ],
)
def test_H52_wounded_rolls_after_3_days(monkeypatch, campaign, wound, total, after):
    scripted(monkeypatch, {("natural", 3): STRENGTH_3D[total]})
    hero = wounded(campaign, wound)

    report = advance(campaign, 4).report  # day 3 has ended once the date is day 4

    assert natural(hero) == [(3, total, after)]
    assert level(hero) == after
    assert report[0]["character"] == hero.name
    assert report[0]["roll"]["character"]["total"] == total


@pytest.mark.parametrize(
    ("total", "after"),
    [(4, "incapacitated"), (5, "wounded_twice"), (6, "wounded_twice"), (7, "wounded")],
)
def test_H53_wounded_twice_rolls_after_3_days_on_the_wounded_chart(
    monkeypatch, campaign, total, after
):
    scripted(monkeypatch, {("natural", 3): STRENGTH_3D[total]})
    hero = wounded(campaign, "wounded_twice")

    advance(campaign, 4)

    assert natural(hero) == [(3, total, after)]
    assert level(hero) == after


@pytest.mark.parametrize(
    ("total", "after"),
    [(6, "mortally_wounded"), (7, "incapacitated"), (8, "incapacitated"), (9, "wounded_twice")],
)
def test_H54_incapacitated_rolls_after_14_days(monkeypatch, campaign, total, after):
    scripted(monkeypatch, {("natural", 14): STRENGTH_3D[total]})
    hero = wounded(campaign, "incapacitated")

    advance(campaign, 14)
    assert natural(hero) == []  # day 14 has not ended yet
    advance(campaign, 1)

    assert natural(hero) == [(14, total, after)]
    assert level(hero) == after


def test_H54_the_re_example_total_10_is_wounded_twice_and_the_next_roll_3_days_later(
    monkeypatch, campaign
):
    scripted(monkeypatch, {("natural", 14): STRENGTH_3D[10]})
    hero = wounded(campaign, "incapacitated")

    advance(campaign, 15)

    assert level(hero) == "wounded_twice"
    assert healing_status(hero, Campaign.objects.get(pk=campaign.pk)).next_roll_day == 17


@pytest.mark.parametrize(("total", "after"), [(7, "mortally_wounded"), (9, "incapacitated")])
def test_H55_mortally_wounded_rolls_after_35_days(monkeypatch, campaign, total, after):
    scripted(monkeypatch, {("natural", 35): STRENGTH_3D[total]})
    hero = wounded(campaign, "mortally_wounded")

    advance(campaign, 36)

    assert natural(hero) == [(35, total, after)]
    assert level(hero) == after


def test_H55_a_death_result_with_automatic_deaths_kills_him(monkeypatch):
    campaign = campaign_with(death_automation="auto")
    scripted(monkeypatch, {("natural", 35): STRENGTH_3D[6]})
    hero = wounded(campaign, "mortally_wounded")

    advance(campaign, 36)

    assert level(hero) == "killed"


def test_H56_the_schedule_restarts_after_every_roll(monkeypatch, campaign):
    script = scripted(
        monkeypatch,
        {
            ("natural", 3): STRENGTH_3D[6],
            ("natural", 6): STRENGTH_3D[3],
            ("natural", 9): STRENGTH_3D[8],
            ("natural", 12): STRENGTH_3D[7],
        },
    )
    hero = wounded(campaign)

    advance(campaign, 20)

    assert natural(hero) == [
        (3, 6, "wounded"),
        (6, 3, "wounded_twice"),
        (9, 8, "wounded"),
        (12, 7, "none"),
    ]
    assert script.keys == ["natural:3:1", "natural:6:1", "natural:9:1", "natural:12:1"]


# --- The job (§10) ------------------------------------------------------------------------------
def test_H58_running_a_day_twice_makes_one_event(monkeypatch, campaign):
    script = Script({("natural", 3): STRENGTH_3D[6]})
    hero = wounded(campaign)
    for day in range(1, 5):
        heal_due(campaign.pk, day, seed=1, rng_for=script)

    assert heal_due(campaign.pk, 4, seed=1, rng_for=script) == []
    assert heal_due(campaign.pk, 4, seed=999, rng_for=script) == []
    assert natural(hero) == [(3, 6, "wounded")]
    assert script.keys == ["natural:3:1"]


def test_H58_the_event_key_is_unique_in_the_database(campaign):
    hero = wounded(campaign)
    key = {"character": hero, "kind": "natural", "day": 3, "n": 1}
    HealingEvent.objects.create(**key, level_before="wounded", level_after="wounded")

    with pytest.raises(IntegrityError), transaction.atomic():
        HealingEvent.objects.create(**key, level_before="wounded", level_after="none")


def _replay(campaign, hero, chunks: list[int]) -> list[tuple]:
    HealingEvent.objects.filter(character=hero).delete()
    HealingCourse.objects.filter(character=hero).delete()
    campaign.time_advances.all().delete()
    Campaign.objects.filter(pk=campaign.pk).update(game_day=0)
    Character.objects.filter(pk=hero.pk).update(wound_level="incapacitated")
    for days in chunks:
        advance(campaign, days)
    return list(
        HealingEvent.objects.filter(character=hero)
        .order_by("day")
        .values_list("kind", "day", "total", "level_before", "level_after", "dice")
    )


def test_H58_one_catch_up_run_equals_daily_runs_and_the_same_seed_the_same_totals(
    monkeypatch, campaign
):
    monkeypatch.setattr(downtime, "new_seed", lambda: 4242)
    monkeypatch.setattr(downtime, "HANDLERS", (heal_due,))  # the real seeded dice
    hero = wounded(campaign, "incapacitated", character_points=0)

    catch_up = _replay(campaign, hero, [60])
    again = _replay(campaign, hero, [60])
    daily = _replay(campaign, hero, [1] * 60)

    assert catch_up  # at least the day-14 roll
    assert catch_up[0][:2] == ("natural", 14)
    assert catch_up == again == daily


def test_H66_only_ended_days_are_processed(monkeypatch, campaign):
    scripted(monkeypatch, {("natural", 3): STRENGTH_3D[7]})
    hero = wounded(campaign)

    advance(campaign, 3)  # the campaign is now in day 3
    assert natural(hero) == []
    assert HealingCourse.objects.get(character=hero).processed_through_day == 2

    advance(campaign, 1)  # day 3 has ended
    assert natural(hero) == [(3, 7, "none")]


def test_H67_a_flagged_death_freezes_healing_until_the_gm_decides(monkeypatch, campaign):
    scripted(monkeypatch, {("natural", 35): STRENGTH_3D[6]})
    hero = wounded(campaign, "mortally_wounded")

    advance(campaign, 36)
    course = HealingCourse.objects.get(character=hero)
    assert course.death_pending
    assert level(hero) == "mortally_wounded"

    advance(campaign, 164)  # to day 200: any further roll would fail the script
    assert natural(hero) == [(35, 6, "mortally_wounded")]
    status = healing_status(hero, Campaign.objects.get(pk=campaign.pk))
    assert "GM decides" in status.sentence


def test_H67_the_gm_keeps_him_alive_and_healing_starts_again_that_day(monkeypatch, campaign):
    scripted(monkeypatch, {("natural", 35): STRENGTH_3D[6], ("natural", 75): STRENGTH_3D[9]})
    hero = wounded(campaign, "mortally_wounded")
    advance(campaign, 40)

    healing.decide_death(campaign.pk, hero.pk, actor=campaign.created_by, confirm=False)
    advance(campaign, 36)  # day 40 + 35 = 75 has ended

    assert natural(hero)[-1] == (75, 9, "incapacitated")


def test_H68_incapacitated_worsening_is_mortal_counted_treated_next_roll_day_49(
    monkeypatch, campaign
):
    scripted(monkeypatch, {("natural", 14): STRENGTH_3D[6]})
    hero = wounded(campaign, "incapacitated")

    report = advance(campaign, 15).report

    assert level(hero) == "mortally_wounded"
    assert any("IH-29" in word for word in report[0]["words"])
    assert healing_status(hero, Campaign.objects.get(pk=campaign.pk)).next_roll_day == 49


def test_H69_without_wounded_twice_a_wounded_4_is_incapacitated(monkeypatch):
    campaign = campaign_with(wounded_twice_level=False)
    scripted(monkeypatch, {("natural", 3): STRENGTH_3D[4], ("natural", 17): STRENGTH_3D[9]})
    hero = wounded(campaign)

    advance(campaign, 18)

    assert natural(hero) == [(3, 4, "incapacitated"), (17, 9, "wounded")]


def test_H70_a_house_campaign_rolls_for_the_incapacitated_on_day_10(monkeypatch):
    campaign = campaign_with(days_per_week=5)
    scripted(monkeypatch, {("natural", 10): STRENGTH_3D[8]})
    hero = wounded(campaign, "incapacitated")

    advance(campaign, 11)

    assert natural(hero) == [(10, 8, "incapacitated")]


def test_H72_cp_on_a_healing_roll_are_capped_at_2_and_deducted(monkeypatch, campaign):
    # 3D and two CP dice: 2 + 2 + Wild 3, CP dice 1 and 1 -> 9
    scripted(monkeypatch, {("natural", 3): [2, 2, 3, 1, 1]})
    hero = wounded(campaign, character_points=10)
    healing.set_cp_per_roll(campaign.pk, hero.pk, actor=hero.owner, cp=3)

    report = advance(campaign, 4).report

    assert len(report[0]["roll"]["character"]["cp"]) == 2
    hero.refresh_from_db()
    assert hero.character_points == 8
    assert hero.wound_level == "none"
    assert hero.ledger.filter(delta=-2).exists()


def test_H72_a_rules_companion_campaign_spends_no_cp_on_healing(campaign):
    rc = campaign_with(RuleSet.preset("rc"))
    hero = wounded(rc, character_points=10)

    with pytest.raises(HealingError, match="no Character Points"):
        healing.set_cp_per_roll(rc.pk, hero.pk, actor=hero.owner, cp=2)


def test_droids_and_the_healthy_are_not_healed(monkeypatch, campaign):
    scripted(monkeypatch, {})
    CharacterFactory(campaign=campaign, wound_level="none")

    advance(campaign, 10)

    assert not HealingEvent.objects.exists()


def test_a_new_wound_on_the_sheet_restarts_the_period(monkeypatch, campaign):
    scripted(monkeypatch, {("natural", 5): STRENGTH_3D[6]})
    hero = wounded(campaign)
    advance(campaign, 2)
    Character.objects.filter(pk=hero.pk).update(wound_level="wounded_twice")  # a fight on day 2

    advance(campaign, 5)  # the day-3 roll of the old wound is not made; day 2 + 3 is

    assert natural(hero) == [(5, 6, "wounded_twice")]


# --- Bacta (§8) ---------------------------------------------------------------------------------
def _bacta(monkeypatch, campaign, hero, time_faces, *, medicine=True, code="4D", actor=None):
    monkeypatch.setattr(healing, "healing_dice", lambda seed, key: FixedDice(time_faces))
    return start_bacta(
        campaign.pk,
        hero.pk,
        actor=actor or campaign.created_by,
        medicine=medicine,
        code=DieCode.parse(code),
    )


@pytest.mark.parametrize(
    ("wound", "faces", "days", "bacta_times"),
    [
        ("wounded", [4], 0, "house"),
        ("wounded_twice", [3, 4], 0, "house"),
        ("incapacitated", [3, 4, 3, 4], 0, "house"),
        ("mortally_wounded", [4, 5], 9, "house"),
        ("mortally_wounded", [3], 3, "2e_std"),
    ],
)
def test_H60_bacta_time_by_level_and_option(monkeypatch, wound, faces, days, bacta_times):
    campaign = campaign_with(bacta_times=bacta_times)
    hero = wounded(campaign, wound)

    course = _bacta(monkeypatch, campaign, hero, faces)

    assert course.bacta_until == days
    status = healing_status(hero, Campaign.objects.get(pk=campaign.pk))
    assert status.sentence == f"In a bacta tank until day {days}."


def test_H60_a_successful_treatment_heals_him_when_the_time_is_up(monkeypatch, campaign):
    hero = wounded(campaign, "mortally_wounded")
    _bacta(monkeypatch, campaign, hero, [3])  # 2E: 1D days = 3
    # Very Easy 1D = 3; 4D: 4, 4, 4 and Wild 4 = 16
    scripted(monkeypatch, {("bacta", 3): [3, 4, 4, 4, 4]})

    advance(campaign, 3)
    assert level(hero) == "mortally_wounded"  # in the tank through day 3, no natural roll
    advance(campaign, 1)

    assert level(hero) == "none"
    event = HealingEvent.objects.get(character=hero, kind="bacta")
    assert (event.day, event.total, event.level_after) == (3, 16, "none")
    assert HealingCourse.objects.get(character=hero).bacta_until is None


@pytest.mark.parametrize(
    ("wound", "after", "pending"),
    [
        ("wounded", "incapacitated", False),
        ("wounded_twice", "mortally_wounded", False),
        ("incapacitated", "incapacitated", True),  # +2 levels is death: flagged for the GM
    ],
)
def test_H61_an_untrained_failure_raises_the_wound_by_two(
    monkeypatch, campaign, wound, after, pending
):
    hero = wounded(campaign, wound)
    course = _bacta(monkeypatch, campaign, hero, [6, 6, 6, 6], medicine=False, code="2D")
    # Heroic 9D = 9 x 6 = 54 against 2D: 2 and Wild 3 = 5
    scripted(monkeypatch, {("bacta", course.bacta_until): [6] * 9 + [2, 3]})

    advance(campaign, 2)

    assert level(hero) == after
    assert HealingCourse.objects.get(character=hero).death_pending is pending


def test_a_trained_doctors_failure_changes_nothing(monkeypatch, campaign):
    hero = wounded(campaign, "wounded")
    _bacta(monkeypatch, campaign, hero, [4], code="1D")  # 4 hours: ends on day 0
    scripted(monkeypatch, {("bacta", 0): [5, 2]})  # Very Easy 1D = 5 against Wild Die 2

    advance(campaign, 1)

    assert level(hero) == "wounded"
    assert HealingEvent.objects.get(kind="bacta").words.endswith("failed")


# --- Bad input ----------------------------------------------------------------------------------
def test_bacta_for_an_unwounded_character_is_refused(campaign):
    hero = CharacterFactory(campaign=campaign)

    with pytest.raises(HealingError, match="nothing to heal"):
        start_bacta(campaign.pk, hero.pk, actor=campaign.created_by, medicine=True, code=DieCode(4))
    assert not HealingCourse.objects.exists()


def test_a_player_cannot_put_another_players_character_in_bacta(campaign):
    hero = wounded(campaign)
    other = MembershipFactory(campaign=campaign).user

    with pytest.raises(HealingError, match="player or the GM"):
        start_bacta(campaign.pk, hero.pk, actor=other, medicine=True, code=DieCode(4))
    assert not HealingCourse.objects.exists()


def test_a_second_tank_at_once_is_refused(monkeypatch, campaign):
    hero = wounded(campaign, "mortally_wounded")
    _bacta(monkeypatch, campaign, hero, [3])

    with pytest.raises(HealingError, match="already in a bacta tank until day 3"):
        _bacta(monkeypatch, campaign, hero, [3])
    assert HealingEvent.objects.filter(kind="bacta_time").count() == 1


def test_the_gm_alone_decides_a_death(campaign):
    hero = wounded(campaign, "mortally_wounded")
    HealingCourse.objects.create(
        character=hero, seed=1, level="mortally_wounded", death_pending=True
    )

    with pytest.raises(HealingError, match="GM"):
        healing.decide_death(campaign.pk, hero.pk, actor=hero.owner, confirm=True)
    assert level(hero) == "mortally_wounded"


# --- The sheet ----------------------------------------------------------------------------------
def url(name, hero):
    return reverse(f"characters:{name}", args=[hero.campaign_id, hero.pk])


def test_the_sheet_loads_the_healing_panel_with_the_next_roll_day(client, campaign):
    hero = wounded(campaign)
    client.force_login(hero.owner)

    sheet = client.get(hero.get_absolute_url())
    panel = client.get(url("healing", hero), HTTP_HX_REQUEST="true")

    assert url("healing", hero) in sheet.content.decode()
    assert "Resting: next healing roll on day 3." in panel.content.decode()
    assert "Into a bacta tank" in panel.content.decode()


def test_the_player_puts_his_character_in_bacta_from_the_sheet(monkeypatch, client, campaign):
    hero = wounded(campaign, "mortally_wounded")
    monkeypatch.setattr(healing, "healing_dice", lambda seed, key: FixedDice([5]))
    client.force_login(hero.owner)

    response = client.post(
        url("healing_bacta", hero), {"code": "3D+1", "medicine": "on"}, HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 200
    assert "In a bacta tank until day 5." in response.content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"code": "4D\x00"},
        {"code": "999D"},
        {"code": "9" * 5000},
        {"code": ""},
        {"code": "-2D"},
    ],
)
def test_bad_treatment_codes_are_refused_with_a_message(client, campaign, data):
    hero = wounded(campaign)
    client.force_login(hero.owner)

    response = client.post(url("healing_bacta", hero), data, HTTP_HX_REQUEST="true")

    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not HealingCourse.objects.exists()


def test_bacta_for_a_healthy_character_says_why(client, campaign):
    hero = CharacterFactory(campaign=campaign)
    client.force_login(hero.owner)

    response = client.post(url("healing_bacta", hero), {"code": "4D"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 400
    assert "nothing to heal" in response.content.decode()
    assert not HealingCourse.objects.exists()


def test_a_player_posting_bacta_for_another_players_character_is_forbidden(client, campaign):
    hero = wounded(campaign)
    other = MembershipFactory(campaign=campaign, role=Membership.Role.PLAYER).user
    client.force_login(other)

    response = client.post(url("healing_bacta", hero), {"code": "4D", "medicine": "on"})

    assert response.status_code == 403
    assert not HealingCourse.objects.exists()


@pytest.mark.parametrize("cp", ["-1", "100", "99999999999999999999", "two", "1\x00"])
def test_bad_cp_per_roll_is_refused(client, campaign, cp):
    hero = wounded(campaign)
    client.force_login(hero.owner)

    response = client.post(url("healing_cp", hero), {"cp": cp}, HTTP_HX_REQUEST="true")

    assert response.status_code == 400
    assert not HealingCourse.objects.exists()


def test_the_advance_report_shows_each_healing_roll_with_its_dice(monkeypatch, client, campaign):
    scripted(monkeypatch, {("natural", 3): STRENGTH_3D[7]})
    hero = wounded(campaign, name="Rook")
    client.force_login(campaign.created_by)

    response = client.post(
        reverse("characters:advance", args=[campaign.pk]), {"days": 4, "from_day": 0}, follow=True
    )

    page = response.content.decode()
    # Under Rook's heading: the report groups its lines by character.
    assert "Natural healing roll as day 3 ended: Wounded → Healthy" in page
    assert page.index("Rook") < page.index("Natural healing roll as day 3 ended")
    assert "Strength 3D: 7; healed." in page
    assert page.count('class="die') >= 3
    assert level(hero) == "none"


def test_the_healing_panel_ids_do_not_clash_with_the_roll_panels(client):
    """The panel loads into the sheet, whose roll panel has ``id_cp``: two elements with one id
    broke the roll panel (found by the browser suite)."""
    hero = CharacterFactory(wound_level="wounded")
    client.force_login(hero.owner)
    panel = client.get(url("healing", hero), HTTP_HX_REQUEST="true").content.decode()
    assert 'id="id_' not in panel  # the roll panel's form uses Django's default ids
    assert 'id="healing-cp"' in panel and 'id="healing-code"' in panel


# --- Activity (H-57) and [RC] Accelerate Healing (H-59) through the job -------------------------
def _pools(hero) -> list[tuple[int, str, int]]:
    return [
        (e.day, e.dice["strength"]["pool"], e.total)
        for e in HealingEvent.objects.filter(character=hero, kind="natural").order_by("day", "n")
    ]


def _set_activity(campaign, hero, activity):
    campaign.refresh_from_db()
    healing.set_activity(campaign.pk, hero.pk, actor=hero.owner, activity=activity)


def test_H57_active_from_day_1_rolls_on_day_3_with_2D(monkeypatch, campaign):
    scripted(monkeypatch, {("natural", 3): [3, 4]})
    hero = wounded(campaign)
    _set_activity(campaign, hero, "active")  # day 0: the wound's day does not count (IH-17)

    advance(campaign, 4)

    assert _pools(hero) == [(3, "2D", 7)]
    assert level(hero) == "none"


def test_H57_easy_throughout_rolls_on_day_6_with_4D(monkeypatch, campaign):
    script = scripted(monkeypatch, {("natural", 6): [1, 1, 2, 3]})
    hero = wounded(campaign)
    _set_activity(campaign, hero, "easy")

    advance(campaign, 6)
    assert _pools(hero) == []  # not on day 3: taking it easy doubles the interval
    advance(campaign, 1)

    assert _pools(hero) == [(6, "4D", 7)]
    assert script.keys == ["natural:6:1"]


def test_H57_rest_then_one_active_day_spoils_the_period(monkeypatch, campaign):
    scripted(monkeypatch, {("natural", 3): [3, 4]})
    hero = wounded(campaign)
    _set_activity(campaign, hero, "rest")

    advance(campaign, 3)  # days 0-2 ended at rest
    _set_activity(campaign, hero, "active")  # day 3
    advance(campaign, 1)

    assert _pools(hero) == [(3, "2D", 7)]


def test_an_activity_for_a_processed_day_cannot_be_entered(campaign):
    hero = wounded(campaign)
    course = healing.set_activity(campaign.pk, hero.pk, actor=hero.owner, activity="easy")
    course.processed_through_day = 5
    course.save()
    with pytest.raises(HealingError, match="already been processed"):
        healing.set_activity(campaign.pk, hero.pk, actor=hero.owner, activity="rest")


@pytest.mark.parametrize("bad", ["", "sleep", "REST", "rest\x00"])
def test_a_bad_activity_is_refused(campaign, bad):
    hero = wounded(campaign)
    with pytest.raises(HealingError, match="rest, easy or active"):
        healing.set_activity(campaign.pk, hero.pk, actor=hero.owner, activity=bad)
    assert not HealingCourse.objects.exists()


def rc_with_wounded_twice() -> Campaign:
    return campaign_with(RuleSet.preset("rc", wounded_twice_level=True))


def test_H59_accelerate_healing_gives_two_rolls_at_plus_2_on_a_due_day(monkeypatch):
    campaign = rc_with_wounded_twice()
    script = scripted(monkeypatch, {("natural", 3): STRENGTH_3D[5]})
    hero = wounded(campaign, "wounded_twice")
    advance(campaign, 3)
    campaign.refresh_from_db()
    healing.mark_accelerate(campaign.pk, hero.pk, actor=campaign.created_by)  # day 3

    report = advance(campaign, 1).report

    assert script.keys == ["natural:3:1", "natural:3:2"]
    events = HealingEvent.objects.filter(character=hero, kind="natural").order_by("n")
    assert [(e.n, e.total, e.level_before, e.level_after) for e in events] == [
        (1, 7, "wounded_twice", "wounded"),
        (2, 7, "wounded", "none"),
    ]
    assert level(hero) == "none"
    lines = [line for line in report if line.get("healing") == "natural"]
    assert len(lines) == 2 and all("+ 2 Accelerate Healing" in line["words"][0] for line in lines)


def test_H59_without_accelerate_healing_a_5_leaves_him_wounded_twice(monkeypatch):
    campaign = rc_with_wounded_twice()
    scripted(monkeypatch, {("natural", 3): STRENGTH_3D[5]})
    hero = wounded(campaign, "wounded_twice")

    advance(campaign, 4)

    assert natural(hero) == [(3, 5, "wounded_twice")]


def test_H59_accelerate_healing_on_a_day_no_roll_is_due_does_nothing(monkeypatch):
    campaign = rc_with_wounded_twice()
    script = scripted(monkeypatch, {("natural", 3): STRENGTH_3D[5]})
    hero = wounded(campaign, "wounded_twice")
    advance(campaign, 1)
    campaign.refresh_from_db()
    healing.mark_accelerate(campaign.pk, hero.pk, actor=campaign.created_by)  # day 1

    advance(campaign, 3)

    assert script.keys == ["natural:3:1"]
    assert natural(hero) == [(3, 5, "wounded_twice")]


def test_accelerate_healing_is_the_rules_companions_and_the_gms_mark(campaign):
    hero = wounded(campaign)
    with pytest.raises(HealingError, match="Rules Companion"):
        healing.mark_accelerate(campaign.pk, hero.pk, actor=campaign.created_by)
    rc = campaign_with(RuleSet.preset("rc"))
    other = wounded(rc)
    with pytest.raises(HealingError, match="Only the campaign's GM"):
        healing.mark_accelerate(rc.pk, other.pk, actor=other.owner)
    assert not HealingCourse.objects.exists()
