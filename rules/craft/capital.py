"""Capital ship combat, the Rules Companion's option ([RC] 000 l.2880-3720; capital-ships.md):
crew quality, the Guns Modifier Chart, attack and damage pools, advanced targeting, and damage
in pips (the Capital Ship Damage Summary Chart) recorded on a ship's template
(:class:`CapitalState`, stored between steps with ``to_json``/``from_json``). Counter-battery
fire, swarms, command, facing, shields and ramming are :mod:`rules.craft.capital_tactics`.

In the baseline rules ([UPG]/[WIKI]) capital ships are ordinary starships of capital scale:
use :mod:`rules.craft.damage` for them. Pools follow the [RC] rule that pips never turn into
dice in play: 2D + 2D+1 + 4D+2 is rolled as 8D+3 (27 pips either way).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self

from rules._stored import Reader
from rules.craft._common import CraftError
from rules.craft.stats import CraftStats, load_craft
from rules.dice import DieCode
from rules.scale import RC_MANEUVER_CAPS, Scale

__all__ = [
    "ADVANCED_TARGETING",
    "CREW_CODES",
    "DEFAULT_CREW_QUALITY",
    "GUNS_MODIFIER_CHART",
    "AttackPools",
    "CapitalDamage",
    "CapitalState",
    "CrewQuality",
    "ShipDamageStatus",
    "Side",
    "TargetName",
    "Targeting",
    "apply_capital_damage",
    "attack_pools",
    "capital_damage",
    "capital_die_cap",
    "capital_ships",
    "coordinated_guns",
    "crew_code_range",
    "crew_quality",
    "guns_modifier",
    "reduce_by_pips",
    "ship_code",
    "ship_damage_status",
    "targeting",
]

# ---------------------------------------------------------------------------------------------
# Crew quality (000 l.2938-2946)
# ---------------------------------------------------------------------------------------------
CrewQuality = Literal["recruit", "average", "veteran", "elite", "hand_picked_elite"]
Side = Literal["imperial", "rebel"]
#: Assume average crews where an adventure does not say [RC].
DEFAULT_CREW_QUALITY: CrewQuality = "average"
#: (lowest, highest) crew code; None = "to PCs" (no upper limit).
CREW_CODES: dict[Side, dict[CrewQuality, tuple[str, str | None]]] = {
    "imperial": {
        "recruit": ("3D", "3D"),
        "average": ("3D+1", "4D"),
        "veteran": ("4D+1", "5D+2"),
        "elite": ("6D", "6D+2"),
        "hand_picked_elite": ("7D", "8D"),
    },
    "rebel": {
        "recruit": ("2D", "3D+2"),
        "average": ("4D", "5D"),
        "veteran": ("5D+1", "6D"),
        "elite": ("6D+1", "7D"),
        "hand_picked_elite": ("7D+1", None),
    },
}


def _side(side: str) -> Side:
    if side not in CREW_CODES:
        raise CraftError("crew codes are listed for 'imperial' and 'rebel' crews")
    return side


def crew_code_range(quality: CrewQuality, side: Side) -> tuple[DieCode, DieCode | None]:
    """The crew codes of a quality: Imperial average 3D+1 to 4D; Rebel hand-picked elite 7D+1
    up to player-character level (None)."""
    table = CREW_CODES[_side(side)]
    if quality not in table:
        raise CraftError(f"unknown crew quality {quality!r}; choose one of {', '.join(table)}")
    low, high = table[quality]
    return DieCode.parse(low), None if high is None else DieCode.parse(high)


def crew_quality(code: DieCode, side: Side) -> CrewQuality | None:
    """The quality a crew code belongs to, or None below the recruit range (an Imperial crew
    above 8D is counted hand-picked elite)."""
    found: CrewQuality | None = None
    for quality, (low, _) in CREW_CODES[_side(side)].items():
        if code.total_pips >= DieCode.parse(low).total_pips:
            found = quality
    return found


# ---------------------------------------------------------------------------------------------
# Guns, attacks and targeting (000 l.3132-3195, 3520-3610)
# ---------------------------------------------------------------------------------------------
#: Guns Modifier Chart: guns firing -> to-hit and damage modifier [RC].
GUNS_MODIFIER_CHART: tuple[tuple[int, str], ...] = (
    (1, "0D"),
    (2, "+2"),
    (3, "1D"),
    (4, "1D+1"),
    (6, "1D+2"),
    (8, "2D"),
    (12, "2D+1"),
    (16, "2D+2"),
    (24, "3D"),
    (32, "3D+1"),
    (48, "3D+2"),
    (60, "4D"),
    (90, "4D+1"),
    (120, "4D+2"),
    (180, "5D"),
    (250, "5D+1"),
)


def guns_modifier(guns: int) -> DieCode:
    """The chart row for a number of guns (or swarming starfighters); counts between rows use
    the highest row not above them, and more than 250 stay at +5D+1 (ambiguity 1)."""
    if isinstance(guns, bool) or not isinstance(guns, int) or guns < 1:
        raise CraftError("at least one gun must fire")
    return DieCode.parse(next(mod for count, mod in reversed(GUNS_MODIFIER_CHART) if guns >= count))


def reduce_by_pips(code: DieCode, pips: int) -> DieCode:
    """Take ``pips`` off a pool, whole dice first and then pips, borrowing a die when the pips
    run out, never below 0D: 8D+3 less 4 pips is 7D+2 (CS-20)."""
    if pips < 0:
        raise CraftError("a reduction cannot be negative")
    dice, rest = divmod(pips, 3)
    left_dice, left_pips = code.dice - dice, code.pips - rest
    while left_pips < 0 and left_dice > 0:
        left_dice, left_pips = left_dice - 1, left_pips + 3
    if left_dice < 0 or left_pips < 0:
        return DieCode.from_pips(max(0, code.total_pips - pips))
    return DieCode(left_dice, left_pips)


def _apply(code: DieCode, modifier: DieCode) -> DieCode:
    if modifier.total_pips >= 0:
        return code.pool_add(modifier)
    return reduce_by_pips(code, -modifier.total_pips)


TargetName = Literal[
    "hull", "sublight", "maneuver", "fire_control", "weapon_beam", "weapon_missile", "command"
]
#: Advanced Targeting Chart: target -> (hit modifier, damage modifier, damage modifier only if
#: the shields were penetrated or are blown) [RC].
ADVANCED_TARGETING: dict[str, tuple[str, str, bool]] = {
    "hull": ("0D", "0D", False),
    "sublight": ("-2D", "0D", False),
    "maneuver": ("-3D", "+1D", True),
    "fire_control": ("-4D", "+2D", True),
    "weapon_beam": ("-3D", "0D", False),
    "weapon_missile": ("-2D", "-1D", False),
    "command": ("-4D", "0D", False),
}


@dataclass(frozen=True, slots=True)
class Targeting:
    """Modifiers for an aimed attack. ``hull_penalty`` comes off the target's hull roll
    (vital locations, cumulative); the damage modifier needs penetrated or blown shields when
    ``damage_needs_penetration``; pips go on ``target``'s own row."""

    target: TargetName
    hit: DieCode
    damage: DieCode
    damage_needs_penetration: bool
    hull_penalty: DieCode


