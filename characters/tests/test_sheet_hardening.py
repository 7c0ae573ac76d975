"""Issue 12 (hardening) on the sheet, the roll panel and the dice log: each test names the
defect it guards. Browser-level checks (focus, printing, the page staying put) are in
tests/browser/test_roll_panel.py."""

import re

import pytest
from django.template import Context, Template
from django.urls import reverse

from campaigns.tests.factories import MembershipFactory
from characters.models import ATTRIBUTES, Character, Currency, DiceRoll, Skill
from characters.services import change_balance, roll_trait
from characters.tests.factories import CharacterFactory, NPCFactory, SkillFactory
from rules import RuleSet, SeededDice

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def sheet_url(c):
    return reverse("characters:sheet", args=[c.campaign_id, c.pk])


def roll_url(c):
    return reverse("characters:roll", args=[c.campaign_id, c.pk])


def log_url(campaign_id, **query):
    url = reverse("characters:dice_log", args=[campaign_id])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def hero(client):
    character = CharacterFactory(name="Kyle")
    SkillFactory(character=character, name="blaster", code="4D+1")
    change_balance(character, Currency.CP, 5, "start")
    change_balance(character, Currency.FP, 1, "start")
    client.force_login(character.owner)
    return character


def gm_of(character):
    return character.campaign.created_by


def roll_data(trait="attr:dexterity", **extra):
    return {"trait": trait, "actions": 1, "modifier": 0, "cp": 0, **extra}


def quiet_roll(character, actor, **kwargs):
    return roll_trait(
        character, actor, "attr:dexterity", ruleset=RuleSet(), rng=SeededDice(7), **kwargs
    )


# --- 1. "Roll again" repeats the roll's settings, visibly -------------------------------------
def _field(html, name):
    return re.search(rf'<input[^>]*name="{name}"[^>]*>', html).group(0)


def test_after_a_roll_the_panel_keeps_the_cp_typed_for_roll_again(client, hero):
    response = client.post(roll_url(hero), roll_data(cp=2), **HTMX)
    assert response.status_code == 200
    html = response.text
    assert 'value="2"' in _field(html, "cp")
    # "Roll again" submits the same form: it is the form's submit button, not a fresh GET.
    form = html[html.index("<form") : html.index("</form>")]
    assert re.search(r'<button type="submit"[^>]*>Roll again</button>', form)
    assert "hx-get" not in html[html.index("Roll again") - 200 : html.index("Roll again")]


def test_after_a_hidden_gm_roll_the_hidden_box_stays_ticked(client, hero):
    client.force_login(gm_of(hero))
    response = client.post(roll_url(hero), roll_data(hidden="on"), **HTMX)
    assert DiceRoll.objects.get().hidden
    assert "checked" in _field(response.text, "hidden")


def test_rolling_again_from_the_kept_settings_spends_the_cp_again(client, hero):
    client.post(roll_url(hero), roll_data(cp=2), **HTMX)
    client.post(roll_url(hero), roll_data(cp=2), **HTMX)
    hero.refresh_from_db()
    assert hero.character_points == 1
    assert [r.cp_spent for r in DiceRoll.objects.order_by("pk")] == [2, 2]


# --- 2. Secret NPCs never leak through the dice log -------------------------------------------
@pytest.fixture
def secret_npc(hero):
    return NPCFactory(campaign=hero.campaign, name="Inquisitor Vael", secret=True)


def test_a_secret_npcs_roll_is_hidden_by_default(hero, secret_npc):
    assert quiet_roll(secret_npc, gm_of(hero)).hidden


def test_the_roll_panel_of_a_secret_npc_starts_with_hidden_ticked(client, hero, secret_npc):
    client.force_login(gm_of(hero))
    response = client.get(roll_url(secret_npc), {"trait": "attr:dexterity"}, **HTMX)
    assert "checked" in _field(response.text, "hidden")


