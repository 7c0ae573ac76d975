"""[HOUSE §16] suppression fire (combat.md §4.10, CA-17, CB-26): the step
:class:`~rules.encounter.Suppress`. What a suppression does to the opponents' return fire in
the same pass, and the blaze of fire that hits one who fumbles it, is
:mod:`rules.encounter.auto`."""

from __future__ import annotations

from dataclasses import replace

from rules.combat import suppression_successes
from rules.dice import DiceSource, Roll
from rules.difficulty import DifficultyLevel, number_range
from rules.encounter._turns import spend
from rules.encounter.auto import SHOOTING
from rules.encounter.events import Event, Scalar
from rules.encounter.firing import Suppress, Suppression
from rules.encounter.resolve import penalty_dice, roll_for
from rules.encounter.state import EncounterError, EncounterState
from rules.ruleset import RuleSet

__all__ = ["suppress"]


def suppress(
    state: EncounterState, cmd: Suppress, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """The suppressive shots: each an action, each rolled against the GM's Difficult number.
    Every refusal comes before the first die."""
    if not ruleset.suppression_fire:
        suppression_successes((), 0, ruleset=ruleset)  # refuses: the option is off
    c = state.combatant(cmd.shooter)
    if state.side_order and state.side_order[0] != c.side:
        raise EncounterError(
            f"only the side acting first this round lays down suppression fire; side "
            f"{state.side_order[0]} acts first (§4.10)"
        )
    weapon = c.weapon
    if weapon is None or weapon.kind not in SHOOTING:
        raise EncounterError(f"{c.name} has no ranged weapon to suppress with")
    if state.fire.bursts_of(c.id):
        raise EncounterError(f"{c.name} fires full auto this round: no other attacks (§4.9)")
    phase = c.actions.used + 1 if c.actions else 1
    for _ in range(cmd.shots):
        c = spend(state, c, ruleset=ruleset)
    low, high = number_range(DifficultyLevel.parse("Difficult"), ruleset=ruleset)
    if cmd.difficulty is None or not low <= cmd.difficulty <= high:
        given = "" if cmd.difficulty is None else f", not {cmd.difficulty}"
        raise EncounterError(f"suppressive shots are Difficult ({low}–{high}){given}")
    code = c.code(weapon.skill)
    penalty = penalty_dice(c, now_round=state.round, ruleset=ruleset)
    totals: list[int] = []
    rolls: list[tuple[str, Roll]] = []
    for n in range(1, cmd.shots + 1):
        label = f"suppressive shot {n}"
        total, named, _ = roll_for(
            c, code, label, penalty=penalty, now_round=state.round, ruleset=ruleset, rng=rng
        )
        totals.append(total)
        rolls.extend(named)
    successes = suppression_successes(totals, cmd.difficulty, ruleset=ruleset)
    record = Suppression(c.id, c.side, phase, cmd.difficulty, tuple(totals), successes)
    fire = state.fire
    others = fire.other_attacks if c.id in fire.other_attacks else (*fire.other_attacks, c.id)
    fire = replace(fire, suppression=(*fire.suppression, record), other_attacks=others)
    numbers: tuple[tuple[str, Scalar], ...] = (
        ("shots", cmd.shots),
        ("difficulty", cmd.difficulty),
        ("penalty_dice", penalty),
        ("totals", ",".join(str(t) for t in totals)),
        ("successes", successes),
        ("phase", phase),
        ("actions_left", c.actions.remaining if c.actions else 0),
    )
    text = (
        f"{c.name} lays down suppression fire: {successes} of {cmd.shots} shots succeed, "
        f"+{successes} to return fire at side {c.side} in pass {phase}"
    )
    new = state.with_combatant(c).replace(fire=fire)
    return new, [Event("suppression", c.id, text, numbers, tuple(rolls))]
