"""Craft in the fight, the side that decides without dice: who is aboard which craft and who
acts for it, the codes its crew roll (piloting plus maneuverability, gunnery plus fire control,
shields plus the shield code), which gun bears on whom, the GM's arcs and shields, [RC] full
evasion's effects aboard, and ionization wearing off (:mod:`rules.encounter.craft` tells the
rules; the rolls are in :mod:`rules.encounter.craft_combat`)."""

from __future__ import annotations

from dataclasses import replace

from rules.combat import AttackKind
from rules.craft import CraftKind, CraftStats, full_evasion
from rules.dice import DieCode
from rules.encounter.craft import ARCS, CraftPart
from rules.encounter.events import Event
from rules.encounter.state import Combatant, EncounterError, EncounterState
from rules.ruleset import RuleSet

__all__ = [
    "aboard",
    "acts_itself",
    "check_target",
    "combined",
    "craft_end_round",
    "craft_stats",
    "crew_code",
    "dodge_skill",
    "gun_attack",
    "own_evasion",
    "reaction_code",
    "reaction_skills_for",
    "reacts_for",
    "set_arc",
    "set_shields",
    "shielding_penalty",
    "standing_craft_reaction",
]


# --- who is where ---------------------------------------------------------------------------
def aboard(state: EncounterState, c: Combatant) -> Combatant | None:
    """The craft ``c`` is: itself when he is a craft, the craft whose crew he is, or None."""
    if c.craft is not None:
        return c
    for other in state.combatants:
        if other.craft is not None and other.craft.stations_of(c.id):
            return other
    return None


def acts_itself(c: Combatant) -> bool:
    """Whether a combatant declares and takes turns: every character, and a craft with no
    characters for crew (its unnamed crew acts for it)."""
    return c.craft is None or not c.craft.crewed


def dodge_skill(craft: CraftPart) -> str:
    return "starship dodge" if craft.kind == "starship" else "vehicle dodge"


def _kind(craft: CraftPart) -> AttackKind:
    return "starship" if craft.kind == "starship" else "vehicle"


def crew_code(craft_c: Combatant, who: Combatant, skill: str) -> DieCode:
    """What a station's holder rolls: his own skill, or the craft's crew code when the craft
    acts itself."""
    part = craft_c.craft
    assert part is not None
    if who.id == craft_c.id:
        if part.crew_code is None:
            raise EncounterError(f"{craft_c.name} has no crew code: put a character on it")
        return part.crew_code
    return who.code(skill)


def combined(skill: DieCode, craft_code: DieCode) -> DieCode:
    return DieCode(skill.dice + craft_code.dice, skill.pips + craft_code.pips)


def craft_stats(c: Combatant) -> CraftStats:
    part = c.craft
    assert part is not None
    kind: CraftKind = "vehicle" if part.kind == "vehicle" else "starship"
    return CraftStats(
        name=c.name,
        kind=kind,
        scale=c.scale,
        maneuverability=part.maneuverability,
        hull=part.hull,
        shields=part.shields,
    )


# --- the GM's arcs and shields --------------------------------------------------------------
#: The 1D table results that put every gun aboard out of action (the damage tables' codes).
_ALL_WEAPONS_OUT = {
    "all_disabled": "all disabled",
    "all_severely_damaged": "all severely damaged",
    "all_destroyed": "all destroyed",
}


def set_arc(state: EncounterState, craft: str, other: str, arc: str) -> EncounterState:
    c = state.combatant(craft)
    if c.craft is None:
        raise EncounterError(f"{c.name} is no vehicle or starship")
    placed = aboard(state, state.combatant(other))
    if other == craft or (placed is not None and placed.id == craft):
        raise EncounterError(f"{c.name} has no arc for itself or its own crew")
    arcs = (*(p for p in c.craft.arcs if p[0] != other), (other, arc))
    return state.with_combatant(c.replace(craft=c.craft.replace(arcs=arcs)))