def targeting(target: TargetName = "hull", vital_locations: int = 0) -> Targeting:
    """An attack on a part of a ship, optionally at ``vital_locations`` (each -2D to hit and
    -1D to the target's hull roll). CS-6: hull, triple vital location -> -6D to hit, hull -3D;
    CS-7: sublight engines + vital location -> -4D, hull -1D."""
    if target not in ADVANCED_TARGETING:
        raise CraftError(
            f"unknown target {target!r}; choose one of {', '.join(ADVANCED_TARGETING)}"
        )
    if vital_locations < 0:
        raise CraftError("vital location attacks cannot be negative")
    hit, damage, needs = ADVANCED_TARGETING[target]
    return Targeting(
        target=target,
        hit=DieCode(DieCode.parse(hit).dice - 2 * vital_locations),
        damage=DieCode.parse(damage),
        damage_needs_penetration=needs,
        hull_penalty=DieCode(vital_locations),
    )


@dataclass(frozen=True, slots=True)
class AttackPools:
    """The dice a weapon group rolls to hit and for damage."""

    to_hit: DieCode
    damage: DieCode


def attack_pools(
    fire_control: DieCode,
    damage: DieCode,
    guns: int,
    crew: DieCode,
    *,
    coordinated_guns: int | None = None,
    aim: Targeting | None = None,
    shields_down: bool = True,
    ship_damage_pips: int = 0,
    ship_damage_reduces_weapon_damage: bool = False,
) -> AttackPools:
    """To hit = fire control + guns modifier + crew code; damage = damage + guns modifier; the
    crew code never adds to damage [RC]. ``coordinated_guns`` (all guns of the coordinated
    ships) sets the to-hit modifier only (CS-17). Targeting adjusts both; its damage bonus
    needs ``shields_down`` (penetrated or blown) where marked. Ship Damage pips reduce the
    to-hit roll; weapon damage only with ``ship_damage_reduces_weapon_damage`` (ambiguity 18).
    CS-1: FC 2D, 4D, 12 guns, crew 4D+2 -> 8D+3 to hit, 6D+1 damage."""
    if coordinated_guns is not None and coordinated_guns < guns:
        raise CraftError("coordinated guns include this ship's own guns")
    to_hit = fire_control.pool_add(guns_modifier(coordinated_guns or guns)).pool_add(crew)
    dealt = damage.pool_add(guns_modifier(guns))
    if aim is not None:
        to_hit = _apply(to_hit, aim.hit)
        if shields_down or not aim.damage_needs_penetration:
            dealt = _apply(dealt, aim.damage)
    to_hit = reduce_by_pips(to_hit, ship_damage_pips)
    if ship_damage_reduces_weapon_damage:
        dealt = reduce_by_pips(dealt, ship_damage_pips)
    return AttackPools(to_hit, dealt)


