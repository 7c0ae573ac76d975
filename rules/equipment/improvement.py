"""Improving equipment: the Rules Companion's skill-point customization and the Rules
Upgrade's percentage improvement (droids-and-equipment.md §3, §6).

Two systems, chosen by ``ruleset.equipment_improvement``:

* ``"rc_skill_points"`` — [RC]: any die code rises by skill points (the number before the D,
  +3 per pip for additive codes), credits per skill point and time per pip by scale, and a
  technology roll whose difficulty grows with each pip; hyperdrives and added weapons too;
* ``"upg_percent"`` — [UPG]: vehicles, vessels and weapons rise one pip / move level /
  hyperdrive level per monthly repair roll, at a percentage of the item's original value,
  capped at +1D+2 (four moves) above stock.

Each function returns the :class:`ImprovementStep` values of the work, one roll each.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rules.dice import DieCode, DieCodeError
from rules.difficulty import DIFFICULT as D
from rules.difficulty import EASY as E
from rules.difficulty import HEROIC as H
from rules.difficulty import MODERATE as M
from rules.difficulty import VERY_DIFFICULT as VD
from rules.difficulty import VERY_EASY as VE
from rules.difficulty import DifficultyLevel
from rules.equipment._common import (
    MINUTES_PER_DAY,
    EquipmentError,
    ImprovementStep,
    as_int,
    check_scale,
    days,
    percent_of,
    upg_multiplier,
)
from rules.ruleset import RuleSet
from rules.time import DAYS_PER_MONTH

__all__ = [
    "HYPERDRIVE_CHAIN",
    "RC_ADDITIVE_STATS",
    "RC_SCALE_RATES",
    "UPG_HYPERDRIVE",
    "UPG_STATS",
    "UPG_TABLES",
    "WeaponInstall",
    "armor_dexterity_penalty",
    "parse_hyperdrive",
    "rc_armor_improvement",
    "rc_credits",
    "rc_hyperdrive_improvement",
    "rc_improvement",
    "rc_pip_cost",
    "rc_tech_difficulty",
    "rc_time_per_pip",
    "rc_weapon_install",
    "upg_improvement",
]


# ---------------------------------------------------------------------------------------------
# [RC] skill-point customization (droids-and-equipment.md §3)
# ---------------------------------------------------------------------------------------------
#: [RC] time per pip and credits per skill point, by scale of the equipment.
RC_SCALE_RATES: dict[str, tuple[int, str, int]] = {
    "character": (1, "day", 10),
    "speeder": (3, "day", 100),
    "walker": (3, "day", 500),
    "starfighter": (1, "week", 500),
    "capital": (1, "month", 1_000_000),
    "death_star": (2, "month", 1_000_000_000),
}
#: [RC] codes added to a skill or attribute cost 3 more skill points per pip.
RC_ADDITIVE_STATS = frozenset(
    {"speed", "fire_control", "maneuverability", "shields", "armor", "armor_dexterity"}
)
RC_ADDITIVE_SURCHARGE = 3
#: [RC] technology difficulty by pip of improvement on one die code (5th and later: VD).
RC_TECH_DIFFICULTY = (VE, E, M, D, VD)
#: [RC] hyperdrive multiplier chain and the skill points for each change.
HYPERDRIVE_CHAIN: tuple[Fraction, ...] = (
    Fraction(4),
    Fraction(3),
    Fraction(2),
    Fraction(1),
    Fraction(1, 2),
)
RC_HYPERDRIVE_SP = (5, 10, 20, 40)
RC_NEW_WEAPON_SP = 9  # [RC] a weapon with 1D fire control and 1D damage; also to install one
#: [RC] fee to install a purchased weapon, by scale of what receives it (walker, Death Star:
#: not in sources, ambiguity 23).
RC_INSTALL_FEE = {"character": 150, "speeder": 1_500, "starfighter": 6_000, "capital": 10_000_000}
#: [RC] NPC labour doubles credits, except where the costs already assume crews of thousands.
RC_NPC_EXEMPT = frozenset({"capital", "death_star"})


def rc_pip_cost(current: DieCode | str, additive: bool = False) -> int:
    """[RC] skill points for the next pip: the number before the D (1 for a 0D code), plus 3
    for codes that add to a skill or attribute (4D damage -> 4; armor +1D -> 1+3 = 4)."""
    code = DieCode.parse(current)
    if code.total_pips < 0:
        raise EquipmentError(f"{code} cannot be improved: a die code is never negative")
    return max(1, code.dice) + (RC_ADDITIVE_SURCHARGE if additive else 0)


def rc_tech_difficulty(ordinal: int) -> DifficultyLevel:
    """[RC] technology roll for the n-th pip above the original code: VE, E, M, D, then VD."""
    if ordinal < 1:
        raise EquipmentError("pips of improvement are counted from 1")
    return RC_TECH_DIFFICULTY[min(ordinal, len(RC_TECH_DIFFICULTY)) - 1]


def rc_time_per_pip(scale: str, *, ruleset: RuleSet) -> int:
    """[RC] minutes of work per pip: 1 day (character) ... 2 months (Death Star)."""
    check_scale(scale)
    amount, unit, _ = RC_SCALE_RATES[scale]
    return days(amount, unit, ruleset=ruleset) * MINUTES_PER_DAY


def rc_credits(skill_points: int, scale: str, npc: bool = False) -> int:
    """[RC] credits for the skill points spent: rate by scale, doubled for NPC labour
    (except capital-ship and Death Star projects)."""
    check_scale(scale)
    doubled = npc and scale not in RC_NPC_EXEMPT
    return skill_points * RC_SCALE_RATES[scale][2] * (2 if doubled else 1)


def rc_improvement(
    original: DieCode | str,
    current: DieCode | str,
    target: DieCode | str,
    *,
    ruleset: RuleSet,
    additive: bool = False,
    scale: str = "character",
    npc: bool = False,
) -> tuple[ImprovementStep, ...]:
    """[RC] the pips from ``current`` to ``target``, one step each, with skill points,
    credits, time and technology difficulty counted from the ``original`` code.

    Erisson's blaster, originally 4D, now 5D, to 5D+1: 4th pip, Difficult, 5 sp, 50 cr (E1)."""
    original, current, target = (DieCode.parse(c) for c in (original, current, target))
    if current < original:
        raise EquipmentError(f"the code is {current}, below its original {original}: repair it")
    if target <= current:
        raise EquipmentError(f"{target} is not an improvement on {current}")
    steps = []
    code = current
    while code < target:
        after = code.plus_pips(1)
        sp = rc_pip_cost(code, additive)
        ordinal = after.total_pips - original.total_pips
        steps.append(
            ImprovementStep(
                ordinal=ordinal,
                before=str(code),
                after=str(after),
                difficulty=rc_tech_difficulty(ordinal),
                credits=rc_credits(sp, scale, npc),
                skill_points=sp,
                minutes=rc_time_per_pip(scale, ruleset=ruleset),
            )
        )
        code = after
    return tuple(steps)


