"""The calendar, awards, advancement and skill-edit pages (characters/calendar_views.py and
characters/advancement_views.py): what each member sees, what the GM does, and bad input,
which gets the form with its reason and changes nothing (run these on PostgreSQL too:
``scripts/test.sh --no-cov characters/tests/test_calendar_views.py``)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from kombu.exceptions import OperationalError as BrokerDown

from campaigns.models import Adventure, Campaign
from campaigns.tests.factories import MembershipFactory
from characters import live, tasks
from characters.advancement import refuse, request_advancement
from characters.models import Advancement, LedgerEntry, Skill, SkillEdit, TimeAdvance
from characters.services import change_balance
from characters.tasks import advance_time
from characters.tests.advancement_fixtures import (
    campaign_for,
    character_with,
    ended_adventure,
    snapshot,
    used_in,
)
from characters.tests.factories import NPCFactory

celery_app = advance_time.app  # config.celery's app (tests may not import config: import-linter)

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
Status = Advancement.Status


# ---------------------------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def eager():
    """Celery as ``make run`` has it without Redis: the advance runs in the request."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


class Publisher:
    """Stands in for the broker: records what was published and runs nothing (the advance
    stays queued), or fails as a broker that is down."""

    def __init__(self, fail: Exception | None = None):
        self.fail = fail
        self.published: list = []

    def __call__(self, args=None, kwargs=None, **options):
        if self.fail is not None:
            raise self.fail
        self.published.append(args)


@pytest.fixture
def broker(monkeypatch):
    publisher = Publisher()
    monkeypatch.setattr(tasks.advance_time, "apply_async", publisher)
    return publisher


@pytest.fixture
def table():
    """A 2e campaign on day 35 of 8 BBY: the GM, Kira (the player's, 10 CP, blaster 4D+1,
    dodge 3D) and two more player characters."""
    campaign = campaign_for("2e", game_day=35, era="8 BBY")
    kira = character_with(
        campaign, cp=10, name="Kira", skills=[("blaster", "4D+1"), ("dodge", "3D")]
    )
    tomas = character_with(campaign, cp=0, name="Tomas")
    vell = character_with(campaign, cp=0, name="Vell")
    return campaign, kira, tomas, vell


def as_gm(client, campaign):
    client.force_login(campaign.created_by)
    return client


def as_player(client, character):
    client.force_login(character.owner)
    return client


def url(name, campaign, character=None):
    args = [campaign.pk] if character is None else [campaign.pk, character.pk]
    return reverse(f"characters:{name}", args=args)


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode()).strip()


# ---------------------------------------------------------------------------------------------
# The calendar
# ---------------------------------------------------------------------------------------------
def test_every_member_sees_the_date_with_the_rulesets_weeks_and_months(client, table):
    campaign, kira, *_ = table
    page = text(as_player(client, kira).get(url("calendar", campaign)))
    assert "Day 35, 8 BBY" in page
    assert "Week 6 · month 2, day 1 · 7-day weeks, 35-day months" in page


def test_the_house_calendar_has_five_day_weeks(client):
    campaign = campaign_for("house", game_day=35)
    page = text(as_gm(client, campaign).get(url("calendar", campaign)))
    assert "Day 35" in page and "Week 8 · month 2, day 1 · 5-day weeks" in page


def test_a_player_sees_the_running_adventure_but_no_gm_controls(client, table):
    campaign, kira, *_ = table
    Adventure.objects.create(campaign=campaign, name="The Tocarra Job", start_day=30)
    page = text(as_player(client, kira).get(url("calendar", campaign)))
    assert "The Tocarra Job" in page and "running since day 30" in page
    for gm_only in ("End The Tocarra Job", 'id="advance-form"', "Calendar settings"):
        assert gm_only not in page


def test_the_gm_names_the_era_and_asks_to_approve_improvements(client, table):
    campaign, *_ = table
    response = as_gm(client, campaign).post(
        url("calendar_settings", campaign), {"era": "4 ABY", "approve_advancement": "on"}
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.era, campaign.approve_advancement) == ("4 ABY", True)


@pytest.mark.parametrize(
    ("era", "message"),
    [("x" * 41, "at most 40 characters"), ("a\x00b", "Null characters are not allowed")],
)
def test_a_bad_era_is_a_form_error_and_changes_nothing(client, table, era, message):
    campaign, *_ = table
    response = as_gm(client, campaign).post(url("calendar_settings", campaign), {"era": era})
    assert response.status_code == 400
    assert message in text(response)
    campaign.refresh_from_db()
    assert campaign.era == "8 BBY"


def test_players_cannot_change_the_calendar(client, table):
    campaign, kira, *_ = table
    client = as_player(client, kira)
    for name, data in [
        ("calendar_settings", {"era": "1 ABY"}),
        ("adventure_start", {"name": "Mine"}),
        ("advance", {"days": 3, "from_day": 35}),
    ]:
        assert client.post(url(name, campaign), data).status_code == 403
    campaign.refresh_from_db()
    assert (campaign.era, campaign.game_day) == ("8 BBY", 35)
    assert not Adventure.objects.exists()


