"""Forms for ships and vehicles: adding a catalogue craft, the GM's own stat block (and
editing one), crewing, recording a hit, asking for and resolving a repair."""

import dataclasses

from django import forms
from django.core.exceptions import ValidationError

from characters.fields import DieCodeFormField
from rules import RulesError
from rules.craft import PILOTING_SKILLS, CraftError, CraftStats, CraftWeapon
from rules.dice import DieCode
from rules.scale import Scale

KINDS = [("starship", "Starship"), ("vehicle", "Vehicle"), ("capital", "Capital ship")]
SCALES = [(s.key, s.key.replace("_", " ").capitalize()) for s in Scale]
MAX_WEAPONS = 20


def owner_choices(characters) -> list[tuple[str, str]]:
    """ "Nobody", "The party", then one choice per character ("c<id>")."""
    return [("", "Nobody yet"), ("party", "The party")] + [(f"c{c.pk}", c.name) for c in characters]


class OwnerField(forms.ChoiceField):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label", "Owned by")
        kwargs.setdefault("required", False)
        super().__init__(*args, **kwargs)


class CatalogueAddForm(forms.Form):
    catalogue = forms.ChoiceField(label="From the catalogue")
    name = forms.CharField(
        max_length=100, required=False, label="Name", help_text="Blank: the catalogue's name."
    )
    owner = OwnerField()

    def __init__(self, *args, catalogue=(), characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["catalogue"].choices = [(n, n) for n in catalogue]
        self.fields["owner"].choices = owner_choices(characters)


def _parse_weapon(line: str, number: int) -> CraftWeapon:
    """``name | fire control | damage | arc | range | crew`` (the last three optional)."""
    parts = [p.strip() for p in line.split("|")]
    if len(parts) < 3 or len(parts) > 6:
        raise ValidationError(
            f"Weapon line {number}: write name | fire control | damage, then optionally "
            "| arc | range | crew."
        )
    parts += [""] * (6 - len(parts))
    name, fire, damage, arc, reach, crew = parts
    if len(name) > 100 or len(arc) > 40 or len(reach) > 40:
        raise ValidationError(f"Weapon line {number}: a name, arc or range is too long.")
    try:
        fire_code = DieCode.parse(fire or "0D")
        damage_code = DieCode.parse(damage) if damage else None
        crew_count = int(crew) if crew else None
    except (RulesError, ValueError):
        raise ValidationError(
            f"Weapon line {number}: fire control and damage are die codes (2D, 5D+1), "
            "crew a whole number."
        ) from None
    if (
        fire_code.dice < 0
        or fire_code.pips < 0
        or (damage_code is not None and (damage_code.dice < 0 or damage_code.pips < 0))
    ):
        raise ValidationError(f"Weapon line {number}: codes cannot be negative.")
    try:
        return CraftWeapon(
            name,
            fire_control=fire_code,
            damage=damage_code,
            arc=arc or None,
            range_text=reach,
            crew=crew_count,
        )
    except CraftError as exc:
        raise ValidationError(f"Weapon line {number}: {exc}.") from None


def _code_field(label: str, **kwargs) -> DieCodeFormField:
    return DieCodeFormField(label=label, required=False, **kwargs)


def _count(label: str, maximum: int = 1_000_000) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=False, min_value=0, max_value=maximum)


def _text(label: str, length: int = 60, **kwargs) -> forms.CharField:
    return forms.CharField(label=label, required=False, max_length=length, **kwargs)


