"""Forms for the character creation wizard, one per step. Each form turns what the user typed
into plain JSON for ``CreationDraft.data`` (:meth:`to_data`) and back (``initial``)."""

import json
import re

from django import forms
from django.core.exceptions import ValidationError

from characters.fields import DieCodeFormField
from characters.models import ATTRIBUTE_LABELS, ATTRIBUTES
from rules import DieCode, reference
from rules.creation import (
    PROPOSED_MAX_MOVE,
    PROPOSED_MAXIMUM_CEILING,
    PROPOSED_MINIMUM_FLOOR,
    STARTING_CREDITS,
    SpeciesLimits,
    attribute_budget,
    proposed_maximum_problem,
    proposed_minimum_problem,
    proposed_move_problem,
    skill_budget,
)
from rules.force import FORCE_SKILLS, force_powers
from rules.library import species_limits

CUSTOM_SPECIES = "custom"
MAX_SKILL_ROWS = 40
MAX_CREDITS = 1_000_000


def force_skill_name(name: str) -> bool:
    """Whether a skill of this name would share its name with a Force skill (any case)."""
    return name.strip().casefold() in FORCE_SKILLS


def reference_skill(name: str):
    """The reference skill of this name (or alias), or None for a name of the user's own."""
    try:
        return reference.skill(name)
    except reference.ReferenceDataError:
        return None


