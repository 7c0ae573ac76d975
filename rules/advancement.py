"""Advancement: what an improvement costs and how long it trains; Character Points in play.

Three cost tables, chosen by ``RuleSet.advancement_table``:

* ``"upg"``: the Rules Upgrade to 2E R&E (001 l.19-39, l.592-596): the cost is the number
  before the D of the **current** code (halved for specializations, doubled for advanced skills,
  times ten for attributes); training is counted in days or weeks per Character Point.
* ``"house"``: the House Rules items 15-22 (004 l.117-129): new skills, specializations and
  advanced skills bought outright, training by skill level, cost and time doubled without an
  instructor, attributes that lift every skill under them.
* ``"rc_skill_points"``: the Rules Companion's skill points (000 l.4240-4300), which price only
  skills, Force skills, new Force skills and Force powers; anything else raises
  :class:`NotInRuleset` so the GM sets it.

Weeks are ``RuleSet.days_per_week`` days (7, or 5 in the House calendar); a month is 35 days in
both ([HOUSE] 004 l.122; characters-and-advancement.md A-C17).

The second half of the module covers Character Points in play: the per-roll spending limits
(§3.2), the one-pip-per-adventure limit, the attribute improvement roll, schools, school debt
and the House CP slot.
"""

from __future__ import annotations

import math
import re
import typing
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Literal

from rules.dice import DiceSource, DieCode, roll
from rules.errors import RulesError
from rules.ruleset import RuleSet

__all__ = [
    "KINDS",
    "MAX_SCHOOL_DEBT",
    "MONTH_DAYS",
    "NCO_LEADERSHIP_I",
    "AdvancementError",
    "AttributeRoll",
    "ImprovementCost",
    "NotInRuleset",
    "School",
    "ambidexterity_cost",
    "apply_school",
    "attribute_improvement_roll",
    "can_raise_this_downtime",
    "check_cp_slot",
    "check_cp_spend",
    "check_one_pip_per_adventure",
    "check_school_debt",
    "cp_and_fp_same_round_allowed",
    "cp_slot_cap",
    "improvement_cost",
    "max_cp_per_roll",
    "resolve_attribute_roll",
    "skills_after_attribute_raise",
    "split_earned_cp",
]

MONTH_DAYS = 35
"""[HOUSE] "1 month (35 days)" (004 l.122); used for 2E too (A-C17)."""

Kind = Literal[
    "skill",
    "specialization",
    "advanced",
    "advanced_specialization",
    "attribute",
    "force_skill",
    "move",
    "force_power",
    "force_sensitivity",
    "new_skill",
    "new_specialization",
    "new_advanced",
    "new_advanced_specialization",
    "new_force_skill",
]

KINDS: tuple[str, ...] = typing.get_args(Kind)

_LABEL = {
    "skill": "a skill",
    "specialization": "a specialization",
    "advanced": "an advanced skill",
    "advanced_specialization": "an advanced specialization",
    "attribute": "an attribute",
    "force_skill": "a Force skill",
    "move": "Move",
    "force_power": "a Force power",
    "force_sensitivity": "Force-sensitivity",
    "new_skill": "a new skill",
    "new_specialization": "a new specialization",
    "new_advanced": "a new advanced skill",
    "new_advanced_specialization": "a new advanced specialization",
    "new_force_skill": "a new Force skill",
    "ambidexterity": "ambidexterity",
}
_NO_CODE_KINDS = frozenset(
    {"move", "force_power", "force_sensitivity", "new_advanced", "new_force_skill"}
)
_PIP_LIMITED = frozenset(
    {"skill", "specialization", "advanced", "advanced_specialization", "force_skill"}
)
_ONE_PIP = DieCode(0, 1)


class AdvancementError(RulesError):
    """An improvement the rules do not allow, with a message a player understands."""


class NotInRuleset(AdvancementError):
    """The campaign's rules do not price this improvement; the GM has to set it."""


