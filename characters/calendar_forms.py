"""The forms of the calendar, the end of an adventure, advancement and the GM's skill edits.

They check the shape of what was typed (numbers in range, lengths, choices from what the page
offered); the rules themselves are the services' (:mod:`characters.advancement`,
:mod:`characters.downtime`, :mod:`characters.game_calendar`, :mod:`characters.skill_edits`),
whose refusals the views put on the form."""

from __future__ import annotations

import re

from django import forms
from django.forms import BaseFormSet, formset_factory

from characters import advancement as service
from characters.downtime import MAX_DAYS
from characters.game_calendar import ADVENTURE_NAME_LENGTH, ERA_LENGTH
from characters.models import ATTRIBUTE_LABELS, ATTRIBUTES, Advancement, Skill

NAME_LENGTH = service.NAME_LENGTH
CODE_LENGTH = 20
KILL_BONUS_PREFIX = "Kill bonus: "
AWARD_REASON_LENGTH = service.REASON_LENGTH - len(KILL_BONUS_PREFIX)

_WHOLE = re.compile(r"[0-9]{1,18}")


def whole_number(value: object) -> int | None:
    """``value`` as an id or count when it is plain ASCII digits (at most 18), else None.
    (``str.isdigit`` accepts "²", which ``int`` refuses.)"""
    return int(value) if isinstance(value, str) and _WHOLE.fullmatch(value) else None


ATTRIBUTE_CHOICES = [(key, ATTRIBUTE_LABELS[key]) for key in ATTRIBUTES]


# --- The calendar ---------------------------------------------------------------------------
class CalendarForm(forms.Form):
    era = forms.CharField(
        max_length=ERA_LENGTH,
        required=False,
        label="Era",
        help_text="How the date is told, e.g. 8 BBY.",
    )
    approve_advancement = forms.BooleanField(
        required=False,
        label="Players' improvements need my approval",
        help_text="Requests then wait for you before training starts.",
    )


class AdventureForm(forms.Form):
    name = forms.CharField(
        max_length=ADVENTURE_NAME_LENGTH, label="Adventure", help_text="It starts today."
    )


class EndAdventureForm(forms.Form):
    adventure = forms.IntegerField(min_value=1, max_value=2**62, widget=forms.HiddenInput)


class AdvanceForm(forms.Form):
    days = forms.IntegerField(
        min_value=1,
        max_value=MAX_DAYS,
        initial=7,
        label="Advance by (days)",
        help_text=f"1 to {MAX_DAYS:,} days; trainings that end on the way complete in order.",
        error_messages=dict.fromkeys(
            ("required", "invalid", "min_value", "max_value"),
            f"Advance by a whole number of days from 1 to {MAX_DAYS:,}.",
        ),
    )
    from_day = forms.IntegerField(min_value=0, max_value=2**31, widget=forms.HiddenInput)


# --- The end of an adventure ----------------------------------------------------------------
class AwardReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=AWARD_REASON_LENGTH,
        label="Reason",
        help_text="Shown in each ledger entry; a row's own reason replaces it.",
    )


def _amount(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        min_value=0, max_value=service.MAX_AWARD, required=False, initial=0, label=label
    )


class AwardRowForm(forms.Form):
    """One character's award. ``character`` is hidden, checked against the campaign's player
    characters (the rows the page offered)."""

    character = forms.TypedChoiceField(coerce=int, widget=forms.HiddenInput)
    cp = _amount("CP")
    fp = _amount("FP")
    dsp = _amount("DSP")
    kill_bonus = _amount("Kill bonus CP")
    reason = forms.CharField(max_length=AWARD_REASON_LENGTH, required=False, label="Own reason")

    def __init__(self, *args, characters: dict, house: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(pk, c.name) for pk, c in characters.items()]
        if not house:
            del self.fields["kill_bonus"]
        raw = self.data.get(self.add_prefix("character")) if self.is_bound else None
        key = raw if raw is not None else self.initial.get("character")
        try:
            self.who = characters.get(int(key))  # not "character": a field's name
        except (TypeError, ValueError):
            self.who = None

    def clean(self):
        data = super().clean()
        for name in ("cp", "fp", "dsp", "kill_bonus"):
            if name in self.fields and data.get(name) is None and name not in self.errors:
                data[name] = 0
        return data

    @property
    def total(self) -> int:
        data = getattr(self, "cleaned_data", {})
        return sum(data.get(n) or 0 for n in ("cp", "fp", "dsp", "kill_bonus"))


