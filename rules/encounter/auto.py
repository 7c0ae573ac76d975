"""[HOUSE §13] automatic fire and [HOUSE §16] suppression fire in the fight (combat.md §4.9,
§4.10, §11.3 step 5; dice-and-core.md §8.3; CA-16, CA-17; CB-24, CB-26), with the campaign's
``auto_fire = "house"`` and ``suppression_fire``.

Automatic fire is a fire mode of :class:`~rules.encounter.Attack` with a weapon that has a
``burst`` (the shots of a full-auto burst, entered by the GM: the sources give none, CA-16):

* ``burst`` (a short burst) is treated like any other shot; ``full_auto`` (a long burst) is
  concentrated on the target: one roll, and all the shots hit on a success, three fewer per
  point missed (CA-16, A7); each shot that hits adds a pip of damage. Zero shots is a miss.
* Fired with plain blaster (or any skill but the auto specializations) the difficulty is +2
  for both; the specializations (s)Blaster: Auto Pistol, Auto Carbine, Auto Rifle avoid it
  and cannot fire single shots.
* Each full-auto burst is one action (CA-16); a shooter fires full auto at most twice a
  round, takes -1D more on every roll for the rest of the round from his first burst (the
  ``full_auto`` of his actions), makes no other attack that round and at most one reaction.
  Switching fire modes is an action the GM takes with :class:`~rules.encounter.Act`.
* The ``attack`` event carries ``fire_mode``, ``shots`` (the ammunition spent: 1 for a single
  ranged shot, 0 in melee) and, in full auto, ``hits`` and ``hit_bonus``.

Suppression fire is the step :class:`~rules.encounter.Suppress`
(:mod:`rules.encounter.suppression`): only a combatant of the side
acting first this round (CA-17), each suppressive shot one of his declared actions, rolled
against the GM's Difficult number. Each success adds +1 to the difficulty of an opponent's
attack on the suppressing side in the same pass (his attack is the same numbered action of
his round as the suppression, CA-17's "action phase"). An opponent who fumbles that attack
(a 1 on the Wild Die, CA-17) is hit by the blaze of fire: the highest suppressive to-hit total
of that pass not used yet, the damage of that shooter's weapon against his Strength; fumbles
beyond the suppressive shots are ordinary fumbles. Suppressions end with the round."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rules.combat import (
    auto_fire_difficulty_modifier,
    concentrated_fire_hits,
    full_auto_may_react,
    suppression_fumble_hits,
)
from rules.dice import DiceSource, DieCode, Roll
from rules.encounter.events import Event, Scalar
from rules.encounter.firing import Suppression
from rules.encounter.state import Combatant, EncounterError, EncounterState, PendingAttack
from rules.ruleset import RuleSet

__all__ = [
    "AUTO_SKILLS",
    "SHOOTING",
    "announce_fire",
    "blaze",
    "check_fire",
    "check_full_auto_reaction",
    "fire_modifiers",
    "fired_shot",
    "shots_of",
]

AUTO_SKILLS = ("auto pistol", "auto carbine", "auto rifle")
"""The [HOUSE §13] (s)Blaster specializations for burst and full-auto fire."""
SHOOTING = ("ranged", "vehicle", "starship")
"""Attack kinds that fire ammunition."""
Fire = tuple[str, int]
"""(fire mode, shots) of an announced attack."""
HitWith = Callable[..., tuple[EncounterState, list[Event]]]


def _auto_skill(skill: str) -> bool:
    return any(name in skill.lower() for name in AUTO_SKILLS)


def shots_of(kind: str) -> int:
    """The shots of a single attack: one for a weapon that fires, none in melee."""
    return 1 if kind in SHOOTING else 0


# --- announcing an attack ----------------------------------------------------------------------
def check_fire(
    state: EncounterState,
    attacker: Combatant,
    group: tuple[str, ...],
    *,
    mode: str,
    shots: int | None,
    skill: str,
    ruleset: RuleSet,
) -> Fire:
    """The refusals of an attack's fire mode (before any die), and its (mode, shots).
    ``group``: the others firing or combining with him."""
    name = attacker.name
    bursts = state.fire.bursts_of(attacker.id)
    kind = attacker.weapon.kind if attacker.weapon else "brawling"
    if mode != "full_auto" and bursts:
        raise EncounterError(f"{name} fires full auto this round: no other attacks (§4.9)")
    for cid in group:
        if state.fire.bursts_of(cid):
            other = state.combatant(cid).name
            raise EncounterError(f"{other} fires full auto this round: no other attacks (§4.9)")
    if mode == "single":
        if _auto_skill(skill):
            raise EncounterError(
                f"{skill} fires bursts and full auto only: a single shot uses plain blaster"
            )
        if shots not in (None, 1):
            raise EncounterError("a single shot is one shot; choose burst or full auto")
        return mode, shots_of(kind)
    auto_fire_difficulty_modifier(auto_specialization=False, ruleset=ruleset)  # the option
    if group:
        raise EncounterError("a burst is one shooter's: fire it without others or supporters")
    weapon = attacker.weapon
    if weapon is None or not weapon.burst:
        raise EncounterError(f"{name}'s weapon cannot fire bursts or full auto (no burst size)")
    shots = weapon.burst if shots is None else shots
    if not 1 <= shots <= weapon.burst:
        raise EncounterError(f"the {weapon.name} fires 1 to {weapon.burst} shots in a burst")
    if mode == "full_auto":
        if bursts >= 2:
            raise EncounterError(f"{name} has fired full auto twice this round (§4.9)")
        if attacker.id in state.fire.other_attacks:
            raise EncounterError(
                f"{name} has made another attack this round: full auto allows no other (§4.9)"
            )
        if len(attacker.reactions) > 1:
            raise EncounterError(f"{name} has reacted twice: full auto allows one reaction")
    return mode, shots


def announce_fire(
    state: EncounterState, attacker: str, others: tuple[str, ...], fire: Fire
) -> EncounterState:
    """The state once the attack is announced: its fire mode kept for the roll; a full-auto
    burst counted, with the -1D of full auto on his actions for the rest of the round."""
    mode, shots = fire
    record = state.fire
    if mode == "full_auto":
        bursts = dict(record.bursts)
        bursts[attacker] = bursts.get(attacker, 0) + 1
        record = replace(record, bursts=tuple(bursts.items()))
        c = state.combatant(attacker)
        if c.actions is not None and not c.actions.full_auto:
            state = state.with_combatant(c.replace(actions=replace(c.actions, full_auto=True)))
    else:
        shooters = tuple(x for x in (attacker, *others) if x not in record.other_attacks)
        record = replace(record, other_attacks=(*record.other_attacks, *shooters))
    return state.replace(fire=replace(record, mode=mode, shots=shots))


# --- rolling it -------------------------------------------------------------------------------
def _affecting(state: EncounterState, attacker: Combatant, target: Combatant) -> list[Suppression]:
    """The suppressions an attack runs into: laid on the target's side by an opponent of the
    attacker, in the pass this attack is made in."""
    if attacker.actions is None:
        return []
    return [
        s
        for s in state.fire.suppression
        if s.side == target.side != attacker.side and s.phase == attacker.actions.used
    ]


def fire_modifiers(
    state: EncounterState,
    p: PendingAttack,
    attacker: Combatant,
    target: Combatant,
    *,
    ruleset: RuleSet,
) -> list[DieCode]:
    """Difficulty modifiers (§11.3 step 5): +2 for a burst or full auto without an auto
    specialization; +1 per successful suppressive shot against this return fire."""
    out = []
    if state.fire.mode != "single":
        out.append(
            auto_fire_difficulty_modifier(auto_specialization=_auto_skill(p.skill), ruleset=ruleset)
        )
    out.append(sum(s.successes for s in _affecting(state, attacker, target)))
    return [DieCode(0, m) for m in out if m]


def fired_shot(
    state: EncounterState,
    p: PendingAttack,
    attacker: Combatant,
    target: Combatant,
    total: int,
    difficulty: int,
    hit: bool,
    *,
    ruleset: RuleSet,
) -> tuple[EncounterState, PendingAttack, bool, list[tuple[str, Scalar]]]:
    """After the attack roll: the shots fired; in full auto how many hit (a miss when none
    does) and their damage pips. Returns the state (the fire mode spent), the attack (with the
    damage pips), whether it hits and the numbers for the attack event."""
    mode, shots = state.fire.mode, state.fire.shots
    if mode == "single":
        shots = shots_of(p.kind)
    numbers: list[tuple[str, Scalar]] = [("fire_mode", mode), ("shots", shots)]
    if mode == "full_auto":
        hits = concentrated_fire_hits(shots, total, difficulty, ruleset=ruleset)
        bonus = DieCode.from_pips(hits)
        hit = hits > 0
        p = replace(p, damage_bonus=p.damage_bonus.pool_add(bonus))
        numbers += [("hits", hits), ("hit_bonus", str(bonus))]
    suppression = sum(s.successes for s in _affecting(state, attacker, target))
    if suppression:
        numbers.append(("suppression", suppression))
    state = state.replace(fire=replace(state.fire, mode="single", shots=1))
    return state, p, hit, numbers


def blaze(
    state: EncounterState,
    p: PendingAttack,
    attacker: Combatant,
    rolls: tuple[tuple[str, Roll], ...],
    *,
    hit_with: HitWith,
    critical: bool,
    ruleset: RuleSet,
    rng: DiceSource,
) -> tuple[EncounterState, list[Event]]:
    """An opponent returning fire under suppression fumbled (a 1 on the Wild Die): the blaze
    of fire hits him, by the highest suppressive to-hit total of the pass not used yet, with
    that shooter's weapon (``hit_with`` rolls the damage: :func:`rules.encounter.resolve`'s).
    Nothing when he did not fumble or nobody suppresses him."""
    attack = dict(rolls).get("attack")
    target = state.combatant(p.target)
    affecting = _affecting(state, attacker, target)
    if attack is None or not attack.wild or attack.wild[0] != 1 or not affecting:
        return state, []
    ranked = sorted(((total, s) for s in affecting for total in s.rolls), key=lambda x: -x[0])
    fumbles = sum(s.fumbles for s in affecting)
    hits = suppression_fumble_hits([t for t, _ in ranked], fumbles + 1, ruleset=ruleset)
    shooter_id = ranked[fumbles][1].shooter if hits[-1] is not None else None
    shooter = next((c for c in state.combatants if c.id == shooter_id), None)
    if shooter is None or shooter.weapon is None:
        text = f"{attacker.name} fumbles: more fumbles than suppressive shots, an ordinary fumble"
        return state, [Event("blaze", attacker.id, text, (("blaze_hit", False),))]
    used = ranked[fumbles][1]
    kept = tuple(
        replace(s, fumbles=s.fumbles + 1) if s is used else s for s in state.fire.suppression
    )
    state = state.replace(fire=replace(state.fire, suppression=kept))
    weapon = shooter.weapon
    shot = PendingAttack(shooter.id, attacker.id, weapon.skill, weapon.kind, used.difficulty)
    numbers: tuple[tuple[str, Scalar], ...] = (
        ("blaze_hit", True),
        ("shooter", shooter.id),
        ("to_hit", ranked[fumbles][0]),
    )
    text = (
        f"{attacker.name} fumbles his return fire and is caught in {shooter.name}'s blaze of "
        f"fire (to-hit {ranked[fumbles][0]})"
    )
    state, damage = hit_with(
        state,
        shot,
        shooter,
        state.combatant(attacker.id),
        shot_bonus=None,
        ruleset=ruleset,
        rng=rng,
        damage_cp=0,
        critical=critical,
    )
    return state, [Event("blaze", shooter.id, text, numbers), *damage]


def check_full_auto_reaction(state: EncounterState, c: Combatant, *, ruleset: RuleSet) -> None:
    """A combatant firing full auto this round makes only one reaction."""
    if state.fire.bursts_of(c.id) and not full_auto_may_react(len(c.reactions), ruleset=ruleset):
        raise EncounterError(f"{c.name} fires full auto this round: only one reaction (§4.9)")
