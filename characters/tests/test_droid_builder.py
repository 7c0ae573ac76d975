"""The droid builder (issue 18): the budget live as the player types, the source's worked
examples through the page and the service, and what a saved droid is on the campaign's books.
Bad input and who may build what: test_droid_refusals.py."""

import pytest
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.droid_builder import build_droid
from characters.models import Character, Item, LedgerEntry
from rules import DieCode
from rules.droids import DroidDesign, DroidItem, DroidSkill, load_droid_templates
from rules.traits import ATTRIBUTES

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


# --- helpers (test_droid_refusals.py and test_droid_sheet.py use them too) --------------------
def builder_url(campaign) -> str:
    return reverse("characters:droid_builder", args=[campaign.pk])


def rows(prefix: str, entries, names) -> dict:
    data = {f"{prefix}-TOTAL_FORMS": len(entries), f"{prefix}-INITIAL_FORMS": 0}
    for i, entry in enumerate(entries):
        for name, value in zip(names, entry, strict=True):
            if value is not False:
                data[f"{prefix}-{i}-{name}"] = "on" if value is True else value
    return data


def droid_post(
    *,
    kind="pc",
    name="K-9X",
    model="",
    attributes=None,
    speed="",
    armor="0D",
    skills=(),
    items=(),
    **extra,
) -> dict:
    """What the builder's form posts: ``skills`` as (name, attribute, code), ``items`` as
    (name, quantity, features, vision)."""
    data = {"kind": kind, "name": name, "model": model, "speed": speed, "armor": armor}
    data.update({a: (attributes or {}).get(a, "1D") for a in ATTRIBUTES})
    data.update(rows("skills", skills, ("name", "attribute", "code")))
    data.update(rows("items", items, ("name", "quantity", "features", "vision")))
    return {**data, **extra}


def design_post(design: DroidDesign, **extra) -> dict:
    """The form a design fills in (a template's, say)."""
    return droid_post(
        kind="pc" if design.player_character else "npc",
        attributes={a: str(design.attribute(a)) for a in ATTRIBUTES},
        speed="" if design.speed is None else str(design.speed),
        armor=str(design.armor),
        skills=[(s.name, s.attribute, str(s.code)) for s in design.skills],
        items=[(i.name, str(i.quantity), str(i.features), i.vision) for i in design.items],
        **extra,
    )


@pytest.fixture
def table():
    campaign = CampaignFactory(name="Outer Rim Run")
    player = MembershipFactory(campaign=campaign).user
    return campaign, campaign.created_by, player


# --- the page and its live budget ---------------------------------------------------------
def test_the_campaign_page_links_to_the_droid_builder(client, table):
    campaign, _, player = table
    client.force_login(player)
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert builder_url(campaign) in page
    assert "Build a droid" in page


def test_a_blank_droid_starts_with_nothing_spent_of_a_players_65d(client, table):
    campaign, _, player = table
    client.force_login(player)
    page = client.get(builder_url(campaign)).content.decode()
    assert "Attributes 0D · Speed 0D · Armour 0D · Skills 0D · Equipment 0D" in page
    assert "0D of 65D, 65D left" in page


def test_the_budget_follows_what_is_typed(client, table):
    campaign, _, player = table
    client.force_login(player)
    data = droid_post(
        attributes={"dexterity": "3D", "knowledge": "2D", "strength": "3D"},  # 25D
        speed="4D",  # 1D above Dexterity: 3D
        armor="1D",  # 3D
        skills=[("blaster", "dexterity", "6D"), ("languages", "knowledge", "9D")],  # 3D + 7D
        items=[("arm", "2", "0", False), ("photoreceptors", "1", "1", True)],  # 2D + 2D
        _live="1",
    )
    response = client.post(builder_url(campaign), data, **HX)
    text = response.content.decode()
    assert response.status_code == 200
    assert "<h1>" not in text  # only the budget comes back
    assert "Attributes 25D · Speed 3D · Armour 3D · Skills 10D · Equipment 4D" in text
    assert "45D of 65D, 20D left" in text
    assert "20D of building dice unspent" in text


def test_an_over_budget_design_says_how_far_over_as_it_is_typed(client, table):
    campaign, _, player = table
    client.force_login(player)
    data = droid_post(attributes={"strength": "14D"}, armor="1D", _live="1")
    text = client.post(builder_url(campaign), data, **HX).content.decode()
    assert "68D of 65D, 3D over" in text
    assert "K-9X uses 68D of building dice; the budget is 65D (3D over)" in text


def test_choosing_an_npc_droid_halves_the_budget_to_35d(client, table):
    campaign, gm, _ = table
    client.force_login(gm)
    data = droid_post(kind="npc", attributes={"technical": "3D"}, _live="1")
    text = client.post(builder_url(campaign), data, **HX).content.decode()
    assert "10D of 35D, 25D left" in text


def test_adding_a_skill_row_keeps_what_was_typed(client, table):
    campaign, _, player = table
    client.force_login(player)
    data = droid_post(skills=[("blaster", "dexterity", "3D")], action="add-skill")
    text = client.post(builder_url(campaign), data, **HX).content.decode()
    assert 'value="blaster"' in text
    assert 'aria-label="Skill 2"' in text
    assert 'id="item-rows"' not in text  # only the skill rows are redrawn


