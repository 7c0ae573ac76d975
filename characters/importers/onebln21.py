"""A character exported as JSON by the 1Bln21 Star Wars D6 Character Generator.

Format read from https://github.com/1Bln21/swd6-character-generator at commit
b654bf4010f8c5d363e4ff1a5e61c37ac01a8eb5 (v3.9.3.4):

* ``app.js`` ``exportChar()`` writes the whole character state ``C`` as JSON
  (``<name>.swd6.json``); ``importChar()`` accepts a file with ``info`` and ``attrs`` objects;
  ``emptyChar()`` gives the shape (``version`` 1, ``info``, ``customSpecies``, ``attrs``,
  ``attrsCP``, ``force``, ``forceCP``, ``overrides``, ``skills``, ``extraSkills``, ``powers``,
  ``points``, ``credits``, ``equipment``, ``customEquipment``, ``armor``, ``armorWorn``,
  ``customArmor``, ``melee``, ``customMelee``, ``ranged``, ``customRanged``, ``explosives``,
  ``customExplosives``, ``sabers``, ``notes``).
* How the sheet reads the numbers (all in pips, 3 to the die): ``attrTotal()`` = the species'
  minimum + ``attrs`` + ``attrsCP``; ``skillTotal()`` = the attribute's total + ``c`` + ``cp``
  of ``skills["<attr>|<name>"]`` (an ``(A)`` advanced skill counts from 0); a specialization is
  an ``extraSkills`` entry with ``spec`` naming its skill; ``forceTotal()`` = ``force`` +
  ``forceCP``; ``cpLeft()`` = ``cpEarned`` - ``cpSpentAuto()`` - ``cpSpentOther``;
  ``fpStart()`` (2 Force Points when Force-sensitive, else 1) when ``fpCurrent`` is null;
  ``creditTotals()`` subtracts catalogue purchases priced from its own data files.
* ``droid.js``, ``ship.js`` and ``npc.js`` ``emptyDoc()``: the generator's other documents say
  ``kind`` ``"droid"``, ``"ship"`` or ``"npc"``; a character has no ``kind``.

The file stores attributes as what was added to the species' minimums, so the importer needs
those minimums: a custom species brings them in the file; any other is looked up in the
campaign's library (a species without numbers there leaves the attributes to the player).
"""

from __future__ import annotations

import math

from characters.importers.common import (
    DraftBuilder,
    bonus_words,
    code_words,
    find_gear,
    items,
    key,
    mapping,
    text,
    whole,
)
from characters.models import ATTRIBUTE_LABELS

FORMAT = "1bln21"
LABEL = "the 1Bln21 Star Wars D6 Character Generator"

ATTRS = {
    "dex": "dexterity",
    "kno": "knowledge",
    "mec": "mechanical",
    "per": "perception",
    "str": "strength",
    "tec": "technical",
}
FORCE = ("control", "sense", "alter")
OTHER_DOCUMENTS = {"droid": "a droid", "ship": "a ship or vehicle", "npc": "an NPC group"}
KNOWN_KEYS = {
    "version",
    "info",
    "customSpecies",
    "attrs",
    "attrsCP",
    "force",
    "forceCP",
    "overrides",
    "skills",
    "extraSkills",
    "powers",
    "points",
    "credits",
    "equipment",
    "customEquipment",
    "armor",
    "armorWorn",
    "customArmor",
    "melee",
    "customMelee",
    "ranged",
    "customRanged",
    "explosives",
    "customExplosives",
    "sabers",
    "notes",
}
KNOWN_INFO = {
    "name",
    "player",
    "occupation",
    "species",
    "nearHuman",
    "gender",
    "forceSensitive",
    "planet",
    "age",
    "height",
    "weight",
    "quote",
    "description",
    "history",
    "personality",
    "objectives",
    "raceNotes",
    "portrait",
}
CATALOGUE = "its numbers are in the generator's catalogue, not in the file"


def matches(doc: object) -> bool:
    """The generator's own test (``importChar``): an object with ``info`` and ``attrs``."""
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("info"), dict)
        and isinstance(doc.get("attrs"), dict)
        and doc.get("kind") in (None, "character")
    )


