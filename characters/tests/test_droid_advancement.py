"""A droid improves like any character, through the Improve page and the advancement service,
with the droid rules on top (droids-and-equipment.md §2.5-§2.6): a new skill costs its points
plus 1,000 credits in a Rules Companion campaign (E15), both through the ledger in one
transaction; no Force skill, power or Force-sensitivity; no skill above 13D."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.advancement import (
    InsufficientPoints,
    quote,
    refuse,
    request_advancement,
    withdraw,
)
from characters.models import Advancement, Character, LedgerEntry
from characters.services import change_balance
from characters.tests.advancement_fixtures import PRESETS, campaign_for, character_with, snapshot
from rules import DieCode
from rules.advancement import AdvancementError

pytestmark = pytest.mark.django_db
Status = Advancement.Status


def droid(campaign, *, cp=10, credits=1000, skills=(), **fields) -> Character:
    """A player's droid (Knowledge 2D) holding ``cp`` points and ``credits``."""
    character = character_with(
        campaign,
        cp=cp,
        skills=skills,
        nature=Character.Nature.DROID,
        species="Droid",
        knowledge="2D",
        **fields,
    )
    if credits:
        change_balance(character, "credits", credits, "Savings")
    character.refresh_from_db()
    return character


def balances(character) -> tuple[int, int]:
    character.refresh_from_db()
    return character.character_points, character.credits


# --- the worked example (E15) through the service -----------------------------------------
def test_E15_a_new_droid_skill_costs_skill_points_and_1000_credits_in_the_rules_companion():
    campaign = campaign_for("rc")
    r5 = droid(campaign)
    priced = quote(r5, "new_skill", "languages", ruleset=PRESETS["rc"])
    assert (priced.cp, priced.currency, priced.credits) == (2, "skill points", 1000)
    assert priced.new == DieCode(2, 1)
    asked = request_advancement(r5, "new_skill", "languages", actor=r5.owner)
    assert balances(r5) == (8, 0)
    entries = LedgerEntry.objects.filter(character=r5).order_by("-pk")[:2]
    assert {(e.currency, e.delta) for e in entries} == {("cp", -2), ("credits", -1000)}
    # the Rules Companion gives no time for it: the GM sets it before training starts
    assert asked.status == Status.AWAITING
    assert "the training time" in " ".join(priced.needs_gm)


def test_the_credits_come_back_with_the_points_when_the_gm_refuses():
    campaign = campaign_for("rc")
    r5 = droid(campaign)
    asked = request_advancement(r5, "new_skill", "languages", actor=r5.owner)
    refuse(asked, actor=campaign.created_by, reason="No chip shop on Tatooine")
    assert balances(r5) == (10, 1000)


def test_the_credits_come_back_when_the_player_withdraws():
    campaign = campaign_for("rc")
    r5 = droid(campaign)
    asked = request_advancement(r5, "new_skill", "languages", actor=r5.owner)
    withdraw(asked, actor=r5.owner)
    assert balances(r5) == (10, 1000)


def test_a_gm_sets_the_time_and_the_new_skill_lands_on_the_droids_sheet():
    campaign = campaign_for("rc")
    r5 = droid(campaign)
    request_advancement(r5, "new_skill", "languages", actor=campaign.created_by, days=0)
    assert r5.skills.get(name="languages").code == DieCode(2, 1)
    assert balances(r5) == (8, 0)


def test_improving_a_skill_the_droid_has_costs_no_credits():
    campaign = campaign_for("rc")
    r5 = droid(campaign, skills=[("languages", "4D", "knowledge", "skill", "")])
    priced = quote(r5, "skill", "languages", ruleset=PRESETS["rc"])
    assert (priced.cp, priced.credits) == (4, 0)


def test_outside_the_rules_companion_a_droids_new_skill_costs_points_only():
    campaign = campaign_for("2e")
    r5 = droid(campaign)
    priced = quote(r5, "new_skill", "languages", ruleset=PRESETS["2e"])
    assert (priced.cp, priced.currency, priced.credits) == (2, "Character Points", 0)


