"""Advancement from the sheet, the GM's approvals, and the GM's skill edits.

* ``improve``: the player (for his own character) or a GM chooses what to improve; the quote
  (cost, training time, used in the last adventure or not, the limits, or the refusal in
  words) follows every change of the form through HTMX, and the request is made only with a
  confirmation naming the price shown (a price that moved meanwhile is shown again, not paid).
* ``advancements``: the character's requests, for the sheet (loaded there by HTMX, reloaded
  when the live channel brings news; when the sheet's codes changed, the page reloads).
* ``withdraw``: the player withdraws a request still awaiting the GM.
* ``approvals``: the GM approves or refuses the campaign's waiting requests, giving the
  species maximum or the training time where a request waits for them.
* ``skills`` / ``skill_remove``: the GM adds, changes or removes a skill or specialization (an
  audited change, not an advancement), removal after a confirmation.

Every rule is the services' (:mod:`characters.advancement`, :mod:`characters.skill_edits`);
their refusals come back as the form with its errors (400), or an alert fragment for HTMX.
"""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from campaigns.models import Campaign
from characters import advancement as service
from characters.access import character_or_404
from characters.calendar_forms import (
    DecisionForm,
    ImproveForm,
    SkillEditForm,
    SkillRemoveForm,
    WithdrawForm,
    improvement_choices,
    whole_number,
)
from characters.game_calendar import game_date
from characters.models import ATTRIBUTES, Advancement, ForcePower, Skill
from characters.skill_edits import gm_remove_skill, gm_set_skill
from rules.errors import RulesError

Status = Advancement.Status
SHOWN_REQUESTS = 30


def _refusal(request, message: str, back: str, status: int = 400):
    """A refused request: an alert fragment for HTMX, a page otherwise."""
    template = "includes/alert.html" if request.htmx else "refusal.html"
    return render(request, template, {"message": message, "back": back}, status=status)


def _clause(text: str) -> str:
    """A refusal's words to follow "Not possible:" (a full stop, no capital)."""
    text = text.strip()
    return text + ("" if text.endswith((".", "!", "?")) else ".")


def _sentence(text: str) -> str:
    text = _clause(text)
    return text[:1].upper() + text[1:]


# --- Asking to improve ----------------------------------------------------------------------
def _confirmation(quote: service.Quote) -> str:
    """What the confirm button carries: the price shown. The request goes through only if the
    price is still the same when it arrives."""
    return f"{quote.kind}:{quote.cp}:{quote.days if quote.days is not None else '-'}"


@login_required
def improve(request, campaign_id, character_id):
    """GET: the form and, for the choices made, the quote (HTMX: the quote alone). POST
    without ``confirm``: the quote (the form works without JavaScript). POST with ``confirm``
    (the price the page showed): the request, its CP held at once."""
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    ruleset = membership.campaign.ruleset
    skills = list(Skill.objects.filter(character_id=character.pk))
    choices = improvement_choices(character, skills)
    rc = ruleset.advancement_table == "rc_skill_points"
    posted = request.method == "POST"
    data = request.POST if posted else (request.GET if "what" in request.GET else None)
    form = ImproveForm(data, choices=choices, gm=membership.is_gm, rc=rc)
    quote, refusal, status = None, "", 200
    if form.is_bound and form.is_valid():
        kind, target, options = form.request_args()
        try:
            quote = service.quote(character, kind, target, ruleset=ruleset, **options)
        except RulesError as exc:
            refusal = _clause(str(exc))
    elif posted:
        status = 400
    if posted and "confirm" in request.POST:
        if quote is None:
            status = 400
        elif request.POST["confirm"] != _confirmation(quote):
            refusal = "The cost changed since you saw it (see below); nothing was asked for yet."
            status = 400
        else:
            try:
                made = service.request_advancement(
                    character, kind, target, actor=request.user, **options
                )
            except RulesError as exc:
                refusal, quote, status = _clause(str(exc)), None, 400
            else:
                messages.success(request, _asked_words(made))
                return redirect(character)
    elif posted and refusal:
        status = 400
    campaign = Campaign.objects.only("game_day", "era", "approve_advancement").get(pk=campaign_id)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "character": character,
        "form": form,
        "quote": quote,
        "refusal": refusal,
        "confirm": _confirmation(quote) if quote else "",
        "approval": campaign.approve_advancement and not membership.is_gm,
        "today": campaign.game_day,
        "date": game_date(campaign.game_day, campaign.era, ruleset=ruleset),
        "last": service.last_adventure(campaign_id),
        "requests": list(_requests(character.pk)[:5]),
        "form_errors": _form_errors(form),
    }
    if quote is not None and quote.days:
        context["due_day"] = campaign.game_day + quote.days
    template = "characters/improve.html"
    if request.htmx and not posted:
        template += "#quote"
    return render(request, template, context, status=status)


