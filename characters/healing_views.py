"""Healing on the sheet (issue 19): where the character stands (resting with the day of the
next natural-healing roll, in a bacta tank until a day, a death awaiting the GM), his healing
rolls with their dice, his [HOUSE] critical injuries with their deadlines, and small forms:
a medpac (used by one of the player's characters, or anyone's for a GM, with the chance of
success beside each first-aider), his activity from today, [RC] Accelerate Healing (a GM),
into a bacta tank (his player or a GM), the Character Points on each healing roll (his player
or a GM), the GM's decision on a flagged death. The sheet loads the panel with HTMX; without
JavaScript it is a page of its own. The writes are :mod:`characters.healing`'s."""

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
from characters.models import Character

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


class MedpacForm(_PanelForm):
    """A medpac on the character: who uses it, and the campaign's options ([HOUSE] fastflesh
    and a pack used before; [RC] the wound's difficulty number)."""

    aider = forms.TypedChoiceField(label="Used by", coerce=int)
    fastflesh = forms.BooleanField(label="A fastflesh medpac (-1 level)", required=False)
    pack_used_before = forms.BooleanField(
        label="This pack was used once before (+1 level; no pack is used more than twice)",
        required=False,
    )
    rc_number = forms.IntegerField(
        label="Difficulty number (the GM's, within the wound's scale)",
        min_value=1,
        max_value=40,
        required=False,
    )

    def __init__(self, *args, choices=(), medpac_rules="2e_std", gm=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["aider"].choices = choices
        if medpac_rules != "house":
            del self.fields["fastflesh"], self.fields["pack_used_before"]
        if medpac_rules != "rc" or not gm:  # the GM places the number; it stays with the wound
            del self.fields["rc_number"]


class ActivityForm(_PanelForm):
    activity = forms.ChoiceField(
        label="Activity from today", choices=list(service.ACTIVITIES.items())
    )


class DeathDecisionForm(_PanelForm):
    decision = forms.ChoiceField(
        choices=[("confirm", "Confirm the death"), ("spare", "Keep him alive")]
    )


AIDERS_SHOWN = 12


def _aiders(membership, character) -> list[Character]:
    """Who may use a medpac on him from this viewer: the GM any character of the campaign
    (the patient, then his player's, then the rest; at most a dozen), a player his own (on
    himself or on a companion: the medic of the party treats the others)."""
    mine = Character.objects.filter(campaign_id=character.campaign_id)
    if not membership.is_gm:
        mine = mine.filter(owner_id=membership.user_id)
    found = list(mine.order_by("name", "pk")[: AIDERS_SHOWN * 4])
    found.sort(key=lambda c: (c.pk != character.pk, c.owner_id != character.owner_id, c.name))
    return found[:AIDERS_SHOWN]


def _medpac_form(membership, character, campaign, aiders, data=None):
    plans = {a.pk: service.medpac_plan(character, a, campaign) for a in aiders}
    choices = []
    for aider in aiders:
        plan = plans[aider.pk]
        if plan.problem:
            label = f"{aider.name} ({plan.problem})"
        else:
            label = f"{aider.name}: {plan.skill} {plan.pool}, {plan.chance:.0%}"
        choices.append((aider.pk, label))
    form = MedpacForm(
        data,
        choices=choices,
        medpac_rules=campaign.ruleset.medpac_rules,
        gm=membership.is_gm,
        initial={"aider": aiders[0].pk} if aiders else None,
    )
    return form, plans


def _context(request, membership, character, **extra):
    campaign = Campaign.objects.only("game_day", "rule_options").get(pk=character.campaign_id)
    status = service.healing_status(character, campaign)
    events = list(HealingEvent.objects.filter(character_id=character.pk)[:EVENTS_SHOWN])
    aiders = _aiders(membership, character) if status.heals else []
    medpac_form, plans = _medpac_form(membership, character, campaign, aiders)
    first = plans.get(aiders[0].pk) if aiders else None
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
        "medpac_form": extra.pop("medpac_form", None) or medpac_form,
        "medpac_plan": first,
        "activity_form": ActivityForm(initial={"activity": status.activity}),
        "criticals": service.critical_lines(character, campaign.game_day),
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
    # The write changed the sheet (a medpac heals): show the panel from the stored row.
    character.refresh_from_db(fields=["wound_level", "stun_state", "criticals"])
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


@login_required
@require_POST
def medpac(request, campaign_id, character_id):
    """A medpac on him today, used by one of the actor's characters (a GM: anyone's): any
    member who sees his sheet and plays a character can treat him."""
    membership, character = character_or_404(request.user, campaign_id, character_id)
    campaign = Campaign.objects.only("game_day", "rule_options").get(pk=campaign_id)
    aiders = _aiders(membership, character)
    form, _ = _medpac_form(membership, character, campaign, aiders, data=request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            outcome = service.use_medpac(
                campaign_id,
                character.pk,
                actor=request.user,
                aider_id=data["aider"],
                fastflesh=data.get("fastflesh", False),
                pack_used_before=data.get("pack_used_before", False),
                rc_number=data.get("rc_number"),
            )
        except service.HealingError as exc:
            form.add_error(None, str(exc))
        else:
            head = "The medpac worked" if outcome.success else "The medpac failed"
            return _done(request, membership, character, f"{head}: {'; '.join(outcome.words)}.")
    return _panel(request, membership, character, status=400, medpac_form=form)


@login_required
@require_POST
def activity(request, campaign_id, character_id):
    """His activity from today (rest, easy, active): his player or a GM (H-57)."""
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    form = ActivityForm(request.POST)
    if form.is_valid():
        try:
            service.set_activity(
                campaign_id,
                character.pk,
                actor=request.user,
                activity=form.cleaned_data["activity"],
            )
        except service.HealingError as exc:
            form.add_error(None, str(exc))
        else:
            label = service.ACTIVITIES[form.cleaned_data["activity"]]
            return _done(request, membership, character, f"From today: {label}.")
    return _panel(request, membership, character, status=400, activity_form=form)


@login_required
@require_POST
def accelerate(request, campaign_id, character_id):
    """[RC] The GM marks Accelerate Healing as done on him today (H-59)."""
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    try:
        service.mark_accelerate(campaign_id, character.pk, actor=request.user)
    except service.HealingError as exc:
        status = 403 if not membership.is_gm else 400
        return _panel(request, membership, character, status=status, accelerate_error=str(exc))
    return _done(
        request,
        membership,
        character,
        f"Accelerate Healing on {character.name} today: two healing rolls at +2 if one is due.",
    )
