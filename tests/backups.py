"""The campaign the backup tests export and import (tests/test_backup_*.py): the demo campaign
of ``make run`` plus one of everything a backup carries, each made through the services a user's
clicks go through, and the normalisation the round trip compares with."""

import dataclasses
import json

from django.contrib.auth import get_user_model

from campaigns.backup import export_campaign
from campaigns.models import Adventure, LibraryEntry, Removal
from characters.advancement import award_all, request_advancement, set_trait_use
from characters.craft_damage import record_hit, request_repair, resolve_repair
from characters.craft_services import catalogue, create_craft, crew_station
from characters.demo import load_demo
from characters.downtime import run_advance
from characters.droid_builder import build_droid
from characters.models import CreationDraft, Skill, TimeAdvance
from characters.projects import start_project
from characters.projects_quote import quote_craft
from characters.schools import enrol_character, save_school
from characters.services import change_balance, roll_trait
from characters.skill_edits import gm_set_skill
from encounters.combatants import combatant_for_character, combatants_for_craft, squadron
from encounters.fleet_models import FleetAction
from encounters.fleet_services import add_craft
from encounters.fleet_services import apply_step as fleet_step
from encounters.models import StatBlock
from encounters.services import apply_step, start_encounter
from encounters.tests.helpers import fighter
from rules import RuleSet, SeededDice
from rules.advancement.schools import NCO_LEADERSHIP_I
from rules.combat import ActionCount
from rules.dice import DieCode, FixedDice
from rules.droids import load_droid_templates
from rules.encounter import COMMANDS, EncounterState
from rules.fleet import FleetState
from rules.library import builtin_entries, check_entry


