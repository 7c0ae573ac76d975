"""Healing: dying and stabilising, first aid and medpacs, natural healing and bacta tanks
(injuries-and-healing.md §3.2, §6–§8, §10).

Time is counted in minutes for first aid and stabilising and in days for natural healing. Dice
that the GM rolls (death rolls, bacta times) are plain dice with no Wild Die (dice-and-core.md
A6). What the healing rules need carried from one day to the next (the current healing period,
medpac uses and lock-outs) is a :class:`HealingState`, stored with ``to_json``/``from_json``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Self

from rules.advancement import max_cp_per_roll
from rules.dice import DiceSource, DieCode
from rules.difficulty import (
    HEROIC,
    VERY_EASY,
    DifficultyLevel,
)
from rules.injuries.medpacs import (
    ACCELERATE_HEALING_BONUS,
    accelerate_healing_applies,
    first_aid_difficulty,
    kd6_distribution,
    medpac_difficulty,
    medpac_locks_out,
    medpac_success_level,
    rc_medpac_number,
)
from rules.injuries.wounds import (
    Duration,
    InjuryError,
    WoundLevel,
    _check_track,
    _fields,
    _int,
    _level,
    worsen,
    wound_ladder,
)
from rules.ruleset import RuleSet
from rules.time import DAYS_PER_MONTH

__all__ = [
    "ACCELERATE_HEALING_BONUS",
    "BACTA_TIMES",
    "MEDPAC_LOCKOUT_MINUTES",
    "Activity",
    "HealingRoll",
    "HealingState",
    "MedpacUse",
    "accelerate_healing_applies",
    "bacta_difficulty",
    "bacta_failure_level",
    "bacta_time",
    "death_roll_dice",
    "dies_on_death_roll",
    "first_aid_difficulty",
    "healing_cp_dice",
    "kd6_distribution",
    "medpac_difficulty",
    "medpac_locked_out",
    "medpac_locks_out",
    "medpac_roll_bonus",
    "medpac_success_level",
    "mortal_outcome",
    "natural_healing_interval",
    "natural_healing_result",
    "natural_roll_due",
    "natural_rolls_on",
    "next_natural_healing_roll",
    "rc_medpac_number",
    "record_medpac",
    "roll_death",
    "stabilisation_deadline",
]

W = WoundLevel


# ---------------------------------------------------------------------------------------------
# Mortally wounded: death rolls and stabilising (§3.2)
# ---------------------------------------------------------------------------------------------
def death_roll_dice(*, end_is_nigh: bool = False) -> int:
    """2D at the end of each round; 1D with the [HOUSE] critical "The end is Nigh"."""
    return 1 if end_is_nigh else 2


def dies_on_death_roll(roll_total: int, rounds_mortally_wounded: int) -> bool:
    """[HOUSE §2, §3] [RC] he dies if the roll is less than the rounds he has been mortally
    wounded (the round of wounding counts as 1, IH-10)."""
    if rounds_mortally_wounded < 1:
        raise InjuryError("the first death roll comes at the end of the round of wounding (n = 1)")
    return roll_total < rounds_mortally_wounded


def roll_death(
    rounds_mortally_wounded: int, *, rng: DiceSource, end_is_nigh: bool = False
) -> tuple[int, bool]:
    """Roll the death roll (plain dice) → ``(total, dies)``."""
    total = sum(rng.d6() for _ in range(death_roll_dice(end_is_nigh=end_is_nigh)))
    return total, dies_on_death_roll(total, rounds_mortally_wounded)


def stabilisation_deadline(
    stabilised_at_minute: int,
    *,
    last_medpac_minute: int | None = None,
    ruleset: RuleSet,
) -> int:
    """The minute by which a stabilised, mortally wounded character must be treated.

    [UPG] a Moderate first aid total stabilises him; he dies unless a medpac or bacta tank is
    used within one hour. [HOUSE] (``mw_stabilise = "house"``) a medpac only holds him for 30
    minutes from its use and never treats him (IH-12)."""
    if ruleset.mw_stabilise == "house" and last_medpac_minute is not None:
        return last_medpac_minute + 30
    return stabilised_at_minute + 60


def mortal_outcome(
    stabilised_at_minute: int,
    now_minute: int,
    *,
    treated_at_minute: int | None = None,
    last_medpac_minute: int | None = None,
    ruleset: RuleSet,
) -> Literal["treated", "waiting", "dies"]:
    """Whether a stabilised patient has been saved in time (IH-11): ``treated`` once a treating
    roll succeeded by the deadline, ``dies`` once the deadline passed without one."""
    deadline = stabilisation_deadline(
        stabilised_at_minute, last_medpac_minute=last_medpac_minute, ruleset=ruleset
    )
    if treated_at_minute is not None and treated_at_minute <= deadline:
        return "treated"
    return "dies" if now_minute >= deadline else "waiting"


# ---------------------------------------------------------------------------------------------
# Natural healing (§7)
# ---------------------------------------------------------------------------------------------
Activity = Literal["rest", "active", "easy"]


def natural_healing_interval(level: WoundLevel, *, ruleset: RuleSet, easy: bool = False) -> int:
    """Days of rest before each natural-healing roll ([2E-STD], [UPG] for wounded twice):
    wounded and wounded twice 3, incapacitated two weeks (``days_per_week``: 14, or 10 in a
    House campaign, IH-28), mortally wounded one month (35 days); doubled when taking it easy."""
    level = _level(level)
    _check_track(level, ruleset, "level")
    days = {
        W.wounded: 3,
        W.wounded_twice: 3,
        W.incapacitated: 2 * ruleset.days_per_week,
        W.mortally_wounded: DAYS_PER_MONTH,
    }.get(level)
    if days is None:
        raise InjuryError(f"a '{level}' character makes no natural-healing roll")
    return days * (2 if easy else 1)


def natural_healing_result(
    level: WoundLevel, strength_total: int, *, ruleset: RuleSet
) -> WoundLevel:
    """The level after a natural-healing Strength roll ([2E-STD] chart with the [UPG] changes):

    wounded: ≤4 wounded twice, 5–6 same, ≥7 healed; wounded twice (the wounded row): ≤4
    incapacitated, ≥7 wounded; incapacitated: ≤6 mortally wounded, 7–8 same, ≥9 wounded twice;
    mortally wounded: ≤6 killed, 7–8 same, ≥9 incapacitated. Without a wounded-twice level the
    chart skips it (IH-30)."""
    level = _level(level)
    natural_healing_interval(level, ruleset=ruleset)  # validates the level
    ladder = wound_ladder(ruleset=ruleset)
    worse_at, better_at = (4, 7) if level in (W.wounded, W.wounded_twice) else (6, 9)
    step = -1 if strength_total >= better_at else 1 if strength_total <= worse_at else 0
    return ladder[ladder.index(level) + step]


@dataclass(frozen=True, slots=True)
class HealingRoll:
    """A natural-healing Strength roll that falls due on ``day``, with the dice to roll."""

    day: int
    pool: DieCode
    """Strength, with -1D for an active period or +1D for taking it easy."""
    modifier_dice: int


def next_natural_healing_roll(
    level: WoundLevel,
    start_day: int,
    strength: DieCode | str,
    activity: Callable[[int], Activity] | Mapping[int, Activity],
    *,
    ruleset: RuleSet,
    horizon_days: int = 400,
) -> HealingRoll:
    """When the next natural-healing roll falls due, and with which dice (§7.2, IH-17).

    ``start_day`` is the day the current level began or the last roll was made. ``activity``
    gives each later day's activity (a mapping defaults to ``rest``). One active day after the
    start spoils the period (roll at -1D when the interval is up); a period spent taking it easy
    waits twice as long and rolls at +1D."""
    look: Callable[[int], Activity]
    if isinstance(activity, Mapping):
        table = activity

        def from_table(day: int) -> Activity:
            return table.get(day, "rest")

        look = from_table
    else:
        look = activity
    strength = DieCode.parse(strength)
    spoiled = False
    for day in range(start_day + 1, start_day + horizon_days + 1):
        today = look(day)
        if today not in ("rest", "active", "easy"):
            raise InjuryError(f"day {day}: activity must be rest, active or easy, not {today!r}")
        spoiled = spoiled or today == "active"
        easy = today == "easy" and not spoiled
        if day >= start_day + natural_healing_interval(level, ruleset=ruleset, easy=easy):
            mod = 1 if easy else -1 if spoiled else 0
            pool = strength.pool_add(DieCode(mod)) if mod > 0 else strength.minus_dice(-mod)
            return HealingRoll(day, pool, mod)
    raise InjuryError(f"no natural-healing roll falls due within {horizon_days} days")


def healing_cp_dice(cp_per_roll: int, cp_on_hand: int, *, ruleset: RuleSet) -> int:
    """Character Point dice on a natural-healing Strength roll (IH-26, H-72).

    [UPG] "all rolls" may take CP; the background job cannot ask, so only the number set in
    advance (``cp_per_roll``) is used, capped at the attribute-use limit ([UPG] 001 l.307-311,
    [HOUSE]: 2) and at the CP on hand. An [RC] campaign has no Character Points: 0. The caller
    deducts the dice rolled in the same transaction as the roll."""
    if cp_per_roll < 0 or cp_on_hand < 0:
        raise InjuryError("Character Points cannot be negative")
    if ruleset.advancement_table == "rc_skill_points":
        return 0
    limit = max_cp_per_roll("attribute", ruleset=ruleset)
    return min(cp_per_roll, cp_on_hand, cp_per_roll if limit is None else limit)


# ---------------------------------------------------------------------------------------------
# Bacta tanks (§8)
# ---------------------------------------------------------------------------------------------
BACTA_TIMES: dict[str, dict[WoundLevel, Duration]] = {
    "house": {  # [HOUSE §9]
        W.wounded: Duration(1, "hours"),
        W.wounded_twice: Duration(2, "hours"),
        W.incapacitated: Duration(4, "hours"),
        W.mortally_wounded: Duration(2, "days"),
    },
    "2e_std": {  # [2E-STD, not in sources]; wounded twice borrowed from [HOUSE] (IH-19)
        W.wounded: Duration(1, "hours"),
        W.wounded_twice: Duration(2, "hours"),
        W.incapacitated: Duration(4, "hours"),
        W.mortally_wounded: Duration(1, "days"),
    },
}


def bacta_time(level: WoundLevel, *, ruleset: RuleSet) -> Duration:
    """How long a successful bacta treatment takes (``bacta_times``)."""
    try:
        return BACTA_TIMES[ruleset.bacta_times][_level(level)]
    except KeyError:
        raise InjuryError(f"a bacta tank has nothing to heal on a '{level}' patient") from None


def bacta_difficulty(*, medicine: bool, critical_shift: int = 0) -> DifficultyLevel:
    """[HOUSE §9] Very Easy (A) Medicine for any level; without it a Heroic first aid or
    Technical roll. Critical injuries add levels (:func:`critical_heal_shift`)."""
    return (VERY_EASY if medicine else HEROIC).raised_by(critical_shift)


def bacta_failure_level(level: WoundLevel, *, medicine: bool, ruleset: RuleSet) -> WoundLevel:
    """A failed bacta roll: [HOUSE §9] without (A) Medicine the wound level rises by two
    (incapacitated or worse → killed); a trained doctor's failure changes nothing (IH-19)."""
    level = _level(level)
    return level if medicine else worsen(level, 2, ruleset=ruleset)


