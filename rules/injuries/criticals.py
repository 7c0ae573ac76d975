"""[HOUSE] critical injuries, maiming and wound-dice labels (injuries-and-healing.md §1.5, §5).

A hit may add a critical injury from the table of the level it inflicted (IH-20); criticals make
the healing roll harder (:func:`critical_heal_shift`) and some run out if untreated
(:func:`critical_deadline_passed`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.injuries.wounds import Duration, InjuryError, WoundLevel, _fields, _level
from rules.ruleset import RuleSet

__all__ = [
    "CRITICAL_TABLES",
    "INTERNAL_BLEEDING",
    "INTERNAL_BLEEDING_HOURS",
    "PERMANENT_AT_ONCE",
    "CriticalInjury",
    "carried_deadline_day",
    "critical_attribute",
    "critical_deadline_passed",
    "critical_heal_shift",
    "critical_healed_by",
    "critical_injury",
    "critical_lapse",
    "critical_table_for",
    "house_wound_dice",
    "maim_instead_of_death",
]

W = WoundLevel


@dataclass(frozen=True, slots=True)
class CriticalInjury:
    """One [HOUSE] critical injury: the table it came from, its name and effect, and how long
    it may stay untreated."""

    table: WoundLevel
    name: str
    effect: str
    deadline: Duration | None = None
    """Untreated for this long → permanent (or, for internal bleeding, death)."""

    def to_json(self) -> dict[str, Any]:
        """The table and the name; :meth:`from_json` looks the injury up again."""
        return {"table": self.table.value, "name": self.name}

    @classmethod
    def from_json(cls, data: Any) -> CriticalInjury:
        fields = _fields(data, "a critical injury", required=("table", "name"))
        table = _level(fields["table"])
        for injury in CRITICAL_TABLES.get(table, {}).values():
            if injury.name == fields["name"]:
                return injury
        raise InjuryError(f"no critical injury {fields['name']!r} on the {table.label} table")


def _crit(
    table: WoundLevel, rows: Mapping[tuple[int, ...], tuple[str, str]], **deadlines: Duration
) -> dict[int, CriticalInjury]:
    out: dict[int, CriticalInjury] = {}
    for rolls, (name, effect) in rows.items():
        for r in rolls:
            out[r] = CriticalInjury(table, name, effect, deadlines.get(name))
    return out


CRITICAL_TABLES: dict[WoundLevel, dict[int, CriticalInjury]] = {
    # [HOUSE §3] 004 l.176-216
    W.stunned: _crit(
        W.stunned,
        {
            (1,): ("Slowed Down", "an extra -1D to initiative rolls"),
            (2, 3): ("Sudden Jolt", "Moderate Strength roll or drop whatever is held"),
            (4,): ("Distracted", "no free actions"),
            (5,): ("Off Balance", "Move -2"),
            (6,): ("Stinger", "difficulty of the next action +1 level"),
        },
    ),
    W.wounded: _crit(
        W.wounded,
        {
            (2, 3): ("Head Ringer", "Knowledge and Perception rolls +1 difficulty level"),
            (4, 5): ("Fearsome Wound", "Strength rolls +1 difficulty level"),
            (6, 7): ("Agonizing Wound", "Dexterity rolls +1 difficulty level"),
            (8, 9): ("Dazed", "cannot take multiple actions in a round"),
            (10,): ("Hamstring", "Move halved"),
            (11,): ("Overpowered", "the attacker may attack again with no multiple-action penalty"),
            (12,): ("Winded", "always acts last in the round, whatever the initiative"),
        },
    ),
    W.incapacitated: _crit(
        W.incapacitated,
        {
            (1, 2): ("Crippled", "one limb crippled until healed or replaced; -3D using it"),
            (3,): ("Deafness", "auditory checks +5 difficulty levels"),
            (4,): ("Horrific Injury", "roll on the attribute table: that attribute -1D"),
            (5,): ("Temporarily Lame", "Move -7"),
            (6,): ("Blinded", "vision-based checks +5 difficulty levels"),
        },
        Deafness=Duration(2, "days"),
        Blinded=Duration(2, "days"),
    ),
    W.mortally_wounded: _crit(
        W.mortally_wounded,
        {
            (1,): ("Maimed", "a limb is permanently lost"),
            (2,): ("Gruesome Injury", "roll on the attribute table: that attribute -1D for good"),
            (3,): ("Paralysis", "completely immobile but conscious"),
            (4, 5): (
                "Internal Bruising/Bleeding",
                "-2D to Strength to resist damage; dies within 36 hours untreated",
            ),
            (6,): ("The end is Nigh", "death rolls use 1D instead of 2D"),
        },
        Paralysis=Duration(1, "days"),
    ),
}
CRITICAL_TABLES[W.wounded_twice] = CRITICAL_TABLES[W.wounded]

INTERNAL_BLEEDING_HOURS = 36
_ATTRIBUTES = (
    # [HOUSE] 2D attribute table; the source prints "1-3" for Knowledge (IH-22: 2-3)
    ((2, 3), "Knowledge"),
    ((4, 5), "Perception"),
    ((6, 7), "Mechanical"),
    ((8, 9), "Technical"),
    ((10, 11), "Dexterity"),
    ((12,), "Strength"),
)


def critical_table_for(level_inflicted: WoundLevel) -> tuple[WoundLevel, int] | None:
    """The table and the dice to roll for a hit that leaves this level ([HOUSE §3], IH-20):
    stunned 1D, wounded or wounded twice 2D, incapacitated 1D, mortally wounded 1D; a hit with
    no effect or a killing hit has no critical."""
    level = _level(level_inflicted)
    if level in (W.none, W.killed):
        return None
    table = W.wounded if level is W.wounded_twice else level
    return table, 2 if table is W.wounded else 1


def critical_injury(level_inflicted: WoundLevel, roll: int) -> CriticalInjury:
    """The critical injury for a roll on the table of the level the hit inflicted."""
    found = critical_table_for(level_inflicted)
    if found is None:
        raise InjuryError(f"a '{level_inflicted}' result has no critical injury table")
    table, dice = found
    try:
        return CRITICAL_TABLES[table][roll]
    except KeyError:
        raise InjuryError(
            f"{roll} cannot be rolled on {dice}D for the {table.label} table"
        ) from None


def critical_attribute(roll: int) -> str:
    """The [HOUSE] attribute table (2D) for Horrific and Gruesome injuries."""
    for rolls, attribute in _ATTRIBUTES:
        if roll in rolls:
            return attribute
    raise InjuryError(f"{roll} cannot be rolled on 2D")


def critical_heal_shift(table: WoundLevel) -> int:
    """Difficulty levels added to the medpac or bacta roll that heals the wound (§5.2):
    stunned 0, wounded 1, incapacitated 1 (bacta or surgery only), mortally wounded 2."""
    table = W.wounded if table is W.wounded_twice else _level(table)
    shifts = {W.stunned: 0, W.wounded: 1, W.incapacitated: 1, W.mortally_wounded: 2}
    if table not in shifts:
        raise InjuryError(f"there is no '{table}' critical injury table")
    return shifts[table]


def critical_deadline_passed(deadline: int, now: int, *, treated_at: int | None = None) -> bool:
    """True when an untreated critical (Deafness, Blinded, Paralysis: days; internal bleeding:
    36 hours) has run out: no treatment before the deadline and the deadline has come."""
    if treated_at is not None and treated_at < deadline:
        return False
    return now >= deadline


# ---------------------------------------------------------------------------------------------
# Other [HOUSE] rules
# ---------------------------------------------------------------------------------------------
def maim_instead_of_death(force_points: int, *, ruleset: RuleSet) -> tuple[WoundLevel, int]:
    """[HOUSE §6] Maiming: a character who would be killed may spend a Force Point to lose a
    limb instead; he stays mortally wounded and counts as stabilised (IH-27).
    Returns ``(level, Force Points left)``."""
    if not ruleset.maiming_for_fp:
        raise InjuryError("this campaign does not use the maiming rule")
    if force_points < 1:
        raise InjuryError("maiming instead of death costs a Force Point, and he has none")
    return W.mortally_wounded, force_points - 1


def house_wound_dice(hit_result: WoundLevel) -> int:
    """[HOUSE §2] the dice label of a hit's own result: wounded -1D, wounded twice -2D,
    incapacitated -2D, mortally wounded -3D; a killing hit counts as -3D too (IH-24). A display
    label, not a roll penalty; feed it to :func:`rules.equipment.gear_must_roll` for the
    severe-wound gear check ("a -3D wound in one hit")."""
    return {
        W.wounded: 1,
        W.wounded_twice: 2,
        W.incapacitated: 2,
        W.mortally_wounded: 3,
        W.killed: 3,
    }.get(_level(hit_result), 0)


# ---------------------------------------------------------------------------------------------
# Criticals carried between fights (issue 19: the healing job, IH-21)
# ---------------------------------------------------------------------------------------------
INTERNAL_BLEEDING = "Internal Bruising/Bleeding"
PERMANENT_AT_ONCE = ("Maimed", "Gruesome Injury")
"""Criticals that are permanent from the start (a lost limb; an attribute -1D for good)."""


def carried_deadline_day(name: str, from_day: int, deadline_days: int | None) -> int | None:
    """The game day by which an untreated critical taken on ``from_day`` has run out (treat it
    on an earlier day): Deafness, Blinded, Paralysis after their rolled days (H-42); Internal
    Bruising/Bleeding after 36 hours, counted in whole days as the day after next (the sheet
    keeps days, not the hour of the wound: treat it on the day of the fight or the next one)."""
    if name == INTERNAL_BLEEDING:
        return from_day + (INTERNAL_BLEEDING_HOURS + 23) // 24
    if deadline_days is None:
        return None
    if deadline_days < 1:
        raise InjuryError("the days left for treatment are 1 or more")
    return from_day + deadline_days


def critical_lapse(name: str) -> str:
    """What an untreated critical becomes when its deadline passes: ``death`` for internal
    bleeding (flagged for the GM with ``death_automation = flag_for_gm``), else ``permanent``."""
    return "death" if name == INTERNAL_BLEEDING else "permanent"


def critical_healed_by(table: WoundLevel, method: str) -> bool:
    """§5.2: stunned and wounded-table criticals are healed by a medpac (or bacta);
    incapacitated and mortal ones only by a bacta tank or surgery. Any successful medpac,
    bacta or surgery roll counts as the "medical treatment" that stops a deadline (IH-21)."""
    if method not in ("medpac", "bacta"):
        raise InjuryError("a critical is healed by a medpac or a bacta tank")
    table = W.wounded if table is W.wounded_twice else _level(table)
    return method == "bacta" or table in (W.stunned, W.wounded)