def test_an_organic_characters_new_skill_costs_no_credits():
    campaign = campaign_for("2e")
    human = character_with(campaign, cp=10, knowledge="2D")
    assert quote(human, "new_skill", "languages", ruleset=PRESETS["2e"]).credits == 0


# --- refusals: nothing changes ------------------------------------------------------------
def test_a_droid_without_the_credits_is_refused_and_keeps_its_points():
    campaign = campaign_for("rc")
    r5 = droid(campaign, credits=500)
    before = snapshot(r5)
    assert not quote(r5, "new_skill", "languages", ruleset=PRESETS["rc"]).affordable
    with pytest.raises(InsufficientPoints, match="not enough Credits: 1000 needed, 500 held"):
        request_advancement(r5, "new_skill", "languages", actor=r5.owner)
    assert snapshot(r5) == before
    assert balances(r5) == (10, 500)


def test_a_droid_skill_is_never_raised_above_13d():
    campaign = campaign_for("2e")
    r5 = droid(campaign, cp=50, skills=[("languages", "13D", "knowledge", "skill", "")])
    before = snapshot(r5)
    with pytest.raises(AdvancementError, match="languages 13D\\+1 is above 13D"):
        request_advancement(r5, "skill", "languages", actor=r5.owner)
    assert snapshot(r5) == before


@pytest.mark.parametrize(
    ("kind", "target"),
    [
        ("force_sensitivity", "Force-sensitivity"),
        ("new_force_skill", "sense"),
        ("force_power", "Telekinesis"),
    ],
)
def test_a_droid_is_refused_anything_of_the_force(kind, target):
    campaign = campaign_for("2e")
    r5 = droid(campaign)
    before = snapshot(r5)
    with pytest.raises(AdvancementError, match="droids may never have Force skills"):
        request_advancement(r5, kind, target, actor=r5.owner)
    assert snapshot(r5) == before


def test_a_new_droid_skill_named_as_a_force_skill_is_refused():
    campaign = campaign_for("2e")
    r5 = droid(campaign)
    with pytest.raises(AdvancementError, match="Force skills"):
        quote(r5, "new_skill", "Sense", attribute="perception", ruleset=PRESETS["2e"])


# --- through the Improve page ------------------------------------------------------------------
def improve_url(character) -> str:
    return reverse("characters:improve", args=[character.campaign_id, character.pk])


def test_the_improve_page_shows_the_credits_with_the_points(client):
    campaign = campaign_for("rc")
    r5 = droid(campaign)
    client.force_login(r5.owner)
    data = {"what": "new_skill:", "name": "languages", "teacher": "on", "extra_cp": 0}
    page = client.post(improve_url(r5), data).content.decode()
    assert '2 skill points</strong> and <strong class="quote-credits">1000 credits' in page
    assert "Ask for it: 2 skill points and 1000 credits" in page


def test_asking_on_the_improve_page_takes_the_points_and_the_credits(client):
    campaign = campaign_for("rc")
    r5 = droid(campaign)
    client.force_login(r5.owner)
    data = {"what": "new_skill:", "name": "languages", "teacher": "on", "extra_cp": 0}
    response = client.post(improve_url(r5), {**data, "confirm": "new_skill:2:-"})
    assert response.status_code == 302
    assert balances(r5) == (8, 0)


def test_the_improve_page_refuses_force_sensitivity_for_a_droid_with_the_reason(client):
    campaign = campaign_for("2e")
    r5 = droid(campaign)
    client.force_login(r5.owner)
    data = {"what": "force_sensitivity:Force-sensitivity", "teacher": "on", "extra_cp": 0}
    response = client.post(improve_url(r5), data)
    assert response.status_code == 400
    assert "droids may never have Force skills" in response.content.decode()