# ---------------------------------------------------------------------------------------------
# Healing state carried between days (§10.1)
# ---------------------------------------------------------------------------------------------
MEDPAC_LOCKOUT_MINUTES = 24 * 60
"""[2E-STD] a medpac missed by more than 10: no more medpacs on him for 24 hours; medpac
difficulties count the uses "within the day" (IH-14: a 24-hour window)."""


@dataclass(frozen=True, slots=True)
class MedpacUse:
    """One medpac used on the patient at game minute ``minute``."""

    minute: int
    success: bool
    fastflesh: bool = False

    def __post_init__(self) -> None:
        _int(self.minute, "a medpac use's minute")
        for name in ("success", "fastflesh"):
            if not isinstance(getattr(self, name), bool):
                raise InjuryError(f"a medpac use's {name} is true or false")

    def to_json(self) -> dict[str, Any]:
        return {"minute": self.minute, "success": self.success, "fastflesh": self.fastflesh}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        fields = _fields(
            data, "a medpac use", required=("minute", "success"), optional=("fastflesh",)
        )
        return cls(fields["minute"], fields["success"], fields.get("fastflesh", False))


@dataclass(frozen=True, slots=True)
class HealingState:
    """What natural healing and medpacs carry from one day to the next for one patient.

    ``period_start_day``: the day the current healing period began (the wound, a level change
    or the last natural-healing roll, IH-17); ``period_was_active``: an active day after that
    spoils the period (-1D, IH-17); ``medpac_uses`` in the last 24 hours (game minutes);
    ``medpac_lockout_until``: the minute a 24-hour lock-out ends; ``rc_medpac_number``: the
    [RC] difficulty number the GM chose for this wound (§6.3); ``cp_per_roll``: Character
    Points set in advance for each natural-healing roll (IH-26)."""

    period_start_day: int = 0
    period_was_active: bool = False
    medpac_uses: tuple[MedpacUse, ...] = field(default=())
    medpac_lockout_until: int | None = None
    rc_medpac_number: int | None = None
    cp_per_roll: int = 0
    activity_log: tuple[tuple[int, Activity], ...] = field(default=())
    """Dated activity (§10.1): ``(from_day, activity)`` pairs in day order; the activity of a
    day is the last entry from that day or before (``rest`` before the first)."""
    accelerate_days: tuple[int, ...] = field(default=())
    """[RC] days on which Accelerate Healing succeeded on him (§7.3, IH-18)."""

    def __post_init__(self) -> None:
        _int(self.period_start_day, "the healing period's first day")
        if not isinstance(self.period_was_active, bool):
            raise InjuryError("period_was_active is true or false")
        uses = self.medpac_uses
        if not isinstance(uses, tuple) or not all(isinstance(u, MedpacUse) for u in uses):
            raise InjuryError("medpac uses are a tuple of MedpacUse values")
        if self.medpac_lockout_until is not None:
            _int(self.medpac_lockout_until, "the end of a medpac lock-out")
        if self.rc_medpac_number is not None and _int(self.rc_medpac_number, "a medpac number") < 1:
            raise InjuryError("a medpac difficulty number is at least 1")
        if _int(self.cp_per_roll, "Character Points per roll") < 0:
            raise InjuryError("Character Points cannot be negative")
        log = self.activity_log
        if not isinstance(log, tuple) or not all(isinstance(e, tuple) and len(e) == 2 for e in log):
            raise InjuryError("the activity log is a tuple of (from_day, activity) pairs")
        days = [_int(d, "an activity's first day") for d, _ in log]
        for _, activity in log:
            if activity not in ("rest", "active", "easy"):
                raise InjuryError(f"activity must be rest, active or easy, not {activity!r}")
        if days != sorted(set(days)):
            raise InjuryError("the activity log is in day order, one entry a day")
        if not isinstance(self.accelerate_days, tuple):
            raise InjuryError("Accelerate Healing days are a tuple of days")
        for d in self.accelerate_days:
            _int(d, "an Accelerate Healing day")

    def to_json(self) -> dict[str, Any]:
        return {
            "period_start_day": self.period_start_day,
            "period_was_active": self.period_was_active,
            "medpac_uses": [u.to_json() for u in self.medpac_uses],
            "medpac_lockout_until": self.medpac_lockout_until,
            "rc_medpac_number": self.rc_medpac_number,
            "cp_per_roll": self.cp_per_roll,
            "activity_log": [[d, a] for d, a in self.activity_log],
            "accelerate_days": list(self.accelerate_days),
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = (
            "period_was_active",
            "medpac_uses",
            "medpac_lockout_until",
            "rc_medpac_number",
            "cp_per_roll",
            "activity_log",
            "accelerate_days",
        )
        fields = _fields(data, "a healing state", required=("period_start_day",), optional=keys)
        uses = fields.get("medpac_uses", [])
        if not isinstance(uses, list):
            raise InjuryError("a healing state's medpac uses are stored as a list")
        log = fields.get("activity_log", [])
        accelerate = fields.get("accelerate_days", [])
        if not isinstance(log, list) or not all(isinstance(e, list) and len(e) == 2 for e in log):
            raise InjuryError("a healing state's activity log is a list of [day, activity]")
        if not isinstance(accelerate, list):
            raise InjuryError("a healing state's Accelerate Healing days are stored as a list")
        return cls(
            fields["period_start_day"],
            fields.get("period_was_active", False),
            tuple(MedpacUse.from_json(u) for u in uses),
            fields.get("medpac_lockout_until"),
            fields.get("rc_medpac_number"),
            fields.get("cp_per_roll", 0),
            tuple((e[0], e[1]) for e in log),
            tuple(accelerate),
        )

    def restart_period(self, day: int) -> HealingState:
        """A new healing period from ``day``: after every natural-healing roll and every change
        of level (IH-17); a failed medpac does not restart it."""
        return replace(self, period_start_day=day, period_was_active=False)

    def note_activity(self, day: int, activity: Activity) -> HealingState:
        """Record the patient's activity on ``day``: an active day after the period's first day
        spoils the whole period (IH-17)."""
        if activity not in ("rest", "active", "easy"):
            raise InjuryError(f"day {day}: activity must be rest, active or easy, not {activity!r}")
        if activity != "active" or day <= self.period_start_day or self.period_was_active:
            return self
        return replace(self, period_was_active=True)

    def activity_on(self, day: int) -> Activity:
        """His activity on ``day``: the last log entry from that day or before; rest before
        the first (§10.1: a catch-up run sees each day's own activity)."""
        current: Activity = "rest"
        for from_day, activity in self.activity_log:
            if from_day > day:
                break
            current = activity
        return current

    def with_activity(self, from_day: int, activity: Activity, *, keep_from: int) -> HealingState:
        """The log with ``activity`` from ``from_day`` on (replacing later entries); entries
        wholly before ``keep_from`` (days already processed) are pruned to the one still in
        force then."""
        if activity not in ("rest", "active", "easy"):
            raise InjuryError(f"activity must be rest, active or easy, not {activity!r}")
        _int(from_day, "an activity's first day")
        if from_day < keep_from:
            raise InjuryError(f"day {from_day} has already been processed: date it {keep_from}")
        earlier = [(d, a) for d, a in self.activity_log if d < from_day]
        older = [(d, a) for d, a in earlier if d < keep_from]
        kept = older[-1:] + [(d, a) for d, a in earlier if d >= keep_from]
        return replace(self, activity_log=(*kept, (from_day, activity)))

    def with_accelerate(self, day: int, *, keep_from: int) -> HealingState:
        """Accelerate Healing succeeded on him on ``day`` (days before ``keep_from`` pruned)."""
        _int(day, "an Accelerate Healing day")
        if day < keep_from:
            raise InjuryError(f"day {day} has already been processed")
        days = sorted({d for d in self.accelerate_days if d >= keep_from} | {day})
        return replace(self, accelerate_days=tuple(days))

    def medpacs_within_day(self, now_minute: int) -> int:
        """Medpacs used on him in the 24 hours before ``now_minute`` (``earlier_uses`` of
        :func:`medpac_difficulty`)."""
        return sum(
            1
            for u in self.medpac_uses
            if now_minute - MEDPAC_LOCKOUT_MINUTES < u.minute <= now_minute
        )


def medpac_locked_out(
    state: HealingState, now_minute: int, *, fastflesh: bool = False, ruleset: RuleSet
) -> bool:
    """True while a missed medpac's 24-hour lock-out lasts ([2E-STD]); in [HOUSE] a fastflesh
    pack may still be used (IH-14); the [RC] has no lock-out."""
    if ruleset.medpac_rules == "rc" or state.medpac_lockout_until is None:
        return False
    if fastflesh and ruleset.medpac_rules == "house":
        return False
    return now_minute < state.medpac_lockout_until


def record_medpac(
    state: HealingState,
    now_minute: int,
    *,
    total: int,
    difficulty_number: int,
    fastflesh: bool = False,
    ruleset: RuleSet,
) -> HealingState:
    """The state after a medpac roll at ``now_minute``: the use is kept for 24 hours, and a
    miss by more than 10 starts a 24-hour lock-out (:func:`medpac_locks_out`). Refused while
    locked out (:func:`medpac_locked_out`)."""
    if medpac_locked_out(state, now_minute, fastflesh=fastflesh, ruleset=ruleset):
        raise InjuryError(
            f"no more medpacs on this patient until minute {state.medpac_lockout_until}"
        )
    use = MedpacUse(now_minute, total >= difficulty_number, fastflesh)
    recent = tuple(u for u in state.medpac_uses if now_minute - MEDPAC_LOCKOUT_MINUTES < u.minute)
    lockout = state.medpac_lockout_until
    if medpac_locks_out(total, difficulty_number, ruleset=ruleset):
        lockout = now_minute + MEDPAC_LOCKOUT_MINUTES
    return replace(state, medpac_uses=(*recent, use), medpac_lockout_until=lockout)


def natural_rolls_on(state: HealingState, day: int, *, ruleset: RuleSet) -> tuple[int, int]:
    """How many natural-healing rolls a due day allows and the bonus on each: one at +0, or
    two at +2 on a day Accelerate Healing succeeded on him in an RC campaign (H-59, IH-18: only
    on a day a roll is due under 2E intervals; the second roll is on the level after the
    first)."""
    if accelerate_healing_applies(ruleset=ruleset) and day in state.accelerate_days:
        return 2, ACCELERATE_HEALING_BONUS
    return 1, 0


def medpac_roll_bonus(
    state: HealingState, day: int, earlier_today: int, *, ruleset: RuleSet
) -> int:
    """[RC] Accelerate Healing: +2 on each of the first two medpac rolls of its day (H-51)."""
    if (
        accelerate_healing_applies(ruleset=ruleset)
        and day in state.accelerate_days
        and earlier_today < 2
    ):
        return ACCELERATE_HEALING_BONUS
    return 0


def natural_roll_due(
    state: HealingState,
    level: WoundLevel,
    day: int,
    activity: Activity,
    *,
    strength: DieCode | str,
    ruleset: RuleSet,
) -> HealingRoll | None:
    """The natural-healing roll due on ``day`` (after :meth:`HealingState.note_activity` for
    that day), or None: the interval since ``period_start_day`` is up, doubled and at +1D when
    taking it easy in an unspoiled period, at -1D in a spoiled one (§10.2). A healthy or dead
    character makes no roll."""
    level = _level(level)
    if level in (W.none, W.killed):
        return None
    easy = activity == "easy" and not state.period_was_active
    due = state.period_start_day + natural_healing_interval(level, ruleset=ruleset, easy=easy)
    if day < due:
        return None
    mod = 1 if easy else -1 if state.period_was_active else 0
    code = DieCode.parse(strength)
    pool = code.pool_add(DieCode(mod)) if mod > 0 else code.minus_dice(-mod)
    return HealingRoll(day, pool, mod)
