"""Vehicles and starships: stat blocks, scale, damage, lost moves, starship combat, tractor
beams, astrogation, weapon ranges and the Star Warriors export.

Pure functions over small immutable values (see ``vehicles-and-starships.md``). Dynamic state
(damage level, lost moves, shield dice lost, ionization) lives in :class:`CraftState`; every
function returns a new value. Movement itself (speeds, terrain, fatigue rolls, collisions,
ramming and the [RC] speed actions) is shared with characters in :mod:`rules.movement`; capital
ship combat ([RC]) is in :mod:`rules.capital`.

Source tags: [UPG] Rules Upgrade, [WIKI] basic rules, [HOUSE] House Rules, [RC] Rules
Companion, [2E-STD] a standard Second Edition value the five sources do not print.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from importlib import resources
from typing import Any, Literal

from rules.dice import DiceSource, DieCode, Roll
from rules.errors import RulesError
from rules.movement import Speed, speed_cap, speed_info
from rules.ruleset import RuleSet

ZERO = DieCode()

__all__ = [
    "ASTROGATION_MINUTES",
    "DAMAGE_BANDS",
    "RC_DAMAGE_CAPS",
    "RC_MANEUVER_CAPS",
    "RC_TO_HIT_CAPS",
    "RC_WEAPON_RANGES",
    "SCALE_MODIFIERS",
    "STARSHIP_EFFECTS",
    "SWR_LONG_SHOT_OFFSETS",
    "SWR_SPEED",
    "SWR_SPEED_FIELDS",
    "TRACTOR_BANDS",
    "TRACTOR_UNRESISTED_UNITS",
    "VEHICLE_EFFECTS",
    "ZERO",
    "CraftState",
    "CraftStats",
    "DamageEffect",
    "DamageResult",
    "FullEvasion",
    "LostMoves",
    "RangeBands",
    "Scale",
    "ScaleAdjustment",
    "ShipError",
    "TractorResult",
    "Weapon",
    "adjusted_modifier",
    "apply_damage",
    "apply_damage_effect",
    "apply_die_cap",
    "astrogation_difficulty",
    "astrogation_minutes",
    "combat_evasion_difficulty",
    "damage_effect",
    "damage_result",
    "dead_controls",
    "die_cap_total",
    "effective_code",
    "escalate",
    "full_evasion",
    "hyperspace_travel_time",
    "load_craft",
    "lost_moves_status",
    "missile_difficulty",
    "missile_difficulty_dice",
    "rc_astrogation_difficulty",
    "rc_tractor_breaks_free",
    "rc_tractor_escape_code",
    "rc_weapon_ranges",
    "resistance_code",
    "scale_adjustment",
    "scale_modifier",
    "shield_number",
    "shielded_hit",
    "star_warriors_speed",
    "tractor_beam",
    "vehicle_kmh",
    "weapon_class",
]


class ShipError(RulesError):
    """A vehicle or starship question that cannot be answered as asked."""


# ---------------------------------------------------------------------------------------------
# Scale
# ---------------------------------------------------------------------------------------------
class Scale(IntEnum):
    """The six scales, lowest to highest [UPG] [WIKI] [RC]."""

    CHARACTER = 0
    SPEEDER = 1
    WALKER = 2
    STARFIGHTER = 3
    CAPITAL = 4
    DEATH_STAR = 5

    @property
    def key(self) -> str:
        """The spelling used in data files: ``character`` … ``death_star``."""
        return self.name.lower()

    @classmethod
    def parse(cls, value: Scale | str) -> Scale:
        """Accept a Scale or the names people write ("Death Star", "creature", "capitol")."""
        if isinstance(value, Scale):
            return value
        if not isinstance(value, str):
            raise ShipError(f"a scale is a name such as 'speeder', not {value!r}")
        text = value.strip().lower().replace("-", " ").replace("_", " ")
        if text in _SCALE_ALIASES:
            return _SCALE_ALIASES[text]
        names = ", ".join(s.key for s in cls)
        raise ShipError(f"unknown scale {value!r}; choose one of {names}")


_SCALE_ALIASES = {
    "character": Scale.CHARACTER,
    "creature": Scale.CHARACTER,
    "speeder": Scale.SPEEDER,
    "repulsorlift": Scale.SPEEDER,
    "walker": Scale.WALKER,
    "starfighter": Scale.STARFIGHTER,
    "capital": Scale.CAPITAL,
    "capital ship": Scale.CAPITAL,
    "capitol": Scale.CAPITAL,  # [HOUSE] spelling
    "death star": Scale.DEATH_STAR,
    "deathstar": Scale.DEATH_STAR,
}

#: Scale modifiers in dice, character to Death Star. [UPG]/[WIKI] and [HOUSE] (004 l.258-266).
SCALE_MODIFIERS: dict[str, tuple[int, ...]] = {
    "upg": (0, 2, 4, 6, 12, 24),
    "house": (0, 2, 4, 8, 14, 24),
}

# [RC] die caps (000 l.1569-1720). Row = scale of the die code rolled, column = scale of the
# target; None = "—", the action is impossible.
RC_TO_HIT_CAPS: tuple[tuple[int | None, ...], ...] = (
    (6, 6, 6, 6, 6, 6),
    (5, 6, 6, 6, 6, 6),
    (4, 6, 6, 6, 6, 6),
    (3, 4, 5, 6, 6, 6),
    (1, 3, 4, 5, 6, 6),
    (None, None, None, None, 5, 6),
)
RC_MANEUVER_CAPS: tuple[tuple[int | None, ...], ...] = (
    (6, 6, 6, 4, 5, 6),
    (6, 6, 6, 4, 5, 6),
    (5, 5, 6, 3, 4, 6),
    (6, 6, 6, 6, 6, 6),
    (6, 6, 6, 5, 6, 6),
    (3, 3, 4, 1, 2, 6),
)
RC_DAMAGE_CAPS: tuple[tuple[int | None, ...], ...] = (
    (6, 3, 2, 2, None, None),
    (6, 6, 5, 5, 4, None),
    (6, 6, 6, 6, 5, None),
    (6, 6, 6, 6, 5, None),
    (6, 6, 6, 6, 6, 1),
    (6, 6, 6, 6, 6, 6),
)


def scale_modifier(scale: Scale | str, ruleset: RuleSet = RuleSet()) -> DieCode:
    """A scale's modifier: starfighter 6D [UPG], 8D [HOUSE]. [RC] has die caps instead."""
    if ruleset.scale_mode == "rc_die_caps":
        raise ShipError("the Rules Companion uses die caps, not scale modifiers")
    return DieCode(SCALE_MODIFIERS[ruleset.scale_mode][Scale.parse(scale)])


