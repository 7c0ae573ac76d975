"""[HOUSE] schools, school debt and the Character Point slot (004 l.69-80, creation item 4).

A :class:`SchoolEnrolment` is a school being attended, stored between downtime job steps
(``to_json``/``from_json``); :func:`enrol` checks the debt limit and fixes the length in days,
:func:`attend` counts days, and :func:`apply_school` gives the skills once it is over."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Self

from rules.advancement.costs import AdvancementError, _mapping, _whole
from rules.dice import DieCode
from rules.errors import RulesError
from rules.ruleset import RuleSet
from rules.time import weeks_to_days
from rules.traits import ATTRIBUTE_LABELS, attribute_key

__all__ = [
    "MAX_SCHOOL_DEBT",
    "NCO_LEADERSHIP_I",
    "School",
    "SchoolEnrolment",
    "apply_school",
    "attend",
    "bonuses_text",
    "check_cp_slot",
    "check_school_debt",
    "cp_slot_cap",
    "enrol",
    "parse_bonuses",
    "schools_in_use",
    "split_earned_cp",
]

MAX_SCHOOL_DEBT: Final = 100
"""[HOUSE] item 9: "A maximum of 100 CP's can be owed"."""


def _attribute(name: str) -> str:
    try:
        return attribute_key(name)
    except RulesError:
        raise AdvancementError(f"{name!r} is not an attribute") from None


@dataclass(frozen=True, slots=True)
class School:
    """A [HOUSE] school: its price, length and the pips it adds to skills."""

    name: str
    cp_cost: int
    weeks: int
    bonuses: tuple[tuple[str, str, int], ...]
    """(attribute, skill, pips); the attribute as :data:`rules.traits.ATTRIBUTES` names it."""

    def __post_init__(self) -> None:
        bonuses = tuple((_attribute(a), s, p) for a, s, p in self.bonuses)
        object.__setattr__(self, "bonuses", bonuses)

    def length_days(self, *, ruleset: RuleSet) -> int:
        return weeks_to_days(self.weeks, ruleset=ruleset)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "cp_cost": self.cp_cost,
            "weeks": self.weeks,
            "bonuses": [[a, s, p] for a, s, p in self.bonuses],
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        d = _mapping(data, "school")
        name = d.get("name")
        if not isinstance(name, str) or not name.strip():
            raise AdvancementError("a stored school needs a name")
        raw = d.get("bonuses")
        if not isinstance(raw, list):
            raise AdvancementError("a stored school's bonuses must be a list")
        bonuses = []
        for row in raw:
            if (
                not isinstance(row, list)
                or len(row) != 3
                or not isinstance(row[0], str)
                or not isinstance(row[1], str)
            ):
                raise AdvancementError("each school bonus is [attribute, skill, pips]")
            bonuses.append((row[0], row[1], _whole(row[2], "school bonus pips")))
        return cls(
            name,
            _whole(d.get("cp_cost"), "cp_cost"),
            _whole(d.get("weeks"), "weeks"),
            tuple(bonuses),
        )


NCO_LEADERSHIP_I = School(
    "NCO Leadership I",
    cp_cost=5,
    weeks=3,
    bonuses=(
        ("perception", "command", 2),
        ("perception", "persuasion", 1),
        ("strength", "stamina", 1),
        ("knowledge", "survival", 2),
        ("knowledge", "tactics", 1),
        ("knowledge", "willpower", 1),
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
    attrs = {}
    for key, value in attributes.items():
        attrs[_attribute(key)] = DieCode.parse(value)
    result = {name: DieCode.parse(code) for name, code in skills.items()}
    for attribute, skill, pips in school.bonuses:
        if skill not in result:
            try:
                result[skill] = attrs[attribute]
            except KeyError:
                raise AdvancementError(
                    f"{school.name} needs the {ATTRIBUTE_LABELS[attribute]} code to grant {skill}"
                ) from None
        result[skill] = result[skill].plus_pips(pips)
    return result


def schools_in_use(*, ruleset: RuleSet) -> bool:
    """Schools and CP debt are a [HOUSE] rule (item 9): a campaign offers them when its
    advancement follows the House Rules (``advancement_table == "house"``, the option the
    House CP costs, the kill bonus and the month-end CP posting already follow). Our reading:
    one switch for the House advancement rules, not a separate one for schools."""
    return ruleset.advancement_table == "house"


def check_school_debt(current_debt: int, owed: int) -> None:
    """[HOUSE] item 9: at most 100 CP may be owed (``owed``: the CP a new school adds to it)."""
    if current_debt + owed > MAX_SCHOOL_DEBT:
        raise AdvancementError(
            f"owing {current_debt} CP already, {owed} CP more would take the debt to "
            f"{current_debt + owed} CP, past the {MAX_SCHOOL_DEBT} CP limit"
        )


def split_earned_cp(earned: int, debt: int, *, earned_before: int = 0) -> tuple[int, int]:
    """[HOUSE] item 9: half of every CP earned (rounded up, our choice) repays school debt.
    Returns (to the debt, kept).

    ``earned_before``: CP earned at the same time and already split (an award's CP before its
    kill bonus): the half is taken of the whole, so 1 CP and a 1 CP kill bonus repay 1, not 2."""
    if earned < 0 or debt < 0 or earned_before < 0:
        raise AdvancementError("earned points and debt cannot be negative")
    half = math.ceil((earned_before + earned) / 2) - math.ceil(earned_before / 2)
    to_debt = min(debt, half)
    return to_debt, earned - to_debt


MAX_BONUS_PIPS: Final = 30
"""The most pips one school bonus may add (10D): far past any school in the sources."""


_BONUS = re.compile(
    r"(?P<skill>.+?)\s*\+\s*(?P<amount>[0-9]{1,3}(?:D(?:\+[0-9])?)?)", re.IGNORECASE
)


def parse_bonuses(text: str) -> tuple[tuple[str, str, int], ...]:
    """A school's bonuses written one a line, ``attribute: skill +pips`` (``Perception:
    command +2``; ``+1D`` is 3 pips, ``+1D+1`` 4): the (attribute, skill, pips) triples, or
    :class:`AdvancementError` naming the line that is wrong. The same skill twice is refused."""
    bonuses: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        where = f"line {number} ({line[:40]!r})"
        attribute, colon, rest = line.partition(":")
        found = _BONUS.fullmatch(rest.strip()) if colon else None
        if found is None:
            raise AdvancementError(
                f"{where}: write it as 'attribute: skill +pips', e.g. 'Perception: command +2'"
            )
        skill = found["skill"].strip()
        if len(skill) > 80:
            raise AdvancementError(f"{where}: a skill's name has at most 80 characters")
        key = _attribute_of_line(attribute.strip(), where)
        amount = found["amount"].upper()
        if "D" in amount:
            code = DieCode.parse(amount)
            pips = code.dice * 3 + code.pips
        else:
            pips = int(amount)
        if not 1 <= pips <= MAX_BONUS_PIPS:
            raise AdvancementError(f"{where}: a bonus adds 1 to {MAX_BONUS_PIPS} pips")
        if skill.casefold() in seen:
            raise AdvancementError(f"{where}: {skill} is already in the list")
        seen.add(skill.casefold())
        bonuses.append((key, skill, pips))
    if not bonuses:
        raise AdvancementError("give at least one bonus, e.g. 'Perception: command +2'")
    return tuple(bonuses)


def _attribute_of_line(name: str, where: str) -> str:
    """An attribute's name, or its first three letters or more as the House example writes
    them (``PER``, ``STR``, ``KNO``)."""
    folded = name.casefold()
    matches = [a for a in ATTRIBUTE_LABELS if len(folded) >= 3 and a.startswith(folded)]
    if len(matches) == 1:
        return matches[0]
    try:
        return attribute_key(name)
    except RulesError:
        labels = ", ".join(ATTRIBUTE_LABELS.values())
        raise AdvancementError(f"{where}: {name!r} is not an attribute ({labels})") from None


def bonuses_text(bonuses: tuple[tuple[str, str, int], ...]) -> str:
    """The bonuses as :func:`parse_bonuses` reads them, one a line."""
    return "\n".join(f"{ATTRIBUTE_LABELS[a]}: {s} +{p}" for a, s, p in bonuses)


# --- Attending a school ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SchoolEnrolment:
    """A school being attended: ``days_done`` of ``days_needed`` (fixed when enrolling, in the
    campaign's weeks)."""

    school: School
    days_needed: int
    days_done: int = 0

    @property
    def finished(self) -> bool:
        return self.days_done >= self.days_needed

    @property
    def days_left(self) -> int:
        return max(0, self.days_needed - self.days_done)

    def to_json(self) -> dict[str, Any]:
        return {
            "school": self.school.to_json(),
            "days_needed": self.days_needed,
            "days_done": self.days_done,
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        d = _mapping(data, "school enrolment")
        needed = _whole(d.get("days_needed"), "days_needed")
        done = _whole(d.get("days_done", 0), "days_done")
        if done > needed:
            raise AdvancementError("a stored enrolment cannot have more days done than needed")
        return cls(School.from_json(d.get("school")), needed, done)


def enrol(school: School, current_debt: int, *, ruleset: RuleSet, paid: int = 0) -> SchoolEnrolment:
    """Enrol in ``school``, paying ``paid`` CP of its price now and owing the rest: refused
    past the 100 CP debt limit, or when ``paid`` is not 0 to the price."""
    if isinstance(paid, bool) or not isinstance(paid, int) or not 0 <= paid <= school.cp_cost:
        raise AdvancementError(f"pay from 0 to {school.cp_cost} CP of the price now")
    check_school_debt(current_debt, school.cp_cost - paid)
    return SchoolEnrolment(school, school.length_days(ruleset=ruleset))


def attend(enrolment: SchoolEnrolment, days: int) -> tuple[SchoolEnrolment, tuple[str, ...]]:
    """``days`` more days at school: the new state and what happened, in words."""
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise AdvancementError("days at school must be a whole number, 0 or more")
    if enrolment.finished:
        raise AdvancementError(f"{enrolment.school.name} is already over")
    state = replace(enrolment, days_done=min(enrolment.days_needed, enrolment.days_done + days))
    events = [f"{state.school.name}: {state.days_done} of {state.days_needed} days attended"]
    if state.finished:
        events.append(f"{state.school.name} is complete")
    return state, tuple(events)


# --- The Character Point slot ----------------------------------------------------------------
def cp_slot_cap(joined_group: bool, full_might: bool = False, *, ruleset: RuleSet) -> int | None:
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
    *,
    ruleset: RuleSet,
) -> None:
    """Raise if the slot holds more than its cap; only points earned while gaming may exceed it."""
    cap = cp_slot_cap(joined_group, full_might, ruleset=ruleset)
    if cap is not None and held - max(0, earned_in_play) > cap:
        raise AdvancementError(
            f"the Character Point slot holds {held} CP; at most {cap} may be placed there "
            "(more only from points earned while gaming)"
        )
