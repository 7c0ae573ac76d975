"""The engine's wound model in the app (issue 13): a character's wound level is a level on his
campaign's wound ladder and his stuns are the engine's expiring stuns. The GM's edit form offers
that ladder; the sheet and the roll panel show what the engine says the wound and the stuns do,
under each ruleset (Second Edition, House, Rules Companion); who cannot act cannot roll; and
the data migration maps the rows stored the old way."""

import html
import importlib
import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from characters.models import ATTRIBUTES, Character
from characters.tests.factories import CharacterFactory, SkillFactory
from rules import RuleSet

pytestmark = pytest.mark.django_db

LADDER_2E = ["Healthy", "Wounded", "Wounded twice", "Incapacitated", "Mortally wounded", "Killed"]
LADDER_RC = ["Healthy", "Wounded", "Incapacitated", "Mortally wounded", "Killed"]
LADDERS = {"2e": LADDER_2E, "house": LADDER_2E, "rc": LADDER_RC}
RULESETS = ["2e", "house", "rc"]


@pytest.fixture
def hero_in(client):
    """A character (Dexterity 3D+1, Strength 3D) in a campaign playing a preset, with the
    campaign's GM logged in."""

    def make(preset: str, **fields) -> Character:
        character = CharacterFactory(name="Kyle", **fields)
        character.campaign.set_ruleset(RuleSet.preset(preset))
        character.campaign.save()
        client.force_login(character.campaign.created_by)
        return character

    return make


def edit_url(c):
    return reverse("characters:edit", args=[c.campaign_id, c.pk])


def sheet_url(c):
    return reverse("characters:sheet", args=[c.campaign_id, c.pk])


def roll_url(c):
    return reverse("characters:roll", args=[c.campaign_id, c.pk])


