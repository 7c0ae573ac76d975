"""What a play-test of vehicles and starships in a fight found (issue 18), each through the
pages the GM and the players use: the words of a weapon result on a craft's row, the gunner's
chance to hit with the gun he fires, what players see of an NPC craft, who the GM's attack
form offers as attacker, a refusal's words for a huge number, and the add page once every
craft is in the fight."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from characters.templatetags.dice import percent
from encounters import views
from encounters.models import Encounter
from encounters.tests.test_craft_encounter import _add_craft, _in_round, _state, _step, hangar
from rules.dice import DieCode, FixedDice, rollable_pool
from rules.odds import success_chance

pytestmark = pytest.mark.django_db
__all__ = ["hangar"]


def _page(client, encounter):
    url = reverse("encounters:page", args=[encounter.campaign_id, encounter.pk])
    return client.get(url).content.decode()


def _damage_weapons(encounter, craft_id, result):
    enc = Encounter.objects.get(pk=encounter.pk)
    state = enc.current_state()
    c = state.combatant(craft_id)
    damage = c.craft.damage.__class__(damage="severely", weapon_damage=(result,))
    enc.keep_state(state.with_combatant(c.replace(craft=c.craft.replace(damage=damage))))
    enc.save(update_fields=["state"])


@pytest.mark.parametrize(
    ("result", "words"),
    [
        ("all_severely_damaged", "all weapons severely damaged but repairable"),
        ("all_destroyed", "all weapons aboard destroyed"),
        ("arc_disabled", "all weapons of one type in one fire arc disabled"),
    ],
)
def test_a_weapon_result_on_a_craft_row_is_in_words_not_its_key(client, hangar, result, words):
    encounter = hangar[1]
    _falcon, tie = _in_round(client, hangar)
    _damage_weapons(encounter, tie, result)
    html = _page(client, encounter)
    assert words in html
    assert result not in html


def test_the_gunners_chance_to_hit_is_his_gunnery_plus_the_guns_fire_control(client, hangar):
    campaign, encounter, _ship, _tie, han, _chewie, _p1, p2 = hangar
    _falcon, tie = _in_round(client, hangar)
    _step(client, encounter, type="act", combatant=tie, what="loops")
    _step(client, encounter, type="act", combatant=f"pc-{han.pk}", what="flies")
    client.force_login(p2)
    html = _page(client, encounter)
    # starship gunnery 5D + the quad laser's fire control 2D, one action: 7D against Easy 10
    pool = rollable_pool(DieCode(7), penalty_dice=0, ruleset=campaign.ruleset)
    chance = escape(percent(success_chance(pool, 10, ruleset=campaign.ruleset)))
    assert f"short: Easy 10 — <strong>{chance}</strong>" in html
    assert "chance to hit with Quad laser" in html


def test_players_do_not_see_an_npc_crafts_codes(client, hangar):
    _campaign, encounter, _ship, _tie, _han, _chewie, p1, _p2 = hangar
    falcon, tie = _in_round(client, hangar)
    client.force_login(p1)
    html = _page(client, encounter)
    tie_row = html[html.index(f'id="row-{tie}"') :]
    tie_row = tie_row[: tie_row.index("</li>")]
    assert "Laser cannons" in tie_row  # the table sees its guns and where they point
    assert "fire control" not in tie_row and "hull 2D" not in tie_row
    own_row = html[html.index(f'id="row-{falcon}"') :]
    assert "Maneuverability 2D · hull 4D" in own_row[: own_row.index("</li>")]


def test_the_gms_attack_form_does_not_offer_a_crewed_craft_as_attacker(client, hangar):
    encounter = hangar[1]
    falcon, tie = _in_round(client, hangar)
    html = _page(client, encounter)
    attackers = html[html.index('id="atk-attacker"') :]
    attackers = attackers[: attackers.index("</select>")]
    assert f'value="{tie}"' in attackers
    assert f'value="{falcon}"' not in attackers  # its gunners fire for it


def test_a_huge_difficulty_is_refused_as_out_of_range_not_as_no_number(client, hangar):
    encounter = hangar[1]
    falcon, tie = _in_round(client, hangar)
    before = Encounter.objects.get(pk=encounter.pk).version
    response = _step(
        client, encounter, type="attack", attacker=tie, target=falcon, difficulty="99999999", gun=0
    )
    assert response.status_code == 400
    assert "is not a whole number from 0 to 1000" in response.content.decode()
    assert Encounter.objects.get(pk=encounter.pk).version == before


def test_the_add_page_says_every_craft_is_in_the_fight_already(client, hangar):
    campaign, encounter, ship, tie, *_ = hangar
    client.force_login(campaign.created_by)
    _add_craft(client, encounter, ship, "rebels")
    _add_craft(client, encounter, tie, "empire")
    assert len(_state(encounter).combatants) == 4
    url = reverse("encounters:add", args=[campaign.pk, encounter.pk])
    html = client.get(url).content.decode()
    assert "Every vehicle and starship of the campaign is in this fight already" in html


@pytest.mark.parametrize("raw", ["--5", "²", "1²", "٣"])
def test_a_number_with_two_minus_signs_or_a_non_ascii_digit_is_refused_not_a_crash(
    client, hangar, raw
):
    encounter = hangar[1]
    falcon, tie = _in_round(client, hangar)
    before = Encounter.objects.get(pk=encounter.pk).version
    response = _step(
        client, encounter, type="attack", attacker=tie, target=falcon, difficulty=raw, gun=0
    )
    assert response.status_code == 400
    assert "is not a whole number" in response.content.decode()
    assert Encounter.objects.get(pk=encounter.pk).version == before


def test_a_step_whose_seen_version_is_a_superscript_digit_is_refused_not_a_crash(client, hangar):
    encounter = hangar[1]
    falcon, tie = _in_round(client, hangar)
    before = Encounter.objects.get(pk=encounter.pk).version
    response = _step(
        client, encounter, type="set_arc", craft=falcon, other=tie, arc="back", seen="²"
    )
    assert response.status_code == 400
    assert "reload it" in response.content.decode()
    assert Encounter.objects.get(pk=encounter.pk).version == before


def test_a_poll_with_a_superscript_digit_version_gets_the_whole_fight_not_a_crash(client, hangar):
    encounter = hangar[1]
    _in_round(client, hangar)
    url = reverse("encounters:live", args=[encounter.campaign_id, encounter.pk])
    response = client.get(url, {"v": "²"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "TIE 1" in response.content.decode()


def test_a_gm_override_to_a_superscript_digit_is_refused_not_a_crash(client, hangar):
    encounter = hangar[1]
    _falcon, tie = _in_round(client, hangar)
    before = Encounter.objects.get(pk=encounter.pk).version
    response = _step(
        client, encounter, type="gm_override", combatant=tie, field="declared", value="²"
    )
    assert response.status_code == 400
    assert Encounter.objects.get(pk=encounter.pk).version == before


def test_the_pilots_phone_gets_the_dodge_form_by_the_poll_when_his_craft_is_attacked(
    client, hangar
):
    campaign, encounter, _ship, _tie, _han, _chewie, p1, _p2 = hangar
    falcon, tie = _in_round(client, hangar)
    seen = Encounter.objects.get(pk=encounter.pk).version
    _step(client, encounter, type="attack", attacker=tie, target=falcon, difficulty=10, gun=0)
    client.force_login(p1)
    url = reverse("encounters:live", args=[campaign.pk, encounter.pk])
    response = client.get(url, {"v": seen}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Stellar Envoy is under attack: you fly it." in response.content.decode()


def test_a_destroyed_craft_is_not_called_unconscious(client, hangar):
    encounter = hangar[1]
    _falcon, tie = _in_round(client, hangar)
    enc = Encounter.objects.get(pk=encounter.pk)
    state = enc.current_state()
    c = state.combatant(tie)
    wreck = c.craft.damage.__class__(damage="destroyed")
    c = c.replace(craft=c.craft.replace(damage=wreck), knocked_out=True, lost_actions=True)
    enc.keep_state(state.with_combatant(c))
    enc.save(update_fields=["state"])
    html = _page(client, encounter)
    row = html[html.index(f'id="row-{tie}"') :]
    row = row[: row.index("</li>")]
    assert "destroyed" in row
    assert "unconscious" not in row
    # Nor is it said to have actions left.
    whole = html[html.index(f'id="row-{tie}"') :]
    whole = whole[: whole.index('id="row-', 10)] if 'id="row-' in whole[10:] else whole
    assert "Out of the fight" in whole
    assert " left</strong>" not in whole


def test_the_gms_weapon_choice_names_each_gun_once_with_the_craft_that_carry_it(
    client, hangar, monkeypatch
):
    campaign, encounter, ship, tie, *_ = hangar
    client.force_login(campaign.created_by)
    _add_craft(client, encounter, ship, "rebels")
    _add_craft(client, encounter, tie, "empire", count=3)
    monkeypatch.setattr(views, "dice", lambda: FixedDice([1, 1, 5, 5, 5, 5]))
    _step(client, encounter, type="roll_initiative")
    _step(client, encounter, type="choose_order", side="empire", first="on")
    html = _page(client, encounter)
    guns = html[html.index('id="atk-gun"') :]
    guns = guns[: guns.index("</select>")]
    assert "gun 1: Quad laser (Stellar Envoy) · Laser cannons (TIE 1, TIE 1 2, TIE 1 3)" in guns
    assert "gun 2: Rear laser (Stellar Envoy)" in guns


def test_a_players_card_says_which_station_of_which_craft_he_holds(client, hangar):
    encounter, p2 = hangar[1], hangar[7]
    _in_round(client, hangar)
    client.force_login(p2)
    html = _page(client, encounter)
    card = html[html.index('class="card you"') :]
    card = card[: card.index("</section>")]
    assert "Aboard Stellar Envoy: gunner, gun 1 (Quad laser)" in card


def test_after_the_pilot_dodged_his_status_line_no_longer_asks_him_to_dodge(
    client, hangar, monkeypatch
):
    encounter, han, p1 = hangar[1], hangar[4], hangar[6]
    falcon, tie = _in_round(client, hangar)
    _step(client, encounter, type="attack", attacker=tie, target=falcon, difficulty=10, gun=0)
    client.force_login(p1)
    assert "dodge now or take it" in _page(client, encounter)
    monkeypatch.setattr(views, "dice", lambda: FixedDice([3] * 12))
    response = _step(
        client, encounter, type="react", combatant=f"pc-{han.pk}", skill="starship dodge"
    )
    assert response.status_code == 200
    html = _page(client, encounter)
    assert "dodge now or take it" not in html
    assert "your reaction stands; waiting for the roll" in html
