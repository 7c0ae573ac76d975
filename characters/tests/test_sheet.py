import pytest
from django.urls import reverse

from campaigns.tests.factories import MembershipFactory
from characters.models import Character, Currency, DiceRoll, LedgerEntry, Skill
from characters.services import change_balance
from characters.tests.factories import CharacterFactory, ItemFactory, NPCFactory, SkillFactory

pytestmark = pytest.mark.django_db


def sheet_url(c):
    return reverse("characters:sheet", args=[c.campaign_id, c.pk])


def roll_url(c):
    return reverse("characters:roll", args=[c.campaign_id, c.pk])


@pytest.fixture
def hero(client):
    character = CharacterFactory(name="Kyle")
    blaster = SkillFactory(character=character, name="blaster", code="5D+1")
    change_balance(character, Currency.CP, 3, "start")
    client.force_login(character.owner)
    character.blaster = blaster
    return character


def test_the_sheet_groups_skills_under_their_attribute(client, hero):
    text = client.get(sheet_url(hero)).text
    assert "Dexterity" in text and "3D+1" in text
    assert text.index("Dexterity") < text.index("blaster") < text.index("Knowledge")


def test_the_sheet_renders_in_a_constant_number_of_queries(
    client, hero, django_assert_max_num_queries
):
    for i in range(60):
        SkillFactory(
            character=hero,
            name=f"extra skill {i}",
            attribute=[
                "dexterity",
                "knowledge",
                "mechanical",
                "perception",
                "strength",
                "technical",
            ][i % 6],
        )
    for _ in range(20):
        ItemFactory(character=hero)
    with django_assert_max_num_queries(7):
        response = client.get(sheet_url(hero))
    assert response.status_code == 200
    assert response.text.count('class="trait"') + response.text.count("trait attr-trait") >= 66


