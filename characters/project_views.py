""" "Plan an improvement": the quote for improving a character's weapon or armour, or a craft's
code, under the campaign's rules (characters.projects_quote). GET only: a quote commits
nothing, so the form is a GET and HTMX refreshes the quote as the player types.

Who may ask: for a character's gear, its player or a GM; for a craft, a GM, the player whose
character owns it, or any player for a craft the party owns. Anyone else: 403 with the reason.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters.access import character_or_404
from characters.craft_models import Craft
from characters.craft_services import can_edit_craft
from characters.models import Character, Item
from characters.project_models import Project
from characters.projects import (
    ProjectError,
    change_project,
    character_projects,
    craft_projects,
    start_project,
)
from characters.projects_quote import CRAFT_STATS, ITEM_STATS, QuoteRefused, quote_craft, quote_item
from rules import DieCode, RulesError
from rules.equipment import MINUTES_PER_DAY, ProjectState

LABOUR = [("self", "Own work"), ("hired", "Hired (NPC) labour")]
MULTIPLIERS = [("2", "Double the cost"), ("3", "Triple the cost")]
METHODS = [("fee", "Pay the installation fee"), ("skill_points", "Spend 9 skill points")]
CODE_ATTRS = {"maxlength": 12, "size": 8, "autocapitalize": "characters"}


def _text(label: str, help_text: str = "", placeholder: str = "") -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=12,
        help_text=help_text,
        widget=forms.TextInput(attrs={**CODE_ATTRS, "placeholder": placeholder}),
    )


def _credits(label: str, help_text: str = "") -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=False, min_value=0, max_value=10**12, help_text=help_text
    )


class QuoteForm(forms.Form):
    """The fields both quotes share; ``stat`` and the item or weapon are the subclasses'."""

    target = _text("New value", "The code (5D+1), Move (70) or hyperdrive (x1) to reach.", "5D+1")
    add = _text("Or add", "How much to add instead (+1 pip: 0D+1).", "0D+1")
    original = _text(
        "Stock value",
        "As bought, before any improvement (blank: as now, or the catalogue's). The rules "
        "count difficulty and limits from it.",
    )
    labour = forms.ChoiceField(
        label="Who does the work", choices=LABOUR, initial="self", required=False
    )
    hired_multiplier = forms.TypedChoiceField(
        label="Hired labour costs",
        choices=MULTIPLIERS,
        coerce=int,
        initial="2",
        required=False,
        help_text="The Rules Upgrade: double or triple, as the GM says.",
    )
    item_value = _credits(
        "Original value in credits",
        "Rules Upgrade: costs are a share of it (the craft's, or the weapon's for its codes).",
    )
    purchased_price = _credits("Price of a bought weapon", "Blank: build a new 1D/1D weapon.")
    install_method = forms.ChoiceField(
        label="Install it by", choices=[("", "—"), *METHODS], required=False
    )

    def __init__(self, *args, ruleset, **kwargs):
        super().__init__(*args, **kwargs)
        if ruleset.equipment_improvement == "rc_skill_points":  # no share of a value to price
            del self.fields["hired_multiplier"], self.fields["item_value"]
            self.fields["labour"].help_text = "Hired (NPC) labour doubles the credits."
        if ruleset.rc_weapon_install != "fee_or_sp":  # the fee and the skill points, both
            del self.fields["install_method"]

    def quote_args(self) -> dict:
        data = dict(self.cleaned_data)
        data["labour"] = data.get("labour") or "self"
        data["hired_multiplier"] = data.get("hired_multiplier") or 2
        data["install_method"] = data.get("install_method") or None
        return data


class ItemQuoteForm(QuoteForm):
    field_order = ["item", "stat"]

    def __init__(self, *args, items, ruleset, **kwargs):
        super().__init__(*args, ruleset=ruleset, **kwargs)
        self.fields["item"] = forms.TypedChoiceField(
            label="Item", choices=[(i.pk, i.name) for i in items], coerce=int
        )
        self.fields["stat"] = forms.ChoiceField(label="Improve", choices=list(ITEM_STATS.items()))
        if ruleset.equipment_improvement == "rc_skill_points":
            self.fields["erase_dexterity"] = forms.BooleanField(
                label="Also cancel the armour's Dexterity penalty", required=False
            )
        self.order_fields(["item", "stat", "target", "add", "original", "erase_dexterity"])
        self.items = {i.pk: i for i in items}


class CraftQuoteForm(QuoteForm):
    def __init__(self, *args, weapons, ruleset, **kwargs):
        super().__init__(*args, ruleset=ruleset, **kwargs)
        self.fields["stat"] = forms.ChoiceField(label="Improve", choices=list(CRAFT_STATS.items()))
        self.fields["weapon"] = forms.TypedChoiceField(
            label="Weapon",
            choices=[("", "—"), *((i, w.name) for i, w in enumerate(weapons))],
            coerce=int,
            required=False,
            empty_value=None,
            help_text="For a weapon's fire control or damage.",
        )
        self.order_fields(["stat", "weapon", "target", "add", "original"])


