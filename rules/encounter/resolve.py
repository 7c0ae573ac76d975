"""Rolling inside an encounter: a combatant's skill roll with the round's penalties (the
multiple-action penalty, wounds, stuns; the [WIKI] ``subtract_pool`` convention as an option),
the reaction roll, and :func:`resolve_attack`, the one call that takes an announced attack to
its end (standing reaction or difficulty, hit, damage against Strength with armour and scale,
wound or stun, prone and lost actions)."""

from __future__ import annotations

from rules.combat import (
    called_shot,
    damage_code,
    damage_result,
    is_hit,
    reacted_difficulty,
    reaction_skills,
    resistance_code,
    situational_modifier,
)
from rules.dice import DiceError, DiceSource, DieCode, Roll, roll, rollable_pool
from rules.difficulty import add_to_difficulty
from rules.encounter.auto import blaze, fire_modifiers, fired_shot
from rules.encounter.events import Event, Scalar, plain_roll
from rules.encounter.house import critical_offer, resist_penalty_dice, roll_critical
from rules.encounter.points import force_point_active, spend_points, strength
from rules.encounter.state import Combatant, EncounterError, EncounterState, PendingAttack
from rules.errors import RulesError
from rules.injuries import (
    WoundLevel,
    injury_penalty_dice,
    stun_state,
    take_result,
    wound_effects,
)
from rules.ruleset import RuleSet
from rules.scale import apply_die_cap, scale_adjustment

__all__ = ["SkillRoll", "penalty_dice", "resolve_attack", "roll_for"]

SkillRoll = tuple[int, tuple[tuple[str, Roll], ...], int]
"""(total, the named rolls in drawing order, the penalty dice taken off)."""


def penalty_dice(c: Combatant, *, now_round: int, ruleset: RuleSet) -> int:
    """Dice off a combatant's skill and attribute rolls now: the multiple-action penalty of
    the actions he has so far (declared plus extra), wound and stun dice (§11.1). Not for
    damage or Strength against damage."""
    actions = c.actions.penalty_dice(ruleset=ruleset) if c.actions else 0
    return actions + injury_penalty_dice(c.wounds, now_round=now_round, ruleset=ruleset)


def roll_for(
    c: Combatant,
    code: DieCode,
    label: str,
    *,
    penalty: int,
    now_round: int,
    ruleset: RuleSet,
    rng: DiceSource,
    cp_dice: int = 0,
    force_point: bool = False,
    bonus: DieCode | None = None,
    cap: int | None = None,
) -> SkillRoll:
    """Roll ``code`` for ``c`` less ``penalty`` dice in round ``now_round``. ``remove_dice``
    (the engine's way): the dice come off the pool, and a pool under 1D is refused (A5).
    ``subtract_pool`` ([WIKI] replays): the full code is rolled, then the penalty dice, and the
    second total is subtracted. ``cap`` is an [RC] scale die cap. The code is doubled when he
    spent a Force Point this round (whichever step spent it, :mod:`rules.encounter.points`) or
    ``force_point`` says so (an attack stored before the round was kept)."""
    force_point = force_point or force_point_active(c, now_round)
    try:
        if ruleset.wiki_penalty_convention == "subtract_pool":
            check = roll(
                code,
                cp_dice=cp_dice,
                force_point=force_point,
                bonus=bonus,
                ruleset=ruleset,
                rng=rng,
            )
            rolls: tuple[tuple[str, Roll], ...] = ((label, check),)
            total = _capped(check, cap)
            if penalty:
                pen = roll(DieCode(penalty), wild_die=False, ruleset=ruleset, rng=rng)
                rolls += ((f"{label} penalty", pen),)
                total = max(0, total - pen.total)
            return total, rolls, penalty
        rollable_pool(
            code, penalty_dice=penalty, force_point=force_point, bonus=bonus, ruleset=ruleset
        )
        result = roll(
            code,
            penalty_dice=penalty,
            cp_dice=cp_dice,
            force_point=force_point,
            bonus=bonus,
            ruleset=ruleset,
            rng=rng,
        )
    except DiceError as exc:
        raise EncounterError(f"{c.name}'s {label} roll: {exc}") from None
    return _capped(result, cap), ((label, result),), penalty


def _attack_bonus(scale_bonus: DieCode, p: PendingAttack) -> DieCode:
    """What the attack roll adds: the lower scale's dice, the combined-fire share, aiming."""
    return scale_bonus.pool_add(p.attack_bonus).pool_add(p.aim_bonus(p.attacker))


