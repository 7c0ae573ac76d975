"""A craft's travel and movement page (issue 18): everyone in the campaign reads it; the
pilot's movement roll and a navigator's astrogation are made by that character's player or
the GM. Rules and rolls: characters.craft_travel."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters.craft_models import Craft, CrewStation
from characters.craft_travel import (
    TravelRefused,
    astrogation_skill,
    craft_speeds,
    craft_state,
    latest_astrogation,
    navigator_stations,
    plan_astrogation,
    plan_craft_movement,
    rc_speed_code,
    roll_astrogation,
    roll_movement,
    seen_by,
    star_warriors,
    weapon_ranges,
)
from characters.craft_travel_forms import AstrogationForm, SpeedActionsForm
from characters.services import condition

PAGE = "characters/craft_travel.html"


def _craft_or_404(membership, craft_id) -> Craft:
    craft = Craft.objects.filter(campaign=membership.campaign, pk=craft_id).first()
    if craft is None:
        raise Http404("No such craft")
    return craft


def _rolls_for(membership, character) -> bool:
    return character is not None and (membership.is_gm or character.owner_id == membership.user_id)


def _movement(membership, craft, pilot, form):
    """(plan, refusal) for the pilot's declared movement (the form's, or one speed action
    against 10 while nothing is declared)."""
    if pilot is None or rc_speed_code(craft.stat_block) is None:
        return None, ""
    ruleset = membership.campaign.ruleset
    if form.is_bound:
        if not form.is_valid():
            return None, ""
        declared = form.declared()
    else:
        declared = {"speed_actions": 1, "difficulty": 10}
    try:
        plan = plan_craft_movement(
            craft,
            pilot,
            penalty_dice=condition(pilot, ruleset=ruleset).penalty_dice,
            ruleset=ruleset,
            **declared,
        )
    except TravelRefused as exc:
        return None, str(exc)
    return plan, ""


def _astrogation(membership, craft, navigators, form):
    stats = craft.stat_block
    if not navigators or not stats.hyperdrive:
        return None, ""
    ruleset = membership.campaign.ruleset
    if form.is_bound:
        if not form.is_valid():
            return None, ""
        planned = form.planned()
        station = next(s for s in navigators if s.pk == form.cleaned_data["navigator"])
    else:
        planned = {"situation": "known_systems", "difficulty": 15}
        station = navigators[0]
    navigator = station.character
    code, _ = astrogation_skill(navigator)
    try:
        plan = plan_astrogation(
            stats,
            craft_state(craft),
            code,
            penalty_dice=condition(navigator, ruleset=ruleset).penalty_dice,
            ruleset=ruleset,
            **planned,
        )
    except TravelRefused as exc:
        return None, str(exc)
    return plan, ""


def _context(request, membership, craft, *, move_data=None, astro_data=None, **extra):
    stats = craft.stat_block
    ruleset = membership.campaign.ruleset
    stations = list(craft.stations.select_related("character").order_by("pk"))
    for station in stations:
        station.craft = craft
    pilot_station = next((s for s in stations if s.role == "pilot"), None)
    pilot = pilot_station.character if pilot_station else None
    navigators = navigator_stations(craft, stations, membership)
    move_form = SpeedActionsForm(move_data, prefix="move", starship=stats.kind != "vehicle")
    astro_form = AstrogationForm(
        astro_data, prefix="astro", navigators=navigators, uncertainty=ruleset.uncertainty_dice
    )
    plan, move_refusal = _movement(membership, craft, pilot, move_form)
    astro_plan, astro_refusal = _astrogation(membership, craft, navigators, astro_form)
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "craft": craft,
        "stats": stats,
        "speeds": craft_speeds(stats, craft_state(craft), ruleset=ruleset),
        "speed_code": rc_speed_code(stats),
        "pilot_station": pilot_station,
        "pilot": pilot,
        "can_move": _rolls_for(membership, pilot),
        "move_form": move_form,
        "plan": plan,
        "move_refusal": move_refusal,
        "navigators": navigators,
        "astro_form": astro_form,
        "astro_plan": astro_plan,
        "astro_refusal": astro_refusal,
        "latest_astrogation": latest_astrogation(craft, membership),
        "star_warriors": star_warriors(craft),
        "weapons": weapon_ranges(stats),
        **extra,
    }


@login_required
def craft_travel(request, campaign_id, craft_id):
    """The page; with a declaration in the query (the forms' live odds), the same page."""
    membership = membership_or_404(request.user, campaign_id)
    craft = _craft_or_404(membership, craft_id)
    move_data = request.GET if "move-speed_actions" in request.GET else None
    astro_data = request.GET if "astro-navigator" in request.GET else None
    context = _context(request, membership, craft, move_data=move_data, astro_data=astro_data)
    return render(request, PAGE, context)


def _refused(request, context, piece, status):
    template = f"{PAGE}#{piece}" if request.htmx else PAGE
    return render(request, template, context, status=status)


@login_required
@require_POST
def craft_travel_move(request, campaign_id, craft_id):
    """The pilot's [RC] movement roll: stored as his roll; the result says how far he got or
    where he lost control."""
    membership = membership_or_404(request.user, campaign_id)
    craft = _craft_or_404(membership, craft_id)
    context = _context(request, membership, craft, move_data=request.POST)
    pilot = context["pilot"]
    if pilot is None:
        context["move_refusal"] = f"Nobody holds {craft.name}'s pilot station."
        return _refused(request, context, "movement", 400)
    if not context["can_move"]:
        context["move_refusal"] = f"Only {pilot.name}'s player or the GM rolls for him."
        return _refused(request, context, "movement", 403)
    plan = context["plan"]
    if plan is None:
        return _refused(request, context, "movement", 400)
    station = context["pilot_station"]
    try:
        outcome = roll_movement(station, request.user, plan, ruleset=membership.campaign.ruleset)
    except TravelRefused as exc:
        context["move_refusal"] = str(exc)
        return _refused(request, context, "movement", 400)
    except ValueError as exc:  # CraftRefused from roll_station
        context["move_refusal"] = str(exc)
        return _refused(request, context, "movement", 400)
    context["movement"] = outcome
    template = f"{PAGE}#movement" if request.htmx else PAGE
    return render(request, template, context)


@login_required
@require_POST
def craft_travel_astrogate(request, campaign_id, craft_id):
    """A navigator's astrogation roll (with the GM's hidden uncertainty dice if the campaign
    uses them)."""
    membership = membership_or_404(request.user, campaign_id)
    craft = _craft_or_404(membership, craft_id)
    context = _context(request, membership, craft, astro_data=request.POST)
    form = context["astro_form"]
    if not form.is_valid():
        chosen = request.POST.get("astro-navigator", "")
        station = (
            CrewStation.objects.filter(craft=craft, pk=chosen).select_related("character").first()
            if chosen.isdecimal()
            else None
        )
        if (
            station is not None
            and station.character
            and not _rolls_for(membership, station.character)
        ):
            context["astro_refusal"] = (
                f"Only {station.character.name}'s player or the GM rolls for him."
            )
            return _refused(request, context, "astrogation", 403)
        return _refused(request, context, "astrogation", 400)
    plan = context["astro_plan"]
    if plan is None:
        context["astro_refusal"] = context["astro_refusal"] or f"{craft.name} cannot jump."
        return _refused(request, context, "astrogation", 400)
    station = next(s for s in context["navigators"] if s.pk == form.cleaned_data["navigator"])
    try:
        outcome = roll_astrogation(station, request.user, plan, ruleset=membership.campaign.ruleset)
    except ValueError as exc:  # TravelRefused, CraftRefused
        context["astro_refusal"] = str(exc)
        return _refused(request, context, "astrogation", 400)
    context["astrogation"] = seen_by(outcome, membership)
    template = f"{PAGE}#astrogation" if request.htmx else PAGE
    return render(request, template, context)
