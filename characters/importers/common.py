"""What both importers share: reading values of unknown type from a foreign file, finding names
in the campaign's library and the rules' lists, and :class:`DraftBuilder`, which collects the
wizard's draft data (``characters.wizard``) and the list of what did not map.

A foreign file is never trusted: every value is read through the small readers here
(:func:`mapping`, :func:`items`, :func:`whole`, :func:`text`), which answer a default for a value
of the wrong type instead of raising, and everything written into the draft is cut to the
lengths the wizard's forms and the models accept.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from typing import Any

from django.utils.html import strip_tags

from campaigns import library
from characters.forms_wizard import CUSTOM_SPECIES, MAX_CREDITS, MAX_SKILL_ROWS
from characters.models import ATTRIBUTE_LABELS, ATTRIBUTES
from rules import DieCode, RulesError, reference
from rules.force import FORCE_SKILLS, force_power, force_powers
from rules.library import species_limits

MAX_SHEET_PIPS = 90
"""30D: the highest code a sheet holds (``characters.fields.parse_sheet_code``)."""
MAX_ITEM_LINES = 50
"""The wizard's Gear step takes at most 50 lines of equipment."""
MAX_BALANCE = 10_000
"""CP, FP and DSP above this are not a character's (the wizard reads no more)."""
MAX_TEXT = 5_000
"""Background and personality text kept from a file."""
MAX_UNMAPPED = 100
MAX_ENTRIES = 300
"""Skills, powers and pieces of gear read from one file; a character has far fewer, and each
costs a look-up (gear a query), so a file listing thousands is cut short, and says so."""
MAX_NOTE = 300


# ---------------------------------------------------------------------------------------------
# Reading values of unknown type
# ---------------------------------------------------------------------------------------------
def mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def items(value: Any) -> list:
    return value if isinstance(value, list) else []


