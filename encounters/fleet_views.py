"""The fleet-action pages: the campaign's battles between capital ships (and a new one), and
one battle, the GM's to drive (ships, steps, undo) and the players' to watch, kept up to date
by a small poll that answers 204 while the battle's version is the one the page holds.

Every step is a POST with the version the page showed; a refusal (bad input, a stale page)
answers with the page, the reason and nothing changed."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters.live import cached_role
from encounters import fleet_present
from encounters.fleet_forms import AIMS, AddShipForm, NewFleetActionForm, step_data
from encounters.fleet_models import FleetAction
from encounters.fleet_services import (
    OPTION_OFF,
    StaleFleetAction,
    add_craft,
    apply_step,
    capital_craft,
    fleet_actions_on,
    start_fleet_action,
    undo_last_step,
)
from rules.craft import FACINGS, OFFICERS
from rules.dice import DiceSource, SystemDice
from rules.errors import RulesError
from rules.fleet.commands import DAMAGE_ROWS

RECENT_STEPS = 15


def dice() -> DiceSource:
    """The dice the steps roll (tests replace this function with a seeded source)."""
    return SystemDice()


def _fleet(membership, fleet_id: int) -> FleetAction:
    return get_object_or_404(FleetAction, pk=fleet_id, campaign_id=membership.campaign_id)


@login_required
def fleet_list(request, campaign_id):
    """The campaign's fleet actions; a GM starts one here (when the campaign plays them)."""
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    form = NewFleetActionForm()
    status = 200
    if request.method == "POST":
        membership = membership_or_404(request.user, campaign_id, role="gm")
        form = NewFleetActionForm(request.POST)
        if form.is_valid():
            try:
                fleet = start_fleet_action(campaign, form.cleaned_data["name"], request.user)
            except RulesError as exc:
                form.add_error(None, str(exc))
            else:
                return redirect("encounters:fleet_page", campaign_id, fleet.pk)
        status = 400
    context = {
        "campaign": campaign,
        "membership": membership,
        "on": fleet_actions_on(campaign),
        "off_text": OPTION_OFF,
        "fleets": campaign.fleet_actions.all(),
        "form": form,
    }
    return render(request, "encounters/fleet_list.html", context, status=status)


def _context(membership, fleet: FleetAction, **extra: Any) -> dict[str, Any]:
    state = fleet.current_state()
    gm = membership.is_gm
    args = [membership.campaign_id, fleet.pk]
    steps = list(fleet.steps.order_by("-number")[:RECENT_STEPS])
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "fleet": fleet,
        "state": state,
        "gm": gm,
        "on": fleet.ruleset.capital_combat == "rc",
        "off_text": OPTION_OFF,
        "rows": fleet_present.ship_rows(state),
        "log": fleet_present.log_entries(steps),
        "poll_url": reverse("encounters:fleet_live", args=args) + f"?v={fleet.version}",
        "step_url": reverse("encounters:fleet_step", args=args),
        "ship_url": reverse("encounters:fleet_ship", args=args),
        "undo_url": reverse("encounters:fleet_undo", args=args),
        "aims": AIMS,
        "facings": FACINGS,
        "officers": OFFICERS,
        "damage_rows": DAMAGE_ROWS,
        "active": [s for s in state.ships if not s.destroyed],
        "guns_chart": fleet_present.guns_chart(),
        "swarm": fleet_present.swarm_reference(),
    }
    if gm:
        context["ship_form"] = extra.pop("ship_form", None) or AddShipForm(
            craft=capital_craft(membership.campaign)
        )
    context.update(extra)
    return context


@login_required
def fleet_page(request, campaign_id, fleet_id):
    """The GM's controls and every ship's template, or a player's view of the same battle."""
    membership = membership_or_404(request.user, campaign_id)
    fleet = _fleet(membership, fleet_id)
    return render(request, "encounters/fleet.html", _context(membership, fleet))


def _seen(request) -> int:
    raw = request.POST.get("version") or ""
    return int(raw) if raw.isdecimal() and len(raw) < 10 else -1


def _refused(request, membership, fleet_id: int, exc: RulesError, **extra: Any) -> HttpResponse:
    if isinstance(exc, StaleFleetAction):
        fleet = exc.fleet_action
        text = (
            "Someone else moved the battle on; this is the battle as it is now. "
            "Nothing was changed."
        )
        status = 409
    else:
        fleet = _fleet(membership, fleet_id)
        text = f"Refused: {exc}. Nothing was changed."
        status = 400
    context = _context(membership, fleet, error=text, **extra)
    return render(request, "encounters/fleet.html", context, status=status)


@login_required
@require_POST
def fleet_step(request, campaign_id, fleet_id):
    """The GM takes one step (the form's fields name it)."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    try:
        fleet, events = apply_step(
            fleet_id,
            step_data(request.POST),
            expected_version=_seen(request),
            actor=request.user,
            rng=dice(),
            campaign_id=campaign_id,
        )
    except RulesError as exc:
        return _refused(request, membership, fleet_id, exc)
    messages.success(request, " ".join(e.text for e in events[-3:] if e.text) or "Done.")
    return redirect("encounters:fleet_page", campaign_id, fleet.pk)


@login_required
@require_POST
def fleet_ship(request, campaign_id, fleet_id):
    """One of the campaign's capital ships joins the battle."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    _fleet(membership, fleet_id)
    form = AddShipForm(request.POST, craft=capital_craft(membership.campaign))
    if not form.is_valid():
        fleet = _fleet(membership, fleet_id)
        context = _context(membership, fleet, ship_form=form, error="Check the ship's form.")
        return render(request, "encounters/fleet.html", context, status=400)
    try:
        fleet, events = add_craft(
            fleet_id,
            form.cleaned_data["craft"],
            side=form.cleaned_data["side"],
            crew=form.cleaned_data["crew"],
            command=form.cleaned_data["command"] or None,
            expected_version=_seen(request),
            actor=request.user,
            campaign_id=campaign_id,
        )
    except RulesError as exc:
        form.add_error(None, str(exc))
        return _refused(request, membership, fleet_id, exc, ship_form=form)
    messages.success(request, events[0].text)
    return redirect("encounters:fleet_page", campaign_id, fleet.pk)


@login_required
@require_POST
def fleet_undo(request, campaign_id, fleet_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    fleet = _fleet(membership, fleet_id)
    try:
        undo_last_step(fleet.pk, expected_version=_seen(request), actor=request.user)
    except RulesError as exc:
        return _refused(request, membership, fleet_id, exc)
    messages.success(request, "The last step was undone.")
    return redirect("encounters:fleet_page", campaign_id, fleet.pk)


@login_required
def fleet_live(request, campaign_id, fleet_id):
    """204 while the battle is at the version the page holds; else the battle's templates and
    log, and a new poller."""
    if cached_role(request.user.pk, campaign_id) is None:
        raise Http404("No such campaign")
    version = (
        FleetAction.objects.filter(pk=fleet_id, campaign_id=campaign_id)
        .values_list("version", flat=True)
        .first()
    )
    if version is None:
        raise Http404("No such fleet action")
    if request.GET.get("v", "") == str(version):
        response = HttpResponse(status=204)
    else:
        membership = membership_or_404(request.user, campaign_id)
        fleet = _fleet(membership, fleet_id)
        response = render(request, "encounters/fleet.html#battle", _context(membership, fleet))
    response["Cache-Control"] = "no-store, private"
    return response
