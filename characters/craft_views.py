"""Ships and vehicles of a campaign: the list (with the GM's catalogue and stat-block forms),
the ship sheet with its crew stations, and the rolls made from a station (issue 18). Who may
do what: characters.craft_services."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters.access import visible_characters
from characters.craft_forms import CatalogueAddForm, CrewForm, StatBlockForm
from characters.craft_models import Craft, CrewStation
from characters.craft_services import (
    CraftRefused,
    can_edit_craft,
    catalogue,
    create_craft,
    crew_station,
    roll_station,
    station_trait,
)
from characters.forms import RollForm
from characters.services import condition
from rules.dice import PoolTooSmallError, rollable_pool
from rules.odds import chances_by_level


def _craft_or_404(membership, craft_id) -> Craft:
    craft = (
        Craft.objects.select_related("owner_character")
        .filter(campaign=membership.campaign, pk=craft_id)
        .first()
    )
    if craft is None:
        raise Http404("No such craft")
    return craft


def _owner(value: str, characters) -> tuple[object | None, bool]:
    """(owner character, party) from an owner choice ("", "party", "c<id>")."""
    if value == "party":
        return None, True
    if value.startswith("c"):
        return next(c for c in characters if f"c{c.pk}" == value), False
    return None, False


def _catalogue_rows(query: str, kind: str) -> list:
    rows = list(catalogue().values())
    if kind in ("starship", "vehicle", "capital"):
        rows = [c for c in rows if c.kind == kind]
    if query:
        rows = [c for c in rows if query.casefold() in c.name.casefold()]
    return rows


@login_required
def craft_list(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id)
    craft = Craft.objects.filter(campaign=membership.campaign).select_related("owner_character")
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "craft_list": craft,
    }
    if membership.is_gm:
        query = request.GET.get("q", "")[:100]
        kind = request.GET.get("kind", "")
        rows = _catalogue_rows(query, kind)
        characters = list(visible_characters(membership).only("pk", "name"))
        context |= {
            "query": query,
            "kind": kind,
            "catalogue_rows": rows,
            "add_form": CatalogueAddForm(
                catalogue=[c.name for c in rows] or list(catalogue()), characters=characters
            ),
        }
    return render(request, "characters/craft_list.html", context)


@login_required
@require_POST
def craft_add(request, campaign_id):
    """The GM adds a craft from the catalogue."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    characters = list(visible_characters(membership).only("pk", "name", "campaign_id"))
    form = CatalogueAddForm(request.POST, catalogue=list(catalogue()), characters=characters)
    if not form.is_valid():
        errors = "; ".join(e for errs in form.errors.values() for e in errs)
        return render(
            request,
            "refusal.html",
            {
                "message": f"Not added: {errors}",
                "back": reverse("characters:craft_list", args=[campaign_id]),
            },
            status=400,
        )
    values = form.cleaned_data
    owner, party = _owner(values["owner"], characters)
    stats = catalogue()[values["catalogue"]]
    craft = create_craft(
        membership.campaign,
        stats,
        name=values["name"],
        catalogue_name=stats.name,
        owner_character=owner,
        party=party,
    )
    messages.success(request, f"{craft.name} added.")
    return redirect(craft)


