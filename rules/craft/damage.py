"""Damage to vehicles and starships: the damage chart ([2E-STD] margins or the [RC]
multiples), escalation, the [UPG] 1D damage tables, lost Moves, and a craft's damage state
(:class:`CraftState`, which an app stores between steps with ``to_json``/``from_json``) with
the codes a damaged, ionized craft rolls (vehicles-and-starships.md §5).

Every function returns a new value. Capital ship damage in the Rules Companion's pips is
:mod:`rules.craft.capital`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, Self, get_args

from rules._stored import Reader
from rules.craft._common import CraftError, CraftKind, HyperdriveState
from rules.craft.stats import CraftStats
from rules.dice import DiceSource, DieCode
from rules.movement import Speed, speed_cap
from rules.ruleset import RuleSet

__all__ = [
    "DAMAGE_BANDS",
    "STARSHIP_EFFECTS",
    "VEHICLE_EFFECTS",
    "CraftDamage",
    "CraftState",
    "DamageEffect",
    "DamageLevel",
    "LostMoves",
    "ResultLevel",
    "apply_damage",
    "apply_damage_effect",
    "craft_damage_result",
    "damage_effect",
    "dead_controls",
    "effective_code",
    "escalate",
    "lost_moves_status",
]


# ---------------------------------------------------------------------------------------------
# Damage
# ---------------------------------------------------------------------------------------------
DamageLevel = Literal["none", "lightly", "heavily", "severely", "destroyed"]
ResultLevel = Literal[
    "none", "controls_ionized", "shields_blown", "lightly", "heavily", "severely", "destroyed"
]
_ORDER: tuple[DamageLevel, ...] = ("none", "lightly", "heavily", "severely", "destroyed")

#: [2E-STD, not in sources] margin of the damage roll over the hull/body roll (ambiguity 1);
#: the same bands as the [UPG] tractor beam chart. verify_against_rulebook.
DAMAGE_BANDS: tuple[tuple[int, ResultLevel], ...] = (
    (16, "destroyed"),
    (13, "severely"),
    (9, "heavily"),
    (4, "lightly"),
    (0, "controls_ionized"),
)


@dataclass(frozen=True, slots=True)
class CraftDamage:
    """One hit on a vehicle or starship. ``shield_dice_lost`` and ``ionization_dice`` are
    immediate effects; ``lightly``/``heavily``/``severely`` also roll on the 1D tables, except
    an [RC] light result, whose whole effect is the shield die or ionization given here."""

    level: ResultLevel
    margin: int | None = None
    shield_dice_lost: int = 0
    ionization_dice: int = 0
    dead_controls: bool = False
    rc: bool = False

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-safe data (an encounter's step log keeps it)."""
        return {
            "level": self.level,
            "margin": self.margin,
            "shield_dice_lost": self.shield_dice_lost,
            "ionization_dice": self.ionization_dice,
            "dead_controls": self.dead_controls,
            "rc": self.rc,
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        """A result stored by :meth:`to_json`; a :class:`CraftError` for anything else."""
        read = Reader(data, "craft damage result", _RESULT_FIELDS, CraftError)
        return cls(
            level=read.choice("level", get_args(ResultLevel)),
            margin=read.optional_integer("margin"),
            shield_dice_lost=read.integer("shield_dice_lost", least=0),
            ionization_dice=read.integer("ionization_dice", least=0),
            dead_controls=read.flag("dead_controls"),
            rc=read.flag("rc"),
        )


_RESULT_FIELDS = tuple(CraftDamage.__dataclass_fields__)


def craft_damage_result(
    damage_roll: int,
    resist_roll: int,
    *,
    ruleset: RuleSet,
    shield_dice_left: int = 0,
    shields_in_use: bool = False,
    ion: bool = False,
) -> CraftDamage:
    """Read the damage chart for a hit on a vehicle or starship.

    2E (``damage_chart = "2e_margin"``): margin of damage over hull/body, bands 0-3 / 4-8 /
    9-12 / 13-15 / 16+ [2E-STD]; 0-3 blows a shield die off a ship with shield dice left,
    otherwise ionizes its controls. [RC] (``rc_multiples``): the starship Damage Summary
    (000 l.1536-1554), reading ">" as "≥" (ambiguity 3) and the "DR < SR" ion cell literally as
    "lose generator" (ambiguity 2); 2 × DR < SR has no effect at all."""
    if damage_roll < 0 or resist_roll < 0:
        raise CraftError("damage and resistance totals cannot be negative")
    if ruleset.damage_chart == "rc_multiples":
        return _rc_craft_damage(damage_roll, resist_roll, shield_dice_left, shields_in_use, ion)
    if ion:
        raise CraftError(
            "the Second Edition ion cannon chart is not in Datapad's sources; "
            "the GM resolves ion hits (Rules Companion mode has one)"
        )
    margin = damage_roll - resist_roll
    if margin < 0:
        return CraftDamage("none", margin)
    level = next(lvl for low, lvl in DAMAGE_BANDS if margin >= low)
    if level == "controls_ionized" and shield_dice_left > 0:
        return CraftDamage("shields_blown", margin, shield_dice_lost=1)
    if level == "controls_ionized":
        return CraftDamage("controls_ionized", margin, ionization_dice=1)
    return CraftDamage(level, margin)


def _rc_craft_damage(
    dr: int, sr: int, shield_dice_left: int, shields_in_use: bool, ion: bool
) -> CraftDamage:
    if 2 * dr < sr:
        return CraftDamage("none", rc=True)
    multiple = dr // sr if sr > 0 else 3
    if multiple == 0:
        if ion:
            return CraftDamage("shields_blown", shield_dice_lost=1, rc=True)
        if shields_in_use and shield_dice_left > 0:
            return CraftDamage("lightly", shield_dice_lost=1, rc=True)
        return CraftDamage("lightly", ionization_dice=1, rc=True)
    if ion:
        if multiple >= 3:
            return CraftDamage("controls_ionized", ionization_dice=3, dead_controls=True, rc=True)
        return CraftDamage("controls_ionized", ionization_dice=multiple, rc=True)
    return CraftDamage(("heavily", "severely", "destroyed")[min(multiple, 3) - 1], rc=True)


def escalate(
    current: DamageLevel,
    new: ResultLevel,
    *,
    kind: CraftKind = "starship",
    escalate_vehicles: bool = True,
) -> DamageLevel:
    """The craft's damage level after a new result [UPG]: lightly damaged any number of times;
    heavily + lightly or heavily = severely; severely + any damage = destroyed. Vehicles follow
    the same rule unless ``escalate_vehicles`` is False (ambiguity 5): then the worse level."""
    if new not in _ORDER or new == "none":
        return current
    worse = max(current, new, key=_ORDER.index)
    if kind == "vehicle" and not escalate_vehicles:
        return worse
    if current == "severely":
        return "destroyed"
    if current == "heavily" and new in ("lightly", "heavily"):
        return "severely"
    return worse


@dataclass(frozen=True, slots=True)
class DamageEffect:
    """One line of a 1D damage table."""

    die: int
    text: str
    maneuverability_dice: int = 0
    moves: int = 0
    shield_dice: int = 0
    hyperdrive: Literal["damaged", "heavily_damaged", "disabled"] | None = None
    weapons: str | None = None
    destroyed: bool = False


def _effects(*rows: tuple[str, str, dict[str, Any]]) -> dict[int, DamageEffect]:
    table = {}
    for dice, text, fields in rows:
        low, _, high = dice.partition("-")
        for die in range(int(low), int(high or low) + 1):
            table[die] = DamageEffect(die, text, **fields)
    return table


_ARC = "all weapons of one type in one fire arc"
# [UPG] vehicle damage (001 l.465-486; [HOUSE] 004 l.344-358 keeps severe entry 3 only).
VEHICLE_EFFECTS: dict[str, dict[int, DamageEffect]] = {
    "lightly": _effects(
        ("1-3", "-1D maneuverability (at 0D: -1 Move)", {"maneuverability_dice": 1}),
        ("4", "one on-board weapon hit and destroyed", {"weapons": "one_destroyed"}),
        ("5-6", "-1 Move", {"moves": 1}),
    ),
    "heavily": _effects(
        ("1-3", "-2D maneuverability (at 0D: -2 Move)", {"maneuverability_dice": 2}),
        ("4-6", "-2 Move", {"moves": 2}),
    ),
    "severely": _effects(
        ("1-2", "destroyed powerplant", {}),
        ("3", "overloaded generator: explodes in 1D rounds, destroying the vehicle", {}),
        ("4", "disabled weapons", {"weapons": "all_disabled"}),
        ("5", "breaking up or a major system fails: 1D rounds to eject or crash-land", {}),
        ("6", "destroyed", {"destroyed": True}),
    ),
}
# [UPG] starship damage (001 l.537-572).
STARSHIP_EFFECTS: dict[str, dict[int, DamageEffect]] = {
    "lightly": _effects(
        ("1", "-1D maneuverability (at 0D: -1 Move)", {"maneuverability_dice": 1}),
        ("2", "one weapon emplacement hit and destroyed", {"weapons": "one_destroyed"}),
        (
            "3",
            "one weapon emplacement lightly damaged by a power surge",
            {"weapons": "one_lightly_damaged"},
        ),
        (
            "4",
            "hyperdrive damaged: calculation times doubled, one-round jump +10",
            {"hyperdrive": "damaged"},
        ),
        ("5", "-1D shields (none left: controls ionized)", {"shield_dice": 1}),
        ("6", "-1 Move", {"moves": 1}),
    ),
    "heavily": _effects(
        ("1", "-2D maneuverability (at 0D: -2 Move)", {"maneuverability_dice": 2}),
        ("2", f"{_ARC} disabled", {"weapons": "arc_disabled"}),
        ("3", f"{_ARC} destroyed", {"weapons": "arc_destroyed"}),
        (
            "4",
            "hyperdrive damaged: +10 to all astrogation difficulties",
            {"hyperdrive": "heavily_damaged"},
        ),
        ("5", "-2D shields (none left: 2 controls ionized)", {"shield_dice": 2}),
        ("6", "-2 Move", {"moves": 2}),
    ),
    "severely": _effects(
        ("1", "dead in space: all drives and maneuvering systems destroyed, adrift", {}),
        ("2", "overloaded generator: explodes in 1D rounds unless shut down", {}),
        ("3", "disabled hyperdrives (main and backup)", {"hyperdrive": "disabled"}),
        ("4", "disabled weapons", {"weapons": "all_disabled"}),
        ("5", "structural damage: the crew has 1D rounds to evacuate", {}),
        ("6", "destroyed", {"destroyed": True}),
    ),
}


def damage_effect(
    kind: CraftKind, level: str, die: int, weapons_die: int | None = None
) -> DamageEffect:
    """The 1D table entry for a damage level [UPG]. A starship's severe "disabled weapons"
    rolls 1D more (``weapons_die``): 1-4 all weapons severely damaged but repairable, 5-6 all
    weapons destroyed. Capital ships use the starship tables in 2E."""
    if not 1 <= die <= 6:
        raise CraftError(f"a damage table is read with 1D (1-6), not {die}")
    tables = VEHICLE_EFFECTS if kind == "vehicle" else STARSHIP_EFFECTS
    if level not in tables:
        raise CraftError("only lightly, heavily and severely damaged have 1D tables")
    effect = tables[level][die]
    if kind != "vehicle" and level == "severely" and die == 4:
        if weapons_die is None or not 1 <= weapons_die <= 6:
            raise CraftError("disabled weapons: roll 1D more (1-4 repairable, 5-6 destroyed)")
        if weapons_die >= 5:
            return dataclasses.replace(
                effect, text="all weapons aboard destroyed", weapons="all_destroyed"
            )
        return dataclasses.replace(
            effect,
            text="all weapons severely damaged but repairable",
            weapons="all_severely_damaged",
        )
    return effect


@dataclass(frozen=True, slots=True)
class LostMoves:
    """What a total of lost Moves allows a vehicle or starship [UPG] [HOUSE] (001 l.488-496):
    ``top_speed`` is the fastest speed left (None: it cannot move)."""

    total: int
    top_speed: Speed | None
    drive_disabled: bool = False
    drive_destroyed: bool = False
    destroyed: bool = False


def lost_moves_status(total: int, *, ruleset: RuleSet) -> LostMoves:
    """Lost moves add up: -1 no all-out (high speed at most), -2 cruising, -3 cautious, -4 drive
    disabled until repaired, -5 destroyed, or with ``lost_moves_5 = "drive_destroyed"`` the drive
    is destroyed and must be replaced (ambiguity 20). The speed caps, [HOUSE] five speeds
    included, are :func:`rules.movement.speed_cap`'s."""
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        raise CraftError(f"lost moves are a whole number, 0 or more, not {total!r}")
    if total >= 5:
        wrecked = ruleset.lost_moves_5 == "destroyed"
        return LostMoves(total, None, True, drive_destroyed=not wrecked, destroyed=wrecked)
    top_speed = speed_cap(total, ruleset=ruleset, mover="vehicle")
    return LostMoves(total, top_speed, drive_disabled=total == 4)


# ---------------------------------------------------------------------------------------------
# Damage state
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CraftState:
    """A craft's damage between and during fights. ``controls_ionized`` counts ionization dice
    now in effect (they last the rest of the round and the next); ``weapon_damage`` and
    ``events`` list results the GM assigns or plays out (which emplacement, the 1D-round
    countdown of an overloading generator)."""

    damage: DamageLevel = "none"
    maneuverability_lost: int = 0
    moves_lost: int = 0
    shield_dice_lost: int = 0
    controls_ionized: int = 0
    dead_controls: bool = False
    hyperdrive: HyperdriveState = "ok"
    weapon_damage: tuple[str, ...] = ()
    events: tuple[str, ...] = ()

    @property
    def destroyed(self) -> bool:
        return self.damage == "destroyed"

    def to_json(self) -> dict[str, Any]:
        """The state as JSON-safe data, for an app to store between steps."""
        return {
            "damage": self.damage,
            "maneuverability_lost": self.maneuverability_lost,
            "moves_lost": self.moves_lost,
            "shield_dice_lost": self.shield_dice_lost,
            "controls_ionized": self.controls_ionized,
            "dead_controls": self.dead_controls,
            "hyperdrive": self.hyperdrive,
            "weapon_damage": list(self.weapon_damage),
            "events": list(self.events),
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        """A state stored by :meth:`to_json`; a :class:`CraftError` for anything else."""
        read = Reader(data, "craft damage state", _STATE_FIELDS, CraftError)
        return cls(
            damage=read.choice("damage", _ORDER),
            maneuverability_lost=read.integer("maneuverability_lost", least=0),
            moves_lost=read.integer("moves_lost", least=0),
            shield_dice_lost=read.integer("shield_dice_lost", least=0),
            controls_ionized=read.integer("controls_ionized", least=0),
            dead_controls=read.flag("dead_controls"),
            hyperdrive=read.choice("hyperdrive", get_args(HyperdriveState)),
            weapon_damage=read.texts("weapon_damage"),
            events=read.texts("events"),
        )


_STATE_FIELDS = tuple(CraftState.__dataclass_fields__)


def _left(code: DieCode | None, lost: int) -> int:
    return 0 if code is None else max(0, code.dice - lost)


def apply_damage_effect(
    state: CraftState, effect: DamageEffect, stats: CraftStats, *, ruleset: RuleSet
) -> CraftState:
    """Apply one 1D table entry: maneuverability dice (a craft already at 0D loses that many
    Moves instead), shield dice (none left: that many controls ionized), Moves, hyperdrive,
    weapons. Five or more lost Moves destroy the craft (``lost_moves_5``)."""
    man_lost, moves, shields_lost = (
        state.maneuverability_lost,
        state.moves_lost,
        state.shield_dice_lost,
    )
    ionized = state.controls_ionized
    if effect.maneuverability_dice:
        left = _left(stats.maneuverability, man_lost)
        if left == 0:
            moves += effect.maneuverability_dice
        else:
            man_lost += min(left, effect.maneuverability_dice)
    if effect.shield_dice:
        left = _left(stats.shields, shields_lost)
        if left == 0:
            ionized += effect.shield_dice
        else:
            shields_lost += min(left, effect.shield_dice)
    moves += effect.moves
    damage = "destroyed" if effect.destroyed else state.damage
    status = lost_moves_status(moves, ruleset=ruleset)
    if status.destroyed:
        damage = "destroyed"
    hyperdrive = state.hyperdrive
    if effect.hyperdrive and _HYPER_ORDER.index(effect.hyperdrive) > _HYPER_ORDER.index(hyperdrive):
        hyperdrive = effect.hyperdrive
    weapons = state.weapon_damage + ((effect.weapons,) if effect.weapons else ())
    plain = not (
        effect.maneuverability_dice
        or effect.shield_dice
        or effect.moves
        or effect.hyperdrive
        or effect.weapons
        or effect.destroyed
    )
    events = state.events + ((effect.text,) if plain else ())
    return dataclasses.replace(
        state,
        damage=damage,
        maneuverability_lost=man_lost,
        moves_lost=moves,
        shield_dice_lost=shields_lost,
        controls_ionized=ionized,
        hyperdrive=hyperdrive,
        weapon_damage=weapons,
        events=events,
    )


_HYPER_ORDER: tuple[HyperdriveState, ...] = ("ok", "damaged", "heavily_damaged", "disabled")


def apply_damage(
    state: CraftState,
    result: CraftDamage,
    stats: CraftStats,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
    escalate_vehicles: bool = True,
) -> CraftState:
    """Apply a :func:`craft_damage_result` to a craft: immediate shield or ionization losses,
    then the new damage level (:func:`escalate`) and a 1D roll on a damage table: the table of
    the result, or of the escalated level when escalation made it worse (a heavily damaged
    ship lightly damaged again rolls on the severe table). An [RC] light result has no table;
    [RC] heavy and severe use the [UPG] tables (ambiguity 24)."""
    if state.destroyed or result.level == "none":
        return state
    current = state.damage
    state = dataclasses.replace(
        state,
        shield_dice_lost=state.shield_dice_lost + result.shield_dice_lost,
        controls_ionized=state.controls_ionized + result.ionization_dice,
        dead_controls=state.dead_controls or result.dead_controls,
    )
    if result.level not in _ORDER:  # shields blown, controls ionized: no level change
        return state
    level = escalate(current, result.level, kind=stats.kind, escalate_vehicles=escalate_vehicles)
    state = dataclasses.replace(state, damage=level)
    escalated = level != max(current, result.level, key=_ORDER.index)
    table = level if escalated else result.level
    if level == "destroyed" or (result.rc and table == "lightly"):
        return state
    die = rng.d6()
    extra = rng.d6() if stats.kind != "vehicle" and table == "severely" and die == 4 else None
    effect = damage_effect(stats.kind, table, die, extra)
    return apply_damage_effect(state, effect, stats, ruleset=ruleset)


def dead_controls(controls_ionized: int, maneuverability: DieCode) -> bool:
    """[2E-STD, not in sources; verify_against_rulebook] a ship with as many controls-ionized
    results as its printed maneuverability dice (at least one) has dead controls for the next
    two rounds (ambiguity 6)."""
    return controls_ionized >= max(1, maneuverability.dice)


_IONIZED_2E = ("maneuverability", "shields", "fire_control", "damage")
_STATS = ("maneuverability", "shields", "fire_control", "damage", "hull", "sublight", "speed_code")


def effective_code(code: DieCode, stat: str, state: CraftState, *, ruleset: RuleSet) -> DieCode:
    """The die code a damaged, ionized craft rolls for one stat.

    Maneuverability and shields lose the dice the damage tables took. Ionization: 2E, each
    controls-ionized result is -1D to maneuverability, shields, fire control and weapon damage
    [2E-STD, verify_against_rulebook]; [RC] -1D per ionization die to every ship code except
    hull (000 l.1450-1472). Never below 0D; pips are kept."""
    if stat not in _STATS:
        raise CraftError(f"unknown ship stat {stat!r}; choose one of {', '.join(_STATS)}")
    lost = {"maneuverability": state.maneuverability_lost, "shields": state.shield_dice_lost}.get(
        stat, 0
    )
    if ruleset.damage_chart == "rc_multiples":
        ionized = 0 if stat == "hull" else state.controls_ionized
    else:
        ionized = state.controls_ionized if stat in _IONIZED_2E else 0
    return code.minus_dice(lost + ionized)
