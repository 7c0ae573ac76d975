"""The end of an encounter carries each character's [HOUSE] critical injuries to his sheet with
their treatment deadlines (encounters.services._aftermath → characters.healing.carry_criticals;
issue 19, injuries-and-healing.md §5.2, H-42)."""

import pytest

from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory
from characters import healing
from characters.tests.factories import CharacterFactory
from encounters.combatants import combatant_id_for
from encounters.services import end_encounter
from encounters.tests.helpers import TK1, fighter, started
from rules import RuleSet
from rules.encounter import EncounterState
from rules.encounter.criticals import CriticalTaken
from rules.injuries import WoundLevel, WoundState

pytestmark = pytest.mark.django_db


def test_the_encounters_end_carries_its_criticals_to_the_sheet():
    house = CampaignFactory()
    house.set_ruleset(RuleSet.preset("house"))
    house.game_day = 3
    house.save()
    hero = CharacterFactory(campaign=house, name="Kira", wound_level="incapacitated")
    kira = fighter(
        combatant_id_for(hero),
        "rebels",
        npc=False,
        wounds=WoundState(level=WoundLevel.incapacitated),
        criticals=(
            CriticalTaken(WoundLevel.stunned, "Stinger", 1),
            CriticalTaken(WoundLevel.incapacitated, "Blinded", 2, deadline_days=4),
        ),
    )
    state = EncounterState(combatants=(kira, TK1), phase="order", initiative_winner="rebels")
    encounter = started(house, state)

    end_encounter(encounter.pk, expected_version=0, actor=None)

    hero.refresh_from_db()
    assert [(c["name"], c["from_day"], c["deadline_day"]) for c in hero.criticals] == [
        ("Blinded", 3, 7)
    ]
    assert hero.wound_level == "incapacitated"
    assert Campaign.objects.get(pk=house.pk).game_day == 3
    assert healing.critical_lines(hero, 3) == [
        "Blinded: vision-based checks +5 difficulty levels — treat before day 7 or it is permanent"
    ]
