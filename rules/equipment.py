"""Improving, repairing and damaging equipment, and long-running improvement projects.

Two improvement systems, chosen by ``ruleset.equipment_improvement``:

* ``"upg_percent"`` — the Rules Upgrade [UPG] (2nd Ed R&E baseline): vehicles, vessels and
  weapons rise one pip / move level / hyperdrive level per monthly repair roll, at a percentage
  of the item's original value, capped at +1D+2 (four moves) above stock;
* ``"rc_skill_points"`` — the Rules Companion [RC]: any die code rises by skill points (the
  number before the D, +3 per pip for additive codes), credits per skill point and time per pip
  by scale, and a technology roll whose difficulty grows with each pip.

Repairs follow the [UPG] table or the [HOUSE] table (``ruleset.repair_tables``); combined work
on a repair uses ``rules.combat``'s combined-action bonus, passed in as a project's ``bonus``.
The [HOUSE]
severe-wound rule makes carried gear roll its Body. Finally :func:`validate_project` and
:func:`advance_project` turn all of this into an immutable project state that a background job
can move forward through game time (droids-and-equipment.md §9).

Durations are whole minutes of game time; a week is ``ruleset.days_per_week`` days and a month
35 days (characters-and-advancement.md A-C4).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rules.dice import DiceSource, DieCode, Roll, SeededDice, roll
from rules.difficulty import number_range, random_difficulty
from rules.droids import droid_skill_cost
from rules.errors import RulesError
from rules.ruleset import RuleSet

__all__ = [
    "LEVELS",
    "SCALES",
    "AvailabilityFee",
    "EquipmentError",
    "GearCheck",
    "ImprovementStep",
    "LogEntry",
    "ProjectRequest",
    "ProjectState",
    "RepairRequirement",
    "WeaponInstall",
    "abandon_project",
    "advance_project",
    "armor_dexterity_penalty",
    "availability_fee",
    "black_market_price_range",
    "gear_must_roll",
    "gear_survives",
    "license_check_difficulty",
    "parse_hyperdrive",
    "rc_armor_improvement",
    "rc_credits",
    "rc_hyperdrive_improvement",
    "rc_improvement",
    "rc_pip_cost",
    "rc_tech_difficulty",
    "rc_time_per_pip",
    "rc_weapon_install",
    "repair_requirement",
    "resolve_roll",
    "resume_project",
    "upg_improvement",
    "validate_project",
    "work_pace",
]


class EquipmentError(RulesError):
    """An improvement, repair or project the rules do not allow, said in the game's words."""


# ---------------------------------------------------------------------------------------------
# Shared vocabulary
# ---------------------------------------------------------------------------------------------
VE, E, M, D, VD, H = "Very Easy", "Easy", "Moderate", "Difficult", "Very Difficult", "Heroic"
LEVELS = (VE, E, M, D, VD, H)

Scale = Literal["character", "speeder", "walker", "starfighter", "capital", "death_star"]
SCALES: tuple[str, ...] = ("character", "speeder", "walker", "starfighter", "capital", "death_star")

MINUTES_PER_DAY = 24 * 60
DAYS_PER_MONTH = 35  # characters-and-advancement.md A-C4 (no source gives a month's length)


def _check_scale(scale: str) -> None:
    if scale not in SCALES:
        raise EquipmentError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)}")


def _days(amount: int, unit: str, ruleset: RuleSet) -> int:
    per = {"day": 1, "week": ruleset.days_per_week, "month": DAYS_PER_MONTH}[unit]
    return amount * per


def _percent_of(percent: int, value: int, multiplier: int = 1) -> int:
    """``percent`` % of ``value`` times ``multiplier``, rounded to the nearest credit."""
    return (percent * value * multiplier + 50) // 100


@dataclass(frozen=True, slots=True)
class ImprovementStep:
    """One roll's worth of work: raise a stat from ``before`` to ``after`` (or repair it).

    ``ordinal`` is the step's position above stock (the [UPG] table row, or the [RC] pip of
    improvement). ``difficulty`` is None when no roll is needed. ``minutes`` is the work
    before the roll."""

    ordinal: int
    before: str
    after: str
    difficulty: str | None
    credits: int
    skill_points: int
    minutes: int
    percent: int | None = None


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


def rc_tech_difficulty(ordinal: int) -> str:
    """[RC] technology roll for the n-th pip above the original code: VE, E, M, D, then VD."""
    if ordinal < 1:
        raise EquipmentError("pips of improvement are counted from 1")
    return RC_TECH_DIFFICULTY[min(ordinal, len(RC_TECH_DIFFICULTY)) - 1]