def test_players_never_see_a_secret_npcs_name_in_the_log(client, hero, secret_npc):
    # One roll the GM chose to show, one made before the NPC became secret.
    quiet_roll(secret_npc, gm_of(hero), hidden=False, note="ambush")
    Character.objects.filter(pk=secret_npc.pk).update(secret=False)
    quiet_roll(secret_npc, gm_of(hero), hidden=False)
    Character.objects.filter(pk=secret_npc.pk).update(secret=True)
    text = client.get(log_url(hero.campaign_id)).text
    assert "Vael" not in text
    assert "ambush" not in text
    assert text.count("The GM") == 2


def test_the_gm_still_sees_the_secret_npcs_name(client, hero, secret_npc):
    quiet_roll(secret_npc, gm_of(hero))
    client.force_login(gm_of(hero))
    assert "Inquisitor Vael" in client.get(log_url(hero.campaign_id)).text


# --- 3. A refused roll shows its message in place ---------------------------------------------
def test_a_refused_htmx_roll_answers_the_panel_with_an_alert(client, hero):
    response = client.post(roll_url(hero), roll_data(cp=1, force_point="on"), **HTMX)
    assert response.status_code == 400
    assert "<html" not in response.text  # a fragment for the panel, not a page
    alert = re.search(r'<div class="alert error" role="alert"[^>]*>(.*?)</div>', response.text)
    assert alert and "Not rolled" in alert.group(1)
    assert not DiceRoll.objects.exists()


def test_an_unknown_trait_is_refused_with_an_alert_fragment(client, hero):
    response = client.get(roll_url(hero), {"trait": "skill:999999"}, **HTMX)
    assert response.status_code == 400
    assert 'role="alert"' in response.text and "no such skill" in response.text
    assert "<html" not in response.text


def test_an_unknown_trait_without_htmx_is_a_page_with_the_reason(client, hero):
    response = client.get(roll_url(hero), {"trait": "attr:luck"})
    assert response.status_code == 400
    assert "<html" in response.text and "is not an attribute" in response.text


# --- 12. Specializations sit under their own skill --------------------------------------------
def test_a_specialization_is_listed_right_after_its_skill(client, hero):
    SkillFactory(character=hero, name="dodge", code="4D")
    SkillFactory(
        character=hero,
        name="heavy blaster pistol",
        kind=Skill.Kind.SPECIALIZATION,
        base_skill="blaster",
        code="5D+1",
    )
    text = client.get(sheet_url(hero)).text
    assert text.index("blaster") < text.index("heavy blaster pistol") < text.index("dodge")
    item = re.search(r'<li class="([a-z]+)">[^<]*<button[^>]*>heavy blaster pistol', text)
    assert item.group(1) == "specialization"


def test_a_specialization_without_its_skill_says_which_skill_it_is(client, hero):
    SkillFactory(
        character=hero,
        name="swoop",
        kind=Skill.Kind.SPECIALIZATION,
        base_skill="repulsorlift operation",
        attribute="mechanical",
    )
    text = client.get(sheet_url(hero)).text
    assert re.search(r'swoop <span class="base-skill">\(repulsorlift operation\)', text)


# --- 13. Rules cases with words ---------------------------------------------------------------
def test_a_roll_whose_pool_falls_below_1d_is_refused_saying_why(client, hero):
    blaster = hero.skills.get(name="blaster")
    response = client.post(roll_url(hero), roll_data(f"skill:{blaster.pk}", actions=6), **HTMX)
    assert response.status_code == 400
    assert "6 actions take 5D from 4D+1, leaving 0D+1" in response.text
    assert "at least 1D" in response.text
    assert not DiceRoll.objects.exists()


def test_the_roll_panel_says_a_pool_below_1d_cannot_be_rolled(client, hero):
    response = client.get(roll_url(hero), {**roll_data(actions=5)}, **HTMX)
    assert response.status_code == 200
    assert "Cannot roll: 5 actions take 4D from 3D+1" in response.text


@pytest.mark.parametrize(
    "chance, shown",
    [
        (0.0, "0%"),
        (1e-12, "0%"),
        (0.004, "<1%"),
        (0.01, "1%"),
        (0.62, "62%"),
        (0.99, "99%"),
        (0.995, ">99%"),
        (0.9999, ">99%"),
        (1.0, "100%"),
    ],
)
def test_odds_that_are_not_certain_never_show_as_0_or_100(chance, shown):
    text = Template("{% load dice %}{{ chance|percent }}").render(Context({"chance": chance}))
    assert text == shown.replace("<", "&lt;").replace(">", "&gt;")


