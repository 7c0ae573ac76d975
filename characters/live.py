"""The live channel: one cheap poll that keeps every open page of a campaign up to date.

Each page that shows something live (the dice log, the sheet's recent-rolls strip, a sheet's
balances and wound box; encounters next) carries one poller element naming what it holds:
the campaign version it has seen (``v``) and a cursor per live piece. Every 2 s it asks
``/campaigns/<id>/live/`` whether anything changed:

* The campaign's version is a counter in the cache, bumped after every commit that changes
  what someone sees. There are two: the players' (public events only) and the GMs' (every
  event), so a hidden roll never changes what a player's version reveals.
* An unchanged poll compares the client's version with the cache and answers ``204 No
  Content``: no query beyond authentication (the member's role is cached too).
* A changed poll renders only what is new for each piece the client holds (the rolls after its
  cursor, the sheet's balances and wounds) as out-of-band swaps, plus a new poller carrying the
  new version and cursors.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.http import urlencode

from campaigns.access import membership_or_404
from campaigns.models import Membership
from characters.models import Character, DiceRoll

PUBLIC, GM = "public", "gm"
ROLE_TTL = 300
"""Seconds a member's cached role lives; membership changes also clear it at once."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
STRIP_ROLLS = 5


# --- Versions ----------------------------------------------------------------------------------
def _version_key(campaign_id: int, scope: str) -> str:
    return f"live:{campaign_id}:{scope}"


def versions(campaign_id: int) -> dict[str, int]:
    """The campaign's current versions, ``{"public": n, "gm": m}``, starting them if absent."""
    keys = {scope: _version_key(campaign_id, scope) for scope in (PUBLIC, GM)}
    found = cache.get_many(keys.values())
    result = {}
    for scope, key in keys.items():
        if key not in found:
            # A fresh start (or an emptied cache): begin at the clock, so no version a client
            # held before can come round again.
            now = time.time_ns() // 1000
            cache.add(key, now)
            # A cache that is down answers nothing: a fresh version each time, so every poll
            # re-renders (slower, still right) until it is back.
            found[key] = cache.get(key, now)
        result[scope] = int(found[key])
    return result


def version_for(campaign_id: int, *, gm: bool) -> int:
    return versions(campaign_id)[GM if gm else PUBLIC]


def bump(campaign_id: int, *, public: bool) -> None:
    """Say that what members of the campaign see has changed, once the current transaction
    commits (a poll must never see the new version before the new rows). ``public``: players
    see it too; otherwise only the GMs (a hidden roll, a secret NPC's sheet)."""

    def _bump() -> None:
        versions(campaign_id)  # make sure both counters exist
        for scope in (PUBLIC, GM) if public else (GM,):
            try:
                cache.incr(_version_key(campaign_id, scope))
            except ValueError:  # evicted between the two calls: start again
                versions(campaign_id)

    # robust: a cache that fails after a commit must not undo the caller's later work (a
    # time advance's next day); the page catches up on its next full load.
    transaction.on_commit(_bump, robust=True)


# --- Who may poll: the member's role, cached ---------------------------------------------------
def _role_key(campaign_id: int, user_id: int) -> str:
    return f"live:role:{campaign_id}:{user_id}"


def cached_role(user_id: int, campaign_id: int) -> str | None:
    """The user's role in the campaign, or None when they are not in it. From the cache when
    it can be; membership changes clear it (the receivers below)."""
    key = _role_key(campaign_id, user_id)
    role = cache.get(key)
    if role is None:
        role = (
            Membership.objects.filter(campaign_id=campaign_id, user_id=user_id)
            .values_list("role", flat=True)
            .first()
        ) or ""
        cache.set(key, role, ROLE_TTL)
    return role or None


@receiver([post_save, post_delete], sender=Membership)
def _membership_changed(sender, instance: Membership, **kwargs) -> None:
    cache.delete(_role_key(instance.campaign_id, instance.user_id))
    bump(instance.campaign_id, public=True)  # the campaign's member list changed


@receiver(post_save, sender=Character)
def _character_saved(sender, instance: Character, **kwargs) -> None:
    # A sheet's wounds, codes or secrecy changed. Public, so the players' logs re-check which
    # NPCs are secret; a secret NPC's own sheet is the GMs' alone.
    bump(instance.campaign_id, public=True)


# --- Cursors -----------------------------------------------------------------------------------
def cursor_of(roll: DiceRoll) -> int:
    """A roll's place in the log: microseconds since 1970. It orders rolls without revealing
    how many (hidden ones included) came before, which a database id would."""
    return (roll.created_at - _EPOCH) // timedelta(microseconds=1)


def time_of(cursor: int) -> datetime:
    return _EPOCH + timedelta(microseconds=cursor)


def parse_cursor(text: str | None) -> int | None:
    return int(text) if text and text.isdecimal() and len(text) <= 18 else None