def test_the_gm_starts_an_adventure_today(client, table):
    campaign, *_ = table
    response = as_gm(client, campaign).post(
        url("adventure_start", campaign), {"name": "The Tocarra Job"}
    )
    assert response.status_code == 302
    adventure = Adventure.objects.get()
    assert (adventure.name, adventure.start_day, adventure.end_day) == ("The Tocarra Job", 35, None)


def test_a_second_adventure_while_one_runs_is_refused_with_the_reason(client, table):
    campaign, *_ = table
    Adventure.objects.create(campaign=campaign, name="The Tocarra Job", start_day=30)
    response = as_gm(client, campaign).post(url("adventure_start", campaign), {"name": "Another"})
    assert response.status_code == 400
    assert "“The Tocarra Job” is still running: end it first." in text(response)
    assert Adventure.objects.count() == 1


@pytest.mark.parametrize("name", ["", "   ", "x" * 121, "a\x00b"])
def test_a_bad_adventure_name_is_a_form_error(client, table, name):
    campaign, *_ = table
    response = as_gm(client, campaign).post(url("adventure_start", campaign), {"name": name})
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert not Adventure.objects.exists()


def test_ending_the_adventure_leads_to_the_awards_and_a_double_click_ends_it_once(client, table):
    campaign, *_ = table
    adventure = Adventure.objects.create(campaign=campaign, name="The Tocarra Job", start_day=30)
    client = as_gm(client, campaign)
    for _ in range(2):
        response = client.post(url("adventure_end", campaign), {"adventure": adventure.pk})
        assert response.status_code == 302
        assert response.url == url("awards", campaign)
    adventure.refresh_from_db()
    assert adventure.end_day == 35


@pytest.mark.parametrize("adventure", ["", "abc", "0", "99999999"])
def test_ending_no_adventure_is_refused_with_a_message(client, table, adventure):
    campaign, *_ = table
    response = as_gm(client, campaign).post(
        url("adventure_end", campaign), {"adventure": adventure}
    )
    assert response.status_code == 400
    assert re.search(r"Nothing ended|out of date", text(response))


# ---------------------------------------------------------------------------------------------
# The end of an adventure: awards
# ---------------------------------------------------------------------------------------------
def awards_data(rows, reason="End of the Tocarra Job"):
    data = {
        "reason": reason,
        "awards-TOTAL_FORMS": str(len(rows)),
        "awards-INITIAL_FORMS": str(len(rows)),
    }
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"awards-{i}-{key}"] = value
    return data


def balances(*characters):
    out = []
    for c in characters:
        c.refresh_from_db()
        out.append((c.character_points, c.force_points, c.dark_side_points))
    return out


def test_the_awards_page_offers_every_player_character_with_the_adventure_as_reason(client, table):
    campaign, _kira, _tomas, _vell = table
    NPCFactory(campaign=campaign, name="Captain Vorn")
    ended_adventure(campaign, 30, 35)
    page = text(as_gm(client, campaign).get(url("awards", campaign)))
    for name in ("Kira", "Tomas", "Vell"):
        assert f"<legend>{name} " in page
    assert "Captain Vorn" not in page
    assert 'value="End of The Tocarra Job"' in page
    assert "Kill bonus" not in page  # a House rule


def test_the_gm_awards_three_characters_at_once(client, table):
    campaign, kira, tomas, vell = table
    data = awards_data(
        [
            {"character": kira.pk, "cp": 5, "fp": 1},
            {"character": tomas.pk, "cp": 4, "reason": "Saved the ship"},
            {"character": vell.pk, "cp": 3, "dsp": 1},
        ]
    )
    response = as_gm(client, campaign).post(url("awards", campaign), data)
    assert response.status_code == 302
    assert balances(kira, tomas, vell) == [(15, 1, 0), (4, 0, 0), (3, 0, 1)]
    reasons = dict(
        LedgerEntry.objects.filter(character=tomas, currency="cp").values_list("delta", "reason")
    )
    assert reasons == {4: "Saved the ship"}
    assert LedgerEntry.objects.get(character=vell, currency="dsp").reason == (
        "End of the Tocarra Job"
    )


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"cp": "-3"}, "greater than or equal to 0"),
        ({"cp": "abc"}, "Enter a whole number"),
        ({"fp": "100000"}, "less than or equal to 10000"),
        ({"reason": "x" * 200}, "at most"),
        ({"reason": "a\x00b"}, "Null characters"),
    ],
)
def test_one_bad_row_shows_its_error_there_and_nothing_is_awarded(client, table, bad, message):
    campaign, kira, tomas, vell = table
    before = snapshot(kira, tomas, vell)
    rows = [{"character": c.pk, "cp": 2} for c in (kira, tomas, vell)]
    rows[1].update(bad)
    response = as_gm(client, campaign).post(url("awards", campaign), awards_data(rows))
    assert response.status_code == 400
    page = text(response)
    tomas_row = page[page.index("<legend>Tomas") : page.index("<legend>Vell")]
    assert message in tomas_row
    assert message not in page[page.index("<legend>Vell") :]
    assert snapshot(kira, tomas, vell) == before


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"cp": 0}], "Nothing to award"),
        ([{"cp": 2}, {"cp": 1}], "one row only"),
    ],
)
def test_awards_that_make_no_sense_are_refused(client, table, rows, message):
    campaign, kira, tomas, vell = table
    before = snapshot(kira, tomas, vell)
    data = awards_data([{"character": kira.pk, **row} for row in rows])
    response = as_gm(client, campaign).post(url("awards", campaign), data)
    assert response.status_code == 400
    assert message in text(response)
    assert snapshot(kira, tomas, vell) == before