def _capped(result: Roll, cap: int | None) -> int:
    return result.total if cap is None or cap >= 6 else apply_die_cap(result, cap)


def _need_cap(cap: int | None, what: str) -> int | None:
    if cap is None:
        raise EncounterError(f"at these scales {what} is not possible ([RC] chart '—')")
    return cap


def _standing_reaction(
    target: Combatant, attacker: Combatant, pending: PendingAttack, *, ruleset: RuleSet
) -> tuple[str | None, int, bool, int]:
    armed = attacker.weapon is not None and attacker.weapon.kind != "brawling"
    for skill in reaction_skills(pending.kind, armed=armed, ruleset=ruleset):
        found = target.reaction(skill)
        if found is not None:
            return skill, found.total, found.full, found.haste
    return None, 0, False, 0


def resolve_attack(
    state: EncounterState,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
    damage_cp: int = 0,
    critical: bool = False,
) -> tuple[EncounterState, list[Event]]:
    """Resolve the announced attack (``state.pending``) end to end (§11.3 steps 5–11): the
    standing reaction that covers it replaces (2E), adds to ([2E-STD] full reaction) or raises
    ([RC]) the base difficulty; situational and called-shot modifiers follow (CA-6); the
    attack roll takes the attacker's current penalties; a hit rolls damage (no penalty, the
    Wild Die per ``wild_die_on_damage``, the higher scale's modifier) against Strength plus
    armour (no penalty, CA-11), reads the campaign's damage chart and applies the result:
    stun, or a wound with its round effects (prone, remaining actions lost). Group fire: the
    lead's attack, then each other attacker's with his own weapon, skill and penalties, each
    against the target as the earlier shots left him (``damage_cp`` is the lead's). [HOUSE]
    ``critical``: a Wild Die 6 on a damage roll is taken as a critical injury
    (:mod:`rules.encounter.house`)."""
    p = state.pending
    if p is None:
        raise EncounterError("no attack has been announced to resolve")
    shots = [p, *(_follow(p, state.combatant(o)) for o in p.others)]
    try:
        # Refusals come before any die is drawn, so a refused step uses no dice.
        lead = spend_points(
            state.combatant(p.attacker),
            roll="damage",
            cp_dice=damage_cp,
            force_point=False,
            now_round=state.round,
            ruleset=ruleset,
        )
        for shot in shots:
            _check(state, shot, ruleset=ruleset)
        state = state.with_combatant(lead)
        events: list[Event] = []
        for shot in shots:
            attacker, target = state.combatant(shot.attacker), state.combatant(shot.target)
            if shot.gun is not None or target.craft is not None:
                from rules.encounter.craft_combat import resolve_craft_attack

                state, new = resolve_craft_attack(
                    state,
                    shot,
                    attacker,
                    target,
                    ruleset=ruleset,
                    rng=rng,
                    damage_cp=damage_cp if shot is p else 0,
                )
                events.extend(new)
                continue
            state, new = _resolve(
                state,
                shot,
                attacker,
                target,
                ruleset=ruleset,
                rng=rng,
                damage_cp=damage_cp if shot is p else 0,
                critical=critical,
            )
            events.extend(new)
    except EncounterError:
        raise
    except RulesError as exc:
        raise EncounterError(str(exc)) from None
    return state.replace(pending=None), events


def _follow(p: PendingAttack, other: Combatant) -> PendingAttack:
    """Another attacker's shot in group fire: the same target, difficulty and conditions, his
    own weapon and skill, no Character Points."""
    weapon = other.weapon
    return PendingAttack(
        other.id,
        p.target,
        weapon.skill if weapon else "brawling",
        weapon.kind if weapon else "brawling",
        p.base,
        p.conditions,
        p.called_shot_cm,
        range_band=p.range_band,
        aimed=p.aimed,
    )


def _check(state: EncounterState, p: PendingAttack, *, ruleset: RuleSet) -> None:
    attacker, target = state.combatant(p.attacker), state.combatant(p.target)
    if p.gun is not None or target.craft is not None:
        return  # a craft's codes are checked as it rolls (rules.encounter.craft_combat)
    scale = scale_adjustment(attacker.scale, target.scale, ruleset=ruleset)
    for cap in (scale.to_hit_cap, scale.damage_cap, scale.resist_cap):
        _need_cap(cap, "this attack")
    if ruleset.wiki_penalty_convention == "remove_dice":
        try:
            rollable_pool(
                attacker.code(p.skill),
                penalty_dice=penalty_dice(attacker, now_round=state.round, ruleset=ruleset),
                force_point=p.force_point or force_point_active(attacker, state.round),
                bonus=_attack_bonus(scale.attack_bonus, p) or None,
                ruleset=ruleset,
            )
        except DiceError as exc:
            raise EncounterError(f"{attacker.name}'s attack roll: {exc}") from None


