"""The creation wizard refuses what would break or unbalance a character (issue 12, defects 5,
10 and 11): skill names that clash (with each other or with a Force skill), limits and starting
credits a player may not set alone, and species numbers that were Human's instead of the
species' own."""

import pytest

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import wizard
from characters.models import Character, CreationDraft, LedgerEntry
from characters.tests.test_wizard import (
    GOOD_ATTRIBUTES,
    GOOD_SKILLS,
    begin,
    fill_all,
    live,
    save,
    skills_post,
    step_url,
)
from rules import DieCode

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign():
    return CampaignFactory()


@pytest.fixture
def gm(campaign):
    return campaign.created_by


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


def limits(minimum, maximum):
    return {
        f"{a}_{end}": code
        for a in GOOD_ATTRIBUTES
        for end, code in (("min", minimum), ("max", maximum))
    }


OVERPOWERED_SPECIES = {
    "species": "custom",
    "custom_name": "Titan",
    "move": "40",
    **limits("0D", "30D"),
}
# 18D: 13D of Dexterity and 1D in each of the other five.
OVERPOWERED_ATTRIBUTES = {**dict.fromkeys(GOOD_ATTRIBUTES, "1D"), "dexterity": "13D"}


def create(client, draft):
    return client.post(step_url(draft, "review"))


# ---------------------------------------------------------------------------------------------
# 5: skill names that clash never reach the database
# ---------------------------------------------------------------------------------------------
def test_a_specialization_named_like_a_force_skill_is_refused_at_the_skills_step(
    client, campaign, player
):
    draft = begin(client, campaign, player)
    rows = [
        {"name": "blaster", "code": "4D"},
        {"name": "Control", "specialization_of": "blaster", "code": "5D"},
    ]
    response = save(client, draft, "skills", skills_post(rows), 200)
    assert "Control is the name of a Force skill" in response.content.decode()
    draft.refresh_from_db()
    assert "skills" not in draft.data


CONTROL_ROWS = {
    "specialization": {"specialization_of": "search", "advanced": False, "code": "3D+1"},
    "skill": {"specialization_of": "", "advanced": False, "code": "3D"},
    "advanced": {"specialization_of": "", "advanced": True, "code": "3D"},
}


@pytest.mark.parametrize("kind", CONTROL_ROWS)
def test_a_saved_skill_named_like_a_force_skill_blocks_creation_naming_the_row(
    client, campaign, player, kind
):
    draft = begin(client, campaign, player)
    fill_all(client, draft, skills=[s for s in GOOD_SKILLS if s["name"] != "space transports"])
    save(client, draft, "force", {"force_sensitive": "on", "control": "1D", "sense": "1D"})
    draft.refresh_from_db()
    # A draft saved before the skills step refused the name (or edited by hand).
    row = {"name": "control", "attribute": "perception", **CONTROL_ROWS[kind]}
    draft.data["skills"] = [*draft.data["skills"][:3], row]
    draft.save()

    review = client.get(step_url(draft, "review")).content.decode()
    response = create(client, draft)

    assert "Skill 4, control: control is the name of a Force skill" in review
    assert response.status_code == 200
    assert "cannot be created yet" in response.content.decode()
    assert not Character.objects.exists()
    assert not LedgerEntry.objects.exists()
    assert CreationDraft.objects.filter(pk=draft.pk).exists()