def text_of(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def wound_box(client, character) -> str:
    """The sheet's wound box in words."""
    page = client.get(sheet_url(character)).text
    found = re.search(r'<div class="wound[^"]*" id="wound">(.*?)\n  </div>', page, re.S)
    assert found, "the sheet has no wound box"
    return text_of(found.group(1))


def offered_levels(client, character) -> list[str]:
    page = client.get(edit_url(character)).text
    select = re.search(r'<select name="wound_level".*?</select>', page, re.S)
    assert select, "the GM's edit form has no wound level"
    return [text_of(label) for label in re.findall(r"<option[^>]*>(.*?)</option>", select[0])]


def gm_edit(client, character, **changes):
    data = {
        "name": character.name,
        "species": character.species,
        "move": character.move,
        "wound_level": character.wound_level,
        "stuns": 0,
        **{a: str(character.attribute(a)) for a in ATTRIBUTES},
        **changes,
    }
    return client.post(edit_url(character), data)


def pool_in_roll_panel(client, character, trait="attr:dexterity") -> str:
    page = client.get(roll_url(character), {"trait": trait}, HTTP_HX_REQUEST="true").text
    found = re.search(r'Rolling <strong class="code">([^<]+)</strong>', page)
    assert found, text_of(page)
    return found.group(1)


def roll(client, character, trait="attr:dexterity"):
    return client.post(roll_url(character), {"trait": trait, "actions": 1, "modifier": 0, "cp": 0})


# --- The GM's edit form offers the campaign's ladder ------------------------------------------
@pytest.mark.parametrize("preset", RULESETS)
def test_the_gm_edit_form_offers_the_campaigns_wound_ladder_and_never_stunned(
    client, hero_in, preset
):
    hero = hero_in(preset)
    assert offered_levels(client, hero) == LADDERS[preset]


@pytest.mark.parametrize("preset", RULESETS)
def test_the_sheet_shows_the_campaigns_wound_ladder(client, hero_in, preset):
    hero = hero_in(preset)
    box = wound_box(client, hero)
    assert "Wound ladder: " + " › ".join(LADDERS[preset]) in box


# --- A wound shows the engine's penalty and effects -------------------------------------------
@pytest.mark.parametrize(
    "preset, effects",
    [
        ("2e", "On taking it: falls prone, loses the rest of the round."),
        ("house", "On taking it: knocked back 1 m, loses the rest of the round."),
        ("rc", "On taking it: falls prone, loses the rest of the round."),
    ],
)
def test_a_wound_set_by_the_gm_shows_the_engines_penalty_and_effects(
    client, hero_in, preset, effects
):
    hero = hero_in(preset)
    response = gm_edit(client, hero, wound_level="wounded")
    assert response.status_code == 302, text_of(response.text)
    box = wound_box(client, hero)
    assert box.startswith("Wounded — −1D to every roll (applied automatically).")
    assert effects in box
    assert pool_in_roll_panel(client, hero) == "2D+1"  # Dexterity 3D+1 - 1D
    roll(client, hero)
    assert hero.rolls.get().pool == "2D+1"


@pytest.mark.parametrize(
    "preset, effects",
    [
        ("2e", "falls prone, loses the rest of the round."),
        ("house", "falls prone, loses the rest of the round and the next."),
    ],
)
def test_wounded_twice_takes_2d_and_the_house_loses_the_next_round_too(
    client, hero_in, preset, effects
):
    hero = hero_in(preset)
    gm_edit(client, hero, wound_level="wounded_twice")
    box = wound_box(client, hero)
    assert box.startswith("Wounded twice — −2D to every roll")
    assert box.split("On taking it: ")[1].startswith(effects)
    assert pool_in_roll_panel(client, hero) == "1D+1"


# --- Stuns: counted, penalising and knocking out as the ruleset says ---------------------------
@pytest.mark.parametrize("preset", ["2e", "house"])
def test_second_edition_and_house_stuns_take_a_die_each_and_affect_for_30_minutes(
    client, hero_in, preset
):
    hero = hero_in(preset, strength="4D")
    response = gm_edit(client, hero, stuns=2)
    assert response.status_code == 302, text_of(response.text)
    hero.refresh_from_db()
    assert hero.wound_level == "none" and hero.stun_points == 2
    box = wound_box(client, hero)
    assert box.startswith("Healthy — −2D to every roll (applied automatically).")
    assert "2 stuns: −2D to every roll this round and the next" in box
    assert "keep affecting him for 30 minutes unless he rests a minute" in box
    assert "Knocked out once 4 affect him (his Strength dice)." in box
    assert pool_in_roll_panel(client, hero) == "1D+1"  # 3D+1 - 2D


def test_rules_companion_stuns_are_points_that_immobilise_at_the_dexterity_dice(client, hero_in):
    hero = hero_in("rc", dexterity="2D", strength="4D")
    gm_edit(client, hero, stuns=2)
    box = wound_box(client, hero)
    assert "2 stun points: −2D to every roll this round and the next." in box
    assert "Immobile: no Dexterity actions." in box
    assert "Unconscious at 4 (his Strength dice)." in box
    response = roll(client, hero, "attr:dexterity")
    assert response.status_code == 400
    assert "immobile from stuns and cannot take Dexterity actions" in text_of(response.text)
    assert roll(client, hero, "attr:perception").status_code == 302
    assert hero.rolls.get().pool == "1D+2"  # Perception 3D+2 - 2D


def test_rules_companion_stuns_knock_out_at_the_stamina_dice(client, hero_in):
    hero = hero_in("rc", dexterity="4D", strength="4D")
    SkillFactory(character=hero, name="stamina", attribute="strength", code="2D")
    gm_edit(client, hero, stuns=1)
    assert "Unconscious at 2 (his stamina dice)." in wound_box(client, hero)
    gm_edit(client, hero, stuns=2)
    box = wound_box(client, hero)
    assert "knocked out by stuns: cannot act." in box
    assert "Unconscious for 2D minutes." in box


def test_enough_stuns_to_reach_the_strength_dice_knock_him_out_and_he_cannot_roll(client, hero_in):
    hero = hero_in("2e", strength="3D")
    gm_edit(client, hero, stuns=3)
    box = wound_box(client, hero)
    assert box.startswith("Healthy — knocked out by stuns: cannot act.")
    assert "Knocked out for 2D minutes." in box
    assert 'name="trait"' not in client.get(sheet_url(hero)).text
    response = roll(client, hero)
    assert response.status_code == 400
    assert "Kyle is knocked out by stuns and cannot act" in text_of(response.text)


def test_the_gm_clears_stuns_by_setting_none(client, hero_in):
    hero = hero_in("2e")
    gm_edit(client, hero, stuns=2)
    gm_edit(client, hero, stuns=0)
    hero.refresh_from_db()
    assert hero.stun_points == 0
    assert "stun" not in wound_box(client, hero)
    assert pool_in_roll_panel(client, hero) == "3D+1"


def test_a_wound_and_stuns_add_up(client, hero_in):
    hero = hero_in("2e", strength="4D")
    gm_edit(client, hero, wound_level="wounded", stuns=1)
    assert wound_box(client, hero).startswith("Wounded — −2D to every roll")
    assert pool_in_roll_panel(client, hero) == "1D+1"


# --- Who cannot act cannot roll ---------------------------------------------------------------
@pytest.mark.parametrize("preset", RULESETS)
@pytest.mark.parametrize(
    "level, words",
    [
        ("incapacitated", "incapacitated"),
        ("mortally_wounded", "mortally wounded"),
        ("killed", "killed"),
    ],
)
def test_from_incapacitated_on_he_cannot_act_or_roll(client, hero_in, preset, level, words):
    hero = hero_in(preset)
    assert gm_edit(client, hero, wound_level=level).status_code == 302
    assert wound_box(client, hero).startswith(f"{words.capitalize()} — cannot act.")
    assert 'name="trait"' not in client.get(sheet_url(hero)).text
    response = roll(client, hero)
    assert response.status_code == 400
    assert f"Kyle is {words} and cannot act" in text_of(response.text)
    assert not hero.rolls.exists()


@pytest.mark.parametrize(
    "preset, level, effects",
    [
        ("2e", "incapacitated", "On taking it: falls prone, unconscious for 10D minutes."),
        (
            "house",
            "incapacitated",
            "On taking it: knocked back 1–3 m, falls prone, unconscious for 10D minutes.",
        ),
        (
            "rc",
            "mortally_wounded",
            "On taking it: falls prone, unconscious, a death roll at the end of each round "
            "until stabilised.",
        ),
    ],
)
def test_the_sheet_says_what_the_wound_did_by_the_campaigns_rules(
    client, hero_in, preset, level, effects
):
    hero = hero_in(preset)
    gm_edit(client, hero, wound_level=level)
    assert effects in wound_box(client, hero)


# --- Bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "preset, level, message",
    [
        ("rc", "wounded_twice", "this campaign's wound ladder has no 'wounded twice' level"),
        ("2e", "stunned", "'stunned' is not a wound level"),
        ("house", "bleeding", "unknown wound level 'bleeding'"),
        ("2e", "", "This field is required."),
    ],
)
def test_a_wound_level_not_on_the_campaigns_ladder_is_a_form_error_and_nothing_changes(
    client, hero_in, preset, level, message
):
    hero = hero_in(preset)
    gm_edit(client, hero, wound_level="wounded", stuns=1)
    hero.refresh_from_db()
    before = (hero.wound_level, hero.stun_state, hero.name)
    response = gm_edit(client, hero, wound_level=level, stuns=0, name="Renamed")
    assert response.status_code == 400
    assert message in text_of(response.text)
    hero.refresh_from_db()
    assert (hero.wound_level, hero.stun_state, hero.name) == before