def refusal(doc: object) -> str | None:
    """Why a document of the generator that is not a character cannot be imported."""
    if isinstance(doc, dict) and isinstance(doc.get("info"), dict):
        what = OTHER_DOCUMENTS.get(doc.get("kind"))  # type: ignore[arg-type]
        if what:
            return (
                f"This file is {what} from {LABEL}, not a character: only characters can be "
                "imported."
            )
    return None


def _number(value) -> float:
    """A price or amount as the generator reads it (``+x || 0``)."""
    if isinstance(value, bool):
        return 0.0
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) and abs(value) < 1e12 else 0.0
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return 0.0
        return number if math.isfinite(number) and abs(number) < 1e12 else 0.0
    return 0.0


def _pips(value) -> int:
    """Pips the generator counts (never below 0: its steppers stop there)."""
    return max(0, whole(value, 0) or 0)


def _dice(pips: int) -> int:
    """The die count a Character Point costs at (the generator's ``Math.max(1, …/3)``)."""
    return max(1, pips // 3)


def convert(doc: dict, draft: DraftBuilder) -> None:
    info = mapping(doc.get("info"))
    minimums = _species(doc, info, draft)
    totals = _attributes(doc, minimums, draft)
    cp_spent = _skills(doc, totals, draft)
    cp_spent = _force(doc, info, draft, cp_spent)
    _balances(doc, info, draft, cp_spent)
    _gear(doc, draft)
    _background(doc, info, draft)
    for name in doc:
        if name not in KNOWN_KEYS:
            draft.note(f"Field {text(name, 60)!r} of the file")


# ---------------------------------------------------------------------------------------------
# Species and attributes
# ---------------------------------------------------------------------------------------------
def _species(doc: dict, info: dict, draft: DraftBuilder) -> dict[str, int] | None:
    """Set the draft's species; answer its minimums in pips (None when unknown)."""
    chosen = text(info.get("species"), 60) or "Human"
    if chosen == "Custom":
        custom = mapping(doc.get("customSpecies"))
        name = text(custom.get("name"), 60) or "Custom species"
        mins = [whole(v, None) for v in items(custom.get("mins"))]
        maxs = [whole(v, None) for v in items(custom.get("maxs"))]
        move = whole(custom.get("move"), None)
        minimums = limits = None
        if len(mins) == 6 and len(maxs) == 6 and all(isinstance(v, int) for v in mins + maxs):
            minimums = dict(zip(ATTRS.values(), mins, strict=True))
            if all(0 < lo <= hi <= 90 for lo, hi in zip(mins, maxs, strict=True)):
                limits = {
                    a: [code_words(lo), code_words(hi)]
                    for a, lo, hi in zip(ATTRS.values(), mins, maxs, strict=True)
                }
        if limits is None:
            draft.note(f"The limits of the custom species {name} in the file are not usable")
        if move is None or not 1 <= move <= 40:
            move = None
        draft.set_species(name, limits=limits, move=move)
        for label, field in (("special abilities", "abilities"), ("story factors", "story")):
            lines = [text(x, 200) for x in items(custom.get(field)) if text(x)]
            if lines:
                draft.note(f"The {name} species' {label}: {'; '.join(lines)}")
        if draft.species_known is not None:
            draft.note(
                f"The file's own {name} limits were set aside for the campaign library's {name}"
            )
        return minimums
    name = text(info.get("nearHuman"), 60) if chosen == "Near-Human" else ""
    name = name or chosen
    known = draft.set_species(name)
    if known is None or known.minimums is None:
        return None
    return known.minimums


def _attributes(doc: dict, minimums: dict[str, int] | None, draft: DraftBuilder):
    """Set the attributes; answer their totals in pips (None when the minimums are unknown)."""
    added = mapping(doc.get("attrs"))
    bought = mapping(doc.get("attrsCP"))
    if minimums is None:
        words = [
            f"{ATTRIBUTE_LABELS[a]} {bonus_words(_pips(added.get(k)) + _pips(bought.get(k)))}"
            for k, a in ATTRS.items()
        ]
        draft.note(
            f"Attributes: the file stores what was added to the {draft.species['name']} "
            f"minimums ({', '.join(words)}), and the campaign's library has no "
            f"{draft.species['name']} numbers; enter the attributes and skills on the wizard, "
            "or ask the GM to add the species to the library and import again"
        )
        return None
    totals = {}
    for k, a in ATTRS.items():
        totals[a] = minimums[a] + _pips(added.get(k)) + _pips(bought.get(k))
        draft.set_attribute(a, totals[a])
    return totals


# ---------------------------------------------------------------------------------------------
# Skills, specializations and advanced skills
# ---------------------------------------------------------------------------------------------
def _skills(doc: dict, totals: dict[str, int] | None, draft: DraftBuilder) -> int | None:
    """Add the skills; answer the Character Points spent on attributes and skills the way the
    generator counts them (None when that cannot be worked out)."""
    extras = [e for e in items(doc.get("extraSkills")) if isinstance(e, dict)]
    specs = {
        (text(e.get("attr")), text(e.get("name"))): text(e.get("spec"))
        for e in extras
        if text(e.get("spec"))
    }
    cp_spent: int | None = 0
    bought = mapping(doc.get("attrsCP"))
    if totals is not None:
        for k, a in ATTRS.items():
            cp = _pips(bought.get(k))
            cp_spent += sum(10 * _dice(totals[a] - cp + i) for i in range(min(cp, 200)))
    elif any(_pips(v) for v in bought.values()):
        cp_spent = None
    offsets = []
    for skill_key, value in mapping(doc.get("skills")).items():
        attr_key, _, name = str(skill_key).partition("|")
        name = text(name, 100)
        entry = mapping(value)
        own, cp = _pips(entry.get("c")), _pips(entry.get("cp"))
        if not name or own + cp <= 0:
            continue
        attribute = ATTRS.get(attr_key)
        if attribute is None:
            draft.note(f"Skill {name} {bonus_words(own + cp)} under {text(attr_key, 20)!r}")
            continue
        advanced = name.startswith("(A)")
        parent = specs.get((attr_key, name), "")
        if advanced:
            base = 0
        elif totals is not None:
            base = totals[attribute]
        else:
            offsets.append(f"{name} {bonus_words(own + cp)}")
            if cp:
                cp_spent = None
            continue
        if cp_spent is not None:
            for i in range(min(cp, 200)):
                dice = _dice(base + own + i)
                cp_spent += 2 * dice if advanced else max(1, -(-dice // 2)) if parent else dice
        draft.add_skill(
            name,
            base + own + cp,
            attribute=attribute,
            specialization_of=parent,
            advanced=advanced,
            what="Specialization" if parent else "Skill",
        )
    if offsets:
        draft.note(f"Skills above their attribute, not imported: {', '.join(offsets)}")
    return cp_spent


# ---------------------------------------------------------------------------------------------
# The Force and the balances
# ---------------------------------------------------------------------------------------------
def _force(doc: dict, info: dict, draft: DraftBuilder, cp_spent: int | None) -> int | None:
    start, bought = mapping(doc.get("force")), mapping(doc.get("forceCP"))
    for skill in FORCE:
        base, cp = _pips(start.get(skill)), _pips(bought.get(skill))
        draft.set_force_skill(skill, base + cp)
        if cp_spent is not None:
            cp_spent += sum(_dice(base + i) for i in range(min(cp, 200)))
    draft.force["sensitive"] = info.get("forceSensitive") is True
    for power in items(doc.get("powers")):
        draft.add_power(text(power, 100))
    return cp_spent


def _balances(doc: dict, info: dict, draft: DraftBuilder, cp_spent: int | None) -> None:
    points = mapping(doc.get("points"))
    earned = whole(points.get("cpEarned"), 0) or 0
    other = whole(points.get("cpSpentOther"), 0) or 0
    if cp_spent is None:
        draft.note(
            f"Character Points: {earned} earned, {other} spent outside the sheet, and what "
            "improved the attributes and skills is unknown without the species' minimums; "
            "imported as 0 for the GM to set"
        )
        draft.set_balance("cp", 0, "Character Points")
    else:
        draft.set_balance("cp", earned - cp_spent - other, "Character Points")
    fp = points.get("fpCurrent")
    if fp is None:
        fp = 2 if info.get("forceSensitive") is True else 1
    draft.set_balance("fp", whole(fp, 0), "Force Points")
    draft.set_balance("dsp", whole(points.get("dsp"), 0), "Dark Side Points")
    move = whole(points.get("moveImp"), 0) or 0
    if move:
        draft.note(f"Move {move:+} bought with Character Points (the species sets Move)")
    overrides = mapping(doc.get("overrides"))
    for field, words in (("attrDice", "attribute dice"), ("skillDice", "skill dice")):
        value = overrides.get(field)
        if value not in (None, ""):
            draft.note(
                f"The generator's override of the {words} ({text(value, 20)}D): the "
                "campaign's creation rules apply"
            )
    if whole(overrides.get("powersLeft"), 0):
        draft.note(
            f"The generator's override of the Force powers allowed "
            f"({text(overrides.get('powersLeft'), 20)})"
        )


# ---------------------------------------------------------------------------------------------
# Gear and credits
# ---------------------------------------------------------------------------------------------
def _gear(doc: dict, draft: DraftBuilder) -> None:
    catalogue: list[str] = []
    spent = 0.0
    for name, quantity in mapping(doc.get("equipment")).items():
        count = whole(quantity, 0) or 0
        if count > 0 and text(name):
            draft.add_item(text(name, 100), count)
            catalogue.append(text(name, 60))
    for item in items(doc.get("customEquipment")):
        item = mapping(item)
        count = whole(item.get("qty"), 1) or 0
        spent += _number(item.get("cost")) * max(count, 0)
        draft.add_item(text(item.get("name"), 100), count, text(item.get("note"), 100))
    for name in items(doc.get("armor")):
        draft.add_armour(text(name, 100), catalogue=CATALOGUE)
        catalogue.append(text(name, 60))
    for armour in items(doc.get("customArmor")):
        armour = mapping(armour)
        spent += _number(armour.get("cost"))
        stats = _words(
            ("physical", armour.get("phys")),
            ("energy", armour.get("energy")),
            ("covers", armour.get("loc")),
            ("Dexterity penalty", armour.get("dexPen")),
            ("", armour.get("note")),
        )
        draft.add_armour(text(armour.get("name"), 100), stats)
    for name in items(doc.get("melee")) + items(doc.get("ranged")):
        draft.add_weapon(text(name, 100), catalogue=CATALOGUE)
        catalogue.append(text(name, 60))
    for weapon in items(doc.get("customMelee")):
        weapon = mapping(weapon)
        spent += _number(weapon.get("cost"))
        stats = _words(
            ("damage", weapon.get("dmg")),
            ("difficulty", weapon.get("diff")),
            ("", weapon.get("note")),
        )
        draft.add_weapon(text(weapon.get("name"), 100), stats)
    for weapon in items(doc.get("customRanged")):
        weapon = mapping(weapon)
        spent += _number(weapon.get("cost"))
        stats = _words(
            ("skill", weapon.get("skill")),
            ("damage", weapon.get("dmg")),
            ("ranges", weapon.get("ranges")),
            ("ammo", weapon.get("ammo")),
        )
        draft.add_weapon(text(weapon.get("name"), 100), stats)
    for name, quantity in mapping(doc.get("explosives")).items():
        count = whole(quantity, 0) or 0
        if count > 0 and text(name):
            _explosive(draft, text(name, 100), count, "")
            catalogue.append(text(name, 60))
    for explosive in items(doc.get("customExplosives")):
        explosive = mapping(explosive)
        count = whole(explosive.get("qty"), 1) or 0
        spent += _number(explosive.get("cost")) * max(count, 0)
        stats = _words(("damage", explosive.get("dmg")), ("", explosive.get("note")))
        _explosive(draft, text(explosive.get("name"), 100), count, stats)
    for saber in items(doc.get("sabers")):
        if not draft.has_room():
            break
        saber = mapping(saber)
        name = text(saber.get("name"), 60) or "Lightsaber"
        crystals = [text(saber.get(k), 40) for k in ("primary", "secondary", "tertiary")]
        mods = [text(m, 40) for m in items(saber.get("mods")) if text(m)]
        stats = _words(
            ("colour", saber.get("color")),
            ("crystals", ", ".join(c for c in crystals if c)),
            ("modifications", ", ".join(mods)),
        )
        if mods:
            catalogue.append(f"{name}'s modifications")
        lightsaber = find_gear(draft.campaign, "weapon", "Lightsaber")
        if lightsaber is not None:
            if lightsaber not in draft.weapons:
                draft.weapons.append(lightsaber)
            draft.note(
                f"Lightsaber {name} ({stats}): imported as the library's {lightsaber}, with its "
                "damage"
            )
        else:
            draft.add_weapon(name, stats)
    _credits(doc, draft, spent, catalogue)


def _explosive(draft: DraftBuilder, name: str, count: int, stats: str) -> None:
    """Grenades and the like: the library's weapon of that name once, else a line of
    equipment with the count."""
    if not name or count <= 0 or not draft.has_room():
        return
    found = find_gear(draft.campaign, "weapon", name)
    if found is not None:
        if found not in draft.weapons:
            draft.weapons.append(found)
        if count > 1:
            draft.note(f"{count} x {name}: imported as one {found} (the sheet has no count)")
        return
    draft.add_item(name, count, stats)
    if stats:
        draft.note(f"Explosive {name} ({stats}): kept as a line of equipment, not as a weapon")


def _credits(doc: dict, draft: DraftBuilder, spent: float, catalogue: list[str]) -> None:
    credits = mapping(doc.get("credits"))
    left = (
        _number(credits.get("earned"))
        - _number(credits.get("spentMisc"))
        - _number(credits.get("spentShip"))
        - spent
    )
    amount = math.floor(left)
    draft.set_credits(amount)
    if catalogue:
        shown = ", ".join(dict.fromkeys(catalogue))
        draft.note(
            f"Credits: {max(amount, 0):,} after what the file prices itself; the generator's "
            f"catalogue prices of {shown} are not in the file and were not subtracted"
        )
    for loan in items(credits.get("loans")):
        loan = mapping(loan)
        amount = _number(loan.get("amount"))
        lender = text(loan.get("to"), 60)
        if amount or lender:
            draft.note(
                f"Loan of {amount:,.0f} credits"
                + (f" from {lender}" if lender else "")
                + f" at {_number(loan.get('interest')):g}% interest"
            )


def _words(*pairs) -> str:
    """``damage 4D, ranges 3/30/120``: the stats a line of equipment keeps, in words."""
    out = []
    for label, value in pairs:
        value = text(value, 80)
        if value:
            out.append(f"{label} {value}" if label else value)
    return ", ".join(out)


# ---------------------------------------------------------------------------------------------
# Name and background
# ---------------------------------------------------------------------------------------------
def _background(doc: dict, info: dict, draft: DraftBuilder) -> None:
    draft.set_text("name", info.get("name"), 100)
    for field in ("gender", "age", "height"):
        value = text(info.get(field))
        draft.set_text(field, value, 30)
        if len(value) > 30:
            draft.note(f"{field.capitalize()} {value[:60]!r}: cut to 30 characters")
    draft.add_paragraph("background", "", text(info.get("history")))
    for label, field in (
        ("Occupation", "occupation"),
        ("Homeworld", "planet"),
        ("Weight", "weight"),
        ("Description", "description"),
        ("Species notes", "raceNotes"),
    ):
        draft.add_paragraph("background", label, text(info.get(field)))
    draft.add_paragraph("background", "Notes", text(doc.get("notes")))
    draft.add_paragraph("personality", "", text(info.get("personality")))
    draft.add_paragraph("personality", "Objectives", text(info.get("objectives")))
    draft.add_paragraph("personality", "Quote", text(info.get("quote")))
    player = text(info.get("player"), 60)
    if player:
        draft.note(f"Player {player!r} (the character goes to the player named on the import)")
    if text(info.get("portrait")):
        draft.note("A portrait image (add it on the character's sheet once created)")
    for name in info:
        if name not in KNOWN_INFO and key(str(name)):
            draft.note(f"Field info.{text(name, 60)} of the file")
