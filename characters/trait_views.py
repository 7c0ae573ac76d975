"""The GM's page of the skills and attributes used in an adventure: each player character with
the traits recorded so far (rolled from the sheet, or ticked by hand), a form to tick one more
(a choice of the character's attributes and skills) and a button to untick each.

The adventure is the running one or, when none runs, the last that ended (what
:func:`characters.advancement.set_trait_use` marks by default): a GM who forgot to tick a skill
before ending the adventure can still do it before the players improve. Each form names the
adventure its page showed; a page left open while another adventure began is refused as out of
date. Refusals (a trait the character lacks, a character of another campaign, a page out of
date, no adventure at all) come back as the page with the reason, a 400, and change nothing."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from campaigns.access import membership_or_404
from characters import advancement as service
from characters.game_calendar import running_adventure
from characters.models import ATTRIBUTE_LABELS, ATTRIBUTES, Character, TraitUse
from rules.errors import RulesError

TRAIT_LENGTH = TraitUse._meta.get_field("trait").max_length
_ID = {"min_value": 1, "max_value": 2**62, "widget": forms.HiddenInput}


class TraitTickForm(forms.Form):
    """Tick (``used`` 1) or untick (0) one trait of one character in one adventure. The trait
    is checked by the service: it must be one of the character's attributes or skills."""

    adventure = forms.IntegerField(**_ID)
    character = forms.IntegerField(**_ID)
    trait = forms.CharField(
        max_length=TRAIT_LENGTH,
        label="Skill or attribute",
        error_messages={"required": "Choose a skill or attribute."},
    )
    used = forms.TypedChoiceField(
        choices=[("1", "Tick"), ("0", "Untick")],
        coerce=lambda value: value == "1",
        initial="1",
        widget=forms.HiddenInput,
    )

    def __init__(self, *args, choices=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["trait"].widget = forms.Select(choices=[("", "Choose…"), *choices])


def _party(campaign_id: int) -> list[Character]:
    return list(
        Character.objects.filter(campaign_id=campaign_id, kind=Character.Kind.PC)
        .prefetch_related("skills")
        .order_by("name", "pk")
    )


def _label(key: str, skills: dict[str, str]) -> str:
    return ATTRIBUTE_LABELS.get(key) or skills.get(key, key)


def _rows(party: list[Character], adventure) -> list[dict]:
    """Per character: the traits recorded in ``adventure`` and a tick form offering the rest."""
    uses: dict[int, list[TraitUse]] = {}
    if adventure is not None:
        for use in TraitUse.objects.filter(
            adventure=adventure, character__in=[c.pk for c in party]
        ).order_by("trait"):
            uses.setdefault(use.character_id, []).append(use)
    rows = []
    for character in party:
        skills = {s.name.lower(): s.name for s in character.skills.all()}
        recorded = uses.get(character.pk, [])
        ticked = {u.trait for u in recorded}
        choices = [
            ("Attributes", [(k, ATTRIBUTE_LABELS[k]) for k in ATTRIBUTES if k not in ticked]),
            (
                "Skills",
                sorted(
                    ((k, name) for k, name in skills.items() if k not in ticked),
                    key=lambda kv: kv[1].lower(),
                ),
            ),
        ]
        tick = TraitTickForm(
            choices=choices,
            auto_id=f"id_{character.pk}_%s",
            initial={
                "adventure": adventure.pk if adventure else None,
                "character": character.pk,
                "used": "1",
            },
        )
        rows.append(
            {
                "character": character,
                "uses": [
                    {"key": u.trait, "label": _label(u.trait, skills), "by_hand": u.by_hand}
                    for u in recorded
                ],
                "form": tick,
            }
        )
    return rows


def _refusal(form: TraitTickForm) -> str:
    """Why an invalid form was refused, in one sentence for the top of the page."""
    if any(form.has_error(name) for name in ("adventure", "character", "used")):
        return "This page is out of date: reload it and try again."
    return "Nothing changed: " + " ".join(str(e) for e in form.errors.get("trait", []))


@login_required
def trait_uses(request, campaign_id):
    """GM: the traits used in the adventure, ticked and unticked by hand (POST)."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    campaign = membership.campaign
    running = running_adventure(campaign.pk)
    adventure = running or service.last_adventure(campaign.pk)
    party = _party(campaign.pk)
    errors: list[str] = []
    status = 200
    if request.method == "POST":
        form = TraitTickForm(request.POST)
        if _tick(request, form, adventure, party):
            return redirect("characters:trait_uses", campaign_id)
        errors = list(form.non_field_errors())
        status = 400
    context = {
        "campaign": campaign,
        "membership": membership,
        "adventure": adventure,
        "running": running,
        "rows": _rows(party, adventure),
        "errors": errors,
    }
    return render(request, "characters/trait_uses.html", context, status=status)


def _tick(request, form: TraitTickForm, adventure, party: list[Character]) -> bool:
    """Apply the form; False (with the reason on the form) when refused, nothing changed."""
    if not form.is_valid():
        form.add_error(None, _refusal(form))
        return False
    data = form.cleaned_data
    if adventure is None:
        form.add_error(None, "No adventure has begun yet: start one on the calendar first.")
        return False
    if data["adventure"] != adventure.pk:
        form.add_error(None, "This page is out of date: reload it and try again.")
        return False
    character = next((c for c in party if c.pk == data["character"]), None)
    if character is None:
        form.add_error(None, "That is not a player character of this campaign.")
        return False
    try:
        service.set_trait_use(
            character, data["trait"], actor=request.user, used=data["used"], adventure=adventure
        )
    except RulesError as exc:
        form.add_error(None, f"Nothing changed: {exc}.")
        return False
    skills = {s.name.lower(): s.name for s in character.skills.all()}
    what = _label(data["trait"].strip().lower(), skills)
    verb = "ticked as used" if data["used"] else "no longer counts as used"
    messages.success(request, f"{character.name}: {what} {verb} in {adventure.name}.")
    return True