@pytest.mark.parametrize("stuns", ["-1", "21", "two", "99999999999999999999"])
def test_a_stun_count_out_of_range_is_a_form_error_and_nothing_changes(client, hero_in, stuns):
    hero = hero_in("2e")
    response = gm_edit(client, hero, stuns=stuns)
    assert response.status_code == 400
    hero.refresh_from_db()
    assert hero.stun_points == 0


def test_a_player_cannot_set_wounds_or_stuns(client, hero_in):
    hero = hero_in("2e")
    client.force_login(hero.owner)
    response = client.post(edit_url(hero), {"name": hero.name, "wound_level": "killed", "stuns": 5})
    assert response.status_code == 302
    hero.refresh_from_db()
    assert hero.wound_level == "none" and hero.stun_points == 0


def test_a_level_the_campaigns_ladder_lost_is_read_as_two_wounds_on_it(client, hero_in):
    """A Rules Companion campaign whose characters were set before (or under other rules):
    "wounded twice" is two wounds, and two wounds incapacitate on the RC ladder."""
    hero = hero_in("rc")
    Character.objects.filter(pk=hero.pk).update(wound_level="wounded_twice")
    assert wound_box(client, hero).startswith("Incapacitated — cannot act.")
    assert offered_levels(client, hero) == LADDER_RC
    assert roll(client, hero).status_code == 400


