"""The encounter set-up forms: a GM's quick stat block for throwaway NPCs ("Stormtrooper ×4",
each trooper tracked on its own) and the campaign characters to bring into a fight.

:class:`QuickStatBlockForm` turns one form into engine combatants
(:meth:`QuickStatBlockForm.combatants`) and into the JSON a campaign keeps as a
:class:`~encounters.models.StatBlock` (:meth:`QuickStatBlockForm.block`,
:func:`save_stat_block`), which fills the form again next time
(:meth:`QuickStatBlockForm.initial_from_block`)."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils.text import slugify

from campaigns.models import Campaign
from characters.craft_models import Craft
from characters.fields import DieCodeFormField, parse_sheet_code
from characters.models import Character
from encounters.combatants import attack_kind_for_skill, does_energy_damage, skill_key
from encounters.models import StatBlock
from rules.combat import Armour, WeaponRange
from rules.dice import DieCode, DieCodeError
from rules.encounter import Combatant, Weapon
from rules.errors import RulesError
from rules.scale import Scale

__all__ = [
    "MAX_COUNT",
    "MAX_SKILLS",
    "AddCharactersForm",
    "QuickStatBlockForm",
    "parse_armour",
    "parse_skill_list",
    "parse_weapon_damage",
    "parse_weapon_ranges",
    "save_stat_block",
]

MAX_COUNT = 50
"""The most NPCs one quick stat block adds at once."""
MAX_SKILLS = 30
MAX_SKILL_NAME = 80
MAX_RANGE_METRES = 100_000
DEFAULT_CODE = DieCode(2)
ATTRIBUTE_FIELDS = ("perception", "dexterity", "strength")
NO_DICE = DieCode()

_ENTRY_SEPARATORS = re.compile(r"[,;\r\n]+")
_STR_DAMAGE = re.compile(r"^STR(?P<mod>.*)$", re.IGNORECASE)
_RANGES = re.compile(r"^([0-9]+)-([0-9]+)[/-]([0-9]+)[/-]([0-9]+)$")
_ARMOUR_KINDS = frozenset({"physical", "energy", "all"})
_ID_NUMBER = re.compile(r"[0-9]+")
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def _words(text: str) -> str:
    """Text with its spaces collapsed: `` Imperial   army `` -> ``Imperial army``."""
    return " ".join((text or "").split())


def _clean_side(value: str) -> str:
    side = _words(value)
    if not side:
        raise ValidationError("Name the side they fight on, e.g. empire or rebels.")
    return side


# --- parsers: each raises ValidationError with a message a GM can act on --------------------
def parse_skill_list(text: str) -> tuple[tuple[str, DieCode], ...]:
    """``blaster 4D, dodge 3D+1, brawling parry 3D`` (commas, semicolons or new lines between
    entries) as (lowercase name, code) pairs in the order given. Any skill name is accepted
    (NPCs have odd skills); every entry needs a die code as written on a sheet."""
    entries = [e.strip() for e in _ENTRY_SEPARATORS.split(text or "") if e.strip()]
    if len(entries) > MAX_SKILLS:
        raise ValidationError(
            f"At most {MAX_SKILLS} skills in a quick stat block ({len(entries)} given)."
        )
    errors: list[str] = []
    skills: dict[str, DieCode] = {}
    for entry in entries:
        tokens = entry.split()
        # The code starts at the first word that starts like one (4D, +1, -1D).
        at = next((i for i, t in enumerate(tokens) if t[0] in "0123456789+-"), len(tokens))
        name = skill_key(" ".join(tokens[:at]).rstrip(":"))
        code_text = "".join(tokens[at:])
        if not name:
            errors.append(f"“{entry}”: name the skill before its code, as in blaster 4D.")
        elif not code_text:
            errors.append(f"“{entry}”: give a die code after the skill, as in {name} 4D.")
        elif len(name) > MAX_SKILL_NAME:
            errors.append(f"“{entry[:40]}…”: a skill name has at most {MAX_SKILL_NAME} letters.")
        elif name in ATTRIBUTE_FIELDS:
            errors.append(f"“{entry}”: {name.title()} has its own field; set it there.")
        elif name in skills:
            errors.append(f"“{entry}”: {name} is listed twice.")
        else:
            try:
                skills[name] = parse_sheet_code(code_text)
            except ValidationError as exc:
                errors.append(f"“{entry}”: {' '.join(exc.messages)}")
    if errors:
        raise ValidationError(errors)
    return tuple(skills.items())


def skills_text(skills: Any) -> str:
    """Skills as the form's text again: ``blaster 4D, dodge 3D+1``."""
    return ", ".join(f"{name} {code}" for name, code in skills)