class StatBlockForm(forms.Form):
    """The GM's own craft: a stat block, checked by the engine (rules.craft.CraftStats)."""

    name = forms.CharField(max_length=100)
    craft_type = _text("Craft (type/model)", 100)
    kind = forms.ChoiceField(choices=KINDS)
    scale = forms.ChoiceField(choices=SCALES, initial="starfighter")
    piloting_skill = forms.ChoiceField(
        choices=[("", "By kind and scale")] + [(s, s.capitalize()) for s in PILOTING_SKILLS],
        required=False,
        label="Piloting skill",
    )
    crew = _count("Crew")
    crew_skill = _text("Crew skill", 100, help_text="e.g. space transports 4D")
    passengers = _count("Passengers")
    cargo = _text("Cargo capacity")
    consumables = _text("Consumables")
    hyperdrive = forms.FloatField(
        label="Hyperdrive multiplier", required=False, min_value=0.1, max_value=100
    )
    backup_hyperdrive = forms.FloatField(
        label="Backup hyperdrive", required=False, min_value=0.1, max_value=100
    )
    nav_computer = forms.NullBooleanField(label="Nav computer", required=False)
    maneuverability = _code_field("Maneuverability")
    space = _count("Space", 100)
    atmosphere_move = _count("Atmosphere Move", 10_000)
    atmosphere_kmh = _count("Atmosphere km/h", 100_000)
    move = _count("Move (vehicles)", 10_000)
    kmh = _count("km/h (vehicles)", 100_000)
    hull = _code_field("Hull / body strength")
    shields = _code_field("Shields")
    sensors = _text("Sensors", 200)
    weapons = forms.CharField(
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One per line: name | fire control | damage | arc | range | crew "
        "(e.g. Quad laser cannon | 2D | 6D | turret | 1-3/12/25 | 1).",
    )
    value = forms.IntegerField(
        label="Original value (credits)",
        required=False,
        min_value=0,
        max_value=10**15,
        help_text="Repairs cost a share of it.",
    )
    owner = OwnerField()
    notes = forms.CharField(
        required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["owner"].choices = owner_choices(characters)
        self.stats: CraftStats | None = None

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        lines = [line for line in (data.get("weapons") or "").splitlines() if line.strip()]
        if len(lines) > MAX_WEAPONS:
            raise ValidationError(f"At most {MAX_WEAPONS} weapon lines.")
        weapons = tuple(_parse_weapon(line, n) for n, line in enumerate(lines, 1))
        values = {
            k: data.get(k)
            for k in (
                "maneuverability",
                "hull",
                "shields",
                "space",
                "move",
                "kmh",
                "hyperdrive",
                "backup_hyperdrive",
                "nav_computer",
                "crew",
                "passengers",
                "atmosphere_move",
                "atmosphere_kmh",
            )
        }
        texts = {
            k: data.get(k) or ""
            for k in (
                "craft_type",
                "crew_skill",
                "cargo",
                "consumables",
                "sensors",
                "piloting_skill",
            )
        }
        try:
            self.stats = CraftStats(
                name=data["name"].strip(),
                kind=data["kind"],
                scale=Scale.parse(data["scale"]),
                weapons=weapons,
                **values,
                **texts,
            )
        except RulesError as exc:
            raise ValidationError(str(exc)) from None
        return data


#: The stat block's fields the form edits; the others (sublight, Star Warriors codes, the
#: catalogue's source) are kept as they are.
EDITED_STATS = (
    "name",
    "craft_type",
    "kind",
    "scale",
    "piloting_skill",
    "crew",
    "crew_skill",
    "passengers",
    "cargo",
    "consumables",
    "hyperdrive",
    "backup_hyperdrive",
    "nav_computer",
    "maneuverability",
    "space",
    "atmosphere_move",
    "atmosphere_kmh",
    "move",
    "kmh",
    "hull",
    "shields",
    "sensors",
)


def weapon_line(weapon: CraftWeapon) -> str:
    crew = "" if weapon.crew is None else str(weapon.crew)
    damage = "" if weapon.damage is None else str(weapon.damage)
    parts = [
        weapon.name,
        str(weapon.fire_control),
        damage,
        weapon.arc or "",
        weapon.range_text,
        crew,
    ]
    while len(parts) > 3 and not parts[-1]:
        parts.pop()
    return " | ".join(parts)


def weapons_text(stats: CraftStats) -> str:
    return "\n".join(weapon_line(w) for w in stats.weapons)


class CraftEditForm(StatBlockForm):
    """The GM edits a craft's stat block: the fields of the new-craft form, filled in. Weapons
    left as shown keep everything the catalogue knows of them (count, ranges, scale); the
    result is read back with ``CraftStats.from_json``, the engine's own check."""

    def __init__(self, *args, craft, **kwargs):
        stats = craft.stat_block
        initial = {}
        for name in EDITED_STATS:
            value = getattr(stats, name)
            if isinstance(value, DieCode):
                value = str(value)
            elif isinstance(value, Scale):
                value = value.key
            initial[name] = value
        owner = (
            "party"
            if craft.party
            else (f"c{craft.owner_character_id}" if craft.owner_character_id else "")
        )
        initial |= {
            "name": craft.name,
            "weapons": weapons_text(stats),
            "value": craft.value,
            "owner": owner,
            "notes": craft.notes,
        }
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        self.original = stats

    def clean(self):
        data = super().clean()
        if self.stats is None:
            return data
        changes = {name: getattr(self.stats, name) for name in EDITED_STATS if name != "name"}
        same_weapons = (data.get("weapons") or "").strip().replace("\r\n", "\n") == weapons_text(
            self.original
        )
        changes["weapons"] = self.original.weapons if same_weapons else self.stats.weapons
        try:
            edited = dataclasses.replace(self.original, **changes)
            self.stats = CraftStats.from_json(edited.to_json())
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            self.stats = None
            raise ValidationError(f"Not a stat block: {exc}") from None
        return data


class RecordHitForm(forms.Form):
    """The GM's record of a hit outside an encounter: the two totals rolled at the table."""

    damage_roll = forms.IntegerField(label="Damage roll total", min_value=0, max_value=1000)
    resist_roll = forms.IntegerField(
        label="Hull roll total",
        min_value=0,
        max_value=1000,
        help_text="Body strength for a vehicle.",
    )
    ion = forms.BooleanField(label="Ion weapon", required=False)
    shields_in_use = forms.BooleanField(
        label="Shields in use",
        required=False,
        help_text="Rules Companion: a light result takes a shield die instead of ionizing.",
    )

    def __init__(self, *args, rc=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not rc:  # Second Edition: shield dice left are read from the craft
            del self.fields["shields_in_use"]


class ClearDamageForm(forms.Form):
    entry = forms.CharField(max_length=20, required=False)


REPAIR_HIRED = [
    ("1", "The crew's own work"),
    ("2", "Hired: double cost"),
    ("3", "Hired: triple cost"),
]


class RepairRequestForm(forms.Form):
    entry = forms.ChoiceField(label="Repair")
    hired = forms.TypedChoiceField(
        label="Who does the work", choices=REPAIR_HIRED, coerce=int, initial="1"
    )
    payer = forms.ChoiceField(label="Paid by", required=False)
    weapon_value = forms.IntegerField(
        label="Weapon's original cost (credits)",
        required=False,
        min_value=0,
        max_value=10**12,
        help_text="Only for a weapon: its repair is a share of the weapon's cost.",
    )
    cost = forms.IntegerField(
        label="Cost set by the GM (credits)",
        required=False,
        min_value=0,
        max_value=10**12,
        help_text="Only for a hyperdrive: the sources give no cost.",
    )

    def __init__(self, *args, entries=(), payers=(), gm=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [(e.key, e.text) for e in entries]
        self.fields["payer"].choices = [("", "Nobody (free)")] + [
            (str(c.pk), c.name) for c in payers
        ]
        systems = {e.system for e in entries}
        if not gm or (entries and "hyperdrive" not in systems):
            del self.fields["cost"]
        if entries and "weapon" not in systems:
            del self.fields["weapon_value"]


class ResolveRepairForm(forms.Form):
    difficulty = forms.IntegerField(
        label="Difficulty number",
        required=False,
        min_value=1,
        max_value=200,
        help_text="Blank: the top of the quoted level.",
    )
    pace = forms.ChoiceField(
        label="Pace",
        required=False,
        choices=[
            ("normal", "Normal"),
            ("rushed", "Rushed: half the time, half the skill"),
            ("prepared", "Prepared: twice the time, +1D"),
        ],
        initial="normal",
    )
    helpers = forms.MultipleChoiceField(
        label="Helping (Rules Companion combined work)", required=False, choices=()
    )

    def __init__(self, *args, crew=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["helpers"].choices = [(str(c.pk), c.name) for c in crew]


class CrewForm(forms.Form):
    station = forms.IntegerField(min_value=1, max_value=2**31 - 1)
    character = forms.ChoiceField(required=False, label="Crew member")

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [("", "Nobody")] + [
            (str(c.pk), c.name) for c in characters
        ]
