"""Defects found by issue 19's play-test (a GM and two players on the downtime pages), each
pinned by a test that fails without its fix: abandoning a project asks first; a first-aider
who cannot act gets no odds beside his name; a non-number "CP paid now" gives one message;
the Schools list says the CP owed were owed on enrolling (the debt shrinks as CP are earned);
a droid repaired by someone without droid repair rolls Technical and says so."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.healing import medpac_plan
from characters.project_models import Project
from characters.repair_jobs import start_droid_repair
from characters.schools import earn_cp, enrol_character
from characters.tests.factories import CharacterFactory, ItemFactory
from characters.tests.test_project_jobs import RC, balances, start_item
from characters.tests.test_schools import house_campaign, nco, student

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def blaster_project():
    campaign = CampaignFactory(rule_options=RC, game_day=10)
    player = MembershipFactory(campaign=campaign).user
    hero = CharacterFactory(
        campaign=campaign, owner=player, name="Erisson", character_points=20, credits=500
    )
    blaster = ItemFactory(character=hero, kind="weapon", name="blaster", damage="5D")
    project = start_item(campaign, player, blaster, original="4D", target="5D+1")
    return campaign, player, hero, project


def test_abandoning_a_project_asks_first_and_changes_nothing_until_confirmed(
    client, blaster_project
):
    campaign, player, hero, project = blaster_project
    held = balances(hero)
    client.force_login(player)
    url = reverse("characters:project_change", args=[campaign.pk, project.pk])
    page = client.post(url, {"action": "abandon"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "Abandon Blaster: damage?" in text and 'name="confirm" value="yes"' in text
    assert "50 credits and 5 CP" in text  # what comes back, said before
    project.refresh_from_db()
    assert project.status == Project.Status.RUNNING and balances(hero) == held
    done = client.post(url, {"action": "abandon", "confirm": "yes"})
    assert done.status_code == 302
    project.refresh_from_db()
    assert project.status == Project.Status.ABANDONED
    assert balances(hero) == (held[0] + 5, held[1] + 50)


def test_the_project_list_marks_abandon_as_asking_first(client, blaster_project):
    campaign, player, hero, project = blaster_project
    client.force_login(player)
    url = reverse("characters:item_quote", args=[campaign.pk, hero.pk])
    page = client.get(f"{url}?item={project.item_id}").content.decode()
    assert "Abandon…" in page


def test_someone_elses_project_is_refused_without_a_confirmation_page(client, blaster_project):
    campaign, _, _, project = blaster_project
    other = MembershipFactory(campaign=campaign).user
    client.force_login(other)
    url = reverse("characters:project_change", args=[campaign.pk, project.pk])
    page = client.post(url, {"action": "abandon"})
    assert page.status_code == 400 and "Abandon Blaster" not in page.content.decode()
    project.refresh_from_db()
    assert project.status == Project.Status.RUNNING


def test_a_first_aider_who_cannot_act_shows_why_not_his_odds():
    campaign = CampaignFactory()
    hero = CharacterFactory(campaign=campaign, name="Rook", wound_level="wounded")
    medic = CharacterFactory(
        campaign=campaign, name="Kell", owner=hero.owner, wound_level="incapacitated"
    )
    hero.refresh_from_db()
    medic.refresh_from_db()
    plan = medpac_plan(hero, medic, campaign)
    assert plan.chance is None and plan.problem == "incapacitated: cannot act"
    fit = CharacterFactory(campaign=campaign, name="Tala", owner=hero.owner)
    fit.refresh_from_db()
    assert medpac_plan(hero, fit, campaign).chance is not None


def test_the_medpac_choices_show_no_odds_for_a_first_aider_who_cannot_act(client):
    campaign = CampaignFactory()
    hero = CharacterFactory(campaign=campaign, name="Rook", wound_level="wounded")
    CharacterFactory(campaign=campaign, name="Kell", owner=hero.owner, wound_level="incapacitated")
    client.force_login(hero.owner)
    url = reverse("characters:healing", args=[campaign.pk, hero.pk])
    page = client.get(url, headers=HX).content.decode()
    assert "Kell (incapacitated: cannot act)" in page


def test_a_non_number_paid_now_gives_one_message_not_two(client):
    campaign = house_campaign()
    school = nco(campaign)
    hero = student(campaign)
    client.force_login(hero.owner)
    url = reverse("characters:school_enrol", args=[campaign.pk, school.pk])
    data = {"character": hero.pk, "payment": "part", "pay": "99999999999999999999"}
    response = client.post(url, data, headers=HX)
    assert response.status_code == 400
    assert "less than or equal to" in response.text
    assert "Say how many CP you pay now" not in response.text


def test_the_schools_list_says_the_debt_was_owed_on_enrolling_and_shows_what_is_owed_now(client):
    campaign = house_campaign()
    school = nco(campaign)  # 5 CP
    hero = student(campaign, cp=0)
    enrol_character(campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=0)
    earn_cp(hero, 4, "End of the adventure")  # half (2) repays the debt: 3 CP owed
    client.force_login(hero.owner)
    page = client.get(reverse("characters:schools", args=[campaign.pk])).text
    assert "5 CP owed on enrolling" in page
    assert "<strong>3 CP owed</strong>" in page


def test_a_droid_repaired_without_the_droid_repair_skill_says_technical():
    campaign = CampaignFactory(game_day=10)
    player = MembershipFactory(campaign=campaign).user
    rook = CharacterFactory(campaign=campaign, owner=player, name="Rook", technical="2D+2")
    droid = CharacterFactory(
        campaign=campaign, owner=player, name="R5", nature="droid", wound_level="wounded"
    )
    job = start_droid_repair(campaign.pk, droid.pk, actor=player, engineer_id=rook.pk)
    assert job.rolls[0]["skill"] == "Technical (no droid repair skill)"
    assert job.rolls[0]["job"]["code"] == "2D+2"
