"""The character creation wizard: step by step, saved on the server, checked live against the
campaign's creation rules, and created in one transaction."""

import pytest
from django.urls import reverse

from campaigns.models import Membership
from campaigns.tests.factories import CampaignFactory, MembershipFactory, UserFactory
from characters.models import Character, CreationDraft, Currency, LedgerEntry
from rules import DieCode, RuleSet

pytestmark = pytest.mark.django_db

GOOD_ATTRIBUTES = {
    "dexterity": "4D",
    "knowledge": "3D",
    "mechanical": "3D",
    "perception": "3D",
    "strength": "2D+1",
    "technical": "2D+2",
}
# 7D: blaster +2D, dodge +1D, streetwise +1D, space transports +2D, and 1D traded for the
# heavy blaster pistol specialization (+1D above blaster).
GOOD_SKILLS = [
    {"name": "blaster", "code": "6D"},
    {"name": "dodge", "code": "5D"},
    {"name": "Streetwise", "code": "4D"},
    {"name": "space transports", "code": "5D"},
    {"name": "heavy blaster pistol", "specialization_of": "blaster", "code": "7D"},
]


@pytest.fixture
def campaign():
    return CampaignFactory()


@pytest.fixture
def gm(campaign):
    return campaign.created_by


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


def start_url(campaign):
    return reverse("characters:wizard_start", args=[campaign.pk])


def step_url(draft, step):
    return reverse("characters:wizard_step", args=[draft.campaign_id, draft.pk, step])


def skills_post(rows):
    data = {
        "skills-TOTAL_FORMS": str(len(rows)),
        "skills-INITIAL_FORMS": "0",
        "skills-MIN_NUM_FORMS": "0",
        "skills-MAX_NUM_FORMS": "40",
    }
    for i, row in enumerate(rows):
        for key in ("name", "attribute", "specialization_of", "code"):
            data[f"skills-{i}-{key}"] = row.get(key, "")
    return data


def begin(client, campaign, user, **start):
    client.force_login(user)
    response = client.post(start_url(campaign), start or {"kind": "pc"})
    assert response.status_code == 302
    return CreationDraft.objects.get(user=user)


def save(client, draft, step, data, expect=302):
    response = client.post(step_url(draft, step), data)
    assert response.status_code == expect, response.content.decode()[:2000]
    return response


def fill_all(client, draft, *, attributes=GOOD_ATTRIBUTES, skills=GOOD_SKILLS, name="Kessa Vel"):
    save(client, draft, "species", {"species": "Human"})
    save(client, draft, "attributes", attributes)
    save(client, draft, "skills", skills_post(skills))
    save(client, draft, "force", {})
    save(
        client,
        draft,
        "gear",
        {"weapons": ["Blaster pistol"], "items": "2 x medpac\ncomlink", "credits": "500"},
    )
    save(client, draft, "background", {"name": name, "gender": "female", "age": "27"})


def live(client, draft, step, data):
    return client.post(step_url(draft, step), {**data, "_live": "1"}, HTTP_HX_REQUEST="true")


# ---------------------------------------------------------------------------------------------
# The whole journey
# ---------------------------------------------------------------------------------------------
def test_full_journey_creates_the_character_with_its_codes_skills_items_and_ledger(
    client, campaign, player
):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    review = client.get(step_url(draft, "review"))
    assert "No problems." in review.content.decode()

    response = client.post(step_url(draft, "review"))

    character = Character.objects.get()
    assert response.status_code == 302
    assert response.url == character.get_absolute_url()
    assert character.owner == player
    assert character.kind == Character.Kind.PC
    assert character.name == "Kessa Vel"
    assert character.dexterity == DieCode.parse("4D")
    assert character.strength == DieCode.parse("2D+1")
    assert character.move == 10
    skills = {s.name: (str(s.code), s.attribute, s.kind) for s in character.skills.all()}
    assert skills == {
        "blaster": ("6D", "dexterity", "skill"),
        "dodge": ("5D", "dexterity", "skill"),
        "streetwise": ("4D", "knowledge", "skill"),
        "space transports": ("5D", "mechanical", "skill"),
        "heavy blaster pistol": ("7D", "dexterity", "specialization"),
    }
    items = {(i.kind, i.name, i.quantity) for i in character.items.all()}
    assert items == {("weapon", "Blaster pistol", 1), ("gear", "medpac", 2), ("gear", "comlink", 1)}
    assert str(character.items.get(kind="weapon").damage) == "4D"
    assert (character.character_points, character.force_points, character.credits) == (5, 1, 500)
    ledger = {(e.currency, e.delta, e.reason) for e in LedgerEntry.objects.all()}
    assert ledger == {
        (Currency.CP, 5, "Starting Character Points"),
        (Currency.FP, 1, "Starting Force Points"),
        (Currency.CREDITS, 500, "Starting credits"),
    }
    assert not CreationDraft.objects.exists()


