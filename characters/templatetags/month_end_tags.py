"""Template filters for the [HOUSE] pending CP slot (:mod:`characters.month_end`)."""

from django import template

from campaigns.models import Campaign
from characters.month_end import next_posting_day

register = template.Library()


@register.filter
def posting_day(character) -> int:
    """The game day the character's pending CP will be posted on (the next month's end).

    The campaign's date is read from the database: the sheet's campaign object carries only
    the fields the sheet needs (``characters.access.character_or_404``). Used only when
    something is pending, so a sheet without pending points costs no query."""
    game_day = (
        Campaign.objects.filter(pk=character.campaign_id).values_list("game_day", flat=True).first()
    )
    return next_posting_day(game_day or 0)