def test_the_roll_panel_shows_the_exact_odds_for_each_difficulty(client, hero):
    response = client.get(
        roll_url(hero), {"trait": f"skill:{hero.blaster.pk}"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "Very Easy" in response.text and "Heroic" in response.text
    assert "100%" in response.text  # 5D+1 against Very Easy 5


def test_rolling_with_one_cp_stores_the_roll_and_debits_the_ledger_together(client, hero):
    response = client.post(
        roll_url(hero),
        {"trait": f"skill:{hero.blaster.pk}", "actions": 1, "modifier": 0, "cp": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert response["HX-Trigger"] == "roll-made"
    roll = DiceRoll.objects.get()
    assert len(roll.dice["cp"]) == 1
    assert len(roll.dice["normal"]) == 4 and roll.dice["wild"]
    hero.refresh_from_db()
    assert hero.character_points == 2
    entry = LedgerEntry.objects.get(delta=-1)
    assert entry.roll == roll and entry.balance_after == 2
    assert f'class="roll-total">{roll.total}<' in response.text


def test_more_cp_than_the_rules_allow_on_a_skill_roll_is_refused(client, hero):
    response = client.post(
        roll_url(hero), {"trait": f"skill:{hero.blaster.pk}", "actions": 1, "modifier": 0, "cp": 3}
    )
    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 2" in response.text
    assert not DiceRoll.objects.exists()
    hero.refresh_from_db()
    assert hero.character_points == 3


def test_cp_and_a_force_point_on_the_same_roll_are_refused(client, hero):
    change_balance(hero, Currency.FP, 1, "start")
    response = client.post(
        roll_url(hero),
        {
            "trait": f"skill:{hero.blaster.pk}",
            "actions": 1,
            "modifier": 0,
            "cp": 1,
            "force_point": "on",
        },
    )
    assert response.status_code == 400
    assert "never both" in response.text
    assert not DiceRoll.objects.exists()


def test_negative_cp_is_refused(client, hero):
    response = client.post(
        roll_url(hero), {"trait": f"skill:{hero.blaster.pk}", "actions": 1, "modifier": 0, "cp": -1}
    )
    assert response.status_code == 400
    assert not DiceRoll.objects.exists()


def test_spending_cp_not_held_is_refused_with_a_clear_message(client, hero):
    change_balance(hero, Currency.CP, -3, "spent elsewhere")
    response = client.post(
        roll_url(hero), {"trait": f"skill:{hero.blaster.pk}", "actions": 1, "modifier": 0, "cp": 1}
    )
    assert response.status_code == 400
    assert "not enough Character Points: 1 needed, 0 held" in response.text
    assert not DiceRoll.objects.exists()


def test_an_unknown_skill_is_a_400_with_a_reason(client, hero):
    other = SkillFactory()
    response = client.post(
        roll_url(hero), {"trait": f"skill:{other.pk}", "actions": 1, "modifier": 0, "cp": 0}
    )
    assert response.status_code == 400
    assert b"no such skill" in response.content
    assert not DiceRoll.objects.exists()


def test_a_wound_penalty_is_applied_automatically(client, hero):
    Character.objects.filter(pk=hero.pk).update(wound_level="wounded_twice")
    client.post(roll_url(hero), {"trait": "attr:dexterity", "actions": 1, "modifier": 0, "cp": 0})
    roll = DiceRoll.objects.get()
    assert roll.code == "3D+1"
    assert roll.pool == "1D+1"  # 3D+1 - 2D (wounded twice)


def test_an_incapacitated_character_cannot_roll(client, hero):
    Character.objects.filter(pk=hero.pk).update(wound_level="incapacitated")
    response = client.post(
        roll_url(hero), {"trait": "attr:dexterity", "actions": 1, "modifier": 0, "cp": 0}
    )
    assert response.status_code == 400
    assert "cannot act" in response.text


def test_a_player_cannot_roll_for_another_players_character(client, hero):
    other = CharacterFactory(campaign=hero.campaign)
    response = client.post(
        roll_url(other), {"trait": "attr:dexterity", "actions": 1, "modifier": 0, "cp": 0}
    )
    assert response.status_code == 403
    assert not DiceRoll.objects.exists()


def test_a_character_of_another_campaign_is_a_404(client, hero):
    stranger = CharacterFactory()
    assert client.get(sheet_url(stranger)).status_code == 404
    response = client.post(
        roll_url(stranger), {"trait": "attr:dexterity", "actions": 1, "modifier": 0, "cp": 0}
    )
    assert response.status_code == 404


def test_a_secret_npc_is_invisible_to_players_but_not_to_the_gm(client, hero):
    npc = NPCFactory(campaign=hero.campaign, secret=True, name="Inquisitor")
    assert client.get(sheet_url(npc)).status_code == 404
    assert "Inquisitor" not in client.get(reverse("characters:list", args=[hero.campaign_id])).text
    client.force_login(hero.campaign.created_by)
    assert client.get(sheet_url(npc)).status_code == 200


def test_a_player_edits_only_the_fields_the_gm_allows(client, hero):
    response = client.post(
        reverse("characters:edit", args=[hero.campaign_id, hero.pk]),
        {"name": "Kyle Katarn", "dexterity": "6D", "notes": "ex-Imperial"},
    )
    assert response.status_code == 302
    hero.refresh_from_db()
    assert hero.name == "Kyle Katarn"
    assert str(hero.dexterity) == "3D+1"


def test_a_gm_typing_9d_plus_7_gets_an_error_and_nothing_changes(client, hero):
    client.force_login(hero.campaign.created_by)
    data = {
        "name": hero.name,
        "species": "Human",
        "move": 10,
        "wound_level": "none",
        "stuns": 0,
        "dexterity": "9D+7",
        "knowledge": "2D",
        "mechanical": "2D",
        "perception": "2D",
        "strength": "2D",
        "technical": "2D",
    }
    response = client.post(reverse("characters:edit", args=[hero.campaign_id, hero.pk]), data)
    assert response.status_code == 400
    assert "has 7 pips" in response.text and "11D+1" in response.text
    hero.refresh_from_db()
    assert str(hero.dexterity) == "3D+1"


def test_the_gm_awards_character_points_through_the_ledger(client, hero):
    client.force_login(hero.campaign.created_by)
    client.post(
        reverse("characters:award", args=[hero.campaign_id, hero.pk]),
        {"currency": "cp", "delta": 4, "reason": "Saved the princess"},
    )
    hero.refresh_from_db()
    assert hero.character_points == 7
    assert LedgerEntry.objects.filter(reason="Saved the princess", delta=4).exists()


def test_an_award_taking_a_balance_below_zero_changes_nothing(client, hero):
    client.force_login(hero.campaign.created_by)
    response = client.post(
        reverse("characters:award", args=[hero.campaign_id, hero.pk]),
        {"currency": "fp", "delta": -1, "reason": "oops"},
        follow=True,
    )
    assert "Nothing changed: not enough Force Points" in response.text
    hero.refresh_from_db()
    assert hero.force_points == 0


def test_a_player_cannot_award_points(client, hero):
    response = client.post(
        reverse("characters:award", args=[hero.campaign_id, hero.pk]),
        {"currency": "cp", "delta": 100, "reason": "me"},
    )
    assert response.status_code == 403
    hero.refresh_from_db()
    assert hero.character_points == 3


def test_deleting_needs_the_name_typed(client, hero):
    url = reverse("characters:delete", args=[hero.campaign_id, hero.pk])
    client.post(url, {"confirm_name": "wrong"})
    assert Character.objects.filter(pk=hero.pk).exists()
    client.post(url, {"confirm_name": "Kyle"})
    assert not Character.objects.filter(pk=hero.pk).exists()


def test_the_dice_log_shows_rolls_and_hides_gm_secrets_from_players(client, hero):
    client.post(roll_url(hero), {"trait": "attr:dexterity", "actions": 1, "modifier": 0, "cp": 0})
    gm = hero.campaign.created_by
    client.force_login(gm)
    client.post(
        roll_url(hero),
        {"trait": "attr:strength", "actions": 1, "modifier": 0, "cp": 0, "hidden": "on"},
    )
    log = reverse("characters:dice_log", args=[hero.campaign_id])
    assert "Strength" in client.get(log).text
    client.force_login(hero.owner)
    text = client.get(log).text
    assert "Dexterity" in text and "Strength" not in text


def test_an_outsider_cannot_see_the_dice_log(client, hero):
    client.force_login(MembershipFactory().user)
    assert client.get(reverse("characters:dice_log", args=[hero.campaign_id])).status_code == 404


def test_skill_codes_sort_by_total_pips_in_sql(hero):
    SkillFactory(character=hero, name="a", code="4D+2")
    SkillFactory(character=hero, name="b", code="5D")
    names = list(
        Skill.objects.filter(character=hero).order_by("-code").values_list("name", flat=True)
    )
    assert names[:2] == ["blaster", "b"]


def test_the_sheet_lists_gear_armour_and_powers_with_user_text_escaped(client, hero):
    ItemFactory(character=hero, name="<b>Vibro</b>knife", damage="3D", quantity=2, ranges="")
    ItemFactory(
        character=hero,
        kind="armour",
        name="Blast vest",
        damage=None,
        armour_physical="1D",
        armour_energy="1D+1",
        skill="",
        ranges="",
    )
    hero.powers.create(name="Life detection", skills="sense")
    text = client.get(sheet_url(hero)).text
    assert "&lt;b&gt;Vibro&lt;/b&gt;knife ×2" in text and "<b>Vibro" not in text
    assert "+1D physical +1D+1 energy" in text
    assert "Life detection" in text and "sense" in text


def test_a_co_gm_edits_and_rolls_for_any_character_of_the_campaign(client, hero):
    co_gm = MembershipFactory(campaign=hero.campaign, role="co_gm").user
    client.force_login(co_gm)
    assert (
        client.get(reverse("characters:edit", args=[hero.campaign_id, hero.pk])).status_code == 200
    )
    response = client.post(
        roll_url(hero), {"trait": "attr:dexterity", "actions": 1, "modifier": 0, "cp": 0}
    )
    assert response.status_code == 302
    assert DiceRoll.objects.get().actor == co_gm