def armor_dexterity_penalty(
    original: DieCode | str, current: DieCode | str, enhancement: DieCode | str = "0D"
) -> DieCode:
    """[RC] every pip of armor improvement takes a pip of Dexterity, less any Dexterity
    enhancement bought on the armor: +1D armor raised to +1D+2 costs -2 pips."""
    original, current, enhancement = (DieCode.parse(c) for c in (original, current, enhancement))
    penalty = max(0, current.total_pips - original.total_pips) - enhancement.total_pips
    if penalty < 0:
        raise EquipmentError(
            "Dexterity enhancements may only cancel the armor's Dexterity penalty, never exceed it"
        )
    return DieCode.from_pips(-penalty)


def rc_armor_improvement(
    original: DieCode | str,
    current: DieCode | str,
    target: DieCode | str,
    *,
    enhancement: DieCode | str = "0D",
    ruleset: RuleSet,
    target_enhancement: DieCode | str | None = None,
    scale: str = "character",
    npc: bool = False,
) -> tuple[ImprovementStep, ...]:
    """[RC] armor steps then Dexterity-enhancement steps (both additive codes, +3 per pip).

    ``target_enhancement`` None erases the whole Dexterity penalty; it may never exceed it.
    +1D -> +1D+2 with the penalty erased: 16 skill points (E4)."""
    original, current, target = (DieCode.parse(c) for c in (original, current, target))
    enhancement = DieCode.parse(enhancement)
    full = DieCode.from_pips(max(0, target.total_pips - original.total_pips))
    wanted = full if target_enhancement is None else DieCode.parse(target_enhancement)
    armor_dexterity_penalty(original, target, wanted)  # raises when it would exceed the penalty
    steps: tuple[ImprovementStep, ...] = ()
    if target > current:
        steps = rc_improvement(
            original, current, target, additive=True, scale=scale, npc=npc, ruleset=ruleset
        )
    if wanted > enhancement:
        steps += rc_improvement(
            "0D", enhancement, wanted, additive=True, scale=scale, npc=npc, ruleset=ruleset
        )
    if not steps:
        raise EquipmentError("nothing to improve: the armor is already at that code")
    return steps