def test_a_character_of_another_campaign_cannot_be_slipped_into_a_row(client, table):
    campaign, kira, *_ = table
    stranger = character_with(campaign_for("2e"), cp=0)
    data = awards_data([{"character": kira.pk, "cp": 2}, {"character": stranger.pk, "cp": 50}])
    response = as_gm(client, campaign).post(url("awards", campaign), data)
    assert response.status_code == 400
    assert balances(kira, stranger) == [(10, 0, 0), (0, 0, 0)]


def test_the_house_kill_bonus_has_its_own_ledger_line(client):
    campaign = campaign_for("house")
    kira = character_with(campaign, cp=0, name="Kira")
    page = text(as_gm(client, campaign).get(url("awards", campaign)))
    assert "Kill bonus CP" in page
    data = awards_data([{"character": kira.pk, "cp": 3, "kill_bonus": 2}], reason="Ord Mantell")
    assert client.post(url("awards", campaign), data).status_code == 302
    lines = LedgerEntry.objects.filter(character=kira).order_by("pk")
    assert [(e.delta, e.reason) for e in lines] == [
        (3, "Ord Mantell"),
        (2, "Kill bonus: Ord Mantell"),
    ]


def test_a_kill_bonus_outside_house_rules_is_not_read(client, table):
    campaign, kira, *_ = table
    data = awards_data([{"character": kira.pk, "cp": 1, "kill_bonus": 50}])
    assert as_gm(client, campaign).post(url("awards", campaign), data).status_code == 302
    assert balances(kira) == [(11, 0, 0)]


# ---------------------------------------------------------------------------------------------
# Advancing time
# ---------------------------------------------------------------------------------------------
def test_the_gm_advances_time_and_sees_the_report_with_every_roll(client, table, eager):
    campaign, kira, *_ = table
    gm = campaign.created_by
    change_balance(kira, "cp", 30, "a big award", gm)
    request_advancement(kira, "skill", "blaster", actor=gm)  # 4 CP, 4 days
    request_advancement(kira, "attribute", "knowledge", actor=gm, species_maximum="4D")
    client = as_gm(client, campaign)
    response = client.post(url("advance", campaign), {"days": 250, "from_day": 35}, headers=HX)
    assert response.status_code == 200
    campaign.refresh_from_db()
    assert campaign.game_day == 285
    answer = text(response)
    assert 'id="advance-bar"' in answer and 'value="250"' in answer
    assert "Done: day 285 reached" in answer
    assert 'class="report-character-h">Kira <span' in answer  # the report, per character
    assert "Day 39</strong> · blaster 4D+1 → 4D+2" in answer
    assert "The GM rolled the species maximum 4D" in answer
    assert answer.count('class="die') >= 6  # both attribute rolls, every die
    assert 'id="game-date" aria-labelledby="game-date-h" hx-swap-oob="true"' in answer
    assert "Day 285, 8 BBY" in answer
    assert 'name="from_day" value="285"' in answer  # the next advance starts from the new date
    assert str(Skill.objects.get(character=kira, name="blaster").code) == "4D+2"


def test_without_htmx_the_advance_redirects_to_the_calendar_with_a_message(client, table, eager):
    campaign, *_ = table
    client = as_gm(client, campaign)
    response = client.post(url("advance", campaign), {"days": 3, "from_day": 35}, follow=True)
    assert "Advancing time from day 35 to day 38." in text(response)
    assert "Done: day 38 reached" in text(response)


@pytest.mark.parametrize("days", ["0", "-5", "abc", "3651", "", "2.5"])
def test_advancing_by_a_bad_number_of_days_is_refused_and_nothing_is_saved(
    client, table, broker, days
):
    campaign, *_ = table
    response = as_gm(client, campaign).post(
        url("advance", campaign), {"days": days, "from_day": 35}, headers=HX
    )
    assert response.status_code == 400
    answer = text(response)
    assert answer.startswith('<form id="advance-form"')
    assert "Advance by a whole number of days from 1 to 3,650." in answer
    assert not TimeAdvance.objects.exists()
    assert broker.published == []
    campaign.refresh_from_db()
    assert campaign.game_day == 35