# ---------------------------------------------------------------------------------------------
# The cost of one improvement
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ImprovementCost:
    """What one improvement costs.

    ``character_points`` includes any extra points spent to shorten training; ``training_days``
    is the time after that reduction (``None`` when the ruleset does not state a time, so the GM
    sets it). ``min_training_days`` is ``None`` when training cannot be shortened."""

    kind: str
    current: DieCode | int | None
    new: DieCode | int | None
    base_character_points: int
    base_training_days: int | None
    extra_cp: int = 0
    min_training_days: int | None = None
    days_per_extra_cp: int = 1
    attribute_roll: bool = False
    currency: Literal["Character Points", "skill points"] = "Character Points"
    notes: tuple[str, ...] = ()

    @property
    def character_points(self) -> int:
        return self.base_character_points + self.extra_cp

    @property
    def training_days(self) -> int | None:
        if self.base_training_days is None or not self.extra_cp:
            return self.base_training_days
        assert self.min_training_days is not None  # with_extra_cp refuses otherwise
        cut = self.extra_cp * self.days_per_extra_cp
        return max(self.min_training_days, self.base_training_days - cut)

    @property
    def can_shorten(self) -> bool:
        """True if extra points can still take time off."""
        days = self.training_days
        return (
            self.min_training_days is not None
            and days is not None
            and days > self.min_training_days
        )

    @property
    def useful_extra_cp(self) -> int:
        """Extra points that bring training down to its minimum; more are wasted."""
        if self.min_training_days is None or self.base_training_days is None:
            return 0
        gap = max(0, self.base_training_days - self.min_training_days)
        return math.ceil(gap / self.days_per_extra_cp)

    def with_extra_cp(self, n: int) -> ImprovementCost:
        """Spend ``n`` more points to shorten training (one day per point, or one week per
        skill point for a new [RC] Force skill), never below the minimum."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise AdvancementError("extra Character Points must be a whole number, 0 or more")
        if n == 0:
            return self
        label = _LABEL.get(self.kind, self.kind)
        if self.base_training_days is None:
            raise AdvancementError(
                f"no training time is set for {label}; the gamemaster decides how long it takes"
            )
        if not self.base_training_days:
            raise AdvancementError(f"improving {label} needs no training time to shorten")
        if self.min_training_days is None:
            raise AdvancementError(
                f"training for {label} cannot be shortened by spending extra points"
            )
        return ImprovementCost(
            kind=self.kind,
            current=self.current,
            new=self.new,
            base_character_points=self.base_character_points,
            base_training_days=self.base_training_days,
            extra_cp=self.extra_cp + n,
            min_training_days=self.min_training_days,
            days_per_extra_cp=self.days_per_extra_cp,
            attribute_roll=self.attribute_roll,
            currency=self.currency,
            notes=self.notes,
        )


def improvement_cost(
    kind: str,
    current: DieCode | str | int | None = None,
    ruleset: RuleSet = RuleSet(),
    teacher: bool = True,
    used_last_adventure: bool = False,
    *,
    extra_cp: int = 0,
    teacher_code: DieCode | str | None = None,
    species_maximum: int | None = None,
) -> ImprovementCost:
    """The cost and training time of one improvement of ``kind`` from ``current``.

    ``current`` is the code being improved (a DieCode or its text); for ``new_skill`` the
    governing attribute, for ``new_specialization`` the base skill (or attribute), for
    ``new_advanced_specialization`` the base advanced skill, for ``move`` the current Move.
    ``teacher`` means a teacher or instructor; ``used_last_adventure`` that the skill was used
    (House: tried) in the last adventure. ``teacher_code`` is an [RC] Force teacher's code in the
    skill; ``species_maximum`` the species' maximum Move."""
    if kind not in KINDS:
        raise AdvancementError(f"unknown improvement {kind!r}; choose one of {', '.join(KINDS)}")
    value = _parse_current(kind, current)
    if kind == "move" and species_maximum is not None and value >= species_maximum:  # type: ignore[operator]
        raise AdvancementError(
            f"Move {value} is already the species maximum {species_maximum}; it cannot rise"
        )
    table = {"upg": _upg, "house": _house, "rc_skill_points": _rc}[ruleset.advancement_table]
    cost = table(kind, value, ruleset, teacher, used_last_adventure, teacher_code)
    return cost.with_extra_cp(extra_cp)


