"""The encounter pages: the list and the new-encounter form, the GM's dashboard and the player's
view of one fight (one page, two roles), the steps (each an HTMX POST answered with only the
pieces that changed, out of band), undo, the end of the fight, adding combatants, the live poll
and the whole log.

A page holds the encounter version it shows (``#enc-seen``). A step names it; the answer and
every poll bring the pieces changed since then: the status line, the rows of the combatants
the steps touched (the whole table after a step that reorders it, or after an undo), the
recent log and a new poller. Two tabs or a double click cannot take one step twice: the
service refuses a step taken on an old version, and the stale page gets the new state with
that message."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters.craft_models import Craft
from characters.live import cached_role
from characters.models import Character
from encounters import present
from encounters.combatants import character_id_of, combatants_for_characters, craft_id_of, squadron
from encounters.forms import AddCharactersForm, AddCraftForm, QuickStatBlockForm, save_stat_block
from encounters.models import Encounter, StatBlock, Step
from encounters.services import (
    StaleEncounter,
    apply_step,
    end_encounter,
    start_encounter,
    undo_last_step,
)
from encounters.steps import command_data, player_refusal, stored_touched
from rules import encounter as engine
from rules.advancement import max_cp_per_roll
from rules.combat import cover_conditions
from rules.dice import DiceSource, SystemDice
from rules.encounter import EncounterState, next_to_act
from rules.encounter.points import force_point_active
from rules.errors import RulesError

_URL_NAMES = ("step", "undo", "end", "add", "log", "live")
RECENT_STEPS = 10
"""Steps the page's log shows (the whole log is a page of its own)."""


def dice() -> DiceSource:
    """The dice the steps roll: the system's randomness (tests replace this function with a
    seeded source)."""
    return SystemDice()


# --- reading ------------------------------------------------------------------------------------
def _encounter(membership, encounter_id: int) -> Encounter:
    return get_object_or_404(Encounter, pk=encounter_id, campaign_id=membership.campaign_id)


def _own(membership, state: EncounterState) -> set[str]:
    """The combatants this member plays: his characters in the fight (none for a GM). Asked
    once per request: the answer is kept on the membership for the same characters."""
    if membership.is_gm:
        return set()
    ids = frozenset({character_id_of(c.id) for c in state.combatants} - {None})
    if not ids:
        return set()
    kept = getattr(membership, "_encounter_characters", None)
    if kept is None or not ids <= kept[0]:
        mine = set(
            Character.objects.filter(
                campaign_id=membership.campaign_id, owner_id=membership.user_id, pk__in=ids
            ).values_list("pk", flat=True)
        )
        kept = (ids, mine)
        membership._encounter_characters = kept
    return {c.id for c in state.combatants if character_id_of(c.id) in kept[1]}


def _recent(encounter: Encounter, *, since: int = 0) -> list[Step]:
    """The latest steps, newest first (those written after version ``since``)."""
    rows = encounter.steps.only("number", "version", "command", "events", "touched")
    if since:
        rows = rows.filter(version__gt=since)
    return list(rows.order_by("-number")[:RECENT_STEPS])