def parse_weapon_damage(text: str) -> str:
    """A weapon's damage as the engine reads it: a die code (``5D``) or Strength plus a
    modifier (``STR+1D``, ``STR``), in canonical spelling; empty text gives ``""``."""
    compact = "".join((text or "").split())
    if not compact:
        return ""
    strength = _STR_DAMAGE.match(compact)
    if not strength:
        try:
            return str(parse_sheet_code(compact))
        except ValidationError as exc:
            raise ValidationError(
                f"{' '.join(exc.messages)} Damage is a die code such as 4D, or STR+1D for "
                "a weapon that adds Strength."
            ) from None
    mod = strength.group("mod")
    if not mod:
        return "STR"
    try:
        if mod[0] not in "+-":
            raise DieCodeError(f"{compact!r}: write the modifier after a + or -")
        code = DieCode.parse(mod)
    except DieCodeError as exc:
        raise ValidationError(f"{exc}. Write Strength damage like STR+1D or STR+2.") from None
    if abs(code.dice) > 30 or abs(code.pips) > 2:
        raise ValidationError(
            f"{compact}: the modifier is at most 30D, with 0 to 2 pips (e.g. STR+1D+2)."
        )
    return "STR" if code == NO_DICE else f"STR{code.signed()}"


def parse_weapon_ranges(text: str) -> WeaponRange | None:
    """``3-30/100/300``, as stat blocks print it: short from-to / medium / long, in metres
    (``3-30-100-300`` is read too). Empty text gives None."""
    compact = "".join((text or "").split())
    if not compact:
        return None
    match = _RANGES.match(compact)
    if not match:
        raise ValidationError(
            f"“{text.strip()}” is not a weapon's ranges: write short from-to / medium / long "
            "in metres, e.g. 3-30/100/300."
        )
    values = [int(v) for v in match.groups()]
    if max(values) > MAX_RANGE_METRES:
        raise ValidationError(
            f"{compact}: ranges above {MAX_RANGE_METRES:,} metres are beyond a personal weapon."
        )
    try:
        return WeaponRange(*values)
    except RulesError as exc:
        raise ValidationError(f"{compact}: {exc}.") from None


def parse_armour(text: str) -> Armour:
    """``+1D`` (against every attack) or ``+1D physical, +2D energy``; a code for ``all`` and
    one for a kind may be combined (``+1D, +2D energy``: the kind's code wins)."""
    parts = [p.strip() for p in re.split(r"[,;]+", text or "") if p.strip()]
    given: dict[str, DieCode] = {}
    errors: list[str] = []
    for part in parts:
        tokens = part.split()
        kind = "all"
        if tokens and tokens[-1].isalpha():
            word = tokens.pop().lower()
            if word not in _ARMOUR_KINDS:
                errors.append(
                    f"“{part}”: armour protects against physical or energy attacks; "
                    "write +1D, or +1D physical, +2D energy."
                )
                continue
            kind = word
        if kind in given:
            errors.append(f"“{part}”: {kind} armour is given twice.")
            continue
        try:
            given[kind] = parse_sheet_code("".join(tokens))
        except ValidationError as exc:
            errors.append(f"“{part}”: {' '.join(exc.messages)}")
    if errors:
        raise ValidationError(errors)
    every = given.get("all", NO_DICE)
    return Armour(physical=given.get("physical", every), energy=given.get("energy", every))


def armour_text(armour: Armour) -> str:
    """Armour as the form's text again: ``""``, ``+1D`` or ``+1D physical, +2D energy``."""
    if armour.physical == armour.energy:
        return "" if armour.physical == NO_DICE else armour.physical.signed()
    return f"{armour.physical.signed()} physical, {armour.energy.signed()} energy"


# --- the forms -------------------------------------------------------------------------------
def _or_default(code: DieCode | None) -> DieCode:
    return DEFAULT_CODE if code is None else code


def _code_field(label: str) -> DieCodeFormField:
    return DieCodeFormField(
        label=label, required=False, initial=str(DEFAULT_CODE), help_text="Blank: 2D."
    )


