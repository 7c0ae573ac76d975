"""The rule options page: numbers outside the rules' ranges are refused with a form error and
nothing is saved; every option reads in words with its source, and the active preset is named."""

import re

import pytest
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory
from rules import RuleSet

pytestmark = pytest.mark.django_db


@pytest.fixture
def gm_client(client):
    campaign = CampaignFactory()
    client.force_login(campaign.created_by)
    client.campaign = campaign
    return client


def _url(campaign):
    return reverse("campaigns:rules", args=[campaign.pk])


def _current_form_data(client):
    """What the page's form would post unchanged."""
    form = client.get(_url(client.campaign)).context["form"]
    return {
        name: field.initial
        for name, field in form.fields.items()
        if field.initial is not None and name != "preset"
    }


def _visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("cp_on_damage", -1),
        ("cp_on_damage", 99999),
        ("cp_on_resist_damage", -1),
        ("house_extra_cp", -100),
        ("house_extra_cp", 99999),
        ("prone_to_hit_modifier", 99999),
        ("gravity_shift_levels", 99999),
        ("default_weapon_strength", "99999"),
    ],
)
def test_an_impossible_number_is_a_form_error_and_nothing_is_saved(gm_client, name, value):
    data = {**_current_form_data(gm_client), "wild_die_one": "subtract", name: value}
    response = gm_client.post(_url(gm_client.campaign), data)
    assert response.status_code == 400
    assert name in response.context["form"].errors
    assert "saved" not in response.text
    gm_client.campaign.refresh_from_db()
    assert gm_client.campaign.rule_options == {}


def test_a_number_inside_the_range_is_saved(gm_client):
    data = {**_current_form_data(gm_client), "cp_on_damage": 5, "house_extra_cp": 20}
    response = gm_client.post(_url(gm_client.campaign), data)
    assert response.status_code == 302
    gm_client.campaign.refresh_from_db()
    assert gm_client.campaign.rule_options == {"cp_on_damage": 5, "house_extra_cp": 20}


def test_the_form_shows_each_numbers_range(gm_client):
    response = gm_client.get(_url(gm_client.campaign))
    assert "Allowed: 0 to 5 CP." in response.text
    assert 'max="5"' in response.text


def test_a_stored_impossible_value_is_refused_by_the_model_too(gm_client):
    from django.core.exceptions import ValidationError

    campaign = gm_client.campaign
    campaign.rule_options = {"cp_on_damage": -1}
    with pytest.raises(ValidationError, match="cp_on_damage"):
        campaign.full_clean()


def test_choices_read_in_words_not_codes(gm_client):
    text = _visible_text(gm_client.get(_url(gm_client.campaign)).text)
    assert "2e_std" not in text
    assert "upg" not in text.replace("UPG", "")
    assert "Second Edition: attribute and skill dice [2E-STD]" in text
    assert "Rules Upgrade Character Point costs [UPG]" in text
    assert "Character creation" in text  # the option's name, not creation_rules
    assert "creation_rules" not in text


def test_each_option_names_its_source_in_words(gm_client):
    text = _visible_text(gm_client.get(_url(gm_client.campaign)).text)
    assert "Source: House Rules (HOUSE)." in text
    assert "Source: Rules Upgrade (Second Edition R&amp;E) (UPG)" in text


def test_the_page_names_the_active_preset(gm_client):
    text = _visible_text(gm_client.get(_url(gm_client.campaign)).text)
    assert "Active preset:" in text and "Second Edition R&amp;E with the Rules Upgrade" in text
    campaign = gm_client.campaign
    campaign.set_ruleset(RuleSet.preset("house"))
    campaign.save()
    text = _visible_text(gm_client.get(_url(campaign)).text)
    assert re.search(r"Active preset:\s*House Rules", text)


def test_options_that_match_no_preset_are_custom(gm_client):
    campaign = gm_client.campaign
    campaign.set_ruleset(RuleSet.preset("house", days_per_week=7))
    campaign.save()
    text = _visible_text(gm_client.get(_url(campaign)).text)
    assert re.search(r"Active preset:\s*Custom", text)


def test_the_campaign_page_lists_changed_rules_in_words(gm_client):
    campaign = gm_client.campaign
    campaign.set_ruleset(RuleSet(creation_rules="house", cp_on_damage=2))
    campaign.save()
    text = _visible_text(gm_client.get(campaign.get_absolute_url()).text)
    assert "Character creation: House Rules on top of Second Edition [HOUSE]" in text
    assert "Character Points on a damage roll: 2 CP" in text
    assert "creation_rules" not in text
    assert re.search(r"Preset:\s*Custom", text)