class BaseAwardFormSet(BaseFormSet):
    def clean(self):
        if any(self.errors):
            return
        seen = set()
        for form in self.forms:
            pk = form.cleaned_data.get("character")
            if pk in seen:
                raise forms.ValidationError("Each character can have one row only.")
            seen.add(pk)


def award_formset(data=None, *, characters: dict, house: bool, initial=None):
    """One row per player character; at most that many rows are read."""
    count = max(1, len(characters))
    factory = formset_factory(
        AwardRowForm,
        formset=BaseAwardFormSet,
        extra=0,
        max_num=count,
        absolute_max=count,
        validate_max=True,
    )
    return factory(
        data,
        prefix="awards",
        initial=initial,
        form_kwargs={"characters": characters, "house": house},
    )


# --- Advancement ----------------------------------------------------------------------------
KIND_WORDS = {
    "skill": "skill",
    "specialization": "specialization",
    "advanced": "advanced skill",
    "advanced_specialization": "advanced specialization",
    "force_skill": "Force skill",
}
NEW_CHOICES = [
    ("new_skill:", "A new skill…"),
    ("new_specialization:", "A new specialization…"),
    ("new_advanced:", "A new advanced skill…"),
    ("new_advanced_specialization:", "A new advanced specialization…"),
]


def improvement_choices(character, skills) -> list:
    """What the character can ask to improve, grouped as the sheet is: each value is
    ``kind:target`` (the service's words)."""
    names = {s.name.casefold(): s for s in skills}
    on_sheet = []
    for skill in sorted(skills, key=lambda s: (s.attribute, s.name.casefold())):
        kind = service._advancement_kind(skill, names)
        label = f"{skill.name} {skill.code} ({KIND_WORDS[kind]})"
        on_sheet.append((f"{kind}:{skill.name}", label))
    traits = [
        (f"attribute:{key}", f"{ATTRIBUTE_LABELS[key]} {character.attribute(key)}")
        for key in ATTRIBUTES
    ]
    traits.append(("move:Move", f"Move {character.move}"))
    new = list(NEW_CHOICES)
    if character.force_sensitive:
        new.append(("new_force_skill:", "A new Force skill (control, sense or alter)…"))
    if character.force_sensitive or any(s.kind == Skill.Kind.FORCE for s in skills):
        new.append(("force_power:", "A Force power…"))
    if not character.force_sensitive:
        new.append(("force_sensitivity:Force-sensitivity", "Become Force-sensitive"))
    groups = [("", "Choose what to improve")]
    if on_sheet:
        groups.append(("Skills on the sheet", on_sheet))
    groups += [("Attributes and Move", traits), ("Something new", new)]
    return groups