def whole(value: Any, default: int | None = 0) -> int | None:
    """A whole number from a number or numeric text (``7``, ``7.0``, ``"7"``); ``default`` for
    anything else (text, booleans, fractions, NaN, huge floats)."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else default
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,12}\s*", value):
        return int(value)
    return default


def text(value: Any, limit: int | None = None) -> str:
    """Text as a user would read it: numbers written out, anything else empty; NUL and other
    control characters (and unpaired surrogates, which no database stores) removed."""
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, int | float):
        value = str(value) if not isinstance(value, float) or math.isfinite(value) else ""
    if not isinstance(value, str):
        return ""
    return clean(value, limit)


def clean(value: str, limit: int | None = None) -> str:
    value = value.encode("utf-8", "replace").decode("utf-8")
    value = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", "", value).strip()
    if limit is not None and len(value) > limit:
        value = value[: limit - 1].rstrip() + "…"
    return value


def plain_text(value: Any, limit: int | None = None) -> str:
    """HTML (Foundry's rich text) as plain text: paragraphs and line breaks kept as new lines."""
    raw = text(value)
    raw = re.sub(r"(?i)<\s*(/p|/div|/h\d)\s*>", "\n\n", raw)
    raw = re.sub(r"(?i)<\s*(br|/li)\s*/?\s*>", "\n", raw)
    raw = html.unescape(strip_tags(raw))
    raw = re.sub(r"[ \t\xa0]+", " ", raw)
    raw = re.sub(r" *\n *", "\n", raw)
    raw = re.sub(r"\n{3,}", "\n\n", raw)
    return clean(raw, limit)


def code_of(pips: int) -> DieCode:
    return DieCode.from_pips(pips)


def bonus_words(pips: int) -> str:
    """A number of pips as a bonus (``+1D``, ``+2``), or as pips when beyond any die code."""
    return DieCode.from_pips(pips).signed() if abs(pips) <= 999 * 3 else f"{pips:+,} pips"


def code_words(pips: int) -> str:
    """A number of pips as a die code (``3D+1``), or as pips when beyond any die code."""
    return str(DieCode.from_pips(pips)) if abs(pips) <= 999 * 3 else f"{pips:,} pips"


def key(name: str) -> str:
    """How foreign names are compared: case, spacing and punctuation ignored."""
    return re.sub(r"[^a-z0-9]", "", name.casefold().replace("’", "'"))


# ---------------------------------------------------------------------------------------------
# Names in the rules' lists and the campaign's library
# ---------------------------------------------------------------------------------------------
_ABBREVIATIONS = {
    "op": "operation",
    "rep": "repair",
    "prog": "programming",
    "gun": "gunnery",
    "pilot": "piloting",
    "weap": "weapon",
}
_SKILL_ALIASES = {
    # Spellings the generators use that the skill list words otherwise.
    "spacetransportrepair": "space transports repair",
    "capitalshiprepair": "capital starship repair",
    "capitalshipweaponrepair": "capital starship weapon repair",
    "demolition": "demolitions",
}


def expand_abbreviations(name: str) -> str:
    """``Repulsorlift Op.`` → ``Repulsorlift Operation``, ``Computer Prog. / Rep.`` →
    ``Computer Programming / Repair`` (the 1Bln21 generator's short skill names)."""
    return re.sub(
        r"\b([A-Za-z]+)\.",
        lambda m: (
            _ABBREVIATIONS.get(m[1].lower(), m[1]).capitalize()
            if m[1].lower() in _ABBREVIATIONS
            else m[0]
        ),
        name,
    )


def reference_skill(name: str) -> reference.Skill | None:
    """The rules' skill of this name, allowing for abbreviations and a plural's ``s``."""
    full = expand_abbreviations(name)
    candidates = [name, full, full + "s"]
    if full.endswith("s"):
        candidates.append(full[:-1])
    alias = _SKILL_ALIASES.get(key(full))
    if alias:
        candidates.append(alias)
    for candidate in candidates:
        try:
            return reference.skill(candidate)
        except reference.ReferenceDataError:
            continue
    return None


_POWER_ALIASES = {
    # The generators' names for powers the power table words otherwise.
    "instinctiveastrogationcontrol": "Instinctive Astrogation",
    "instinctiveastrogationsense": "Instinctive Astrogation",
    "placeanotherinhibernationtrance": "Place in Hibernation Trance",
    "returnanothertoconsciousness": "Return to Consciousness",
    "dimanotherssenses": "Dim Other's Senses",
    "detoxifyanotherspoison": "Detoxify Poison in Another",
}


def known_power(name: str) -> str | None:
    """The power table's name for this power (``rules.force.force_power``), or None."""
    wanted = key(name)
    if not wanted:
        return None
    alias = _POWER_ALIASES.get(wanted)
    if alias:
        return force_power(alias).name
    for power in force_powers():
        if key(power.name) == wanted:
            return power.name
    return None


@dataclass(frozen=True)
class KnownSpecies:
    """A species the campaign's library knows: its entry, and its limits when it has numbers."""

    entry: library.Entry
    minimums: dict[str, int] | None
    move: int | None


def find_species(campaign, name: str) -> KnownSpecies | None:
    """The library's species of this name (or of a plural or alias the rules know)."""
    if not name:
        return None
    entry = library.find(campaign, "species", name[:100])
    if entry is None:
        try:
            entry = library.find(campaign, "species", reference.species_by_name(name).name)
        except reference.ReferenceDataError:
            entry = None
    if entry is None:
        # Spellings such as the 1Bln21 generator's "Wookie": compared as its speciesKey() does.
        wanted = _species_key(name)
        entry = next(
            (e for e in library.entries(campaign, "species") if _species_key(e.name) == wanted),
            None,
        )
    if entry is None:
        return None
    try:
        limits = species_limits(entry.data)
    except (RulesError, KeyError, TypeError, ValueError):
        limits = None
    if limits is None:
        return KnownSpecies(entry, None, None)
    minimums = {a: lo.total_pips for a, lo, _ in limits.limits}
    return KnownSpecies(entry, minimums, limits.move)


def _species_key(name: str) -> str:
    """Letters only, doubled letters and a plural's ``s`` dropped: ``Wookie`` = ``Wookiees``."""
    letters = re.sub(r"[^a-z]", "", name.casefold())
    return re.sub(r"(.)\1+", r"\1", letters).removesuffix("s")


def find_gear(campaign, kind: str, name: str) -> str | None:
    """The library's weapon or armour of this name (any case): its name, or None."""
    if not name:
        return None
    entry = library.find(campaign, kind, name[:100])
    if entry is None and kind == "weapon":
        try:
            listed = reference.weapon_by_name(name)
        except reference.ReferenceDataError:
            return None
        entry = library.find(campaign, kind, listed.name)
    return entry.name if entry is not None else None


# ---------------------------------------------------------------------------------------------
# Collecting the draft
# ---------------------------------------------------------------------------------------------
class DraftBuilder:
    """The wizard's draft data as an importer finds it, and what did not map, in words."""

    def __init__(self, campaign) -> None:
        self.campaign = campaign
        self.unmapped: list[str] = []
        self._noted: set[str] = set()
        self.more_unmapped = 0
        self.species: dict = {}
        self.species_known: KnownSpecies | None = None
        self.attributes: dict[str, str] = {}
        self.skills: list[dict] = []
        self._skill_names: set[str] = set()
        self.force: dict = {"sensitive": False, "powers": []}
        self.weapons: list[str] = []
        self.armour: list[str] = []
        self.item_lines: list[str] = []
        self.credits = 0
        self.background: dict = {
            "name": "",
            "gender": "",
            "age": "",
            "height": "",
            "background": "",
            "personality": "",
            "secret": False,
            "background_cp": 0,
            "dark_side_points": 0,
        }
        self.balances: dict[str, int] = {"cp": 0, "fp": 0, "dsp": 0}
        self.entries_read = 0

    def has_room(self) -> bool:
        """Whether one more skill, power or piece of gear may be read (:data:`MAX_ENTRIES`)."""
        self.entries_read += 1
        if self.entries_read == MAX_ENTRIES + 1:
            self.note(
                f"The file lists more than {MAX_ENTRIES} skills, powers and pieces of gear; "
                "the rest were not read",
                first=True,
            )
        return self.entries_read <= MAX_ENTRIES

    # --- what did not map -------------------------------------------------------------------
    def note(self, message: str, *, first: bool = False) -> None:
        """List ``message`` as not imported (``first``: before everything else listed). Past
        :data:`MAX_UNMAPPED` lines only the number of further ones is kept."""
        message = clean(message, MAX_NOTE)
        if not message or message in self._noted:
            return
        self._noted.add(message)
        if first:
            self.unmapped.insert(0, message)
        elif len(self.unmapped) < MAX_UNMAPPED:
            self.unmapped.append(message)
        else:
            self.more_unmapped += 1

    # --- species ----------------------------------------------------------------------------
    def set_species(self, name: str, *, limits: dict | None = None, move: int | None = None):
        """The library's species of this name, or a custom one: with the limits and Move the
        file gives (``limits``: ``{attribute: [min, max]}``), else none (the review asks)."""
        name = text(name, 60)
        known = find_species(self.campaign, name) if name else None
        self.species_known = known
        if known is not None:
            entry = known.entry
            self.species = {"choice": entry.name, "name": entry.name, "limits": {}, "move": None}
            lim = species_limits(entry.data) if known.minimums is not None else None
            if lim is not None:
                self.species["limits"] = {a: [str(lo), str(hi)] for a, lo, hi in lim.limits}
                self.species["move"] = lim.move
            return known
        self.species = {
            "choice": CUSTOM_SPECIES,
            "name": name or "Unknown species",
            "limits": limits or {},
            "move": move if limits else None,
        }
        return None

    # --- attributes -------------------------------------------------------------------------
    def set_attribute(self, attribute: str, pips: int) -> None:
        label = ATTRIBUTE_LABELS[attribute]
        if pips <= 0:
            self.note(f"{label} {code_words(pips)} in the file: no attribute is 0D or less")
        elif pips > MAX_SHEET_PIPS:
            self.note(f"{label} {code_words(pips)}: above 30D, beyond any character")
        else:
            self.attributes[attribute] = str(code_of(pips))

    # --- skills -----------------------------------------------------------------------------
    def add_skill(
        self,
        name: str,
        pips: int,
        *,
        attribute: str | None,
        specialization_of: str = "",
        advanced: bool = False,
        what: str = "Skill",
    ) -> None:
        """One skill, specialization or advanced skill with its full code in pips. A name the
        rules know takes the rules' name and attribute; any other keeps the file's."""
        name = text(name, 100)
        if not name or pips <= 0 or not self.has_room():
            return
        code = code_words(pips)
        if pips > MAX_SHEET_PIPS:
            self.note(f"{what} {name} {code}: above 30D, beyond any character")
            return
        spec_of = text(specialization_of, 80)
        if spec_of:
            base = reference_skill(spec_of)
            if base is not None and base.attribute is not None:
                spec_of, attribute = base.name, base.attribute
            final_name = clean(name, 80)
        else:
            known = reference_skill(name)
            if known is not None and known.attribute is None:
                self.note(f"{what} {name} {code}: named like a Force skill")
                return
            if known is not None:
                final_name, attribute = known.name, known.attribute
                advanced = advanced or known.advanced
            else:
                final_name = clean(expand_abbreviations(re.sub(r"^\(A\)\s*", "", name)), 80)
        if attribute not in ATTRIBUTES:
            self.note(f"{what} {name} {code}: its attribute is not one of the six")
            return
        if final_name.strip().casefold() in FORCE_SKILLS:
            self.note(f"{what} {name} {code}: named like a Force skill")
            return
        if final_name.casefold() in self._skill_names:
            self.note(f"{what} {name} {code}: a second skill of that name")
            return
        if len(self.skills) >= MAX_SKILL_ROWS:
            self.note(f"{what} {name} {code}: the wizard takes at most {MAX_SKILL_ROWS} skills")
            return
        self._skill_names.add(final_name.casefold())
        self.skills.append(
            {
                "name": final_name,
                "attribute": attribute,
                "specialization_of": spec_of,
                "advanced": bool(advanced) and not spec_of,
                "code": code,
            }
        )

    # --- the Force --------------------------------------------------------------------------
    def set_force_skill(self, skill: str, pips: int) -> None:
        if pips <= 0:
            return
        if pips > MAX_SHEET_PIPS:
            self.note(f"Force skill {skill} {code_words(pips)}: above 30D, beyond any character")
            return
        self.force[skill] = str(code_of(pips))

    def add_power(self, name: str, *, what: str = "Force power") -> None:
        name = text(name, 100)
        if not name or not self.has_room():
            return
        try:
            known = known_power(name)
        except RulesError:
            known = None
        if known is None:
            self.note(f"{what} {name}: not in Datapad's list of powers")
        elif known not in self.force["powers"]:
            self.force["powers"].append(known)

    # --- gear -------------------------------------------------------------------------------
    def add_weapon(self, name: str, stats: str = "", *, catalogue: str = "") -> None:
        """A weapon: the library's of that name, else a line of equipment with its numbers in
        words (and listed, since nothing rolls from a line of text)."""
        self._add_gear("weapon", name, stats, catalogue)

    def add_armour(self, name: str, stats: str = "", *, catalogue: str = "") -> None:
        self._add_gear("armour", name, stats, catalogue)

    def _add_gear(self, kind: str, name: str, stats: str, catalogue: str) -> None:
        name = text(name, 100)
        if not name or not self.has_room():
            return
        found = find_gear(self.campaign, kind, name)
        listing = self.weapons if kind == "weapon" else self.armour
        if found is not None:
            if found not in listing:
                listing.append(found)
            return
        word, words = ("Weapon", "a weapon") if kind == "weapon" else ("Armour", "armour")
        self.add_item(name, 1, stats)
        if stats:
            self.note(f"{word} {name} ({stats}): kept as a line of equipment, not as {words}")
        else:
            self.note(
                f"{word} {name}: not in the campaign's library; kept as a line of equipment"
                + (f" ({catalogue})" if catalogue else "")
            )

    def add_item(self, name: str, quantity: int = 1, details: str = "") -> None:
        name = text(name, 100)
        if not name or quantity <= 0:
            return
        quantity = min(quantity, 999)
        line = name + (f" ({details})" if details else "")
        line = clean(line.replace("\n", " "), 100)
        if quantity > 1:
            line = f"{quantity} x {line}"
        if len(self.item_lines) >= MAX_ITEM_LINES:
            self.note(f"Equipment {line}: the wizard takes at most {MAX_ITEM_LINES} lines")
            return
        self.item_lines.append(line)

    def set_credits(self, amount: int) -> None:
        if amount < 0:
            self.note(f"Credits {amount:,}: a debt, not imported (starting credits 0)")
            amount = 0
        if amount > MAX_CREDITS:
            self.note(f"Credits {amount:,}: more than {MAX_CREDITS:,}; {MAX_CREDITS:,} imported")
            amount = MAX_CREDITS
        self.credits = amount

    def set_balance(self, which: str, amount: int | None, words: str) -> None:
        if amount is None:
            return
        if amount < 0:
            self.note(f"{words} {amount}: below 0, imported as 0")
            amount = 0
        if amount > MAX_BALANCE:
            self.note(f"{words} {amount:,}: more than {MAX_BALANCE:,}, imported as {MAX_BALANCE:,}")
            amount = MAX_BALANCE
        self.balances[which] = amount

    # --- background -------------------------------------------------------------------------
    def set_text(self, field: str, value: Any, limit: int) -> None:
        self.background[field] = text(value, limit)

    def add_paragraph(self, field: str, label: str, value: str) -> None:
        """Append ``label: value`` (or the value alone) to the background or personality."""
        value = value.strip()
        if not value:
            return
        paragraph = f"{label}: {value}" if label else value
        current = self.background[field]
        self.background[field] = clean(
            f"{current}\n\n{paragraph}" if current else paragraph, MAX_TEXT
        )

    # --- the result -------------------------------------------------------------------------
    def data(self) -> dict:
        force = dict(self.force)
        force["sensitive"] = bool(
            force["sensitive"] or force["powers"] or any(force.get(s) for s in FORCE_SKILLS)
        )
        more = self.more_unmapped + max(0, len(self.unmapped) - MAX_UNMAPPED)
        self.unmapped = self.unmapped[:MAX_UNMAPPED]
        if more:
            self.unmapped.append(f"… and {more} more")
        self.more_unmapped = 0
        return {
            "species": self.species,
            "attributes": dict(self.attributes),
            "skills": list(self.skills),
            "force": force,
            "gear": {
                "weapons": list(self.weapons),
                "armour": list(self.armour),
                "items": "\n".join(self.item_lines),
                "credits": self.credits,
            },
            "background": dict(self.background),
            "balances": dict(self.balances),
        }
