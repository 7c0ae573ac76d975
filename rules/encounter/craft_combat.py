"""Craft in the fight, the rolls: an attack from a craft's gun or on a craft (the standing
dodge, the attack, a hit against hull and shields read on the campaign's damage chart with
its 1D table), tractor beams, ramming, and the crew hurt when their craft is destroyed.
Who acts for a craft and with which codes is :mod:`rules.encounter.craft_aboard`."""

from __future__ import annotations

from rules.combat import is_hit, reacted_difficulty
from rules.craft import (
    DamageEffect,
    apply_damage,
    apply_damage_effect,
    craft_damage_result,
    missile_difficulty_dice,
    shield_number,
    shielded_hit,
    tractor_beam,
)
from rules.dice import DiceSource, DieCode, Roll, roll
from rules.encounter.craft_aboard import (
    aboard,
    combined,
    craft_stats,
    crew_code,
    own_evasion,
    shielding_penalty,
    standing_craft_reaction,
)
from rules.encounter.events import Event, Scalar, plain_roll
from rules.encounter.parts import PendingAttack, Weapon
from rules.encounter.resolve import penalty_dice, roll_for
from rules.encounter.state import Combatant, EncounterError, EncounterState
from rules.errors import RulesError
from rules.movement import (
    collision_damage,
)
from rules.ruleset import RuleSet
from rules.scale import Scale, apply_die_cap, scale_adjustment

__all__ = ["resolve_craft_attack"]

Numbers = tuple[tuple[str, Scalar], ...]
_WEAPON_WORDS = {
    "one_destroyed": "a weapon destroyed",
    "one_lightly_damaged": "a weapon knocked out (lightly damaged)",
    "arc_disabled": "the weapons of one type in one arc disabled",
    "arc_destroyed": "the weapons of one type in one arc destroyed",
    "all_disabled": "all weapons disabled",
    "all_severely_damaged": "all weapons severely damaged but repairable",
    "all_destroyed": "all weapons aboard destroyed",
}


class _Tape:
    """A dice source keeping the faces it hands out: the damage table's 1D is drawn inside
    :func:`rules.craft.apply_damage`, and every die must be in the events for a replay."""

    def __init__(self, rng: DiceSource) -> None:
        self.rng = rng
        self.faces: list[int] = []

    def d6(self) -> int:
        face = self.rng.d6()
        self.faces.append(face)
        return face

    def rolls(self, label: str) -> tuple[tuple[str, Roll], ...]:
        return ((label, plain_roll(self.faces)),) if self.faces else ()


_LEVEL_WORDS = {
    "none": "no effect",
    "lightly": "lightly damaged",
    "heavily": "heavily damaged",
    "severely": "severely damaged",
    "destroyed": "destroyed",
    "shields_blown": "shields blown",
    "controls_ionized": "controls ionized",
}


# --- resolving ------------------------------------------------------------------------------
def _capped(result: Roll, cap: int | None) -> int:
    return result.total if cap is None or cap >= 6 else apply_die_cap(result, cap)


def _platform_scale(state: EncounterState, c: Combatant, p: PendingAttack) -> Scale:
    if p.gun is not None:
        craft_c = aboard(state, c)
        if craft_c is not None:
            return craft_c.scale
    return c.scale