class LiveForm(forms.Form):
    """Every input posts the form to its step URL as the user types, and the answer replaces
    the budget and problems area (``#budget``)."""

    def __init__(self, *args, live_url: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        if live_url:
            for field in self.fields.values():
                set_live(field.widget, live_url)


def set_live(widget, url: str) -> None:
    changes = isinstance(widget, (forms.CheckboxInput, forms.Select, forms.CheckboxSelectMultiple))
    widget.attrs.update(
        {
            "hx-post": url,
            "hx-trigger": "change" if changes else "input changed delay:300ms",
            "hx-target": "#budget",
            "hx-swap": "innerHTML",
            "hx-vals": json.dumps({"_live": "1"}),
        }
    )


# ---------------------------------------------------------------------------------------------
# Start
# ---------------------------------------------------------------------------------------------
class StartForm(forms.Form):
    KIND_CHOICES = [("pc", "Player character"), ("npc", "Non-player character (GM)")]
    BUDGET_CHOICES = [
        ("12d", "The NPC budgets of attributes and skills (checked)"),
        ("free", "Free-form: no budgets checked"),
    ]

    kind = forms.ChoiceField(choices=KIND_CHOICES, initial="pc", widget=forms.RadioSelect)
    owner = forms.TypedChoiceField(
        coerce=int, label="Player", required=False, help_text="Who will play this character."
    )
    npc_budget = forms.ChoiceField(
        choices=BUDGET_CHOICES,
        initial="12d",
        label="NPC budget",
        widget=forms.RadioSelect,
        required=False,
    )
    template = forms.ChoiceField(
        label="Start from a template",
        required=False,
        help_text="Fills in species, attributes, skills, the Force, gear and background from "
        "the campaign's library; you can still change everything.",
    )

    def __init__(self, *args, membership, templates=(), **kwargs):
        """``templates``: the campaign library's character templates."""
        super().__init__(*args, **kwargs)
        self.is_gm = membership.is_gm
        self.fields["template"].choices = [("", "No template: start blank")] + [
            (t.name, t.name + (f" ({t.data['species']})" if t.data.get("species") else ""))
            for t in templates
        ]
        if not templates:
            del self.fields["template"]
        if self.is_gm:
            ruleset = membership.campaign.ruleset
            self.fields["npc_budget"].choices = [
                (
                    "12d",
                    f"{attribute_budget(ruleset=ruleset, npc=True)} of attributes, "
                    f"{skill_budget(ruleset=ruleset)} of skills (checked)",
                ),
                self.BUDGET_CHOICES[1],
            ]
            members = membership.campaign.memberships.select_related("user")
            self.fields["owner"].choices = [(m.user_id, m.user.username) for m in members]
            self.fields["owner"].initial = membership.user_id
        else:
            del self.fields["owner"]
            del self.fields["npc_budget"]
            self.fields["kind"].choices = self.KIND_CHOICES[:1]
            self.fields["kind"].widget = forms.HiddenInput()


# ---------------------------------------------------------------------------------------------
# Species
# ---------------------------------------------------------------------------------------------
def entry_limits(entry) -> SpeciesLimits | None:
    """A library species entry's attribute limits and Move (``rules.library.species_limits``),
    None when the entry has no numbers (a built-in species the sources print none for)."""
    if entry is None:
        return None
    return species_limits(entry.data)


def find_entry(entries, name):
    """The entry of this name (any case) among ``entries``, or None (custom, or not listed)."""
    if not isinstance(name, str) or not name or name == CUSTOM_SPECIES:
        return None
    folded = name.casefold()
    return next((e for e in entries if e.name.casefold() == folded), None)


def species_plural(name: str) -> str:
    """How the sources write a species in the plural (``Ewoks``), or its name."""
    try:
        return reference.species_by_name(name).plural
    except reference.ReferenceDataError:
        return name


class SpeciesForm(LiveForm):
    """The campaign library's species (built-in and the GM's): one with numbers brings its own
    limits and Move (whatever was typed); a custom species or one without numbers needs them
    entered. A GM enters any; a player's are a proposal held to the human range
    (``rules.creation.proposed_*``)."""

    species = forms.ChoiceField(label="Species", initial="Human")
    custom_name = forms.CharField(label="Custom species name", max_length=60, required=False)
    move = forms.IntegerField(label="Move", min_value=1, max_value=40, required=False)

    def __init__(self, *args, gm: bool = False, entries=(), **kwargs):
        """``entries``: the campaign library's species (``campaigns.library.entries``)."""
        super().__init__(*args, **kwargs)
        self.gm = gm
        self.entries = list(entries)
        self.fields["species"].choices = [
            (e.name, e.name if entry_limits(e) is not None else f"{e.name} (enter limits)")
            for e in self.entries
        ] + [(CUSTOM_SPECIES, "Custom species (enter limits)")]
        for a in ATTRIBUTES:
            label = ATTRIBUTE_LABELS[a]
            self.fields[f"{a}_min"] = DieCodeFormField(label=f"{label} minimum", required=False)
            self.fields[f"{a}_max"] = DieCodeFormField(label=f"{label} maximum", required=False)
        if not gm:
            move = self.fields["move"]
            move.help_text = f"At most {PROPOSED_MAX_MOVE}, the human Move, unless your GM sets it."
            move.widget.attrs["max"] = PROPOSED_MAX_MOVE
        url = self.fields["move"].widget.attrs.get("hx-post")
        if url:
            for a in ATTRIBUTES:
                set_live(self.fields[f"{a}_min"].widget, url)
                set_live(self.fields[f"{a}_max"].widget, url)
            # Another species brings other numbers: redraw them (and the budget, out of band).
            self.fields["species"].widget.attrs.update(
                {
                    "hx-target": "#species-details",
                    "hx-vals": json.dumps({"_live": "1", "_part": "species-details"}),
                }
            )

    # What the template shows for the chosen species ------------------------------------------
    def chosen(self) -> str:
        return self["species"].value() or ""

    def is_custom(self) -> bool:
        return self.chosen() == CUSTOM_SPECIES

    def entry(self):
        return find_entry(self.entries, self.chosen())

    def statistics(self) -> dict | None:
        """The chosen species' numbers from the library: name, limit rows, Move, its maximum,
        special abilities and source; None when it has none (they are entered here)."""
        entry = self.entry()
        limits = entry_limits(entry)
        if limits is None:
            return None
        move = entry.data.get("move") or {}
        return {
            "name": entry.name,
            "rows": [(ATTRIBUTE_LABELS[a], str(lo), str(hi)) for a, lo, hi in limits.limits],
            "move": limits.move,
            "max_move": move.get("max") if isinstance(move, dict) else None,
            "builtin": entry.builtin,
        }

    def special_abilities(self) -> str:
        entry = self.entry()
        return (entry.data.get("special_abilities") or "") if entry is not None else ""

    def limits_help(self) -> str:
        entry = self.entry()
        if entry is not None:
            text = (
                f"The sources print no limits for {species_plural(entry.name)}: enter them "
                "from the species' sourcebook entry, or ask your GM to add them to the "
                "campaign's library."
            )
        else:
            text = "Enter the custom species' attribute limits and Move."
        if self.gm:
            return f"{text} As a game master you may set any limits."
        return (
            f"{text} As a player you propose them within the human range: each minimum "
            f"{PROPOSED_MINIMUM_FLOOR} or more, each maximum {PROPOSED_MAXIMUM_CEILING} or less, "
            f"Move {PROPOSED_MAX_MOVE} or less; your GM checks them. Wider limits are the GM's to "
            "set: ask your GM to add the species to the campaign's library."
        )

    def limit_rows(self):
        return [(ATTRIBUTE_LABELS[a], self[f"{a}_min"], self[f"{a}_max"]) for a in ATTRIBUTES]

    # Checking -------------------------------------------------------------------------------
    def clean(self):
        data = super().clean()
        choice = data.get("species")
        if not choice:
            return data
        entry = find_entry(self.entries, choice)
        known = entry_limits(entry)
        if known is not None:
            data["limits"] = {a: [str(lo), str(hi)] for a, lo, hi in known.limits}
            data["name"] = entry.name
            data["move"] = known.move  # the species' own Move, never one typed for another
            return data
        if choice == CUSTOM_SPECIES and not (data.get("custom_name") or "").strip():
            self.add_error("custom_name", ValidationError("Name the custom species.", "required"))
        limits = {}
        for a in ATTRIBUTES:
            lo, hi = data.get(f"{a}_min"), data.get(f"{a}_max")
            label = ATTRIBUTE_LABELS[a]
            self._check_end(f"{a}_min", lo, f"Enter the {label} minimum for this species.")
            self._check_end(f"{a}_max", hi, f"Enter the {label} maximum for this species.")
            if lo is not None and not self.gm:
                self._refuse(f"{a}_min", proposed_minimum_problem(label, lo))
            if hi is not None and not self.gm:
                self._refuse(f"{a}_max", proposed_maximum_problem(label, hi))
            if lo is not None and hi is not None and hi < lo:
                self.add_error(f"{a}_max", f"{label} maximum {hi} is below its minimum {lo}.")
            if f"{a}_min" not in self.errors and f"{a}_max" not in self.errors:
                limits[a] = [str(lo), str(hi)]
        move = data.get("move")
        self._check_end("move", move, "Enter the species' Move.")
        if move is not None and not self.gm:
            self._refuse("move", proposed_move_problem(move))
        data["limits"] = limits
        if entry is not None:
            data["name"] = entry.name
        else:
            data["name"] = (data.get("custom_name") or "").strip() or choice
        return data

    def _check_end(self, name: str, value, message: str) -> None:
        if value is None and name not in self.errors:
            self.add_error(name, ValidationError(message, "required"))

    def _refuse(self, name: str, problem: str | None) -> None:
        if problem:
            self.add_error(name, f"{problem}.")

    def to_data(self) -> dict:
        d = self.cleaned_data
        return {
            "choice": d.get("species", ""),
            "name": d.get("name", ""),
            "limits": d.get("limits", {}),
            "move": d.get("move"),
        }

    @staticmethod
    def initial_from(saved: dict, entries=()) -> dict:
        """The saved choice, and the limits and Move entered for it when the library gives it
        none (a species with numbers shows its own: nothing to fill in). A saved choice the
        library no longer lists comes back as a custom species with what was entered."""
        choice = saved.get("choice", "Human")
        entry = find_entry(entries, choice)
        if choice != CUSTOM_SPECIES and entry is None and choice:
            initial = {"species": CUSTOM_SPECIES, "custom_name": saved.get("name") or choice}
        else:
            initial = {"species": entry.name if entry is not None else choice}
        if choice == CUSTOM_SPECIES:
            initial["custom_name"] = saved.get("name", "")
        if entry_limits(entry) is None:
            initial["move"] = saved.get("move")
            for a, (lo, hi) in (saved.get("limits") or {}).items():
                initial[f"{a}_min"], initial[f"{a}_max"] = lo, hi
        return initial


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------
class AttributesForm(LiveForm):
    def __init__(self, *args, limits=None, species: str = "", **kwargs):
        """``limits``: the species' ``SpeciesLimits``, or None while they are not entered."""
        url = kwargs.get("live_url", "")
        super().__init__(*args, **kwargs)
        for a in ATTRIBUTES:
            self.fields[a] = DieCodeFormField(label=ATTRIBUTE_LABELS[a])
            if limits is not None:
                lo, hi = limits.range_of(a)
                self.fields[a].help_text = f"{limits.name}: {lo} to {hi}"
            elif species:
                self.fields[a].help_text = f"{species}: limits not entered yet (Species step)"
            if url:
                set_live(self.fields[a].widget, url)

    def to_data(self) -> dict:
        return {a: str(self.cleaned_data[a]) for a in ATTRIBUTES if self.cleaned_data.get(a)}


# ---------------------------------------------------------------------------------------------
# Skills
# ---------------------------------------------------------------------------------------------
class NumberedRowForm(forms.Form):
    """One row of a repeated group (skill 3, item 2): each input labelled with its row number
    for screen readers and, with ``live_url``, checked as the user types."""

    def __init__(self, *args, row: int = 1, live_url: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.row = row
        for field in self.fields.values():
            field.widget.attrs["aria-label"] = f"{field.label} {row}"
            if live_url:
                set_live(field.widget, live_url)


class SkillRowForm(NumberedRowForm):
    name = forms.CharField(label="Skill", max_length=80, required=False)
    attribute = forms.ChoiceField(
        label="Attribute",
        required=False,
        choices=[("", "(from list)")] + [(a, ATTRIBUTE_LABELS[a]) for a in ATTRIBUTES],
    )
    specialization_of = forms.CharField(label="Specialization of", max_length=80, required=False)
    code = DieCodeFormField(label="Code", required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["list"] = "skill-list"
        self.fields["specialization_of"].widget.attrs["list"] = "skill-list"
        self.fields["specialization_of"].widget.attrs["placeholder"] = "blank if not"

    def clean(self):
        data = super().clean()
        name = (data.get("name") or "").strip()
        data["name"] = name
        spec_of = (data.get("specialization_of") or "").strip()
        data["specialization_of"] = spec_of
        if not name:
            if data.get("code") is not None:
                self.add_error("name", "Name the skill for this code.")
            return data
        if data.get("code") is None and "code" not in self.errors:
            self.add_error("code", f"Give {name} its code (the full code you roll).")
        known = reference_skill(name)
        if force_skill_name(name) or (known is not None and known.is_force_skill):
            # Not even as a specialization or a skill of one's own: the sheet keeps one skill
            # of a name, and the Force skill of that name may come now or later.
            self.add_error(
                "name",
                f"{name} is the name of a Force skill; Force skills are chosen on the Force "
                "step. Give this skill another name.",
            )
            return data
        if known is not None and not spec_of:
            data["name"] = known.name
            data["attribute"] = known.attribute
            data["advanced"] = known.advanced
        elif spec_of:
            base = reference_skill(spec_of)
            if base is not None and not base.is_force_skill:
                data["specialization_of"] = base.name
                data["attribute"] = data.get("attribute") or base.attribute
        if not data.get("attribute"):
            self.add_error("attribute", f"Choose the attribute {name} belongs to.")
        return data

    def to_row(self) -> dict | None:
        d = self.cleaned_data
        if not d.get("name") or d.get("code") is None:
            return None
        return {
            "name": d["name"],
            "attribute": d.get("attribute") or "",
            "specialization_of": d.get("specialization_of") or "",
            "advanced": bool(d.get("advanced")),
            "code": str(d["code"]),
        }


class BaseSkillFormSet(forms.BaseFormSet):
    def __init__(self, *args, live_url: str = "", **kwargs):
        self.live_url = live_url
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index):
        return {"row": (index or 0) + 1, "live_url": self.live_url}

    def clean(self):
        if any(self.errors):
            return
        seen = set()
        for form in self.forms:
            name = form.cleaned_data.get("name", "").casefold()
            if not name:
                continue
            if name in seen:
                form.add_error("name", f"{form.cleaned_data['name']} is already in the list.")
            seen.add(name)

    def to_data(self) -> list[dict]:
        rows = []
        for form in self.forms:
            if form.is_valid():
                row = form.to_row()
                if row:
                    rows.append(row)
        return rows


SkillFormSet = forms.formset_factory(
    SkillRowForm, formset=BaseSkillFormSet, extra=0, max_num=MAX_SKILL_ROWS, validate_max=True
)


def skill_rows_from_post(post) -> list[dict]:
    """The rows as typed (not validated), to redraw the list after adding or removing a row."""
    try:
        total = min(int(post.get("skills-TOTAL_FORMS", 0)), MAX_SKILL_ROWS)
    except ValueError:
        total = 0
    keys = ("name", "attribute", "specialization_of", "code")
    return [{k: post.get(f"skills-{i}-{k}", "") for k in keys} for i in range(total)]


# ---------------------------------------------------------------------------------------------
# The Force
# ---------------------------------------------------------------------------------------------
class ForceForm(LiveForm):
    force_sensitive = forms.BooleanField(label="Force-sensitive", required=False)
    control = DieCodeFormField(label="Control", required=False)
    sense = DieCodeFormField(label="Sense", required=False)
    alter = DieCodeFormField(label="Alter", required=False)
    powers = forms.MultipleChoiceField(
        label="Force powers", required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["powers"].choices = [
            (p.name, f"{p.name} ({', '.join(p.skills) or 'no skill'})") for p in force_powers()
        ]

    def clean(self):
        data = super().clean()
        chosen = any(data.get(s) for s in FORCE_SKILLS) or data.get("powers")
        if chosen and not data.get("force_sensitive"):
            raise ValidationError(
                "Only a Force-sensitive character may have Force skills or powers; tick "
                "Force-sensitive or clear them."
            )
        return data

    def to_data(self) -> dict:
        d = self.cleaned_data
        return {
            "sensitive": bool(d.get("force_sensitive")),
            **{s: str(d[s]) for s in FORCE_SKILLS if d.get(s)},
            "powers": list(d.get("powers") or []),
        }

    @staticmethod
    def initial_from(saved: dict) -> dict:
        return {
            "force_sensitive": saved.get("sensitive", False),
            **{s: saved.get(s, "") for s in FORCE_SKILLS},
            "powers": saved.get("powers", []),
        }


# ---------------------------------------------------------------------------------------------
# Gear
# ---------------------------------------------------------------------------------------------
ITEM_LINE = re.compile(r"^\s*(?:(\d{1,3})\s*[x×]\s+)?(.+?)\s*$", re.I)


def parse_item_lines(text: str) -> list[dict]:
    """One item a line, with an optional count in front: ``2 x medpac``."""
    items = []
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        match = ITEM_LINE.match(line)
        count, name = match.group(1), match.group(2)
        items.append({"name": name[:100], "quantity": max(1, min(int(count or 1), 999))})
    return items


def damage_text(data: dict) -> str:
    """A library weapon's damage as printed: ``4D``, ``STR+1D``, ``STR``, the blast bands
    ``10D/8D/5D/2D``, or ``—``."""
    blast = data.get("blast") or []
    if blast:
        return "/".join(str(band.get("damage")) for band in blast)
    damage = data.get("damage")
    if not damage:
        return "—"
    if data.get("adds_strength"):
        code = DieCode.parse(damage)
        return "STR" if not code else f"STR{code.signed()}"
    return str(damage)


def ranges_text(data: dict) -> str:
    """A library weapon's range bands as printed, ``3-10/30/120``, or empty."""
    ranges = data.get("ranges")
    if not isinstance(ranges, dict):
        return ""
    try:
        (low, high), medium, long = ranges["short"], ranges["medium"], ranges["long"]
    except (KeyError, TypeError, ValueError):
        return ""
    return f"{low}-{high}/{medium}/{long}"


def weapon_label(entry) -> str:
    cost = entry.data.get("cost")
    return f"{entry.name} — {damage_text(entry.data)}" + (f", {cost} cr" if cost else "")


def armour_label(entry) -> str:
    d = entry.data
    return (
        f"{entry.name} — +{d.get('physical') or '0D'} physical, +{d.get('energy') or '0D'} energy"
    )


class GearForm(LiveForm):
    weapons = forms.MultipleChoiceField(
        label="Weapons", required=False, widget=forms.CheckboxSelectMultiple
    )
    armour = forms.MultipleChoiceField(
        label="Armour", required=False, widget=forms.CheckboxSelectMultiple
    )
    items = forms.CharField(
        label="Other equipment",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One item a line; put a count in front for several, e.g. “2 x medpac”.",
    )
    credits = forms.IntegerField(
        label="Starting credits",
        min_value=0,
        max_value=MAX_CREDITS,
        initial=STARTING_CREDITS,
        help_text="Cash in hand after buying the gear, as your GM allows.",
    )

    def __init__(self, *args, credit_cap: int | None = None, weapons=(), armour=(), **kwargs):
        """``credit_cap``: the most a player may take (None for a game master); ``weapons``
        and ``armour``: the campaign library's entries (``campaigns.library.entries``)."""
        super().__init__(*args, **kwargs)
        self.credit_cap = credit_cap
        if credit_cap is not None:
            self.fields["credits"].help_text = (
                f"Cash in hand after buying the gear: at most {credit_cap:,} at the start; "
                "your GM can award more through the ledger."
            )
            self.fields["credits"].widget.attrs["max"] = credit_cap
        self.fields["weapons"].choices = [(e.name, weapon_label(e)) for e in weapons]
        self.fields["armour"].choices = [(e.name, armour_label(e)) for e in armour]

    def clean_credits(self):
        credits = self.cleaned_data.get("credits")
        if self.credit_cap is not None and credits is not None and credits > self.credit_cap:
            raise ValidationError(
                f"A player's character takes at most {self.credit_cap:,} starting credits; "
                "the GM can award more through the ledger."
            )
        return credits

    def clean_items(self):
        items = parse_item_lines(self.cleaned_data.get("items", ""))
        if len(items) > 50:
            raise ValidationError("At most 50 lines of equipment; group small things together.")
        return self.cleaned_data.get("items", "")

    def to_data(self) -> dict:
        d = self.cleaned_data
        return {
            "weapons": list(d.get("weapons") or []),
            "armour": list(d.get("armour") or []),
            "items": d.get("items", ""),
            "credits": d.get("credits") if d.get("credits") is not None else 0,
        }


# ---------------------------------------------------------------------------------------------
# Background
# ---------------------------------------------------------------------------------------------
class BackgroundForm(LiveForm):
    name = forms.CharField(label="Name", max_length=100)
    gender = forms.CharField(label="Gender", max_length=30, required=False)
    age = forms.CharField(label="Age", max_length=30, required=False)
    height = forms.CharField(label="Height", max_length=30, required=False)
    background = forms.CharField(
        label="Background", required=False, widget=forms.Textarea(attrs={"rows": 4})
    )
    personality = forms.CharField(
        label="Personality", required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    secret = forms.BooleanField(
        label="Secret NPC", required=False, help_text="Hidden from the players."
    )
    background_cp = forms.IntegerField(
        label="Background Character Points",
        required=False,
        min_value=0,
        max_value=20,
        help_text="House Rules: 5 to 20 CP for a detailed background, as the GM agrees.",
    )
    dark_side_points = forms.IntegerField(
        label="Dark Side Points taken",
        required=False,
        min_value=0,
        max_value=5,
        help_text="House Rules: +10 CP each, at most 5; explain each in the background.",
    )

    def __init__(self, *args, npc: bool = False, house: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if not npc:
            del self.fields["secret"]
        if not house:
            del self.fields["background_cp"]
            del self.fields["dark_side_points"]

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise ValidationError("Give the character a name.")
        return name

    def to_data(self) -> dict:
        d = self.cleaned_data
        keys = ("name", "gender", "age", "height", "background", "personality")
        data = {k: (d.get(k) or "").strip() for k in keys}
        data["secret"] = bool(d.get("secret"))
        data["background_cp"] = d.get("background_cp") or 0
        data["dark_side_points"] = d.get("dark_side_points") or 0
        return data
