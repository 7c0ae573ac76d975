"""Skills and attributes used during an adventure: recorded from the sheet's rolls while an
adventure runs (one query more per roll), ticked and unticked by hand by the GM, and counted as
"used in the last adventure" when the character improves them afterwards."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Adventure
from characters.advancement import NotAllowed, quote, record_use, set_trait_use
from characters.models import TraitUse
from characters.services import roll_trait
from characters.tests.advancement_fixtures import PRESETS, campaign_for, character_with
from rules import FixedDice
from rules.advancement import AdvancementError

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    campaign = campaign_for("2e")
    character = character_with(campaign, skills=[("Blaster", "4D+2")])
    adventure = Adventure.objects.create(campaign=campaign, name="Escape from Kessel", start_day=0)
    return campaign, character, adventure


def _roll(character, key):
    return roll_trait(
        character, character.owner, key, ruleset=PRESETS["2e"], rng=FixedDice([3] * 10)
    )


def _uses(character):
    return sorted(TraitUse.objects.filter(character=character).values_list("trait", "by_hand"))


def test_rolling_a_skill_during_an_adventure_records_it_in_lower_case(table):
    _, character, adventure = table
    skill = character.skills.get()
    _roll(character, f"skill:{skill.pk}")
    use = TraitUse.objects.get()
    assert (use.adventure, use.trait, use.by_hand) == (adventure, "blaster", False)


def test_rolling_an_attribute_records_its_key(table):
    _, character, _ = table
    _roll(character, "attr:dexterity")
    _roll(character, "attr:dexterity")
    assert _uses(character) == [("dexterity", False)]


def test_no_use_is_recorded_between_adventures(table):
    _, character, adventure = table
    adventure.end_day = 3
    adventure.save()
    _roll(character, "attr:strength")
    assert not TraitUse.objects.exists()


def test_recording_the_use_costs_one_query(table):
    _, character, _ = table
    with CaptureQueriesContext(connection) as queries:
        _roll(character, "attr:perception")
    touching = [q["sql"] for q in queries if TraitUse._meta.db_table in q["sql"]]
    assert len(touching) == 1
    assert record_use(character, "perception") is False  # already there: nothing added


def test_a_rolled_skill_counts_as_used_in_the_last_adventure(table):
    _, character, adventure = table
    skill = character.skills.get()
    _roll(character, f"skill:{skill.pk}")
    adventure.end_day = 4
    adventure.save()
    q = quote(character, "skill", "blaster", ruleset=PRESETS["2e"])
    assert (q.used_last_adventure, q.days) == (True, 0)


def test_the_gm_ticks_and_unticks_a_skill_by_hand(table):
    campaign, character, _ = table
    gm = campaign.created_by
    set_trait_use(character, "Blaster", actor=gm)
    assert _uses(character) == [("blaster", True)]
    set_trait_use(character, "blaster", actor=gm, used=False)
    assert _uses(character) == []


def test_the_gm_ticks_the_last_adventure_once_it_has_ended(table):
    campaign, character, adventure = table
    adventure.end_day = 6
    adventure.save()
    use = set_trait_use(character, "dexterity", actor=campaign.created_by)
    assert use.adventure == adventure


def test_a_player_cannot_tick_a_skill(table):
    _, character, _ = table
    with pytest.raises(NotAllowed):
        set_trait_use(character, "blaster", actor=character.owner)
    assert not TraitUse.objects.exists()


@pytest.mark.parametrize("trait", ["gunnery", "x" * 81, "bl\x00aster", ""])
def test_ticking_something_not_on_the_sheet_is_refused(table, trait):
    campaign, character, _ = table
    with pytest.raises(AdvancementError):
        set_trait_use(character, trait, actor=campaign.created_by)
    assert not TraitUse.objects.exists()