def coordinated_guns(groups: Sequence[tuple[int, bool]]) -> int:
    """Guns of coordinated ships, as (guns, is_ion) per ship, added for the to-hit modifier
    only; ion and non-ion attacks cannot be coordinated. Each ship beyond the first costs the
    commander one coordination action (CS-17: 12 + 12 turbolasers -> 24 -> +3D)."""
    if not groups:
        raise CraftError("name the ships whose attacks are coordinated")
    if len({ion for _, ion in groups}) > 1:
        raise CraftError("ion and non-ion attacks cannot be coordinated into one attack")
    return sum(guns for guns, _ in groups)


def capital_die_cap(
    opponent: Scale | str, roll: Literal["maneuver", "shields"] = "maneuver"
) -> int:
    """A capital ship's die cap for evasion (maneuver) and shielding against a smaller craft:
    5 against starfighters, dice showing 6 are dropped (CS-16). Shielding is capped like
    maneuver [RC]."""
    if roll not in ("maneuver", "shields"):
        raise CraftError("capital ship die caps apply to maneuver and shields rolls")
    cap = RC_MANEUVER_CAPS[Scale.CAPITAL][Scale.parse(opponent)]
    assert cap is not None
    return cap


# ---------------------------------------------------------------------------------------------
# Damage in pips (000 l.3197-3260)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CapitalDamage:
    """A Damage Summary result: pips of damage, a shield pip, or dice of ionization."""

    pips: int = 0
    shield_pips: int = 0
    ion_dice: int = 0


