"""[HOUSE] Character Points posted at the month's end (characters-and-advancement.md §3.4: "The
web site's CP slot is only updated at the end of each month", a suggested "pending" field).

In a campaign whose ruleset uses the House advancement table, the CP awarded at the end of an
adventure (:func:`characters.advancement.award_all`) go to the character's pending slot
(``Character.pending_cp``), not to his Character Points. When the campaign's calendar reaches
the end of a game month (:data:`rules.time.DAYS_PER_MONTH` days: day 35, 70, ...; day 35 is the
first day of the second month), the downtime handler :func:`post_pending_cp` posts every
pending slot of the campaign to ``character_points``. Both moves go through the ledger
(:func:`characters.services.change_balance`), one entry each.

The handler posts whatever is pending, whatever the ruleset says today: points a campaign put
there under the House rules are never stranded if its rules change later.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from characters.models import Character, Currency
from characters.services import change_balance
from rules.advancement import AdvancementError
from rules.ruleset import RuleSet
from rules.time import DAYS_PER_MONTH

__all__ = [
    "is_month_end",
    "next_posting_day",
    "post_pending_cp",
    "posts_at_month_end",
]


def posts_at_month_end(ruleset: RuleSet) -> bool:
    """True when the campaign's CP awards wait in the pending slot until the month's end: the
    House advancement table (the option :func:`characters.advancement.award_all` reads for the
    kill bonus too; the ruleset has no option of its own for it)."""
    return ruleset.advancement_table == "house"


def is_month_end(day: int) -> bool:
    """True on the day a game month ends and the next begins (35, 70, ...)."""
    return day > 0 and day % DAYS_PER_MONTH == 0


def next_posting_day(game_day: int) -> int:
    """The game day the points pending today will be posted on: the next month's end after
    ``game_day`` (points awarded on a month's end itself, after it was posted, wait a month)."""
    return (max(0, game_day) // DAYS_PER_MONTH + 1) * DAYS_PER_MONTH


def post_pending_cp(campaign_id: int, day: int, *, seed: int = 0) -> list[dict[str, Any]]:
    """Downtime handler: on a month's end, move every pending slot of the campaign to the
    character's Character Points, through the ledger (the pending slot down, the CP up), in
    one transaction with the characters' rows locked in id order (as
    :func:`~characters.advancement.award_all` locks them). Nothing on other days.

    Idempotent per day: it moves what is pending at that moment, so a second run for the
    same day finds nothing pending and returns nothing. ``seed`` is unused (no dice).
    Returns one JSON-safe report line per character posted."""
    if isinstance(day, bool) or not isinstance(day, int) or day < 0:
        raise AdvancementError("the game day must be a whole number, 0 or more")
    if not is_month_end(day):
        return []
    lines: list[dict[str, Any]] = []
    with transaction.atomic():
        pending = list(
            Character.objects.select_for_update()
            .filter(campaign_id=campaign_id, pending_cp__gt=0)
            .order_by("pk")
        )
        reason = f"Posted at the end of the month (day {day})"
        for character in pending:
            amount = character.pending_cp
            before = character.character_points
            change_balance(character, Currency.PENDING_CP, -amount, reason)
            entry = change_balance(character, Currency.CP, amount, reason)
            lines.append(
                {
                    "character_id": character.pk,
                    "character": character.name,
                    "kind": "pending_cp",
                    "target": "Character Points",
                    "from": before,
                    "to": entry.balance_after,
                    "posted": amount,
                    "outcome": "posted",
                    "words": [f"{amount} pending CP posted at the end of the month"],
                }
            )
    return lines