def adjusted_modifier(
    first: Scale | str, second: Scale | str, ruleset: RuleSet = RuleSet()
) -> DieCode:
    """The difference between two scales' modifiers ([UPG] "adjusted modifier"); 0D at the
    same scale. Landspeeder vs AT-AT: 2D (V1)."""
    a, b = scale_modifier(first, ruleset), scale_modifier(second, ruleset)
    return DieCode(abs(a.dice - b.dice))


@dataclass(frozen=True, slots=True)
class ScaleAdjustment:
    """What scale does to one attack. Bonuses are dice added to that roll ([UPG]/[HOUSE]);
    caps are the highest die face that counts ([RC]; 6 = no effect, None = impossible)."""

    attack_bonus: DieCode = ZERO
    dodge_bonus: DieCode = ZERO
    damage_bonus: DieCode = ZERO
    resist_bonus: DieCode = ZERO
    to_hit_cap: int | None = 6
    dodge_cap: int | None = 6
    damage_cap: int | None = 6
    resist_cap: int | None = 6

    @property
    def possible(self) -> bool:
        """False where an [RC] chart prints "—" (the Death Star cannot target a character)."""
        return None not in (self.to_hit_cap, self.damage_cap, self.resist_cap)


def scale_adjustment(
    attacker: Scale | str, target: Scale | str, ruleset: RuleSet = RuleSet()
) -> ScaleAdjustment:
    """Scale effects when ``attacker`` (the weapon's scale) fires at ``target``.

    [UPG]/[WIKI]/[HOUSE]: lower against higher adds the adjusted modifier to the attack and to
    the target's resistance; higher against lower adds it to the target's dodge and to the
    damage (a target that does not dodge gets nothing: ambiguity 22). [RC]: die caps from the
    To Hit chart (attacker row), Maneuver chart (target row, attacker column) and Damage chart
    (damage: weapon row; resistance: target row, weapon column)."""
    a, t = Scale.parse(attacker), Scale.parse(target)
    if ruleset.scale_mode == "rc_die_caps":
        return ScaleAdjustment(
            to_hit_cap=RC_TO_HIT_CAPS[a][t],
            dodge_cap=RC_MANEUVER_CAPS[t][a],
            damage_cap=RC_DAMAGE_CAPS[a][t],
            resist_cap=RC_DAMAGE_CAPS[t][a],
        )
    adjusted = adjusted_modifier(a, t, ruleset)
    if a < t:
        return ScaleAdjustment(attack_bonus=adjusted, resist_bonus=adjusted)
    if a > t:
        return ScaleAdjustment(dodge_bonus=adjusted, damage_bonus=adjusted)
    return ScaleAdjustment()


def _check_cap(cap: int | None) -> int:
    if cap is None:
        raise ShipError("this action is not possible at these scales (the chart shows '—')")
    if not 1 <= cap <= 6:
        raise ShipError(f"a die cap is a face from 1 to 6, not {cap}")
    return cap


def die_cap_total(faces: tuple[int, ...] | list[int], cap: int | None) -> int:
    """Sum of the dice that do not exceed the cap [RC]: cap 3, dice 5, 2, 3, 6 -> 5 (V6)."""
    limit = _check_cap(cap)
    return sum(face for face in faces if face <= limit)