def _context(
    membership,
    encounter: Encounter,
    *,
    since: int | None = None,
    recent: list[Step] | None = None,
    message: str = "",
    error: bool = False,
) -> dict[str, Any]:
    """Everything the page shows, or (``since``) the pieces changed since that version."""
    state = encounter.current_state()
    ruleset = encounter.ruleset
    gm = membership.is_gm
    own = _own(membership, state)
    only: set[str] | None = None
    full = True
    new_steps: list[Step] = []
    if since is not None and encounter.undone_at <= since <= encounter.version:
        # The steps since the page's version (one query); the whole table and log when an undo
        # came between, a step reordered the table, or there are too many to catch up on.
        new_steps = _recent(encounter, since=since)
        full = len(new_steps) != encounter.version - since
        only = set()
        for s in new_steps if not full else ():
            ids = stored_touched(s)
            if ids is None:
                full, only = True, None
                break
            only |= ids
    if full:
        only = None
        recent = _recent(encounter) if recent is None else recent
    else:
        recent = new_steps
    npc_ids = {c.id for c in state.combatants if c.npc}
    args = [membership.campaign_id, encounter.pk]
    urls = {name: reverse(f"encounters:{name}", args=args) for name in _URL_NAMES}
    # A player's card follows his craft too: an attack on it is his to dodge, or his gun's.
    aboard_touched = {
        who
        for c in state.combatants
        if c.craft is not None and only is not None and c.id in only
        for _station, who in c.craft.crew
    }
    mine = [
        state.combatant(cid)
        for cid in sorted(own)
        if only is None or cid in only or cid in aboard_touched
    ]
    due = next_to_act(state) if state.phase == "round" else None
    you = []
    for c in mine:
        guns = present.guns_for(c, state)
        odds = present.attack_odds(
            c, state=state, ruleset=ruleset, gun=guns[0]["index"] if guns else None
        )
        dodge = None
        dodge_skill, under_attack = "dodge", None
        if state.pending is not None:
            target = state.combatant(state.pending.target)
            if target.craft is not None and target.craft.holder("pilot") == c.id:
                dodge_skill, under_attack = present.dodge_skill(target.craft), target
            elif target.id == c.id:
                under_attack = c
        if (
            under_attack is not None
            and c.reaction(dodge_skill) is None
            and not c.out_of_fight
            and not c.lost_actions
        ):
            dodge = present.reaction_odds(
                c, dodge_skill, state.pending.base, state=state, ruleset=ruleset
            )
        you.append(
            {
                "row": present.rows(state, ruleset=ruleset, gm=gm, own=own, only={c.id})[0],
                "odds": odds,
                "dodge": dodge,
                "dodge_skill": dodge_skill,
                "craft_name": under_attack.name
                if under_attack is not None and under_attack.craft
                else "",
                "guns": guns,
                "aboard": present.aboard_text(c, state),
                "targets": [t for t in state.combatants if t.side != c.side and not t.out_of_fight],
                "due": due is not None and due[0] == c.id,
                "force_point_active": force_point_active(c, state.round),
                "may_act": due is None or due[0] == c.id or bool(state.segment),
            }
        )
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "encounter": encounter,
        "state": state,
        "gm": gm,
        "status": present.status(state, ruleset=ruleset),
        "rows": present.rows(state, ruleset=ruleset, gm=gm, own=own, only=only),
        "full": full,
        # The GM's lists of who can act: redrawn when a step took someone out of the fight.
        "controls_stale": not full
        and any(c.id in (only or ()) and c.out_of_fight for c in state.combatants),
        "you": you,
        "log": present.log_entries(recent, gm=gm, npc_ids=npc_ids),
        "fighters": [c for c in state.combatants if not c.out_of_fight],
        # A crewed craft has no turn of its own: its gunners fire its guns.
        "attackers": [
            c
            for c in state.combatants
            if not c.out_of_fight and (c.craft is None or not c.craft.crewed)
        ],
        "craft_rows": [c for c in state.combatants if c.craft is not None and not c.out_of_fight],
        "arcs": ("front", "left", "right", "back"),
        "gun_choices": _gun_choices(state),
        "ram_pilots": [
            (c.craft.holder("pilot") or c.id, c.name)
            for c in state.combatants
            if c.craft is not None and not c.out_of_fight
        ],
        "terrains": ("very easy", "easy", "moderate", "difficult", "very difficult", "heroic"),
        "ram_speeds": ("cautious", "cruising", "high", "all-out")
        if ruleset.collision_table != "house"
        else ("cautious", "normal", "fast", "high", "all-out"),
        "bands": [b.value for b in present.BANDS],
        "covers": [(c, c.replace("_", " ")) for c in cover_conditions(ruleset=ruleset)],
        "due_id": due[0] if due else "",
        "own_ids": own,
        "dodge_replaces": ruleset.reaction_mode == "replace",
        "damage_cp": max_cp_per_roll("damage", ruleset=ruleset) != 0,
        "house_criticals": ruleset.critical_injuries == "house",
        "auto_fire": ruleset.auto_fire == "house",
        "suppression": ruleset.suppression_fire,
        "blast": getattr(state, "blast", None),
        "undeclared_npcs": [
            c.id
            for c in state.combatants
            if c.npc
            and c.actions is None
            and not c.out_of_fight
            and (c.craft is None or not c.craft.crewed)  # a crewed craft acts through its crew
        ],
        "can_surprise": state.round == 1
        and getattr(state, "surprise", None) is None
        and state.phase in ("initiative", "round")
        and not any(c.actions and c.actions.used for c in state.combatants),
        "message": message,
        "error": error,
        "ended": encounter.is_ended,
        "poll_url": urls["live"] + f"?v={encounter.version}",
        "urls": urls,
    }


