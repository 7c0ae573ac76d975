"""Combatants and starting states shared by the encounter app's tests."""

from campaigns.models import Campaign
from encounters.models import Encounter
from encounters.services import start_encounter
from rules.combat import WeaponRange
from rules.dice import DieCode
from rules.encounter import Combatant, EncounterState, Weapon

D = DieCode.parse
RIFLE = Weapon("blaster rifle", "5D", "blaster", "ranged", WeaponRange(3, 30, 100, 300))


def fighter(cid: str, side: str, **changes) -> Combatant:
    base = Combatant(
        id=cid,
        name=cid.title(),
        side=side,
        perception=D("2D"),
        dexterity=D("2D"),
        strength=D("2D"),
        skills=(("blaster", D("4D")), ("dodge", D("3D"))),
        weapon=RIFLE,
        npc=True,
    )
    return base.replace(**changes)


KIRA = fighter("kira", "rebels", perception=D("4D"), npc=False)
TK1 = fighter("tk1", "empire")


def ready_to_choose() -> EncounterState:
    """Kira against a trooper, the rebels having won the initiative: the next step is theirs
    to choose the order."""
    return EncounterState(combatants=(KIRA, TK1), phase="order", initiative_winner="rebels")


def started(campaign: Campaign, state: EncounterState | None = None) -> Encounter:
    return start_encounter(campaign, "Ambush at the docks", campaign.created_by, state=state)
