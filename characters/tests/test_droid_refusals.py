"""Bad input to the droid builder gets a clear message and changes nothing: a Force skill, a
14D skill, negative armour, pips, over budget, macrobinoculars without vision, a player
building an NPC droid or another player's droid. (A campaign whose GM approves new characters:
test_droid_approval.py.)
Run on PostgreSQL (scripts/test.sh), where lengths and constraints are enforced."""

import html

import pytest

from campaigns.tests.factories import CampaignFactory, MembershipFactory, UserFactory
from characters.droid_builder import DroidRefused, build_droid
from characters.models import Character, Item, LedgerEntry, Skill
from characters.tests.test_droid_builder import builder_url, droid_post
from rules import DieCode
from rules.droids import DroidDesign, DroidSkill

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    campaign = CampaignFactory(name="Outer Rim Run")
    player = MembershipFactory(campaign=campaign).user
    other = MembershipFactory(campaign=campaign).user
    return campaign, campaign.created_by, player, other


def books() -> tuple[int, int, int, int]:
    return (
        Character.objects.count(),
        Skill.objects.count(),
        Item.objects.count(),
        LedgerEntry.objects.count(),
    )


def refused(client, campaign, data, status=400) -> str:
    before = books()
    response = client.post(builder_url(campaign), data)
    assert response.status_code == status
    assert books() == before
    return html.unescape(response.content.decode())


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        pytest.param(
            {"skills": [("sense", "perception", "2D")]},
            "droids may never have Force skills (sense)",
            id="force-skill",
        ),
        pytest.param(
            {"attributes": {"knowledge": "2D"}, "skills": [("languages", "knowledge", "14D")]},
            "languages 14D is above 13D, the limit of droid technology",
            id="14D-skill",
        ),
        pytest.param({"armor": "-1D"}, "armor cannot be negative (got -1D)", id="negative-armour"),
        pytest.param(
            {"attributes": {"dexterity": "2D+1"}},
            "Dexterity 2D+1: building dice buy whole dice only (no pips); make it 2D or 3D",
            id="pips-attribute",
        ),
        pytest.param(
            {"skills": [("blaster", "dexterity", "3D+2")]},
            "blaster 3D+2: building dice buy whole dice only (no pips); make it 3D or 4D",
            id="pips-skill",
        ),
        pytest.param(
            {"attributes": {"strength": "14D"}, "armor": "1D"},
            "K-9X uses 68D of building dice; the budget is 65D (3D over)",
            id="over-budget",
        ),
        pytest.param(
            {"items": [("macrobinoculars", "1", "0", False)]},
            "macrobinoculars need some form of vision first, such as photoreceptors",
            id="blind-macrobinoculars",
        ),
        pytest.param(
            {"speed": "0D"},
            "speed code 0D is below Dexterity 1D",
            id="speed-below-dexterity",
        ),
        pytest.param(
            {"attributes": {"technical": "0D"}},
            "Technical 0D: a droid attribute cannot be below 1D",
            id="attribute-below-1D",
        ),
    ],
)
def test_a_design_the_rules_refuse_is_not_built_and_says_why(client, table, changes, message):
    campaign, _, player, _ = table
    client.force_login(player)
    page = refused(client, campaign, droid_post(**changes))
    assert "Not built: Fix these first:" in page
    assert message in page


def test_a_form_entry_that_is_no_die_code_is_named(client, table):
    campaign, _, player, _ = table
    client.force_login(player)
    page = refused(client, campaign, droid_post(attributes={"strength": "lots"}))
    assert "Not built: check the entries marked below." in page
    assert "Strength: 'lots' contains 'l'" in page


def test_a_droid_needs_a_name(client, table):
    campaign, _, player, _ = table
    client.force_login(player)
    page = refused(client, campaign, droid_post(name="  "))
    assert "Name: This field is required." in page


def test_an_item_carried_zero_times_is_refused(client, table):
    campaign, _, player, _ = table
    client.force_login(player)
    page = refused(client, campaign, droid_post(items=[("arm", "0", "0", False)]))
    assert "How many 1: Ensure this value is greater than or equal to 1." in page


