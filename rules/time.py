"""Units of game time, in one place: rounds, days, weeks and months."""

from datetime import timedelta
from typing import Final

from rules.ruleset import RuleSet

SECONDS_PER_ROUND: Final = 5
"""[WIKI] a combat round is about five seconds."""

ROUND: Final = timedelta(seconds=SECONDS_PER_ROUND)
"""A combat round as a span of game time (preparing, rushing, holding a weight)."""

ROUNDS_PER_MINUTE: Final = 60 // SECONDS_PER_ROUND

DAYS_PER_MONTH: Final = 35
"""characters-and-advancement.md A-C4: no source gives a month's length; 35 days is the
digest's suggested handling (five 7-day weeks, or seven 5-day House weeks)."""


def days_per_week(*, ruleset: RuleSet) -> int:
    """7 days, or 5 in the House calendar (``RuleSet.days_per_week``)."""
    return ruleset.days_per_week


def weeks_to_days(weeks: int, *, ruleset: RuleSet) -> int:
    return weeks * ruleset.days_per_week
