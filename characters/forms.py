from django import forms

from characters.access import PLAYER_EDITABLE_FIELDS
from characters.models import Character, Currency


class RollForm(forms.Form):
    actions = forms.IntegerField(
        min_value=1,
        max_value=10,
        initial=1,
        label="Actions this round",
        help_text="Each action beyond the first takes 1D from every roll.",
    )
    modifier = forms.IntegerField(min_value=-100, max_value=100, initial=0, label="Modifier")
    cp = forms.IntegerField(min_value=0, max_value=50, initial=0, label="Character Points")
    force_point = forms.BooleanField(required=False, label="Spend a Force Point (doubles the code)")
    difficulty = forms.IntegerField(
        min_value=1, max_value=200, required=False, label="Difficulty (optional)"
    )
    note = forms.CharField(max_length=60, required=False, label="What for (optional)")
    hidden = forms.BooleanField(required=False, label="Hidden from players")

    def __init__(self, *args, cp_limit=None, allow_hidden=False, **kwargs):
        super().__init__(*args, **kwargs)
        if cp_limit is not None:
            self.fields["cp"] = forms.IntegerField(
                min_value=0,
                max_value=cp_limit,
                initial=0,
                label="Character Points",
                help_text=f"Up to {cp_limit} on this roll.",
            )
        if not allow_hidden:
            del self.fields["hidden"]


class CharacterForm(forms.ModelForm):
    """The sheet's editable fields; players get only PLAYER_EDITABLE_FIELDS."""

    class Meta:
        model = Character
        fields = (
            "name",
            "species",
            "template",
            "gender",
            "age",
            "height",
            "dexterity",
            "knowledge",
            "mechanical",
            "perception",
            "strength",
            "technical",
            "move",
            "force_sensitive",
            "wound_level",
            "stuns",
            "secret",
            "background",
            "personality",
            "notes",
            "portrait",
        )
        widgets = {
            "background": forms.Textarea(attrs={"rows": 3}),
            "personality": forms.Textarea(attrs={"rows": 2}),
            "notes": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not gm:
            for name in list(self.fields):
                if name not in PLAYER_EDITABLE_FIELDS:
                    del self.fields[name]
        elif not self.instance.is_npc:
            self.fields.pop("secret", None)


class AwardForm(forms.Form):
    currency = forms.ChoiceField(choices=Currency.choices)
    delta = forms.IntegerField(
        label="Change",
        help_text="Positive to award, negative to take away.",
        min_value=-1_000_000,
        max_value=1_000_000,
    )
    reason = forms.CharField(max_length=200)

    def clean_delta(self):
        delta = self.cleaned_data["delta"]
        if delta == 0:
            raise forms.ValidationError("Enter an amount other than 0.")
        return delta
