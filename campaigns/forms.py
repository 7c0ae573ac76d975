import dataclasses

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from campaigns.models import Campaign, Membership
from rules import PRESETS, RuleSet, RuleSetError


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional; used only to reset your password."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ("name", "description")
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("Give the campaign a name.")
        return name


class InvitationForm(forms.Form):
    days = forms.IntegerField(
        min_value=1, max_value=30, initial=7, label="Valid for (days)", help_text="1 to 30 days."
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(
        choices=[(Membership.Role.CO_GM, "Co-GM"), (Membership.Role.PLAYER, "Player")]
    )


PRESET_LABELS = {
    "2e": "Second Edition R&E with the Rules Upgrade (default)",
    "house": "House Rules",
    "rc": "Rules Companion (First Edition bundle)",
}


def _label(name: str) -> str:
    return name.replace("_", " ").capitalize()


class RuleOptionsForm(forms.Form):
    """Every RuleSet option as a field, built from the rules engine's own type hints."""

    preset = forms.ChoiceField(
        choices=[("", "Keep the options below")] + [(k, PRESET_LABELS.get(k, k)) for k in PRESETS],
        required=False,
        help_text="Choosing a preset replaces every option below with that bundle.",
    )

    def __init__(self, *args, ruleset: RuleSet, **kwargs):
        super().__init__(*args, **kwargs)
        for field in dataclasses.fields(RuleSet):
            value = getattr(ruleset, field.name)
            choices = RuleSet.choices(field.name)
            help_text = ""
            if choices is not None and set(choices) == {False, True}:
                self.fields[field.name] = forms.BooleanField(
                    required=False, initial=value, label=_label(field.name), help_text=help_text
                )
            elif choices is not None:
                self.fields[field.name] = forms.TypedChoiceField(
                    choices=[(c, str(c)) for c in choices],
                    coerce=type(choices[0]),
                    initial=value,
                    required=False,
                    empty_value="",
                    label=_label(field.name),
                )
            elif field.type in ("int", int):
                self.fields[field.name] = forms.IntegerField(
                    initial=value, label=_label(field.name), required=False
                )
            else:
                self.fields[field.name] = forms.CharField(
                    initial=value or "", required=False, label=_label(field.name)
                )

    def clean(self):
        data = super().clean()
        preset = data.pop("preset", "")
        if self.errors:
            return data
        try:
            if preset:
                self.ruleset = RuleSet.preset(preset)
            else:
                # A blank number or text keeps the default; an unticked box is False.
                options = {k: v for k, v in data.items() if v not in (None, "")}
                self.ruleset = RuleSet.from_json(options)
        except RuleSetError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data