def _parse_current(kind: str, current: DieCode | str | int | None) -> DieCode | int | None:
    label = _LABEL[kind]
    if kind == "move":
        if isinstance(current, bool) or not isinstance(current, int) or current < 1:
            raise AdvancementError(f"Move must be a whole number of 1 or more, not {current!r}")
        return current
    if kind in _NO_CODE_KINDS:
        return None
    if current is None:
        raise AdvancementError(f"give the current die code to price {label}")
    if isinstance(current, int) and not isinstance(current, bool):
        raise AdvancementError(f"{current!r} is not a die code; write it like 4D+2")
    code = DieCode.parse(current)  # type: ignore[arg-type]
    if not code.is_standard:
        raise AdvancementError(f"{code} is not a code on a character sheet; write it like 4D+2")
    if code.dice < 1:
        raise AdvancementError(
            f"{label} at {code} has no die before the D to price; it starts from its attribute"
        )
    return code


def _week(ruleset: RuleSet) -> int:
    return ruleset.days_per_week


def _cost(
    kind: str,
    current: DieCode | int | None,
    new: DieCode | int | None,
    cp: int,
    days: int | None,
    *,
    minimum: int | None = None,
    rate: int = 1,
    roll_needed: bool = False,
    currency: Literal["Character Points", "skill points"] = "Character Points",
    notes: tuple[str, ...] = (),
) -> ImprovementCost:
    return ImprovementCost(
        kind=kind,
        current=current,
        new=new,
        base_character_points=cp,
        base_training_days=days,
        min_training_days=minimum if days else None,
        days_per_extra_cp=rate,
        attribute_roll=roll_needed,
        currency=currency,
        notes=notes,
    )


def _next(code: DieCode | int | None) -> DieCode:
    assert isinstance(code, DieCode)
    return code + _ONE_PIP


# --- Rules Upgrade ---------------------------------------------------------------------------
def _upg(
    kind: str,
    cur: DieCode | int | None,
    ruleset: RuleSet,
    teacher: bool,
    used: bool,
    teacher_code: DieCode | str | None,
) -> ImprovementCost:
    """[UPG] 001 l.19-39 and l.592-596."""
    per = 1 if teacher else 2
    week = _week(ruleset)
    n = cur.dice if isinstance(cur, DieCode) else 0
    if kind in ("skill", "new_skill", "specialization", "new_specialization"):
        cp = n if kind in ("skill", "new_skill") else math.ceil(n / 2)  # A-C2: rounded up
        notes: tuple[str, ...] = ()
        if kind == "new_skill":
            notes = ("[2E-STD] a new skill is improved from its attribute's code",)
        return _cost(kind, cur, _next(cur), cp, 0 if used else cp * per, minimum=1, notes=notes)
    if kind in ("advanced", "advanced_specialization"):
        cp = 2 * n if kind == "advanced" else n  # (derived) a specialization costs half
        return _cost(kind, cur, _next(cur), cp, cp * week * per)
    if kind == "attribute":
        cp = 10 * n
        return _cost(
            kind, cur, _next(cur), cp, cp * week * per, roll_needed=ruleset.attribute_improve_roll
        )
    if kind == "move":
        assert isinstance(cur, int)
        return _cost(kind, cur, cur + 1, cur, cur * week * per)
    if kind == "force_skill":
        cp = n * per  # doubled without a teacher; days count the points spent (A-C11)
        return _cost(kind, cur, _next(cur), cp, cp * per, minimum=1)
    if kind == "force_power":
        return _cost(
            kind,
            None,
            None,
            5,
            0,
            notes=("the power must be taught; one power per Force-skill pip is free",),
        )
    if kind == "force_sensitivity":
        return _cost(kind, None, None, 20, 0, notes=("Force-sensitivity can never be lost",))
    raise NotInRuleset(
        f"the Rules Upgrade gives no cost for {_LABEL[kind]}; the gamemaster sets it"
    )


# --- House Rules -----------------------------------------------------------------------------
def _house_skill_days(code: DieCode, ruleset: RuleSet) -> int:
    """[HOUSE] item 17: 3 days per pip up to 4D, 1 week from 4D to 7D, 2 weeks above (A-C3)."""
    if code < DieCode(4):
        return 3
    if code < DieCode(7):
        return _week(ruleset)
    return 2 * _week(ruleset)


