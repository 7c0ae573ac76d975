"""What one improvement costs and how long it trains.

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

Weeks are ``RuleSet.days_per_week`` days (7, or 5 in the House calendar); a month is
:data:`rules.time.DAYS_PER_MONTH` (35) days in both ([HOUSE] 004 l.122; A-C17).
"""

from __future__ import annotations

import math
import typing
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, Self, cast

from rules.dice import DieCode, DieCodeError
from rules.errors import RulesError
from rules.ruleset import RuleSet
from rules.time import DAYS_PER_MONTH, weeks_to_days

__all__ = [
    "KINDS",
    "AdvancementError",
    "ImprovementCost",
    "Kind",
    "NotInRuleset",
    "ambidexterity_cost",
    "improvement_cost",
]

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

KINDS: Final[tuple[str, ...]] = typing.get_args(Kind)
"""Every kind of improvement :func:`improvement_cost` prices."""

Currency = Literal["Character Points", "skill points"]

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
    currency: Currency = "Character Points"
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

    def with_extra_cp(self, n: int) -> Self:
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
        return replace(self, extra_cp=self.extra_cp + n)

    # --- storing ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict: codes as text (``"4D+2"``), Move as a number."""
        return {
            "kind": self.kind,
            "current": _code_to_json(self.current),
            "new": _code_to_json(self.new),
            "base_character_points": self.base_character_points,
            "base_training_days": self.base_training_days,
            "extra_cp": self.extra_cp,
            "min_training_days": self.min_training_days,
            "days_per_extra_cp": self.days_per_extra_cp,
            "attribute_roll": self.attribute_roll,
            "currency": self.currency,
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        """The cost :meth:`to_json` stored; :class:`AdvancementError` on anything else."""
        d = _mapping(data, "an improvement cost")
        kind = d.get("kind")
        if kind not in _LABEL:
            raise AdvancementError(f"stored improvement of unknown kind {kind!r}")
        currency = d.get("currency", "Character Points")
        if currency not in ("Character Points", "skill points"):
            raise AdvancementError(f"stored improvement paid in {currency!r}")
        notes = d.get("notes", [])
        if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
            raise AdvancementError("stored improvement notes must be a list of text")
        attribute_roll = d.get("attribute_roll", False)
        if not isinstance(attribute_roll, bool):
            raise AdvancementError("stored attribute_roll must be true or false")
        cost = cls(
            kind=kind,
            current=_code_from_json(d.get("current"), "current"),
            new=_code_from_json(d.get("new"), "new"),
            base_character_points=_whole(d.get("base_character_points"), "base_character_points"),
            base_training_days=_optional_whole(d.get("base_training_days"), "base_training_days"),
            min_training_days=_optional_whole(d.get("min_training_days"), "min_training_days"),
            days_per_extra_cp=_whole(d.get("days_per_extra_cp", 1), "days_per_extra_cp"),
            attribute_roll=attribute_roll,
            currency=cast(Currency, currency),
            notes=tuple(notes),
        )
        extra = _whole(d.get("extra_cp", 0), "extra_cp")
        return cost.with_extra_cp(extra) if extra else cost


def _mapping(data: object, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise AdvancementError(f"stored {what} must be a JSON object")
    return data


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AdvancementError(f"stored {name} must be a whole number, 0 or more")
    return value


def _optional_whole(value: object, name: str) -> int | None:
    return None if value is None else _whole(value, name)


def _code_to_json(code: DieCode | int | None) -> str | int | None:
    return str(code) if isinstance(code, DieCode) else code


def _code_from_json(value: object, name: str) -> DieCode | int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if not isinstance(value, str):
        raise AdvancementError(f"stored {name} must be a die code, a number or null")
    try:
        return DieCode.parse(value)
    except DieCodeError as exc:
        raise AdvancementError(f"stored {name}: {exc}") from None


def improvement_cost(
    kind: str,
    current: DieCode | str | int | None = None,
    *,
    ruleset: RuleSet,
    teacher: bool = True,
    used_last_adventure: bool = False,
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
    if isinstance(value, int) and species_maximum is not None and value >= species_maximum:
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
    if isinstance(current, int):
        raise AdvancementError(f"{current!r} is not a die code; write it like 4D+2")
    code = DieCode.parse(current)
    if not code.is_standard:
        raise AdvancementError(f"{code} is not a code on a character sheet; write it like 4D+2")
    if code.dice < 1:
        raise AdvancementError(
            f"{label} at {code} has no die before the D to price; it starts from its attribute"
        )
    return code


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
    currency: Currency = "Character Points",
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


def _dice(code: DieCode | int | None) -> int:
    return code.dice if isinstance(code, DieCode) else 0


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
    week = weeks_to_days(1, ruleset=ruleset)
    n = _dice(cur)
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
        return weeks_to_days(1, ruleset=ruleset)
    return weeks_to_days(2, ruleset=ruleset)


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
    week = weeks_to_days(1, ruleset=ruleset)
    n = _dice(cur)
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
            months * DAYS_PER_MONTH * per,
            roll_needed=ruleset.attribute_improve_roll,
            notes=lifts if ruleset.attribute_raise_lifts_skills else (),
        )
    if kind == "move":
        assert isinstance(cur, int)
        # item 22: "the same as raising an Attribute with a one-week minimum" (A-C4)
        return _cost(kind, cur, cur + 1, cur * per, DAYS_PER_MONTH * per, minimum=week)
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
    sp: Currency = "skill points"
    week = weeks_to_days(1, ruleset=ruleset)
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


def ambidexterity_cost(dexterity: DieCode | str, *, ruleset: RuleSet) -> ImprovementCost:
    """[HOUSE] item 15: 7 CP at Dexterity 4D+, 15 at 3D-3D+2, 30 at 2D+2 or less; one week per
    CP, at least one month; no teacher needed."""
    if ruleset.advancement_table != "house":
        raise NotInRuleset("ambidexterity is bought only under the House Rules")
    dex = DieCode.parse(dexterity)
    cp = 7 if dex >= DieCode(4) else 15 if dex >= DieCode(3) else 30
    days = max(DAYS_PER_MONTH, weeks_to_days(cp, ruleset=ruleset))
    return _cost("ambidexterity", dex, None, cp, days)
