"""The GM's forms for the campaign library: one per kind of entry, and the library file upload.

Each entry form builds the entry's data (:meth:`EntryForm.entry_data`) and lets
:func:`rules.library.check_entry` judge it in ``clean()``: the engine is the one place that knows
what a valid entry is, and its message names the place, which :meth:`EntryForm.field_for`
turns into the form field to show it on. Fields check only what a form must (a die code that
does not parse, a number that is not one) so the message can sit next to the input.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from rules import DieCode, DieCodeError
from rules.creation import skill_attribute
from rules.library import FORCE_SENSITIVITY, LibraryError, check_entry
from rules.traits import ATTRIBUTE_LABELS, ATTRIBUTES

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
"""The largest library file the upload reads (the format holds at most 5,000 entries)."""

FORCE_SENSITIVITY_LABELS = {
    "allowed": "May be Force-sensitive",
    "forbidden": "Never Force-sensitive",
    "loses_cones": "May be Force-sensitive, losing its head cones' senses (House rule, Gotals)",
}
assert set(FORCE_SENSITIVITY_LABELS) == set(FORCE_SENSITIVITY)


class DieCodeInput(forms.CharField):
    """A die code as written on a sheet (``3D+1``); the engine checks its bounds."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 12)
        super().__init__(*args, **kwargs)
        self.widget.attrs.update(
            {"autocapitalize": "characters", "placeholder": "3D+1", "class": "narrow"}
        )

    def clean(self, value: Any) -> str | None:
        value = super().clean(value)
        if not value:
            return None
        try:
            code = DieCode.parse(value)
        except DieCodeError as exc:
            raise ValidationError(f"{exc}.") from None
        if not code.is_standard:
            raise ValidationError(
                f"{value} is not a die code as written on a sheet: 0, 1 or 2 pips and no "
                f"negative dice (three pips make a die: {code.normalized()})."
            )
        return str(code)


def _text_area(rows: int = 3, **kwargs: Any) -> forms.CharField:
    return forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": rows}), strip=True, **kwargs
    )


def _number(label: str, **kwargs: Any) -> forms.IntegerField:
    field = forms.IntegerField(label=label, required=False, min_value=0, **kwargs)
    field.widget.attrs["class"] = "narrow"
    return field