def test_a_second_advance_while_one_is_under_way_is_refused_with_the_reason(client, table, broker):
    campaign, *_ = table
    client = as_gm(client, campaign)
    first = client.post(url("advance", campaign), {"days": 5, "from_day": 35}, headers=HX)
    assert first.status_code == 200
    assert "Waiting for a worker" in text(first)
    assert 'hx-trigger="every 1s"' in text(first)
    second = client.post(url("advance", campaign), {"days": 9, "from_day": 35}, headers=HX)
    assert second.status_code == 400
    assert "An advance to day 40 is already under way (0% done)" in text(second)
    assert TimeAdvance.objects.count() == 1 and len(broker.published) == 1


def test_a_double_click_finds_the_same_advance(client, table, broker):
    campaign, *_ = table
    client = as_gm(client, campaign)
    for _ in range(2):
        response = client.post(url("advance", campaign), {"days": 5, "from_day": 35}, headers=HX)
        assert response.status_code == 200
    assert TimeAdvance.objects.count() == 1 and len(broker.published) == 1


def test_the_broker_down_is_a_clear_message_and_nothing_changes(client, table, monkeypatch):
    campaign, *_ = table
    down = Publisher(fail=BrokerDown("Error 111 connecting to redis"))
    monkeypatch.setattr(tasks.advance_time, "apply_async", down)
    response = as_gm(client, campaign).post(
        url("advance", campaign), {"days": 5, "from_day": 35}, headers=HX
    )
    assert response.status_code == 400
    assert "The job queue cannot be reached, so time was not advanced" in text(response)
    assert not TimeAdvance.objects.exists()


def test_a_date_that_moved_since_the_page_was_shown_is_refused(client, table, broker):
    campaign, *_ = table
    response = as_gm(client, campaign).post(url("advance", campaign), {"days": 5, "from_day": 30})
    assert response.status_code == 400
    page = text(response)
    assert "The campaign&#x27;s date is now day 35, not day 30" in page
    assert 'name="from_day" value="35"' in page  # the form holds today's date again
    assert not TimeAdvance.objects.exists()


def test_the_progress_is_polled_until_done_and_an_unchanged_poll_is_a_204(client, table, broker):
    from characters.downtime import run_advance

    campaign, kira, *_ = table
    client = as_gm(client, campaign)
    client.post(url("advance", campaign), {"days": 5, "from_day": 35}, headers=HX)
    advance = TimeAdvance.objects.get()
    poll = f"{url('advance', campaign)}?advance={advance.pk}&seen=35-queued"
    assert as_player(client, kira).get(poll, headers=HX).status_code == 204
    run_advance(advance.pk)
    answer = client.get(poll, headers=HX)
    assert answer.status_code == 200
    assert "Done: day 40 reached" in text(answer)
    assert 'hx-trigger="every 1s"' not in text(answer)  # the polling stops
    assert "advance-form" not in text(answer)  # a player gets no GM form


def test_a_poll_for_another_campaigns_advance_is_a_404(client, table, broker):
    campaign, *_ = table
    other = campaign_for("2e")
    as_gm(client, other).post(url("advance", other), {"days": 5, "from_day": 0})
    advance = TimeAdvance.objects.get()
    MembershipFactory(campaign=campaign, user=other.created_by)
    response = client.get(f"{url('advance', campaign)}?advance={advance.pk}", headers=HX)
    assert response.status_code == 404


def test_a_player_never_sees_a_secret_npcs_improvement_in_the_report(client, table, eager):
    campaign, kira, *_ = table
    gm = campaign.created_by
    npc = NPCFactory(campaign=campaign, name="Inquisitor Vex", secret=True)
    change_balance(npc, "cp", 10, "seed", gm)
    Skill.objects.create(character=npc, name="lightsaber", code="5D", attribute="dexterity")
    request_advancement(npc, "skill", "lightsaber", actor=gm)
    request_advancement(kira, "skill", "dodge", actor=gm)
    as_gm(client, campaign).post(url("advance", campaign), {"days": 10, "from_day": 35})
    assert "Inquisitor Vex" in text(client.get(url("calendar", campaign)))
    page = text(as_player(client, kira).get(url("calendar", campaign)))
    assert "Kira <span" in page and "dodge 3D → 3D+1" in page
    assert "Inquisitor Vex" not in page and "lightsaber" not in page


# ---------------------------------------------------------------------------------------------
# Improving from the sheet
# ---------------------------------------------------------------------------------------------
def quote_of(client, campaign, character, **data):
    response = client.get(url("improve", campaign, character), data, headers=HX)
    assert response.status_code == 200
    return text(response)


def test_the_player_sees_the_cost_and_days_before_confirming(client, table):
    campaign, kira, *_ = table
    client = as_player(client, kira)
    answer = quote_of(client, campaign, kira, what="skill:blaster", teacher="on", extra_cp="0")
    assert answer.startswith('<div id="quote"')
    assert "blaster 4D+1 → 4D+2" in answer
    assert "4 Character Points" in answer and "4 days</strong> with a teacher" in answer
    assert "Used in the last adventure</dt><dd>no" in answer
    assert "ends on day 39" in answer
    assert 'name="confirm" value="skill:4:4"' in answer
    alone = quote_of(client, campaign, kira, what="skill:blaster", extra_cp="0")
    assert "8 days</strong> without a teacher" in alone
    assert not Advancement.objects.exists()  # looking costs nothing


