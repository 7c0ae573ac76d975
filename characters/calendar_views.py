"""The campaign calendar: the game date, the adventures, the GM's settings, the end of an
adventure (CP awards to every character at once) and "advance N days" with its progress bar.

Every member sees the calendar; only a GM acts on it. The advance runs as a job
(:func:`characters.downtime.start_advance`); the page polls its :class:`TimeAdvance` row once
a second while it runs (``#advance``; an unchanged poll is a ``204``) and shows the report,
every roll included, grouped by character, when it ends (each player reads his own
characters' lines: :mod:`characters.report_views`, which also lists every past advance).
Refusals come back as the form with its errors (a 400), in place for HTMX, and change
nothing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters import advancement as service
from characters.calendar_forms import (
    KILL_BONUS_PREFIX,
    AdvanceForm,
    AdventureForm,
    AwardReasonForm,
    CalendarForm,
    EndAdventureForm,
    award_formset,
    whole_number,
)
from characters.downtime import AdvanceError, start_advance
from characters.game_calendar import (
    CalendarError,
    end_adventure,
    game_date,
    running_adventure,
    set_calendar,
    start_adventure,
)
from characters.models import Advancement, Character, TimeAdvance
from characters.report_views import report_context
from rules.errors import RulesError

UNDER_WAY = (TimeAdvance.Status.QUEUED, TimeAdvance.Status.RUNNING)
PAST_ADVENTURES = 20


# --- Reading --------------------------------------------------------------------------------
def _advance_context(membership, advance: TimeAdvance | None) -> dict:
    campaign_id = membership.campaign_id
    url = reverse("characters:advance", args=[campaign_id])
    running = advance is not None and advance.status in UNDER_WAY
    return {
        "advance": advance,
        "advance_running": running,
        "advance_poll_url": f"{url}?advance={advance.pk}&seen={_seen(advance)}" if advance else "",
        "advance_span": (advance.to_day - advance.from_day) if advance else 0,
        "advance_done_days": (advance.day_reached - advance.from_day) if advance else 0,
        **report_context(None if running else advance, membership),
    }


def _seen(advance: TimeAdvance) -> str:
    return f"{advance.day_reached}-{advance.status}"


def _latest_advance(campaign_id: int) -> TimeAdvance | None:
    return (
        TimeAdvance.objects.filter(campaign_id=campaign_id).order_by("-created_at", "-pk").first()
    )


def _trainings(membership):
    """Requests awaiting the GM or training: every character's for a GM, a player's own."""
    rows = Advancement.objects.filter(
        character__campaign_id=membership.campaign_id,
        status__in=[Advancement.Status.AWAITING, Advancement.Status.TRAINING],
    ).select_related("character")
    if not membership.is_gm:
        rows = rows.filter(character__owner_id=membership.user_id)
    return rows.order_by("status", "due_day", "pk")


def _trainings_context(membership) -> dict:
    context = {"trainings": list(_trainings(membership)[:50])}
    if membership.is_gm:
        context["awaiting"] = Advancement.objects.filter(
            character__campaign_id=membership.campaign_id, status=Advancement.Status.AWAITING
        ).count()
    return context


def _calendar_context(membership, **forms) -> dict:
    campaign = membership.campaign
    ruleset = campaign.ruleset
    running = running_adventure(campaign.pk)
    past = campaign.adventures.filter(end_day__isnull=False).order_by("-end_day", "-pk")
    context = {
        "campaign": campaign,
        "membership": membership,
        "date": game_date(campaign.game_day, campaign.era, ruleset=ruleset),
        "running": running,
        "past": list(past[:PAST_ADVENTURES]),
        **_trainings_context(membership),
        **_advance_context(membership, _latest_advance(campaign.pk)),
    }
    if membership.is_gm:
        context.update(
            {
                "calendar_form": forms.get("calendar_form")
                or CalendarForm(
                    initial={
                        "era": campaign.era,
                        "approve_advancement": campaign.approve_advancement,
                    }
                ),
                "adventure_form": forms.get("adventure_form") or AdventureForm(),
                "end_form": EndAdventureForm(initial={"adventure": running.pk})
                if running
                else None,
                "end_error": forms.get("end_error", ""),
                "advance_form": forms.get("advance_form") or _advance_form(campaign),
            }
        )
    return context


def _advance_form(campaign, data=None) -> AdvanceForm:
    return AdvanceForm(data, initial={"days": 7, "from_day": campaign.game_day})


def _page(request, membership, status=200, **forms):
    context = _calendar_context(membership, **forms)
    return render(request, "characters/calendar.html", context, status=status)


@login_required
def calendar(request, campaign_id):
    """The campaign's date, its adventures, what is training and the last time advance."""
    membership = membership_or_404(request.user, campaign_id)
    return _page(request, membership)


