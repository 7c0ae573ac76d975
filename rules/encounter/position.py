"""Where each combatant stands (combat.md §4.1–§4.4): :class:`~rules.encounter.SetPosition`,
and attacks that take the stored position.

A combatant's position is where he stands *from the other side* (from the party for an NPC,
from the enemy for a PC): his range band (point-blank, short, medium, long) and/or his distance
in metres, his cover (a cover or visibility condition the campaign's ``cover_modifiers`` option
knows, :func:`rules.combat.cover_conditions`, or ``full_cover``: he cannot be hit directly) and
the GM's notes (at most 200 characters). One position per combatant is the cheapest model that
still reads clearly at the table: the GM places the enemy once ("the troopers are at medium
range, behind half cover") instead of a range for every pair of fighters.

An attack that is neither melee nor brawling takes what it does not name:

* no range band and no distance: the target's stored range; when the target has none and the
  attacker is on another side, the attacker's (the span between two sides reads the same both
  ways). A stored distance is read on the attacker's weapon ranges (CA-13); a weapon without
  ranges takes the stored band instead;
* no conditions: the target's stored cover (naming conditions replaces it for that attack).

The attack's event says what was taken and from whom (``range_from``, ``cover_from``: the
combatant whose position it was, or null). Melee and brawling take nothing stored: the range
sets no difficulty there, and it would wrongly bring in the [HOUSE] short and point-blank rule.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.combat import cover_conditions
from rules.dice import DiceSource
from rules.encounter.aim import take_aims
from rules.encounter.commands import Attack, SetPosition
from rules.encounter.events import Event, Scalar
from rules.encounter.group import announce_attack
from rules.encounter.state import Combatant, EncounterError, EncounterState
from rules.ruleset import RuleSet

__all__ = ["FULL_COVER", "attack", "set_position"]

FULL_COVER = "full_cover"
Numbers = tuple[tuple[str, Scalar], ...]


def set_position(
    state: EncounterState, cmd: SetPosition, *, ruleset: RuleSet
) -> tuple[EncounterState, list[Event]]:
    """The combatant placed: each field replaces what was stored (None clears it). The cover
    must be a condition the campaign's ``cover_modifiers`` option knows, or ``full_cover``."""
    c = state.combatant(cmd.combatant)
    known = (*cover_conditions(ruleset=ruleset), FULL_COVER)
    if cmd.cover is not None and cmd.cover not in known:
        raise EncounterError(
            f"cover: {cmd.cover[:40]!r} is not a condition this campaign knows; "
            f"choose one of {', '.join(known)}"
        )
    placed = c.replace(
        range_band=cmd.range_band, distance_m=cmd.distance_m, cover=cmd.cover, notes=cmd.notes
    )
    where = [
        f"{cmd.range_band.replace('_', '-')} range" if cmd.range_band else "",
        f"{cmd.distance_m} m" if cmd.distance_m is not None else "",
        cmd.cover.replace("_", " ") if cmd.cover else "",
    ]
    said = ", ".join(w for w in where if w) or "no range or cover"
    numbers: Numbers = (
        ("range_band", cmd.range_band),
        ("distance_m", cmd.distance_m),
        ("cover", cmd.cover),
    )
    return state.with_combatant(placed), [Event("position", c.id, f"{c.name}: {said}", numbers)]


def attack(
    state: EncounterState, cmd: Attack, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[EncounterState, list[Event]]:
    """The attack announced (:func:`rules.encounter.group.announce_attack`) with the range and
    cover it does not name taken from the stored positions, and the firers' aims spent
    (:func:`rules.encounter.aim.take_aims`). Draws dice only for a 2E command roll."""
    placed, numbers = _placed(state, cmd)
    new, events = announce_attack(state, placed, ruleset=ruleset, rng=rng)
    new, aimed = take_aims(state, new)
    last = events[-1]
    events[-1] = replace(last, numbers=(*last.numbers, *numbers, *aimed))
    return new, events


def _has_range(c: Combatant) -> bool:
    return c.range_band is not None or c.distance_m is not None


def _placed(state: EncounterState, cmd: Attack) -> tuple[Attack, Numbers]:
    """The attack with the stored range and cover it takes, and the numbers that say so."""
    people = {c.id: c for c in state.combatants}
    attacker, target = people.get(cmd.attacker), people.get(cmd.target)
    changes: dict[str, Any] = {}
    range_from = cover_from = None
    weapon = attacker.weapon if attacker is not None else None
    melee = weapon is None or weapon.kind in ("melee", "brawling")
    if attacker is not None and target is not None and not melee:
        source = target if _has_range(target) else None
        if source is None and attacker.side != target.side and _has_range(attacker):
            source = attacker
        if source is not None and cmd.range_band is None and cmd.distance_m is None:
            ranges = weapon.ranges if weapon else None
            if source.distance_m is not None and ranges is not None:
                changes["distance_m"] = source.distance_m
            elif source.range_band is not None:
                changes["range_band"] = source.range_band
            range_from = source.id if changes else None
        if not cmd.conditions and target.cover is not None:
            changes["conditions"] = (target.cover,)
            cover_from = target.id
    placed = replace(cmd, **changes) if changes else cmd
    numbers: Numbers = (
        ("distance_m", placed.distance_m),
        ("conditions", ",".join(placed.conditions) or None),
        ("range_from", range_from),
        ("cover_from", cover_from),
    )
    return placed, numbers
