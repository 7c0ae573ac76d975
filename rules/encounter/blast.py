"""Grenades and other explosives in the fight (combat.md §4.8, §9.10; CA-24), in two steps
because the encounter has no map:

1. :class:`~rules.encounter.Throw`: the thrower spends an action and rolls his grenade skill
   (the round's penalties, Character Points) against the GM's difficulty for the spot. A hit
   lands on the spot. A miss lands elsewhere: with [RC] scatter (``grenade_scatter = "rc"``)
   the engine rolls how far, 1D metres at short (and point-blank) range, 2D at medium, 3D at
   long (CB-46); the direction is the GM's (the 1D hex diagram of CA-24 is not in the
   sources). Without it the GM says where it lands. The ``throw`` event says so and counts
   ``grenades_used`` for the app to take off the gear.
2. :class:`~rules.encounter.Detonate`: the GM names who is caught and how far each stands from
   where it went off. Each victim takes the damage of the first band that reaches him
   (:func:`rules.combat.blast_damage`) against his own Strength roll (armour, scale; no
   penalties), one ``damage`` event each with its own dice, its ``distance_m`` and ``band``
   (1 = the centre); the wound, stun and round effects are those of any hit. [HOUSE] a Wild
   Die 6 on a damage roll may be a critical injury.

Nothing else happens while the explosive is in the air: actions and the end of the round
wait for the detonation. No reaction answers a throw at a spot (dodging a grenade is in
neither the sources nor the digest); Character Points are not spent on blast damage."""

from __future__ import annotations

from dataclasses import replace

from rules.combat import blast_damage, grenade_scatter_dice, range_difficulty, roll_grenade_scatter
from rules.dice import DiceSource, DieCode
from rules.encounter._turns import spend
from rules.encounter.blasts import Detonate, PendingBlast, Throw, parse_blast
from rules.encounter.events import Event, Scalar, plain_roll
from rules.encounter.points import FORCE_POINT_SAID, spend_points
from rules.encounter.resolve import _damage, _need_cap, penalty_dice, roll_for
from rules.encounter.state import (
    Combatant,
    EncounterError,
    EncounterState,
    PendingAttack,
    Weapon,
)
from rules.ruleset import RuleSet
from rules.scale import scale_adjustment

__all__ = ["detonate", "throw"]


class _Tape:
    """A dice source that keeps the faces it hands out (the scatter helper returns a total)."""

    def __init__(self, rng: DiceSource) -> None:
        self.rng = rng
        self.faces: list[int] = []

    def d6(self) -> int:
        face = self.rng.d6()
        self.faces.append(face)
        return face