def _form_errors(form) -> list[str]:
    """The form's errors in one line each, for the quote (HTMX swaps only the quote)."""
    if not form.is_bound or form.is_valid():
        return []
    out = [str(e) for e in form.non_field_errors()]
    for name, errors in form.errors.items():
        if name == "__all__":
            continue
        label = form.fields[name].label if name in form.fields else name
        out.extend(f"{label}: {e}" for e in errors)
    return out


def _asked_words(made: Advancement) -> str:
    what = f"{made.target} {made.current} → {made.new}" if made.new else made.target
    if made.status == Status.AWAITING:
        return f"Asked for {what}: {made.cp_cost} CP held; it waits for the GM."
    if made.status == Status.TRAINING:
        return f"{what}: {made.cp_cost} CP spent; training until day {made.due_day}."
    if made.status == Status.DONE:
        return f"{what}: done ({made.cp_cost} CP spent)."
    return f"{what}: {made.get_status_display().lower()}."


# --- The character's requests (a piece of the sheet) ----------------------------------------
def _requests(character_id: int):
    return Advancement.objects.filter(character_id=character_id).order_by("-created_at", "-pk")


_SKILLS_SQL = (
    f"SELECT name, code, kind, base_skill FROM {Skill._meta.db_table} WHERE character_id = %s"
    " ORDER BY name, id"
)


def sheet_digest(character) -> str:
    """What an advancement or a GM's edit changes on the sheet (skills, attributes, Move,
    Force-sensitivity, powers) as a short digest: the sheet's requests piece carries it, and
    when it no longer matches, the page reloads to show the new codes."""
    with connection.cursor() as cursor:
        cursor.execute(_SKILLS_SQL, [character.pk])
        skills = cursor.fetchall()
    powers = list(
        ForcePower.objects.filter(character_id=character.pk)
        .order_by("name")
        .values_list("name", flat=True)
    )
    traits = [str(character.attribute(a)) for a in ATTRIBUTES]
    text = repr((skills, powers, traits, character.move, character.force_sensitive))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _requests_context(membership, character, **extra) -> dict:
    digest = sheet_digest(character)
    url = reverse("characters:advancements", args=[character.campaign_id, character.pk])
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "character": character,
        "requests": list(_requests(character.pk).select_related("adventure")[:SHOWN_REQUESTS]),
        "requests_url": f"{url}?sheet={digest}",
        **extra,
    }


@login_required
def advancements(request, campaign_id, character_id):
    """The character's improvements: awaiting the GM, training until day N, done, refused
    with the reason. HTMX (the sheet's piece): the list alone, or a reload of the page when
    the sheet it holds (``sheet``, a digest) is out of date."""
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    context = _requests_context(membership, character)
    if request.htmx:
        held = request.GET.get("sheet", "")
        if held and not context["requests_url"].endswith(f"={held}"):
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return response
        return render(request, "characters/advancements.html#requests", context)
    return render(request, "characters/advancements.html", context)