def _resolve(
    state: EncounterState,
    p: PendingAttack,
    attacker: Combatant,
    target: Combatant,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
    damage_cp: int,
    critical: bool = False,
) -> tuple[EncounterState, list[Event]]:
    scale = scale_adjustment(attacker.scale, target.scale, ruleset=ruleset)
    reaction, reaction_total, full, haste = _standing_reaction(target, attacker, p, ruleset=ruleset)
    difficulty = reacted_difficulty(
        p.base,
        reaction_total if reaction else None,
        ruleset=ruleset,
        full=full,
        reaction_haste=haste,
        attack_haste=attacker.haste,
    )
    rolls: list[tuple[str, Roll]] = []
    modifiers = [situational_modifier(c, ruleset=ruleset) for c in p.conditions]
    if target.prone and ruleset.prone_to_hit_modifier and "prone" not in p.conditions:
        modifiers.append(situational_modifier("prone", ruleset=ruleset))
    shot = called_shot(p.called_shot_cm, ruleset=ruleset) if p.called_shot_cm else None
    if shot is not None:
        modifiers.append(shot.difficulty)
    modifiers += fire_modifiers(state, p, attacker, target, ruleset=ruleset)
    for mod in modifiers:
        added = add_to_difficulty(difficulty, mod, ruleset=ruleset, rng=rng)
        if added.dice:
            rolls.append(("difficulty dice", plain_roll(added.dice)))
        difficulty = added.number
    code = attacker.code(p.skill)
    penalty = penalty_dice(attacker, now_round=state.round, ruleset=ruleset)
    total, attack_rolls, _ = roll_for(
        attacker,
        code,
        "attack",
        penalty=penalty,
        now_round=state.round,
        cp_dice=p.cp_dice,
        force_point=p.force_point,
        bonus=_attack_bonus(scale.attack_bonus, p) or None,
        cap=scale.to_hit_cap,
        ruleset=ruleset,
        rng=rng,
    )
    rolls.extend(attack_rolls)
    hit = is_hit(total, difficulty)
    state, p, hit, fired = fired_shot(
        state, p, attacker, target, total, difficulty, hit, ruleset=ruleset
    )
    numbers: list[tuple[str, Scalar]] = [
        ("base_difficulty", p.base),
        ("reaction", reaction_total if reaction else None),
        ("difficulty", difficulty),
        ("attack_code", str(code)),
        ("penalty_dice", penalty),
        ("attack_total", total),
        ("hit", hit),
        ("aim_bonus", p.aim_bonus(p.attacker).signed() if p.attacker in p.aimed else None),
    ]
    if p.supporters:
        numbers += [
            ("combining", 1 + len(p.supporters)),
            ("supporters", ",".join(p.supporters)),
            ("combined_bonus", str(p.combined_bonus)),
            ("attack_bonus", str(p.attack_bonus)),
            ("damage_bonus", str(p.damage_bonus)),
        ]
    numbers += fired
    verdict = "hits" if hit else "misses"
    events = [
        Event(
            "attack",
            attacker.id,
            f"{attacker.name} rolls {total} against {difficulty} and {verdict} {target.name}",
            tuple(numbers),
            tuple(rolls),
        )
    ]
    state = state.replace(pending=None)
    state, blazed = blaze(
        state,
        p,
        attacker,
        attack_rolls,
        hit_with=_damage,
        critical=critical,
        ruleset=ruleset,
        rng=rng,
    )
    events += blazed
    if not hit:
        return state, events
    damage_state, damage_events = _damage(
        state,
        p,
        attacker,
        target,
        shot_bonus=shot.damage_bonus if shot else None,
        ruleset=ruleset,
        rng=rng,
        damage_cp=damage_cp,
        critical=critical,
    )
    return damage_state, [*events, *damage_events]


