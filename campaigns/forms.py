from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from campaigns.models import Campaign, Membership
from rules import RuleSet, RuleSetError
from rules.ruleset import PRESET_LABELS, SOURCES, Option


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
        fields = ("name", "description", "approve_characters")
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}
        labels = {"approve_characters": "New characters need the GM's approval"}
        help_texts = {
            "approve_characters": "A player's new character waits for a game master to approve "
            "it (or return it with a reason) before it plays; without this, only a character "
            "the creation rules refuse goes to you, when its player asks."
        }

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


def _choice_words(option: Option, value) -> str:
    tag = option.source_of(value)
    return f"{option.words(value)} [{tag}]" if tag else option.words(value)


def _help(option: Option) -> str:
    return f"{option.help} Allowed: {option.range_text}." if option.range_text else option.help


class RuleOptionsForm(forms.Form):
    """Every RuleSet option as a field, built from the rules engine's own descriptions: its
    words, its source, the words for each value and the range a number may take."""

    preset = forms.ChoiceField(
        choices=[("", "Keep the options below"), *PRESET_LABELS.items()],
        required=False,
        help_text="Choosing a preset replaces every option below with that bundle.",
    )

    def __init__(self, *args, ruleset: RuleSet, **kwargs):
        super().__init__(*args, **kwargs)
        for name, option in RuleSet.options():
            value = getattr(ruleset, name)
            choices = RuleSet.choices(name)
            common = {"label": option.label, "help_text": _help(option), "required": False}
            if choices is not None and set(choices) == {False, True}:
                # A select with both states in words (a checkbox can say only one).
                field = forms.TypedChoiceField(
                    choices=[(str(c), _choice_words(option, c)) for c in (True, False)],
                    coerce=lambda text: text == "True",
                    initial=str(value),
                    empty_value="",
                    **common,
                )
            elif choices is not None:
                field = forms.TypedChoiceField(
                    choices=[(c, _choice_words(option, c)) for c in choices],
                    coerce=type(choices[0]),
                    initial=value,
                    empty_value="",
                    **common,
                )
            elif option.die_code:
                field = forms.CharField(initial=value or "", max_length=10, **common)
            else:
                field = forms.IntegerField(
                    initial=value, min_value=option.minimum, max_value=option.maximum, **common
                )
            field.option = option
            field.sources = [
                (tag, SOURCES[tag]) for tag in (t.strip() for t in option.source.split(","))
            ]
            self.fields[name] = field

    def groups(self):
        """The option fields grouped as the rules digests are (dice, characters, ...)."""
        groups: dict[str, list] = {}
        for name, option in RuleSet.options():
            groups.setdefault(option.group, []).append(self[name])
        return list(groups.items())

    def clean(self):
        data = super().clean()
        preset = data.pop("preset", "")
        if self.errors:
            return data
        try:
            if preset:
                self.ruleset = RuleSet.preset(preset)
            else:
                # A blank or missing option keeps the default.
                options = {k: v for k, v in data.items() if v not in (None, "")}
                self.ruleset = RuleSet.from_json(options)
        except RuleSetError as exc:
            if exc.option in self.fields:
                self.add_error(exc.option, str(exc))
            else:
                raise forms.ValidationError(str(exc)) from None
        return data