def secret_npcs_digest(campaign_id: int) -> str:
    """Which NPCs are secret now, as a short opaque digest: when it changes, a player's log is
    re-rendered whole, so no row shows a name that became secret."""
    ids = sorted(
        Character.objects.filter(
            campaign_id=campaign_id, kind=Character.Kind.NPC, secret=True
        ).values_list("pk", flat=True)
    )
    return salted_hmac("live-secret", repr(ids), algorithm="sha256").hexdigest()[:12]


def visible_rolls(membership: Membership):
    """The rolls this member may see, newest first: GMs all, players those not hidden."""
    rolls = DiceRoll.objects.filter(campaign_id=membership.campaign_id)
    if not membership.is_gm:
        rolls = rolls.filter(hidden=False)
    return rolls.order_by("-created_at", "-pk")


def conceal_secret_npcs(rolls, membership: Membership) -> list[DiceRoll]:
    """Players never learn a secret NPC's name, nor what it rolled for: such a roll (one the
    GM chose not to hide, or one made before the NPC became secret) shows as the GM's, with its
    dice and total only. Decided on the NPC's secrecy now, not when it rolled."""
    rolls = list(rolls)
    for r in rolls:
        npc = r.character
        r.concealed = not membership.is_gm and npc is not None and npc.is_npc and npc.secret
    return rolls


# --- The poller --------------------------------------------------------------------------------
def poller_url(
    membership: Membership, *, version: int | None = None, digest: str | None = None, **held
) -> str:
    """The live URL for a page holding ``held`` pieces (``log``/``strip``: the newest roll
    cursor shown; ``sheet``: a character id), at the member's current version (and, for a
    player's rolls, the current secret-NPC digest) unless the caller has them already."""
    if version is None:
        version = version_for(membership.campaign_id, gm=membership.is_gm)
    query: dict[str, object] = {"v": version}
    if not membership.is_gm and ("log" in held or "strip" in held):
        query["s"] = digest or secret_npcs_digest(membership.campaign_id)
    query.update({k: v for k, v in held.items() if v is not None})
    return reverse("characters:live", args=[membership.campaign_id]) + "?" + urlencode(query)


@login_required
def live(request, campaign_id):
    """204 when nothing the client holds can have changed; else what is new, out of band."""
    role = cached_role(request.user.pk, campaign_id)
    if role is None:
        raise Http404("No such campaign")
    gm = role in (Membership.Role.GM, Membership.Role.CO_GM)
    current = version_for(campaign_id, gm=gm)
    if request.GET.get("v") == str(current):
        response = HttpResponse(status=204)
        response["Cache-Control"] = "no-store, private"
        return response

    membership = membership_or_404(request.user, campaign_id)
    held: dict[str, int | str | None] = {}
    context: dict = {"campaign": membership.campaign, "membership": membership}
    log_cursor = parse_cursor(request.GET.get("log"))
    strip_cursor = parse_cursor(request.GET.get("strip"))
    whole_log, digest = False, None
    if not gm and ("log" in request.GET or "strip" in request.GET):
        digest = secret_npcs_digest(campaign_id)
        whole_log = request.GET.get("s") != digest
    if "log" in request.GET:
        rolls = visible_rolls(membership).select_related("character", "actor")
        if whole_log:
            context["log_rolls"] = conceal_secret_npcs(rolls[:20], membership)
        else:
            if log_cursor is not None:
                rolls = rolls.filter(created_at__gt=time_of(log_cursor))
            context["new_rolls"] = conceal_secret_npcs(rolls[:50], membership)
        shown = context.get("log_rolls") or context.get("new_rolls")
        held["log"] = cursor_of(shown[0]) if shown else log_cursor or 0
    if "strip" in request.GET:
        rolls = visible_rolls(membership).select_related("character", "actor")
        newest = rolls.values_list("created_at", flat=True).first()
        newest_cursor = (newest - _EPOCH) // timedelta(microseconds=1) if newest else 0
        if whole_log or not strip_cursor or newest_cursor != strip_cursor:  # 0: holds none
            context["strip_rolls"] = conceal_secret_npcs(rolls[:STRIP_ROLLS], membership)
        held["strip"] = newest_cursor
    sheet_id = request.GET.get("sheet", "")
    if sheet_id.isdecimal() and len(sheet_id) <= 18:
        from characters.services import condition, stamina_of  # services import this module

        character = (
            Character.objects.filter(pk=int(sheet_id), campaign_id=campaign_id)
            .select_related("owner")
            .first()
        )
        if character is not None and (gm or not (character.is_npc and character.secret)):
            context["character"] = character
            context["wounds"] = condition(
                character, ruleset=membership.campaign.ruleset, stamina=stamina_of(character)
            )
            held["sheet"] = character.pk
    context["poller_url"] = poller_url(membership, version=current, digest=digest, **held)
    response = render(request, "characters/live.html", context)
    response["Cache-Control"] = "no-store, private"
    return response