@login_required
@require_POST
def withdraw(request, campaign_id, character_id):
    """The player (or a GM) withdraws a request still awaiting the GM; its CP come back."""
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    form = WithdrawForm(request.POST)
    back = character.get_absolute_url()
    if not form.is_valid():
        return _refusal(request, "Say which request to withdraw.", back)
    made = Advancement.objects.filter(
        pk=form.cleaned_data["advancement"], character_id=character.pk
    ).first()
    if made is None:
        raise Http404("No such request")
    try:
        service.withdraw(made, actor=request.user)
    except RulesError as exc:
        message = f"Not withdrawn: {_clause(str(exc))}"
        if request.htmx:  # the list again, with the reason on top
            context = _requests_context(membership, character, error=message)
            return render(request, "characters/advancements.html#requests", context, status=400)
        return _refusal(request, message, back)
    if request.htmx:
        return render(
            request,
            "characters/advancements.html#requests",
            _requests_context(membership, character),
        )
    messages.success(request, f"Request for {made.target} withdrawn; its points are back.")
    return redirect(character)


# --- The GM's approvals ---------------------------------------------------------------------
def _decision_forms(row: Advancement, bound: DecisionForm | None = None) -> dict:
    """The approve and refuse forms of one request (ids unique on the page); ``bound``, the
    GM's posted answer, takes the place of its own."""
    forms = {
        decision: DecisionForm(
            initial={"advancement": row.pk, "decision": decision},
            auto_id=f"id_%s_{row.pk}_{decision}",
        )
        for decision in ("approve", "refuse")
    }
    if bound is not None:
        decision = bound.data.get("decision")
        decision = decision if decision in forms else "approve"
        bound.auto_id = f"id_%s_{row.pk}_{decision}"
        forms[decision] = bound
    return forms


def _needs(row: Advancement) -> list[str]:
    needs = row.training.get("needs", []) if isinstance(row.training, dict) else []
    return [n for n in needs if n in ("species_maximum", "days")]


def _species_maximum_field(row: Advancement) -> bool:
    """The GM may give (or correct) a species maximum for Move and rolled attributes."""
    if row.kind == "move":
        return True
    cost = row.training.get("cost", {}) if isinstance(row.training, dict) else {}
    return row.kind == "attribute" and bool(cost.get("attribute_roll"))