def _house(
    kind: str,
    cur: DieCode | int | None,
    ruleset: RuleSet,
    teacher: bool,
    used: bool,
    teacher_code: DieCode | str | None,
) -> ImprovementCost:
    """[HOUSE] 004 l.117-129 (items 15-22); Force skills follow item 17 (force.md A-F18)."""
    per = 1 if teacher else 2
    week = _week(ruleset)
    n = cur.dice if isinstance(cur, DieCode) else 0
    if kind in ("skill", "force_skill", "specialization"):
        assert isinstance(cur, DieCode)
        cp = n * per  # A-C1: the number before the D, doubled without an instructor
        if kind == "specialization":
            cp = math.ceil(cp / 2)  # item 19: half as much, rounded up
        days = 0 if used else _house_skill_days(cur, ruleset) * per
        return _cost(kind, cur, _next(cur), cp, days, minimum=1)
    if kind == "new_skill":
        if not (used or teacher):
            raise AdvancementError(
                "a new skill must have been tried in an adventure or trained with an instructor"
            )
        return _cost(kind, cur, cur, 5, 0, notes=("the skill starts at the attribute's code",))
    if kind == "new_specialization":
        pip = math.ceil(n * per / 2)
        return _cost(kind, cur, _next(cur), 5 + pip, 0, notes=("the base skill is not required",))
    if kind in ("advanced", "advanced_specialization"):
        cp = 2 * n * per  # item 20: x2 with an instructor, x4 without
        if kind == "advanced_specialization":
            cp = math.ceil(cp / 2)
        return _cost(kind, cur, _next(cur), cp, cp * week * per, minimum=week)
    if kind == "new_advanced":
        return _cost(
            kind,
            None,
            DieCode(1),
            10,
            10 * week * per,
            minimum=week,
            notes=("the advanced skill's prerequisite must be met",),
        )
    if kind == "new_advanced_specialization":
        return _cost(kind, cur, DieCode(1), 10, 0, notes=("needs the base advanced skill",))
    if kind == "attribute":
        assert isinstance(cur, DieCode)
        months = 1 if cur < DieCode(4) else 2  # item 21 (A-C3)
        lifts = ("every non-advanced skill under the attribute rises one pip",)
        return _cost(
            kind,
            cur,
            _next(cur),
            10 * n * per,
            months * MONTH_DAYS * per,
            roll_needed=ruleset.attribute_improve_roll,
            notes=lifts if ruleset.attribute_raise_lifts_skills else (),
        )
    if kind == "move":
        assert isinstance(cur, int)
        # item 22: "the same as raising an Attribute with a one-week minimum" (A-C4)
        return _cost(kind, cur, cur + 1, cur * per, MONTH_DAYS * per, minimum=week)
    if kind in ("force_power", "force_sensitivity"):
        return _upg(kind, cur, ruleset, teacher, used, teacher_code)
    raise NotInRuleset(f"the House Rules give no cost for {_LABEL[kind]}; the gamemaster sets it")


# --- Rules Companion skill points ------------------------------------------------------------
def _rc(
    kind: str,
    cur: DieCode | int | None,
    ruleset: RuleSet,
    teacher: bool,
    used: bool,
    teacher_code: DieCode | str | None,
) -> ImprovementCost:
    """[RC] 000 l.4240-4300 and l.2494 ("in the same way as for characters' skills")."""
    sp: Literal["skill points"] = "skill points"
    week = _week(ruleset)
    if kind == "skill":
        assert isinstance(cur, DieCode)
        return _cost(kind, cur, _next(cur), cur.dice, None, currency=sp)
    if kind == "force_skill":
        assert isinstance(cur, DieCode)
        above = teacher_code is not None and cur >= DieCode.parse(teacher_code)
        double = not teacher or above
        notes = ("double cost: raised above the teacher's code",) if above else ()
        return _cost(
            kind, cur, _next(cur), cur.dice * (2 if double else 1), None, currency=sp, notes=notes
        )
    if kind == "new_force_skill":
        if not teacher:
            raise AdvancementError("a new Force skill can only be learned from a teacher or master")
        return _cost(
            kind,
            None,
            DieCode(1),
            0,
            10 * week,
            minimum=week,
            rate=week,
            currency=sp,
            notes=("control or sense first; alter is taught last",),
        )
    if kind == "force_power":
        return _cost(kind, None, None, 0 if teacher else 1, week, currency=sp)
    raise NotInRuleset(
        f"the Rules Companion gives no skill-point cost for {_LABEL[kind]}; the gamemaster sets it"
    )