def _gun_choices(state: EncounterState) -> list[dict[str, Any]]:
    """The GM's weapon choice on the attack form: gun N of the attacker's craft (its names on
    each craft in the fight)."""
    by_index: dict[int, dict[str, list[str]]] = {}
    for c in state.combatants:
        if c.craft is not None and not c.out_of_fight:
            for i, g in enumerate(c.craft.guns):
                by_index.setdefault(i, {}).setdefault(g.name, []).append(c.name)
    return [
        {
            "index": i,
            "number": i + 1,
            "label": " · ".join(
                f"{gun} ({', '.join(names[:4])}{', …' if len(names) > 4 else ''})"
                for gun, names in list(guns.items())[:6]
            ),
        }
        for i, guns in sorted(by_index.items())
    ]


@login_required
def encounter_list(request, campaign_id):
    """The campaign's encounters; a GM starts a new one here."""
    membership = membership_or_404(request.user, campaign_id)
    if request.method == "POST":
        if not membership.is_gm:
            raise PermissionDenied("Only the campaign's game masters can start an encounter.")
        try:
            encounter = start_encounter(
                membership.campaign, request.POST.get("name", ""), request.user
            )
        except RulesError as exc:
            encounters = membership.campaign.encounters.all()
            context = {
                "campaign": membership.campaign,
                "membership": membership,
                "encounters": encounters,
                "error": str(exc),
                "name": request.POST.get("name", "")[:120],
            }
            return render(request, "encounters/list.html", context, status=400)
        return redirect("encounters:add", membership.campaign_id, encounter.pk)
    encounters = membership.campaign.encounters.all()
    context = {"campaign": membership.campaign, "membership": membership, "encounters": encounters}
    return render(request, "encounters/list.html", context)


@login_required
def page(request, campaign_id, encounter_id):
    """The GM's dashboard, or a player's view of the fight."""
    membership = membership_or_404(request.user, campaign_id)
    encounter = _encounter(membership, encounter_id)
    return render(request, "encounters/encounter.html", _context(membership, encounter))


# --- steps --------------------------------------------------------------------------------------
def _seen(request) -> int | None:
    raw = request.POST.get("seen") or request.POST.get("version") or ""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


def _pieces(request, membership, encounter, since, *, message="", error=False, status=200):
    if not request.htmx:
        if message:
            (messages.error if error else messages.success)(request, message)
        return redirect("encounters:page", membership.campaign_id, encounter.pk)
    context = _context(membership, encounter, since=since, message=message, error=error)
    return render(request, "encounters/pieces.html", context, status=status)


def _refused(request, membership, encounter_id, since, exc):
    """A refused step: the message in place, and the current state when the page was stale."""
    if isinstance(exc, StaleEncounter):
        encounter = exc.encounter
        message = (
            "Someone else moved the encounter on; this is the fight as it is now. "
            "Nothing was changed."
        )
        return _pieces(
            request, membership, encounter, since, message=message, error=True, status=409
        )
    encounter = _encounter(membership, encounter_id)
    return _pieces(
        request,
        membership,
        encounter,
        since,
        message=f"Refused: {exc}. Nothing was changed.",
        error=True,
        status=400,
    )


