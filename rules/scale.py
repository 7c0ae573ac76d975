"""Scale: the six scales from character to Death Star, and what scale does to an attack.

Shared by character combat (:mod:`rules.combat`) and vehicles and starships (:mod:`rules.craft`),
so neither has to import the other. Two models, chosen by ``RuleSet.scale_mode``: scale
modifiers in dice ([UPG]/[WIKI] and [HOUSE]: :func:`scale_modifier`, :func:`adjusted_modifier`,
:func:`scale_adjustment`) or the [RC] die caps (the To Hit, Maneuver and Damage charts:
:data:`RC_TO_HIT_CAPS`, :data:`RC_MANEUVER_CAPS`, :data:`RC_DAMAGE_CAPS`, :func:`die_cap_total`,
:func:`apply_die_cap`). See ``combat.md`` §6 and ``vehicles-and-starships.md`` §3.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from rules.dice import DieCode, Roll
from rules.errors import RulesError
from rules.ruleset import RuleSet

__all__ = [
    "RC_DAMAGE_CAPS",
    "RC_MANEUVER_CAPS",
    "RC_TO_HIT_CAPS",
    "SCALE_MODIFIERS",
    "Scale",
    "ScaleAdjustment",
    "ScaleError",
    "adjusted_modifier",
    "apply_die_cap",
    "die_cap_total",
    "scale_adjustment",
    "scale_modifier",
]

ZERO = DieCode()


class ScaleError(RulesError):
    """A scale question that cannot be answered as asked (unknown scale, impossible cap)."""


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
            raise ScaleError(f"a scale is a name such as 'speeder', not {value!r}")
        text = value.strip().lower().replace("-", " ").replace("_", " ")
        if text in _SCALE_ALIASES:
            return _SCALE_ALIASES[text]
        names = ", ".join(s.key for s in cls)
        raise ScaleError(f"unknown scale {value!r}; choose one of {names}")


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


def scale_modifier(scale: Scale | str, *, ruleset: RuleSet) -> DieCode:
    """A scale's modifier: starfighter 6D [UPG], 8D [HOUSE]. [RC] has die caps instead."""
    if ruleset.scale_mode == "rc_die_caps":
        raise ScaleError("the Rules Companion uses die caps, not scale modifiers")
    return DieCode(SCALE_MODIFIERS[ruleset.scale_mode][Scale.parse(scale)])


def adjusted_modifier(first: Scale | str, second: Scale | str, *, ruleset: RuleSet) -> DieCode:
    """The difference between two scales' modifiers ([UPG] "adjusted modifier"); 0D at the
    same scale. Landspeeder vs AT-AT: 2D (V1)."""
    a = scale_modifier(first, ruleset=ruleset)
    b = scale_modifier(second, ruleset=ruleset)
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
    attacker: Scale | str, target: Scale | str, *, ruleset: RuleSet
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
    adjusted = adjusted_modifier(a, t, ruleset=ruleset)
    if a < t:
        return ScaleAdjustment(attack_bonus=adjusted, resist_bonus=adjusted)
    if a > t:
        return ScaleAdjustment(dodge_bonus=adjusted, damage_bonus=adjusted)
    return ScaleAdjustment()


def _check_cap(cap: int | None) -> int:
    if cap is None:
        raise ScaleError("this action is not possible at these scales (the chart shows '—')")
    if not 1 <= cap <= 6:
        raise ScaleError(f"a die cap is a face from 1 to 6, not {cap}")
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