def ambidexterity_cost(dexterity: DieCode | str, ruleset: RuleSet = RuleSet()) -> ImprovementCost:
    """[HOUSE] item 15: 7 CP at Dexterity 4D+, 15 at 3D-3D+2, 30 at 2D+2 or less; one week per
    CP, at least one month; no teacher needed."""
    if ruleset.advancement_table != "house":
        raise NotInRuleset("ambidexterity is bought only under the House Rules")
    dex = DieCode.parse(dexterity)
    cp = 7 if dex >= DieCode(4) else 15 if dex >= DieCode(3) else 30
    days = max(MONTH_DAYS, cp * _week(ruleset))
    return _cost("ambidexterity", dex, None, cp, days)


# ---------------------------------------------------------------------------------------------
# Limits and procedures between adventures
# ---------------------------------------------------------------------------------------------
def can_raise_this_downtime(
    kind: str, pips_raised_since_last_adventure: int, ruleset: RuleSet = RuleSet()
) -> bool:
    """[UPG] "A character can only improve a skill one pip between adventures" (001 l.19);
    applied to skills, specializations, advanced and Force skills, each separately (A-C7)."""
    if pips_raised_since_last_adventure < 0:
        raise AdvancementError("pips raised cannot be negative")
    if not ruleset.one_pip_per_skill_between_adventures or kind not in _PIP_LIMITED:
        return True
    return pips_raised_since_last_adventure == 0


def check_one_pip_per_adventure(
    kind: str, name: str, pips_raised_since_last_adventure: int, ruleset: RuleSet = RuleSet()
) -> None:
    """Raise if ``name`` was already raised a pip since the last adventure."""
    if not can_raise_this_downtime(kind, pips_raised_since_last_adventure, ruleset):
        raise AdvancementError(
            f"{name} was already raised a pip since the last adventure; "
            "a skill rises only one pip between adventures"
        )


@dataclass(frozen=True, slots=True)
class AttributeRoll:
    """The [UPG] attribute improvement roll: ``improved`` or ``refund`` CP back."""

    improved: bool
    refund: int
    character_roll: int | None = None
    gamemaster_roll: int | None = None


def resolve_attribute_roll(
    character_roll: int, gamemaster_roll: int, cp_spent: int
) -> AttributeRoll:
    """[UPG] 001 l.33: the attribute rises if the character's roll is equal to or less than the
    GM's; otherwise it stays and half the Character Points come back (exactly half, A-C6)."""
    if cp_spent < 0:
        raise AdvancementError("Character Points spent cannot be negative")
    improved = character_roll <= gamemaster_roll
    return AttributeRoll(
        improved, 0 if improved else cp_spent // 2, character_roll, gamemaster_roll
    )


def attribute_improvement_roll(
    new_code: DieCode | str,
    species_maximum: DieCode | str,
    cp_spent: int,
    rng: DiceSource,
    ruleset: RuleSet = RuleSet(),
) -> AttributeRoll:
    """Roll the new attribute code (character) against the species maximum (GM), both with the
    ruleset's Wild Die (A-C6); without ``attribute_improve_roll`` the raise simply succeeds."""
    if not ruleset.attribute_improve_roll:
        return AttributeRoll(True, 0)
    mine = roll(new_code, ruleset, rng).total
    gms = roll(species_maximum, ruleset, rng).total
    return resolve_attribute_roll(mine, gms, cp_spent)