class EntryForm(forms.Form):
    """What every entry form shares: name, source and notes, and checking by the engine."""

    kind = ""
    name = forms.CharField(max_length=100)
    source = forms.CharField(
        max_length=120,
        required=False,
        help_text="Where it comes from, e.g. “Galaxy Guide 4, p. 12” or “House”.",
    )
    notes = _text_area()

    field_of_place: dict[str, str] = {}
    """The form field that shows an engine refusal, by the first part of its place."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entry: dict[str, Any] | None = None

    def entry_data(self, cleaned: dict[str, Any]) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def field_for(self, where: str) -> str | None:
        head = re.split(r"[.\[]", where, maxsplit=1)[0]
        if where in self.field_of_place:
            return self.field_of_place[where]
        if head in self.field_of_place:
            return self.field_of_place[head]
        return head if head in self.fields else None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            self.entry = check_entry(self.kind, self.entry_data(cleaned))
        except LibraryError as exc:
            self.add_engine_error(exc.where, exc.detail)
        return cleaned

    def add_engine_error(self, where: str, detail: str) -> None:
        field = self.field_for(where)
        self.add_error(
            field, f"{detail[:1].upper()}{detail[1:]}." if field else f"{where}: {detail}."
        )

    @classmethod
    def initial_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "name": data.get("name", ""),
            "source": data.get("source", ""),
            "notes": data.get("notes", ""),
        }


# ---------------------------------------------------------------------------------------------
# Species
# ---------------------------------------------------------------------------------------------
class SpeciesForm(EntryForm):
    kind = "species"
    move = forms.IntegerField(min_value=1, max_value=40, initial=10, help_text="Metres per round.")
    max_move = forms.IntegerField(
        label="Maximum Move",
        min_value=1,
        max_value=40,
        required=False,
        help_text="Left empty, the same as Move.",
    )
    special_abilities = _text_area(4, help_text="As the sourcebook prints them.")
    force_sensitivity = forms.ChoiceField(
        label="Force sensitivity", choices=list(FORCE_SENSITIVITY_LABELS.items())
    )

    field_order = ["name", "source"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for attr in ATTRIBUTES:
            label = ATTRIBUTE_LABELS[attr]
            self.fields[f"{attr}_min"] = DieCodeInput(label=f"{label} minimum")
            self.fields[f"{attr}_max"] = DieCodeInput(label=f"{label} maximum")
        for name in ("move", "max_move"):
            self.fields[name].widget.attrs["class"] = "narrow"

    def limit_rows(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        return [(ATTRIBUTE_LABELS[a], self[f"{a}_min"], self[f"{a}_max"]) for a in ATTRIBUTES]

    def other_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in ("special_abilities", "force_sensitivity", "notes")]

    def field_for(self, where: str) -> str | None:
        match = re.fullmatch(r"attributes\.(\w+)\.(min|max)", where)
        if match:
            return f"{match[1]}_{match[2]}"
        if where.startswith("attributes."):
            return f"{where.split('.')[1]}_min"
        return {"move.normal": "move", "move.max": "max_move"}.get(where) or super().field_for(
            where
        )

    def entry_data(self, cleaned: dict[str, Any]) -> dict[str, Any]:
        move = cleaned["move"]
        return {
            "name": cleaned["name"],
            "source": cleaned["source"],
            "notes": cleaned["notes"],
            "attributes": {
                a: {"min": cleaned[f"{a}_min"], "max": cleaned[f"{a}_max"]} for a in ATTRIBUTES
            },
            "move": {"normal": move, "max": cleaned["max_move"] or move},
            "special_abilities": cleaned["special_abilities"],
            "force_sensitivity": cleaned["force_sensitivity"],
        }

    @classmethod
    def initial_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        initial = super().initial_from(data)
        for attr, pair in (data.get("attributes") or {}).items():
            initial[f"{attr}_min"], initial[f"{attr}_max"] = pair["min"], pair["max"]
        move = data.get("move") or {}
        initial["move"] = move.get("normal", 10)
        initial["max_move"] = move.get("max")
        initial["special_abilities"] = data.get("special_abilities", "")
        initial["force_sensitivity"] = data.get("force_sensitivity", "allowed")
        return initial


# ---------------------------------------------------------------------------------------------
# Templates
# ---------------------------------------------------------------------------------------------
SKILLS_HELP = (
    "One skill a line, as “name: code”, e.g. “blaster: 4D+1”. Write “(A)” before an advanced "
    "skill (“(A) medicine: 5D”), “(specialization of blaster)” after a specialization’s code "
    "(“blaster pistol: 5D (specialization of blaster)”), and the attribute in brackets after "
    "a skill Datapad does not know (“bowcaster: 4D (Dexterity)”). Codes are the totals on the "
    "sheet."
)
_SKILL_LINE = re.compile(r"^(?P<advanced>\(A\)\s*)?(?P<name>[^:]+?)\s*:\s*(?P<rest>.+)$", re.I)
_SPECIALIZATION = re.compile(r"^(?:specialization|specialisation|spec\.?)\s+of\s+(.+)$", re.I)


def parse_skill_lines(text: str) -> tuple[list[dict[str, Any]], list[int]]:
    """The skills of the "name: code" lines (see :data:`SKILLS_HELP`) and each one's line
    number; a ValidationError naming the line for one that cannot be read."""
    rows, line_numbers = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        match = _SKILL_LINE.match(line)
        if match is None:
            raise ValidationError(f"Line {number} (“{line[:40]}”): write it as “name: code”.")
        code, *extras = [p.strip() for p in re.split(r"[()]", match["rest"]) if p.strip()]
        row: dict[str, Any] = {"name": match["name"].strip(), "code": code}
        for extra in extras:
            base = _SPECIALIZATION.match(extra)
            if base:
                row["specialization_of"] = base[1].strip()
            elif extra.casefold() in ATTRIBUTES:
                row["attribute"] = extra.casefold()
            else:
                raise ValidationError(
                    f"Line {number}: “({extra})” is neither an attribute nor "
                    "“(specialization of …)”."
                )
        if match["advanced"]:
            row["advanced"] = True
        rows.append(row)
        line_numbers.append(number)
    return rows, line_numbers


def skill_lines(skills: list[dict[str, Any]]) -> str:
    """The skills back as the lines :func:`parse_skill_lines` reads."""
    lines = []
    for s in skills:
        line = f"{'(A) ' if s.get('advanced') else ''}{s['name']}: {s['code']}"
        if s.get("specialization_of"):
            line += f" (specialization of {s['specialization_of']})"
        elif s.get("attribute") and _needs_attribute(s["name"]):
            line += f" ({ATTRIBUTE_LABELS[s['attribute']]})"
        lines.append(line)
    return "\n".join(lines)


def _needs_attribute(name: str) -> bool:
    return skill_attribute(name) is None


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in re.split(r"[\n,]", text) if line.strip()]


class TemplateForm(EntryForm):
    kind = "template"
    species = forms.ChoiceField(
        required=False, help_text="From the library’s species; empty lets the player choose."
    )
    skills = _text_area(8, help_text=SKILLS_HELP)
    force_sensitive = forms.BooleanField(label="Force-sensitive", required=False)
    control = DieCodeInput(required=False)
    sense = DieCodeInput(required=False)
    alter = DieCodeInput(required=False)
    powers = _text_area(
        3,
        label="Force powers",
        help_text="One a line (or separated by commas), e.g. “life detection”.",
    )
    weapons = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, help_text="From the library."
    )
    armour = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, help_text="From the library."
    )
    items = _text_area(4, label="Other gear", help_text="One item a line, e.g. “2 x medpac”.")
    credits = forms.IntegerField(min_value=0, initial=0)
    background = _text_area(4)
    personality = _text_area(3)

    field_order = ["name", "source", "species"]
    field_of_place = {"force": "force_sensitive", "gear": "items"}

    def __init__(
        self,
        *args: Any,
        species: list[str] = (),  # type: ignore[assignment]
        weapons: list[str] = (),  # type: ignore[assignment]
        armour: list[str] = (),  # type: ignore[assignment]
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        initial = self.initial
        self.fields["species"].choices = [("", "The player chooses")] + [
            (n, n) for n in _with(species, [initial.get("species")])
        ]
        self.fields["weapons"].choices = [(n, n) for n in _with(weapons, initial.get("weapons"))]
        self.fields["armour"].choices = [(n, n) for n in _with(armour, initial.get("armour"))]
        for attr in ATTRIBUTES:
            self.fields[attr] = DieCodeInput(label=ATTRIBUTE_LABELS[attr])
        self.fields["credits"].widget.attrs["class"] = "narrow"
        self.skill_line_numbers: list[int] = []

    def attribute_fields(self) -> list[forms.BoundField]:
        return [self[a] for a in ATTRIBUTES]

    def force_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in ("control", "sense", "alter")]

    def clean_skills(self) -> list[dict[str, Any]]:
        rows, self.skill_line_numbers = parse_skill_lines(self.cleaned_data["skills"])
        return rows

    def field_for(self, where: str) -> str | None:
        match = re.match(r"attributes\.(\w+)", where)
        if match and match[1] in ATTRIBUTES:
            return match[1]
        if re.match(r"force\.(control|sense|alter)", where):
            return where.split(".")[1]
        if where.startswith("force.powers"):
            return "powers"
        if where.startswith("gear."):
            return {"weapons": "weapons", "armour": "armour"}.get(
                re.split(r"[.\[]", where)[1], "items"
            )
        return super().field_for(where)

    def add_engine_error(self, where: str, detail: str) -> None:
        match = re.match(r"skills\[(\d+)\]", where)
        if match and int(match[1]) < len(self.skill_line_numbers):
            line = self.skill_line_numbers[int(match[1])]
            self.add_error("skills", f"Line {line}: {detail}.")
            return
        super().add_engine_error(where, detail)

    def entry_data(self, cleaned: dict[str, Any]) -> dict[str, Any]:
        sensitive = cleaned["force_sensitive"]
        return {
            "name": cleaned["name"],
            "source": cleaned["source"],
            "notes": cleaned["notes"],
            "species": cleaned["species"],
            "attributes": {a: cleaned[a] for a in ATTRIBUTES},
            "skills": cleaned["skills"],
            "force": {
                "sensitive": sensitive,
                **{s: cleaned[s] for s in ("control", "sense", "alter")},
                "powers": _lines(cleaned["powers"]),
            },
            "gear": {
                "weapons": cleaned["weapons"],
                "armour": cleaned["armour"],
                "items": cleaned["items"],
            },
            "credits": cleaned["credits"],
            "background": cleaned["background"],
            "personality": cleaned["personality"],
        }

    @classmethod
    def initial_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        initial = super().initial_from(data)
        force = data.get("force") or {}
        gear = data.get("gear") or {}
        initial.update(
            {
                "species": data.get("species", ""),
                **(data.get("attributes") or {}),
                "skills": skill_lines(data.get("skills") or []),
                "force_sensitive": force.get("sensitive", False),
                **{s: force.get(s) for s in ("control", "sense", "alter")},
                "powers": "\n".join(force.get("powers") or []),
                "weapons": gear.get("weapons") or [],
                "armour": gear.get("armour") or [],
                "items": gear.get("items", ""),
                "credits": data.get("credits", 0),
                "background": data.get("background", ""),
                "personality": data.get("personality", ""),
            }
        )
        return initial


def _with(names: Any, extra: Any) -> list[str]:
    """The library's names, plus any the entry already holds that the library no longer has."""
    extra = [extra] if isinstance(extra, str) else list(extra or [])
    known = {n.casefold() for n in names}
    return list(names) + [n for n in extra if n and n.casefold() not in known]