def set_shields(
    state: EncounterState, craft: str, arcs: tuple[str, ...], *, ruleset: RuleSet
) -> tuple[EncounterState, list[Event]]:
    """2E: the arcs the craft's shields cover until changed."""
    c = state.combatant(craft)
    part = c.craft
    if part is None:
        raise EncounterError(f"{c.name} is no vehicle or starship")
    if part.shields is None or part.code("shields", ruleset=ruleset).dice == 0:
        raise EncounterError(f"{c.name} has no shield dice left to set")
    if any(a not in ARCS for a in arcs):
        raise EncounterError(f"shield arcs are {', '.join(ARCS)}")
    arcs = tuple(dict.fromkeys(arcs))
    said = ", ".join(arcs) if arcs else "no arc"
    event = Event("shields", c.id, f"{c.name}'s shields cover {said}", (("arcs", ",".join(arcs)),))
    return state.with_combatant(c.replace(craft=part.replace(shield_arcs=arcs))), [event]


# --- announcing a gun -----------------------------------------------------------------------
def gun_attack(
    state: EncounterState, attacker: Combatant, target: Combatant, gun: int
) -> tuple[AttackKind, str]:
    """The attack kind and gunnery skill of ``attacker`` firing ``gun`` of his craft at
    ``target``, or the refusal: he must hold the gun's station (or be the pilot of a craft
    whose gun nobody mans, or the craft itself), and the gun must bear on the target's arc."""
    craft_c = aboard(state, attacker)
    if craft_c is None or craft_c.craft is None:
        raise EncounterError(f"{attacker.name} is not aboard a craft with guns")
    part = craft_c.craft
    if not 0 <= gun < len(part.guns):
        raise EncounterError(f"{craft_c.name} has no gun number {gun + 1}")
    weapon = part.guns[gun]
    if weapon.damage == DieCode() and not weapon.ion:
        raise EncounterError(f"{weapon.name} does no damage: it cannot fire at a target")
    gunner = part.gunner_of(gun)
    allowed = {gunner} if gunner else {part.holder("pilot"), craft_c.id}
    if attacker.id not in allowed:
        who = state.combatant(gunner).name if gunner else "its pilot"
        raise EncounterError(f"{weapon.name} is fired by {who}, not by {attacker.name}")
    goal = aboard(state, target) or target
    if weapon.tractor and goal.craft is None:
        raise EncounterError(f"{weapon.name} holds vehicles and starships, not people")
    if goal.id == craft_c.id:
        raise EncounterError(f"{craft_c.name} cannot fire on itself or its own crew")
    arc = part.arc_of(goal.id)
    if arc not in weapon.arcs:
        raise EncounterError(
            f"{weapon.name} fires {weapon.arc_text}; {goal.name} is in {craft_c.name}'s "
            f"{arc} arc: turn the craft first (the GM sets the arc)"
        )
    if part.damage.dead_controls or part.damage.destroyed:
        raise EncounterError(f"{craft_c.name} is dead in space: nothing aboard works this round")
    out = [w for w in part.damage.weapon_damage if w in _ALL_WEAPONS_OUT]
    if out:
        raise EncounterError(
            f"{craft_c.name}'s weapons are out ({_ALL_WEAPONS_OUT[out[0]]}) until repaired"
        )
    return _kind(part), part.gunnery


def check_target(state: EncounterState, target: Combatant) -> None:
    """A character inside a starship cannot be shot from outside: shoot the starship."""
    if target.craft is not None:
        return
    ship = aboard(state, target)
    if ship is not None and ship.craft is not None and ship.craft.kind == "starship":
        raise EncounterError(f"{target.name} is aboard {ship.name}: attack the starship")


# --- reactions ------------------------------------------------------------------------------
def reacts_for(state: EncounterState, c: Combatant, target_id: str) -> bool:
    """Whether ``c`` may react to an attack on ``target_id``: he is the target, or he flies or
    shields the craft under fire."""
    if c.id == target_id:
        return True
    target = state.combatant(target_id)
    part = target.craft
    return part is not None and c.id in (part.holder("pilot"), part.holder("shields"))