@login_required
def approvals(request, campaign_id):
    """GM: the campaign's requests waiting for a decision, and the latest decided."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    bound, bound_row, status = None, None, 200
    if request.method == "POST":
        bound = DecisionForm(request.POST)
        status = 400
        row_id = bound.data.get("advancement", "")
        if whole_number(row_id) is not None:
            bound_row = (
                Advancement.objects.filter(
                    pk=whole_number(row_id), character__campaign_id=campaign_id
                )
                .select_related("character")
                .first()
            )
        if bound_row is None:
            raise Http404("No such request")
        if bound.is_valid():
            try:
                _decide(bound_row, bound.cleaned_data, request.user)
            except RulesError as exc:
                bound.add_error(None, _sentence(str(exc)))
            else:
                verb = "approved" if bound.cleaned_data["decision"] == "approve" else "refused"
                messages.success(
                    request, f"{bound_row.character.name}'s {bound_row.target}: {verb}."
                )
                return redirect("characters:approvals", campaign_id)
    waiting = list(
        Advancement.objects.filter(
            character__campaign_id=campaign_id, status=Status.AWAITING
        ).select_related("character", "adventure")
    )
    rows, shown = [], False
    for row in waiting:
        mine = bound if bound_row is not None and bound_row.pk == row.pk else None
        shown = shown or mine is not None
        rows.append(
            {
                "request": row,
                "needs": _needs(row),
                "maximum_field": _species_maximum_field(row),
                "forms": _decision_forms(row, mine),
            }
        )
    top_error = ""
    if bound is not None and not shown:  # decided meanwhile: the reason goes on top
        errors = [e for errs in bound.errors.values() for e in errs]
        top_error = f"{bound_row.character.name}'s {bound_row.target}: {' '.join(errors)}"
    decided = (
        Advancement.objects.filter(character__campaign_id=campaign_id)
        .exclude(status=Status.AWAITING)
        .select_related("character")
        .order_by("-updated_at", "-pk")[:10]
    )
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "rows": rows,
        "decided": decided,
        "top_error": top_error,
    }
    return render(request, "characters/approvals.html", context, status=status)


def _decide(row: Advancement, data: dict, actor) -> None:
    if data["decision"] == "refuse":
        service.refuse(row, actor=actor, reason=data["reason"])
        return
    maximum = (data.get("species_maximum") or "").strip() or None
    if maximum is not None and row.kind == "move":
        number = whole_number(maximum)
        if number is None:
            raise RulesError("the species' maximum Move is a whole number, such as 12")
        maximum = number
    service.approve(row, actor=actor, species_maximum=maximum, days=data.get("days"))


# --- The GM's skill edits -------------------------------------------------------------------
def _skill_or_404(character, value) -> Skill:
    if isinstance(value, int):
        skill_id = value
    elif whole_number(value) is not None:
        skill_id = whole_number(value)
    else:
        raise Http404("No such skill")
    skill = Skill.objects.filter(pk=skill_id, character_id=character.pk).first()
    if skill is None:
        raise Http404("No such skill")
    return skill


def _skill_rows(character):
    return Skill.objects.filter(character_id=character.pk).order_by("attribute", "name", "pk")


@login_required
def skills(request, campaign_id, character_id):
    """GM: the sheet's skills and specializations, to add, change (``?skill=<id>``) or remove.
    Every change is recorded (a SkillEdit); no Character Points move."""
    membership_or_404(request.user, campaign_id, role="gm")
    membership, character = character_or_404(request.user, campaign_id, character_id)
    editing, status = None, 200
    if request.method == "POST":
        form = SkillEditForm(request.POST)
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            if data["skill"] is not None:
                editing = _skill_or_404(character, data["skill"])
            try:
                saved = gm_set_skill(
                    character,
                    actor=request.user,
                    name=data["name"],
                    code=data["code"],
                    attribute=data["attribute"],
                    kind=data["kind"],
                    base_skill=data["base_skill"],
                    skill=editing,
                )
            except RulesError as exc:
                form.add_error(None, _sentence(str(exc)))
            else:
                verb = "changed" if editing else "added"
                messages.success(request, f"{saved.name} {saved.code} {verb} on the sheet.")
                return redirect("characters:skills", campaign_id, character_id)
    else:
        if "skill" in request.GET:
            editing = _skill_or_404(character, request.GET["skill"])
        initial = {"attribute": "dexterity", "kind": Skill.Kind.SKILL}
        if editing is not None:
            initial = {
                "skill": editing.pk,
                "name": editing.name,
                "code": str(editing.code),
                "attribute": editing.attribute,
                "kind": editing.kind,
                "base_skill": editing.base_skill,
            }
        form = SkillEditForm(initial=initial)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "character": character,
        "form": form,
        "editing": editing,
        "skills": _skill_rows(character),
        "edits": character.skill_edits.select_related("actor")[:10],
    }
    return render(request, "characters/skills.html", context, status=status)


@login_required
def skill_remove(request, campaign_id, character_id):
    """GM: GET asks "remove this skill?" (``?skill=<id>``); POST removes it."""
    membership_or_404(request.user, campaign_id, role="gm")
    membership, character = character_or_404(request.user, campaign_id, character_id)
    back = reverse("characters:skills", args=[campaign_id, character_id])
    if request.method == "POST":
        form = SkillRemoveForm(request.POST)
        if not form.is_valid():
            return _refusal(request, "Say which skill to remove.", back)
        skill = _skill_or_404(character, form.cleaned_data["skill"])
        try:
            gm_remove_skill(skill, actor=request.user)
        except RulesError as exc:
            return _refusal(request, f"Not removed: {_clause(str(exc))}", back)
        messages.success(request, f"{skill.name} removed from {character.name}'s sheet.")
        return redirect(back)
    skill = _skill_or_404(character, request.GET.get("skill", ""))
    training = Advancement.objects.filter(
        character_id=character.pk,
        target__iexact=skill.name,
        status__in=[Status.AWAITING, Status.TRAINING],
    ).first()
    context = {
        "campaign": membership.campaign,
        "character": character,
        "skill": skill,
        "form": SkillRemoveForm(initial={"skill": skill.pk}),
        "training": training,
        "back": back,
    }
    return render(request, "characters/skill_remove.html", context)