def test_the_same_skill_in_two_cases_blocks_creation(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    draft.refresh_from_db()
    rows = draft.data["skills"]
    rows[2] = {**rows[2], "name": "Blaster", "attribute": "dexterity", "code": "4D"}
    draft.save()

    review = client.get(step_url(draft, "review")).content.decode()
    create(client, draft)

    assert "blaster is chosen 2 times" in review
    assert not Character.objects.exists()


def test_creating_from_a_clashing_draft_is_a_clean_refusal_not_a_database_error(
    client, campaign, player
):
    """Defence in depth: even if the checks before it were skipped, creation refuses a draft
    whose skills would share a name and leaves nothing behind."""
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    draft.refresh_from_db()
    draft.data["skills"].append(
        {"name": "control", "attribute": "dexterity", "specialization_of": "blaster", "code": "7D"}
    )
    draft.data["force"] = {"sensitive": True, "control": "1D", "powers": []}
    draft.save()
    membership = campaign.memberships.get(user=player)
    assessment = wizard.assess(draft, campaign.ruleset, draft.data, final=True, gm=False)
    assessment.problems.clear()  # as if the review had not looked

    with pytest.raises(wizard.CreationRefused, match="control"):
        wizard._create_character(draft, membership, player, assessment)

    assert not Character.objects.exists()
    assert not LedgerEntry.objects.exists()
    assert CreationDraft.objects.filter(pk=draft.pk).exists()


# ---------------------------------------------------------------------------------------------
# 10: players cannot give themselves what is the GM's to set
# ---------------------------------------------------------------------------------------------
def test_a_player_cannot_give_a_custom_species_limits_beyond_the_human_range(
    client, campaign, player
):
    draft = begin(client, campaign, player)
    response = save(client, draft, "species", OVERPOWERED_SPECIES, 200)
    text = response.content.decode()
    assert "Dexterity minimum 0D: every attribute has at least 1D" in text
    assert "Dexterity maximum 30D: a player may propose at most 4D" in text
    assert "the GM&#x27;s to set" in text
    draft.refresh_from_db()
    assert "species" not in draft.data


def test_a_player_cannot_give_a_custom_species_move_40(client, campaign, player):
    draft = begin(client, campaign, player)
    species = {**OVERPOWERED_SPECIES, **limits("1D", "4D")}
    response = save(client, draft, "species", species, 200)
    assert "Move 40: a player may propose at most 10" in response.content.decode()
    draft.refresh_from_db()
    assert "species" not in draft.data


def test_a_player_cannot_give_a_listed_species_move_40(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    save(client, draft, "species", {"species": "Human", "move": "40"})
    create(client, draft)
    assert Character.objects.get().move == 10


def test_a_player_proposal_within_the_human_range_is_kept_and_flagged_for_the_gm(
    client, campaign, player
):
    draft = begin(client, campaign, player)
    save(client, draft, "species", {"species": "Ewok", "move": "7", **limits("1D", "4D")})
    draft.refresh_from_db()
    assert draft.data["species"]["move"] == 7
    review = client.get(step_url(draft, "review")).content.decode()
    assert "the GM should check them" in review


def test_a_stale_overpowered_player_draft_is_refused_at_review(client, campaign, player):
    """A draft saved before these limits existed: 0D-30D limits, Move 40, 13D Dexterity and a
    million credits. Nothing is created."""
    draft = begin(client, campaign, player)
    fill_all(client, draft, attributes=OVERPOWERED_ATTRIBUTES)
    draft.refresh_from_db()
    draft.data["species"] = {
        "choice": "custom",
        "name": "Titan",
        "limits": {a: ["0D", "30D"] for a in GOOD_ATTRIBUTES},
        "move": 40,
    }
    draft.data["gear"]["credits"] = 1_000_000
    draft.save()

    review = client.get(step_url(draft, "review")).content.decode()
    response = create(client, draft)

    assert "Dexterity maximum 30D: a player may propose at most 4D" in review
    assert "Move 40: a player may propose at most 10" in review
    assert (
        "Starting credits 1,000,000: a player&#x27;s character starts with at most 1,000" in review
    )
    assert "cannot be created yet" in response.content.decode()
    assert not Character.objects.exists()
    assert not LedgerEntry.objects.exists()


def test_a_player_cannot_take_13d_dexterity(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft, attributes=OVERPOWERED_ATTRIBUTES, skills=[])
    save(client, draft, "species", {"species": "Ewok", "move": "10", **limits("1D", "4D")})

    review = client.get(step_url(draft, "review")).content.decode()
    create(client, draft)

    assert "Dexterity 13D is above the species maximum 4D" in review
    assert not Character.objects.exists()


def test_a_player_cannot_take_a_million_starting_credits(client, campaign, player):
    draft = begin(client, campaign, player)
    response = save(client, draft, "gear", {"credits": "1000000"}, 200)
    text = response.content.decode()
    assert "at most 1,000 starting credits" in text
    assert "the GM can award more through the ledger" in text
    draft.refresh_from_db()
    assert "gear" not in draft.data


def test_a_player_may_take_the_starting_credits(client, campaign, player):
    draft = begin(client, campaign, player)
    save(client, draft, "gear", {"credits": "1000"})
    draft.refresh_from_db()
    assert draft.data["gear"]["credits"] == 1000


def test_a_gm_sets_any_limits_move_and_credits_for_a_player_character(client, campaign, gm, player):
    draft = begin(client, campaign, gm, kind="pc", owner=str(player.pk))
    fill_all(client, draft, attributes=OVERPOWERED_ATTRIBUTES, skills=[])
    save(client, draft, "species", OVERPOWERED_SPECIES)
    save(client, draft, "gear", {"credits": "1000000"})

    response = create(client, draft)

    character = Character.objects.get()
    assert response.url == character.get_absolute_url()
    assert (character.owner, character.species, character.move) == (player, "Titan", 40)
    assert character.dexterity == DieCode(13)
    assert character.credits == 1_000_000


def test_a_gm_npc_of_a_species_without_statistics_takes_any_limits(client, campaign, gm):
    draft = begin(client, campaign, gm, kind="npc", npc_budget="12d")
    save(client, draft, "species", {"species": "Gamorrean", "move": "12", **limits("2D", "6D")})
    draft.refresh_from_db()
    assert draft.data["species"]["limits"]["strength"] == ["2D", "6D"]
    assert draft.data["species"]["move"] == 12


# ---------------------------------------------------------------------------------------------
# 11: a species' own numbers, never Human's
# ---------------------------------------------------------------------------------------------
def test_choosing_a_wookiee_stores_the_wookiee_move_and_limits(client, campaign, player):
    draft = begin(client, campaign, player)
    # The page used to post Human's Move along with the new choice.
    save(client, draft, "species", {"species": "Wookiee", "move": "10", **limits("2D", "4D")})
    draft.refresh_from_db()
    species = draft.data["species"]
    assert species["move"] == 11
    assert species["limits"]["strength"] == ["2D+2", "6D"]
    assert species["limits"]["knowledge"] == ["1D", "2D+1"]


def test_a_wookiee_is_created_with_move_11(client, campaign, player):
    draft = begin(client, campaign, player)
    wookiee = {
        "dexterity": "3D+2",
        "knowledge": "2D",
        "mechanical": "3D",
        "perception": "2D",
        "strength": "5D",
        "technical": "2D+1",
    }
    fill_all(client, draft, attributes=wookiee, skills=[])
    save(client, draft, "species", {"species": "Wookiee", "move": "10"})
    review = client.get(step_url(draft, "review")).content.decode()
    assert "Wookiee, Move 11" in review

    create(client, draft)

    character = Character.objects.get()
    assert (character.species, character.move) == ("Wookiee", 11)


def test_a_draft_saved_with_human_move_for_a_wookiee_gets_the_wookiee_move(
    client, campaign, player
):
    draft = begin(client, campaign, player)
    draft.data["species"] = {"choice": "Wookiee", "name": "Wookiee", "limits": {}, "move": 10}
    draft.save()
    text = live(client, draft, "attributes", {**GOOD_ATTRIBUTES, "strength": "5D"}).content
    assert "Strength 5D is above" not in text.decode()
    page = client.get(step_url(draft, "attributes")).content.decode()
    assert "Wookiee: 2D+2 to 6D" in page


def test_switching_species_shows_that_species_numbers(client, campaign, player):
    draft = begin(client, campaign, player)
    fragment = client.post(
        step_url(draft, "species"),
        {"species": "Wookiee", "move": "10", "_live": "1", "_part": "species-details"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "<html" not in fragment
    assert "Move 11" in fragment
    assert "6D" in fragment
    assert 'hx-swap-oob="innerHTML"' in fragment  # the budget follows the new species


def test_a_species_without_statistics_asks_for_limits_and_never_shows_human_ones(
    client, campaign, player
):
    draft = begin(client, campaign, player)
    fragment = client.post(
        step_url(draft, "species"),
        {"species": "Ewok", "_live": "1", "_part": "species-details"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "The sources print no limits for Ewoks" in fragment
    assert 'name="dexterity_min"' in fragment
    assert 'value="2D"' not in fragment and 'value="4D"' not in fragment
    assert 'name="move"' in fragment and 'value="10"' not in fragment


def test_the_species_page_offers_no_limits_to_edit_for_a_listed_species(client, campaign, player):
    draft = begin(client, campaign, player)
    page = client.get(step_url(draft, "species")).content.decode()
    # Human's numbers are shown as the species data, not as inputs another species would keep.
    assert 'name="dexterity_min"' not in page
    assert "Move 10" in page


def test_a_species_without_limits_saved_shows_no_human_limits_on_the_attributes_step(
    client, campaign, player
):
    draft = begin(client, campaign, player)
    draft.data["species"] = {"choice": "Ewok", "name": "Ewok", "limits": {}, "move": 10}
    draft.save()
    page = client.get(step_url(draft, "attributes")).content.decode()
    assert "2D to 4D" not in page
    assert "Ewok: limits not entered yet" in page
    review = client.get(step_url(draft, "review")).content.decode()
    assert "Enter the Ewok attribute limits and Move (Species step)" in review
    assert "Ewok, Move not entered yet" in review