def reaction_skills_for(
    state: EncounterState, c: Combatant, target_id: str, *, ruleset: RuleSet
) -> tuple[str, ...] | None:
    """The reaction skills that answer an attack on a craft (its dodge; [RC] shielding by the
    shields station), None when the target is no craft."""
    target = state.combatant(target_id)
    part = target.craft
    if part is None:
        return None
    skills: list[str] = []
    if c.id in (part.holder("pilot"), target.id):
        skills.append(dodge_skill(part))
    rc_shields = ruleset.damage_chart == "rc_multiples" and part.shields is not None
    if rc_shields and c.id in (part.holder("shields"), target.id):
        skills.append("shields")
    if not skills:
        raise EncounterError(f"{c.name} neither flies nor shields {target.name}")
    return tuple(skills)


def reaction_code(state: EncounterState, c: Combatant, skill: str, *, ruleset: RuleSet) -> DieCode:
    """The code ``c`` reacts with: for a craft's dodge his piloting skill plus its
    maneuverability (as damage left it), for [RC] shielding his shields skill plus its shield
    code; otherwise his own code for the skill."""
    craft_c = aboard(state, c)
    if (
        craft_c is None
        or craft_c.craft is None
        or skill
        not in (
            "starship dodge",
            "vehicle dodge",
            "shields",
        )
    ):
        return c.code(skill)
    part = craft_c.craft
    if skill == "shields":
        if part.shields is None:
            raise EncounterError(f"{craft_c.name} has no shields")
        own = crew_code(craft_c, c, part.shields_skill)
        return combined(own, part.code("shields", ruleset=ruleset))
    if skill != dodge_skill(part):
        raise EncounterError(f"{craft_c.name} dodges with {dodge_skill(part)}")
    own = crew_code(craft_c, c, part.piloting)
    return combined(own, part.code("maneuverability", ruleset=ruleset))


def standing_craft_reaction(
    state: EncounterState, target: Combatant
) -> tuple[str | None, int, bool, int, int | None]:
    """The dodge standing for a craft this round (its pilot's, or its own) and the [RC]
    shields total: (skill, total, full, haste, shields total)."""
    part = target.craft
    assert part is not None
    skill = dodge_skill(part)
    people = [target]
    for station in ("pilot", "shields"):
        who = part.holder(station)
        if who is not None:
            people.append(state.combatant(who))
    dodge = next((r for p in people if (r := p.reaction(skill)) is not None), None)
    shields = next((r for p in people if (r := p.reaction("shields")) is not None), None)
    shields_total = shields.total if shields else None
    if dodge is None:
        return None, 0, False, 0, shields_total
    return skill, dodge.total, dodge.full, dodge.haste, shields_total


def _full_evasion(state: EncounterState, craft_c: Combatant) -> int | None:
    """The full evasion roll standing for the craft this round (its pilot's full dodge)."""
    part = craft_c.craft
    if part is None:
        return None
    skill = dodge_skill(part)
    for who in (part.holder("pilot"), craft_c.id):
        if who is None:
            continue
        found = state.combatant(who).reaction(skill)
        if found is not None and found.full:
            return found.total
    return None


def own_evasion(state: EncounterState, craft_c: Combatant) -> int | None:
    """[RC §8.3] What a craft's full evasion adds to its own gunners' difficulty (V30)."""
    roll_total = _full_evasion(state, craft_c)
    return None if roll_total is None else full_evasion(roll_total).own_gunners_difficulty


def shielding_penalty(state: EncounterState, craft_c: Combatant) -> int:
    """[RC §8.3] What a craft's full evasion takes off its own shielding rolls (V30)."""
    roll_total = _full_evasion(state, craft_c)
    return 0 if roll_total is None else full_evasion(roll_total).shielding_penalty


def craft_end_round(state: EncounterState) -> EncounterState:
    """Controls ionized last the rest of the round they happen in and the next [RC §8.5]:
    at the end of that next round they clear (dead controls too)."""
    people: list[Combatant] = []
    for c in state.combatants:
        part = c.craft
        if part is not None and part.ionized_round and state.round > part.ionized_round:
            damage = replace(part.damage, controls_ionized=0, dead_controls=False)
            c = c.replace(craft=part.replace(damage=damage, ionized_round=0))
        people.append(c)
    return state.replace(combatants=tuple(people))