def resolve_craft_attack(
    state: EncounterState,
    p: PendingAttack,
    attacker: Combatant,
    target: Combatant,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
    damage_cp: int,
) -> tuple[EncounterState, list[Event]]:
    """An announced attack fired from a craft's gun or made on a craft: the standing dodge
    (the pilot's piloting plus maneuverability, with the scale's dodge bonus when rolled), the
    attack roll (gunnery plus the gun's fire control, or the character's own weapon skill), and
    on a hit the damage: on a craft against hull (and shields), read on the campaign's chart and
    applied with its 1D table; on a character against Strength as any hit."""
    from rules.encounter.resolve import _damage  # the character's side of any hit

    a_scale = _platform_scale(state, attacker, p)
    scale = scale_adjustment(a_scale, target.scale, ruleset=ruleset)
    for cap in (scale.to_hit_cap, scale.damage_cap, scale.resist_cap):
        if cap is None:
            raise EncounterError("at these scales this attack is not possible ([RC] chart '—')")
    if target.craft is not None:
        skill, total, full, haste, shields_total = standing_craft_reaction(state, target)
    else:
        from rules.encounter.resolve import _standing_reaction

        skill, total, full, haste = _standing_reaction(target, attacker, p, ruleset=ruleset)
        shields_total = None
    difficulty = reacted_difficulty(
        p.base,
        total if skill else None,
        ruleset=ruleset,
        full=full,
        reaction_haste=haste,
        attack_haste=attacker.haste,
    )
    craft_c = aboard(state, attacker) if p.gun is not None else None
    missile_dice: tuple[tuple[str, Roll], ...] = ()
    firing = craft_c.craft if craft_c is not None else None
    if firing is not None and p.gun is not None and firing.guns[p.gun].missile and p.speed_actions:
        faces = tuple(rng.d6() for _ in range(missile_difficulty_dice(p.speed_actions).dice))
        missile_dice = (("missile difficulty dice", plain_roll(faces)),)
        difficulty += sum(faces)  # [RC §8.7] +1D per speed action, rolled (V32)
    evading = own_evasion(state, craft_c) if craft_c is not None else None
    if evading is not None:  # [RC §8.3] the ship's own gunners add its full evasion roll
        difficulty += evading
    if shields_total is not None:
        shields_total = max(0, shields_total - shielding_penalty(state, target))
    gun = None
    if craft_c is not None and craft_c.craft is not None and p.gun is not None:
        part = craft_c.craft
        gun = part.guns[p.gun]
        own = crew_code(craft_c, attacker, part.gunnery)
        code = combined(own, part.code("fire_control", ruleset=ruleset, gun=p.gun))
    else:
        code = attacker.code(p.skill)
    penalty = penalty_dice(attacker, now_round=state.round, ruleset=ruleset)
    bonus = scale.attack_bonus.pool_add(p.aim_bonus(p.attacker))
    attack_total, rolls, _ = roll_for(
        attacker,
        code,
        "attack",
        penalty=penalty,
        now_round=state.round,
        cp_dice=p.cp_dice,
        force_point=p.force_point,
        bonus=bonus or None,
        cap=scale.to_hit_cap,
        ruleset=ruleset,
        rng=rng,
    )
    hit = is_hit(attack_total, difficulty)
    through = "hull"
    if hit and target.craft is not None and shields_total is not None:
        number = shield_number(difficulty, shields_total)
        through = shielded_hit(attack_total, difficulty, number) or "hull"
    numbers: Numbers = (
        ("base_difficulty", p.base),
        ("reaction", total if skill else None),
        ("difficulty", difficulty),
        ("attack_code", str(code)),
        ("penalty_dice", penalty),
        ("attack_total", attack_total),
        ("hit", hit),
        ("gun", gun.name if gun else None),
        ("own_evasion", evading),
        ("shields_total", shields_total),
        ("missile_dice", sum(r.total for _, r in missile_dice) if missile_dice else None),
    )
    verdict = "hits" if hit else "misses"
    events = [
        Event(
            "attack",
            attacker.id,
            f"{attacker.name} rolls {attack_total} against {difficulty} "
            f"and {verdict} {target.name}",
            numbers,
            (*missile_dice, *rolls),
        )
    ]
    state = state.replace(pending=None)
    if not hit:
        return state, events
    if target.craft is None:  # a gun on a character: his Strength against the gun's damage
        assert craft_c is not None and craft_c.craft is not None and p.gun is not None
        damage = craft_c.craft.code("damage", ruleset=ruleset, gun=p.gun)
        shooter = attacker.replace(
            weapon=Weapon(gun.name if gun else "gun", str(damage), p.skill, "ranged"),
            scale=a_scale,
        )
        new_state, hurt = _damage(
            state,
            p,
            shooter,
            target,
            shot_bonus=None,
            ruleset=ruleset,
            rng=rng,
            damage_cp=damage_cp,
        )
        return new_state, [*events, *hurt]
    state, hit_events = _hit_craft(
        state,
        p,
        attacker,
        target,
        a_scale=a_scale,
        through=through,
        ruleset=ruleset,
        rng=rng,
        damage_cp=damage_cp,
    )
    return state, [*events, *hit_events]