class QuickStatBlockForm(forms.Form):
    """A throwaway NPC in one form: codes, a few skills, a weapon, armour; ``count`` of them
    join the fight, each tracked on its own."""

    name = forms.CharField(
        max_length=StatBlock._meta.get_field("name").max_length,
        error_messages={"required": "Give the NPC a name, e.g. Stormtrooper."},
    )
    count = forms.IntegerField(
        min_value=1,
        max_value=MAX_COUNT,
        initial=1,
        required=False,
        help_text="How many join; each is tracked on its own.",
    )
    side = forms.CharField(
        max_length=40,
        initial="empire",
        error_messages={"required": "Name the side they fight on, e.g. empire."},
    )
    perception = _code_field("Perception")
    dexterity = _code_field("Dexterity")
    strength = _code_field("Strength")
    skills = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Name and full code, separated by commas: blaster 4D, dodge 3D+1, "
        "brawling parry 3D. Unlisted skills roll their attribute.",
    )
    weapon_name = forms.CharField(label="Weapon", max_length=80, required=False)
    weapon_damage = forms.CharField(
        label="Damage",
        max_length=20,
        required=False,
        help_text="A die code such as 5D, or STR+1D for a weapon that adds Strength.",
    )
    weapon_skill = forms.CharField(label="Skill", max_length=80, required=False, initial="blaster")
    weapon_ranges = forms.CharField(
        label="Ranges",
        max_length=40,
        required=False,
        help_text="Metres, short from-to / medium / long, e.g. 3-30/100/300.",
    )
    weapon_stun = forms.BooleanField(label="Set on stun", required=False)
    armour = forms.CharField(
        max_length=60,
        required=False,
        help_text="+1D against all attacks, or +1D physical, +2D energy.",
    )
    scale = forms.ChoiceField(
        choices=[(s.key, s.key.replace("_", " ").capitalize()) for s in Scale],
        initial=Scale.CHARACTER.key,
    )
    save_template = forms.BooleanField(label="Save as a campaign stat block", required=False)

    # --- cleaning ---------------------------------------------------------------------------
    def clean_name(self) -> str:
        name = _words(self.cleaned_data["name"])
        if not name:
            raise ValidationError("Give the NPC a name, e.g. Stormtrooper.")
        return name

    def clean_count(self) -> int:
        count = self.cleaned_data.get("count")
        return 1 if count is None else count

    def clean_side(self) -> str:
        return _clean_side(self.cleaned_data["side"])

    def clean_perception(self) -> DieCode:
        return _or_default(self.cleaned_data.get("perception"))

    def clean_dexterity(self) -> DieCode:
        return _or_default(self.cleaned_data.get("dexterity"))

    def clean_strength(self) -> DieCode:
        return _or_default(self.cleaned_data.get("strength"))

    def clean_skills(self) -> tuple[tuple[str, DieCode], ...]:
        return parse_skill_list(self.cleaned_data["skills"])

    def clean_weapon_name(self) -> str:
        return _words(self.cleaned_data["weapon_name"])

    def clean_weapon_damage(self) -> str:
        return parse_weapon_damage(self.cleaned_data["weapon_damage"])

    def clean_weapon_skill(self) -> str:
        return skill_key(self.cleaned_data["weapon_skill"])

    def clean_weapon_ranges(self) -> WeaponRange | None:
        return parse_weapon_ranges(self.cleaned_data["weapon_ranges"])

    def clean_armour(self) -> Armour:
        return parse_armour(self.cleaned_data["armour"])

    def clean_scale(self) -> Scale:
        try:
            return Scale.parse(self.cleaned_data["scale"])
        except RulesError as exc:  # pragma: no cover - ChoiceField already refused it
            raise ValidationError(str(exc)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        name, damage = data.get("weapon_name"), data.get("weapon_damage")
        if "weapon_damage" in data and "weapon_name" in data:
            if damage and not name:
                self.add_error("weapon_name", "Name the weapon that does this damage.")
            elif name and not damage:
                self.add_error("weapon_damage", "Give the weapon's damage, e.g. 5D or STR+1D.")
        ranges_alone = not damage and data.get("weapon_ranges") is not None
        if not name and ranges_alone and "weapon_name" in data:
            self.add_error("weapon_name", "Name the weapon these ranges belong to.")
        if "weapon_skill" in data and not data["weapon_skill"]:
            # Blank skill: a blaster, unless the damage adds Strength (a blade or a club).
            adds_strength = (damage or "").startswith("STR")
            data["weapon_skill"] = "melee combat" if adds_strength else "blaster"
        if not self.errors:
            try:
                npc = self._combatant("sb-check", data["name"])
            except RulesError as exc:  # the engine's last word on anything missed above
                raise ValidationError(str(exc)) from None
            self._check_weapon_skill(npc)
        return data

    def _check_weapon_skill(self, npc: Combatant) -> None:
        """The engine must know what to roll for the weapon: a listed skill, or a skill of
        the rules whose attribute the stat block has (Dexterity for blaster, Strength for
        brawling)."""
        if npc.weapon is None:
            return
        skill = npc.weapon.skill
        try:
            npc.code(skill)
        except RulesError:
            self.add_error(
                "weapon_skill",
                f"{skill} is not a skill of the rules: list its code with the skills "
                f"(e.g. {skill} 4D) or use blaster, melee combat, brawling…",
            )

    # --- results ----------------------------------------------------------------------------
    def _valid_data(self) -> dict[str, Any]:
        if not self.is_valid():
            raise ValueError("the quick stat block form has errors; show them instead")
        return self.cleaned_data

    def _weapon(self) -> Weapon | None:
        data = self.cleaned_data
        if not data["weapon_name"]:
            return None
        skill = data["weapon_skill"]
        kind = attack_kind_for_skill(skill)
        return Weapon(
            name=data["weapon_name"],
            damage=data["weapon_damage"],
            skill=skill,
            kind=kind,
            ranges=data["weapon_ranges"],
            stun=data["weapon_stun"],
            energy=does_energy_damage(kind, skill),
        )

    def _combatant(self, cid: str, name: str) -> Combatant:
        data = self.cleaned_data
        return Combatant(
            id=cid,
            name=name,
            side=data["side"],
            perception=data["perception"],
            dexterity=data["dexterity"],
            strength=data["strength"],
            skills=data["skills"],
            weapon=self._weapon(),
            armour=data["armour"],
            scale=data["scale"],
            npc=True,
        )

    def combatants(self, *, taken_ids: set[str]) -> list[Combatant]:
        """``count`` NPCs, "Stormtrooper 1" … "Stormtrooper 4" (just "Stormtrooper" when one
        joins alone), with ids ``sb-stormtrooper-<n>``. Numbering goes on after the highest
        number in ``taken_ids`` (a second group joining later is "Stormtrooper 5" …), and no id
        in ``taken_ids`` is used again: pass every id the encounter has ever had, not only
        those in the fight now, so a removed trooper's id is not handed out again."""
        data = self._valid_data()
        name, count = data["name"], data["count"]
        prefix = f"sb-{slugify(name, allow_unicode=True) or 'npc'}-"
        numbers = [
            int(rest)
            for cid in taken_ids
            if cid.startswith(prefix) and _ID_NUMBER.fullmatch(rest := cid[len(prefix) :])
        ]
        n = max(numbers, default=0)
        numbered = count > 1 or n > 0
        result: list[Combatant] = []
        while len(result) < count:
            n += 1
            cid = f"{prefix}{n}"
            if cid not in taken_ids:
                result.append(self._combatant(cid, f"{name} {n}" if numbered else name))
        return result

    def block(self) -> dict[str, Any]:
        """The cleaned values as JSON-safe data, for :attr:`StatBlock.block` (skills as a list
        of ``[name, code]`` pairs: PostgreSQL's jsonb would reorder the keys of an object)."""
        data = self._valid_data()
        ranges = data["weapon_ranges"]
        return {
            "name": data["name"],
            "count": data["count"],
            "side": data["side"],
            **{a: str(data[a]) for a in ATTRIBUTE_FIELDS},
            "skills": [[name, str(code)] for name, code in data["skills"]],
            "weapon_name": data["weapon_name"],
            "weapon_damage": data["weapon_damage"],
            "weapon_skill": data["weapon_skill"],
            "weapon_ranges": str(ranges) if ranges else "",
            "weapon_stun": data["weapon_stun"],
            "armour": armour_text(data["armour"]),
            "scale": data["scale"].key,
        }

    @classmethod
    def initial_from_block(cls, block: dict[str, Any]) -> dict[str, Any]:
        """The form's initial values from a saved block. Missing or mistyped keys are left
        out (the form's own defaults apply), so older or damaged blocks still open."""
        if not isinstance(block, dict):
            return {}
        initial: dict[str, Any] = {}
        text_keys = (
            "name",
            "side",
            *ATTRIBUTE_FIELDS,
            "weapon_name",
            "weapon_damage",
            "weapon_skill",
            "weapon_ranges",
            "armour",
            "scale",
        )
        for key in text_keys:
            if isinstance(block.get(key), str):
                initial[key] = block[key]
        count = block.get("count")
        if isinstance(count, int) and not isinstance(count, bool):
            initial["count"] = count
        if isinstance(block.get("weapon_stun"), bool):
            initial["weapon_stun"] = block["weapon_stun"]
        skills = block.get("skills")
        if isinstance(skills, str):
            initial["skills"] = skills
        elif isinstance(skills, dict):
            initial["skills"] = skills_text(skills.items())
        elif isinstance(skills, list):
            pairs = [p for p in skills if isinstance(p, list | tuple) and len(p) == 2]
            initial["skills"] = skills_text(pairs)
        return initial


def save_stat_block(campaign: Campaign, form: QuickStatBlockForm) -> StatBlock:
    """Keep the form's NPC as the campaign's stat block of that name, replacing an older one
    of the same name."""
    block = form.block()
    with transaction.atomic():
        stat_block, _ = StatBlock.objects.update_or_create(
            campaign=campaign, name=block["name"], defaults={"block": block}
        )
    return stat_block


MAX_PK = 2**63 - 1
"""The largest id a database row can have (bigint); a larger number is no character."""


class CharacterChoiceField(forms.ModelMultipleChoiceField):
    """Characters by name, marked PC or NPC. An id too large for the database is refused as
    an invalid choice before it reaches the query (SQLite raises OverflowError on it)."""

    def clean(self, value: Any) -> QuerySet[Character]:
        if isinstance(value, list | tuple):
            for pk in value:
                text = str(pk).strip()
                if _WHOLE_NUMBER.fullmatch(text) and not 0 < int(text) <= MAX_PK:
                    raise ValidationError(
                        self.error_messages["invalid_choice"],
                        code="invalid_choice",
                        params={"value": pk},
                    )
        return super().clean(value)

    def label_from_instance(self, obj: Character) -> str:
        return f"{obj.name} ({'NPC' if obj.is_npc else 'PC'})"


class AddCharactersForm(forms.Form):
    """Campaign characters joining the fight on one side. ``characters``: those who may join
    (the campaign's characters not yet in the encounter)."""

    characters = CharacterChoiceField(
        queryset=Character.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Choose at least one character."},
    )
    side = forms.CharField(
        max_length=40,
        initial="rebels",
        error_messages={"required": "Name the side they fight on, e.g. rebels."},
    )

    def __init__(self, data: Any = None, *, characters: QuerySet[Character], **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.fields["characters"].queryset = characters

    def clean_side(self) -> str:
        return _clean_side(self.cleaned_data["side"])


class AddCraftForm(forms.Form):
    """A campaign vehicle or starship joining the fight on one side, with the characters who
    crew it (a capital ship as a starship at its scale). ``craft``: those not yet in."""

    craft = forms.ModelChoiceField(
        queryset=Craft.objects.none(),
        label="Vehicle or starship",
        error_messages={
            "required": "Choose a vehicle or starship.",
            "invalid_choice": "Choose a vehicle or starship from the list.",
        },
    )
    side = forms.CharField(
        max_length=40,
        initial="rebels",
        error_messages={"required": "Name the side it fights on, e.g. rebels."},
    )
    count = forms.IntegerField(
        min_value=1,
        max_value=30,
        initial=1,
        label="How many (uncrewed copies, e.g. a TIE squadron)",
        help_text="More than 1 adds copies flown by their unnamed crew (the stat block's crew "
        "code); characters crew only the first.",
    )

    crew_code = DieCodeFormField(
        required=False,
        label="Unnamed crew's skill",
        help_text="For stations no character holds, e.g. 4D (blank: the stat block's crew code).",
    )

    def __init__(self, data: Any = None, *, craft: QuerySet[Craft], **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.fields["craft"].queryset = craft

    def clean_side(self) -> str:
        return _clean_side(self.cleaned_data["side"])