def test_a_skill_used_in_the_last_adventure_needs_no_training(client, table):
    campaign, kira, *_ = table
    used_in(ended_adventure(campaign, 30, 35), kira, "blaster")
    answer = quote_of(as_player(client, kira), campaign, kira, what="skill:blaster", teacher="on")
    assert "none: done at once" in answer
    assert "Used in the last adventure</dt><dd>yes, in The Tocarra Job" in answer


def test_confirming_holds_the_cp_and_the_sheet_lists_the_training(client, table):
    campaign, kira, *_ = table
    client = as_player(client, kira)
    data = {"what": "skill:blaster", "teacher": "on", "extra_cp": "0", "confirm": "skill:4:4"}
    response = client.post(url("improve", campaign, kira), data)
    assert response.status_code == 302 and response.url == kira.get_absolute_url()
    kira.refresh_from_db()
    assert kira.character_points == 6
    made = Advancement.objects.get()
    assert (made.status, made.due_day, made.cp_cost) == (Status.TRAINING, 39, 4)
    piece = text(client.get(url("advancements", campaign, kira), headers=HX))
    assert "blaster 4D+1 → 4D+2" in piece and "until day 39" in piece


def test_with_approval_on_the_request_waits_for_the_gm(client, table):
    campaign, kira, *_ = table
    Campaign.objects.filter(pk=campaign.pk).update(approve_advancement=True)
    client = as_player(client, kira)
    answer = quote_of(client, campaign, kira, what="skill:blaster", teacher="on")
    assert "The GM approves it before training starts" in answer
    data = {"what": "skill:blaster", "teacher": "on", "confirm": "skill:4:4"}
    assert client.post(url("improve", campaign, kira), data).status_code == 302
    assert Advancement.objects.get().status == Status.AWAITING


def test_a_price_that_changed_is_shown_again_not_paid(client, table):
    campaign, kira, *_ = table
    data = {"what": "skill:blaster", "teacher": "on", "confirm": "skill:4:8"}
    response = as_player(client, kira).post(url("improve", campaign, kira), data)
    assert response.status_code == 400
    assert "The cost changed since you saw it" in text(response)
    assert not Advancement.objects.exists()


def test_without_javascript_the_first_post_only_shows_the_quote(client, table):
    campaign, kira, *_ = table
    data = {"what": "skill:blaster", "teacher": "on", "preview": "1"}
    response = as_player(client, kira).post(url("improve", campaign, kira), data)
    assert response.status_code == 200
    assert "4 Character Points" in text(response)
    assert not Advancement.objects.exists()


@pytest.mark.parametrize(
    ("setup", "data", "message"),
    [
        (
            "pip",
            {"what": "skill:blaster", "teacher": "on", "confirm": "skill:5:5"},
            "already asked for",
        ),
        (
            "none",
            {"what": "attribute:dexterity", "teacher": "on", "confirm": "attribute:30:210"},
            "not enough Character Points: 30 needed, 10 held",
        ),
        ("none", {"what": "skill:lightsaber", "confirm": "x"}, "Select a valid choice"),
        ("none", {"what": "skill:blaster", "extra_cp": "-1", "confirm": "x"}, "greater than"),
        ("none", {"what": "skill:blaster", "extra_cp": "abc"}, "Enter a whole number"),
        ("none", {"what": "new_skill:", "name": "x" * 81, "confirm": "x"}, "at most 80"),
        ("none", {"what": "new_skill:", "name": "a\x00b", "confirm": "x"}, "Null characters"),
        (
            "none",
            {"what": "new_skill:", "name": "", "confirm": "x"},
            "Not possible: name the new skill.",
        ),
        ("none", {"what": "new_skill:", "name": "dodge", "confirm": "x"}, "already has dodge"),
    ],
)
def test_a_request_the_rules_or_the_form_refuse_changes_nothing(
    client, table, setup, data, message
):
    campaign, kira, *_ = table
    if setup == "pip":
        request_advancement(kira, "skill", "blaster", actor=kira.owner)
    before = snapshot(kira)
    response = as_player(client, kira).post(url("improve", campaign, kira), data)
    assert response.status_code == 400
    assert message in text(response)
    assert snapshot(kira) == before


def test_move_above_the_species_maximum_is_refused_in_words(client, table):
    campaign, kira, *_ = table
    from characters.models import Character

    Character.objects.filter(pk=kira.pk).update(move=12)  # a human's maximum
    answer = quote_of(as_player(client, kira), campaign, kira, what="move:Move", teacher="on")
    assert "Not possible:" in answer and "maximum" in answer
    assert "confirm" not in answer


def test_a_second_pip_between_adventures_is_refused_in_words(client, table, eager):
    campaign, kira, *_ = table
    request_advancement(kira, "skill", "dodge", actor=kira.owner)  # 3 CP, 3 days
    as_gm(client, campaign).post(url("advance", campaign), {"days": 5, "from_day": 35})
    answer = quote_of(as_player(client, kira), campaign, kira, what="skill:dodge", teacher="on")
    assert "Not possible:" in answer and "one pip" in answer


