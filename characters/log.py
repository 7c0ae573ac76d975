"""The dice log: every roll of a campaign, newest first, a page at a time.

It lives with the characters because a roll belongs to a character (and its player): the
campaigns app imports no other app. Its address stays ``/campaigns/<id>/rolls/``. The first
page keeps itself up to date through the live channel (characters/live.py): new rolls are
added at the top as they are made."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from campaigns.access import membership_or_404
from characters.live import (
    conceal_secret_npcs,
    cursor_of,
    parse_cursor,
    poller_url,
    time_of,
    visible_rolls,
)

ROLLS_PER_PAGE = 20


@login_required
def dice_log(request, campaign_id):
    """The newest rolls, or with ``?before=<cursor>`` the page of rolls before that one."""
    membership = membership_or_404(request.user, campaign_id)
    before = parse_cursor(request.GET.get("before"))
    rolls = visible_rolls(membership).select_related("character", "actor")
    if before is not None:
        rolls = rolls.filter(created_at__lt=time_of(before))
    page = conceal_secret_npcs(rolls[: ROLLS_PER_PAGE + 1], membership)
    shown = page[:ROLLS_PER_PAGE]
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "rolls": shown,
        "older": cursor_of(shown[-1]) if len(page) > ROLLS_PER_PAGE else None,
        "paged": before is not None,
    }
    if before is None:
        context["poller_url"] = poller_url(membership, log=cursor_of(shown[0]) if shown else 0)
    response = render(request, "characters/dice_log.html", context)
    response["Cache-Control"] = "no-cache, private"
    return response