def capital_damage(damage_roll: int, hull_roll: int, *, ion: bool = False) -> CapitalDamage:
    """Capital Ship Damage Summary Chart [RC]: 2 × DR < HR no effect; DR < HR one shield pip
    (ion: nothing); DR ≥ k × HR: k pips (ion: kD), up to 9. CS-9: 40 vs 10 -> 4 pips; CS-10:
    ion 40 vs 10 -> 4D; CS-11: 8 vs 12 -> 1 shield pip; CS-12: 5 vs 12 -> nothing."""
    if damage_roll < 0 or hull_roll < 0:
        raise CraftError("damage and hull totals cannot be negative")
    if 2 * damage_roll < hull_roll:
        return CapitalDamage()
    multiple = 9 if hull_roll == 0 else min(9, damage_roll // hull_roll)
    if multiple == 0:
        return CapitalDamage() if ion else CapitalDamage(shield_pips=1)
    return CapitalDamage(ion_dice=multiple) if ion else CapitalDamage(pips=multiple)


@dataclass(frozen=True, slots=True)
class ShipDamageStatus:
    """What the Ship Damage row means: every pip is -1 pip to all the ship's operations."""

    pips: int
    penalty: DieCode
    level: Literal["none", "damaged", "heavily", "severely", "destroyed"]


def ship_damage_status(pips: int) -> ShipDamageStatus:
    """3 pips heavily damaged (-1D), 6 severely damaged (-2D), the 9th pip destroys (CS-8)."""
    if pips < 0:
        raise CraftError("ship damage cannot be negative")
    levels = ("none", "damaged", "damaged", "heavily", "heavily", "heavily", "severely")
    level = "destroyed" if pips >= 9 else levels[min(pips, 6)]
    return ShipDamageStatus(pips, DieCode.from_pips(min(pips, 9)), level)  # type: ignore[arg-type]


def ship_code(
    code: DieCode,
    ship_damage_pips: int = 0,
    ionization_dice: int = 0,
    *,
    roll: Literal["action", "hull", "weapon_damage"] = "action",
    ship_damage_reduces_weapon_damage: bool = False,
) -> DieCode:
    """The code a damaged, ionized capital ship rolls. Ship Damage pips reduce every action
    (to hit, evasion, shields, movement, command) but never the hull roll, and weapon damage
    only with ``ship_damage_reduces_weapon_damage`` (ambiguity 18). Ionization (whole dice)
    reduces every ship code except hull (000 l.1450-1472)."""
    if roll == "hull":
        return code
    damage = (
        0 if roll == "weapon_damage" and not ship_damage_reduces_weapon_damage else ship_damage_pips
    )
    return reduce_by_pips(code, damage + 3 * ionization_dice)


@dataclass(frozen=True, slots=True)
class CapitalState:
    """Damage rows of a capital ship's template, in pips (ionization in dice, for next round)."""

    ship_damage: int = 0
    shield_pips_lost: int = 0
    sublight: int = 0
    maneuver: int = 0
    fire_control: int = 0
    command: int = 0
    ionization: int = 0

    @property
    def destroyed(self) -> bool:
        return self.ship_damage >= 9

    def to_json(self) -> dict[str, Any]:
        """The template's rows as JSON-safe data, for an app to store between steps."""
        return {name: getattr(self, name) for name in _ROWS}

    @classmethod
    def from_json(cls, data: object) -> Self:
        """A state stored by :meth:`to_json`; a :class:`CraftError` for anything else."""
        read = Reader(data, "capital ship damage state", _ROWS, CraftError)
        return cls(**{name: read.integer(name, least=0) for name in _ROWS})


_ROWS = tuple(CapitalState.__dataclass_fields__)


_SYSTEM_ROWS = {
    "sublight": "sublight",
    "maneuver": "maneuver",
    "fire_control": "fire_control",
    "command": "command",
}


def apply_capital_damage(
    state: CapitalState,
    result: CapitalDamage,
    shields: DieCode | None,
    *,
    shields_held: bool = False,
    target: TargetName = "hull",
) -> CapitalState:
    """Record a result on the template [RC]. Ion dice go to ionization. A shield pip comes off
    the shields while any remain. On a hit the shields held (``shields_held``) the pips come off
    the remaining shields, the rest going on to the target (ambiguity 5: one shield code).
    Pips on a targeted system go on its own row; all others on Ship Damage. Counter-battery
    fire at weapons is :func:`counter_battery`."""
    if target in ("weapon_beam", "weapon_missile"):
        raise CraftError("damage to weapons is spread over the targeted guns: use counter_battery")
    shields_left = max(0, (shields.total_pips if shields else 0) - state.shield_pips_lost)
    to_shields = min(shields_left, result.shield_pips)
    pips = result.pips
    if shields_held:
        absorbed = min(shields_left - to_shields, pips)
        to_shields, pips = to_shields + absorbed, pips - absorbed
    row = _SYSTEM_ROWS.get(target, "ship_damage")
    values = {
        "ship_damage": state.ship_damage,
        "sublight": state.sublight,
        "maneuver": state.maneuver,
        "fire_control": state.fire_control,
        "command": state.command,
    }
    values[row] += pips
    return CapitalState(
        shield_pips_lost=state.shield_pips_lost + to_shields,
        ionization=state.ionization + result.ion_dice,
        **values,
    )


# ---------------------------------------------------------------------------------------------
# Reference data
# ---------------------------------------------------------------------------------------------
def capital_ships() -> tuple[CraftStats, ...]:
    """The [RC] capital ship statistics (capital-ships.md §12) from ``rules/data``."""
    return tuple(craft for craft in load_craft("starships") if craft.kind == "capital")