def skills_after_attribute_raise(
    skills: Mapping[str, DieCode | str],
    advanced: Collection[str] = (),
    ruleset: RuleSet = RuleSet(),
) -> dict[str, DieCode]:
    """The skills under an attribute after it rises a pip: [HOUSE] item 21 lifts every one
    except advanced skills (specializations included, A-C12); otherwise nothing changes."""
    lift = ruleset.attribute_raise_lifts_skills
    return {
        name: DieCode.parse(code) + (_ONE_PIP if lift and name not in advanced else DieCode())
        for name, code in skills.items()
    }


# --- Schools and the CP slot [HOUSE] ----------------------------------------------------------
MAX_SCHOOL_DEBT = 100
"""[HOUSE] item 9: "A maximum of 100 CP's can be owed"."""


@dataclass(frozen=True, slots=True)
class School:
    """A [HOUSE] school: its price, length and the pips it adds to skills."""

    name: str
    cp_cost: int
    weeks: int
    bonuses: tuple[tuple[str, str, int], ...]
    """(attribute, skill, pips)."""

    def length_days(self, ruleset: RuleSet = RuleSet()) -> int:
        return self.weeks * ruleset.days_per_week


NCO_LEADERSHIP_I = School(
    "NCO Leadership I",
    cp_cost=5,
    weeks=3,
    bonuses=(
        ("Perception", "command", 2),
        ("Perception", "persuasion", 1),
        ("Strength", "stamina", 1),
        ("Knowledge", "survival", 2),
        ("Knowledge", "tactics", 1),
        ("Knowledge", "willpower", 1),
    ),
)
"""[HOUSE] item 9's example school (004 l.69-78)."""


def apply_school(
    school: School,
    skills: Mapping[str, DieCode | str],
    attributes: Mapping[str, DieCode | str],
) -> dict[str, DieCode]:
    """Skills after the school: a skill the character lacks is gained at its attribute's code,
    then the school's pips are added ([HOUSE] 004 l.80)."""
    attrs = {k.lower(): DieCode.parse(v) for k, v in attributes.items()}
    result = {name: DieCode.parse(code) for name, code in skills.items()}
    for attribute, skill, pips in school.bonuses:
        if skill not in result:
            try:
                result[skill] = attrs[attribute.lower()]
            except KeyError:
                raise AdvancementError(
                    f"{school.name} needs the {attribute} code to grant {skill}"
                ) from None
        result[skill] = result[skill].plus_pips(pips)
    return result


def check_school_debt(current_debt: int, school_cost: int) -> None:
    """[HOUSE] item 9: at most 100 CP may be owed."""
    if current_debt + school_cost > MAX_SCHOOL_DEBT:
        raise AdvancementError(
            f"owing {current_debt} CP, a school costing {school_cost} CP would take the debt "
            f"past the {MAX_SCHOOL_DEBT} CP limit"
        )


def split_earned_cp(earned: int, debt: int) -> tuple[int, int]:
    """[HOUSE] item 9: half of every CP earned (rounded up, our choice) repays school debt.
    Returns (to the debt, kept)."""
    if earned < 0 or debt < 0:
        raise AdvancementError("earned points and debt cannot be negative")
    to_debt = min(debt, math.ceil(earned / 2))
    return to_debt, earned - to_debt


def cp_slot_cap(
    joined_group: bool, full_might: bool = False, ruleset: RuleSet = RuleSet()
) -> int | None:
    """[HOUSE] creation item 4: at most 20 CP in the in-play slot until the character joins a
    Resistance group or the Alliance, 30 after; no cap under "Full Might of the Empire" or
    outside the House Rules (None)."""
    if ruleset.advancement_table != "house" or full_might:
        return None
    return 30 if joined_group else 20


def check_cp_slot(
    held: int,
    earned_in_play: int = 0,
    joined_group: bool = False,
    full_might: bool = False,
    ruleset: RuleSet = RuleSet(),
) -> None:
    """Raise if the slot holds more than its cap; only points earned while gaming may exceed it."""
    cap = cp_slot_cap(joined_group, full_might, ruleset)
    if cap is not None and held - max(0, earned_in_play) > cap:
        raise AdvancementError(
            f"the Character Point slot holds {held} CP; at most {cap} may be placed there "
            "(more only from points earned while gaming)"
        )