def test_saving_a_step_moves_on_to_the_next(client, campaign, player):
    draft = begin(client, campaign, player)
    response = save(client, draft, "species", {"species": "Human"})
    assert response.url == step_url(draft, "attributes")
    draft.refresh_from_db()
    assert draft.step == "attributes"


def test_reloading_a_step_shows_what_was_saved(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    attributes = client.get(step_url(draft, "attributes")).content.decode()
    assert 'value="2D+2"' in attributes
    skills = client.get(step_url(draft, "skills")).content.decode()
    assert 'name="skills-4-name" value="heavy blaster pistol"' in skills
    assert 'aria-label="Skill 5"' in skills
    background = client.get(step_url(draft, "background")).content.decode()
    assert 'value="Kessa Vel"' in background


def test_going_back_keeps_later_steps(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    save(client, draft, "attributes", GOOD_ATTRIBUTES)
    draft.refresh_from_db()
    assert draft.data["background"]["name"] == "Kessa Vel"


def test_step_pages_have_the_hooks_the_browser_test_uses(client, campaign, player):
    draft = begin(client, campaign, player)
    page = client.get(step_url(draft, "attributes")).content.decode()
    assert "<h1>Attributes" in page
    assert 'id="budget" role="status"' in page
    assert "Save and continue" in page
    assert ">Dexterity</label>" in page
    assert 'hx-trigger="input changed delay:300ms"' in page
    skills = client.get(step_url(draft, "skills")).content.decode()
    assert 'aria-label="Skill 1"' in skills and 'aria-label="Code 1"' in skills
    assert "Add skill" in skills


# ---------------------------------------------------------------------------------------------
# Live checking and refusals
# ---------------------------------------------------------------------------------------------
def test_live_check_shows_the_attribute_dice_left(client, campaign, player):
    draft = begin(client, campaign, player)
    response = live(client, draft, "attributes", {**GOOD_ATTRIBUTES, "technical": "2D"})
    text = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in text
    assert "Attributes: 17D+1 of 18D used — 2 pips left" in text
    draft.refresh_from_db()
    assert "attributes" not in draft.data


def test_nine_d_plus_seven_gets_a_clear_error(client, campaign, player):
    draft = begin(client, campaign, player)
    message = "9D+7 has 7 pips; a die code has 0, 1 or 2 pips"
    assert message in live(client, draft, "attributes", {"dexterity": "9D+7"}).content.decode()
    response = save(client, draft, "attributes", {**GOOD_ATTRIBUTES, "dexterity": "9D+7"}, 200)
    assert message in response.content.decode()
    draft.refresh_from_db()
    assert "attributes" not in draft.data


def test_over_budget_attributes_are_shown_and_creation_is_refused(client, campaign, player):
    draft = begin(client, campaign, player)
    too_many = {**GOOD_ATTRIBUTES, "dexterity": "4D", "knowledge": "4D", "mechanical": "4D"}
    fill_all(client, draft, attributes=too_many, skills=[])
    review = client.get(step_url(draft, "review")).content.decode()
    assert "Attributes use 20D of 18D" in review

    response = client.post(step_url(draft, "review"))

    assert response.status_code == 200
    assert "cannot be created yet" in response.content.decode()
    assert not Character.objects.exists()
    assert not LedgerEntry.objects.exists()
    assert CreationDraft.objects.filter(pk=draft.pk).exists()


def test_attribute_above_the_species_maximum_is_a_problem(client, campaign, player):
    draft = begin(client, campaign, player)
    save(client, draft, "species", {"species": "Human"})
    text = live(client, draft, "attributes", {**GOOD_ATTRIBUTES, "dexterity": "5D"}).content
    assert "Dexterity 5D is above the species maximum 4D" in text.decode()


def test_over_budget_skills_are_shown_and_creation_is_refused(client, campaign, player):
    draft = begin(client, campaign, player)
    skills = [*GOOD_SKILLS, {"name": "sneak", "code": "5D"}]
    fill_all(client, draft, skills=skills)
    review = client.get(step_url(draft, "review")).content.decode()
    assert "Skills use 9D of 7D" in review
    assert "Skills: 9D of 7D used — 2D over" in review
    client.post(step_url(draft, "review"))
    assert not Character.objects.exists()


def test_a_skill_raised_more_than_2d_is_a_problem(client, campaign, player):
    draft = begin(client, campaign, player)
    save(client, draft, "attributes", GOOD_ATTRIBUTES)
    text = live(client, draft, "skills", skills_post([{"name": "blaster", "code": "7D"}]))
    assert "at most 2D may be added to one skill" in text.content.decode()


def test_a_skill_not_in_the_list_needs_its_attribute(client, campaign, player):
    draft = begin(client, campaign, player)
    response = save(
        client, draft, "skills", skills_post([{"name": "Jawa trade", "code": "3D"}]), 200
    )
    assert "Choose the attribute Jawa trade belongs to." in response.content.decode()
    rows = [{"name": "Jawa trade", "attribute": "knowledge", "code": "3D"}]
    save(client, draft, "skills", skills_post(rows))
    draft.refresh_from_db()
    assert draft.data["skills"][0]["attribute"] == "knowledge"


def test_the_same_skill_twice_is_an_error(client, campaign, player):
    draft = begin(client, campaign, player)
    rows = [{"name": "blaster", "code": "4D"}, {"name": "Blaster", "code": "5D"}]
    response = save(client, draft, "skills", skills_post(rows), 200)
    assert "blaster is already in the list" in response.content.decode()


def test_add_skill_returns_one_more_row(client, campaign, player):
    draft = begin(client, campaign, player)
    data = {**skills_post([{"name": "blaster", "code": "4D"}]), "action": "add-skill"}
    response = client.post(step_url(draft, "skills"), data, HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert 'id="skill-rows"' in text and "<html" not in text
    assert 'aria-label="Skill 2"' in text
    assert 'name="skills-0-name" value="blaster"' in text


def test_remove_skill_drops_that_row(client, campaign, player):
    draft = begin(client, campaign, player)
    rows = [{"name": "blaster", "code": "4D"}, {"name": "dodge", "code": "4D"}]
    response = client.post(step_url(draft, "skills"), {**skills_post(rows), "action": "remove-0"})
    text = response.content.decode()
    assert 'name="skills-0-name" value="dodge"' in text
    assert 'name="skills-1-name"' not in text


def test_a_broken_skill_form_never_errors(client, campaign, player):
    draft = begin(client, campaign, player)
    response = client.post(step_url(draft, "skills"), {"skills-TOTAL_FORMS": "lots"})
    assert response.status_code == 200
    draft.refresh_from_db()
    assert "skills" not in draft.data


def test_unknown_step_is_404(client, campaign, player):
    draft = begin(client, campaign, player)
    assert client.get(step_url(draft, "droids")).status_code == 404


LIMITS = (("min", "1D"), ("max", "5D"))


def test_a_custom_species_needs_its_limits(client, campaign, gm):
    # A game master's own character: wider limits than a player may propose (see
    # test_wizard_hardening for the player's range).
    draft = begin(client, campaign, gm)
    response = save(client, draft, "species", {"species": "custom", "custom_name": "Zabrak"}, 200)
    assert "Enter the Dexterity minimum for this species." in response.content.decode()
    limits = {f"{a}_{end}": code for a in GOOD_ATTRIBUTES for end, code in LIMITS}
    zabrak = {"species": "custom", "custom_name": "Zabrak", "move": "11", **limits}
    save(client, draft, "species", zabrak)
    draft.refresh_from_db()
    assert draft.data["species"]["name"] == "Zabrak"
    text = live(client, draft, "attributes", {**GOOD_ATTRIBUTES, "dexterity": "5D"}).content
    assert "above the species maximum" not in text.decode()


# ---------------------------------------------------------------------------------------------
# The Force
# ---------------------------------------------------------------------------------------------
def test_a_force_sensitive_character_gets_force_skills_powers_and_two_force_points(
    client, campaign, player
):
    draft = begin(client, campaign, player)
    skills = [s for s in GOOD_SKILLS if s["name"] != "space transports"]  # leaves 2D
    fill_all(client, draft, skills=skills)
    force = {"force_sensitive": "on", "control": "1D", "sense": "1D", "powers": ["Life Sense"]}
    save(client, draft, "force", force)
    assert "No problems." in client.get(step_url(draft, "review")).content.decode()

    client.post(step_url(draft, "review"))

    character = Character.objects.get()
    assert character.force_sensitive
    assert str(character.skills.get(name="control").code) == "1D"
    assert character.skills.get(name="sense").kind == "force"
    assert list(character.powers.values_list("name", flat=True)) == ["Life Sense"]
    assert character.force_points == 2


def test_force_skills_need_force_sensitivity(client, campaign, player):
    draft = begin(client, campaign, player)
    response = save(client, draft, "force", {"control": "1D"}, 200)
    assert "Only a Force-sensitive character may have Force skills" in response.content.decode()


# ---------------------------------------------------------------------------------------------
# Who may do what
# ---------------------------------------------------------------------------------------------
def test_a_player_cannot_create_an_npc(client, campaign, player):
    client.force_login(player)
    response = client.post(start_url(campaign), {"kind": "npc", "npc_budget": "12d"})
    assert response.status_code == 403
    assert not CreationDraft.objects.exists()


def test_a_player_sees_only_player_character_start(client, campaign, player):
    client.force_login(player)
    page = client.get(start_url(campaign)).content.decode()
    assert "Non-player character" not in page


def test_nobody_else_sees_a_draft(client, campaign, player, gm):
    draft = begin(client, campaign, player)
    other = MembershipFactory(campaign=campaign).user
    for user in (other, gm):
        client.force_login(user)
        assert client.get(step_url(draft, "species")).status_code == 404
        assert client.post(step_url(draft, "review")).status_code == 404
        discard = reverse("characters:wizard_discard", args=[campaign.pk, draft.pk])
        assert client.post(discard).status_code == 404
    assert CreationDraft.objects.filter(pk=draft.pk).exists()


def test_an_outsider_gets_404(client, campaign):
    client.force_login(UserFactory())
    assert client.get(start_url(campaign)).status_code == 404
    assert client.post(start_url(campaign), {"kind": "pc"}).status_code == 404


def test_discarding_deletes_the_draft(client, campaign, player):
    draft = begin(client, campaign, player)
    response = client.post(reverse("characters:wizard_discard", args=[campaign.pk, draft.pk]))
    assert response.status_code == 302
    assert not CreationDraft.objects.exists()


def test_a_gm_creates_a_player_character_for_a_member(client, campaign, gm, player):
    draft = begin(client, campaign, gm, kind="pc", owner=str(player.pk))
    fill_all(client, draft)
    client.post(step_url(draft, "review"))
    assert Character.objects.get().owner == player


def test_a_gm_creates_a_free_form_secret_npc(client, campaign, gm):
    draft = begin(client, campaign, gm, kind="npc", npc_budget="free")
    strong = {**GOOD_ATTRIBUTES, "dexterity": "8D", "strength": "7D"}
    fill_all(client, draft, attributes=strong, skills=[{"name": "blaster", "code": "11D"}])
    save(client, draft, "background", {"name": "Bossk's cousin", "secret": "on"})
    review = client.get(step_url(draft, "review")).content.decode()
    assert "not enforced" in review

    response = client.post(step_url(draft, "review"))

    npc = Character.objects.get()
    assert response.url == npc.get_absolute_url()
    assert npc.kind == Character.Kind.NPC and npc.owner is None and npc.secret
    assert str(npc.dexterity) == "8D"
    assert str(npc.skills.get().code) == "11D"


def test_a_gm_npc_has_12d_of_attributes(client, campaign, gm):
    draft = begin(client, campaign, gm, kind="npc", npc_budget="12d")
    attributes = dict.fromkeys(GOOD_ATTRIBUTES, "2D")
    text = live(client, draft, "attributes", attributes).content.decode()
    assert "Attributes: 12D of 12D used — nothing left" in text


def test_a_free_form_npc_still_needs_a_name(client, campaign, gm):
    draft = begin(client, campaign, gm, kind="npc", npc_budget="free")
    save(client, draft, "attributes", GOOD_ATTRIBUTES)
    response = client.post(step_url(draft, "review"))
    assert "Give the character a name" in response.content.decode()
    assert not Character.objects.exists()


def test_a_player_demoted_draft_for_an_npc_is_forbidden(client, campaign, gm):
    draft = begin(client, campaign, gm, kind="npc", npc_budget="12d")
    Membership.objects.filter(user=gm).update(role=Membership.Role.PLAYER)
    assert client.get(step_url(draft, "species")).status_code == 403


# ---------------------------------------------------------------------------------------------
# Campaign rule options
# ---------------------------------------------------------------------------------------------
def test_the_house_rules_give_the_extra_character_points(client, campaign, player):
    campaign.set_ruleset(RuleSet.preset("house"))
    campaign.save()
    draft = begin(client, campaign, player)
    fill_all(client, draft, skills=GOOD_SKILLS)
    save(client, draft, "background", {"name": "Kessa Vel", "background_cp": "10"})

    client.post(step_url(draft, "review"))

    character = Character.objects.get()
    # 10 free + 20 House customising + 10 for the background.
    assert character.character_points == 40
    entry = LedgerEntry.objects.get(currency=Currency.CP)
    assert (entry.delta, entry.reason) == (40, "Starting Character Points")