def parse_hyperdrive(value: object) -> Fraction:
    """A hyperdrive multiplier from ``"x2"``, ``2``, ``"x1/2"``, ``"x½"``, ``"x.5"``, ``0.5``."""
    text = str(value).strip().lower().lstrip("x×").strip().replace("½", "1/2")
    try:
        multiplier = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise EquipmentError(f"{value!r} is not a hyperdrive multiplier like x2 or x1/2") from None
    if multiplier not in HYPERDRIVE_CHAIN:
        raise EquipmentError(f"hyperdrive x{multiplier} is not on the chain x4, x3, x2, x1, x1/2")
    return multiplier


def _hyperdrive_span(current: object, target: object) -> tuple[int, int]:
    start = HYPERDRIVE_CHAIN.index(parse_hyperdrive(current))
    end = HYPERDRIVE_CHAIN.index(parse_hyperdrive(target))
    if end <= start:
        raise EquipmentError("a hyperdrive improves by lowering its multiplier (x2 -> x1)")
    return start, end


def rc_hyperdrive_improvement(
    current: object,
    target: object,
    *,
    ruleset: RuleSet,
    scale: str = "starfighter",
    npc: bool = False,
) -> tuple[ImprovementStep, ...]:
    """[RC] hyperdrive changes: x4->x3 5, x3->x2 10, x2->x1 20, x1->x1/2 40 skill points.

    Time, credits and difficulty are not in the source (ambiguity 5): each level counts as one
    pip of the ship's scale, credits = skill points x rate, and the level's place in the chain
    (x4->x3 = 1st) is the pip ordinal."""
    start, end = _hyperdrive_span(current, target)
    steps = []
    for index in range(start, end):
        sp = RC_HYPERDRIVE_SP[index]
        steps.append(
            ImprovementStep(
                ordinal=index + 1,
                before=f"x{HYPERDRIVE_CHAIN[index]}",
                after=f"x{HYPERDRIVE_CHAIN[index + 1]}",
                difficulty=rc_tech_difficulty(index + 1),
                credits=rc_credits(sp, scale, npc),
                skill_points=sp,
                minutes=rc_time_per_pip(scale, ruleset=ruleset),
            )
        )
    return tuple(steps)


@dataclass(frozen=True, slots=True)
class WeaponInstall:
    """What adding a weapon costs [RC]: skill points and credits (the weapon's price included).

    With ``rc_weapon_install == "fee_or_sp"`` the owner picks one of ``options``."""

    skill_points: int
    credits: int
    options: tuple[tuple[int, int], ...] = ()


def rc_weapon_install(
    scale: str,
    *,
    ruleset: RuleSet,
    purchased_price: int | None = None,
    method: Literal["fee", "skill_points"] | None = None,
    gm_fee: int | None = None,
    npc: bool = False,
) -> WeaponInstall:
    """[RC] add a weapon to a ship, speeder or armor.

    Built (``purchased_price`` None): 9 skill points for 1D fire control and 1D damage, with the
    scale's credits per skill point. Bought: price + installation fee (150 / 1,500 / 6,000 /
    10,000,000 cr) + 9 skill points by default; ``fee_or_sp`` makes fee and skill points
    alternatives (``method`` picks one). Walker and Death Star fees need ``gm_fee``."""
    check_scale(scale)
    if purchased_price is None:
        return WeaponInstall(RC_NEW_WEAPON_SP, rc_credits(RC_NEW_WEAPON_SP, scale, npc))
    if purchased_price < 0:
        raise EquipmentError("a weapon's price cannot be negative")
    fee = gm_fee if gm_fee is not None else RC_INSTALL_FEE.get(scale)
    if fee is None:
        raise EquipmentError(
            f"the Rules Companion gives no installation fee at {scale} scale; the GM sets one"
        )
    if ruleset.rc_weapon_install == "fee_and_sp":
        return WeaponInstall(RC_NEW_WEAPON_SP, purchased_price + fee)
    options = ((0, purchased_price + fee), (RC_NEW_WEAPON_SP, purchased_price))
    if method is None:
        return WeaponInstall(0, purchased_price, options)
    if method not in ("fee", "skill_points"):
        raise EquipmentError("install a purchased weapon by paying the 'fee' or 'skill_points'")
    sp, credits = options[0] if method == "fee" else options[1]
    return WeaponInstall(sp, credits, options)