def test_a_player_cannot_improve_another_players_character(client, table):
    campaign, kira, tomas, _ = table
    client = as_player(client, kira)
    assert client.get(url("improve", campaign, tomas)).status_code == 403
    data = {"what": "attribute:dexterity", "teacher": "on", "confirm": "attribute:30:210"}
    assert client.post(url("improve", campaign, tomas), data).status_code == 403
    assert not Advancement.objects.exists()


def test_the_gm_gives_the_species_maximum_of_an_unknown_species(client, table):
    campaign, *_ = table
    odd = character_with(campaign, cp=40, name="Zed", species="Unlisted")
    client = as_gm(client, campaign)
    answer = quote_of(client, campaign, odd, what="attribute:knowledge", teacher="on")
    assert "It waits for the GM to give the species maximum for Knowledge" in answer
    given = quote_of(
        client, campaign, odd, what="attribute:knowledge", teacher="on", species_maximum="4D"
    )
    assert "rolled against the GM&#x27;s roll of the species maximum 4D" in given


# ---------------------------------------------------------------------------------------------
# The sheet's list of requests, and withdrawing one
# ---------------------------------------------------------------------------------------------
def test_the_sheet_loads_the_requests_with_their_status(client, table):
    campaign, kira, *_ = table
    Campaign.objects.filter(pk=campaign.pk).update(approve_advancement=True)
    gm = campaign.created_by
    waiting = request_advancement(kira, "skill", "dodge", actor=kira.owner)
    refused = request_advancement(kira, "skill", "blaster", actor=kira.owner)
    refuse(refused, actor=gm, reason="No teacher on Tatooine")
    client = as_player(client, kira)
    sheet = text(client.get(kira.get_absolute_url()))
    assert f'hx-get="{url("advancements", campaign, kira)}" hx-trigger="load"' in sheet
    piece = text(client.get(url("advancements", campaign, kira), headers=HX))
    assert "awaiting the GM" in piece and f'value="{waiting.pk}"' in piece
    assert "refused</span>: No teacher on Tatooine" in piece
    assert 'hx-trigger="htmx:oobAfterSwap from:body delay:300ms"' in piece


def test_another_player_sees_no_requests_or_improve_link_on_a_sheet(client, table):
    campaign, kira, tomas, _ = table
    client = as_player(client, tomas)
    sheet = text(client.get(kira.get_absolute_url()))
    assert "Improve" not in sheet and url("advancements", campaign, kira) not in sheet
    assert client.get(url("advancements", campaign, kira)).status_code == 403


def test_the_piece_reloads_the_sheet_once_its_codes_changed(client, table, eager):
    campaign, kira, *_ = table
    client = as_player(client, kira)
    piece = client.get(url("advancements", campaign, kira), headers=HX)
    held = re.search(r'hx-get="([^"]+sheet=[0-9a-f]+)"', piece.content.decode()).group(1)
    held = held.replace("&amp;", "&")
    assert client.get(held, headers=HX).get("HX-Refresh") is None  # nothing changed
    request_advancement(kira, "skill", "blaster", actor=kira.owner)
    assert client.get(held, headers=HX).get("HX-Refresh") is None  # training: same codes
    as_gm(client, campaign).post(url("advance", campaign), {"days": 5, "from_day": 35})
    again = as_player(client, kira).get(held, headers=HX)
    assert again["HX-Refresh"] == "true"


def test_a_completed_advancement_bumps_the_live_channel(
    client, table, eager, django_capture_on_commit_callbacks
):
    campaign, kira, *_ = table
    request_advancement(kira, "skill", "blaster", actor=kira.owner)
    before = live.versions(campaign.pk)
    with django_capture_on_commit_callbacks(execute=True):
        as_gm(client, campaign).post(url("advance", campaign), {"days": 5, "from_day": 35})
    after = live.versions(campaign.pk)
    assert after["public"] > before["public"] and after["gm"] > before["gm"]


def test_the_player_withdraws_a_request_awaiting_the_gm_and_gets_the_cp_back(client, table):
    campaign, kira, *_ = table
    Campaign.objects.filter(pk=campaign.pk).update(approve_advancement=True)
    made = request_advancement(kira, "skill", "blaster", actor=kira.owner)
    response = as_player(client, kira).post(
        url("withdraw", campaign, kira), {"advancement": made.pk}, headers=HX
    )
    assert response.status_code == 200
    assert "withdrawn" in text(response)
    kira.refresh_from_db()
    assert kira.character_points == 10
    made.refresh_from_db()
    assert made.status == Status.WITHDRAWN


def test_withdrawing_a_request_in_training_is_refused_in_place(client, table):
    campaign, kira, *_ = table
    made = request_advancement(kira, "skill", "blaster", actor=kira.owner)
    before = snapshot(kira)
    response = as_player(client, kira).post(
        url("withdraw", campaign, kira), {"advancement": made.pk}, headers=HX
    )
    assert response.status_code == 400
    answer = text(response)
    assert answer.startswith('<section class="card advancements')  # the list stays
    assert (
        '<div class="alert error" role="alert" tabindex="-1"><p>Not withdrawn: this request'
        in answer
    )
    assert "is already training" in answer
    assert snapshot(kira) == before


