"""Vehicles and starships in the encounter engine (rules/encounter/craft.py, craft_combat.py):
a freighter crewed by two characters against a self-crewed starfighter; arcs, dodges, hits on
the hull and the damage result; scale (V1-V3); ionization lasting a round and the next."""

from __future__ import annotations

import pytest

from rules.craft import CraftState
from rules.dice import DieCode, FixedDice, SeededDice
from rules.encounter import (
    AddCombatant,
    Attack,
    ChooseOrder,
    Combatant,
    DeclareActions,
    EncounterError,
    EncounterState,
    EndRound,
    React,
    ResolveAttack,
    apply,
    replay,
)
from rules.encounter.craft import CraftGun, CraftPart, SetArc, SetShields, parse_arcs
from rules.ruleset import RuleSet
from rules.scale import Scale

D = DieCode.parse
STD = RuleSet()


def person(cid: str, side: str, **skills: str) -> Combatant:
    return Combatant(
        id=cid,
        name=cid.title(),
        side=side,
        perception=D("3D"),
        dexterity=D("3D"),
        strength=D("2D"),
        skills=tuple((k.replace("_", " "), D(v)) for k, v in skills.items()),
    )


PILOT = person("han", "rebels", space_transports="6D", starship_gunnery="4D")
GUNNER = person("chewie", "rebels", starship_gunnery="5D")
FREIGHTER = Combatant(
    id="craft-1",
    name="Falcon",
    side="rebels",
    perception=D("0D"),
    dexterity=D("0D"),
    strength=D("0D"),
    scale=Scale.STARFIGHTER,
    craft=CraftPart(
        kind="starship",
        piloting="space transports",
        gunnery="starship gunnery",
        shields_skill="starship shields",
        maneuverability=D("2D"),
        hull=D("4D"),
        shields=D("1D"),
        guns=(
            CraftGun("quad laser", D("2D"), D("6D"), parse_arcs("turret")),
            CraftGun("rear laser", D("1D"), D("4D"), parse_arcs("back")),
        ),
        crew=(("pilot", "han"), ("gunner:0", "chewie")),
    ),
)
TIE = Combatant(
    id="craft-2",
    name="TIE",
    side="empire",
    perception=D("3D"),
    dexterity=D("3D"),
    strength=D("0D"),
    scale=Scale.STARFIGHTER,
    npc=True,
    craft=CraftPart(
        kind="starship",
        piloting="starfighter piloting",
        gunnery="starship gunnery",
        shields_skill="starship shields",
        maneuverability=D("2D"),
        hull=D("2D"),
        guns=(CraftGun("laser cannons", D("2D"), D("5D"), parse_arcs("front")),),
        crew_code=D("4D"),
    ),
)


def dogfight(ruleset: RuleSet = STD) -> EncounterState:
    people = (FREIGHTER, PILOT, GUNNER, TIE)
    state, _ = replay(
        EncounterState.new(), [AddCombatant(c) for c in people], ruleset=ruleset, rng=FixedDice([])
    )
    state = state.replace(initiative_winner="rebels", phase="order")
    steps = [
        ChooseOrder("rebels", first=True),
        DeclareActions("han", 2),
        DeclareActions("chewie", 1),
        DeclareActions("craft-2", 2),
    ]
    state, _ = replay(state, steps, ruleset=ruleset, rng=FixedDice([]))
    return state


def test_a_crewed_craft_has_no_turn_and_its_crew_and_an_uncrewed_fighter_do():
    state = dogfight()
    assert state.order == ("han", "chewie", "craft-2")
    with pytest.raises(EncounterError, match="acts through its crew"):
        apply(state, DeclareActions("craft-1", 1), ruleset=STD, rng=FixedDice([]))