def _chain_total(chain: tuple[int, ...], cap: int) -> int:
    # A die above the cap is dropped and does not explode (ambiguity 21).
    if not chain or chain[0] > cap:
        return 0
    return sum(chain) if cap == 6 else chain[0]


def apply_die_cap(result: Roll, cap: int | None) -> int:
    """The total of a kept :class:`~rules.dice.Roll` under a die cap [RC].

    Every die is capped, the Wild Die and Character Point dice included; a 6 above the cap is
    dropped rather than exploding; a Wild Die 1 that removed the highest die removes the highest
    die that still counts (ambiguity 21). Pips and flat modifiers are kept."""
    limit = _check_cap(cap)
    counted = [face for face in result.normal if face <= limit]
    total = sum(counted) + _chain_total(result.wild, limit)
    total += sum(_chain_total(chain, limit) for chain in result.cp)
    if result.removed:
        total -= 1 + (max(counted) if counted else 0)
    total += result.pool.pips + result.modifier
    return max(0, total) if result.pool.dice > 0 else total


# ---------------------------------------------------------------------------------------------
# Stat blocks
# ---------------------------------------------------------------------------------------------
WeaponKind = Literal[
    "blaster",
    "laser",
    "turbolaser",
    "ion",
    "missile",
    "torpedo",
    "tractor",
    "gravity_well",
    "other",
]
CraftKind = Literal["vehicle", "starship", "capital"]
Band = Literal["short", "medium", "long"]