def test_removing_an_item_row_keeps_the_others(client, table):
    campaign, _, player = table
    client.force_login(player)
    items = [("arm", "2", "0", False), ("comlink", "1", "0", False)]
    data = droid_post(items=items, action="remove-item-0")
    text = client.post(builder_url(campaign), data, **HX).content.decode()
    assert 'value="comlink"' in text
    assert 'value="arm"' not in text


# --- the source's worked examples, through the builder ---------------------------------------
def test_E13_the_r2_template_shows_34d_of_its_35d_with_1d_unspent(client, table):
    campaign, gm, _ = table
    client.force_login(gm)
    page = client.get(builder_url(campaign) + "?template=r2").content.decode()
    assert "Attributes 5D · Speed 3D · Armour 3D · Skills 12D · Equipment 11D" in page
    assert "34D of 35D, 1D left" in page
    assert "1D of building dice unspent" in page


def test_E14_the_3po_template_shows_exactly_35d(client, table):
    campaign, gm, _ = table
    client.force_login(gm)
    page = client.get(builder_url(campaign) + "?template=3po").content.decode()
    assert "Attributes 15D · Speed 0D · Armour 0D · Skills 13D · Equipment 7D" in page
    assert "35D of 35D, nothing left" in page


def test_E13_a_gm_builds_r2_as_an_npc_droid_from_the_template(client, table):
    campaign, gm, _ = table
    client.force_login(gm)
    r2 = load_droid_templates()["r2"]
    data = design_post(r2, name="R2-D2", model="R2 astromech")
    response = client.post(builder_url(campaign), data)
    droid = Character.objects.get(name="R2-D2")
    assert response.status_code == 302
    assert response.url == droid.get_absolute_url()
    assert (droid.nature, droid.kind, droid.owner_id) == ("droid", "npc", None)
    assert droid.species == "R2 astromech"
    assert (droid.technical, droid.dexterity, droid.move) == (DieCode(2), DieCode(1), 7)
    assert {s.name: str(s.code) for s in droid.skills.all()} == {
        "binary language": "3D",
        "computer programming & repair": "7D",
        "starship repair": "7D",
    }
    assert droid.items.filter(kind=Item.Kind.GEAR).count() == 8
    plating = droid.items.get(kind=Item.Kind.ARMOUR)
    assert (plating.armour_physical, plating.armour_energy) == (DieCode(1), DieCode(1))
    assert DroidDesign.from_json(droid.droid_design) == DroidDesign(
        **{**_fields(r2), "name": "R2-D2"}
    )
    assert droid.force_points == 0


def _fields(design: DroidDesign) -> dict:
    return {name: getattr(design, name) for name in design.__slots__}


def test_E14_3po_is_built_through_the_service_at_exactly_35d(table):
    campaign, gm, _ = table
    threepio = load_droid_templates()["3po"]
    droid = build_droid(
        campaign, gm, DroidDesign(**{**_fields(threepio), "name": "C-3PO"}), owner_id=None
    )
    assert droid.species == "Droid"
    assert droid.move == 7  # no speed code printed: Dexterity 2D
    assert droid.skills.get(name="languages").code == DieCode(10)
    design = DroidDesign.from_json(droid.droid_design)
    assert design.speed is None and design.knowledge == DieCode(2)


def test_E12_two_building_dice_on_a_skill_raise_it_2d_above_its_attribute(client, table):
    campaign, _, player = table
    client.force_login(player)
    # languages: no attribute typed, the skill list says Knowledge
    data = droid_post(attributes={"knowledge": "2D"}, skills=[("languages", "", "4D")])
    data["_live"] = "1"
    text = client.post(builder_url(campaign), data, **HX).content.decode()
    assert "Attributes 5D · Speed 0D · Armour 0D · Skills 2D · Equipment 0D" in text
    del data["_live"]
    client.post(builder_url(campaign), data)
    skill = Character.objects.get(name="K-9X").skills.get()
    assert (skill.name, skill.attribute, skill.code) == ("languages", "knowledge", DieCode(4))


def test_a_players_droid_is_his_with_one_force_point_through_the_ledger(client, table):
    campaign, _, player = table
    client.force_login(player)
    data = droid_post(
        name="K-9X",
        attributes={"dexterity": "3D"},
        skills=[("blaster", "dexterity", "5D")],
        items=[("photoreceptors", "1", "0", True), ("macrobinoculars", "1", "0", False)],
    )
    response = client.post(builder_url(campaign), data)
    droid = Character.objects.get(name="K-9X")
    assert response.status_code == 302
    assert (droid.kind, droid.owner, droid.nature) == ("pc", player, "droid")
    assert droid.force_points == 1
    entry = LedgerEntry.objects.get(character=droid)
    assert (entry.currency, entry.delta, entry.actor) == ("fp", 1, player)
    assert droid.move == 10  # speed code = Dexterity 3D
    assert not droid.items.filter(kind=Item.Kind.ARMOUR).exists()


def test_a_gm_builds_a_droid_for_a_player(client, table):
    campaign, gm, player = table
    client.force_login(gm)
    response = client.post(builder_url(campaign), droid_post(owner=player.pk))
    assert response.status_code == 302
    assert Character.objects.get(name="K-9X").owner == player


def test_a_droid_skill_at_13d_is_built(table):
    campaign, gm, player = table
    design = DroidDesign(
        "Scholar",
        player_character=True,
        knowledge=DieCode(2),
        skills=(DroidSkill("languages", "knowledge", "13D"),),
        items=(DroidItem("vocabulator"),),
    )
    droid = build_droid(campaign, gm, design, owner_id=player.pk)
    assert droid.skills.get().code == DieCode(13)