@login_required
@require_POST
def step(request, campaign_id, encounter_id):
    """Take one step (the form's fields name the command); GMs may take any, a player only
    his own combatant's."""
    membership = membership_or_404(request.user, campaign_id)
    since = _seen(request)
    if since is None:
        encounter = _encounter(membership, encounter_id)
        return _pieces(
            request,
            membership,
            encounter,
            None,
            message="Refused: the page did not say which state it showed; reload it.",
            error=True,
            status=400,
        )
    check = None
    if not membership.is_gm:

        def check(data: dict[str, Any], state: EncounterState) -> str | None:
            return player_refusal(data, _own(membership, state), state)

    try:
        data = command_data(request.POST)
        encounter, events = apply_step(
            encounter_id,
            data,
            expected_version=since,
            actor=request.user,
            rng=dice(),
            check=check,
            campaign_id=membership.campaign_id,
        )
    except RulesError as exc:
        return _refused(request, membership, encounter_id, since, exc)
    text = ". ".join(e.text.rstrip(".") for e in events[-3:]) + "."
    return _pieces(request, membership, encounter, since, message=text)


@login_required
@require_POST
def undo(request, campaign_id, encounter_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    encounter = _encounter(membership, encounter_id)
    since = _seen(request)
    if since is None:
        since = -1
    try:
        encounter = undo_last_step(encounter.pk, expected_version=since, actor=request.user)
    except RulesError as exc:
        return _refused(request, membership, encounter_id, since, exc)
    return _pieces(request, membership, encounter, since, message="The last step was undone.")


@login_required
@require_POST
def end(request, campaign_id, encounter_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    encounter = _encounter(membership, encounter_id)
    since = _seen(request)
    try:
        encounter, _ = end_encounter(
            encounter.pk, expected_version=-1 if since is None else since, actor=request.user
        )
    except RulesError as exc:
        return _refused(request, membership, encounter_id, since, exc)
    message = "The fight is over: wounds and stuns went to the character sheets."
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("encounters:page", args=[campaign_id, encounter.pk])
        messages.success(request, message)
        return response
    messages.success(request, message)
    return redirect("encounters:page", campaign_id, encounter.pk)


# --- live poll ----------------------------------------------------------------------------------
@login_required
def live(request, campaign_id, encounter_id):
    """204 while the encounter is at the version the page holds; else the changed pieces."""
    if cached_role(request.user.pk, campaign_id) is None:
        raise Http404("No such campaign")
    version = (
        Encounter.objects.filter(pk=encounter_id, campaign_id=campaign_id)
        .values_list("version", flat=True)
        .first()
    )
    if version is None:
        raise Http404("No such encounter")
    raw = request.GET.get("v", "")
    if raw == str(version):
        response = HttpResponse(status=204)
        response["Cache-Control"] = "no-store, private"
        return response
    membership = membership_or_404(request.user, campaign_id)
    encounter = _encounter(membership, encounter_id)
    since = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else -1
    context = {**_context(membership, encounter, since=since), "poll": True}
    response = render(request, "encounters/pieces.html", context)
    response["Cache-Control"] = "no-store, private"
    return response


# --- combatants ---------------------------------------------------------------------------------
@login_required
def add(request, campaign_id, encounter_id):
    """Add combatants: the campaign's characters, or NPCs from a quick stat block (a saved one
    fills the form)."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    encounter = _encounter(membership, encounter_id)
    state = encounter.current_state()
    in_fight = {character_id_of(c.id) for c in state.combatants} - {None}
    characters = (
        Character.objects.filter(campaign_id=campaign_id)
        .exclude(pk__in=in_fight)
        .order_by("-kind", "name")
    )
    blocks = StatBlock.objects.filter(campaign_id=campaign_id)
    craft_in = {craft_id_of(c.id) for c in state.combatants} - {None}
    fleet = Craft.objects.filter(campaign_id=campaign_id).exclude(pk__in=craft_in)
    craft_form = AddCraftForm(craft=fleet, prefix="cr")
    block_form = QuickStatBlockForm(prefix="sb")
    people_form = AddCharactersForm(characters=characters, prefix="pc")
    template = request.GET.get("block", "")
    if re.fullmatch(r"[0-9]{1,18}", template):
        saved = blocks.filter(pk=int(template)).first()
        if saved is not None:
            block_form = QuickStatBlockForm(
                prefix="sb", initial=QuickStatBlockForm.initial_from_block(saved.block)
            )
    status = 200
    if request.method == "POST":
        which = request.POST.get("which")
        try:
            if which == "characters":
                people_form = AddCharactersForm(request.POST, characters=characters, prefix="pc")
                if people_form.is_valid():
                    chosen = list(people_form.cleaned_data["characters"])
                    side = people_form.cleaned_data["side"]
                    group = combatants_for_characters(
                        chosen, side_of={c.pk: side for c in chosen}, ruleset=encounter.ruleset
                    )
                    _add_group(request, encounter, group)
                    messages.success(
                        request, f"{', '.join(c.name for c in group)} joined the fight."
                    )
                    return redirect("encounters:add", campaign_id, encounter.pk)
            elif which == "craft":
                craft_form = AddCraftForm(request.POST, craft=fleet, prefix="cr")
                if craft_form.is_valid():
                    chosen = Craft.objects.prefetch_related("stations__character").get(
                        pk=craft_form.cleaned_data["craft"].pk
                    )
                    group = squadron(
                        chosen,
                        side=craft_form.cleaned_data["side"],
                        count=craft_form.cleaned_data["count"],
                        crew_code=craft_form.cleaned_data.get("crew_code"),
                        ruleset=encounter.ruleset,
                        present=_ever_ids(encounter, state),
                    )
                    _add_group(request, encounter, group)
                    messages.success(
                        request, f"{', '.join(c.name for c in group)} joined the fight."
                    )
                    return redirect("encounters:add", campaign_id, encounter.pk)
            elif which == "statblock":
                block_form = QuickStatBlockForm(request.POST, prefix="sb")
                if block_form.is_valid():
                    group = block_form.combatants(taken_ids=_ever_ids(encounter, state))
                    _add_group(request, encounter, group)
                    if block_form.cleaned_data.get("save_template"):
                        save_stat_block(membership.campaign, block_form)
                    messages.success(
                        request,
                        f"{len(group)} × {block_form.cleaned_data['name']} joined the fight.",
                    )
                    return redirect("encounters:add", campaign_id, encounter.pk)
            else:
                messages.error(request, "Choose characters or fill in a stat block.")
        except RulesError as exc:
            target = {"characters": people_form, "craft": craft_form}.get(which, block_form)
            target.add_error(None, str(exc))
        status = 400
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "encounter": encounter,
        "state": state,
        "block_form": block_form,
        "people_form": people_form,
        "craft_form": craft_form,
        "has_craft": fleet.exists(),
        "craft_in_fight": bool(craft_in),
        "blocks": blocks,
        "has_characters": characters.exists(),
    }
    return render(request, "encounters/add.html", context, status=status)


def _ever_ids(encounter: Encounter, state: EncounterState) -> set[str]:
    """Every combatant id the fight has had, so a new trooper never takes a removed one's."""
    ids = {c.id for c in state.combatants}
    ids |= {c["id"] for c in encounter.initial_state.get("combatants", [])}
    for command in encounter.steps.filter(
        command__type__in=["add_combatant", "add_combatants"]
    ).values_list("command", flat=True):
        people = command.get("combatants") or [command.get("combatant") or {}]
        ids |= {str(c.get("id")) for c in people if isinstance(c, dict)}
    return ids


def _add_group(request, encounter: Encounter, group) -> None:
    if not group:
        raise RulesError("choose at least one combatant")
    apply_step(
        encounter.pk,
        engine.AddCombatants(tuple(group)).to_json(),
        expected_version=encounter.version,
        actor=request.user,
        rng=dice(),
    )


@login_required
def log(request, campaign_id, encounter_id):
    """The whole fight, round by round."""
    membership = membership_or_404(request.user, campaign_id)
    encounter = _encounter(membership, encounter_id)
    state = encounter.current_state()
    npc_ids = {c.id for c in state.combatants if c.npc}
    steps = list(encounter.steps.order_by("number"))
    rounds: list[dict[str, Any]] = []
    current = 1
    for entry, s in zip(
        present.log_entries(steps, gm=membership.is_gm, npc_ids=npc_ids), steps, strict=True
    ):
        if not rounds:
            rounds.append({"round": current, "entries": []})
        rounds[-1]["entries"].append(entry)
        if s.command.get("type") == "end_round":
            current += 1
            rounds.append({"round": current, "entries": []})
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "encounter": encounter,
        "rounds": rounds,
    }
    return render(request, "encounters/log.html", context)