# --- The GM's settings and adventures -------------------------------------------------------
def _refused(form, message: str) -> None:
    form.add_error(None, message[:1].upper() + message[1:] + ("" if message.endswith(".") else "."))


@login_required
@require_POST
def calendar_settings(request, campaign_id):
    """GM: the era's name and whether players' improvements need approval."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    form = CalendarForm(request.POST)
    if form.is_valid():
        try:
            set_calendar(membership.campaign, **form.cleaned_data)
        except CalendarError as exc:
            _refused(form, str(exc))
        else:
            messages.success(request, "Calendar settings saved.")
            return redirect("characters:calendar", campaign_id)
    return _page(request, membership, status=400, calendar_form=form)


@login_required
@require_POST
def adventure_start(request, campaign_id):
    """GM: an adventure starts today; the skills rolled while it runs count as used."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    form = AdventureForm(request.POST)
    if form.is_valid():
        try:
            adventure = start_adventure(membership.campaign, form.cleaned_data["name"])
        except CalendarError as exc:
            _refused(form, str(exc))
        else:
            messages.success(request, f"“{adventure.name}” has begun on day {adventure.start_day}.")
            return redirect("characters:calendar", campaign_id)
    return _page(request, membership, status=400, adventure_form=form)


@login_required
@require_POST
def adventure_end(request, campaign_id):
    """GM: the running adventure ends today; on to the awards."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    form = EndAdventureForm(request.POST)
    if not form.is_valid():
        return _page(request, membership, 400, end_error="Reload the page: it is out of date.")
    try:
        adventure = end_adventure(membership.campaign, form.cleaned_data["adventure"])
    except CalendarError as exc:
        return _page(request, membership, 400, end_error=f"Nothing ended: {exc}.")
    messages.success(request, f"“{adventure.name}” ended on day {adventure.end_day}.")
    return redirect("characters:awards", campaign_id)


# --- The end of an adventure: awards --------------------------------------------------------
def _party(campaign_id: int) -> dict[int, Character]:
    return {
        c.pk: c
        for c in Character.objects.filter(campaign_id=campaign_id, kind=Character.Kind.PC)
        .select_related("owner")
        .order_by("name", "pk")
    }


@login_required
def awards(request, campaign_id):
    """GM: Character Points (and Force Points, Dark Side Points, the House kill bonus) for
    every player character at once, each row an amount and a reason (the shared one when
    left empty), awarded in one transaction; one bad row and nothing is awarded."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    campaign = membership.campaign
    ruleset = campaign.ruleset
    house = ruleset.advancement_table == "house"
    party = _party(campaign.pk)
    last = service.last_adventure(campaign.pk)
    if request.method == "POST":
        reason_form = AwardReasonForm(request.POST)
        rows = award_formset(request.POST, characters=party, house=house)
        if _valid(reason_form, rows):
            awards_given = _awards(reason_form, rows)
            if not awards_given:
                reason_form.add_error(None, "Nothing to award: every amount is 0.")
            else:
                try:
                    lines = service.award_all(campaign, awards_given, actor=request.user)
                except RulesError as exc:
                    reason_form.add_error(None, f"Nothing was awarded: {exc}.")
                else:
                    _award_messages(request, lines)
                    return redirect("characters:calendar", campaign_id)
        status = 400
    else:
        default = f"End of {last.name}" if last else "End of the adventure"
        limit = AwardReasonForm.base_fields["reason"].max_length
        reason_form = AwardReasonForm(initial={"reason": default[:limit]})
        rows = award_formset(
            characters=party, house=house, initial=[{"character": pk} for pk in party]
        )
        status = 200
    context = {
        "campaign": campaign,
        "membership": membership,
        "last": last,
        "reason_form": reason_form,
        "rows": rows,
        "house": house,
        "party": party,
    }
    return render(request, "characters/awards.html", context, status=status)


def _valid(*forms) -> bool:
    return all([form.is_valid() for form in forms])  # every form checked: all errors shown


