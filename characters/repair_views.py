"""Repairs as downtime jobs on the pages (issue 19; the writes are :mod:`characters.repair_jobs`).

* On the ship sheet's repair list: "Work on it in downtime" on an open repair (its pace; the
  GM may give a hired technician's code and the difficulty number), then "Under way since day
  N" with the rolls so far, "Repaired on day N (3 rolls)" when done; stopping it asks first.
  A refusal is shown on the sheet beside the repair, with status 400, nothing changed.
* On a damaged droid's sheet: the "Repair" panel (loaded by HTMX like the healing panel; a
  page of its own without JavaScript): who works, the pace, the GM's cost and payer; the job
  under way with its rolls; the past repairs. Refusals come back in the panel with 400.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters import craft_damage, craft_views
from characters import repair_jobs as service
from characters.access import can_control, character_or_404, visible_characters
from characters.craft_models import RepairRequest
from characters.repair_models import DroidRepair

TEMPLATE = "characters/repair_droid.html"
CONFIRM = "characters/repair_confirm.html"


def _choice(value: str, allowed: set[int]) -> int | None:
    """A character chosen in a select: its id (ASCII digits, one of ``allowed``) or None."""
    text = (value or "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdecimal()) or int(text) not in allowed:
        raise service.RepairJobError("choose a character from the list")
    return int(text)


# ---------------------------------------------------------------------------------------------
# The ship sheet
# ---------------------------------------------------------------------------------------------
def _craft_refusal(request, membership, craft, repair_id, message: str):
    return craft_views._sheet(
        request,
        membership,
        craft,
        status=400,
        repair_job_error=message,
        repair_job_error_for=repair_id,
    )


@login_required
@require_POST
def craft_repair_job(request, campaign_id, craft_id, repair_id):
    """Work on an open repair in downtime (the owner, a party member, the GM)."""
    membership = membership_or_404(request.user, campaign_id)
    craft = craft_views._craft_or_404(membership, craft_id)
    repair = craft_views._repair_or_404(craft, repair_id)
    if not craft_damage.can_request_repair(membership, craft):
        raise PermissionDenied(f"{craft.name} is not yours: its owner or the GM repairs it.")
    try:
        helpers = []
        for value in request.POST.getlist("helpers"):
            if not (value.isascii() and value.isdecimal()):
                raise service.RepairJobError("choose the helpers from the list")
            helpers.append(int(value))
        job = service.start_craft_repair(
            campaign_id,
            repair.pk,
            actor=request.user,
            pace=request.POST.get("pace", "normal"),
            hired_code=request.POST.get("hired_code", "").strip()[:20],
            difficulty=request.POST.get("difficulty", "").strip()[:12] or None,
            helper_ids=helpers,
        )
    except service.RepairJobError as exc:
        return _craft_refusal(request, membership, craft, repair.pk, f"Not started: {exc}.")
    summary = service.job_summary(job)
    messages.success(
        request,
        f"Under way since day {job.started_day}: {summary['worker']} rolls {summary['code']} "
        f"against {summary['difficulty']} every {summary['interval']} minutes of work.",
    )
    return redirect(f"{craft.get_absolute_url()}#repairs")


def _confirm_or_change(request, membership, campaign_id, kind, job, back, action):
    """GET: the page that asks first; POST: stop or resume the job."""
    if request.method == "GET":
        return render(
            request,
            CONFIRM,
            {
                "campaign": membership.campaign,
                "membership": membership,
                "job": job,
                "summary": service.job_summary(job),
                "back": back,
                "what": job.description if kind == "craft" else job.droid.name,
            },
        )
    if request.method != "POST":
        return render(request, "refusal.html", {"message": "Use the form.", "back": back}, 405)
    try:
        if action == "cancel":
            service.cancel_job(campaign_id, kind, job.pk, actor=request.user)
            words = "The repair was stopped; nothing was paid."
        else:
            service.resume_job(campaign_id, kind, job.pk, actor=request.user)
            words = "The repair goes on from today."
    except service.RepairJobError as exc:
        return render(
            request, "refusal.html", {"message": f"Not done: {exc}.", "back": back}, status=400
        )
    messages.success(request, words)
    return redirect(back)


@login_required
def craft_repair_job_cancel(request, campaign_id, craft_id, repair_id):
    """Stop a craft repair job: asks first (GET), then stops it (POST)."""
    membership = membership_or_404(request.user, campaign_id)
    craft = craft_views._craft_or_404(membership, craft_id)
    repair = craft_views._repair_or_404(craft, repair_id)
    service.annotate_repairs(membership, craft, [repair])
    back = f"{craft.get_absolute_url()}#repairs"
    if repair.status != RepairRequest.Status.WORKING:
        message = f"Not done: that repair is {repair.get_status_display().lower()}, not under way."
        return render(request, "refusal.html", {"message": message, "back": back}, status=400)
    if not repair.can_stop_job:
        raise PermissionDenied("Only the GM or the craft's owner stops this repair.")
    return _confirm_or_change(request, membership, campaign_id, "craft", repair, back, "cancel")


@login_required
@require_POST
def craft_repair_job_resume(request, campaign_id, craft_id, repair_id):
    membership = membership_or_404(request.user, campaign_id)
    craft = craft_views._craft_or_404(membership, craft_id)
    repair = craft_views._repair_or_404(craft, repair_id)
    back = f"{craft.get_absolute_url()}#repairs"
    return _confirm_or_change(request, membership, campaign_id, "craft", repair, back, "resume")


# ---------------------------------------------------------------------------------------------
# A droid's sheet
# ---------------------------------------------------------------------------------------------
class DroidRepairForm(forms.Form):
    """Who works (one of the member's characters; any for the GM), the pace; the GM's hired
    technician, cost, payer and difficulty number. Field ids are prefixed ``repair-``."""

    engineer = forms.ChoiceField(label="Who works on it", required=False)
    pace = forms.ChoiceField(label="Pace", choices=service.PACES, initial="normal")
    hired_code = forms.CharField(
        label="Or a hired technician's droid repair code (GM)",
        required=False,
        max_length=12,
        widget=forms.TextInput(attrs={"size": 6, "placeholder": "e.g. 5D"}),
    )
    cost = forms.CharField(
        label="Cost in credits, paid on success (GM)",
        required=False,
        max_length=13,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 8}),
    )
    payer = forms.ChoiceField(label="Paid by", required=False)
    difficulty = forms.CharField(
        label="Difficulty number (GM; the top of the level by default)",
        required=False,
        max_length=4,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 4}),
    )

    def __init__(self, *args, workers=(), payers=(), gm=False, rc=False, **kwargs):
        kwargs.setdefault("auto_id", "repair-%s")
        super().__init__(*args, **kwargs)
        self.fields["engineer"].choices = [("", "—")] + [(str(c.pk), c.name) for c in workers]
        self.fields["payer"].choices = [("", "—")] + [(str(c.pk), c.name) for c in payers]
        if rc:
            self.fields["pace"].choices = [p for p in service.PACES if p[0] != "prepared"]
        if not gm:
            for name in ("hired_code", "cost", "payer", "difficulty"):
                del self.fields[name]


def _workers(membership, droid):
    characters = visible_characters(membership).only("pk", "name", "owner_id", "credits")
    characters = [c for c in characters if c.pk != droid.pk]
    if membership.is_gm:
        return characters
    return [c for c in characters if c.owner_id == membership.user_id]


def _droid_context(membership, droid, **extra):
    from campaigns.models import Campaign
    from rules.droids.repair import DROID_REPAIR_DIFFICULTY
    from rules.injuries import WoundLevel

    campaign = Campaign.objects.only("game_day", "rule_options").get(pk=droid.campaign_id)
    jobs = list(DroidRepair.objects.filter(droid=droid).select_related("engineer", "payer")[:10])
    for job in jobs:
        job.summary = service.job_summary(job)
        job.from_words = job.from_level.replace("_", " ")
    working = next((j for j in jobs if j.status == DroidRepair.Status.WORKING), None)
    control = can_control(membership, droid)
    try:
        level = DROID_REPAIR_DIFFICULTY.get(WoundLevel(droid.wound_level))
    except ValueError:
        level = None
    if not droid.is_droid:
        level = None
    workers = _workers(membership, droid) if control else []
    form = extra.pop("form", None) or DroidRepairForm(
        workers=workers,
        payers=workers,
        gm=membership.is_gm,
        rc=campaign.ruleset.preparing == "rc_prepare_round",
    )
    return {
        "campaign": droid.campaign,
        "membership": membership,
        "character": droid,
        "game_day": campaign.game_day,
        "jobs": jobs,
        "working": working,
        "level": level,
        "destroyed": droid.wound_level == "killed",
        "can_control": control,
        "can_start": control and level is not None and working is None,
        "form": form,
        **extra,
    }


def _droid_panel(request, membership, droid, status=200, **extra):
    template = f"{TEMPLATE}#repair-panel" if request.htmx else TEMPLATE
    return render(request, template, _droid_context(membership, droid, **extra), status=status)


@login_required
def droid_repair(request, campaign_id, character_id):
    """The droid's repair panel (HTMX) or page: every member who sees the sheet sees it."""
    membership, droid = character_or_404(request.user, campaign_id, character_id)
    return _droid_panel(request, membership, droid)


@login_required
@require_POST
def droid_repair_start(request, campaign_id, character_id):
    """Start a droid's repair: its owner or the GM."""
    membership, droid = character_or_404(request.user, campaign_id, character_id, control=True)
    workers = _workers(membership, droid)
    form = DroidRepairForm(
        request.POST,
        workers=workers,
        payers=workers,
        gm=membership.is_gm,
        rc=droid.campaign.ruleset.preparing == "rc_prepare_round",
    )
    if form.is_valid():
        values = form.cleaned_data
        try:
            allowed = {c.pk for c in workers}
            job = service.start_droid_repair(
                campaign_id,
                droid.pk,
                actor=request.user,
                pace=values["pace"],
                engineer_id=_choice(values.get("engineer", ""), allowed),
                hired_code=values.get("hired_code", ""),
                cost=values.get("cost") or 0,
                payer_id=_choice(values.get("payer", ""), allowed),
                difficulty=values.get("difficulty") or None,
            )
        except service.RepairJobError as exc:
            form.add_error(None, f"Not started: {exc}.")
        else:
            return _droid_done(
                request, membership, droid, f"Repair under way since day {job.started_day}."
            )
    return _droid_panel(request, membership, droid, status=400, form=form)


def _droid_done(request, membership, droid, message: str):
    if request.htmx:
        return _droid_panel(request, membership, droid, notice=message)
    messages.success(request, message)
    return redirect(droid)


def _droid_job_or_404(droid, job_id) -> DroidRepair:
    job = DroidRepair.objects.select_related("droid").filter(droid=droid, pk=job_id).first()
    if job is None:
        raise Http404("No such repair")
    return job


@login_required
def droid_repair_cancel(request, campaign_id, character_id, job_id):
    """Stop a droid's repair: asks first (GET), then stops it (POST)."""
    membership, droid = character_or_404(request.user, campaign_id, character_id, control=True)
    job = _droid_job_or_404(droid, job_id)
    return _confirm_or_change(
        request, membership, campaign_id, "droid", job, droid.get_absolute_url(), "cancel"
    )


@login_required
@require_POST
def droid_repair_resume(request, campaign_id, character_id, job_id):
    membership, droid = character_or_404(request.user, campaign_id, character_id, control=True)
    job = _droid_job_or_404(droid, job_id)
    return _confirm_or_change(
        request, membership, campaign_id, "droid", job, droid.get_absolute_url(), "resume"
    )
