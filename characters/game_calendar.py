"""The campaign's calendar: its date in words, its adventures, and the GM's settings.

The date is ``Campaign.game_day`` (days since the campaign began, day 0), shown with the era
the GM names ("Day 35, 8 BBY") and the ruleset's weeks (:func:`rules.time.days_per_week`) and
months (:data:`rules.time.DAYS_PER_MONTH`). Moving the date forward is a job of its own
(:mod:`characters.downtime`); this module starts and ends adventures and keeps the GM's
calendar settings. The views check that the actor is a GM; each write here locks the
campaign's row, so two clicks cannot start two adventures or end one twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from campaigns.models import Adventure, Campaign
from characters import live
from rules import RulesError, RuleSet
from rules.time import DAYS_PER_MONTH, days_per_week

__all__ = [
    "CalendarError",
    "GameDate",
    "end_adventure",
    "game_date",
    "running_adventure",
    "set_calendar",
    "start_adventure",
]

ADVENTURE_NAME_LENGTH = Adventure._meta.get_field("name").max_length
ERA_LENGTH = Campaign._meta.get_field("era").max_length


class CalendarError(RulesError):
    """A calendar change that cannot be made, with the reason. Nothing was changed."""


@dataclass(frozen=True)
class GameDate:
    """A game day in words: ``Day 35, 8 BBY``, its week and its month."""

    day: int
    era: str
    days_per_week: int
    days_per_month: int

    @property
    def week(self) -> int:
        return self.day // self.days_per_week + 1

    @property
    def month(self) -> int:
        return self.day // self.days_per_month + 1

    @property
    def day_of_month(self) -> int:
        return self.day % self.days_per_month + 1

    def __str__(self) -> str:
        return f"Day {self.day}, {self.era}" if self.era else f"Day {self.day}"


def game_date(day: int, era: str, *, ruleset: RuleSet) -> GameDate:
    return GameDate(day, era, days_per_week(ruleset=ruleset), DAYS_PER_MONTH)


def running_adventure(campaign_id: int) -> Adventure | None:
    return Adventure.objects.filter(campaign_id=campaign_id, end_day__isnull=True).first()


def _clean(value: object, what: str, limit: int, *, required: bool) -> str:
    if not isinstance(value, str):
        raise CalendarError(f"write {what} as text")
    text = value.strip()
    if required and not text:
        raise CalendarError(f"give {what}")
    if "\x00" in text:
        raise CalendarError(f"{what} cannot contain NUL characters")
    if len(text) > limit:
        raise CalendarError(f"{what} is too long: at most {limit} characters")
    return text


def start_adventure(campaign: Campaign, name: str) -> Adventure:
    """Start an adventure today (the campaign's game day). Refused while another one runs."""
    name = _clean(name, "the adventure's name", ADVENTURE_NAME_LENGTH, required=True)
    try:
        with transaction.atomic():
            locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
            running = running_adventure(locked.pk)
            if running is not None:
                raise CalendarError(f"“{running.name}” is still running: end it first")
            adventure = Adventure.objects.create(
                campaign=locked, name=name, start_day=locked.game_day
            )
            live.bump(locked.pk, public=True)
    except IntegrityError:  # another click started one in between
        raise CalendarError("another adventure was started meanwhile: end it first") from None
    return adventure


def end_adventure(campaign: Campaign, adventure_id: int | None = None) -> Adventure:
    """End the running adventure today. ``adventure_id``: the one the GM's page showed; if it
    has already ended (a double click), it is returned as it is and nothing changes."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if adventure_id is not None:
            shown = Adventure.objects.filter(pk=adventure_id, campaign=locked).first()
            if shown is None:
                raise CalendarError("that adventure is not one of this campaign's")
            if shown.end_day is not None:
                return shown
        adventure = running_adventure(locked.pk)
        if adventure is None:
            raise CalendarError("no adventure is running")
        adventure.end_day = max(locked.game_day, adventure.start_day)
        adventure.save(update_fields=["end_day"])
        live.bump(locked.pk, public=True)
    return adventure


def set_calendar(campaign: Campaign, *, era: str, approve_advancement: bool) -> Campaign:
    """The GM's calendar settings: the era's name and whether players' improvements wait for
    a GM's approval (requests already waiting keep waiting)."""
    era = _clean(era, "the era", ERA_LENGTH, required=False)
    if not isinstance(approve_advancement, bool):
        raise CalendarError("say whether improvements need approval (true or false)")
    with transaction.atomic():
        Campaign.objects.filter(pk=campaign.pk).update(
            era=era, approve_advancement=approve_advancement
        )
        live.bump(campaign.pk, public=True)
    campaign.era, campaign.approve_advancement = era, approve_advancement
    return campaign