def rc_time_per_pip(scale: str, ruleset: RuleSet = RuleSet()) -> int:
    """[RC] minutes of work per pip: 1 day (character) ... 2 months (Death Star)."""
    _check_scale(scale)
    amount, unit, _ = RC_SCALE_RATES[scale]
    return _days(amount, unit, ruleset) * MINUTES_PER_DAY


def rc_credits(skill_points: int, scale: str, npc: bool = False) -> int:
    """[RC] credits for the skill points spent: rate by scale, doubled for NPC labour
    (except capital-ship and Death Star projects)."""
    _check_scale(scale)
    doubled = npc and scale not in RC_NPC_EXEMPT
    return skill_points * RC_SCALE_RATES[scale][2] * (2 if doubled else 1)


def rc_improvement(
    original: DieCode | str,
    current: DieCode | str,
    target: DieCode | str,
    *,
    additive: bool = False,
    scale: str = "character",
    npc: bool = False,
    ruleset: RuleSet = RuleSet(),
) -> tuple[ImprovementStep, ...]:
    """[RC] the pips from ``current`` to ``target``, one step each, with skill points,
    credits, time and technology difficulty counted from the ``original`` code.

    Erisson's blaster, originally 4D, now 5D, to 5D+1: 4th pip, Difficult, 5 sp, 50 cr (E1)."""
    original, current, target = map(DieCode.parse, (original, current, target))
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
                minutes=rc_time_per_pip(scale, ruleset),
            )
        )
        code = after
    return tuple(steps)


def armor_dexterity_penalty(
    original: DieCode | str, current: DieCode | str, enhancement: DieCode | str = "0D"
) -> DieCode:
    """[RC] every pip of armor improvement takes a pip of Dexterity, less any Dexterity
    enhancement bought on the armor: +1D armor raised to +1D+2 costs -2 pips."""
    original, current, enhancement = map(DieCode.parse, (original, current, enhancement))
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
    target_enhancement: DieCode | str | None = None,
    scale: str = "character",
    npc: bool = False,
    ruleset: RuleSet = RuleSet(),
) -> tuple[ImprovementStep, ...]:
    """[RC] armor steps then Dexterity-enhancement steps (both additive codes, +3 per pip).

    ``target_enhancement`` None erases the whole Dexterity penalty; it may never exceed it.
    +1D -> +1D+2 with the penalty erased: 16 skill points (E4)."""
    original, current, target = map(DieCode.parse, (original, current, target))
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
    scale: str = "starfighter",
    npc: bool = False,
    ruleset: RuleSet = RuleSet(),
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
                minutes=rc_time_per_pip(scale, ruleset),
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
    purchased_price: int | None = None,
    method: Literal["fee", "skill_points"] | None = None,
    gm_fee: int | None = None,
    npc: bool = False,
    ruleset: RuleSet = RuleSet(),
) -> WeaponInstall:
    """[RC] add a weapon to a ship, speeder or armor.

    Built (``purchased_price`` None): 9 skill points for 1D fire control and 1D damage, with the
    scale's credits per skill point. Bought: price + installation fee (150 / 1,500 / 6,000 /
    10,000,000 cr) + 9 skill points by default; ``fee_or_sp`` makes fee and skill points
    alternatives (``method`` picks one). Walker and Death Star fees need ``gm_fee``."""
    _check_scale(scale)
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


# --- availability and prices ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AvailabilityFee:
    """[RC] permit or license fee: the standard amount and the known range."""

    standard: int
    low: int
    high: int
    background_check: bool = False


#: [RC] P: fee or permit, 5% (1%-15%); R: restricted licence, 10% (5%-100%), background check.
AVAILABILITY_PERCENT = {"P": (5, 1, 15), "R": (10, 5, 100)}


def availability_fee(code: str, price: int) -> AvailabilityFee:
    """[RC] the fee for buying an item with availability P or R (E17, E18).

    Other codes (X ...) are not in the sources: the GM sets the fee (ambiguity 22)."""
    key = code.strip().upper()
    if key not in AVAILABILITY_PERCENT:
        raise EquipmentError(f"availability {code!r} has no fee rule; only P and R are covered")
    if price < 0:
        raise EquipmentError("a price cannot be negative")
    standard, low, high = AVAILABILITY_PERCENT[key]
    return AvailabilityFee(
        standard=_percent_of(standard, price),
        low=_percent_of(low, price),
        high=_percent_of(high, price),
        background_check=key == "R",
    )


def license_check_difficulty(renown: Literal["unknown", "infamous", "famous"]) -> str:
    """[RC] the NPC's bureaucracy or computer roll on an R-licence applicant: Difficult;
    Moderate with a touch of infamy; Easy if as well known as Han Solo."""
    levels = {"unknown": D, "infamous": M, "famous": E}
    if renown not in levels:
        raise EquipmentError("renown is 'unknown', 'infamous' or 'famous'")
    return levels[renown]