def test_withdrawing_another_characters_request_is_a_404(client, table):
    campaign, kira, tomas, _ = table
    Campaign.objects.filter(pk=campaign.pk).update(approve_advancement=True)
    made = request_advancement(kira, "skill", "blaster", actor=kira.owner)
    response = as_player(client, tomas).post(
        url("withdraw", campaign, tomas), {"advancement": made.pk}
    )
    assert response.status_code == 404
    made.refresh_from_db()
    assert made.status == Status.AWAITING


# ---------------------------------------------------------------------------------------------
# The GM's approvals
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def waiting(table):
    campaign, kira, *_ = table
    Campaign.objects.filter(pk=campaign.pk).update(approve_advancement=True)
    return request_advancement(kira, "skill", "blaster", actor=kira.owner)


def decide(client, campaign, made, decision, **data):
    payload = {"advancement": made.pk, "decision": decision, **data}
    return as_gm(client, campaign).post(url("approvals", campaign), payload)


def test_the_gm_sees_the_waiting_request_and_approves_it(client, table, waiting):
    campaign, _kira, *_ = table
    page = text(as_gm(client, campaign).get(url("approvals", campaign)))
    assert "Kira: blaster 4D+1 → 4D+2" in page and "4 CP held" in page
    response = decide(client, campaign, waiting, "approve")
    assert response.status_code == 302
    waiting.refresh_from_db()
    assert (waiting.status, waiting.due_day) == (Status.TRAINING, 39)


def test_the_gm_refuses_with_a_reason_and_the_cp_come_back(client, table, waiting):
    campaign, kira, *_ = table
    response = decide(client, campaign, waiting, "refuse", reason="No teacher here")
    assert response.status_code == 302
    waiting.refresh_from_db()
    assert (waiting.status, waiting.reason) == (Status.REFUSED, "No teacher here")
    kira.refresh_from_db()
    assert kira.character_points == 10


def test_refusing_without_a_reason_is_a_form_error(client, table, waiting):
    campaign, kira, *_ = table
    before = snapshot(kira)
    response = decide(client, campaign, waiting, "refuse", reason="  ")
    assert response.status_code == 400
    assert "Say why: the player sees the reason." in text(response)
    assert snapshot(kira) == before


def test_approving_an_already_refused_request_is_refused_and_changes_nothing(
    client, table, waiting
):
    campaign, kira, *_ = table
    refuse(waiting, actor=campaign.created_by, reason="No")
    before = snapshot(kira)
    response = decide(client, campaign, waiting, "approve")
    assert response.status_code == 400
    assert "is already refused; only a request awaiting the GM can be approved" in text(response)
    assert snapshot(kira) == before


def test_a_request_waiting_for_the_species_maximum_gets_it_from_the_gm(client, table):
    campaign, *_ = table
    odd = character_with(campaign, cp=40, name="Zed", species="Unlisted")
    made = request_advancement(odd, "attribute", "knowledge", actor=odd.owner)
    page = text(as_gm(client, campaign).get(url("approvals", campaign)))
    assert "It waits for you to give the species maximum" in page
    missing = decide(client, campaign, made, "approve")
    assert missing.status_code == 400 and "give the species maximum" in text(missing).lower()
    bad = decide(client, campaign, made, "approve", species_maximum="4Q")
    assert bad.status_code == 400
    made.refresh_from_db()
    assert made.status == Status.AWAITING
    assert decide(client, campaign, made, "approve", species_maximum="4D").status_code == 302
    made.refresh_from_db()
    assert made.status == Status.TRAINING


def test_players_cannot_decide(client, table, waiting):
    campaign, kira, *_ = table
    client = as_player(client, kira)
    assert client.get(url("approvals", campaign)).status_code == 403
    payload = {"advancement": waiting.pk, "decision": "approve"}
    assert client.post(url("approvals", campaign), payload).status_code == 403
    waiting.refresh_from_db()
    assert waiting.status == Status.AWAITING


def test_deciding_another_campaigns_request_is_a_404(client, table):
    campaign, *_ = table
    other = campaign_for("2e")
    stranger = character_with(other, cp=10, skills=[("dodge", "3D")])
    made = request_advancement(stranger, "skill", "dodge", actor=other.created_by)
    made.status = Status.AWAITING
    made.save()
    assert decide(client, campaign, made, "refuse", reason="x").status_code == 404


# ---------------------------------------------------------------------------------------------
# The GM's skill edits
# ---------------------------------------------------------------------------------------------
def skill_form(**data):
    return {"name": "sneak", "code": "3D+2", "attribute": "perception", "kind": "skill", **data}


