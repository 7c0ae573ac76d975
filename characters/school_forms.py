"""The forms of the Schools page (characters.school_views): the GM's school, a student's
enrolment. The writes and their checks are :mod:`characters.schools`'s; these forms read the
fields (whole numbers as ASCII digits, the bonuses one a line) and say what is wrong."""

from __future__ import annotations

from django import forms

from characters.school_models import School
from characters.schools import MAX_PRICE, MAX_WEEKS
from rules.advancement import AdvancementError
from rules.advancement.schools import bonuses_text, parse_bonuses

BONUS_HELP = (
    "One a line: attribute, skill and pips, e.g. “Perception: command +2” or “STR: stamina "
    "+1”; +1D is 3 pips. A skill the student lacks is gained at the attribute's code first."
)


class SchoolForm(forms.Form):
    name = forms.CharField(label="Name", max_length=School._meta.get_field("name").max_length)
    instructor = forms.CharField(
        label="Instructor",
        required=False,
        max_length=School._meta.get_field("instructor").max_length,
    )
    weeks = forms.IntegerField(
        label="Length in weeks",
        min_value=1,
        max_value=MAX_WEEKS,
        help_text="In the campaign's weeks (5 days under the House calendar).",
    )
    cp_cost = forms.IntegerField(
        label="Price in CP",
        min_value=0,
        max_value=MAX_PRICE,
        help_text="Paid from Character Points or owed (at most 100 CP owed).",
    )
    bonuses = forms.CharField(
        label="Bonuses",
        widget=forms.Textarea(
            attrs={"rows": 6, "placeholder": "Perception: command +2\nStrength: stamina +1"}
        ),
        help_text=BONUS_HELP,
        max_length=4000,
    )
    restrictions = forms.CharField(
        label="Who may attend",
        required=False,
        max_length=School._meta.get_field("restrictions").max_length,
        help_text="In words, e.g. “enlisted only”: players read it before enrolling.",
    )
    open = forms.BooleanField(label="Open to new students", required=False, initial=True)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "school-%s")
        super().__init__(*args, **kwargs)

    def clean_bonuses(self):
        try:
            return parse_bonuses(self.cleaned_data["bonuses"])
        except AdvancementError as exc:
            raise forms.ValidationError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None

    @classmethod
    def initial_for(cls, school: School) -> dict:
        return {
            "name": school.name,
            "instructor": school.instructor,
            "weeks": school.weeks,
            "cp_cost": school.cp_cost,
            "bonuses": bonuses_text(tuple(tuple(b) for b in school.bonuses)),
            "restrictions": school.restrictions,
            "open": school.open,
        }


PAYMENT = [
    ("pay", "Pay it all now from Character Points"),
    ("owe", "Owe it all (half of the CP earned later repay it)"),
    ("part", "Pay part now, owe the rest"),
]


class EnrolForm(forms.Form):
    character = forms.TypedChoiceField(label="Character", coerce=int)
    payment = forms.ChoiceField(
        label="The price", choices=PAYMENT, initial="pay", widget=forms.RadioSelect
    )
    pay = forms.IntegerField(label="CP paid now", required=False, min_value=0, max_value=MAX_PRICE)

    def __init__(self, *args, school: School, characters, **kwargs):
        kwargs.setdefault("auto_id", f"enrol-{school.pk}-%s")
        super().__init__(*args, **kwargs)
        self.school = school
        self.fields["character"].choices = [
            (c.pk, f"{c.name} ({c.character_points} CP, {c.cp_owed} CP owed)") for c in characters
        ]
        if school.cp_cost == 0:
            del self.fields["payment"], self.fields["pay"]
        else:
            self.fields["pay"].help_text = f"For “pay part”: 0 to {school.cp_cost}."

    def paid(self) -> int:
        """The CP paid now, from the cleaned choice."""
        data = self.cleaned_data
        choice = data.get("payment", "pay")
        if self.school.cp_cost == 0 or choice == "owe":
            return 0
        if choice == "pay":
            return self.school.cp_cost
        return data.get("pay") or 0

    def clean(self):
        data = super().clean()
        if data.get("payment") == "part":
            pay = data.get("pay")
            if "pay" in self.errors:  # "Enter a whole number." already: not a second message
                pass
            elif pay is None:
                self.add_error("pay", "Say how many CP you pay now.")
            elif pay > self.school.cp_cost:
                self.add_error("pay", f"The price is {self.school.cp_cost} CP: pay at most that.")
        return data