def throw(
    state: EncounterState, cmd: Throw, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """The throw: the action spent, the roll, where it lands (hit or scatter); the explosive
    then waits for :func:`detonate`. Every refusal comes before the first die."""
    if state.blast is not None:
        raise EncounterError(f"the {state.blast.name} already thrown goes off first: detonate it")
    thrower = spend(state, cmd.thrower, ruleset=ruleset)
    band = cmd.range_band
    scatter_dice = 0
    if band is not None:
        level = range_difficulty(band, ruleset=ruleset)
        scatter_dice = grenade_scatter_dice(band, ruleset=ruleset)
    elif ruleset.grenade_scatter != "none":
        raise EncounterError(
            "say the range band of the throw: a miss scatters 1D metres at short range, 2D at "
            "medium and 3D at long"
        )
    if cmd.difficulty is None:
        hint = f": {band} range is {level.level} ({level.low}–{level.high})" if band else ""
        raise EncounterError("the GM sets the difficulty number" + hint)
    thrower = spend_points(
        thrower,
        roll="attack",
        cp_dice=cmd.cp_dice,
        force_point=cmd.force_point,
        now_round=state.round,
        ruleset=ruleset,
    )
    bands = parse_blast(cmd.radius, cmd.damage)
    code = thrower.code(cmd.skill)
    penalty = penalty_dice(thrower, now_round=state.round, ruleset=ruleset)
    total, rolls, _ = roll_for(
        thrower,
        code,
        "throw",
        penalty=penalty,
        now_round=state.round,
        cp_dice=cmd.cp_dice,
        ruleset=ruleset,
        rng=rng,
    )
    hit = total >= cmd.difficulty
    scatter: int | None = None
    if not hit and scatter_dice and band is not None:
        tape = _Tape(rng)
        scatter = roll_grenade_scatter(band, ruleset=ruleset, rng=tape)
        rolls += (("scatter", plain_roll(tape.faces)),)
    pending = PendingBlast(thrower.id, cmd.name, bands, cmd.energy, hit, scatter)
    numbers: tuple[tuple[str, Scalar], ...] = (
        ("name", cmd.name),
        ("skill", cmd.skill),
        ("code", str(code)),
        ("penalty_dice", penalty),
        ("difficulty", cmd.difficulty),
        ("total", total),
        ("hit", hit),
        ("range_band", band),
        ("scatter_m", scatter),
        ("radius", pending.radius),
        ("damage", pending.damage),
        ("grenades_used", 1),
        ("actions_left", thrower.actions.remaining if thrower.actions else 0),
    )
    if hit:
        where = "it lands where aimed"
    elif scatter is not None:
        where = f"it scatters {scatter} m (the GM picks the direction)"
    else:
        where = "it lands where the GM says"
    text = (
        f"{thrower.name} throws a {cmd.name}: {total} against {cmd.difficulty}, "
        f"{'a hit' if hit else 'a miss'}; {where}" + (FORCE_POINT_SAID if cmd.force_point else "")
    )
    new = state.with_combatant(thrower).replace(blast=pending)
    return new, [Event("throw", thrower.id, text, numbers, rolls)]


def _stand_in(blast: PendingBlast) -> Combatant:
    """The thrower when he has left the fight before it went off: his explosive still does
    its damage (at character scale)."""
    no = DieCode()
    return Combatant(
        id=blast.thrower, name=blast.name, side="-", perception=no, dexterity=no, strength=no
    )


def detonate(
    state: EncounterState, cmd: Detonate, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """The blast: every victim's damage against his Strength, in the order named. Every
    refusal comes before the first die."""
    blast = state.blast
    if blast is None:
        raise EncounterError("nothing has been thrown to go off: throw an explosive first")
    present = {c.id: c for c in state.combatants}
    thrower = present.get(blast.thrower) or _stand_in(blast)
    outer = blast.bands[-1][0]
    victims: list[tuple[Combatant, int, int, DieCode]] = []
    for cid, metres in cmd.victims:
        victim = state.combatant(cid)
        code = blast_damage(metres, blast.bands)
        if code is None:
            raise EncounterError(
                f"{victim.name} at {metres} m is outside the {blast.name}'s blast ({outer} m)"
            )
        band = next(i for i, (radius, _) in enumerate(blast.bands, 1) if metres <= radius)
        scale = scale_adjustment(thrower.scale, victim.scale, ruleset=ruleset)
        for cap in (scale.damage_cap, scale.resist_cap):
            _need_cap(cap, f"a {blast.name} against {victim.name}")
        victims.append((victim, metres, band, code))
    events = [
        Event(
            "blast",
            thrower.id,
            f"The {blast.name} goes off: {len(victims)} caught",
            (("name", blast.name), ("victims", ",".join(v.id for v, *_ in victims))),
        )
    ]
    for victim, metres, band, code in victims:
        weapon = Weapon(blast.name, str(code), "grenade", "ranged", energy=blast.energy)
        shot = PendingAttack(thrower.id, victim.id, "grenade", "ranged", 0)
        target = state.combatant(victim.id)  # as the earlier victims' damage left him
        state, hit_events = _damage(
            state,
            shot,
            thrower.replace(weapon=weapon),
            target,
            shot_bonus=None,
            ruleset=ruleset,
            rng=rng,
            damage_cp=0,
            critical=cmd.critical,
        )
        damage, *rest = hit_events
        where = (("distance_m", metres), ("band", band))
        events += [replace(damage, numbers=(*where, *damage.numbers)), *rest]
    return state.replace(blast=None), events