def black_market_price_range(price: int) -> tuple[int, int]:
    """[HOUSE] black-market prices run 2 to 5 times the standard price."""
    if price < 0:
        raise EquipmentError("a price cannot be negative")
    return 2 * price, 5 * price


# ---------------------------------------------------------------------------------------------
# [UPG] percentage improvement (droids-and-equipment.md §6)
# ---------------------------------------------------------------------------------------------
#: [UPG] rows: (total increase above stock, difficulty, % of original value). The increase is
#: in pips for dice stats (+1, +2, +1D, +1D+1, +1D+2), Move points, Space points, or range %.
UPG_TABLES: dict[str, tuple[tuple[int, str, int], ...]] = {
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
UPG_HIRED_MULTIPLIERS = (2, 3)  # "double or triple the cost"


def _upg_multiplier(hired_multiplier: int) -> int:
    if hired_multiplier != 1 and hired_multiplier not in UPG_HIRED_MULTIPLIERS:
        raise EquipmentError("someone else's work costs double or triple (2 or 3); own work 1")
    return hired_multiplier


def _as_int(value: object, stat: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            return int(str(value).strip().rstrip("%"))
        except ValueError:
            raise EquipmentError(f"{stat} needs a whole number, not {value!r}") from None
    return value


def upg_improvement(
    stat: str,
    stock: object,
    current: object,
    target: object,
    *,
    base_value: int,
    hired_multiplier: int = 1,
    ruleset: RuleSet = RuleSet(),
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
    multiplier = _upg_multiplier(hired_multiplier)
    month = DAYS_PER_MONTH * MINUTES_PER_DAY
    if stat == "hyperdrive":
        start, end = _hyperdrive_span(current, target)
        return tuple(
            ImprovementStep(
                ordinal=i + 1,
                before=f"x{HYPERDRIVE_CHAIN[i]}",
                after=f"x{HYPERDRIVE_CHAIN[i + 1]}",
                difficulty=UPG_HYPERDRIVE[i][0],
                credits=_percent_of(UPG_HYPERDRIVE[i][1], base_value, multiplier),
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
    if stat in _DICE_STATS:
        base, now, goal = (DieCode.parse(v).total_pips for v in (stock, current, target))  # type: ignore[arg-type]
        show = DieCode.from_pips
    else:
        base, now, goal = (_as_int(v, stat) for v in (stock, current, target))
        show = str  # type: ignore[assignment]
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
                before=str(show(level - step)),
                after=str(show(level)),
                difficulty=difficulty,
                credits=_percent_of(percent, base_value, multiplier),
                skill_points=0,
                minutes=month,
                percent=percent,
            )
        )
    return tuple(steps)


# ---------------------------------------------------------------------------------------------
# Repairs (droids-and-equipment.md §5)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RepairRequirement:
    """A repair's roll, cost and first-roll time. ``credits``/``percent`` None: not given."""

    system: str
    difficulty: str
    percent: int | None
    credits: int | None
    first_roll_minutes: int
    note: str = ""


FIRST_REPAIR_ROLL = 15  # [UPG] "The first repair roll is made after 15 minutes of work."
ONE_HOUR = 60  # [UPG] hyperdrive and mechanical-failure repairs: one hour of work
#: Repair rows by dice lost (or moves lost): (difficulty, % of original value) [UPG]/[HOUSE].
_MANEUVER_REPAIR = {1: (E, 10), 2: (M, 15), 3: (D, 20)}  # [UPG] row 3 is "-3D or more"
_MANEUVER_REPAIR_HOUSE = {**_MANEUVER_REPAIR, 4: (VD, 30)}  # [HOUSE] stops at -4D
_MOVES_REPAIR = {1: (E, 10), 2: (M, 15), 3: (D, 20), 4: (VD, 25)}
_SHIELD_REPAIR = {1: (E, 5), 2: (M, 5), 3: (D, 5), 4: (VD, 10)}  # row 4 is "-4D or more"
_WEAPON_REPAIR = {"light": (E, 15), "heavy": (M, 25), "severe": (VD, 35)}
_DRIVE_REPLACEMENT = (D, 35)  # [UPG] destroyed drive: Difficult, 35% of the craft's value
REPAIR_SYSTEMS = (
    "drive",
    "hyperdrive",
    "mechanical_failure",
    "maneuverability",
    "moves",
    "shields",
    "weapon",
)


def _row(table: dict[int, tuple[str, int]], amount: object, what: str) -> tuple[str, int]:
    lost = _as_int(amount, what)
    if lost < 1:
        raise EquipmentError(f"{what}: nothing to repair (lost {lost})")
    return table[min(lost, max(table))]


def repair_requirement(
    system: str,
    damage: object = None,
    *,
    base_value: int | None = None,
    hired_multiplier: int = 1,
    ruleset: RuleSet = RuleSet(),
) -> RepairRequirement:
    """The repair roll and cost for one damaged system ([UPG] or [HOUSE] table).

    ``damage``: dice lost (maneuverability, shields), moves lost (moves), or the weapon's state
    (light / heavy / severe / destroyed). ``base_value``: the craft's original value, or the
    weapon's own cost for a weapon. Someone else's work costs double or triple."""
    if system not in REPAIR_SYSTEMS:
        raise EquipmentError(
            f"unknown system {system!r}; choose one of {', '.join(REPAIR_SYSTEMS)}"
        )
    multiplier = _upg_multiplier(hired_multiplier)
    first, note = FIRST_REPAIR_ROLL, ""
    percent: int | None
    if system == "drive":
        difficulty, percent = _DRIVE_REPLACEMENT
        note = "replace the destroyed drive"
    elif system in ("hyperdrive", "mechanical_failure"):
        difficulty, percent, first = M, None, ONE_HOUR
        note = "cost not given in the sources: the GM sets it"
    elif system == "maneuverability":
        table = _MANEUVER_REPAIR_HOUSE if ruleset.repair_tables == "house" else _MANEUVER_REPAIR
        difficulty, percent = _row(table, damage, "maneuverability dice lost")
    elif system == "moves":
        if _as_int(damage, "moves lost") >= 5:
            if ruleset.lost_moves_5_repair == "upg_table":
                difficulty, percent = D, 100
            else:
                difficulty, percent = _DRIVE_REPLACEMENT
            note = "drive destroyed: it must be replaced"
        else:
            difficulty, percent = _row(_MOVES_REPAIR, damage, "moves lost")
    elif system == "shields":
        difficulty, percent = _row(_SHIELD_REPAIR, damage, "shield dice lost")
    else:
        state = str(damage).strip().lower()
        if state == "destroyed":
            raise EquipmentError("a destroyed weapon may not be repaired; replace it")
        if state not in _WEAPON_REPAIR:
            raise EquipmentError("a weapon is lightly ('light'), heavily or severely damaged")
        difficulty, percent = _WEAPON_REPAIR[state]
    credits = None
    if percent is not None:
        if base_value is None or base_value < 0:
            raise EquipmentError(f"repairing {system} costs {percent}% of the original value")
        credits = _percent_of(percent, base_value, multiplier)
    return RepairRequirement(system, difficulty, percent, credits, first, note)


def work_pace(
    minutes: int,
    skill: DieCode | str,
    pace: Literal["normal", "prepared", "rushed"] = "normal",
    *,
    repair: bool = True,
    ruleset: RuleSet = RuleSet(),
) -> tuple[int, DieCode]:
    """[WIKI] preparing takes twice as long for +1D; rushing takes half the time and rolls half
    the skill (Danik: 1 hour at 6D rushed -> 30 minutes at 3D, E29). The Rules Companion
    (``ruleset.preparing == "rc_prepare_round"``) forbids preparing for repairs."""
    if minutes < 0:
        raise EquipmentError("work time cannot be negative")
    code = DieCode.parse(skill)
    if pace == "normal":
        return minutes, code
    if pace == "prepared":
        if repair and ruleset.preparing == "rc_prepare_round":
            raise EquipmentError("under the Rules Companion, repairs cannot be prepared for")
        return minutes * 2, code + DieCode(1)
    if pace == "rushed":
        return minutes // 2, code.halved()
    raise EquipmentError("pace is 'normal', 'prepared' or 'rushed'")


# ---------------------------------------------------------------------------------------------
# [HOUSE] severe wounds and equipment (droids-and-equipment.md §8)
# ---------------------------------------------------------------------------------------------
HOUSE_SEVERE_WOUND_DICE = 3  # a -3D wound in one hit (mortally wounded)
HOUSE_MAX_CP_PER_ITEM = 2  # "up to two Character Points per weapon"


@dataclass(frozen=True, slots=True)
class GearCheck:
    """One item's Body roll against the hit's damage; ties survive (ambiguity 20)."""

    roll: Roll
    damage: int

    @property
    def survived(self) -> bool:
        return self.roll.total >= self.damage


def gear_must_roll(
    wound_dice: int,
    *,
    area_effect: bool,
    gm_extends: bool = False,
    ruleset: RuleSet = RuleSet(),
) -> bool:
    """[HOUSE] a -3D wound in one hit makes all carried equipment roll Body "for area affect
    blasts, but depending on weapon used": area hits by default, others if the GM says so.
    Off unless ``ruleset.severe_wound_gear_check``."""
    if not ruleset.severe_wound_gear_check:
        return False
    return wound_dice >= HOUSE_SEVERE_WOUND_DICE and (area_effect or gm_extends)


def gear_survives(
    damage_total: int,
    body: DieCode | str | None = None,
    *,
    weapon: bool = True,
    cp: int = 0,
    rng: DiceSource | None = None,
    ruleset: RuleSet = RuleSet(),
) -> GearCheck:
    """[HOUSE] roll an item's Body (+1D per Character Point, at most 2) against the damage.

    Weapons without a printed Body use ``ruleset.default_weapon_strength`` ([HOUSE] 2D; 2D if
    unset); other gear needs its Body given (not in sources)."""
    if not 0 <= cp <= HOUSE_MAX_CP_PER_ITEM:
        raise EquipmentError("a player may spend 0 to 2 Character Points to save each item")
    if body is None:
        if not weapon:
            raise EquipmentError("this item has no Body code: the GM must give one")
        body = ruleset.default_weapon_strength or "2D"
    result = roll(body, ruleset, rng, cp_dice=cp)
    return GearCheck(result, damage_total)


# ---------------------------------------------------------------------------------------------
# Improvement projects (droids-and-equipment.md §9)
# ---------------------------------------------------------------------------------------------
_STANDARD_SPECIALIST = DieCode(4)  # [RC] "standard specialists have 4D in their specialty"
_NO_BONUS = DieCode()
ProjectKind = Literal["repair", "improve", "add_weapon", "droid_skill"]
Status = Literal["in_progress", "awaiting_roll", "awaiting_gm", "completed", "abandoned"]


@dataclass(frozen=True, slots=True)
class ProjectRequest:
    """What a player asks for. Which fields matter depends on ``kind``:

    * ``repair``: ``stat`` is the system (see :data:`REPAIR_SYSTEMS`), ``damage`` what was lost;
    * ``improve``: ``stat`` and ``stock``/``current``/``target`` values (die codes, Move,
      Space, range %, or hyperdrive multipliers); rules per ``ruleset.equipment_improvement``;
    * ``add_weapon``: [RC] ``scale`` and optionally ``purchased_price``/``install_method``;
    * ``droid_skill``: ``stat`` is the skill name, ``current`` its code (None: new skill),
      ``target`` the goal, ``attribute`` the governing attribute's code.

    ``skill`` is the worker's roll (repair skill, or technology for [RC]) before ``bonus``
    (a combined-action bonus, computed once). ``difficulty_numbers`` pins a number for a
    level; other levels are rolled with the [WIKI] random-difficulty dice."""

    kind: ProjectKind
    stat: str
    stock: object = None
    current: object = None
    target: object = None
    damage: object = None
    scale: str = "character"
    item_value: int | None = None
    labour: Literal["self", "hired"] = "self"
    hired_multiplier: int = 2
    skill: DieCode = _STANDARD_SPECIALIST
    bonus: DieCode = _NO_BONUS
    pace: Literal["normal", "prepared", "rushed"] = "normal"
    roll_mode: Literal["auto", "player", "gm"] = "auto"
    charge_credits: Literal["each_attempt", "on_success"] = "each_attempt"
    first_roll_immediate: bool = False
    retry_minutes: int | None = None
    step_minutes: int | None = None
    difficulty_numbers: tuple[tuple[str, int], ...] = ()
    additive: bool | None = None
    attribute: DieCode | None = None
    purchased_price: int | None = None
    install_method: Literal["fee", "skill_points"] | None = None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One roll (or automatic step) of a project."""

    at_minutes: int
    step: int
    difficulty: str | None
    number: int | None
    total: int | None
    success: bool
    credits: int
    skill_points: int
    note: str = ""


@dataclass(frozen=True, slots=True)
class ProjectState:
    """An improvement or repair project between two moments of game time. Never mutated:
    every function returns a new state."""

    request: ProjectRequest
    system: Literal["upg", "rc", "upg_repair", "house_repair", "gm"]
    steps: tuple[ImprovementStep, ...]
    step_index: int = 0
    attempt: int = 0
    """Failed attempts on the current step (0 = its first attempt)."""
    status: Status = "in_progress"
    minutes_worked: int = 0
    """Work done towards the current step's next roll."""
    elapsed_minutes: int = 0
    credits_spent: int = 0
    skill_points_spent: int = 0
    rolls_made: int = 0
    paid: bool = False
    """The current attempt has been charged (set while a roll is awaited)."""
    log: tuple[LogEntry, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def current_step(self) -> ImprovementStep | None:
        return self.steps[self.step_index] if self.step_index < len(self.steps) else None

    @property
    def value(self) -> str | None:
        """The stat's value now (the last step completed)."""
        if self.step_index == 0:
            return None if self.request.current is None else str(self.request.current)
        return self.steps[self.step_index - 1].after

    @property
    def credits_planned(self) -> int:
        return sum(s.credits for s in self.steps)

    @property
    def skill_points_planned(self) -> int:
        return sum(s.skill_points for s in self.steps)


def _improvement_steps(
    request: ProjectRequest, ruleset: RuleSet
) -> tuple[str, tuple[ImprovementStep, ...], list[str]]:
    warnings: list[str] = []
    if ruleset.equipment_improvement == "rc_skill_points":
        npc = request.labour == "hired"
        common = {"scale": request.scale, "npc": npc, "ruleset": ruleset}
        if request.stat == "hyperdrive":
            steps = rc_hyperdrive_improvement(request.current, request.target, **common)  # type: ignore[arg-type]
        elif request.stat == "armor_dexterity":
            if request.stock is None:
                raise EquipmentError("give the armor's Dexterity penalty as the stock value")
            penalty = DieCode.parse(request.stock).total_pips  # type: ignore[arg-type]
            if abs(penalty) < DieCode.parse(request.target).total_pips:  # type: ignore[arg-type]
                raise EquipmentError(
                    "Dexterity enhancements may only cancel the armor's Dexterity penalty"
                )
            steps = rc_improvement("0D", request.current, request.target, additive=True, **common)  # type: ignore[arg-type]
        else:
            additive = (
                request.stat in RC_ADDITIVE_STATS if request.additive is None else request.additive
            )
            original = request.current if request.stock is None else request.stock
            steps = rc_improvement(
                original, request.current, request.target, additive=additive, **common
            )  # type: ignore[arg-type]
        if any(s.difficulty == VD for s in steps):
            warnings.append("the 5th and later pips need Very Difficult technology rolls")
        return "rc", steps, warnings
    if request.item_value is None:
        raise EquipmentError("Rules Upgrade improvements cost a % of the item's original value")
    multiplier = request.hired_multiplier if request.labour == "hired" else 1
    steps = upg_improvement(
        request.stat,
        request.stock if request.stock is not None else request.current,
        request.current,
        request.target,
        base_value=request.item_value,
        hired_multiplier=multiplier,
        ruleset=ruleset,
    )
    if request.stat == "hyperdrive":
        warnings.append("a failed hyperdrive modification may damage it permanently (GM's call)")
    if request.first_roll_immediate:
        steps = (dataclasses.replace(steps[0], minutes=0), *steps[1:])
    return "upg", steps, warnings


def _repair_steps(
    request: ProjectRequest, ruleset: RuleSet
) -> tuple[str, tuple[ImprovementStep, ...], list[str]]:
    multiplier = request.hired_multiplier if request.labour == "hired" else 1
    need = repair_requirement(
        request.stat,
        request.damage,
        base_value=request.item_value,
        hired_multiplier=multiplier,
        ruleset=ruleset,
    )
    minutes, _ = work_pace(need.first_roll_minutes, request.skill, request.pace, ruleset=ruleset)
    warnings = [need.note] if need.note else []
    five_lost = request.stat == "moves" and _as_int(request.damage, "moves lost") >= 5
    if five_lost and ruleset.lost_moves_5 == "destroyed":
        warnings.append("at -5 Moves the vehicle is destroyed: rebuild only with the GM's leave")
    step = ImprovementStep(
        ordinal=1,
        before=f"{request.stat} damaged ({request.damage})",
        after=f"{request.stat} repaired",
        difficulty=need.difficulty,
        credits=need.credits or 0,
        skill_points=0,
        minutes=minutes,
        percent=need.percent,
    )
    system = "house_repair" if ruleset.repair_tables == "house" else "upg_repair"
    return system, (step,), warnings


def _weapon_steps(
    request: ProjectRequest, ruleset: RuleSet
) -> tuple[str, tuple[ImprovementStep, ...], list[str]]:
    cost = rc_weapon_install(
        request.scale,
        purchased_price=request.purchased_price,
        method=request.install_method,
        npc=request.labour == "hired",
        ruleset=ruleset,
    )
    if cost.options and request.install_method is None:
        raise EquipmentError("choose how to install the weapon: pay the 'fee' or 'skill_points'")
    step = ImprovementStep(
        ordinal=1,
        before="no weapon",
        after="weapon installed",
        difficulty=rc_tech_difficulty(1),  # suggestion (§9.1): as for a first pip
        credits=cost.credits,
        skill_points=cost.skill_points,
        minutes=rc_time_per_pip(request.scale, ruleset),
    )
    warnings = (
        ["adding weapons is a Rules Companion rule"]
        if ruleset.equipment_improvement != "rc_skill_points"
        else []
    )
    return "rc", (step,), warnings


def _droid_skill_steps(
    request: ProjectRequest, ruleset: RuleSet
) -> tuple[str, tuple[ImprovementStep, ...], list[str]]:
    if request.attribute is None:
        raise EquipmentError("a droid skill needs its attribute's code")
    target = DieCode.parse(request.target)  # type: ignore[arg-type]
    current = None if request.current is None else DieCode.parse(request.current)  # type: ignore[arg-type]
    steps = []
    code = current
    while code is None or code < target:
        cost = droid_skill_cost(request.stat, code, request.attribute, ruleset)
        steps.append(
            ImprovementStep(
                ordinal=len(steps) + 1,
                before="none" if code is None else str(code),
                after=str(cost.result),
                difficulty=None,  # no roll in the source
                credits=cost.credits,
                skill_points=cost.points,
                minutes=request.step_minutes or 0,
            )
        )
        code = cost.result
    return "rc" if ruleset.advancement_table == "rc_skill_points" else "gm", tuple(steps), []


def validate_project(request: ProjectRequest, ruleset: RuleSet = RuleSet()) -> ProjectState:
    """Check a project against the campaign's rules and price every step up front.

    Raises ``EquipmentError`` for what the rules refuse (a cap passed, a destroyed weapon, a
    Force skill on a droid ...); returns the starting :class:`ProjectState` with warnings."""
    if request.labour == "hired" and request.hired_multiplier not in UPG_HIRED_MULTIPLIERS:
        raise EquipmentError("hired work costs double or triple (multiplier 2 or 3)")
    if request.pace != "normal" and request.kind != "repair":
        raise EquipmentError("only repairs can be prepared for or rushed")
    for level, number in request.difficulty_numbers:
        if level not in LEVELS:
            raise EquipmentError(f"{level!r} is not a difficulty level")
        low, high = number_range(level, ruleset)
        if not low <= number <= high:
            raise EquipmentError(f"a {level} difficulty number is {low}-{high}, not {number}")
    builders = {
        "repair": _repair_steps,
        "improve": _improvement_steps,
        "add_weapon": _weapon_steps,
        "droid_skill": _droid_skill_steps,
    }
    if request.kind not in builders:
        raise EquipmentError(f"unknown project kind {request.kind!r}")
    system, steps, warnings = builders[request.kind](request, ruleset)
    for step in steps:
        if step.difficulty is not None:
            number_range(step.difficulty, ruleset)  # an RC-scale campaign has no Heroic
    if request.step_minutes is not None and request.kind != "droid_skill":
        steps = tuple(dataclasses.replace(s, minutes=request.step_minutes) for s in steps)
    return ProjectState(request=request, system=system, steps=steps, warnings=tuple(warnings))  # type: ignore[arg-type]


def _interval(state: ProjectState, step: ImprovementStep) -> int:
    if state.attempt == 0:
        return step.minutes
    if state.system.endswith("_repair") and state.request.retry_minutes is not None:
        return state.request.retry_minutes
    if state.system == "upg":
        return DAYS_PER_MONTH * MINUTES_PER_DAY  # a new roll every month
    return step.minutes


def _difficulty_number(
    level: str, request: ProjectRequest, rng: DiceSource, ruleset: RuleSet
) -> int:
    pinned = dict(request.difficulty_numbers)
    if level in pinned:
        return pinned[level]
    return random_difficulty(level, rng, ruleset=ruleset).number


def _charge(state: ProjectState, step: ImprovementStep) -> ProjectState:
    credits = step.credits if state.request.charge_credits == "each_attempt" else 0
    return dataclasses.replace(
        state,
        paid=True,
        credits_spent=state.credits_spent + credits,
        skill_points_spent=state.skill_points_spent + step.skill_points,
    )


def _settle(
    state: ProjectState, success: bool, number: int | None, total: int | None
) -> ProjectState:
    """Record an attempt on the current step and move on (or stay) accordingly."""
    step = state.steps[state.step_index]
    late_credits = step.credits if success and state.request.charge_credits == "on_success" else 0
    entry = LogEntry(
        at_minutes=state.elapsed_minutes,
        step=step.ordinal,
        difficulty=step.difficulty,
        number=number,
        total=total,
        success=success,
        credits=step.credits if state.request.charge_credits == "each_attempt" else late_credits,
        skill_points=step.skill_points,
        note="" if success else _failure_note(state),
    )
    state = dataclasses.replace(
        state,
        log=(*state.log, entry),
        credits_spent=state.credits_spent + late_credits,
        rolls_made=state.rolls_made + (total is not None),
        paid=False,
        minutes_worked=0,
    )
    if success:
        index = state.step_index + 1
        done = index >= len(state.steps)
        return dataclasses.replace(
            state, step_index=index, attempt=0, status="completed" if done else "in_progress"
        )
    status: Status = "awaiting_gm" if _hyperdrive_upg(state) else "in_progress"
    return dataclasses.replace(state, attempt=state.attempt + 1, status=status)


def _hyperdrive_upg(state: ProjectState) -> bool:
    return state.system == "upg" and state.request.stat == "hyperdrive"


def _failure_note(state: ProjectState) -> str:
    if _hyperdrive_upg(state):
        return "failed: the GM decides whether the hyperdrive is damaged or sporadic"
    if state.system == "rc":
        return "failed: the skill points are wasted; the equipment works as before"
    return "failed: try again"


def _roll_code(request: ProjectRequest) -> tuple[DieCode, DieCode]:
    code = request.skill
    bonus = request.bonus
    if request.pace == "rushed":
        code = code.halved()
    elif request.pace == "prepared":
        bonus = bonus + DieCode(1)
    return code, bonus


def _dice(rng: DiceSource | int, state: ProjectState) -> DiceSource:
    if isinstance(rng, int) and not isinstance(rng, bool):
        return SeededDice(hash((rng, state.rolls_made, state.elapsed_minutes, state.step_index)))
    return rng  # type: ignore[return-value]


def advance_project(
    state: ProjectState,
    days: int | float | Fraction,
    rng: DiceSource | int,
    ruleset: RuleSet = RuleSet(),
) -> ProjectState:
    """Let ``days`` of game time pass on a project and return the new state.

    Each time the work for a step's roll is done, the attempt is charged (credits per the
    request's policy; [RC] skill points always, and wasted on failure); then, with
    ``roll_mode == "auto"``, the worker's skill (+ bonus; rushed: half; prepared: +1D) is
    rolled against the level's number, else the project waits for :func:`resolve_roll`.
    A failed [UPG] hyperdrive modification waits for the GM (:func:`resume_project`).
    Dice come from ``rng``; an ``int`` seeds a source from the state, so the same state, days
    and seed always give the same result."""
    if days < 0:
        raise EquipmentError("game time only moves forward")
    if state.status != "in_progress":
        return state
    minutes = round(Fraction(days) * MINUTES_PER_DAY)
    dice = _dice(rng, state)
    budget = state.minutes_worked + minutes
    start = state.elapsed_minutes
    clock = start - state.minutes_worked  # when work on the next roll began
    while state.status == "in_progress":
        step = state.steps[state.step_index]
        need = _interval(state, step)
        if budget < need:
            break
        budget -= need
        clock += need
        state = _charge(dataclasses.replace(state, elapsed_minutes=clock), step)
        if step.difficulty is None:
            state = _settle(state, True, None, None)
            continue
        if state.request.roll_mode != "auto":
            state = dataclasses.replace(state, status="awaiting_roll")
            break
        code, bonus = _roll_code(state.request)
        total = roll(code, ruleset, dice, bonus=bonus or None).total
        number = _difficulty_number(step.difficulty, state.request, dice, ruleset)
        state = _settle(state, total >= number, number, total)
    worked = budget if state.status == "in_progress" else 0
    return dataclasses.replace(state, minutes_worked=worked, elapsed_minutes=start + minutes)


def resolve_roll(state: ProjectState, total: int, difficulty_number: int) -> ProjectState:
    """Settle a roll made at the table for a project that is ``awaiting_roll``."""
    if state.status != "awaiting_roll":
        raise EquipmentError("this project is not waiting for a roll")
    state = dataclasses.replace(state, status="in_progress")
    return _settle(state, total >= difficulty_number, difficulty_number, total)


def resume_project(state: ProjectState) -> ProjectState:
    """The GM has ruled on a failed hyperdrive modification: work on the step goes on."""
    if state.status != "awaiting_gm":
        raise EquipmentError("this project is not waiting for the GM")
    return dataclasses.replace(state, status="in_progress")


def abandon_project(state: ProjectState) -> ProjectState:
    """Stop a project; what was spent stays spent."""
    if state.status == "completed":
        raise EquipmentError("a completed project cannot be abandoned")
    return dataclasses.replace(state, status="abandoned", paid=False, minutes_worked=0)
