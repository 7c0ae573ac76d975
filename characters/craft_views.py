"""Ships and vehicles of a campaign: the list (with the GM's catalogue and stat-block forms),
the ship sheet with its crew stations, its damage and repairs, and the rolls made from a
station (issue 18). Who may do what: characters.craft_services and characters.craft_damage."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters import craft_damage, repair_jobs
from characters.access import visible_characters
from characters.craft_forms import (
    CatalogueAddForm,
    ClearDamageForm,
    CraftEditForm,
    CrewForm,
    RecordHitForm,
    RepairRequestForm,
    ResolveRepairForm,
    StatBlockForm,
)
from characters.craft_models import Craft, CrewStation, RepairRequest
from characters.craft_services import (
    CraftRefused,
    can_edit_craft,
    catalogue,
    create_craft,
    crew_station,
    edit_craft,
    roll_station,
    station_trait,
)
from characters.forms import RollForm
from characters.services import condition
from rules.craft import CraftError, CraftState, station_roll
from rules.dice import DiceSource, PoolTooSmallError, SystemDice, rollable_pool
from rules.odds import chances_by_level


def dice() -> DiceSource:
    """The dice for damage tables and repair rolls (a browser test seeds them here)."""
    return SystemDice()


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
                value=form.cleaned_data["value"],
            )
            messages.success(request, f"{craft.name} added.")
            return redirect(craft)
        status = 400
    context = {"campaign": membership.campaign, "membership": membership, "form": form}
    return render(request, "characters/craft_new.html", context, status=status)


def _station_rows(membership, craft: Craft, stations) -> list[dict]:
    stats = craft.stat_block
    state = craft.damage_state
    ruleset = membership.campaign.ruleset
    rows = []
    for station in stations:
        weapon = stats.weapons[station.weapon_index] if station.weapon_index is not None else None
        holder = station.character
        rolls = holder is not None and station.role not in ("sensors", "engineer")
        limit = None
        try:
            what = station_roll(stats, station.role, station.weapon_index)
        except CraftError:
            what = None
        if what is not None and what.craft_code is not None:
            limit = craft_damage.station_limit(
                what.craft_code, what.craft_code_name, state, ruleset=ruleset
            )
        rows.append(
            {
                "station": station,
                "title": f"Gunner: {weapon.name}" if weapon else station.get_role_display(),
                "character": holder,
                "can_roll": rolls and (membership.is_gm or holder.owner_id == membership.user_id),
                "roll": what,
                "limit": limit,
            }
        )
    return rows


def _damage_context(membership, craft: Craft, stations) -> dict:
    """The damage on the sheet: the level, one line per result with its repair quote, the
    open and recent repairs, and the forms the member may use."""
    ruleset = membership.campaign.ruleset
    state = craft.damage_state
    stats = craft.stat_block
    entries = craft_damage.damage_entries(state, stats, ruleset=ruleset)
    rows = [
        {"entry": entry, "quote": craft_damage.sheet_quote(craft, entry, ruleset=ruleset)}
        for entry in entries
    ]
    engineer = next((s.character for s in stations if s.role == "engineer"), None)
    repairs = list(
        craft.repairs.select_related("payer", "engineer", "roll").order_by("-created_at", "-pk")[
            :10
        ]
    )
    for repair in repairs:
        repair.can_resolve = repair.status == RepairRequest.Status.OPEN and (
            craft_damage.can_resolve_repair(membership, craft, engineer)
        )
        repair.can_cancel = repair.status == RepairRequest.Status.OPEN and (
            membership.is_gm or repair.requested_by_id == membership.user_id
        )
        if repair.can_resolve:
            repair.default_number = craft_damage.default_difficulty_number(
                repair.difficulty, ruleset=ruleset
            )
    repair_jobs.annotate_repairs(membership, craft, repairs)  # issue 19: repairs as jobs
    speed = None
    if state.moves_lost:
        speed = craft_damage.lost_moves_status(state.moves_lost, ruleset=ruleset)
    return {
        "damage": state,
        "damage_words": craft_damage.LEVEL_WORDS[state.damage],
        "damaged": state != CraftState(),
        "damage_rows": rows,
        "lost_moves": speed,
        "repairs": repairs,
        "engineer": engineer,
        "rc_repairs": membership.campaign.ruleset.preparing == "rc_prepare_round",
        "repair_helpers": list(
            {
                s.character_id: s.character
                for s in stations
                if s.character_id is not None
                and (engineer is None or s.character_id != engineer.pk)
            }.values()
        )
        if membership.campaign.ruleset.combined_actions == "rc_support"
        else [],
        "can_request_repair": craft_damage.can_request_repair(membership, craft)
        and any(r["entry"].system and not state.destroyed for r in rows),
        "rc_chart": ruleset.damage_chart == "rc_multiples",
        "can_undo": membership.is_gm and damaged_since_hit(craft, state),
    }


def damaged_since_hit(craft: Craft, state: CraftState) -> bool:
    """The last recorded hit is what the damage still is (one query, only when damaged)."""
    if state == CraftState():
        return False
    record = craft_damage.last_hit(craft)
    return record is not None and record.dice.get("after") == state.to_json()


def _payers(membership, craft: Craft):
    characters = visible_characters(membership).only("pk", "name", "owner_id", "credits")
    if membership.is_gm:
        return list(characters)
    return [c for c in characters if c.owner_id == membership.user_id]


def _sheet(request, membership, craft: Craft, status: int = 200, **forms):
    stations = list(craft.stations.select_related("character").order_by("pk"))
    editor = can_edit_craft(membership, craft)
    characters = list(visible_characters(membership).only("pk", "name", "owner_id"))
    if not editor and craft.party:
        mine = [c for c in characters if c.owner_id == membership.user_id]
    else:
        mine = characters if editor else []
    damage = _damage_context(membership, craft, stations)
    if damage["can_request_repair"] and "repair_form" not in forms:
        entries = [r["entry"] for r in damage["damage_rows"] if r["entry"].system]
        forms["repair_form"] = RepairRequestForm(
            entries=entries, payers=_payers(membership, craft), gm=membership.is_gm
        )
    if membership.is_gm and "hit_form" not in forms:
        forms["hit_form"] = RecordHitForm(
            rc=membership.campaign.ruleset.damage_chart == "rc_multiples"
        )
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "craft": craft,
        "stats": craft.stat_block,
        "stations": _station_rows(membership, craft, stations),
        "can_edit": editor,
        "crew_choices": mine,
        "can_crew": bool(mine) or editor,
        **damage,
        **forms,
    }
    return render(request, "characters/craft_sheet.html", context, status=status)


@login_required
def craft_sheet(request, campaign_id, craft_id):
    membership = membership_or_404(request.user, campaign_id)
    craft = _craft_or_404(membership, craft_id)
    return _sheet(request, membership, craft)


@login_required
def craft_edit(request, campaign_id, craft_id):
    """The GM edits a craft's stat block (checked by the engine, as a new one)."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    craft = _craft_or_404(membership, craft_id)
    characters = list(visible_characters(membership).only("pk", "name", "campaign_id"))
    form = CraftEditForm(request.POST or None, craft=craft, characters=characters)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            values = form.cleaned_data
            owner, party = _owner(values["owner"], characters)
            try:
                edit_craft(
                    craft,
                    form.stats,
                    name=values["name"],
                    owner_character=owner,
                    party=party,
                    notes=values["notes"],
                    value=values["value"],
                )
            except CraftRefused as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"{craft.name}'s stat block saved.")
                return redirect(craft)
        status = 400
    context = {"campaign": membership.campaign, "craft": craft, "form": form}
    return render(request, "characters/craft_edit.html", context, status=status)