def _errors(form) -> list[str]:
    return [
        f"{form.fields[name].label if name in form.fields else ''}: {error}".lstrip(": ")
        for name, errors in form.errors.items()
        for error in errors
    ]


def _days(minutes: int) -> str:
    days = -(-minutes // MINUTES_PER_DAY)
    return f"{days} day{'' if days == 1 else 's'}"


def present(quote) -> dict:
    """The quote in the page's words: one row per roll, and the totals."""
    rc = quote.system == "rc"
    parts = [
        {
            "label": part.label,
            "rows": [
                {
                    "change": f"{step.before} → {step.after}",
                    "roll": f"{step.difficulty} {'technology' if rc else 'repair'}"
                    if step.difficulty is not None
                    else "none",
                    "skill_points": step.skill_points,
                    "credits": f"{step.credits:,}",
                    "percent": step.percent,
                    "time": _days(step.minutes) if rc else "a month",
                }
                for step in part.steps
            ],
        }
        for part in quote.parts
    ]
    if rc:
        time = f"{quote.days} day{'' if quote.days == 1 else 's'} of work"
    else:
        rolls = f"{quote.rolls} monthly roll{'' if quote.rolls == 1 else 's'}"
        time = f"{rolls}: at least {quote.days} days"
    return {
        "rc": rc,
        "parts": parts,
        "skill_points": quote.skill_points,
        "credits": f"{quote.credits:,}",
        "time": time,
        "rolls": quote.rolls,
    }


def _quote(form, make) -> tuple[object, str]:
    try:
        return make(form.quote_args()), ""
    except QuoteRefused as exc:
        return None, str(exc)


def _render(request, context: dict, status: int = 200):
    template = "characters/project_quote.html"
    if request.htmx:
        template += "#quote"
    return render(request, template, context, status=status)


class StartForm(forms.Form):
    """Starting the quoted project: the worker's roll, and on a craft who works."""

    skill = forms.CharField(
        label="Worker's roll",
        max_length=12,
        initial="4D",
        help_text="Technology (Rules Companion) or the repair skill (Rules Upgrade); 4D is a "
        "standard specialist.",
        widget=forms.TextInput(attrs=CODE_ATTRS),
    )

    def __init__(self, *args, workers=None, **kwargs):
        super().__init__(*args, **kwargs)
        if workers is not None:
            self.fields["worker"] = forms.TypedChoiceField(
                label="Who works", choices=[(c.pk, c.name) for c in workers], coerce=int
            )
            self.order_fields(["worker", "skill"])

    def clean_skill(self):
        try:
            return DieCode.parse(self.cleaned_data["skill"])
        except RulesError:
            raise forms.ValidationError("A die code like 4D+1.") from None


def _page(
    request, membership, subject, form, start_form, make, *, bound, posted, refusal, status, **extra
):
    """The quote page of an item or a craft: the quote of the form's request (when it asks for
    one), the refusal or the form's errors with a 400, the start form and the projects."""
    quote = None
    if bound and form.is_valid():
        quote, refused = _quote(form, make)
        refusal = refusal or refused
    elif bound:
        status = 400
    if refusal:
        status = 400
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "subject": subject,
        "back": subject.get_absolute_url(),
        "form": form,
        "start_form": start_form,
        "start_errors": _errors(start_form) if posted else [],
        "quote": quote,
        "shown": present(quote) if quote is not None else None,
        "refusal": refusal,
        "form_errors": _errors(form) if bound else [],
        "ruleset": membership.campaign.ruleset,
        **extra,
    }
    return _render(request, context, status)


def _workers(membership, craft) -> list[Character]:
    """Who may work on the craft: the GM picks any character; a player one of his own."""
    rows = Character.objects.filter(campaign_id=craft.campaign_id).order_by("name", "pk")
    if not membership.is_gm:
        rows = rows.filter(owner_id=membership.user_id)
    return list(rows.only("pk", "name"))


def _start(request, form, start_form, make, start_args) -> tuple[str, bool]:
    """Start the project when both forms are good; (refusal, started)."""
    if not (form.is_valid() and start_form.is_valid()):
        return "", False
    args = form.quote_args()
    stat = args.get("stat")
    quote, refusal = _quote(form, make)
    if quote is None:
        return refusal, False
    try:
        start_project(
            actor=request.user,
            quote=quote,
            stat=stat,
            skill=start_form.cleaned_data["skill"],
            **start_args(start_form.cleaned_data),
        )
    except ProjectError as exc:
        return str(exc), False
    return "", True