def test_the_gunner_fires_his_gun_with_gunnery_plus_fire_control_and_the_hit_damages_the_hull():
    state = dogfight()
    state, events = apply(
        state, Attack("chewie", "craft-2", difficulty=10, gun=0), ruleset=STD, rng=FixedDice([])
    )
    assert state.pending is not None and state.pending.gun == 0
    assert "fires quad laser at TIE" in events[-1].text
    # attack 5D + 2D = 7D: 6 6 6 6 6 6 (wild) 6 then 1 -> explodes: keep simple with no 6 on wild
    attack = [5, 5, 5, 5, 5, 5, 4]  # 34
    damage = [6, 6, 6, 6, 6, 3]  # 6D (wild 3): 33
    hull = [1, 1]  # 2D (wild 1 -> complication? wild die 1 on resistance)
    rng = FixedDice([*attack, *damage, 2, 2, 6])
    state, events = apply(state, ResolveAttack(), ruleset=STD, rng=rng)
    shot, hit = events[0], events[1]
    assert dict(shot.numbers)["attack_code"] == "7D"
    assert dict(shot.numbers)["hit"] is True
    assert hit.kind == "craft_damage"
    tie = state.combatant("craft-2")
    assert tie.craft is not None
    assert dict(hit.numbers)["damage_total"] == 33
    # margin 33 - 4 = 29: destroyed [2E-STD bands]
    assert tie.craft.damage.destroyed
    assert tie.out_of_fight
    del hull


def test_a_gun_that_does_not_bear_on_the_target_is_refused_and_changes_nothing():
    state = dogfight()
    state, _ = apply(state, SetArc("craft-1", "craft-2", "front"), ruleset=STD, rng=FixedDice([]))
    with pytest.raises(EncounterError, match="rear laser fires back; TIE is in Falcon's front arc"):
        apply(state, Attack("han", "craft-2", difficulty=10, gun=1), ruleset=STD, rng=FixedDice([]))


def test_a_gun_is_fired_by_its_gunner_not_by_anyone_aboard():
    state = dogfight()
    with pytest.raises(EncounterError, match="quad laser is fired by Chewie, not by Han"):
        apply(state, Attack("han", "craft-2", difficulty=10, gun=0), ruleset=STD, rng=FixedDice([]))


def test_the_pilot_dodges_for_his_craft_with_piloting_plus_maneuverability():
    state = dogfight()
    state, _ = apply(
        state, Attack("craft-2", "craft-1", difficulty=10, gun=0), ruleset=STD, rng=FixedDice([])
    )
    with pytest.raises(EncounterError, match="flown by its crew: its pilot dodges"):
        apply(state, React("craft-1", "starship dodge"), ruleset=STD, rng=FixedDice([]))
    with pytest.raises(EncounterError, match="there is no attack on Chewie to react to"):
        apply(state, React("chewie", "starship dodge"), ruleset=STD, rng=FixedDice([]))
    # Han has 2 actions declared: 6D + 2D - 1D = 7D; all 3s = 21
    state, events = apply(
        state, React("han", "starship dodge", extra=False), ruleset=STD, rng=FixedDice([3] * 7)
    )
    assert events[0].numbers[0] == ("skill", "starship dodge")
    assert dict(events[0].numbers)["total"] == 21
    # the TIE's 4D + 2D crew code, 2 actions: 5D of 6s -> 30 + explode... use 5s: 25 beats 21
    rng = FixedDice([5, 5, 5, 5, 4, *([2] * 6), 1, 1, 1, 1, 1])
    state, events = apply(state, ResolveAttack(), ruleset=STD, rng=rng)
    assert dict(events[0].numbers)["difficulty"] == 21
    assert dict(events[0].numbers)["attack_code"] == "6D"