@login_required
@require_POST
def craft_hit(request, campaign_id, craft_id):
    """The GM records a hit outside an encounter: the damage chart, then the 1D table."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    craft = _craft_or_404(membership, craft_id)
    form = RecordHitForm(
        request.POST, rc=membership.campaign.ruleset.damage_chart == "rc_multiples"
    )
    if form.is_valid():
        values = form.cleaned_data
        try:
            hit = craft_damage.record_hit(
                craft,
                request.user,
                damage_roll=values["damage_roll"],
                resist_roll=values["resist_roll"],
                ion=values["ion"],
                shields_in_use=values.get("shields_in_use", False),
                ruleset=membership.campaign.ruleset,
                rng=dice(),
            )
        except CraftRefused as exc:
            form.add_error(None, str(exc))
        else:
            table = f" Damage table: {hit.roll.total}." if hit.roll else ""
            now = craft_damage.LEVEL_WORDS[hit.after.damage]
            messages.success(request, f"Hit recorded: {hit.words}.{table} {craft.name} is {now}.")
            return redirect(f"{craft.get_absolute_url()}#damage")
    craft.refresh_from_db()
    return _sheet(request, membership, craft, status=400, hit_form=form)


@login_required
@require_POST
def craft_clear(request, campaign_id, craft_id):
    """The GM clears one damage result (``entry``) or all of them."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    craft = _craft_or_404(membership, craft_id)
    form = ClearDamageForm(request.POST)
    back = f"{craft.get_absolute_url()}#damage"
    if not form.is_valid():
        return render(
            request,
            "refusal.html",
            {"message": "Not cleared: choose a result of the craft.", "back": back},
            status=400,
        )
    try:
        craft_damage.clear_damage(craft, form.cleaned_data["entry"] or None)
    except CraftRefused as exc:
        return render(
            request, "refusal.html", {"message": f"Not cleared: {exc}", "back": back}, status=400
        )
    messages.success(request, "Damage cleared.")
    return redirect(back)


