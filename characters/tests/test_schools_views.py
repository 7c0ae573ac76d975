"""The Schools page (characters.school_views): the GM's form with its bonuses in words, a
player's enrolment with the pay/owe choice, refusals in place (HTMX 400 with the reason, nothing
changed), the sheet's "At school" line and CP owed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory
from characters.models import Currency
from characters.school_models import Enrolment, School
from characters.schools import enrol_character
from characters.services import change_balance
from characters.tests.test_schools import house_campaign, nco, student

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
NCO_TEXT = (
    "PER: command +2\nPerception: persuasion +1\nSTR: stamina +1\n"
    "Knowledge: survival +2\nKNO: tactics +1\nknowledge: willpower +1"
)


def url(name, *args):
    return reverse(f"characters:{name}", args=args)


def school_data(**changes):
    data = {
        "name": "NCO Leadership I",
        "instructor": "Lt. Norva",
        "weeks": "3",
        "cp_cost": "5",
        "bonuses": NCO_TEXT,
        "restrictions": "Enlisted only",
        "open": "on",
    }
    return {**data, **changes}


def test_the_gm_defines_a_school_from_bonuses_in_words(client):
    campaign = house_campaign()
    client.force_login(campaign.created_by)
    response = client.post(url("school_new", campaign.pk), school_data(), headers=HX)
    assert response.status_code == 200
    assert "NCO Leadership I is defined." in response.text
    school = School.objects.get(campaign=campaign)
    assert school.bonuses[0] == ["perception", "command", 2]
    assert len(school.bonuses) == 6
    assert "3 weeks (15 days)" in response.text


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"bonuses": "PER command +2"}, "Line 1 (&#x27;PER command +2&#x27;): write it as"),
        ({"bonuses": "Luck: gambling +1"}, "is not an attribute"),
        ({"bonuses": "PER: command +0"}, "a bonus adds 1 to 30 pips"),
        ({"weeks": "0"}, "greater than or equal to 1"),
        ({"weeks": "²"}, "Enter a whole number"),
        ({"cp_cost": "-1"}, "greater than or equal to 0"),
        ({"name": ""}, "This field is required"),
    ],
)
def test_a_bad_school_is_refused_in_place_and_nothing_is_saved(client, changes, words):
    campaign = house_campaign()
    client.force_login(campaign.created_by)
    response = client.post(url("school_new", campaign.pk), school_data(**changes), headers=HX)
    assert response.status_code == 400
    assert words in response.text
    assert 'id="schools"' in response.text
    assert School.objects.count() == 0


def test_outside_the_house_rules_the_gm_is_told_why(client):
    campaign = CampaignFactory()
    client.force_login(campaign.created_by)
    page = client.get(url("schools", campaign.pk)).text
    assert "Schools are a House rule" in page and "Define a school" not in page
    response = client.post(url("school_new", campaign.pk), school_data(), headers=HX)
    assert response.status_code == 400
    assert "Schools are a House rule" in response.text
    assert School.objects.count() == 0


def test_a_player_enrols_owing_the_price_and_sees_the_finish_day(client):
    campaign = house_campaign()
    school = nco(campaign)
    hero = student(campaign, cp=0)
    client.force_login(hero.owner)
    page = client.get(url("schools", campaign.pk)).text
    assert "Lt. Norva" in page and "Enlisted only" in page and "Perception: command +2 pips" in page
    assert "Owe it all" in page and "0 CP owed" in page
    response = client.post(
        url("school_enrol", campaign.pk, school.pk),
        {"character": hero.pk, "payment": "owe"},
        headers=HX,
    )
    assert response.status_code == 200
    assert "owing 5 CP: it finishes on day 15" in response.text
    assert "finishes on day 15" in response.text
    hero.refresh_from_db()
    assert hero.cp_owed == 5
    line = client.get(url("character_school", campaign.pk, hero.pk), headers=HX).text
    assert "At school: <strong>NCO Leadership I</strong>, finishes day 15" in line
    sheet = client.get(hero.get_absolute_url()).text
    assert "CP owed:" in sheet and 'id="school-line"' in sheet


def test_a_refused_enrolment_is_shown_at_its_school_and_nothing_changes(client):
    campaign = house_campaign()
    school = nco(campaign)
    hero = student(campaign, cp=0)
    change_balance(hero, Currency.CP_OWED, 96, "Owed for the Academy")
    client.force_login(hero.owner)
    response = client.post(
        url("school_enrol", campaign.pk, school.pk),
        {"character": hero.pk, "payment": "owe"},
        headers=HX,
    )
    assert response.status_code == 400
    assert "Not enrolled:" in response.text and "101 CP, past the 100 CP limit" in response.text
    assert Enrolment.objects.count() == 0
    hero.refresh_from_db()
    assert hero.cp_owed == 96


def test_a_player_cannot_enrol_someone_elses_character(client):
    campaign = house_campaign()
    school = nco(campaign)
    hero, other = student(campaign), student(campaign)
    client.force_login(hero.owner)
    response = client.post(
        url("school_enrol", campaign.pk, school.pk),
        {"character": other.pk, "payment": "pay"},
        headers=HX,
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.text
    assert Enrolment.objects.count() == 0


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"payment": "part", "pay": ""}, "Say how many CP you pay now."),
        ({"payment": "part", "pay": "9"}, "pay at most that"),
        ({"payment": "part", "pay": "²"}, "Enter a whole number"),
        ({"payment": "gift"}, "Select a valid choice"),
    ],
)
def test_a_bad_payment_is_refused(client, data, words):
    campaign = house_campaign()
    school = nco(campaign)
    hero = student(campaign)
    client.force_login(hero.owner)
    response = client.post(
        url("school_enrol", campaign.pk, school.pk), {"character": hero.pk, **data}, headers=HX
    )
    assert response.status_code == 400
    assert words in response.text
    assert Enrolment.objects.count() == 0


def test_paying_part_owes_the_rest(client):
    campaign = house_campaign()
    school = nco(campaign)
    hero = student(campaign, cp=3)
    client.force_login(hero.owner)
    client.post(
        url("school_enrol", campaign.pk, school.pk),
        {"character": hero.pk, "payment": "part", "pay": "2"},
    )
    hero.refresh_from_db()
    assert (hero.character_points, hero.cp_owed) == (1, 3)


def test_the_gm_edits_and_closes_a_school(client):
    campaign = house_campaign()
    school = nco(campaign)
    client.force_login(campaign.created_by)
    form = client.get(url("school_edit", campaign.pk, school.pk)).text
    assert "Perception: command +2" in form
    response = client.post(url("school_edit", campaign.pk, school.pk), school_data(weeks="4"))
    assert response.status_code == 302
    school.refresh_from_db()
    assert school.weeks == 4
    response = client.post(url("school_open", campaign.pk, school.pk), {"open": "0"}, headers=HX)
    assert response.status_code == 200 and "closed to new students" in response.text
    school.refresh_from_db()
    assert not school.open
    bad = client.post(url("school_open", campaign.pk, school.pk), {"open": "maybe"}, headers=HX)
    assert bad.status_code == 400


def test_a_player_withdraws_and_is_told_the_day(client):
    campaign = house_campaign()
    school = nco(campaign)
    hero = student(campaign)
    enrolment = enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=5)
    client.force_login(hero.owner)
    response = client.post(url("school_withdraw", campaign.pk, enrolment.pk), headers=HX)
    assert response.status_code == 200
    assert "left NCO Leadership I on day 0" in response.text
    again = client.post(url("school_withdraw", campaign.pk, enrolment.pk), headers=HX)
    assert again.status_code == 400 and "no longer at" in again.text


def test_empty_states_say_what_to_do(client):
    campaign = house_campaign()
    hero = student(campaign)
    client.force_login(campaign.created_by)
    assert "No school yet: define one below." in client.get(url("schools", campaign.pk)).text
    client.force_login(hero.owner)
    page = client.get(url("schools", campaign.pk)).text
    assert "The GM has not opened a school yet." in page
    assert "None of your characters is at a school" in page