class ImproveForm(forms.Form):
    """What to improve and how. The GM's fields (the species maximum, the training time) and
    the Rules Companion's teacher code are removed where they do not apply."""

    what = forms.ChoiceField(label="Improve")
    name = forms.CharField(
        max_length=NAME_LENGTH,
        required=False,
        label="Name of the new skill, specialization or Force power",
    )
    base_skill = forms.CharField(
        max_length=NAME_LENGTH,
        required=False,
        label="The skill it specializes",
        help_text="For a new specialization.",
    )
    attribute = forms.ChoiceField(
        choices=[("", "As the skill table says"), *ATTRIBUTE_CHOICES],
        required=False,
        label="Governing attribute",
        help_text="For a new skill the skill table does not know.",
    )
    teacher = forms.BooleanField(required=False, initial=True, label="With a teacher")
    extra_cp = forms.IntegerField(
        min_value=0,
        max_value=service.MAX_EXTRA_CP,
        required=False,
        initial=0,
        label="Extra CP to shorten training",
        help_text="Each extra point takes time off, down to the minimum.",
    )
    teacher_code = forms.CharField(
        max_length=CODE_LENGTH,
        required=False,
        label="The teacher's code (Force skills)",
        help_text="Above the teacher's code the cost doubles.",
    )
    species_maximum = forms.CharField(
        max_length=CODE_LENGTH,
        required=False,
        label="Species maximum (GM)",
        help_text="For an attribute (a code such as 4D) or Move (a number), where the species "
        "table has none.",
    )
    days = forms.IntegerField(
        min_value=0,
        max_value=service.MAX_GM_DAYS,
        required=False,
        label="Training days (GM)",
        help_text="Only where the rules give no training time.",
    )

    def __init__(self, *args, choices, gm: bool, rc: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["what"].choices = choices
        if not gm:
            del self.fields["species_maximum"], self.fields["days"]
        if not rc:
            del self.fields["teacher_code"]

    def clean(self):
        data = super().clean()
        if data.get("extra_cp") is None and "extra_cp" not in self.errors:
            data["extra_cp"] = 0
        return data

    def request_args(self) -> tuple[str, str, dict]:
        """(kind, target, options) for :func:`characters.advancement.quote` and
        :func:`~characters.advancement.request_advancement`."""
        data = self.cleaned_data
        kind, _, target = data["what"].partition(":")
        options: dict = {"teacher": data["teacher"], "extra_cp": data["extra_cp"]}
        if kind.startswith("new_") or kind == "force_power":
            target = data["name"]
        if kind in ("new_specialization", "new_advanced_specialization"):
            options["base_skill"] = data["base_skill"] or None
        if kind in ("new_skill", "new_advanced", "new_specialization"):
            options["attribute"] = data["attribute"] or None
        if data.get("teacher_code"):
            options["teacher_code"] = data["teacher_code"]
        if data.get("species_maximum"):
            maximum = data["species_maximum"].strip()
            number = whole_number(maximum)
            options["species_maximum"] = maximum if number is None else number
        if data.get("days") is not None:
            options["days"] = data["days"]
        return kind, target, options


class DecisionForm(forms.Form):
    """The GM's answer to a request awaiting him."""

    advancement = forms.IntegerField(min_value=1, max_value=2**62, widget=forms.HiddenInput)
    decision = forms.ChoiceField(
        choices=[("approve", "Approve"), ("refuse", "Refuse")], widget=forms.HiddenInput
    )
    reason = forms.CharField(
        max_length=Advancement._meta.get_field("reason").max_length,
        required=False,
        label="Reason (shown to the player)",
    )
    species_maximum = forms.CharField(
        max_length=CODE_LENGTH,
        required=False,
        label="Species maximum",
        help_text="A code such as 4D for an attribute (you roll it), a number for Move.",
    )
    days = forms.IntegerField(
        min_value=0, max_value=service.MAX_GM_DAYS, required=False, label="Training days"
    )

    def clean(self):
        data = super().clean()
        if data.get("decision") == "refuse" and not (data.get("reason") or "").strip():
            self.add_error("reason", "Say why: the player sees the reason.")
        return data


class WithdrawForm(forms.Form):
    advancement = forms.IntegerField(min_value=1, max_value=2**62, widget=forms.HiddenInput)


# --- The GM's skill edits -------------------------------------------------------------------
class SkillEditForm(forms.Form):
    skill = forms.IntegerField(
        min_value=1, max_value=2**62, required=False, widget=forms.HiddenInput
    )
    name = forms.CharField(max_length=NAME_LENGTH, label="Name")
    code = forms.CharField(max_length=CODE_LENGTH, label="Code", help_text="For example 4D+2.")
    attribute = forms.ChoiceField(
        choices=[*ATTRIBUTE_CHOICES, ("force", "The Force")], label="Attribute"
    )
    kind = forms.ChoiceField(choices=Skill.Kind.choices, label="Kind")
    base_skill = forms.CharField(
        max_length=NAME_LENGTH,
        required=False,
        label="Specializes (for a specialization)",
    )


class SkillRemoveForm(forms.Form):
    skill = forms.IntegerField(min_value=1, max_value=2**62, widget=forms.HiddenInput)


__all__ = [
    "AdvanceForm",
    "AdventureForm",
    "AwardReasonForm",
    "AwardRowForm",
    "CalendarForm",
    "DecisionForm",
    "EndAdventureForm",
    "ImproveForm",
    "SkillEditForm",
    "SkillRemoveForm",
    "WithdrawForm",
    "award_formset",
    "improvement_choices",
    "whole_number",
]