# ---------------------------------------------------------------------------------------------
# Weapons, armour, gear
# ---------------------------------------------------------------------------------------------
_RANGES = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*/\s*(\d+)\s*/\s*(\d+)\s*$")
_BAND = re.compile(r"^\s*(\d+)\s*m?\s*:\s*(\S.*?)\s*$")
SCALES = [
    ("character", "Character"),
    ("speeder", "Speeder"),
    ("walker", "Walker"),
    ("starfighter", "Starfighter"),
    ("capital", "Capital"),
    ("death_star", "Death Star"),
]


class WeaponForm(EntryForm):
    kind = "weapon"
    skill = forms.CharField(max_length=100, help_text="The skill used to attack, e.g. “blaster”.")
    damage = DieCodeInput(required=False, help_text="Empty for a weapon that does blast damage.")
    adds_strength = forms.BooleanField(
        label="Damage is Strength plus this (STR+1D)", required=False
    )
    can_stun = forms.BooleanField(label="Can be set for stun", required=False)
    stun_damage = DieCodeInput(required=False, help_text="Only when it differs from the damage.")
    ranges = forms.CharField(
        required=False,
        max_length=60,
        help_text="In metres as printed, short/medium/long: “3-10/30/120”. Empty for melee.",
    )
    blast = forms.CharField(
        label="Blast radii",
        required=False,
        max_length=200,
        help_text="Radius in metres and damage, widest last: “2: 5D, 4: 4D, 6: 3D, 10: 2D”.",
    )
    ammo = _number("Ammo")
    scale = forms.ChoiceField(choices=SCALES, initial="character")
    cost = _number("Cost (credits)")
    availability = forms.CharField(max_length=100, required=False, help_text="E.g. “2, R”.")

    field_order = ["name", "source", "skill", "damage"]

    def clean_ranges(self) -> dict[str, Any] | None:
        text = self.cleaned_data["ranges"]
        if not text:
            return None
        match = _RANGES.match(text)
        if match is None:
            raise ValidationError("Write the ranges as short/medium/long in metres: “3-10/30/120”.")
        low, high, medium, long = (int(g) for g in match.groups())
        return {"short": [low, high], "medium": medium, "long": long}

    def clean_blast(self) -> list[dict[str, Any]]:
        bands = []
        for part in filter(None, (p.strip() for p in self.cleaned_data["blast"].split(","))):
            match = _BAND.match(part)
            if match is None:
                raise ValidationError(
                    f"“{part}”: write each radius as “metres: damage”, e.g. “2: 5D”."
                )
            bands.append({"radius": int(match[1]), "damage": match[2]})
        return bands

    def entry_data(self, cleaned: dict[str, Any]) -> dict[str, Any]:
        return {
            key: cleaned[key]
            for key in (
                "name",
                "source",
                "notes",
                "skill",
                "damage",
                "adds_strength",
                "stun_damage",
                "can_stun",
                "ranges",
                "blast",
                "ammo",
                "scale",
                "cost",
                "availability",
            )
        }

    @classmethod
    def initial_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        initial = super().initial_from(data)
        for key in (
            "skill",
            "damage",
            "adds_strength",
            "stun_damage",
            "can_stun",
            "ammo",
            "scale",
            "cost",
            "availability",
        ):
            initial[key] = data.get(key)
        ranges = data.get("ranges")
        if ranges:
            initial["ranges"] = (
                f"{ranges['short'][0]}-{ranges['short'][1]}/{ranges['medium']}/{ranges['long']}"
            )
        initial["blast"] = ", ".join(
            f"{b['radius']}: {b['damage']}" for b in data.get("blast") or []
        )
        return initial