def test_2e_shields_add_to_the_hull_only_in_the_arcs_they_cover():
    state = dogfight()
    state, _ = apply(state, SetShields("craft-1", ("back",)), ruleset=STD, rng=FixedDice([]))
    state, _ = apply(state, SetArc("craft-1", "craft-2", "front"), ruleset=STD, rng=FixedDice([]))
    state, _ = apply(
        state, Attack("craft-2", "craft-1", difficulty=5, gun=0), ruleset=STD, rng=SeededDice(3)
    )
    state, events = apply(state, ResolveAttack(), ruleset=STD, rng=SeededDice(3))
    hit = next(e for e in events if e.kind == "craft_damage")
    assert dict(hit.numbers)["shields_in_use"] is False
    assert dict(hit.numbers)["hull_code"] == "4D"
    state = dogfight()
    state, _ = apply(state, SetShields("craft-1", ("front",)), ruleset=STD, rng=FixedDice([]))
    state, _ = apply(
        state, Attack("craft-2", "craft-1", difficulty=5, gun=0), ruleset=STD, rng=SeededDice(3)
    )
    state, events = apply(state, ResolveAttack(), ruleset=STD, rng=SeededDice(3))
    hit = next(e for e in events if e.kind == "craft_damage")
    assert dict(hit.numbers)["shields_in_use"] is True
    assert dict(hit.numbers)["hull_code"] == "5D"


def test_a_character_aboard_a_starship_cannot_be_shot_from_outside():
    state = dogfight()
    with pytest.raises(EncounterError, match="Han is aboard Falcon: attack the starship"):
        apply(state, Attack("craft-2", "han", difficulty=5, gun=0), ruleset=STD, rng=FixedDice([]))


def test_a_lightly_damaged_result_limits_the_next_dodge():
    state = dogfight()
    falcon = state.combatant("craft-1")
    assert falcon.craft is not None
    hurt = falcon.craft.replace(damage=CraftState(damage="lightly", maneuverability_lost=1))
    state = state.with_combatant(falcon.replace(craft=hurt))
    state, _ = apply(
        state, Attack("craft-2", "craft-1", difficulty=10, gun=0), ruleset=STD, rng=FixedDice([])
    )
    state, events = apply(
        state, React("han", "starship dodge", extra=False), ruleset=STD, rng=FixedDice([3] * 6)
    )
    # 6D + (2D - 1D lost) - 1D for the second action = 6D
    assert dict(events[0].numbers)["total"] == 18


def test_ionized_controls_last_the_round_and_the_next():
    rc = RuleSet(damage_chart="rc_multiples")
    state = dogfight()
    tie = state.combatant("craft-2")
    assert tie.craft is not None
    ionized = tie.craft.replace(damage=CraftState(controls_ionized=1), ionized_round=1)
    state = state.with_combatant(tie.replace(craft=ionized))
    state, _ = apply(state, EndRound(), ruleset=rc, rng=SeededDice(1))
    assert state.combatant("craft-2").craft.damage.controls_ionized == 1
    assert state.round == 2
    state = state.replace(phase="round")
    state, _ = apply(state, EndRound(), ruleset=rc, rng=SeededDice(1))
    assert state.combatant("craft-2").craft.damage.controls_ionized == 0


def test_craft_state_round_trips_through_json():
    state = dogfight()
    again = EncounterState.from_json(state.to_json())
    assert again == state
    assert again.combatant("craft-1").craft.crew == (("pilot", "han"), ("gunner:0", "chewie"))


@pytest.mark.parametrize(
    "text, arcs",
    [
        (None, ("front", "left", "right", "back")),
        ("turret", ("front", "left", "right", "back")),
        ("front/left", ("front", "left")),
        ("rear", ("back",)),
    ],
)
def test_fire_arcs_read_from_stat_block_text(text, arcs):
    assert parse_arcs(text) == arcs


def test_an_unknown_arc_is_refused():
    with pytest.raises(EncounterError, match="not 'sideways'"):
        parse_arcs("sideways")


# --- [RC] starship combat: combat evasion, shielding, full evasion (V10, V30) ---------------
RC = RuleSet.preset("rc")


