"""Healing on the sheet (issue 19): where the character stands (resting with the day of the
next natural-healing roll, in a bacta tank until a day, a death awaiting the GM), his healing
rolls with their dice, and three small forms: into a bacta tank (his player or a GM), the
Character Points on each healing roll (his player or a GM), the GM's decision on a flagged
death. The sheet loads the panel with HTMX; without JavaScript it is a page of its own.
The writes are :mod:`characters.healing`'s."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from campaigns.models import Campaign
from characters import healing as service
from characters.access import can_control, character_or_404
from characters.fields import DieCodeFormField, parse_sheet_code
from characters.healing_models import HealingEvent

TEMPLATE = "characters/healing.html"
EVENTS_SHOWN = 10


class _PanelForm(forms.Form):
    """The panel sits on the sheet beside the roll panel's form: its fields' ids are its own
    (``healing-cp``, not the roll panel's ``id_cp``), their names unchanged."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "healing-%s")
        super().__init__(*args, **kwargs)


class BactaForm(_PanelForm):
    code = DieCodeFormField(
        label="Treatment roll",
        help_text="The die code of whoever runs the tank: (A) Medicine, or first aid or Technical.",
    )
    medicine = forms.BooleanField(
        label="Run by someone with (A) Medicine (Very Easy; otherwise Heroic)", required=False
    )

    def clean_code(self):
        return parse_sheet_code(self.cleaned_data["code"])


class HealingCPForm(_PanelForm):
    cp = forms.IntegerField(
        label="CP on each healing roll",
        min_value=0,
        max_value=service.MAX_CP_PER_ROLL,
    )


class DeathDecisionForm(_PanelForm):
    decision = forms.ChoiceField(
        choices=[("confirm", "Confirm the death"), ("spare", "Keep him alive")]
    )


def _context(request, membership, character, **extra):
    campaign = Campaign.objects.only("game_day", "rule_options").get(pk=character.campaign_id)
    status = service.healing_status(character, campaign)
    events = list(HealingEvent.objects.filter(character_id=character.pk)[:EVENTS_SHOWN])
    return {
        "campaign": character.campaign,
        "membership": membership,
        "character": character,
        "status": status,
        "events": events,
        "can_control": can_control(membership, character),
        "bacta_form": BactaForm(),
        "cp_form": HealingCPForm(initial={"cp": status.cp_per_roll}),
        "decision_form": DeathDecisionForm(),
        **extra,
    }


def _panel(request, membership, character, status=200, **extra):
    template = f"{TEMPLATE}#healing-panel" if request.htmx else TEMPLATE
    context = _context(request, membership, character, **extra)
    return render(request, template, context, status=status)


@login_required
def healing(request, campaign_id, character_id):
    """The healing panel (HTMX) or page: every member who sees the sheet sees it."""
    membership, character = character_or_404(request.user, campaign_id, character_id)
    return _panel(request, membership, character)


def _done(request, membership, character, message: str):
    if request.htmx:
        return _panel(request, membership, character, notice=message)
    messages.success(request, message)
    return redirect(character)


@login_required
@require_POST
def bacta(request, campaign_id, character_id):
    """Into a bacta tank, from today: his player or a GM."""
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    form = BactaForm(request.POST)
    if form.is_valid():
        try:
            course = service.start_bacta(
                campaign_id,
                character.pk,
                actor=request.user,
                medicine=form.cleaned_data["medicine"],
                code=form.cleaned_data["code"],
            )
        except service.HealingError as exc:
            form.add_error(None, str(exc))
        else:
            return _done(
                request,
                membership,
                character,
                f"{character.name} is in a bacta tank until day {course.bacta_until}.",
            )
    return _panel(request, membership, character, status=400, bacta_form=form)


@login_required
@require_POST
def healing_cp(request, campaign_id, character_id):
    """Character Points on each natural-healing roll: his player or a GM."""
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    form = HealingCPForm(request.POST)
    if form.is_valid():
        try:
            service.set_cp_per_roll(
                campaign_id, character.pk, actor=request.user, cp=form.cleaned_data["cp"]
            )
        except service.HealingError as exc:
            form.add_error(None, str(exc))
        else:
            cp = form.cleaned_data["cp"]
            return _done(
                request, membership, character, f"{cp} CP on each healing roll from now on."
            )
    return _panel(request, membership, character, status=400, cp_form=form)


@login_required
@require_POST
def decide_death(request, campaign_id, character_id):
    """The GM's decision on a death a healing roll flagged (H-67)."""
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    form = DeathDecisionForm(request.POST)
    if form.is_valid():
        confirm = form.cleaned_data["decision"] == "confirm"
        try:
            service.decide_death(campaign_id, character.pk, actor=request.user, confirm=confirm)
        except service.HealingError as exc:
            status = 403 if not membership.is_gm else 400
            form.add_error(None, str(exc))
            return _panel(request, membership, character, status=status, decision_form=form)
        word = "is dead" if confirm else "lives on; his healing starts again today"
        return _done(request, membership, character, f"{character.name} {word}.")
    return _panel(request, membership, character, status=400, decision_form=form)