def _damage(
    state: EncounterState,
    p: PendingAttack,
    attacker: Combatant,
    target: Combatant,
    *,
    shot_bonus: DieCode | None,
    ruleset: RuleSet,
    rng: DiceSource,
    damage_cp: int,
    critical: bool = False,
) -> tuple[EncounterState, list[Event]]:
    scale = scale_adjustment(attacker.scale, target.scale, ruleset=ruleset)
    weapon = attacker.weapon
    bonuses = [b for b in (scale.damage_bonus, shot_bonus, p.damage_bonus) if b]
    code = damage_code(
        weapon.damage if weapon else "STR",
        strength=strength(attacker, state.round),
        bonuses=bonuses,
    )
    wild = ruleset.wild_die and ruleset.wild_die_on_damage
    offer = critical_offer(critical)
    dmg = roll(code, cp_dice=damage_cp, wild_die=wild, offer_crit=offer, ruleset=ruleset, rng=rng)
    energy = weapon.energy if weapon else False
    resist_code = resistance_code(
        strength(target, state.round),
        target.armour,
        attack="energy" if energy else "physical",
        scale_bonus=scale.resist_bonus or None,
        penalty_dice=resist_penalty_dice(target),
    )
    res = roll(resist_code, ruleset=ruleset, rng=rng)
    dmg_total = _capped(dmg, scale.damage_cap)
    res_total = _capped(res, scale.resist_cap)
    result = damage_result(
        dmg_total,
        res_total,
        stun_weapon=bool(weapon and weapon.stun),
        range_band=p.range_band if p.range_band else None,
        ruleset=ruleset,
    )
    before = target.wounds.level
    wounds = take_result(
        target.wounds,
        result.level,
        now_round=state.round,
        stun_points=max(1, result.stun_points),
        ruleset=ruleset,
    )
    updated = target.replace(wounds=wounds)
    if result.level is WoundLevel.stunned:
        stuns = stun_state(
            wounds.stuns,
            state.round,
            strength=target.strength,
            dexterity=target.dexterity,
            rested_through=wounds.rested_through,
            ruleset=ruleset,
        )
        if stuns.knocked_out:
            updated = updated.replace(knocked_out=True, prone=True, lost_actions=True)
    if result.unconscious_for is not None:
        updated = updated.replace(knocked_out=True, prone=True, lost_actions=True)
    if wounds.level.rank > before.rank:
        effects = wound_effects(wounds.level, ruleset=ruleset)
        if effects.falls_prone:
            updated = updated.replace(prone=True)
        if effects.loses_rest_of_round or not effects.can_act:
            actions = updated.actions.lose_remaining() if updated.actions else None
            updated = updated.replace(lost_actions=True, actions=actions)
        if effects.loses_next_round:
            updated = updated.replace(lose_next_round=True)
        if wounds.level is WoundLevel.mortally_wounded:  # newly dying: not stabilised
            updated = updated.replace(mortal_rounds=0, stabilised=False)
    numbers: tuple[tuple[str, Scalar], ...] = (
        ("damage_code", str(code)),
        ("damage_total", dmg_total),
        ("strength_code", str(resist_code)),
        ("strength_total", res_total),
        ("margin", result.margin),
        ("result", result.level.value),
        ("stun_points", result.stun_points),
        ("unconscious_for", str(result.unconscious_for) if result.unconscious_for else None),
        ("needs_gm", result.needs_gm),
        ("wound_level", wounds.level.value),
        ("prone", updated.prone),
    )
    text = (
        f"{target.name} takes {dmg_total} damage against Strength {res_total}: "
        f"{_outcome(result.level, before, target, updated)}"
    )
    if result.unconscious_for is not None:
        text += f", unconscious for {result.unconscious_for}"
    event = Event("damage", target.id, text, numbers, (("damage", dmg), ("strength", res)))
    updated, critical_events = roll_critical(
        dmg,
        result,
        updated,
        attacker=attacker,
        stun_weapon=bool(weapon and weapon.stun),
        now_round=state.round,
        rng=rng,
    )
    return state.with_combatant(updated), [event, *critical_events]


def _outcome(result: WoundLevel, before: WoundLevel, target: Combatant, after: Combatant) -> str:
    """What the hit did, in the log's words: "no effect", "stunned", the new level ("now
    Wounded") or the result and the level it led to ("Wounded, now Wounded twice"), or that
    it changed nothing ("Wounded, no change")."""
    knocked = ", knocked out" if after.knocked_out and not target.knocked_out else ""
    if result is WoundLevel.none:
        return "no effect"
    if result is WoundLevel.stunned:
        added = len(after.wounds.stuns) > len(target.wounds.stuns)
        return ("stunned" if added else "stunned, no change") + knocked
    now = after.wounds.level
    if now is before:
        return f"{result.label}, no change{knocked}"
    if now is result:
        return f"now {now.label}{knocked}"
    return f"{result.label}, now {now.label}{knocked}"