def _rc_dogfight(*, han_full: bool = False) -> EncounterState:
    """The Silver Bolt (Han flying, Chewie on the shields) against a TIE, the [RC] round in
    segment 1 with everyone's actions declared."""
    falcon = FREIGHTER.replace(
        craft=FREIGHTER.craft.replace(crew=(("pilot", "han"), ("shields", "chewie")))
    )
    chewie = GUNNER.replace(skills=(("starship shields", D("3D")), ("starship gunnery", D("5D"))))
    state = EncounterState.new(rc_round=True)
    steps = [AddCombatant(c) for c in (falcon, PILOT, chewie, TIE)]
    full = "starship dodge" if han_full else None
    steps += [
        DeclareActions("han", 1, full_reaction=full),
        DeclareActions("chewie", 1),
        DeclareActions("craft-2", 1),
    ]
    state, _ = replay(state, steps, ruleset=RC, rng=FixedDice([]))
    return state


def test_v10_combat_evasion_and_shielding_set_the_difficulty_and_the_shield_number():
    """V10: combat evasion 18 against base 6; shields roll 16: difficulty 18, shield number 34;
    17 misses, 18-33 hits with the shield dice on the hull, 34 and more hits the hull alone."""
    from rules.encounter import NextSegment

    def fight(attack_faces: list[int]) -> dict:
        state = _rc_dogfight()
        state, _ = apply(state, NextSegment(), ruleset=RC, rng=FixedDice([]))
        # Han: 6D + 2D less 1D (a second action) = 7D; 18 with these faces (no Wild Die in RC)
        state, _ = apply(
            state, React("han", "starship dodge"), ruleset=RC, rng=FixedDice([3, 3, 3, 3, 2, 2, 2])
        )
        # Chewie: 3D shields + 1D shield code, less 1D = 3D: 16 is out of reach... 4D of 4s
        state, _ = apply(state, React("chewie", "shields"), ruleset=RC, rng=FixedDice([6, 5, 5]))
        state, _ = apply(state, NextSegment(), ruleset=RC, rng=FixedDice([]))
        state, _ = apply(
            state, Attack("craft-2", "craft-1", difficulty=6, gun=0), ruleset=RC, rng=FixedDice([])
        )
        state, events = apply(
            state, ResolveAttack(), ruleset=RC, rng=FixedDice([*attack_faces, *([1] * 40)])
        )
        return {e.kind: dict(e.numbers) for e in events}

    missed = fight([3, 3, 3, 3, 3, 2])  # 6D crew 4D + fire control 2D: 17
    assert missed["attack"]["difficulty"] == 18 and missed["attack"]["hit"] is False
    assert missed["attack"]["shields_total"] == 16
    shielded = fight([3, 3, 3, 3, 3, 3])  # 18: a hit below 34, shields on the hull
    assert shielded["craft_damage"]["shields_in_use"] is True
    assert shielded["craft_damage"]["hull_code"] == "5D"
    through = fight([6, 6, 6, 6, 5, 5])  # 34: the hull alone
    assert through["craft_damage"]["shields_in_use"] is False
    assert through["craft_damage"]["hull_code"] == "4D"


def test_v30_a_full_evasion_adds_its_roll_to_the_own_gunners_difficulty():
    """V30: the pilot full-evades with 12: his own gunners add 12 to their difficulty."""
    from rules.encounter import NextSegment

    state = _rc_dogfight(han_full=True)
    state = state.with_combatant(
        state.combatant("craft-1").replace(
            craft=state.combatant("craft-1").craft.replace(
                crew=(("pilot", "han"), ("gunner:0", "chewie"))
            )
        )
    )
    state, _ = apply(state, NextSegment(), ruleset=RC, rng=FixedDice([]))
    # Han's full evasion: 6D + 2D maneuverability, his speed action gives back its 1D: 8D = 12
    faces = [2, 2, 2, 2, 1, 1, 1, 1]
    state, events = apply(
        state, React("han", "starship dodge", full=True), ruleset=RC, rng=FixedDice(faces)
    )
    assert dict(events[0].numbers)["total"] == 12
    state, _ = apply(state, NextSegment(), ruleset=RC, rng=FixedDice([]))
    state, _ = apply(
        state, Attack("chewie", "craft-2", difficulty=10, gun=0), ruleset=RC, rng=FixedDice([])
    )
    state, events = apply(state, ResolveAttack(), ruleset=RC, rng=FixedDice([1] * 40))
    shot = dict(events[0].numbers)
    assert shot["own_evasion"] == 12
    assert shot["difficulty"] == 22