def test_a_player_cannot_build_an_npc_droid(client, table):
    campaign, _, player, _ = table
    client.force_login(player)
    page = refused(client, campaign, droid_post(kind="npc"), status=403)
    assert "Only the campaign's game masters build NPC droids." in page


def test_a_player_cannot_build_a_droid_for_another_player(client, table):
    campaign, _, player, other = table
    client.force_login(player)
    page = refused(client, campaign, droid_post(owner=other.pk), status=403)
    assert "You build droids for yourself only" in page


def test_the_service_refuses_a_player_building_for_another_player(table):
    campaign, _, player, other = table
    before = books()
    with pytest.raises(DroidRefused, match="yourself only") as refusal:
        build_droid(campaign, player, DroidDesign("K-9X", player_character=True), owner_id=other.pk)
    assert refusal.value.status == 403
    assert books() == before


def test_the_service_refuses_a_player_building_an_npc_droid(table):
    campaign, _, player, _ = table
    with pytest.raises(DroidRefused, match="Only the campaign's game masters"):
        build_droid(campaign, player, DroidDesign("IG-88"), owner_id=None)
    assert books() == (0, 0, 0, 0)


def test_a_gm_cannot_give_a_droid_to_someone_outside_the_campaign(client, table):
    campaign, gm, _, _ = table
    stranger = UserFactory()
    client.force_login(gm)
    page = refused(client, campaign, droid_post(owner=stranger.pk))
    assert "Select a valid choice" in page


def test_the_service_refuses_an_owner_outside_the_campaign(table):
    campaign, gm, _, _ = table
    stranger = UserFactory()
    with pytest.raises(DroidRefused, match="not in this campaign"):
        build_droid(campaign, gm, DroidDesign("K-9X", player_character=True), owner_id=stranger.pk)
    assert books() == (0, 0, 0, 0)


def test_the_service_refuses_a_design_over_13d_even_without_the_page(table):
    campaign, gm, _, _ = table
    design = DroidDesign(
        "Brainiac",
        player_character=True,
        skills=(DroidSkill("languages", "knowledge", DieCode(13, 1)),),
    )
    with pytest.raises(DroidRefused, match="limit of droid technology"):
        build_droid(campaign, gm, design, owner_id=gm.pk)
    assert books() == (0, 0, 0, 0)


def test_in_a_campaign_whose_gm_approves_characters_a_bad_droid_is_not_sent(client):
    # A sound design goes to the GM (test_droid_approval.py); a refused one goes nowhere.
    campaign = CampaignFactory(approve_characters=True)
    player = MembershipFactory(campaign=campaign).user
    client.force_login(player)
    assert "saving sends the droid to the GM" in client.get(builder_url(campaign)).text
    page = refused(client, campaign, droid_post(skills=[("sense", "perception", "2D")]))
    assert "droids may never have Force skills (sense)" in page


def test_a_long_name_is_refused_by_the_form_not_the_database(client, table):
    campaign, _, player, _ = table
    client.force_login(player)
    page = refused(client, campaign, droid_post(name="K" * 101, model="M" * 61))
    assert "Name: Ensure this value has at most 100 characters" in page
    assert "Model: Ensure this value has at most 60 characters" in page


def test_two_skills_of_one_name_are_refused(client, table):
    campaign, _, player, _ = table
    client.force_login(player)
    skills = [("blaster", "dexterity", "2D"), ("Blaster", "dexterity", "3D")]
    page = refused(client, campaign, droid_post(skills=skills))
    assert "two skills are called Blaster" in page


def test_a_tampered_row_count_is_refused_not_a_server_error(client, table):
    campaign, _, player, _ = table
    client.force_login(player)
    data = droid_post(skills=[("blaster", "dexterity", "2D")])
    data["skills-TOTAL_FORMS"] = "100000"
    page = refused(client, campaign, data)
    assert "Please submit at most 40 forms." in page