def _hit_craft(
    state: EncounterState,
    p: PendingAttack,
    attacker: Combatant,
    target: Combatant,
    *,
    a_scale: Scale,
    through: str,
    ruleset: RuleSet,
    rng: DiceSource,
    damage_cp: int,
) -> tuple[EncounterState, list[Event]]:
    part = target.craft
    assert part is not None
    scale = scale_adjustment(a_scale, target.scale, ruleset=ruleset)
    craft_c = aboard(state, attacker) if p.gun is not None else None
    ion = False
    if craft_c is not None and craft_c.craft is not None and p.gun is not None:
        gun = craft_c.craft.guns[p.gun]
        if gun.tractor:
            return _tractor(state, craft_c, target, p.gun, scale=scale, ruleset=ruleset, rng=rng)
        ion = gun.ion
        damage = craft_c.craft.code("damage", ruleset=ruleset, gun=p.gun)
        firer = craft_c
    else:
        weapon = attacker.weapon
        if weapon is None or not weapon.damage[:1].isdecimal():
            raise EncounterError(f"{attacker.name}'s fists do nothing to {target.name}")
        damage = DieCode.parse(weapon.damage)
        firer = attacker
    code = damage.pool_add(scale.damage_bonus)
    wild = ruleset.wild_die and ruleset.wild_die_on_damage
    dmg = roll(code, cp_dice=damage_cp, wild_die=wild, ruleset=ruleset, rng=rng)
    hull = part.code("hull", ruleset=ruleset)
    shields = part.code("shields", ruleset=ruleset) if part.shields is not None else DieCode()
    if ruleset.damage_chart == "rc_multiples":
        in_use = through == "shields" and not ion and shields.dice > 0
    else:
        in_use = part.arc_of(firer.id) in part.shield_arcs and shields.dice > 0 and not ion
    resist = hull.pool_add(shields) if in_use else hull
    resist = resist.pool_add(scale.resist_bonus)
    res = roll(resist, ruleset=ruleset, rng=rng)
    dmg_total, res_total = _capped(dmg, scale.damage_cap), _capped(res, scale.resist_cap)
    try:
        result = craft_damage_result(
            dmg_total,
            res_total,
            ruleset=ruleset,
            shield_dice_left=shields.dice,
            shields_in_use=in_use,
            ion=ion,
        )
        before = part.damage
        tape = _Tape(rng)
        after = apply_damage(before, result, craft_stats(target), ruleset=ruleset, rng=tape)
    except RulesError as exc:
        raise EncounterError(str(exc)) from None
    ionized = after.controls_ionized > before.controls_ionized or after.dead_controls
    new_part = part.replace(
        damage=after, ionized_round=state.round if ionized else part.ionized_round
    )
    updated = target.replace(craft=new_part)
    if after.destroyed:
        updated = updated.replace(knocked_out=True, lost_actions=True)
    table = _table_text(before, after)
    numbers: Numbers = (
        ("damage_code", str(code)),
        ("damage_total", dmg_total),
        ("hull_code", str(resist)),
        ("hull_total", res_total),
        ("shields_in_use", in_use),
        ("result", result.level),
        ("craft_damage", after.damage),
        ("effect", table),
    )
    said = _LEVEL_WORDS.get(result.level, result.level.replace("_", " "))
    text = f"{target.name} takes {dmg_total} damage against hull {res_total}: {said}"
    if after.damage != before.damage and after.damage != result.level:
        text += f", now {_LEVEL_WORDS[after.damage]}"
    if table:
        text += f" ({table})"
    state = state.with_combatant(updated)
    rolled = (("damage", dmg), ("hull", res), *tape.rolls("damage table"))
    events = [Event("craft_damage", target.id, text, numbers, rolled)]
    if after.destroyed and not before.destroyed:
        state, hurt = _crew_hurt(state, updated, ruleset=ruleset, rng=rng)
        events += hurt
    return state, events