# --- tractor beams [UPG §10.1] (V22, V23, V27) ------------------------------------------------
def _held(beam_faces: list[int], hull_faces: list[int]):
    tractor = CraftGun("tractor beam", D("2D"), D("4D"), parse_arcs(None), tractor=True)
    falcon = FREIGHTER.replace(craft=FREIGHTER.craft.replace(guns=(*FREIGHTER.craft.guns, tractor)))
    state, _ = replay(
        EncounterState.new(),
        [AddCombatant(c) for c in (falcon, PILOT, GUNNER, TIE)],
        ruleset=STD,
        rng=FixedDice([]),
    )
    state = state.replace(initiative_winner="rebels", phase="order")
    steps = [
        ChooseOrder("rebels", first=True),
        DeclareActions("han", 1),
        DeclareActions("chewie", 1),
        DeclareActions("craft-2", 1),
    ]
    state, _ = replay(state, steps, ruleset=STD, rng=FixedDice([]))
    state, _ = apply(
        state, Attack("han", "craft-2", difficulty=5, gun=2), ruleset=STD, rng=FixedDice([])
    )
    attack = [5] * 6  # Han's gunnery 4D + fire control 2D: a hit
    state, events = apply(
        state, ResolveAttack(), ruleset=STD, rng=FixedDice([*attack, *beam_faces, *hull_faces])
    )
    return state, {e.kind: dict(e.numbers) for e in events}


def test_v22_a_beam_beating_the_hull_by_10_reels_in_2_units_and_costs_2_moves():
    state, events = _held([4, 4, 3, 3], [2, 2])  # 14 against 4: margin 10
    assert events["tractor"]["units_reeled"] == 2 and events["tractor"]["moves_lost"] == 2
    assert state.combatant("craft-2").craft.damage.moves_lost == 2


def test_v23_a_margin_of_2_holds_the_ship_with_no_change():
    state, events = _held([2, 2, 1, 2], [2, 3])  # 7 against 5
    assert events["tractor"]["broke_free"] is False
    assert events["tractor"]["units_reeled"] == 0
    assert state.combatant("craft-2").craft.damage.moves_lost == 0


def test_v27_a_margin_of_16_reels_in_4_units_and_disables_the_drive():
    state, events = _held([5, 5, 5, 5], [2, 2])  # 20 against 4
    assert events["tractor"]["units_reeled"] == 4 and events["tractor"]["moves_lost"] == 4
    assert state.combatant("craft-2").craft.damage.moves_lost == 4


def test_a_tractor_beam_does_not_hold_a_person():
    state = dogfight()
    tractor = CraftGun("tractor beam", D("2D"), D("4D"), parse_arcs(None), tractor=True)
    tie = state.combatant("craft-2")
    state = state.with_combatant(tie.replace(craft=tie.craft.replace(guns=(tractor,))))
    loose = person("luke", "rebels")
    state, _ = apply(state, AddCombatant(loose), ruleset=STD, rng=FixedDice([]))
    with pytest.raises(EncounterError, match="holds vehicles and starships, not people"):
        apply(state, Attack("craft-2", "luke", difficulty=5, gun=0), ruleset=STD, rng=FixedDice([]))


# --- moving through terrain, limited by lost Moves --------------------------------------------
def test_a_craft_that_lost_2_moves_is_refused_high_speed():
    from rules.encounter.craft import Drive

    state = dogfight()
    falcon = state.combatant("craft-1")
    hurt = falcon.craft.replace(damage=CraftState(damage="heavily", moves_lost=2))
    state = state.with_combatant(falcon.replace(craft=hurt))
    with pytest.raises(EncounterError, match="Falcon has lost 2 Moves: cruising speed at most"):
        apply(state, Drive("han", "high", "easy"), ruleset=STD, rng=FixedDice([]))