@login_required
def craft_new(request, campaign_id):
    """The GM's own craft: a stat block checked by the engine."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    characters = list(visible_characters(membership).only("pk", "name", "campaign_id"))
    form = StatBlockForm(request.POST or None, characters=characters)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            owner, party = _owner(form.cleaned_data["owner"], characters)
            craft = create_craft(
                membership.campaign,
                form.stats,
                owner_character=owner,
                party=party,
                notes=form.cleaned_data["notes"],
            )
            messages.success(request, f"{craft.name} added.")
            return redirect(craft)
        status = 400
    context = {"campaign": membership.campaign, "membership": membership, "form": form}
    return render(request, "characters/craft_new.html", context, status=status)


def _station_rows(membership, craft: Craft, stations) -> list[dict]:
    stats = craft.stat_block
    rows = []
    for station in stations:
        weapon = stats.weapons[station.weapon_index] if station.weapon_index is not None else None
        holder = station.character
        rolls = holder is not None and station.role not in ("sensors", "engineer")
        rows.append(
            {
                "station": station,
                "title": f"Gunner: {weapon.name}" if weapon else station.get_role_display(),
                "character": holder,
                "can_roll": rolls and (membership.is_gm or holder.owner_id == membership.user_id),
            }
        )
    return rows


@login_required
def craft_sheet(request, campaign_id, craft_id):
    membership = membership_or_404(request.user, campaign_id)
    craft = _craft_or_404(membership, craft_id)
    stations = list(craft.stations.select_related("character").order_by("pk"))
    editor = can_edit_craft(membership, craft)
    characters = list(visible_characters(membership).only("pk", "name", "owner_id"))
    if not editor and craft.party:
        mine = [c for c in characters if c.owner_id == membership.user_id]
    else:
        mine = characters if editor else []
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "craft": craft,
        "stats": craft.stat_block,
        "stations": _station_rows(membership, craft, stations),
        "can_edit": editor,
        "crew_choices": mine,
        "can_crew": bool(mine) or editor,
    }
    return render(request, "characters/craft_sheet.html", context)


@login_required
@require_POST
def craft_crew(request, campaign_id, craft_id):
    """Put a character on a station (or take him off)."""
    membership = membership_or_404(request.user, campaign_id)
    craft = _craft_or_404(membership, craft_id)
    characters = list(visible_characters(membership))
    form = CrewForm(request.POST, characters=characters)
    back = craft.get_absolute_url()
    if not form.is_valid():
        errors = "; ".join(e for errs in form.errors.values() for e in errs)
        return render(
            request, "refusal.html", {"message": f"Not crewed: {errors}", "back": back}, status=400
        )
    station = (
        CrewStation.objects.select_related("character")
        .filter(craft=craft, pk=form.cleaned_data["station"])
        .first()
    )
    if station is None:
        raise Http404("No such station")
    station.craft = craft
    chosen = form.cleaned_data["character"]
    character = next((c for c in characters if str(c.pk) == chosen), None)
    try:
        crew_station(membership, station, character)
    except CraftRefused as exc:
        raise PermissionDenied(str(exc)) from None
    messages.success(request, "Crew station updated.")
    return redirect(craft)


def _roll_context(membership, craft, station, trait, form, **extra):
    ruleset = membership.campaign.ruleset
    values = form.cleaned_data if form.is_bound and form.is_valid() else {}
    actions = values.get("actions") or 1
    cp = values.get("cp") or 0
    modifier = values.get("modifier") or 0
    penalty = condition(station.character, ruleset=ruleset).penalty_dice
    try:
        pool = rollable_pool(
            trait.code,
            actions=actions,
            penalty_dice=penalty,
            force_point=bool(values.get("force_point")),
            ruleset=ruleset,
        )
    except PoolTooSmallError as exc:
        pool, odds, pool_error = None, [], str(exc)
    else:
        odds = chances_by_level(pool, ruleset=ruleset, cp_dice=cp, modifier=modifier)
        pool_error = ""
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "craft": craft,
        "station": station,
        "character": station.character,
        "trait": trait,
        "form": form,
        "pool": pool,
        "pool_error": pool_error,
        "wound_penalty": penalty,
        "odds": odds,
        **extra,
    }


@login_required
def craft_roll(request, campaign_id, craft_id, station_id):
    """GET: the station's roll (crew member's skill + the craft's code) with the exact odds.
    POST: roll it, store it as the crew member's roll and debit the points spent."""
    membership = membership_or_404(request.user, campaign_id)
    craft = _craft_or_404(membership, craft_id)
    station = (
        CrewStation.objects.select_related("character").filter(craft=craft, pk=station_id).first()
    )
    if station is None or station.character is None:
        raise Http404("Nobody holds that station")
    station.craft = craft
    holder = station.character
    if not (membership.is_gm or holder.owner_id == membership.user_id):
        raise PermissionDenied(f"Only {holder.name}'s player or the GM rolls for him.")
    try:
        trait = station_trait(station, holder)
    except CraftRefused as exc:
        return render(
            request,
            "refusal.html",
            {"message": str(exc), "back": craft.get_absolute_url()},
            status=400,
        )
    data = (
        request.POST
        if request.method == "POST"
        else (request.GET if "actions" in request.GET else None)
    )
    form = RollForm(
        data, allow_hidden=membership.is_gm, hidden_by_default=holder.is_npc and holder.secret
    )
    if request.method != "POST":
        context = _roll_context(membership, craft, station, trait, form)
        return render(request, "characters/craft_roll.html", context)
    if form.is_valid():
        values = form.cleaned_data
        try:
            record = roll_station(
                station,
                request.user,
                ruleset=membership.campaign.ruleset,
                actions=values["actions"],
                modifier=values["modifier"],
                cp=values["cp"],
                force_point=values["force_point"],
                difficulty=values["difficulty"],
                hidden=values.get("hidden", False),
            )
        except CraftRefused as exc:
            form.add_error(None, str(exc))
        else:
            station.character.refresh_from_db()
            context = _roll_context(membership, craft, station, trait, form, roll=record)
            return render(request, "characters/craft_roll.html", context)
    context = _roll_context(membership, craft, station, trait, form)
    return render(request, "characters/craft_roll.html", context, status=400)


@login_required
def craft_delete(request, campaign_id, craft_id):
    """The GM deletes a craft (its crew stations go with it; rolls stay in the dice log)."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    craft = _craft_or_404(membership, craft_id)
    context = {"campaign": membership.campaign, "craft": craft}
    if request.method == "POST":
        if request.POST.get("confirm_name", "").strip() != craft.name:
            context["error"] = "Type the craft's name exactly to delete it."
            return render(request, "characters/craft_delete.html", context, status=400)
        name = craft.name
        craft.delete()
        messages.success(request, f"{name} was deleted.")
        return redirect("characters:craft_list", campaign_id)
    return render(request, "characters/craft_delete.html", context)