def _tractor(
    state: EncounterState,
    craft_c: Combatant,
    target: Combatant,
    gun_index: int,
    *,
    scale: object,
    ruleset: RuleSet,
    rng: DiceSource,
) -> tuple[EncounterState, list[Event]]:
    """[UPG §10.1] A tractor beam that hits: its strength against the target's hull. Hull
    higher: the target breaks free; otherwise by the margin it is reeled in and loses Moves
    (V22, V23, V27; lost Moves as damage, §5.2)."""
    part, hit_part = craft_c.craft, target.craft
    assert part is not None and hit_part is not None
    beam_code = part.code("damage", ruleset=ruleset, gun=gun_index)
    beam = roll(beam_code, ruleset=ruleset, rng=rng)
    hull_code = hit_part.code("hull", ruleset=ruleset)
    hull = roll(hull_code, ruleset=ruleset, rng=rng)
    result = tractor_beam(beam.total, hull.total)
    before = hit_part.damage
    after = before
    if result.moves_lost:
        effect = DamageEffect(0, "tractor beam", moves=result.moves_lost)
        after = apply_damage_effect(before, effect, craft_stats(target), ruleset=ruleset)
    updated = target.replace(craft=hit_part.replace(damage=after))
    if after.destroyed:
        updated = updated.replace(knocked_out=True, lost_actions=True)
    if result.broke_free:
        said = "breaks free"
    elif result.units_reeled:
        said = f"is reeled in {result.units_reeled} space unit{'s' * (result.units_reeled > 1)}"
        said += f", -{result.moves_lost} Move"
    else:
        said = "is held: no change"
    numbers: Numbers = (
        ("beam_code", str(beam_code)),
        ("beam_total", beam.total),
        ("hull_code", str(hull_code)),
        ("hull_total", hull.total),
        ("broke_free", result.broke_free),
        ("units_reeled", result.units_reeled),
        ("moves_lost", result.moves_lost),
        ("craft_damage", after.damage),
    )
    text = f"{part.guns[gun_index].name} on {target.name}: {beam.total} against hull {hull.total}"
    event = Event(
        "tractor",
        target.id,
        f"{text}; {target.name} {said}",
        numbers,
        (("beam", beam), ("hull", hull)),
    )
    return state.with_combatant(updated), [event]


def _table_text(before: object, after: object) -> str:
    """What the 1D table did, in the sheet's words."""
    from rules.craft import CraftState

    assert isinstance(before, CraftState) and isinstance(after, CraftState)
    said: list[str] = []
    if after.maneuverability_lost > before.maneuverability_lost:
        said.append(f"-{after.maneuverability_lost - before.maneuverability_lost}D maneuverability")
    if after.shield_dice_lost > before.shield_dice_lost:
        said.append(f"-{after.shield_dice_lost - before.shield_dice_lost}D shields")
    if after.moves_lost > before.moves_lost:
        said.append(f"-{after.moves_lost - before.moves_lost} Move")
    if after.controls_ionized > before.controls_ionized:
        said.append(f"controls ionized -{after.controls_ionized - before.controls_ionized}D")
    if after.dead_controls and not before.dead_controls:
        said.append("dead controls")
    if after.hyperdrive != before.hyperdrive:
        said.append(f"hyperdrive {after.hyperdrive.replace('_', ' ')}")
    said += [_WEAPON_WORDS.get(w, w) for w in after.weapon_damage[len(before.weapon_damage) :]]
    said += list(after.events[len(before.events) :])
    return "; ".join(said)


def _crew_hurt(
    state: EncounterState, wreck: Combatant, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """Everyone aboard a destroyed craft takes a collision's character damage at cruising
    speed (our reading: the sources do not say what the crew takes)."""
    from rules.encounter.resolve import _damage

    part = wreck.craft
    assert part is not None
    try:
        speed: str | int = 2 if ruleset.collision_table == "rc" else "cruising"
        hurt = collision_damage(speed, ruleset=ruleset, mover="character")
    except RulesError:
        hurt = DieCode(2)
    crash = Combatant(
        id=f"{wreck.id}-wreck",
        name=f"the wreck of {wreck.name}",
        side=wreck.side,
        perception=DieCode(),
        dexterity=DieCode(),
        strength=DieCode(),
        weapon=Weapon("crash", str(hurt), "crash", "ranged", energy=False),
    )
    events: list[Event] = []
    for who in dict.fromkeys(who for _, who in part.crew):
        victim = state.combatant(who)
        if victim.out_of_fight:
            continue
        p = PendingAttack(crash.id, victim.id, "crash", "ranged", 0)
        state, new = _damage(
            state, p, crash, victim, shot_bonus=None, ruleset=ruleset, rng=rng, damage_cp=0
        )
        events += new
    return state, events
