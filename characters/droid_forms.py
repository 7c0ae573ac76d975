"""Forms of the droid builder (:mod:`characters.droid_builder`): who the droid is for, its
name and model, attributes, speed code and armour (:class:`DroidForm`), and its skills and
equipment, a row each (:data:`DroidSkillFormSet`, :data:`DroidItemFormSet`). Every input posts
the form as the user types (``set_live``) and the answer redraws the building-dice budget.

Die codes are read as written (``3D+1``, ``-1D``): what the building-dice rules refuse (pips,
negative armour, an attribute below 1D…) is said by the engine, :func:`rules.droids.check_droid`,
in the budget's problems."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from characters.forms_wizard import NumberedRowForm, set_live
from characters.models import ATTRIBUTE_LABELS, ATTRIBUTES, Character, Item, Skill
from rules import DieCode, DieCodeError, reference
from rules.droids import load_droid_templates

MAX_ROWS = 40
"""Skill rows and equipment rows a design may have (a formset posting more is refused)."""
TEMPLATE_CHOICES = [("", "Nothing: a blank droid")] + [
    (key, design.name) for key, design in load_droid_templates().items()
]
CODE_LENGTH = 12


class BuildCodeField(forms.CharField):
    """A die code as typed. Negative codes pass (the engine says why a droid cannot have
    them); three or more pips are refused here, as on any sheet."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.widget.attrs.update(
            {
                "maxlength": CODE_LENGTH,
                "inputmode": "text",
                "autocapitalize": "characters",
                "size": 6,
                "spellcheck": "false",
            }
        )

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        if len(value) > CODE_LENGTH:
            raise ValidationError(f"A die code is at most {CODE_LENGTH} characters, like 4D+2.")
        try:
            code = DieCode.parse(value)
        except DieCodeError as exc:
            raise ValidationError(str(exc)) from None
        if code.total_pips >= 0 and not code.is_standard:
            raise ValidationError(
                f"{code} has {code.pips} pips; a die code has 0, 1 or 2 pips (three pips make a "
                f"die, so write {code.normalized()})."
            )
        return code


class DroidForm(forms.Form):
    """The droid itself. A GM chooses a player's droid (and whose) or an NPC droid; a player
    builds his own player-character droid, so he sees neither choice."""

    KIND_CHOICES = [
        ("pc", "A player's droid (65D of building dice)"),
        ("npc", "An NPC droid (35D)"),
    ]

    kind = forms.ChoiceField(
        label="Whose droid?", choices=KIND_CHOICES, initial="pc", widget=forms.RadioSelect
    )
    owner = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        label="Player",
        required=False,
        help_text="Who plays this droid (a player's droid).",
    )
    secret = forms.BooleanField(
        label="Secret NPC (hidden from the players)", required=False, initial=False
    )
    name = forms.CharField(
        label="Name",
        max_length=Character._meta.get_field("name").max_length,
        help_text="Letters and numbers, one part the model: R2-D2, 2-1B, K-9X.",
    )
    model = forms.CharField(
        label="Model",
        max_length=Character._meta.get_field("species").max_length,
        required=False,
        help_text="Shown where a sheet shows the species; blank: Droid.",
    )
    speed = BuildCodeField(
        label="Speed code",
        required=False,
        help_text="Blank: the same as Dexterity (free). Each 1D above Dexterity costs 3D.",
    )
    armor = BuildCodeField(
        label="Armour", initial="0D", help_text="Each +1D of armour costs 3D; 0D for none."
    )

    def __init__(self, *args, membership, live_url: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        for a in ATTRIBUTES:
            self.fields[a] = BuildCodeField(label=ATTRIBUTE_LABELS[a], initial="1D")
        self.fields["speed"] = self.fields.pop("speed")
        self.fields["armor"] = self.fields.pop("armor")
        self.is_gm = membership.is_gm
        if self.is_gm:
            members = membership.campaign.memberships.select_related("user").order_by("pk")
            self.fields["owner"].choices = [(m.user_id, m.user.username) for m in members]
            self.fields["owner"].initial = membership.user_id
        else:
            for name in ("owner", "secret"):
                del self.fields[name]
            self.fields["kind"].choices = self.KIND_CHOICES[:1]
            self.fields["kind"].widget = forms.HiddenInput()
        if live_url:
            for field in self.fields.values():
                set_live(field.widget, live_url)
            self.fields["kind"].widget.attrs["hx-trigger"] = "change"  # radios: every change

    @property
    def attribute_fields(self):
        return [self[a] for a in ATTRIBUTES]


class SkillRowForm(NumberedRowForm):
    name = forms.CharField(
        label="Skill", max_length=Skill._meta.get_field("name").max_length, required=False
    )
    attribute = forms.ChoiceField(
        label="Attribute",
        required=False,
        choices=[("", "(from the skill list)")] + [(a, ATTRIBUTE_LABELS[a]) for a in ATTRIBUTES],
    )
    code = BuildCodeField(label="Code", required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs.update(list="skill-list", placeholder="Skill")
        self.fields["code"].widget.attrs["placeholder"] = "e.g. 5D"

    def clean(self):
        data = super().clean()
        name = (data.get("name") or "").strip()
        data["name"] = name
        if not name:
            if data.get("code") is not None:
                self.add_error("name", "Name the skill for this code.")
            return data
        if data.get("code") is None and "code" not in self.errors:
            self.add_error("code", f"Give {name} its code (the full code rolled, e.g. 5D).")
        if not data.get("attribute"):
            try:
                data["attribute"] = reference.skill(name).attribute
            except reference.ReferenceDataError:
                self.add_error("attribute", f"Choose the attribute {name} belongs to.")
        return data


class ItemRowForm(NumberedRowForm):
    name = forms.CharField(
        label="Item", max_length=Item._meta.get_field("name").max_length, required=False
    )
    quantity = forms.IntegerField(
        label="How many", min_value=1, max_value=99, initial=1, required=False
    )
    features = forms.IntegerField(
        label="Extra features", min_value=0, max_value=99, initial=0, required=False
    )
    vision = forms.BooleanField(label="Gives vision", required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["placeholder"] = "Item, e.g. photoreceptors"

    def clean(self):
        data = super().clean()
        data["name"] = (data.get("name") or "").strip()
        if data.get("quantity") is None and "quantity" not in self.errors:
            data["quantity"] = 1
        if data.get("features") is None and "features" not in self.errors:
            data["features"] = 0
        return data


class BaseRows(forms.BaseFormSet):
    def __init__(self, *args, live_url: str = "", **kwargs):
        self.live_url = live_url
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index):
        return {"row": (index or 0) + 1, "live_url": self.live_url}

    def raw_rows(self) -> list[dict]:
        """What each row holds as typed (to redraw the rows after one is added or removed)."""
        rows = []
        for form in self.forms:
            rows.append({name: form[name].value() for name in form.fields})
        return rows


def _rows(form_class):
    return forms.formset_factory(
        form_class,
        formset=BaseRows,
        extra=0,
        max_num=MAX_ROWS,
        absolute_max=MAX_ROWS,
        validate_max=True,
    )


DroidSkillFormSet = _rows(SkillRowForm)
DroidItemFormSet = _rows(ItemRowForm)