def test_a_craft_with_4_lost_moves_cannot_move():
    from rules.encounter.craft import Drive

    state = dogfight()
    falcon = state.combatant("craft-1")
    state = state.with_combatant(
        falcon.replace(craft=falcon.craft.replace(damage=CraftState(moves_lost=4)))
    )
    with pytest.raises(EncounterError, match="its drive is disabled"):
        apply(state, Drive("han", "cautious", "easy"), ruleset=STD, rng=FixedDice([]))


def test_cruising_through_difficult_terrain_is_an_action_and_a_roll_of_piloting():
    from rules.encounter.craft import Drive

    state = dogfight()
    # space transports 6D + maneuverability 2D less 1D (two actions) = 7D of 2s: 14 < 16
    state, events = apply(
        state, Drive("han", "cruising", "difficult", 16), ruleset=STD, rng=FixedDice([2] * 7)
    )
    assert "movement failure, missed by 2" in events[0].text
    assert dict(events[0].numbers)["code"] == "8D"
    assert state.combatant("han").actions.used == 1


def test_cruising_through_easy_terrain_needs_no_roll():
    from rules.encounter.craft import Drive

    state = dogfight()
    state, events = apply(state, Drive("han", "cruising", "easy"), ruleset=STD, rng=FixedDice([]))
    assert events[0].text == "Falcon moves at cruising speed: no roll needed"


def test_the_gms_number_must_fit_the_terrains_level():
    from rules.encounter.craft import Drive

    with pytest.raises(EncounterError, match="Difficult is 16–20; 15 is not in that range"):
        apply(dogfight(), Drive("han", "cruising", "difficult", 15), ruleset=STD, rng=FixedDice([]))


def test_a_hit_with_a_damage_table_roll_replays_to_the_same_state():
    """Undo replays the stored steps with the dice their events recorded: the 1D damage table
    roll must be among them."""
    from rules.encounter import recorded_dice

    state = dogfight()
    steps = [Attack("craft-2", "craft-1", difficulty=5, gun=0), ResolveAttack()]
    # 5D (two declared actions): a hit; damage 5D = 20 against hull 4D = 10: heavily
    # damaged; the table's 1: -2D maneuverability
    faces = [5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 3, 3, 2, 2, 1]
    after, events = replay(state, steps, ruleset=STD, rng=FixedDice(faces))
    assert after.combatant("craft-1").craft.damage.maneuverability_lost == 2
    again, _ = replay(state, steps, ruleset=STD, rng=FixedDice(recorded_dice(events)))
    assert again == after


def test_v32_a_missile_at_a_ship_taking_3_speed_actions_adds_3d_to_the_difficulty():
    """V32: base 10, the target takes 3 speed actions: difficulty 10 + 3D, rolled and added;
    the target's pilot takes no penalty for it."""
    from rules.encounter import recorded_dice

    torpedo = CraftGun("proton torpedoes", D("2D"), D("9D"), parse_arcs("front"), missile=True)
    state = dogfight()
    tie = state.combatant("craft-2")
    state = state.with_combatant(tie.replace(craft=tie.craft.replace(guns=(torpedo,))))
    steps = [Attack("craft-2", "craft-1", difficulty=10, gun=0, speed_actions=3), ResolveAttack()]
    faces = [4, 5, 6] + [1] * 5 + [1] * 40  # the 3D: 15; then a 5D attack of 1s
    after, events = replay(state, steps, ruleset=STD, rng=FixedDice(faces))
    shot = next(e for e in events if e.kind == "attack")
    assert dict(shot.numbers)["missile_dice"] == 15
    assert dict(shot.numbers)["difficulty"] == 25
    assert after.combatant("han").actions.used == 0  # no penalty for the target's pilot
    again, _ = replay(state, steps, ruleset=STD, rng=FixedDice(recorded_dice(events)))
    assert again == after


def test_speed_actions_belong_to_a_missile_attack():
    with pytest.raises(EncounterError, match="count against a craft's missiles"):
        Attack("tk", "kira", difficulty=10, speed_actions=2)
