"""Forms of a craft's travel page: the pilot's [RC] speed actions and the navigator's
astrogation. Numbers only; the rules' limits (speed actions against the speed code, the
hyperdrive's state) are checked by characters.craft_travel with the engine."""

from django import forms

from characters.craft_travel import SITUATIONS


def _number(label: str, low: int, high: int, *, initial=None, required=True, **kwargs):
    return forms.IntegerField(
        label=label,
        min_value=low,
        max_value=high,
        initial=initial,
        required=required,
        **kwargs,
    )


class SpeedActionsForm(forms.Form):
    speed_actions = _number("Speed actions", 1, 10, initial=1)
    overspeed = _number(
        "Overspeed actions",
        0,
        10,
        initial=0,
        required=False,
        help_text="Each: one more speed action of distance, +3 difficulty, −1D.",
    )
    other_actions = _number(
        "Other actions this round",
        0,
        9,
        initial=0,
        required=False,
        help_text="Evading, firing …: each takes 1D more from the roll.",
    )
    difficulty = _number(
        "Movement difficulty",
        1,
        100,
        initial=10,
        help_text="The GM's number for the terrain (Very Easy 3–5 … Very Difficult 21–30).",
    )
    atmosphere = forms.BooleanField(
        label="In atmosphere (a space craft: one distance level down)", required=False
    )
    regaining_control = forms.BooleanField(
        label="Regaining control lost last round (+5)", required=False
    )

    def __init__(self, *args, starship=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not starship:
            del self.fields["atmosphere"]

    def declared(self) -> dict:
        values = self.cleaned_data
        declared = {
            "speed_actions": values["speed_actions"],
            "overspeed": values.get("overspeed") or 0,
            "other_actions": values.get("other_actions") or 0,
            "difficulty": values["difficulty"],
            "regaining_control": values.get("regaining_control", False),
        }
        if "atmosphere" in self.fields:
            declared["atmosphere"] = values.get("atmosphere", False)
        return declared


class AstrogationForm(forms.Form):
    navigator = forms.TypedChoiceField(label="Navigator", coerce=int)
    situation = forms.ChoiceField(
        label="Where to", choices=list(SITUATIONS.items()), initial="known_systems"
    )
    difficulty = _number(
        "Astrogation difficulty", 1, 100, initial=15, help_text="The GM's number for the route."
    )
    listed_hours = _number(
        "Listed duration (hours)",
        1,
        10_000,
        required=False,
        help_text="[RC] the route's hours; the trip takes them × the hyperdrive multiplier.",
    )
    planned_hours = _number(
        "Planned duration (hours)",
        1,
        10_000,
        required=False,
        help_text="[RC] +1 difficulty per hour saved, −1 per hour added.",
    )
    uncertainty = forms.TypedChoiceField(
        label="GM's uncertainty dice",
        coerce=int,
        choices=[(0, "None"), (2, "2"), (3, "3"), (4, "4")],
        initial=0,
        required=False,
        empty_value=0,
    )

    def __init__(self, *args, navigators=(), uncertainty=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["navigator"].choices = [
            (s.pk, f"{s.character.name} ({s.get_role_display().lower()})") for s in navigators
        ]
        if not uncertainty:
            del self.fields["uncertainty"]

    def planned(self) -> dict:
        values = self.cleaned_data
        return {
            "situation": values["situation"],
            "difficulty": values["difficulty"],
            "listed_hours": values.get("listed_hours"),
            "planned_hours": values.get("planned_hours"),
            "uncertainty": values.get("uncertainty") or 0,
        }