@login_required
def item_quote(request, campaign_id, character_id):
    """Plan an improvement of one of the character's weapons or armour (GET), or start it as a
    project (POST)."""
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    ruleset = membership.campaign.ruleset
    items = list(
        Item.objects.filter(
            character_id=character.pk, kind__in=(Item.Kind.WEAPON, Item.Kind.ARMOUR)
        ).order_by("kind", "name", "pk")
    )
    posted = request.method == "POST"
    data = request.POST if posted else request.GET
    bound = "stat" in data
    initial = {"item": request.GET.get("item")} if not bound else None
    form = ItemQuoteForm(data if bound else None, items=items, initial=initial, ruleset=ruleset)
    start_form = StartForm(request.POST if posted else None)

    def make(args):
        item = form.items[args.pop("item")]
        return quote_item(item, args.pop("stat"), ruleset=ruleset, **args)

    refusal, status = "", 200
    if posted:
        refusal, started = _start(
            request,
            form,
            start_form,
            make,
            lambda _: {
                "campaign_id": campaign_id,
                "worker_id": character.pk,
                "item_id": form.cleaned_data["item"],
            },
        )
        if started:
            messages.success(request, "The project has started: the job works on it each day.")
            url = reverse("characters:item_quote", args=[campaign_id, character.pk])
            return redirect(f"{url}?item={form.cleaned_data['item']}")
        status = 400
    return _page(
        request,
        membership,
        character,
        form,
        start_form,
        make,
        bound=bound,
        posted=posted,
        refusal=refusal,
        status=status,
        empty=not items,
        empty_words=f"{character.name} has no weapon or armour to improve.",
        projects=character_projects(character.pk),
    )


@login_required
def craft_quote(request, campaign_id, craft_id):
    """Plan an improvement of a ship's or vehicle's code (GET), or start it as a project
    (POST)."""
    membership = membership_or_404(request.user, campaign_id)
    craft = (
        Craft.objects.select_related("owner_character")
        .filter(campaign=membership.campaign, pk=craft_id)
        .first()
    )
    if craft is None:
        raise Http404("No such craft")
    if not (craft.party or can_edit_craft(membership, craft)):
        raise PermissionDenied("Only the craft's owner or a GM can plan its improvements.")
    ruleset = membership.campaign.ruleset
    posted = request.method == "POST"
    data = request.POST if posted else request.GET
    bound = "stat" in data
    form = CraftQuoteForm(
        data if bound else None, weapons=craft.stat_block.weapons, ruleset=ruleset
    )
    workers = _workers(membership, craft)
    start_form = StartForm(request.POST if posted else None, workers=workers)

    def make(args):
        return quote_craft(craft, args.pop("stat"), ruleset=ruleset, **args)

    refusal, status = "", 200
    if posted:
        refusal, started = _start(
            request,
            form,
            start_form,
            make,
            lambda extra: {
                "campaign_id": campaign_id,
                "worker_id": extra["worker"],
                "craft_id": craft.pk,
                "weapon": form.cleaned_data.get("weapon"),
            },
        )
        if started:
            messages.success(request, "The project has started: the job works on it each day.")
            return redirect("characters:craft_quote", campaign_id, craft.pk)
        status = 400
    return _page(
        request,
        membership,
        craft,
        form,
        start_form,
        make,
        bound=bound,
        posted=posted,
        refusal=refusal,
        status=status,
        projects=craft_projects(craft.pk),
    )


@login_required
@require_POST
def project_change(request, campaign_id, project_id):
    """Pause, resume or abandon a project (the worker's player or the GM); back to the page
    the button was on."""
    membership = membership_or_404(request.user, campaign_id)
    project = (
        Project.objects.select_related("character")
        .filter(pk=project_id, campaign=membership.campaign)
        .first()
    )
    if project is None:
        raise Http404("No such project")
    action = request.POST.get("action", "")
    may = membership.is_gm or project.character.owner_id == membership.user_id
    if action == "abandon" and may and request.POST.get("confirm") != "yes":
        return _abandon_confirm(request, membership, project)
    try:
        project = change_project(campaign_id, project_id, actor=request.user, action=action)
    except ProjectError as exc:
        return render(
            request,
            "characters/project_refused.html",
            {"refusal": str(exc), "campaign_id": campaign_id},
            status=400,
        )
    messages.success(request, f"{project.label}: {project.get_status_display().lower()}.")
    if project.craft_id is not None:
        return redirect("characters:craft_quote", campaign_id, project.craft_id)
    url = reverse("characters:item_quote", args=[campaign_id, project.character_id])
    return redirect(f"{url}?item={project.item_id}")


def _abandon_confirm(request, membership, project: Project):
    """Abandoning asks first (a page of its own, so it works without JavaScript): what the
    project holds and has spent, and what comes back; the form posts ``confirm=yes``."""
    try:
        state = ProjectState.from_json(project.state)
        spent = (state.credits_spent, state.skill_points_spent)
    except RulesError:
        spent = (0, 0)
    if project.craft_id is not None:
        back = reverse("characters:craft_quote", args=[membership.campaign_id, project.craft_id])
    else:
        url = reverse("characters:item_quote", args=[membership.campaign_id, project.character_id])
        back = f"{url}?item={project.item_id}"
    context = {
        "campaign": membership.campaign,
        "project": project,
        "credits_back": max(project.credits_held - spent[0], 0),
        "cp_back": max(project.cp_held - spent[1], 0),
        "back": back,
    }
    return render(request, "characters/project_abandon.html", context)