def _awards(reason_form, rows) -> list[service.Award]:
    shared = reason_form.cleaned_data["reason"]
    out = []
    for row in rows.forms:
        data = row.cleaned_data
        if not row.total:
            continue
        out.append(
            service.Award(
                character_id=data["character"],
                reason=(data.get("reason") or "").strip() or shared,
                cp=data["cp"],
                fp=data["fp"],
                dsp=data["dsp"],
                kill_bonus=data.get("kill_bonus") or 0,
            )
        )
    return out


CURRENCY_WORDS = {"cp": "CP", "fp": "FP", "dsp": "DSP", "pcp": "CP pending until the month's end"}


def _award_messages(request, lines: list[dict]) -> None:
    by_character: dict[str, list[str]] = {}
    for line in lines:
        what = f"+{line['delta']} {CURRENCY_WORDS.get(line['currency'], line['currency'])}"
        if line["reason"].startswith(KILL_BONUS_PREFIX):
            what += " (kill bonus)"
        by_character.setdefault(line["character"], []).append(what)
        if line.get("note"):
            messages.warning(request, line["note"])
    summary = "; ".join(f"{name} {', '.join(parts)}" for name, parts in by_character.items())
    messages.success(request, f"Awarded: {summary}.")


# --- Advancing time -------------------------------------------------------------------------
def _advance_answer(request, membership, advance, *, posted: bool):
    """HTMX: after a poll, the progress piece (``#advance``); after the GM's click, a fresh
    advance form with the progress out of band. Once the advance has ended, the new date
    (and, for the GM, a form holding it) come out of band too."""
    campaign = membership.campaign
    finished = advance is not None and advance.status not in UNDER_WAY
    context = {
        "campaign": campaign,
        "membership": membership,
        "finished": finished,
        "posted": posted,
        **_advance_context(membership, advance),
    }
    if finished or posted:
        campaign.refresh_from_db(fields=["game_day", "era"])
        context["date"] = game_date(campaign.game_day, campaign.era, ruleset=campaign.ruleset)
        context.update(_trainings_context(membership))
        if membership.is_gm:
            context["advance_form"] = _advance_form(campaign)
    return render(request, "characters/calendar.html#advance-answer", context)


@login_required
def advance(request, campaign_id):
    """GET (members): the progress of an advance (``?advance=<id>``, else the latest), polled
    by the page while it runs; ``seen`` unchanged is a 204. Without HTMX, the calendar.

    POST (GM): advance the campaign's time by ``days`` from ``from_day`` (the date the page
    showed), as a job. A refusal (bad days, one already under way, the date moved, the job
    queue down) is the form with the reason; nothing changes."""
    if request.method == "POST":
        return _start_advance(request, campaign_id)
    membership = membership_or_404(request.user, campaign_id)
    if not request.htmx:
        return _page(request, membership)
    wanted = request.GET.get("advance", "")
    if wanted:
        if whole_number(wanted) is None:
            raise Http404("No such advance")
        found = TimeAdvance.objects.filter(pk=whole_number(wanted), campaign_id=campaign_id).first()
        if found is None:
            raise Http404("No such advance")
    else:
        found = _latest_advance(campaign_id)
    if found is not None and request.GET.get("seen") == _seen(found):
        response = HttpResponse(status=204)
        response["Cache-Control"] = "no-store, private"
        return response
    return _advance_answer(request, membership, found, posted=False)


def _start_advance(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    campaign = membership.campaign
    form = _advance_form(campaign, request.POST)
    if form.is_valid():
        try:
            started = start_advance(
                campaign,
                form.cleaned_data["days"],
                actor=request.user,
                from_day=form.cleaned_data["from_day"],
            )
        except AdvanceError as exc:
            # The form again, holding today's date (the reason says whether it moved).
            campaign.refresh_from_db(fields=["game_day"])
            data = request.POST.copy()
            data["from_day"] = str(campaign.game_day)
            form = _advance_form(campaign, data)
            form.is_valid()
            form.add_error(None, str(exc))
        else:
            if request.htmx:
                return _advance_answer(request, membership, started, posted=True)
            messages.success(
                request, f"Advancing time from day {started.from_day} to day {started.to_day}."
            )
            return redirect("characters:calendar", campaign_id)
    if request.htmx:
        context = {"campaign": campaign, "membership": membership, "advance_form": form}
        return render(request, "characters/calendar.html#advance-form", context, status=400)
    return _page(request, membership, status=400, advance_form=form)
