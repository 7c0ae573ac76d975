"""Ships and vehicles in a campaign backup: they come back with their stat blocks, owners and
crews; a file with a bad stat block or a gunner on a weapon the craft lacks is refused."""

import json

import pytest

from campaigns.backup import BackupRefused, export_campaign, read_backup, restore_campaign
from characters.craft_models import Craft
from characters.craft_services import catalogue, create_craft, crew_station, roll_station
from characters.models import DiceRoll
from characters.tests.factories import CharacterFactory
from rules import RuleSet
from rules.dice import FixedDice


@pytest.fixture
def backup(db):
    han = CharacterFactory(name="Han")
    campaign = han.campaign
    gm = campaign.memberships.get(user=campaign.created_by)
    ship = create_craft(campaign, catalogue()["Corellian Corvette"], name="Tantive")
    crew_station(gm, ship.stations.get(role="gunner"), han)
    own = create_craft(campaign, catalogue()["TIE/rc starfighter"], owner_character=han)
    crew_station(gm, own.stations.get(role="pilot"), han)
    roll_station(
        own.stations.get(role="pilot"), han.owner, ruleset=RuleSet(), rng=FixedDice([4] * 5)
    )
    return campaign, json.loads("".join(export_campaign(campaign)))


def test_craft_come_back_with_their_stat_blocks_owners_and_crews(backup):
    campaign, document = backup
    restored = restore_campaign(read_backup(json.dumps(document)), importer=campaign.created_by)
    ships = {c.name: c for c in Craft.objects.filter(campaign=restored.campaign)}
    assert set(ships) == {"Tantive", "TIE/rc starfighter"}
    assert ships["Tantive"].stat_block == catalogue()["Corellian Corvette"]
    gunner = ships["Tantive"].stations.get(role="gunner")
    assert gunner.character.name == "Han"
    assert gunner.character.campaign == restored.campaign
    assert ships["TIE/rc starfighter"].owner_character.name == "Han"
    assert ships["TIE/rc starfighter"].owner_character.campaign == restored.campaign
    roll = DiceRoll.objects.get(campaign=restored.campaign)
    assert (roll.label, roll.code, roll.total) == ("TIE/rc starfighter: piloting", "5D+2", 22)


def _refused(campaign, document):
    before = Craft.objects.count()
    with pytest.raises(BackupRefused) as refused:
        restore_campaign(read_backup(json.dumps(document)), importer=campaign.created_by)
    assert Craft.objects.count() == before
    return str(refused.value)


def test_a_negative_hull_in_the_file_is_refused(backup):
    campaign, document = backup
    document["parts"]["craft"][0]["stats"]["hull"] = "-2D"
    assert "stats" in _refused(campaign, document)


def test_a_gunner_on_a_weapon_the_craft_lacks_is_refused(backup):
    campaign, document = backup
    stations = document["parts"]["craft"][0]["crew_stations"]
    next(s for s in stations if s["role"] == "gunner")["weapon_index"] = 9
    assert "gunner mans one of the craft's weapons" in _refused(campaign, document)


def test_a_craft_owned_by_a_character_and_the_party_is_refused(backup):
    campaign, document = backup
    owned = next(c for c in document["parts"]["craft"] if c["owner_character"] is not None)
    owned["party"] = True
    assert "character or to the party" in _refused(campaign, document)