@dataclass(frozen=True, slots=True)
class RangeBands:
    """Short / medium / long ranges in metres, as (from, to) pairs; ``long`` may be absent."""

    short: tuple[int, int]
    medium: tuple[int, int] | None = None
    long: tuple[int, int] | None = None
    needs_review: bool = False

    def band(self, metres: float) -> Band | None:
        """The band a distance falls in, or None outside the printed bands."""
        if metres < 0:
            raise ShipError("a distance cannot be negative")
        for name in ("short", "medium", "long"):
            bounds = getattr(self, name)
            if bounds is not None and bounds[0] <= metres <= bounds[1]:
                return name  # type: ignore[return-value]
        return None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"short": list(self.short)}
        data["medium"] = list(self.medium) if self.medium else None
        data["long"] = list(self.long) if self.long else None
        if self.needs_review:
            data["needs_review"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RangeBands:
        def pair(value: Any) -> tuple[int, int] | None:
            return None if value is None else (int(value[0]), int(value[1]))

        short = pair(data["short"])
        assert short is not None
        return cls(
            short, pair(data.get("medium")), pair(data.get("long")), data.get("needs_review", False)
        )


def _code(value: Any) -> DieCode | None:
    return None if value is None else DieCode.parse(value)


def _code_text(value: DieCode | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon entry: ``count`` guns of one type sharing fire control and damage.

    ``damage`` is None for a weapon without a damage code (an Interdictor's gravity well);
    ``scale`` is None when the weapon has its mount's scale; ``code`` keeps the [RC]
    abbreviation (TL, QLC …)."""

    name: str
    fire_control: DieCode = ZERO
    damage: DieCode | None = None
    count: int = 1
    kind: WeaponKind = "other"
    scale: Scale | None = None
    arc: str | None = None
    ranges: RangeBands | None = None
    code: str | None = None
    needs_review: bool = False

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ShipError("a weapon needs a name")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ShipError(f"{self.name}: the number of guns must be 1 or more")

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "code": self.code,
            "count": self.count,
            "kind": self.kind,
            "fire_control": str(self.fire_control),
            "damage": _code_text(self.damage),
            "scale": self.scale.key if self.scale is not None else None,
            "arc": self.arc,
            "ranges": self.ranges.to_dict() if self.ranges else None,
            "needs_review": self.needs_review,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weapon:
        return cls(
            name=data["name"],
            fire_control=DieCode.parse(data.get("fire_control") or "0D"),
            damage=_code(data.get("damage")),
            count=data.get("count", 1),
            kind=data.get("kind", "other"),
            scale=Scale.parse(data["scale"]) if data.get("scale") else None,
            arc=data.get("arc"),
            ranges=RangeBands.from_dict(data["ranges"]) if data.get("ranges") else None,
            code=data.get("code"),
            needs_review=data.get("needs_review", False),
        )


@dataclass(frozen=True, slots=True)
class CraftStats:
    """A vehicle's or starship's printed statistics. ``hull`` is the body strength of a
    vehicle. None means the source does not print the value (or the craft lacks it:
    ``hyperdrive`` None = no hyperdrive, ``shields`` None = no shields). ``sublight`` and
    ``speed_code`` are [RC] First Edition codes; ``move``/``kmh``/``space`` are Second
    Edition values. ``source`` is the digest tag (RC, UPG …), ``source_ref`` the place in the
    source text."""

    name: str
    kind: CraftKind
    scale: Scale
    maneuverability: DieCode | None = None
    hull: DieCode | None = None
    shields: DieCode | None = None
    move: int | None = None
    kmh: int | None = None
    space: int | None = None
    sublight: DieCode | None = None
    speed_code: DieCode | None = None
    atmosphere_maneuverability: DieCode | None = None
    hyperdrive: float | None = None
    nav_computer: bool | None = None
    crew_code: DieCode | None = None
    weapons: tuple[Weapon, ...] = ()
    source: str = ""
    source_ref: str = ""
    notes: str = ""
    needs_review: bool = False

    _CODES = (
        "maneuverability",
        "hull",
        "shields",
        "sublight",
        "speed_code",
        "atmosphere_maneuverability",
        "crew_code",
    )

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ShipError("a craft needs a name")
        if self.kind not in ("vehicle", "starship", "capital"):
            raise ShipError(f"{self.name}: kind must be vehicle, starship or capital")
        for name in ("move", "kmh", "space"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or value < 0):
                raise ShipError(f"{self.name}: {name} cannot be negative")
        if self.hyperdrive is not None and self.hyperdrive <= 0:
            raise ShipError(f"{self.name}: a hyperdrive multiplier must be above 0")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind, "scale": self.scale.key}
        for f in dataclasses.fields(self):
            if f.name in data or f.name.startswith("_"):
                continue
            value = getattr(self, f.name)
            if f.name in self._CODES:
                value = _code_text(value)
            elif f.name == "weapons":
                value = [w.to_dict() for w in value]
            data[f.name] = value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CraftStats:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ShipError(f"unknown craft field(s): {', '.join(sorted(unknown))}")
        values = dict(data)
        values["scale"] = Scale.parse(data["scale"])
        for name in cls._CODES:
            values[name] = _code(data.get(name))
        values["weapons"] = tuple(Weapon.from_dict(w) for w in data.get("weapons", ()))
        return cls(**values)


def load_craft(file: Literal["starships", "vehicles"]) -> tuple[CraftStats, ...]:
    """The reference craft in ``rules/data/<file>.json``."""
    if file not in ("starships", "vehicles"):
        raise ShipError("reference craft are in 'starships' or 'vehicles'")
    text = resources.files("rules").joinpath("data", f"{file}.json").read_text(encoding="utf-8")
    document = json.loads(text)
    return tuple(CraftStats.from_dict(entry) for entry in document["craft"])


# ---------------------------------------------------------------------------------------------
# Speeds (movement itself, terrain, fatigue, collisions and ramming: rules.movement)
# ---------------------------------------------------------------------------------------------
def vehicle_kmh(kmh: int, speed: Speed | str, ruleset: RuleSet = RuleSet()) -> Fraction:
    """Km/h at a speed from a Move listing's kmh, which is the all-out speed [UPG] (V5: all-out
    K, high K/2, cruising K/4, cautious K/8); [HOUSE] speeds by the same ratio of Move
    (ambiguity 7: high ¾, fast ½, normal ¼)."""
    if kmh < 0:
        raise ShipError("a speed in km/h cannot be negative")
    return kmh * speed_info(speed, ruleset).multiple / 4


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
class DamageResult:
    """One hit on a vehicle or starship. ``shield_dice_lost`` and ``ionization_dice`` are
    immediate effects; ``lightly``/``heavily``/``severely`` also roll on the 1D tables, except
    an [RC] light result, whose whole effect is the shield die or ionization given here."""

    level: ResultLevel
    margin: int | None = None
    shield_dice_lost: int = 0
    ionization_dice: int = 0
    dead_controls: bool = False
    rc: bool = False


def damage_result(
    damage_roll: int,
    resist_roll: int,
    ruleset: RuleSet = RuleSet(),
    *,
    shield_dice_left: int = 0,
    shields_in_use: bool = False,
    ion: bool = False,
) -> DamageResult:
    """Read the damage chart for a hit on a vehicle or starship.

    2E (``damage_chart = "2e_margin"``): margin of damage over hull/body, bands 0-3 / 4-8 /
    9-12 / 13-15 / 16+ [2E-STD]; 0-3 blows a shield die off a ship with shield dice left,
    otherwise ionizes its controls. [RC] (``rc_multiples``): the starship Damage Summary
    (000 l.1536-1554), reading ">" as "≥" (ambiguity 3) and the "DR < SR" ion cell literally as
    "lose generator" (ambiguity 2); 2 × DR < SR has no effect at all."""
    if damage_roll < 0 or resist_roll < 0:
        raise ShipError("damage and resistance totals cannot be negative")
    if ruleset.damage_chart == "rc_multiples":
        return _rc_damage_result(damage_roll, resist_roll, shield_dice_left, shields_in_use, ion)
    if ion:
        raise ShipError(
            "the Second Edition ion cannon chart is not in Datapad's sources; "
            "the GM resolves ion hits (Rules Companion mode has one)"
        )
    margin = damage_roll - resist_roll
    if margin < 0:
        return DamageResult("none", margin)
    level = next(lvl for low, lvl in DAMAGE_BANDS if margin >= low)
    if level == "controls_ionized" and shield_dice_left > 0:
        return DamageResult("shields_blown", margin, shield_dice_lost=1)
    if level == "controls_ionized":
        return DamageResult("controls_ionized", margin, ionization_dice=1)
    return DamageResult(level, margin)


def _rc_damage_result(
    dr: int, sr: int, shield_dice_left: int, shields_in_use: bool, ion: bool
) -> DamageResult:
    if 2 * dr < sr:
        return DamageResult("none", rc=True)
    multiple = dr // sr if sr > 0 else 3
    if multiple == 0:
        if ion:
            return DamageResult("shields_blown", shield_dice_lost=1, rc=True)
        if shields_in_use and shield_dice_left > 0:
            return DamageResult("lightly", shield_dice_lost=1, rc=True)
        return DamageResult("lightly", ionization_dice=1, rc=True)
    if ion:
        if multiple >= 3:
            return DamageResult("controls_ionized", ionization_dice=3, dead_controls=True, rc=True)
        return DamageResult("controls_ionized", ionization_dice=multiple, rc=True)
    return DamageResult(("heavily", "severely", "destroyed")[min(multiple, 3) - 1], rc=True)


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
    worse = max(current, new, key=_ORDER.index)  # type: ignore[arg-type]
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
        raise ShipError(f"a damage table is read with 1D (1-6), not {die}")
    tables = VEHICLE_EFFECTS if kind == "vehicle" else STARSHIP_EFFECTS
    if level not in tables:
        raise ShipError("only lightly, heavily and severely damaged have 1D tables")
    effect = tables[level][die]
    if kind != "vehicle" and level == "severely" and die == 4:
        if weapons_die is None or not 1 <= weapons_die <= 6:
            raise ShipError("disabled weapons: roll 1D more (1-4 repairable, 5-6 destroyed)")
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


def lost_moves_status(total: int, ruleset: RuleSet = RuleSet()) -> LostMoves:
    """Lost moves add up: -1 no all-out (high speed at most), -2 cruising, -3 cautious, -4 drive
    disabled until repaired, -5 destroyed, or with ``lost_moves_5 = "drive_destroyed"`` the drive
    is destroyed and must be replaced (ambiguity 20). The speed caps, [HOUSE] five speeds
    included, are :func:`rules.movement.speed_cap`'s."""
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        raise ShipError(f"lost moves are a whole number, 0 or more, not {total!r}")
    if total >= 5:
        wrecked = ruleset.lost_moves_5 == "destroyed"
        return LostMoves(total, None, True, drive_destroyed=not wrecked, destroyed=wrecked)
    return LostMoves(total, speed_cap(total, ruleset, mover="vehicle"), drive_disabled=total == 4)


# ---------------------------------------------------------------------------------------------
# Damage state
# ---------------------------------------------------------------------------------------------
HyperdriveState = Literal["ok", "damaged", "heavily_damaged", "disabled"]


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


def _left(code: DieCode | None, lost: int) -> int:
    return 0 if code is None else max(0, code.dice - lost)


def apply_damage_effect(
    state: CraftState, effect: DamageEffect, stats: CraftStats, ruleset: RuleSet = RuleSet()
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
    status = lost_moves_status(moves, ruleset)
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
    result: DamageResult,
    stats: CraftStats,
    rng: DiceSource,
    ruleset: RuleSet = RuleSet(),
    *,
    escalate_vehicles: bool = True,
) -> CraftState:
    """Apply a :func:`damage_result` to a craft: immediate shield or ionization losses, then the
    new damage level (:func:`escalate`) and a 1D roll on a damage table: the table of the result,
    or of the escalated level when escalation made it worse (a heavily damaged ship lightly
    damaged again rolls on the severe table). An [RC] light result has no table; [RC] heavy and
    severe use the [UPG] tables (ambiguity 24)."""
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
    return apply_damage_effect(state, damage_effect(stats.kind, table, die, extra), stats, ruleset)


def dead_controls(controls_ionized: int, maneuverability: DieCode) -> bool:
    """[2E-STD, not in sources; verify_against_rulebook] a ship with as many controls-ionized
    results as its printed maneuverability dice (at least one) has dead controls for the next
    two rounds (ambiguity 6)."""
    return controls_ionized >= max(1, maneuverability.dice)


_IONIZED_2E = ("maneuverability", "shields", "fire_control", "damage")
_STATS = ("maneuverability", "shields", "fire_control", "damage", "hull", "sublight", "speed_code")


def effective_code(
    code: DieCode, stat: str, state: CraftState, ruleset: RuleSet = RuleSet()
) -> DieCode:
    """The die code a damaged, ionized craft rolls for one stat.

    Maneuverability and shields lose the dice the damage tables took. Ionization: 2E, each
    controls-ionized result is -1D to maneuverability, shields, fire control and weapon damage
    [2E-STD, verify_against_rulebook]; [RC] -1D per ionization die to every ship code except
    hull (000 l.1450-1472). Never below 0D; pips are kept."""
    if stat not in _STATS:
        raise ShipError(f"unknown ship stat {stat!r}; choose one of {', '.join(_STATS)}")
    lost = {"maneuverability": state.maneuverability_lost, "shields": state.shield_dice_lost}.get(
        stat, 0
    )
    if ruleset.damage_chart == "rc_multiples":
        ionized = 0 if stat == "hull" else state.controls_ionized
    else:
        ionized = state.controls_ionized if stat in _IONIZED_2E else 0
    return code.minus_dice(lost + ionized)


# ---------------------------------------------------------------------------------------------
# Starship combat: evasion, shielding, missiles [RC]
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FullEvasion:
    """What a pilot's full evasion does to his own ship's crew this round [RC] (000
    l.1395-1411): gunners add the whole evasion roll to their difficulty; any other action aboard
    is +5 (or the roll, if smaller); shielding rolls are -5 (or the roll, if smaller)."""

    attacker_difficulty: int
    own_gunners_difficulty: int
    other_actions_difficulty: int
    shielding_penalty: int


def full_evasion(evasion_roll: int) -> FullEvasion:
    """Full evasion with roll ``evasion_roll`` (V30: 12 -> +12 / +5 / -5; 3 -> +3 / +3 / -3).
    The roll is added to the attacker's difficulty."""
    if evasion_roll < 0:
        raise ShipError("an evasion roll cannot be negative")
    small = min(5, evasion_roll)
    return FullEvasion(evasion_roll, evasion_roll, small, small)


def combat_evasion_difficulty(base_difficulty: int, evasion_roll: int) -> int:
    """A combat evasion works like a combat dodge: the defender uses his piloting + maneuver roll
    or the original difficulty, whichever he prefers (the higher) [RC] (V10: 18 vs 6 -> 18)."""
    return max(base_difficulty, evasion_roll)


def shield_number(difficulty: int, shields_roll: int) -> int:
    """Attacker's difficulty (base or evasion) + the shields roll [RC] (V10: 18 + 16 = 34)."""
    return difficulty + shields_roll


def shielded_hit(
    attack_roll: int, difficulty: int, shields: int | None = None
) -> Literal["miss", "shields", "hull"]:
    """Where an attack lands [RC] (V10): below the difficulty a miss; from the difficulty up to
    below the shield number a hit with the shield dice added to the hull roll; at or above the
    shield number (or with no shielding roll, ``shields`` None) a hit on the hull alone."""
    if attack_roll < difficulty:
        return "miss"
    if shields is not None and attack_roll < shields:
        return "shields"
    return "hull"


def resistance_code(
    hull: DieCode, shields: DieCode | None, hit: Literal["shields", "hull"], *, ion: bool = False
) -> DieCode:
    """The code rolled to resist a hit: hull, plus the shield dice when the shields held [RC];
    ion cannons are resisted by the hull alone, whatever the shields (000 l.1476-1485)."""
    if hit == "shields" and shields is not None and not ion:
        return hull.pool_add(shields)
    return hull


def missile_difficulty_dice(target_speed_actions: int) -> DieCode:
    """Missiles and torpedoes: +1D to the difficulty for each speed action the target ship is
    taking [RC] (000 l.1489-1497); it costs the target's pilot nothing (V32: 3 actions -> +3D,
    rolled and added to the difficulty, ambiguity 10)."""
    if target_speed_actions < 0:
        raise ShipError("speed actions cannot be negative")
    return DieCode(target_speed_actions)


def missile_difficulty(base: int, target_speed_actions: int, rng: DiceSource) -> int:
    """Roll the missile dice (no Wild Die: a difficulty roll) and add them to ``base``."""
    dice = missile_difficulty_dice(target_speed_actions).dice
    return base + sum(rng.d6() for _ in range(dice))


# ---------------------------------------------------------------------------------------------
# Tractor beams
# ---------------------------------------------------------------------------------------------
#: A captured ship that does not resist is reeled in five space units a round [UPG].
TRACTOR_UNRESISTED_UNITS = 5
#: [UPG] margin of the beam's roll over the hull roll -> (space units reeled in, Moves lost).
TRACTOR_BANDS: tuple[tuple[int, int, int], ...] = (
    (16, 4, 4),
    (13, 3, 3),
    (9, 2, 2),
    (4, 1, 1),
    (0, 0, 0),
)


@dataclass(frozen=True, slots=True)
class TractorResult:
    """A resisting ship's round in a tractor beam: free, or held and reeled in."""

    broke_free: bool
    units_reeled: int = 0
    moves_lost: int = 0


def tractor_beam(beam_roll: int, hull_roll: int) -> TractorResult:
    """[UPG]: the beam's damage roll against the hull roll. Hull higher: free. Otherwise by the
    margin: 0-3 held, no change (V23, ambiguity 11); 4-8 one unit and -1 Move; 9-12 two and -2;
    13-15 three and -3; 16+ four and -4 (V22, V27)."""
    if beam_roll < hull_roll:
        return TractorResult(broke_free=True)
    margin = beam_roll - hull_roll
    units, moves = next((u, m) for low, u, m in TRACTOR_BANDS if margin >= low)
    return TractorResult(False, units, moves)


def rc_tractor_escape_code(sublight: DieCode, successful_overspeeds: int = 0) -> DieCode:
    """[RC]: the trapped ship rolls its sublight code against the beam's Strength, +1D for each
    successful overspeed action (for this opposed roll only)."""
    if successful_overspeeds < 0:
        raise ShipError("overspeed actions cannot be negative")
    return sublight.pool_add(DieCode(successful_overspeeds))


def rc_tractor_breaks_free(sublight_roll: int, beam_roll: int) -> bool:
    """[RC]: free only if the sublight roll is larger than the beam's Strength roll."""
    return sublight_roll > beam_roll


# ---------------------------------------------------------------------------------------------
# Astrogation
# ---------------------------------------------------------------------------------------------
AstrogationSituation = Literal[
    "known_route", "emergency", "known_systems", "new_destination", "lost"
]
#: Calculation times in minutes [UPG] (001 l.508-512); None = "a few hours", the GM decides;
#: an emergency jump takes one round (5 seconds).
ASTROGATION_MINUTES: dict[str, Fraction | None] = {
    "known_route": Fraction(1),
    "emergency": Fraction(1, 12),
    "known_systems": Fraction(30),
    "new_destination": None,
    "lost": Fraction(24 * 60),
}


def astrogation_minutes(
    situation: AstrogationSituation, hyperdrive: HyperdriveState = "ok"
) -> Fraction | None:
    """Time to calculate a jump [UPG]; a lightly damaged hyperdrive doubles it."""
    if situation not in ASTROGATION_MINUTES:
        raise ShipError(f"unknown astrogation situation {situation!r}")
    if hyperdrive == "disabled":
        raise ShipError("the hyperdrives are disabled: no jump until they are repaired")
    minutes = ASTROGATION_MINUTES[situation]
    if minutes is None or hyperdrive != "damaged" or situation == "emergency":
        return minutes
    return minutes * 2


def astrogation_difficulty(
    base: int, *, emergency: bool = False, hyperdrive: HyperdriveState = "ok"
) -> int:
    """Astrogation difficulty after [UPG] modifiers: an emergency (one-round) jump doubles it;
    a lightly damaged hyperdrive adds +10 to a one-round jump (after doubling, ambiguity 9); a
    heavily damaged one +10 to every jump; disabled hyperdrives allow none."""
    if base < 0:
        raise ShipError("a difficulty cannot be negative")
    if hyperdrive == "disabled":
        raise ShipError("the hyperdrives are disabled: no jump until they are repaired")
    difficulty = base * 2 if emergency else base
    if hyperdrive == "heavily_damaged" or (hyperdrive == "damaged" and emergency):
        difficulty += 10
    return difficulty


def rc_astrogation_difficulty(base: int, listed_hours: int, planned_hours: int) -> int:
    """[RC]: +1 per hour saved from the listed duration, -1 per extra hour; no trip is shorter
    than one hour (000 l.1312-1328). Without a nav computer a standard trip is Very Difficult."""
    if planned_hours < 1:
        raise ShipError("no hyperspace trip takes less than one hour")
    return base + listed_hours - planned_hours


def hyperspace_travel_time(base: Fraction | int, multiplier: float) -> Fraction:
    """Trip time = base duration × hyperdrive multiplier. An assumption: the sources treat the
    multiplier as a ship stat but do not print the formula (ambiguity 12)."""
    if multiplier <= 0:
        raise ShipError("this ship has no working hyperdrive")
    return Fraction(base) * Fraction(multiplier).limit_denominator(4)


# ---------------------------------------------------------------------------------------------
# Weapon ranges [RC] "Additional Weapons Chart" (000 l.1268-1301)
# ---------------------------------------------------------------------------------------------
def _bands(short: tuple[int, int], medium=None, long=None, review: bool = False) -> RangeBands:
    return RangeBands(short, medium, long, review)


RC_WEAPON_RANGES: dict[tuple[str, str], RangeBands] = {
    ("speeder", "light"): _bands((50, 300), (301, 500), (501, 1000)),
    ("speeder", "medium"): _bands((50, 300), (301, 800), (801, 1500)),
    ("speeder", "heavy"): _bands((50, 400), (401, 900), (901, 2000)),
    ("artillery", "light"): _bands((10, 500), (501, 2000), (2001, 10000)),
    ("artillery", "medium"): _bands((20, 600), (601, 3000), (3001, 16000)),
    ("artillery", "heavy"): _bands((50, 600), (601, 5000), (5001, 25000)),
    ("starfighter", "blaster"): _bands((200, 10000), (10001, 20000), (20001, 35000)),
    # printed "2504,000" (ambiguity 13)
    ("starfighter", "missile"): _bands((250, 4000), (4001, 17000), (17001, 30000), True),
    ("starfighter", "laser"): _bands((200, 5000), (5001, 25000), (25001, 50000)),
    # printed "5-5,000"; long 75,000 looks too long (ambiguity 13)
    ("starfighter", "ion"): _bands((5, 5000), (5001, 15000), (15001, 75000), True),
    # only one band printed: the whole usable range
    ("starfighter", "torpedo"): _bands((500, 15000), None, None, True),
    # medium printed "25,001-60,500" against long "60,001-"
    ("capital", "missile"): _bands((3000, 25000), (25001, 60500), (60001, 125000), True),
    ("capital", "turbolaser"): _bands((5000, 30000), (30001, 70000), (70001, 150000)),
    ("capital", "ion"): _bands((2000, 20000), (20001, 50000), (50001, 100000)),
    ("capital", "tractor"): _bands((1000, 10000), (10001, 30000), (30001, 60000)),
}


def weapon_class(damage: DieCode) -> Literal["light", "medium", "heavy"]:
    """Speeder-mounted and artillery weapons are classed by damage: 1D-2D+ light, 3D-4D+
    medium, 5D+ heavy [RC] (V21: a 1D+2 cloud car cannon is light)."""
    if damage.dice >= 5:
        return "heavy"
    return "medium" if damage.dice >= 3 else "light"


def rc_weapon_ranges(mount: str, weapon: str | DieCode) -> RangeBands:
    """Ranges for a mount (speeder, artillery, starfighter, capital) and a weapon type, or for
    speeder and artillery weapons their damage code."""
    kind = weapon_class(weapon) if isinstance(weapon, DieCode) else weapon
    try:
        return RC_WEAPON_RANGES[(mount, kind)]
    except KeyError:
        raise ShipError(f"the Rules Companion prints no ranges for a {mount} {kind}") from None


# ---------------------------------------------------------------------------------------------
# Star Warriors export [RC] (000 l.1808-1905)
# ---------------------------------------------------------------------------------------------
SWR_SPEED_FIELDS = (
    "speed_max",
    "overspeed",
    "accelerate",
    "over_accelerate",
    "decelerate",
    "over_decelerate",
)
#: Sublight code (1D … 10D, by pips from 3) -> Star Warriors speed values; None = unreadable.
SWR_SPEED: dict[int, tuple[int | None, ...]] = {
    3: (2, 8, 5, 12, 5, 14),
    4: (2, 7, 4, 11, 5, 13),
    5: (3, 7, 4, 11, 5, 13),
    6: (3, 7, 4, 10, 4, 12),
    7: (4, 6, 4, 10, 4, 12),
    8: (4, 6, 3, 9, 4, 11),
    9: (5, 6, 3, 9, 4, 10),
    10: (5, 5, 3, 8, 3, 10),
    11: (6, 5, 3, 8, 3, 9),
    12: (6, 5, 2, 7, 3, 9),
    13: (7, 4, 2, 7, 3, 8),
    14: (7, 4, 2, 6, 2, 8),
    15: (8, 4, 2, 6, 2, 7),
    16: (8, 3, 1, 5, 2, 6),
    17: (None, 3, 1, 5, 2, 6),
    18: (9, 3, 1, 4, 1, 5),
    19: (9, 2, 1, 4, 1, 5),
    20: (10, 2, 1, 3, 1, 4),
    21: (10, 2, 1, 3, 1, 3),
    22: (11, 1, 1, 2, 1, 3),
    23: (11, 1, 1, 2, 1, 2),
    24: (12, 1, 1, 1, 1, 2),
    25: (12, 1, 1, 1, 1, 1),
    26: (13, 1, 1, 1, 1, 1),
    27: (13, 1, 1, 1, 1, 1),
    28: (14, 1, 1, 1, 1, 1),
    29: (14, 1, 1, 1, 1, 1),
    30: (15, 1, 1, 1, 1, 1),
}
#: Long Shot offsets, the only ones the OCR keeps (000 l.1845-1856).
SWR_LONG_SHOT_OFFSETS = (2, 2, 2, -1, 4, 4)


def star_warriors_speed(
    sublight: DieCode, offsets: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
) -> dict[str, int | None]:
    """Star Warriors speed values for a sublight code, plus a ship's offsets (V18: 4D+1 ->
    7/4/2/7/3/8; V19: the Long Shot at 3D+2 -> 8/7/5/7/7/13)."""
    if sublight.total_pips not in SWR_SPEED or not sublight.is_standard:
        raise ShipError("the Star Warriors speed chart covers sublight 1D to 10D")
    if len(offsets) != len(SWR_SPEED_FIELDS):
        raise ShipError("give one offset for each of the six speed values")
    base = SWR_SPEED[sublight.total_pips]
    return {
        name: None if value is None else value + offset
        for name, value, offset in zip(SWR_SPEED_FIELDS, base, offsets, strict=True)
    }
