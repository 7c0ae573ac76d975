"""Damage: armour, the resistance roll, the damage roll and the damage chart (combat.md §5,
injuries-and-healing.md §1).

The chart answers with a :class:`~rules.injuries.WoundLevel` in a :class:`DamageResult`; what
that does to a character (the wound ladder, stun) is in :mod:`rules.injuries`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, Self

from rules.combat.actions import CombatError, _bool, _code, _fields, _int
from rules.combat.attack import RangeBand, _band
from rules.dice import DieCode
from rules.injuries import Duration, WoundLevel
from rules.ruleset import RuleSet

__all__ = [
    "Armour",
    "DamageResult",
    "damage_code",
    "damage_result",
    "resistance_code",
    "wound_level",
]

NO_DICE = DieCode()


# ---------------------------------------------------------------------------------------------
# Damage and resistance (combat.md §5)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Armour:
    """[2E-STD] armour dice added to Strength against damage, by kind of attack, and the
    Dexterity penalty for wearing it."""

    physical: DieCode = NO_DICE
    energy: DieCode = NO_DICE
    dexterity_penalty: DieCode = NO_DICE

    def __post_init__(self) -> None:
        for name in ("physical", "energy", "dexterity_penalty"):
            if not isinstance(getattr(self, name), DieCode):
                raise CombatError(f"armour's {name} is a DieCode")

    def to_json(self) -> dict[str, Any]:
        return {
            "physical": str(self.physical),
            "energy": str(self.energy),
            "dexterity_penalty": str(self.dexterity_penalty),
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = ("physical", "energy", "dexterity_penalty")
        fields = _fields(data, "armour", required=(), optional=keys)
        return cls(*(_code(fields.get(k, "0D"), f"armour's {k}") for k in keys))

    @classmethod
    def uniform(cls, code: DieCode | str) -> Armour:
        """The same protection against every attack ([HOUSE] "+2D armour", [RC] "+1D armor")."""
        code = DieCode.parse(code)
        return cls(code, code)


def resistance_code(
    strength: DieCode | str,
    armour: Armour | DieCode | str | None = None,
    *,
    attack: Literal["physical", "energy"] = "energy",
    scale_bonus: DieCode | str | None = None,
    penalty_dice: int = 0,
) -> DieCode:
    """The Strength roll against damage: Strength plus armour ([HOUSE §10] "if allowed") plus
    the scale modifier where the target is the higher scale. No wound, stun or multiple-action
    penalty ([WIKI], CA-11); ``penalty_dice`` only for explicit effects such as the [HOUSE]
    critical "Internal Bruising" (-2D)."""
    code = DieCode.parse(strength)
    if isinstance(armour, Armour):
        code = code.pool_add(armour.energy if attack == "energy" else armour.physical)
    elif armour is not None:
        code = code.pool_add(armour)
    if scale_bonus is not None:
        code = code.pool_add(scale_bonus)
    if penalty_dice < 0:
        raise CombatError("penalty dice cannot be negative")
    return code.minus_dice(penalty_dice)


_STR_DAMAGE = re.compile(r"^\s*STR\s*(?P<mod>[+-].*)?$", re.IGNORECASE)


def damage_code(
    weapon_damage: DieCode | str,
    *,
    strength: DieCode | str | None = None,
    bonuses: Iterable[DieCode | str] = (),
) -> DieCode:
    """The damage roll: the weapon's code, or ``STR+1D`` style melee damage (brawling is plain
    ``STR``) [2E-STD] [RC], plus bonuses (combined-action share, scale, [HOUSE] called shot).
    The multiple-action penalty never applies to damage [WIKI]."""
    if isinstance(weapon_damage, str) and (m := _STR_DAMAGE.match(weapon_damage)):
        if strength is None:
            raise CombatError(f"{weapon_damage!r} needs the wielder's Strength")
        base = DieCode.parse(strength).pool_add(m["mod"] or DieCode())
        base = DieCode(max(0, base.dice), base.pips)
    else:
        base = DieCode.parse(weapon_damage)
    for bonus in bonuses:
        base = base.pool_add(bonus)
    return base


@dataclass(frozen=True, slots=True)
class DamageResult:
    """What one hit does: the wound level it inflicts (``stunned`` for a stun), the stun points
    it gives, and a knock-out for stun weapons. ``needs_gm``: a [HOUSE §10] short or point-blank
    hit whose Strength roll beat the damage roll; the GM lowers the result by hand (CA-14)."""

    level: WoundLevel
    margin: int
    stun_points: int = 0
    unconscious_for: Duration | None = None
    needs_gm: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.level, WoundLevel):
            raise CombatError("a damage result's level is a WoundLevel")
        _int(self.margin, "a damage result's margin")
        if _int(self.stun_points, "stun points") < 0:
            raise CombatError("stun points cannot be negative")
        if self.unconscious_for is not None and not isinstance(self.unconscious_for, Duration):
            raise CombatError("a damage result's knock-out length is a Duration")
        _bool(self.needs_gm, "needs_gm")

    def to_json(self) -> dict[str, Any]:
        out = self.unconscious_for
        return {
            "level": self.level.value,
            "margin": self.margin,
            "stun_points": self.stun_points,
            "unconscious_for": out.to_json() if out is not None else None,
            "needs_gm": self.needs_gm,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        fields = _fields(
            data,
            "a damage result",
            required=("level", "margin"),
            optional=("stun_points", "unconscious_for", "needs_gm"),
        )
        try:
            level = WoundLevel(fields["level"])
        except ValueError:
            raise CombatError(f"unknown damage result {fields['level']!r}") from None
        out = fields.get("unconscious_for")
        return cls(
            level,
            fields["margin"],
            fields.get("stun_points", 0),
            Duration.from_json(out) if out is not None else None,
            fields.get("needs_gm", False),
        )


_CHART_2E = (  # [2E-STD, not in sources] Character Damage Chart: lowest margin of each band
    (16, WoundLevel.killed),
    (13, WoundLevel.mortally_wounded),
    (9, WoundLevel.incapacitated),
    (4, WoundLevel.wounded),
    (0, WoundLevel.stunned),
)
_RC_NORMAL = (WoundLevel.wounded, WoundLevel.incapacitated, WoundLevel.mortally_wounded)


def _chart_2e(margin: int) -> WoundLevel:
    for low, level in _CHART_2E:
        if margin >= low:
            return level
    return WoundLevel.none


def _rc_multiple(damage: int, resistance: int) -> int:
    """0 below SR, 1 at SR or more, 2 at 2×SR, 3 at 3×SR ([RC] Damage Summary)."""
    return sum(damage >= k * resistance for k in (1, 2, 3))


def damage_result(
    damage_total: int,
    resistance_total: int,
    *,
    ruleset: RuleSet,
    stun_weapon: bool = False,
    range_band: RangeBand | str | None = None,
) -> DamageResult:
    """Damage roll against resistance roll, read on the campaign's chart.

    ``2e_margin`` ([2E-STD]): margin below 0 no effect, 0–3 stunned, 4–8 wounded, 9–12
    incapacitated, 13–15 mortally wounded, 16+ killed. ``rc_multiples`` ([RC]): 2×DR < SR
    escapes unscathed (``escaping_unscathed``), DR < SR stun (-1D), DR ≥ SR wound, ≥ 2×SR
    incapacitate, ≥ 3×SR mortal wound; never killed.

    ``stun_weapon``: [UPG] worse than stunned → unconscious 2D minutes; [HOUSE §14] above
    stunned → unconscious for (margin)D rounds (IH-7); [RC] Stun Damage Summary: 1 Stun, 2 Stun,
    unconscious at 3×SR (2D minutes, IH-6). A stun weapon never changes the wound level.

    ``range_band`` ([HOUSE §10], ``house_short_pointblank``; energy weapons): a short-range hit
    is at least wounded twice (-2D), a point-blank hit at least mortally wounded (-3D), unless
    the Strength roll beats the damage roll (then ``needs_gm``)."""
    if damage_total < 0 or resistance_total < 0:
        raise CombatError("damage and resistance totals cannot be negative")
    margin = damage_total - resistance_total
    rc = ruleset.damage_chart == "rc_multiples"
    if stun_weapon:
        return _stun_weapon_result(damage_total, resistance_total, ruleset)
    if rc:
        step = _rc_multiple(damage_total, resistance_total)
        if step:
            level = _RC_NORMAL[step - 1]
        elif ruleset.escaping_unscathed and 2 * damage_total < resistance_total:
            level = WoundLevel.none
        else:
            level = WoundLevel.stunned
    else:
        level = _chart_2e(margin)
    result = DamageResult(level, margin, 1 if level is WoundLevel.stunned else 0)
    if range_band is not None and ruleset.house_short_pointblank:
        result = _house_range_floor(result, _band(range_band))
    return result


def _stun_weapon_result(damage: int, resistance: int, ruleset: RuleSet) -> DamageResult:
    margin = damage - resistance
    if ruleset.stun_setting == "rc_chart":
        step = _rc_multiple(damage, resistance)
        if step == 3:
            return DamageResult(WoundLevel.none, margin, 0, Duration(2, "minutes"))
        return DamageResult(WoundLevel.stunned if step else WoundLevel.none, margin, step)
    level = _chart_2e(margin)
    if level.rank <= WoundLevel.stunned.rank:
        return DamageResult(level, margin, 1 if level is WoundLevel.stunned else 0)
    if ruleset.stun_setting == "house_margin":
        return DamageResult(WoundLevel.none, margin, 0, Duration(margin, "rounds"))
    return DamageResult(WoundLevel.none, margin, 0, Duration(2, "minutes"))


def _house_range_floor(result: DamageResult, band: RangeBand) -> DamageResult:
    floor = {
        RangeBand.short: WoundLevel.wounded_twice,
        RangeBand.point_blank: WoundLevel.mortally_wounded,
    }.get(band)
    if floor is None:
        return result
    if result.margin < 0:
        return DamageResult(result.level, result.margin, needs_gm=True)
    if floor.rank > result.level.rank:
        return DamageResult(floor, result.margin)
    return result


def wound_level(damage_total: int, resistance_total: int, *, ruleset: RuleSet) -> WoundLevel:
    """The level an unhurt character gets from an ordinary weapon's damage total against his
    resistance total (see :func:`damage_result` for the charts)."""
    return damage_result(damage_total, resistance_total, ruleset=ruleset).level