class ArmourForm(EntryForm):
    kind = "armour"
    physical = DieCodeInput(initial="0D", help_text="Added to Strength against physical damage.")
    energy = DieCodeInput(initial="0D", help_text="Added to Strength against energy damage.")
    dexterity_penalty = DieCodeInput(
        label="Dexterity penalty", initial="0D", help_text="Taken off Dexterity and its skills."
    )
    covers = forms.CharField(
        required=False, max_length=300, help_text="Body parts, separated by commas: “head, torso”."
    )
    cost = _number("Cost (credits)")
    availability = forms.CharField(max_length=100, required=False, help_text="E.g. “2, R”.")

    field_order = ["name", "source", "physical", "energy", "dexterity_penalty"]

    def entry_data(self, cleaned: dict[str, Any]) -> dict[str, Any]:
        data = {k: cleaned[k] for k in ("name", "source", "notes", "cost", "availability")}
        for key in ("physical", "energy", "dexterity_penalty"):
            data[key] = cleaned[key] or "0D"
        data["covers"] = _lines(cleaned["covers"])
        return data

    @classmethod
    def initial_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        initial = super().initial_from(data)
        for key in ("physical", "energy", "dexterity_penalty", "cost", "availability"):
            initial[key] = data.get(key)
        initial["covers"] = ", ".join(data.get("covers") or [])
        return initial