def gm_edit_data(character):
    """The GM's edit form for ``character`` as it stands."""
    fields = ("name", "species", "move", "wound_level", *ATTRIBUTES)
    return {**{f: str(getattr(character, f)) for f in fields}, "stuns": character.stun_points}


def test_in_a_house_campaign_a_gm_raise_of_an_attribute_lifts_its_skills(client, hero):
    campaign = hero.campaign
    campaign.set_ruleset(RuleSet.preset("house"))
    campaign.save()
    SkillFactory(character=hero, name="lightsaber", code="4D", kind=Skill.Kind.ADVANCED)
    SkillFactory(character=hero, name="lifting", attribute="strength", code="4D")
    client.force_login(gm_of(hero))
    data = {**gm_edit_data(hero), "dexterity": "4D"}  # from 3D+1: two pips
    response = client.post(reverse("characters:edit", args=[campaign.pk, hero.pk]), data)
    assert response.status_code == 302, response.text
    codes = {s.name: str(s.code) for s in hero.skills.all()}
    assert codes["blaster"] == "5D"  # 4D+1 + 2 pips
    assert codes["lightsaber"] == "4D"  # advanced skills stay
    assert codes["lifting"] == "4D"  # another attribute's skill stays
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("blaster 4D+1 → 5D" in m for m in messages)


def test_in_a_second_edition_campaign_a_gm_raise_leaves_the_skills(client, hero):
    client.force_login(gm_of(hero))
    data = {**gm_edit_data(hero), "dexterity": "4D"}
    client.post(reverse("characters:edit", args=[hero.campaign_id, hero.pk]), data)
    assert str(hero.skills.get(name="blaster").code) == "4D+1"


# --- 20. Hidden rolls cannot be counted from a player's page ----------------------------------
def test_a_players_dice_log_carries_no_roll_ids(client, hero):
    gm = gm_of(hero)
    rolls = [quiet_roll(hero, gm, hidden=i % 2 == 1) for i in range(45)]
    html = client.get(log_url(hero.campaign_id)).text
    assert not re.search(r'id="roll-\d+"', html)
    cursor = re.search(r"\?before=(\d+)", html).group(1)
    assert int(cursor) not in {r.pk for r in rolls}


# --- 21. Dice log paging and the recent-rolls strip on the sheet ------------------------------
def test_the_dice_log_pages_by_twenty(client, hero):
    for _ in range(25):
        quiet_roll(hero, hero.owner)
    first = client.get(log_url(hero.campaign_id)).text
    assert first.count('class="roll-entry') == 20
    older = re.search(r'href="([^"]*\?before=\d+)"', first).group(1)
    second = client.get(older).text
    assert second.count('class="roll-entry') == 5
    assert "Latest rolls" in second and "?before=" not in second


# --- 22. Accessible dice and pages ------------------------------------------------------------
def test_a_roll_reads_as_words_naming_the_wild_die(client, hero):
    response = client.post(roll_url(hero), roll_data(), **HTMX)
    text = response.text
    assert 'role="group" aria-label="Dice rolled"' in text
    assert re.search(r'class="visually-hidden">Dice [\d, ]+\. Wild Die \d', text)
    assert 'class="dice-chips" aria-hidden="true"' in text


def test_the_roll_page_without_htmx_has_a_main_heading(client, hero):
    text = client.get(roll_url(hero), {"trait": "attr:dexterity"}).text
    assert re.search(r"<h1>Kyle: roll Dexterity</h1>", text)


def test_the_sheet_opens_the_roll_panel_in_a_dialog(client, hero):
    text = client.get(sheet_url(hero)).text
    assert re.search(r'<dialog id="roll-dialog"[^>]*aria-labelledby="roll-h"', text)
    assert "onclick" not in text


def test_a_player_watching_sees_no_dialog_for_characters_they_cannot_roll(client, hero):
    other = MembershipFactory(campaign=hero.campaign).user
    client.force_login(other)
    assert "roll-dialog" not in client.get(sheet_url(hero)).text
