"""Vehicles and starships in an encounter, through the pages the GM and players use: a party
freighter crewed by two players' characters joins a fight from the add page, a starfighter
attacks it, the pilot dodges, the hit's damage result goes onto the ship sheet (and its limit
onto the next station roll); the scale examples V1-V3 of vehicles-and-starships.md; refusals."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.craft_models import Craft
from characters.craft_services import catalogue, create_craft, crew_station, station_trait
from characters.tests.factories import CharacterFactory, SkillFactory
from encounters import views
from encounters.models import Encounter
from encounters.services import start_encounter, undo_last_step
from rules.craft import CraftState, CraftStats, CraftWeapon
from rules.dice import DieCode, FixedDice
from rules.scale import Scale

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
D = DieCode.parse

FREIGHTER = CraftStats(
    name="Stellar Envoy",
    kind="starship",
    scale=Scale.STARFIGHTER,
    maneuverability=D("2D"),
    hull=D("4D"),
    shields=D("1D"),
    piloting_skill="space transports",
    weapons=(
        CraftWeapon("Quad laser", fire_control=D("2D"), damage=D("6D"), arc="turret"),
        CraftWeapon("Rear laser", fire_control=D("1D"), damage=D("4D"), arc="back"),
    ),
)

TIE = CraftStats(
    name="TIE fighter",
    kind="starship",
    scale=Scale.STARFIGHTER,
    maneuverability=D("2D"),
    hull=D("2D"),
    crew_code=D("4D"),
    weapons=(CraftWeapon("Laser cannons", fire_control=D("2D"), damage=D("5D"), arc="front"),),
)


@pytest.fixture
def hangar(client):
    campaign = CampaignFactory()
    gm = campaign.created_by
    p1 = MembershipFactory(campaign=campaign).user
    p2 = MembershipFactory(campaign=campaign).user
    han = CharacterFactory(campaign=campaign, owner=p1, name="Han")
    chewie = CharacterFactory(campaign=campaign, owner=p2, name="Chewie")
    for who in (han, chewie):
        who.perception = D("2D")
        who.save()
    SkillFactory(character=han, name="Space transports", code=D("5D"))
    SkillFactory(character=chewie, name="Starship gunnery", code=D("5D"))
    ship = create_craft(campaign, FREIGHTER, party=True)
    tie = create_craft(campaign, TIE, name="TIE 1")
    gm_membership = campaign.memberships.get(user=gm)
    crew_station(gm_membership, ship.stations.get(role="pilot"), han)
    crew_station(gm_membership, ship.stations.get(role="gunner", weapon_index=0), chewie)
    encounter = start_encounter(campaign, "Escape from Tatooine", gm)
    return campaign, encounter, ship, tie, han, chewie, p1, p2


def _add_craft(client, encounter, craft, side, count=1):
    url = reverse("encounters:add", args=[encounter.campaign_id, encounter.pk])
    return client.post(
        url, {"which": "craft", "cr-craft": craft.pk, "cr-side": side, "cr-count": count}
    )


def _step(client, encounter, **fields):
    url = reverse("encounters:step", args=[encounter.campaign_id, encounter.pk])
    fields.setdefault("seen", Encounter.objects.get(pk=encounter.pk).version)
    return client.post(url, fields, **HX)


def _state(encounter):
    return Encounter.objects.get(pk=encounter.pk).current_state()


def _fixed(monkeypatch, faces):
    monkeypatch.setattr(views, "dice", lambda: FixedDice(list(faces)))


def _in_round(client, hangar):
    campaign, encounter, ship, tie, han, chewie, _p1, _p2 = hangar
    client.force_login(campaign.created_by)
    assert _add_craft(client, encounter, ship, "rebels").status_code == 302
    assert _add_craft(client, encounter, tie, "empire").status_code == 302
    state = _state(encounter)
    ids = {c.id for c in state.combatants}
    assert ids == {f"craft-{ship.pk}", f"pc-{han.pk}", f"pc-{chewie.pk}", f"craft-{tie.pk}"}
    # initiative: the rebels' best Perception (2D) rolls 2, the TIE's crew (4D) 20
    real = views.dice
    views.dice = lambda: FixedDice([1, 1, 5, 5, 5, 5])
    try:
        assert _step(client, encounter, type="roll_initiative").status_code == 200
    finally:
        views.dice = real
    assert (
        _step(client, encounter, type="choose_order", side="empire", first="on").status_code == 200
    )
    for cid, n in ((f"craft-{tie.pk}", 1), (f"pc-{han.pk}", 2), (f"pc-{chewie.pk}", 1)):
        assert (
            _step(client, encounter, type="declare_actions", combatant=cid, actions=n).status_code
            == 200
        )
    return f"craft-{ship.pk}", f"craft-{tie.pk}"


def test_a_crewed_freighter_joins_with_its_crew_and_has_no_turn_of_its_own(client, hangar):
    falcon, tie = _in_round(client, hangar)
    state = _state(hangar[1])
    han, chewie = hangar[4], hangar[5]
    assert state.order == (tie, f"pc-{han.pk}", f"pc-{chewie.pk}")
    part = state.combatant(falcon).craft
    assert part.crew == (("pilot", f"pc-{han.pk}"), ("gunner:0", f"pc-{chewie.pk}"))
    page = client.get(reverse("encounters:page", args=[hangar[0].pk, hangar[1].pk]))
    assert "Maneuverability 2D · hull 4D · shields 1D" in page.content.decode()


def test_the_starfighter_hits_the_freighter_and_the_ship_sheet_shows_the_result_and_its_limit(
    client, hangar, monkeypatch
):
    campaign, encounter, ship, _tie_craft, han, _chewie, p1, _p2 = hangar
    falcon, tie = _in_round(client, hangar)
    response = _step(
        client, encounter, type="attack", attacker=tie, target=falcon, difficulty=10, gun=0
    )
    assert response.status_code == 200, response.content.decode()[:600]
    # Han (player 1) dodges for the freighter: 5D + 2D, 2 declared + 1 extra -> 5D
    client.force_login(p1)
    _fixed(monkeypatch, [1, 1, 1, 1, 2])
    response = _step(
        client,
        encounter,
        type="react",
        combatant=f"pc-{han.pk}",
        skill="starship dodge",
        extra="on",
        extra__present="1",
    )
    assert response.status_code == 200, response.content.decode()
    # the GM rolls the TIE's attack: 4D crew + 2D fire control = 6D, all 5s -> 30 beats 6
    client.force_login(campaign.created_by)
    attack = [5, 5, 5, 5, 5, 4]
    damage = [4, 4, 4, 4, 4]  # 5D laser cannons: 20
    hull = [1, 1, 1, 2]  # 4D hull: 5 -> margin 15 -> severely damaged [2E-STD]
    table = [4, 2]  # severe table 4: disabled weapons; 1D 1-4: severely damaged but repairable
    _fixed(monkeypatch, [*attack, *damage, *hull, *table])
    response = _step(client, encounter, type="resolve_attack")
    assert response.status_code == 200, response.content.decode()
    text = response.content.decode()
    assert "Stellar Envoy takes 20 damage against hull 5: severely damaged" in text
    ship.refresh_from_db()
    assert CraftState.from_json(ship.damage).damage == "severely"
    # the ship sheet shows it while the fight goes on
    sheet = client.get(ship.get_absolute_url()).content.decode()
    assert "severely damaged" in sheet.lower()
    # undo puts the sheet back
    enc = Encounter.objects.get(pk=encounter.pk)
    undo_last_step(enc.pk, expected_version=enc.version, actor=campaign.created_by)
    ship.refresh_from_db()
    assert ship.damage is None


def test_a_maneuverability_loss_limits_the_pilots_next_roll(client, hangar, monkeypatch):
    _campaign, encounter, ship, _tie_craft, han, _chewie, _p1, _p2 = hangar
    falcon, tie = _in_round(client, hangar)
    _step(client, encounter, type="attack", attacker=tie, target=falcon, difficulty=5, gun=0)
    # hit, damage 20 vs hull 10 -> margin 10: heavily damaged [2E-STD 9-12]; 1: -2D maneuverability
    _fixed(monkeypatch, [5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 3, 3, 2, 2, 1])
    response = _step(client, encounter, type="resolve_attack")
    assert response.status_code == 200, response.content.decode()
    ship.refresh_from_db()
    state = CraftState.from_json(ship.damage)
    assert state.damage == "heavily" and state.maneuverability_lost == 2
    pilot = ship.stations.get(role="pilot")
    trait = station_trait(pilot, han)
    assert str(trait.code) == "5D"  # 5D skill + (2D - 2D) maneuverability


def test_a_gunner_on_a_weapon_with_no_arc_to_the_target_is_refused_in_place(client, hangar):
    _campaign, encounter, _ship, _tie_craft, han, _chewie, p1, _p2 = hangar
    falcon, tie = _in_round(client, hangar)
    assert (
        _step(client, encounter, type="set_arc", craft=falcon, other=tie, arc="front").status_code
        == 200
    )
    _step(client, encounter, type="attack", attacker=tie, target=falcon, difficulty=5, gun=0)
    enc = Encounter.objects.get(pk=encounter.pk)
    enc.keep_state(enc.current_state().replace(pending=None))
    enc.save(update_fields=["state"])
    # Han takes the rear laser (nobody mans it, he is the pilot): it fires back only
    before = Encounter.objects.get(pk=encounter.pk).version
    client.force_login(p1)
    response = _step(
        client,
        encounter,
        type="attack",
        attacker=f"pc-{han.pk}",
        target=tie,
        range_band="short",
        gun=1,
    )
    assert response.status_code == 400
    assert (
        "Rear laser fires back; TIE 1 is in Stellar Envoy&#x27;s front arc"
        in response.content.decode()
    )
    assert Encounter.objects.get(pk=encounter.pk).version == before


def test_a_player_cannot_fire_a_gun_another_character_mans(client, hangar):
    campaign, encounter, _ship, _tie_craft, han, _chewie, p1, _p2 = hangar
    _falcon, tie = _in_round(client, hangar)
    # skip the TIE's turn so Han is due
    client.force_login(campaign.created_by)
    _step(client, encounter, type="act", combatant=tie, what="loops")
    client.force_login(p1)
    response = _step(
        client,
        encounter,
        type="attack",
        attacker=f"pc-{han.pk}",
        target=tie,
        range_band="short",
        gun=0,
    )
    assert response.status_code == 400
    assert "Quad laser is fired by Chewie, not by Han" in response.content.decode()


def test_a_capital_ship_joins_as_a_starship_at_capital_scale(client, hangar):
    campaign, encounter, *_ = hangar
    cruiser = create_craft(campaign, catalogue()["Mon Cal Cruiser"])
    client.force_login(campaign.created_by)
    response = client.post(
        reverse("encounters:add", args=[encounter.campaign_id, encounter.pk]),
        {
            "which": "craft",
            "cr-craft": cruiser.pk,
            "cr-side": "rebels",
            "cr-count": 1,
            "cr-crew_code": "4D",
        },
    )
    assert response.status_code == 302
    ship = _state(encounter).combatant(f"craft-{cruiser.pk}")
    assert ship.scale == Scale.CAPITAL and ship.craft.kind == "starship"
    assert ship.craft.piloting == "capital ship piloting"


def test_a_squadron_of_copies_flies_on_its_crew_code(client, hangar):
    campaign, encounter, _ship, tie, *_ = hangar
    client.force_login(campaign.created_by)
    assert _add_craft(client, encounter, tie, "empire", count=3).status_code == 302
    state = _state(encounter)
    ids = [c.id for c in state.combatants]
    assert ids == [f"craft-{tie.pk}", f"craft-{tie.pk}-2", f"craft-{tie.pk}-3"]
    assert state.combatant(f"craft-{tie.pk}-2").craft.craft_id is None


# --- V1-V3: scale between a landspeeder and an AT-AT, through the encounter's steps ------------
def _scale_fight(client, campaign, monkeypatch):
    speeder = create_craft(campaign, catalogue()["Landspeeder (scale example)"])
    walker = create_craft(campaign, catalogue()["AT-AT (scale example)"])
    for craft in (speeder, walker):  # flown by unnamed crews of 3D
        stats = craft.stat_block.to_json() | {"crew_code": "3D"}
        stats["hull"] = stats["hull"] or "1D+2"  # the example prints no body for the speeder
        if not stats["weapons"]:  # the example prints no gun for the walker: the GM's own
            gun = CraftWeapon("Heavy laser cannon", fire_control=D("2D"), damage=D("6D"))
            stats["weapons"] = [gun.to_dict()]
        Craft.objects.filter(pk=craft.pk).update(stats=stats)
    encounter = start_encounter(campaign, "Hoth", campaign.created_by)
    client.force_login(campaign.created_by)
    assert (
        _add_craft(client, encounter, Craft.objects.get(pk=speeder.pk), "rebels").status_code == 302
    )
    assert (
        _add_craft(client, encounter, Craft.objects.get(pk=walker.pk), "empire").status_code == 302
    )
    _fixed(monkeypatch, [5, 5, 5, 1, 1, 1])  # the speeder's crew 15, the walker's 3
    assert _step(client, encounter, type="roll_initiative").status_code == 200
    _step(client, encounter, type="choose_order", side="rebels", first="on")
    s, w = f"craft-{speeder.pk}", f"craft-{walker.pk}"
    _step(client, encounter, type="declare_actions", combatant=s, actions=1)
    _step(client, encounter, type="declare_actions", combatant=w, actions=1)
    return encounter, s, w


def test_v1_v2_the_landspeeder_adds_2d_to_hit_the_walker_which_resists_with_8d(
    client, hangar, monkeypatch
):
    campaign = hangar[0]
    encounter, s, w = _scale_fight(client, campaign, monkeypatch)
    assert (
        _step(
            client, encounter, type="attack", attacker=s, target=w, difficulty=10, gun=0
        ).status_code
        == 200
    )
    # 3D crew + 2D fire control + 2D scale = 7D to hit; damage 3D+1; body 6D + 2D = 8D
    _fixed(monkeypatch, [3] * 7 + [2] * 3 + [1] * 8)
    response = _step(client, encounter, type="resolve_attack")
    assert response.status_code == 200, response.content.decode()
    step = Encounter.objects.get(pk=encounter.pk).steps.order_by("-number").first()
    shot, hit = step.events[0], step.events[1]
    assert shot["numbers"]["attack_code"] == "5D"  # the scale bonus is added as a bonus pool
    assert shot["numbers"]["attack_total"] == 21  # 7 dice of 3
    assert hit["numbers"]["damage_code"] == "3D+1"
    assert hit["numbers"]["hull_code"] == "8D"


def test_v3_the_walker_fires_back_the_landspeeder_dodges_with_2d_more_and_takes_2d_more_damage(
    client, hangar, monkeypatch
):
    campaign = hangar[0]
    encounter, s, w = _scale_fight(client, campaign, monkeypatch)
    _step(client, encounter, type="act", combatant=s, what="swerves")
    response = _step(client, encounter, type="attack", attacker=w, target=s, difficulty=10, gun=0)
    assert response.status_code == 200, response.content.decode()[:400]
    # the speeder dodges: 3D crew + its maneuverability + 2D scale
    _fixed(monkeypatch, [1] * 20)
    response = _step(
        client,
        encounter,
        type="react",
        combatant=s,
        skill="vehicle dodge",
        extra="on",
        extra__present="1",
    )
    assert response.status_code == 200, response.content.decode()
    step = Encounter.objects.get(pk=encounter.pk).steps.order_by("-number").first()
    rolled = step.events[0]["rolls"][0][1]
    speeder = Craft.objects.get(pk=int(s.split("-")[1])).stat_block
    dodge = 3 + (speeder.maneuverability or DieCode()).dice + 2 - 1  # -1D: a second action
    assert len(rolled["normal"]) + len(rolled["wild"]) == dodge
    _fixed(monkeypatch, [4] * 5 + [2] * 40)  # 5D attack of 4s: 20 beats the dodge
    response = _step(client, encounter, type="resolve_attack")
    assert response.status_code == 200, response.content.decode()[:400]
    step = Encounter.objects.get(pk=encounter.pk).steps.order_by("-number").first()
    events = {e["kind"]: e for e in step.events}
    assert events["attack"]["numbers"]["attack_code"] == "5D"  # normal fire control
    walker = Craft.objects.get(pk=int(w.split("-")[1])).stat_block
    gun = walker.weapons[0].damage
    assert events["craft_damage"]["numbers"]["damage_code"] == str(DieCode(gun.dice + 2, gun.pips))
    assert events["craft_damage"]["numbers"]["hull_code"] == str(speeder.hull)


# --- V10, V22, V23, V27, V30 through the step service the pages call --------------------------
def _service_fight(campaign, ruleset, state, steps):
    """Start an encounter at ``state`` in a campaign playing ``ruleset`` and take ``steps``
    ((command, dice) pairs) with :func:`encounters.services.apply_step`: the events of the last."""
    from encounters.services import apply_step

    campaign.set_ruleset(ruleset)
    campaign.save()
    encounter = start_encounter(campaign, "Vectors", campaign.created_by, state=state)
    events = []
    for version, (command, dice) in enumerate(steps):
        _, events = apply_step(
            encounter.pk,
            command.to_json(),
            expected_version=version,
            actor=campaign.created_by,
            rng=FixedDice(dice),
        )
    return Encounter.objects.get(pk=encounter.pk), {e.kind: dict(e.numbers) for e in events}


@pytest.mark.parametrize(
    "attack, landed, hull",
    [([3, 3, 3, 3, 3, 2], None, None), ([3] * 6, True, "5D"), ([6, 6, 6, 6, 5, 5], False, "4D")],
)
def test_v10_through_the_step_service(hangar, attack, landed, hull):
    from rules.encounter import Attack, NextSegment, React, ResolveAttack
    from rules.tests.test_encounter_craft import RC, _rc_dogfight

    steps = [
        (NextSegment(), []),
        (React("han", "starship dodge"), [3, 3, 3, 3, 2, 2, 2]),  # combat evasion 18
        (React("chewie", "shields"), [6, 5, 5]),  # shields 16: shield number 34
        (NextSegment(), []),
        (Attack("craft-2", "craft-1", difficulty=6, gun=0), []),
        (ResolveAttack(), [*attack, *([1] * 40)]),
    ]
    _, events = _service_fight(hangar[0], RC, _rc_dogfight(), steps)
    assert events["attack"]["difficulty"] == 18
    if landed is None:
        assert events["attack"]["hit"] is False and "craft_damage" not in events
    else:
        assert events["craft_damage"]["shields_in_use"] is landed
        assert events["craft_damage"]["hull_code"] == hull


def test_v30_through_the_step_service(hangar):
    from rules.encounter import Attack, NextSegment, React, ResolveAttack
    from rules.tests.test_encounter_craft import RC, _rc_dogfight

    state = _rc_dogfight(han_full=True)
    ship = state.combatant("craft-1")
    crew = (("pilot", "han"), ("gunner:0", "chewie"))
    state = state.with_combatant(ship.replace(craft=ship.craft.replace(crew=crew)))
    steps = [
        (NextSegment(), []),
        (React("han", "starship dodge", full=True), [2, 2, 2, 2, 1, 1, 1, 1]),  # 12
        (NextSegment(), []),
        (Attack("chewie", "craft-2", difficulty=10, gun=0), []),
        (ResolveAttack(), [1] * 40),
    ]
    _, events = _service_fight(hangar[0], RC, state, steps)
    assert events["attack"]["own_evasion"] == 12 and events["attack"]["difficulty"] == 22


@pytest.mark.parametrize(
    "beam, hull, units, moves",
    [([4, 4, 3, 3], [2, 2], 2, 2), ([2, 2, 1, 2], [2, 3], 0, 0), ([5, 5, 5, 5], [2, 2], 4, 4)],
    ids=["V22", "V23", "V27"],
)
def test_tractor_vectors_through_the_step_service(hangar, beam, hull, units, moves):
    from rules.encounter import (
        AddCombatant,
        Attack,
        ChooseOrder,
        DeclareActions,
        EncounterState,
        ResolveAttack,
    )
    from rules.encounter.craft import CraftGun, parse_arcs
    from rules.ruleset import RuleSet
    from rules.tests.test_encounter_craft import FREIGHTER as SHIP
    from rules.tests.test_encounter_craft import GUNNER, PILOT
    from rules.tests.test_encounter_craft import TIE as FIGHTER

    tractor = CraftGun("tractor beam", D("2D"), D("4D"), parse_arcs(None), tractor=True)
    ship = SHIP.replace(craft=SHIP.craft.replace(guns=(*SHIP.craft.guns, tractor)))
    state = EncounterState(phase="order", initiative_winner="rebels")
    steps = [(AddCombatant(c), []) for c in (ship, PILOT, GUNNER, FIGHTER)]
    steps += [(ChooseOrder("rebels", first=True), [])]
    steps += [(DeclareActions(c, 1), []) for c in ("han", "chewie", "craft-2")]
    steps += [
        (Attack("han", "craft-2", difficulty=5, gun=2), []),
        (ResolveAttack(), [5] * 6 + beam + hull),
    ]
    encounter, events = _service_fight(hangar[0], RuleSet(), state, steps)
    assert (events["tractor"]["units_reeled"], events["tractor"]["moves_lost"]) == (units, moves)
    held = encounter.current_state().combatant("craft-2").craft.damage
    assert held.moves_lost == moves
    if moves == 4:
        from rules.craft import lost_moves_status

        assert lost_moves_status(held.moves_lost, ruleset=RuleSet()).drive_disabled


def test_the_gm_rams_the_tie_with_the_freighter_and_both_take_collision_damage(
    client, hangar, monkeypatch
):
    _campaign, encounter, _ship, _tie, han, _chewie, _p1, _p2 = hangar
    falcon, tie = _in_round(client, hangar)
    _step(client, encounter, type="act", combatant=tie, what="loops")
    # Han: 5D + 2D maneuverability less 1D (two declared actions) = 6D: 28 against 10 + 10
    faces = [5, 5, 5, 5, 4, 4]
    faces += [3] * 4 + [2, 2]  # the TIE: 4D collision at cruising = 12 against hull 2D = 4
    faces += [1]  # margin 8, lightly damaged; the table's 1: -1D maneuverability
    faces += [2] * 4 + [3] * 4  # the freighter: 8 against hull 12: no effect
    _fixed(monkeypatch, faces)
    response = _step(
        client,
        encounter,
        type="ram",
        pilot=f"pc-{han.pk}",
        target=tie,
        difficulty=10,
        speed="cruising",
    )
    assert response.status_code == 200, response.content.decode()[:500]
    text = response.content.decode()
    assert "Stellar Envoy (Han) rolls 28 against 20: rams TIE 1" in text
    assert "TIE 1 takes 12 collision damage against hull 4: lightly damaged" in text
    assert "Stellar Envoy takes 8 collision damage against hull 12: no effect" in text
    state = _state(encounter)
    assert state.combatant(tie).craft.damage.maneuverability_lost == 1
    assert state.combatant(falcon).craft.damage.damage == "none"
    assert state.combatant(f"pc-{han.pk}").actions.used == 1


def test_a_ram_below_the_movement_difficulty_loses_control_and_damages_nothing(
    client, hangar, monkeypatch
):
    _campaign, encounter, _ship, _tie, han, _chewie, _p1, _p2 = hangar
    _falcon, tie = _in_round(client, hangar)
    _step(client, encounter, type="act", combatant=tie, what="loops")
    _fixed(monkeypatch, [1, 1, 1, 1, 1, 2])  # 6D: 7 against 10
    response = _step(
        client,
        encounter,
        type="ram",
        pilot=f"pc-{han.pk}",
        target=tie,
        difficulty=10,
        speed="cruising",
    )
    assert response.status_code == 200
    assert "loses control (missed by 3" in response.content.decode()
    assert _state(encounter).combatant(tie).craft.damage.damage == "none"


def test_an_untrained_pilot_dodges_with_his_mechanical_plus_maneuverability(client, hangar):
    campaign, encounter, _ship, _tie, han, _chewie, p1, _p2 = hangar
    han.skills.all().delete()
    han.mechanical = D("3D+1")
    han.save()
    falcon, tie = _in_round(client, hangar)
    _step(client, encounter, type="attack", attacker=tie, target=falcon, difficulty=10, gun=0)
    client.force_login(p1)
    page = client.get(reverse("encounters:page", args=[campaign.pk, encounter.pk]))
    assert "Stellar Envoy is under attack: you fly it." in page.content.decode()
    assert "Starship dodge 5D+1" in page.content.decode()  # Mechanical 3D+1 + 2D


def test_every_npc_declares_skips_a_crewed_npc_craft(client, hangar):
    campaign, encounter, ship, _tie, _han, _chewie, _p1, _p2 = hangar
    Craft.objects.filter(pk=ship.pk).update(party=False)  # an NPC ship flown by an NPC
    trooper = CharacterFactory(campaign=campaign, name="Pilot trooper", kind="npc")
    gm_membership = campaign.memberships.get(user=campaign.created_by)
    crew_station(gm_membership, Craft.objects.get(pk=ship.pk).stations.get(role="pilot"), trooper)
    gunner = Craft.objects.get(pk=ship.pk).stations.get(role="gunner", weapon_index=0)
    crew_station(gm_membership, gunner, None)
    client.force_login(campaign.created_by)
    assert _add_craft(client, encounter, Craft.objects.get(pk=ship.pk), "empire").status_code == 302
    response = client.get(reverse("encounters:page", args=[campaign.pk, encounter.pk]))
    assert response.context["undeclared_npcs"] == [f"npc-{trooper.pk}"]
    assert "Acts through its crew" in response.content.decode()


def test_the_gm_moves_the_freighter_through_difficult_terrain_from_the_page(
    client, hangar, monkeypatch
):
    _campaign, encounter, _ship, _tie, han, _chewie, _p1, _p2 = hangar
    _falcon, tie = _in_round(client, hangar)
    _step(client, encounter, type="act", combatant=tie, what="loops")
    _fixed(monkeypatch, [4, 4, 4, 4, 4, 4])  # Han 5D + 2D less 1D = 6D: 24 against 15
    response = _step(
        client,
        encounter,
        type="drive",
        pilot=f"pc-{han.pk}",
        speed="high",
        terrain="moderate",
        difficulty="",
    )
    assert response.status_code == 200, response.content.decode()[:500]
    assert "Stellar Envoy moves at high speed (Han rolls 24 against 15): made it" in (
        response.content.decode()
    )


@pytest.mark.parametrize("preset, bonus", [(None, 6), ("house", 8)], ids=["UPG", "HOUSE"])
def test_v31_a_character_firing_at_a_starfighter_adds_the_adjusted_modifier(hangar, preset, bonus):
    """V31: a character fires at a starfighter: +6D to hit ([HOUSE] +8D)."""
    from rules.encounter import (
        AddCombatant,
        Attack,
        ChooseOrder,
        DeclareActions,
        EncounterState,
        ResolveAttack,
    )
    from rules.encounter.parts import Weapon
    from rules.ruleset import RuleSet
    from rules.tests.test_encounter_craft import TIE as FIGHTER
    from rules.tests.test_encounter_craft import person

    luke = person("luke", "rebels", blaster="4D").replace(
        weapon=Weapon("blaster pistol", "4D", "blaster", "ranged")
    )
    ruleset = RuleSet.preset(preset) if preset else RuleSet()
    state = EncounterState(phase="order", initiative_winner="rebels")
    steps = [(AddCombatant(c), []) for c in (luke, FIGHTER)]
    steps += [(ChooseOrder("rebels", first=True), [])]
    steps += [(DeclareActions(c, 1), []) for c in ("luke", "craft-2")]
    steps += [(Attack("luke", "craft-2", difficulty=10), []), (ResolveAttack(), [2] * 60)]
    encounter, _ = _service_fight(hangar[0], ruleset, state, steps)
    step = encounter.steps.order_by("-number").first()
    attack = next(e for e in step.events if e["kind"] == "attack")
    rolled = attack["rolls"][0][1]
    assert len(rolled["normal"]) + len(rolled["wild"]) == 4 + bonus


def test_v32_through_the_step_service(hangar):
    from rules.encounter import (
        AddCombatant,
        Attack,
        ChooseOrder,
        DeclareActions,
        EncounterState,
        ResolveAttack,
    )
    from rules.encounter.craft import CraftGun, parse_arcs
    from rules.ruleset import RuleSet
    from rules.tests.test_encounter_craft import FREIGHTER as SHIP
    from rules.tests.test_encounter_craft import GUNNER, PILOT
    from rules.tests.test_encounter_craft import TIE as FIGHTER

    torpedo = CraftGun("proton torpedoes", D("2D"), D("9D"), parse_arcs("front"), missile=True)
    fighter = FIGHTER.replace(craft=FIGHTER.craft.replace(guns=(torpedo,)))
    state = EncounterState(phase="order", initiative_winner="empire")
    steps = [(AddCombatant(c), []) for c in (SHIP, PILOT, GUNNER, fighter)]
    steps += [(ChooseOrder("empire", first=True), [])]
    steps += [(DeclareActions(c, 1), []) for c in ("craft-2", "han", "chewie")]
    attack = Attack("craft-2", "craft-1", difficulty=10, gun=0, speed_actions=3)
    steps += [(attack, []), (ResolveAttack(), [4, 5, 6] + [1] * 40)]
    _, events = _service_fight(hangar[0], RuleSet(), state, steps)
    assert events["attack"]["missile_dice"] == 15 and events["attack"]["difficulty"] == 25


# --- V6-V9: [RC] die caps between scales, through the step service ----------------------------
def _capped_fight(hangar, shooter, target, faces):
    from rules.encounter import (
        AddCombatant,
        Attack,
        ChooseOrder,
        DeclareActions,
        EncounterState,
        ResolveAttack,
    )
    from rules.ruleset import RuleSet

    ruleset = RuleSet(scale_mode="rc_die_caps", wild_die=False)
    state = EncounterState(phase="order", initiative_winner="a")
    steps = [(AddCombatant(c), []) for c in (shooter, target)]
    steps += [(ChooseOrder("a", first=True), [])]
    steps += [(DeclareActions(shooter.id, 1), [])]
    gun = 0 if shooter.craft is not None else None
    steps += [(Attack(shooter.id, target.id, difficulty=3, gun=gun), []), (ResolveAttack(), faces)]
    _, events = _service_fight(hangar[0], ruleset, state, steps)
    return events


def _bounty_hunter():
    from rules.encounter.parts import Weapon
    from rules.tests.test_encounter_craft import person

    hunter = person("boba", "a", blaster="4D").replace(
        weapon=Weapon("blaster", "4D", "blaster", "ranged")
    )
    return hunter.replace(side="a", strength=D("4D"))


def _craft(scale, side, name):
    from rules.encounter import Combatant
    from rules.encounter.craft import CraftGun, CraftPart, parse_arcs

    return Combatant(
        id=f"craft-{name}",
        name=name,
        side=side,
        perception=D("2D"),
        dexterity=D("2D"),
        strength=D("0D"),
        scale=scale,
        npc=True,
        craft=CraftPart(
            kind="vehicle" if scale == Scale.SPEEDER else "starship",
            piloting="repulsorlift operation",
            gunnery="vehicle blasters",
            shields_skill="starship shields",
            maneuverability=D("1D"),
            hull=D("4D"),
            guns=(CraftGun("blaster cannon", D("2D"), D("4D"), parse_arcs(None)),),
            crew_code=D("2D"),
        ),
    )


def test_v7_a_bounty_hunter_shooting_a_speeder_keeps_every_die(hangar):
    events = _capped_fight(
        hangar, _bounty_hunter(), _craft(Scale.SPEEDER, "b", "speeder"), [6, 6, 6, 6] + [1] * 20
    )
    assert events["attack"]["attack_total"] == 24  # cap 6: the 6s count


def test_v8_the_speeders_crew_shooting_the_bounty_hunter_drops_the_6s(hangar):
    hunter = _bounty_hunter().replace(side="b")
    events = _capped_fight(
        hangar, _craft(Scale.SPEEDER, "a", "speeder"), hunter, [5, 2, 3, 6] + [1] * 20
    )
    assert events["attack"]["attack_total"] == 10  # cap 5: the 6 is dropped


def test_v9_the_bounty_hunter_resists_a_speeder_weapon_with_a_cap_of_3(hangar):
    hunter = _bounty_hunter().replace(side="b")
    faces = [5, 5, 5, 5, 1, 1, 1, 1, 6, 3, 2, 1]  # hit; damage 4D = 4; Strength 4D
    events = _capped_fight(hangar, _craft(Scale.SPEEDER, "a", "speeder"), hunter, faces)
    assert events["damage"]["strength_total"] == 6  # cap 3: the 6 is dropped (3 + 2 + 1)


def test_v6_a_starfighter_gun_at_a_character_counts_only_dice_of_3_or_less(hangar):
    hunter = _bounty_hunter().replace(side="b")
    events = _capped_fight(
        hangar, _craft(Scale.STARFIGHTER, "a", "fighter"), hunter, [5, 2, 3, 6] + [1] * 20
    )
    assert events["attack"]["attack_total"] == 5  # V6: 5, 2, 3, 6 with cap 3: 2 + 3


@pytest.mark.parametrize("preset, bonus", [(None, 10), ("house", 12)], ids=["UPG", "HOUSE"])
def test_v31_a_speeder_firing_at_a_capital_ship_adds_the_adjusted_modifier(hangar, preset, bonus):
    """V31, second half: a speeder fires at a capital ship: +10D to hit ([HOUSE] +12D)."""
    from rules.encounter import (
        AddCombatant,
        Attack,
        ChooseOrder,
        DeclareActions,
        EncounterState,
        ResolveAttack,
    )
    from rules.ruleset import RuleSet

    ruleset = RuleSet.preset(preset) if preset else RuleSet()
    speeder = _craft(Scale.SPEEDER, "a", "speeder")
    cruiser = _craft(Scale.CAPITAL, "b", "cruiser")
    state = EncounterState(phase="order", initiative_winner="a")
    steps = [(AddCombatant(c), []) for c in (speeder, cruiser)]
    steps += [(ChooseOrder("a", first=True), [])]
    steps += [(DeclareActions(speeder.id, 1), [])]
    steps += [(Attack(speeder.id, cruiser.id, difficulty=10, gun=0), [])]
    steps += [(ResolveAttack(), [2] * 80)]
    encounter, _ = _service_fight(hangar[0], ruleset, state, steps)
    step = encounter.steps.order_by("-number").first()
    attack = next(e for e in step.events if e["kind"] == "attack")
    rolled = attack["rolls"][0][1]
    assert len(rolled["normal"]) + len(rolled["wild"]) == 2 + 2 + bonus  # crew + fire control