class GearForm(EntryForm):
    kind = "gear"
    description = _text_area(4)
    cost = _number("Cost (credits)")
    availability = forms.CharField(max_length=100, required=False, help_text="E.g. “1”.")

    field_order = ["name", "source", "description", "cost", "availability"]

    def entry_data(self, cleaned: dict[str, Any]) -> dict[str, Any]:
        return {
            k: cleaned[k]
            for k in ("name", "source", "notes", "description", "cost", "availability")
        }

    @classmethod
    def initial_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        initial = super().initial_from(data)
        for key in ("description", "cost", "availability"):
            initial[key] = data.get(key)
        return initial


FORMS: dict[str, type[EntryForm]] = {
    "species": SpeciesForm,
    "template": TemplateForm,
    "weapon": WeaponForm,
    "armour": ArmourForm,
    "gear": GearForm,
}


# ---------------------------------------------------------------------------------------------
# The library file
# ---------------------------------------------------------------------------------------------
class LibraryImportForm(forms.Form):
    file = forms.FileField(
        label="Library file",
        help_text="A .json file exported from a Datapad library.",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    replace = forms.BooleanField(
        label="Replace existing",
        required=False,
        help_text="An entry whose kind and name the library already has is skipped unless this "
        "is ticked; ticked, the file’s entry replaces the campaign’s.",
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise ValidationError(
                f"The file is {upload.size:,} bytes; a library file is at most "
                f"{MAX_UPLOAD_BYTES:,} bytes."
            )
        raw = upload.read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError("The file is not text (UTF-8): is it a library file?") from None
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValidationError(
                f"The file is not valid JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}."
            ) from None
        except RecursionError:
            raise ValidationError("The file nests too deeply to be a library file.") from None
        except ValueError:  # a number of more than 4,300 digits, which Python will not read
            raise ValidationError(
                "The file holds a number too long to be read: is it a library file?"
            ) from None