# ---------------------------------------------------------------------------------------------
# Character Points in play (§3.2)
# ---------------------------------------------------------------------------------------------
_ROLL_ALIASES = {
    "skill_roll": "skill",
    "attribute_roll": "attribute",
    "resist_damage_roll": "resist_damage",
    "strength_to_resist_damage": "resist_damage",
    "damage_roll": "damage",
    "force_power_resistance": "resist_force_power",
    "starship_dodge": "vehicle_dodge",
    "full_dodge": "dodge",
}
_TWO = {"skill", "attribute", "attack", "melee_attack", "brawling_attack", "talent"}
_FIVE = {
    "specialization",
    "dodge",
    "vehicle_dodge",
    "parry",
    "melee_parry",
    "brawling_parry",
    "lightsaber_parry",
    "reaction",
    "resist_force_power",
}
_ROLL_KINDS = _TWO | _FIVE | {"damage", "resist_damage", "initiative", "gear_survival"}


def _roll_kind(kind_of_roll: str) -> str:
    key = re.sub(r"[\s-]+", "_", kind_of_roll.strip().lower())
    key = _ROLL_ALIASES.get(key, key)
    if key not in _ROLL_KINDS:
        raise AdvancementError(
            f"unknown kind of roll {kind_of_roll!r}; choose one of {', '.join(sorted(_ROLL_KINDS))}"
        )
    return key


def max_cp_per_roll(kind_of_roll: str, ruleset: RuleSet = RuleSet()) -> int | None:
    """The most Character Points one roll may take (None: no limit in this ruleset).

    [UPG] 001 l.307-311: 2 on skill or attribute uses including attacks; 5 on specializations,
    dodges and parries (vehicle, starship, lightsaber) and Perception/control against a Force
    power. [WIKI] 003 l.62: none on initiative. Damage and resisting damage use
    ``cp_on_damage``/``cp_on_resist_damage`` (A-C16). [HOUSE] 004 l.135-140: 5 also on
    Talents; melee/brawling parries or attacks by ``house_cp_melee_brawling`` (A-C15); 2 on
    a weapon's survival roll after a severe wound."""
    key = _roll_kind(kind_of_roll)
    if ruleset.cp_spend_limits == "none":
        return None
    if key == "initiative":
        return 0
    if key == "damage":
        return ruleset.cp_on_damage
    if key == "resist_damage":
        return ruleset.cp_on_resist_damage
    house = ruleset.cp_spend_limits == "house"
    if key == "gear_survival":
        return 2 if house else 0
    if house:
        if key == "resist_force_power":
            return 2  # not in the House list: a skill or attribute use
        if ruleset.house_cp_melee_brawling == "attack":
            if key in ("melee_attack", "brawling_attack"):
                return 5
            if key in ("melee_parry", "brawling_parry", "lightsaber_parry", "parry"):
                return 2
    elif key == "talent":
        return 2  # talents are a House term; elsewhere a plain skill use
    return 5 if key in _FIVE or key == "talent" else 2


def cp_and_fp_same_round_allowed(ruleset: RuleSet = RuleSet()) -> bool:
    """[UPG] 001 l.313: "Characters may use Character Points or a Force Point in a round; they
    may not use both" (the House Rules keep it; the RC has no such rule)."""
    return ruleset.cp_spend_limits == "none"


def check_cp_spend(
    kind_of_roll: str,
    cp: int,
    ruleset: RuleSet = RuleSet(),
    force_point_this_round: bool = False,
) -> None:
    """Raise if spending ``cp`` Character Points on this roll breaks a limit."""
    if isinstance(cp, bool) or not isinstance(cp, int) or cp < 0:
        raise AdvancementError("Character Points spent must be a whole number, 0 or more")
    if cp == 0:
        return
    limit = max_cp_per_roll(kind_of_roll, ruleset)
    what = kind_of_roll.replace("_", " ")
    if limit == 0:
        raise AdvancementError(f"Character Points cannot be spent on {what}")
    if limit is not None and cp > limit:
        raise AdvancementError(
            f"up to {limit} Character Points may be spent on {what}; {cp} is too many"
        )
    if force_point_this_round and not cp_and_fp_same_round_allowed(ruleset):
        raise AdvancementError(
            "a character uses Character Points or a Force Point in a round, never both"
        )