def rich_campaign():
    """The demo campaign (three PCs, two NPCs, six rolls, their ledger) with a changed rule
    option, a library species, an ended adventure with a skill ticked used in it, an
    advancement trained and completed by an advance of time (its report), a running adventure
    with a roll in it (a trait use) spending a Character Point, an award to the [HOUSE] pending
    slot, a GM's skill edit, a player's draft, a removed player, a saved stat block, and an
    encounter of a PC, an NPC and a quick stat block trooper with steps (a Character Point
    spent on an attack through the ledger, the dice of the attack)."""
    campaign = load_demo()
    users = {u.username: u for u in get_user_model().objects.all()}
    gm, leia, han = users["gm"], users["leia"], users["han"]
    campaign.era = "0 ABY"
    campaign.approve_characters = True
    campaign.set_ruleset(dataclasses.replace(RuleSet(), advancement_table="house"))
    campaign.save()
    people = {c.name: c for c in campaign.characters.all()}
    tala, rook = people["Tala Voss"], people["Rook Daran"]
    trooper = people["Stormtrooper squad leader"]

    human = next(e for e in builtin_entries("species") if e["name"] == "Human")
    entry = check_entry("species", {**human, "name": "Near-Human", "source": "House sheet"})
    LibraryEntry.objects.create(
        campaign=campaign,
        kind="species",
        name=entry["name"],
        data=entry,
        source=entry["source"],
        copied_from="Human",
        created_by=gm,
    )

    ended = Adventure.objects.create(
        campaign=campaign, name="The Tocarra Job", start_day=0, end_day=3
    )
    set_trait_use(tala, "dodge", actor=gm, adventure=ended)
    change_balance(tala, "cp", 20, "End of the Tocarra Job", gm)
    request_advancement(tala, "skill", "dodge", actor=gm, days=2)
    # Rook was wounded on the job: he rests, and the advance makes his healing roll (issue 19).
    rook.wound_level = "wounded"
    # [HOUSE] a critical injury carried from the fight (issue 19: characters.healing).
    rook.criticals = [
        {
            "table": "wounded",
            "roll": 8,
            "name": "Dazed",
            "words": "cannot take multiple actions in a round",
            "from_day": 0,
            "deadline_day": None,
            "permanent": False,
            "healed_day": None,
            "treated_day": None,
        }
    ]
    rook.save(update_fields=["wound_level", "criticals"])
    advance = TimeAdvance.objects.create(
        campaign=campaign, from_day=0, to_day=4, day_reached=0, seed=7, requested_by=gm
    )
    run_advance(advance.pk)
    campaign.refresh_from_db()

    Adventure.objects.create(campaign=campaign, name="Escape from Mos Eisley", start_day=4)
    sneak = Skill.objects.get(character=tala, name="sneak")
    roll_trait(
        tala,
        leia,
        f"skill:{sneak.pk}",
        ruleset=campaign.ruleset,
        cp=1,
        note="past the patrol",
        rng=SeededDice(3),
    )
    # [HOUSE] a school (issue 19): Rook enrols owing its price; half the award repays it.
    school = save_school(
        campaign.pk,
        actor=gm,
        name=NCO_LEADERSHIP_I.name,
        weeks=NCO_LEADERSHIP_I.weeks,
        cp_cost=NCO_LEADERSHIP_I.cp_cost,
        bonuses=NCO_LEADERSHIP_I.bonuses,
        instructor="Lt. Norva",
        restrictions="Enlisted only",
    )
    enrol_character(campaign.pk, school.pk, rook.pk, actor=gm, pay=0)
    award_all(campaign, [{"character_id": rook.pk, "reason": "Flew us out", "cp": 3}], actor=gm)
    gm_set_skill(rook, actor=gm, name="sneak", code="3D+1", attribute="perception", kind="skill")
    CreationDraft.objects.create(
        campaign=campaign,
        user=han,
        step="attributes",
        data={"start": {"owner": han.pk, "free_form": False}, "species": {"choice": "Human"}},
    )
    lando = get_user_model().objects.create_user("lando", password="a-long-test-password-42")
    Removal.objects.create(campaign=campaign, user=lando, removed_by=gm)
    StatBlock.objects.create(
        campaign=campaign, name="Stormtrooper", block={"name": "Stormtrooper", "count": 2}
    )
    # A player's droid built from the R2 design (issue 18): nature and building record.
    r2 = load_droid_templates()["r2"]
    build_droid(
        campaign,
        gm,
        dataclasses.replace(r2, name="R2-Q5", player_character=True),
        owner_id=leia.pk,
        model="R2 Astromech Droid",
    )
    # A party ship with Tala at the pilot's station (issue 18).
    ship = create_craft(campaign, catalogue()["Corellian Corvette"], party=True, value=100_000)
    crew_station(campaign.memberships.get(user=gm), ship.stations.get(role="pilot"), tala)
    # Hit outside an encounter, then repaired by Tala at the engineer's station (issue 18).
    gm_member = campaign.memberships.get(user=gm)
    crew_station(gm_member, ship.stations.get(role="engineer"), tala)
    record_hit(
        ship, gm, damage_roll=12, resist_roll=6, ruleset=campaign.ruleset, rng=FixedDice([1])
    )
    change_balance(tala, "credits", 20_000, "Ship repair fund", gm)
    repair = request_repair(gm_member, ship, "maneuverability", payer=tala)
    resolve_repair(gm_member, repair, rng=FixedDice([1, 1, 1, 1, 2]))
    # Tala improves the ship's maneuverability as a downtime project (issue 19).
    start_project(
        campaign.pk,
        actor=gm,
        worker_id=tala.pk,
        quote=quote_craft(
            ship, "maneuverability", ruleset=campaign.ruleset, add="0D+1", item_value=100_000
        ),
        stat="maneuverability",
        skill=DieCode.parse("4D+1"),
        craft_id=ship.pk,
    )

    ruleset = campaign.ruleset
    pc = combatant_for_character(tala, side="rebels", ruleset=ruleset)
    npc = combatant_for_character(trooper, side="empire", ruleset=ruleset)
    extra = fighter("sb-stormtrooper-1", "empire", name="Stormtrooper 1")
    two = ActionCount(2)
    state = EncounterState(
        combatants=(pc.replace(actions=two), npc.replace(actions=two), extra.replace(actions=two)),
        phase="round",
        side_order=("rebels", "empire"),
        order=(pc.id, npc.id, extra.id),
        initiative_winner="rebels",
    )
    encounter = start_encounter(campaign, "Ambush at the docks", gm, state=state)
    steps = [
        (COMMANDS["act"](combatant=npc.id, what="takes cover"), FixedDice([])),
        (
            COMMANDS["attack"](attacker=pc.id, target=npc.id, difficulty=10, cp_dice=1),
            FixedDice([]),
        ),
        (COMMANDS["resolve_attack"](), SeededDice(11)),
    ]
    for version, (command, dice) in enumerate(steps):
        apply_step(encounter.pk, command.to_json(), expected_version=version, actor=gm, rng=dice)
    # A freighter crewed by Tala in a dogfight with a two-ship squadron (issue 18).
    freighter = create_craft(campaign, catalogue()["Silver Bolt"], party=True)
    crew_station(gm_member, freighter.stations.get(role="pilot"), tala)
    wing = create_craft(campaign, catalogue()["TIE/rc starfighter"])
    present: set[str] = set()
    ours = combatants_for_craft(freighter, side="rebels", ruleset=ruleset, present=present)
    theirs = squadron(
        wing, side="empire", count=2, ruleset=ruleset, present=present, crew_code=DieCode(4)
    )
    dogfight = start_encounter(campaign, "Dogfight", gm)
    add = COMMANDS["add_combatants"](combatants=(*ours, *theirs))
    apply_step(dogfight.pk, add.to_json(), expected_version=0, actor=gm, rng=FixedDice([]))
    arc = COMMANDS["set_arc"](craft=ours[0].id, other=theirs[1].id, arc="back")
    apply_step(dogfight.pk, arc.to_json(), expected_version=1, actor=gm, rng=FixedDice([]))
    # A fleet action begun under the [RC] capital ship combat: two capital ships, a battery fired.
    fleet = FleetAction.objects.create(
        campaign=campaign,
        name="Battle of Endor",
        state=FleetState().to_json(),
        initial_state=FleetState().to_json(),
        rule_options={**campaign.rule_options, "capital_combat": "rc"},
        created_by=gm,
    )
    for number, (name, side) in enumerate((("Mon Cal Cruiser", "Rebel"), ("Carrack", "Imperial"))):
        craft = create_craft(campaign, catalogue()[name])
        add_craft(fleet.pk, craft.pk, side=side, crew="4D+2", expected_version=number, actor=gm)
    fire = {"type": "fire", "ship": "s1", "battery": 0, "guns": 12, "target": "s2"}
    fleet_step(fleet.pk, fire, expected_version=2, actor=gm, rng=SeededDice(18))
    return campaign


def export_text(campaign) -> str:
    return "".join(export_campaign(campaign))


def normalised(text: str) -> dict:
    """A backup as data, less what may differ between two exports of the same campaign: the
    moment of the export. Everything else (refs, usernames, every record's times, which the
    import keeps) must match, so a skill dropped or a roll's total changed shows."""
    document = json.loads(text)
    document.pop("exported_at")
    return document


def differences(a: dict, b: dict, at: str = "") -> list[str]:
    """Where two documents differ (for a readable assertion message)."""
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                found.append(f"{at}.{key}: only in one")
            else:
                found += differences(a[key], b[key], f"{at}.{key}")
        return found
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{at}: {len(a)} against {len(b)} items"]
        return [
            d
            for n, (x, y) in enumerate(zip(a, b, strict=True))
            for d in differences(x, y, f"{at}[{n}]")
        ]
    return [] if a == b else [f"{at}: {a!r} != {b!r}"]