# ---------------------------------------------------------------------------------------------
# [UPG] percentage improvement (droids-and-equipment.md §6)
# ---------------------------------------------------------------------------------------------
#: [UPG] rows: (total increase above stock, difficulty, % of original value). The increase is
#: in pips for dice stats (+1, +2, +1D, +1D+1, +1D+2), Move points, Space points, or range %.
UPG_TABLES: dict[str, tuple[tuple[int, DifficultyLevel, int], ...]] = {
    "maneuverability": ((1, E, 5), (2, M, 10), (3, D, 15), (4, VD, 20), (5, H, 25)),
    "shields": ((1, E, 15), (2, M, 25), (3, D, 30), (4, VD, 35), (5, H, 50)),
    "weapon": ((1, E, 15), (2, M, 25), (3, D, 30), (4, VD, 35), (5, H, 50)),
    "move": ((5, M, 10), (10, D, 15), (15, VD, 20), (20, H, 25)),
    "space": ((1, M, 10), (2, D, 15), (3, VD, 20), (4, H, 25)),
    "range": ((5, E, 5), (10, M, 10), (15, D, 15), (20, VD, 20), (25, H, 25)),
}
#: Which table each improvable stat uses, and its step size.
UPG_STATS: dict[str, tuple[str, int]] = {
    "maneuverability": ("maneuverability", 1),
    "shields": ("shields", 1),
    "fire_control": ("weapon", 1),
    "damage": ("weapon", 1),
    "move": ("move", 5),
    "space": ("space", 1),
    "range": ("range", 5),
}
_DICE_STATS = frozenset({"maneuverability", "shields", "fire_control", "damage"})
#: [UPG] hyperdrive changes (old -> new): difficulty and % of original value.
UPG_HYPERDRIVE = ((E, 10), (M, 15), (VD, 25), (H, 35))


def _pips(value: object) -> int:
    if isinstance(value, DieCode | str):
        return DieCode.parse(value).total_pips
    raise DieCodeError(f"a die code must be text, not {type(value).__name__}")


def upg_improvement(
    stat: str,
    stock: object,
    current: object,
    target: object,
    *,
    ruleset: RuleSet,
    base_value: int,
    hired_multiplier: int = 1,
) -> tuple[ImprovementStep, ...]:
    """[UPG] one step per monthly roll from ``current`` to ``target``, priced as a % of
    ``base_value`` (the craft's original value; the weapon's cost for weapon stats).

    Dice stats (maneuverability, shields, fire_control, damage) take die codes and rise one pip
    a step, to at most +1D+2 above stock; Move rises +5 a step to +20, Space +1 to +4, range
    +5% to +25% (pass range as the percent above stock, stock 0); hyperdrive takes multipliers.
    ``ruleset.upg_improve_cost == "cumulative_total"`` reads each row as the total cost of that
    level, so a step pays the difference (ambiguity 26)."""
    if base_value < 0:
        raise EquipmentError("the item's original value cannot be negative")
    multiplier = upg_multiplier(hired_multiplier)
    month = DAYS_PER_MONTH * MINUTES_PER_DAY
    if stat == "hyperdrive":
        start, end = _hyperdrive_span(current, target)
        return tuple(
            ImprovementStep(
                ordinal=i + 1,
                before=f"x{HYPERDRIVE_CHAIN[i]}",
                after=f"x{HYPERDRIVE_CHAIN[i + 1]}",
                difficulty=UPG_HYPERDRIVE[i][0],
                credits=percent_of(UPG_HYPERDRIVE[i][1], base_value, multiplier),
                skill_points=0,
                minutes=month,
                percent=UPG_HYPERDRIVE[i][1],
            )
            for i in range(start, end)
        )
    if stat not in UPG_STATS:
        choices = ", ".join([*UPG_STATS, "hyperdrive"])
        raise EquipmentError(f"the Rules Upgrade cannot improve {stat!r}; choose one of {choices}")
    table_name, step = UPG_STATS[stat]
    rows = {row[0]: row for row in UPG_TABLES[table_name]}
    dice = stat in _DICE_STATS
    base, now, goal = (_pips(v) if dice else as_int(v, stat) for v in (stock, current, target))

    def show(value: int) -> str:
        return str(DieCode.from_pips(value)) if dice else str(value)

    if now < base:
        raise EquipmentError(f"{stat} is below its stock value: repair it before improving it")
    if goal <= now:
        raise EquipmentError(f"{show(goal)} is not an improvement on {show(now)}")
    if (goal - base) % step or (now - base) % step:
        raise EquipmentError(f"{stat} rises in steps of {step} above stock")
    cap = max(rows)
    if goal - base > cap:
        limit = f"+{DieCode.from_pips(cap)}" if stat in _DICE_STATS else f"+{cap}"
        raise EquipmentError(
            f"no system may be improved more than {limit} above stock "
            f"(stock {show(base)}, asked for {show(goal)})"
        )
    steps = []
    for level in range(now + step, goal + 1, step):
        increase, difficulty, percent = rows[level - base]
        if ruleset.upg_improve_cost == "cumulative_total":
            percent -= rows[increase - step][2] if increase > step else 0
        steps.append(
            ImprovementStep(
                ordinal=increase // step,
                before=show(level - step),
                after=show(level),
                difficulty=difficulty,
                credits=percent_of(percent, base_value, multiplier),
                skill_points=0,
                minutes=month,
                percent=percent,
            )
        )
    return tuple(steps)