# --- The data migration -------------------------------------------------------------------------
def migration():
    return importlib.import_module("characters.migrations.0003_wound_state")


RC_OPTIONS = RuleSet.preset("rc").to_json()
HOUSE_OPTIONS = RuleSet.preset("house").to_json()


@pytest.mark.parametrize(
    "old, options, level, stuns",
    [
        (("none", 0), {}, "none", 0),
        (("stunned", 0), {}, "none", 1),
        (("stunned", 2), {}, "none", 2),
        (("none", 3), {}, "none", 3),
        (("wounded", 1), HOUSE_OPTIONS, "wounded", 1),
        (("wounded_twice", 0), {}, "wounded_twice", 0),
        (("wounded_twice", 0), HOUSE_OPTIONS, "wounded_twice", 0),
        (("wounded_twice", 1), RC_OPTIONS, "incapacitated", 1),
        (("stunned", 0), RC_OPTIONS, "none", 1),
        (("killed", 0), RC_OPTIONS, "killed", 0),
    ],
)
def test_the_migration_maps_old_wound_rows_to_the_engines_model(old, options, level, stuns):
    new_level, stun_state = migration().wound_row(*old, options)
    assert new_level == level
    assert stun_state == {"stuns": [{"round": 0, "points": 1}] * stuns, "rested_through": None}


def test_a_stun_carried_over_is_in_force_on_the_sheet_as_the_count_was(client, hero_in):
    hero = hero_in("2e", strength="4D")
    level, stun_state = migration().wound_row("stunned", 0, {})
    Character.objects.filter(pk=hero.pk).update(wound_level=level, stun_state=stun_state)
    assert wound_box(client, hero).startswith("Healthy — −1D to every roll")
    assert pool_in_roll_panel(client, hero) == "2D+1"


BEFORE = [("characters", "0002_diceroll_from_campaigns")]
AFTER = [("characters", "0003_wound_state")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_migrating_keeps_every_characters_wounds_in_the_engines_terms_and_back():
    apps = _migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Campaign = apps.get_model("campaigns", "Campaign")
    Character = apps.get_model("characters", "Character")
    gm = User.objects.create(username="gm")
    second = Campaign.objects.create(name="Second Edition", created_by=gm)
    companion = Campaign.objects.create(name="Companion", created_by=gm, rule_options=RC_OPTIONS)
    rows = {
        "Stunned": (second, "stunned", 0),
        "Counted": (second, "none", 2),
        "Twice": (second, "wounded_twice", 0),
        "Twice RC": (companion, "wounded_twice", 1),
    }
    for name, (campaign, level, stuns) in rows.items():
        Character.objects.create(
            campaign=campaign, kind="npc", name=name, wound_level=level, stuns=stuns
        )
    try:
        Character = _migrate(AFTER).get_model("characters", "Character")
        after = {
            c.name: (c.wound_level, len(c.stun_state["stuns"])) for c in Character.objects.all()
        }
        assert after == {
            "Stunned": ("none", 1),
            "Counted": ("none", 2),
            "Twice": ("wounded_twice", 0),
            "Twice RC": ("incapacitated", 1),
        }
        Character = _migrate(BEFORE).get_model("characters", "Character")
        back = {c.name: (c.wound_level, c.stuns) for c in Character.objects.all()}
        assert back == {
            "Stunned": ("none", 1),
            "Counted": ("none", 2),
            "Twice": ("wounded_twice", 0),
            "Twice RC": ("incapacitated", 1),
        }
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