def test_the_gm_adds_changes_and_removes_a_skill_after_a_confirmation(client, table):
    campaign, kira, *_ = table
    client = as_gm(client, campaign)
    page = client.post(url("skills", campaign, kira), skill_form(), follow=True)
    assert "sneak 3D+2 added on the sheet." in text(page)
    sneak = Skill.objects.get(character=kira, name="sneak")
    edit = client.get(url("skills", campaign, kira), {"skill": sneak.pk})
    assert 'value="sneak"' in text(edit) and "Change sneak" in text(edit)
    client.post(url("skills", campaign, kira), skill_form(skill=sneak.pk, code="4D"))
    sneak.refresh_from_db()
    assert str(sneak.code) == "4D"
    confirm = client.get(url("skill_remove", campaign, kira), {"skill": sneak.pk})
    assert "Remove sneak 4D from Kira?" in text(confirm)
    assert Skill.objects.filter(pk=sneak.pk).exists()  # asking removes nothing
    response = client.post(url("skill_remove", campaign, kira), {"skill": sneak.pk})
    assert response.status_code == 302
    assert not Skill.objects.filter(pk=sneak.pk).exists()
    actions = list(SkillEdit.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["add", "change", "remove"]


def test_the_removal_page_warns_of_a_training_that_will_come_back(client, table):
    campaign, kira, *_ = table
    request_advancement(kira, "skill", "blaster", actor=kira.owner)
    blaster = Skill.objects.get(character=kira, name="blaster")
    page = text(
        as_gm(client, campaign).get(url("skill_remove", campaign, kira), {"skill": blaster.pk})
    )
    assert "training until day 39" in page and "its 4 CP come back" in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"code": "4Q"}, "4Q"),
        ({"code": "0D"}, "at least 0D+1"),
        ({"name": "blaster"}, "already has a skill called blaster"),
        ({"attribute": "luck"}, "Select a valid choice"),
        ({"kind": "force", "attribute": "dexterity"}, "only a Force skill"),
        ({"name": "a\x00b"}, "Null characters"),
        ({"name": "x" * 81}, "at most 80"),
        ({"skill": "99999999"}, None),
    ],
)
def test_a_bad_skill_edit_is_a_form_error_and_changes_nothing(client, table, data, message):
    campaign, kira, *_ = table
    before = (snapshot(kira), list(SkillEdit.objects.values_list("pk", flat=True)))
    response = as_gm(client, campaign).post(url("skills", campaign, kira), skill_form(**data))
    if message is None:
        assert response.status_code == 404
    else:
        assert response.status_code == 400
        assert message in text(response)
    assert (snapshot(kira), list(SkillEdit.objects.values_list("pk", flat=True))) == before


def test_players_cannot_edit_skills(client, table):
    campaign, kira, *_ = table
    blaster = Skill.objects.get(character=kira, name="blaster")
    client = as_player(client, kira)
    assert client.get(url("skills", campaign, kira)).status_code == 403
    assert client.post(url("skills", campaign, kira), skill_form()).status_code == 403
    remove = url("skill_remove", campaign, kira)
    assert client.get(remove, {"skill": blaster.pk}).status_code == 403
    assert client.post(remove, {"skill": blaster.pk}).status_code == 403
    assert Skill.objects.filter(character=kira).count() == 2
    assert "Edit skills" not in text(client.get(kira.get_absolute_url()))


@pytest.mark.parametrize("skill", ["", "abc", "99999999", "1" * 30])
def test_removing_an_unknown_skill_is_refused(client, table, skill):
    campaign, kira, *_ = table
    client = as_gm(client, campaign)
    response = client.post(url("skill_remove", campaign, kira), {"skill": skill})
    assert response.status_code in (400, 404)
    assert client.get(url("skill_remove", campaign, kira), {"skill": skill}).status_code == 404
    assert Skill.objects.filter(character=kira).count() == 2


# ---------------------------------------------------------------------------------------------
# Pages that list things cost the same number of queries however long the lists are
# ---------------------------------------------------------------------------------------------
def queries(client, path, **kwargs) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path, **kwargs).status_code == 200
    return len(captured)


def grow(campaign, n):
    """``n`` more characters, each with an ended adventure and a request awaiting the GM."""
    Campaign.objects.filter(pk=campaign.pk).update(approve_advancement=True)
    for i in range(n):
        someone = character_with(campaign, cp=20, skills=[("dodge", "3D")])
        request_advancement(someone, "skill", "dodge", actor=someone.owner)
        ended_adventure(campaign, i, i + 1)


def test_the_gms_pages_do_not_query_per_row(client, table):
    campaign, kira, *_ = table
    client = as_gm(client, campaign)
    pages = [
        (url("calendar", campaign), {}),
        (url("approvals", campaign), {}),
        (url("awards", campaign), {}),
        (url("advancements", campaign, kira), {"headers": HX}),
    ]
    grow(campaign, 1)
    request_advancement(kira, "skill", "dodge", actor=kira.owner)
    few = [queries(client, path, **kw) for path, kw in pages]
    grow(campaign, 5)
    refused = request_advancement(kira, "skill", "blaster", actor=kira.owner)
    refuse(refused, actor=campaign.created_by, reason="No")
    assert [queries(client, path, **kw) for path, kw in pages] == few