@login_required
@require_POST
def craft_undo(request, campaign_id, craft_id):
    """The GM undoes the last recorded hit (if nothing changed the damage since)."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    craft = _craft_or_404(membership, craft_id)
    back = f"{craft.get_absolute_url()}#damage"
    try:
        craft_damage.undo_last_hit(craft)
    except CraftRefused as exc:
        return render(
            request, "refusal.html", {"message": f"Not undone: {exc}", "back": back}, status=400
        )
    messages.success(request, "The last hit was undone.")
    return redirect(back)


@login_required
@require_POST
def craft_repair_request(request, campaign_id, craft_id):
    """Ask for a repair at its quoted difficulty, time and cost."""
    membership = membership_or_404(request.user, campaign_id)
    craft = _craft_or_404(membership, craft_id)
    if not craft_damage.can_request_repair(membership, craft):
        raise PermissionDenied(f"{craft.name} is not yours: its owner or the GM asks for repairs.")
    ruleset = membership.campaign.ruleset
    entries = [
        e
        for e in craft_damage.damage_entries(craft.damage_state, craft.stat_block, ruleset=ruleset)
        if e.system
    ]
    payers = _payers(membership, craft)
    form = RepairRequestForm(request.POST, entries=entries, payers=payers, gm=membership.is_gm)
    if form.is_valid():
        values = form.cleaned_data
        payer = next((c for c in payers if str(c.pk) == values["payer"]), None)
        try:
            repair = craft_damage.request_repair(
                membership,
                craft,
                values["entry"],
                payer=payer,
                hired=values["hired"],
                weapon_value=values.get("weapon_value"),
                gm_cost=values.get("cost"),
            )
        except CraftRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(
                request,
                f"Repair asked for: {repair.description} ({repair.difficulty}, "
                f"{repair.cost:,} credits).",
            )
            return redirect(f"{craft.get_absolute_url()}#repairs")
    return _sheet(request, membership, craft, status=400, repair_form=form)


def _repair_or_404(craft: Craft, repair_id) -> RepairRequest:
    repair = RepairRequest.objects.filter(craft=craft, pk=repair_id).first()
    if repair is None:
        raise Http404("No such repair")
    return repair


@login_required
@require_POST
def craft_repair_resolve(request, campaign_id, craft_id, repair_id):
    """The GM or the engineer's player rolls the repair."""
    membership = membership_or_404(request.user, campaign_id)
    craft = _craft_or_404(membership, craft_id)
    repair = _repair_or_404(craft, repair_id)
    if not craft_damage.can_resolve_repair(membership, craft, craft_damage.engineer_of(craft)):
        raise PermissionDenied("Only the GM or the engineer's player resolves a repair.")
    engineer = craft_damage.engineer_of(craft)
    crew = [
        s.character
        for s in craft.stations.select_related("character")
        if s.character_id is not None and (engineer is None or s.character_id != engineer.pk)
    ]
    crew = list({c.pk: c for c in crew}.values())
    form = ResolveRepairForm(request.POST, crew=crew)
    back = f"{craft.get_absolute_url()}#repairs"
    if not form.is_valid():
        errors = "; ".join(e for errs in form.errors.values() for e in errs)
        return render(
            request, "refusal.html", {"message": f"Not rolled: {errors}", "back": back}, status=400
        )
    try:
        done = craft_damage.resolve_repair(
            membership,
            repair,
            difficulty=form.cleaned_data["difficulty"],
            pace=form.cleaned_data["pace"] or "normal",
            helpers=[c for c in crew if str(c.pk) in form.cleaned_data["helpers"]],
            rng=dice(),
        )
    except CraftRefused as exc:
        return render(
            request, "refusal.html", {"message": f"Not rolled: {exc}", "back": back}, status=400
        )
    outcome = "repaired" if done.status == RepairRequest.Status.DONE else "failed: " + done.note
    messages.success(
        request,
        f"Repair roll {done.roll.total} vs {done.roll.difficulty}: {done.description} {outcome}.",
    )
    return redirect(back)


@login_required
@require_POST
def craft_repair_cancel(request, campaign_id, craft_id, repair_id):
    membership = membership_or_404(request.user, campaign_id)
    craft = _craft_or_404(membership, craft_id)
    repair = _repair_or_404(craft, repair_id)
    if not (membership.is_gm or repair.requested_by_id == membership.user_id):
        raise PermissionDenied("Only the GM or whoever asked for it cancels a repair.")
    back = f"{craft.get_absolute_url()}#repairs"
    try:
        craft_damage.cancel_repair(membership, repair)
    except CraftRefused as exc:
        return render(
            request, "refusal.html", {"message": f"Not cancelled: {exc}", "back": back}, status=400
        )
    messages.success(request, "Repair cancelled.")
    return redirect(back)


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
        trait = station_trait(station, holder, ruleset=membership.campaign.ruleset)
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
