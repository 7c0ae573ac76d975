"""A Foundry VTT actor of the OpenD6 Space system (``od6s``) in the Star Wars setting, exported
as JSON (Foundry's "Export Data": the actor document with its embedded items).

Format read from:

* https://github.com/Jan-Ka/foundryvtt-opend6-space at commit
  0d864bdc99311b5fa57d64fab6d80e7d874eddb9 (a fork of nonex-ist/foundryvtt-opend6-space, the
  TypeScript rework of gitlab.com/vtt2/opend6-space): ``src/system.json`` (the actor and item
  types), ``src/module/data/actor/character.ts``, ``data/actor/fields/attributes.ts`` and
  ``fields/common.ts`` (the actor's data: attributes ``agi str mec kno per tec met`` each with
  ``base`` and ``mod`` in pips, ``characterpoints``, ``fatepoints``, ``credits``,
  ``metaphysicsextranormal``, ``species``, ``gender``, ``age``, ``height``, ``description``,
  ``background``, ``personality``, ``custom1``), ``src/module/data/item/*.ts`` (``skill`` and
  ``specialization``: ``attribute``, ``base``, ``mod``, ``isAdvancedSkill``, a
  specialization's ``skill``; ``weapon``: ``stats``, ``damage.score`` in pips, ``range``;
  ``armor``: ``pr``, ``er``; ``gear``: ``quantity``; ``manifestation``: a power) and
  ``src/module/actor/actor-helpers/skill-score.ts`` (``computeSkillDisplayScore``: a skill's
  code is ``base`` + ``mod``, plus its attribute unless it is an advanced skill).
* https://github.com/DarthBanjo/starwarsd6-essentialcompanion-od6s at commit
  24fdebfa31f00e7643bd44e1c5f6c11156910ee8, the Star Wars setting for od6s:
  ``starwarsconfigchecklist.md`` and ``lang/en.json`` (Fate Points are Force Points, custom
  field 1 is Dark Side Points, Agility is Dexterity, the metaphysics skills Channel, Sense and
  Transform are Control, Sense and Alter; flat skills off, 3 pips to the die),
  ``packs/reuppowers.db`` (Force powers as ``manifestation`` items, the Force skills as
  ``skill`` items of attribute ``met``) and ``packs/reupgmpc.db`` (actors in the older shape:
  ``data`` where Foundry 10 and later write ``system``).
* https://github.com/Frostipanda/Holocron-Designer at commit
  1f84550965ce9312fb3146f9a057e794395f07af, ``Star Wars D6/Resources/Export_Template.json``:
  an od6s character written for Foundry's import (``system``, ``items`` with ``_stats``).
"""

from __future__ import annotations

from characters.importers.common import (
    DraftBuilder,
    bonus_words,
    code_words,
    items,
    key,
    mapping,
    plain_text,
    text,
    whole,
)
from characters.models import ATTRIBUTE_LABELS

FORMAT = "foundry-opend6"
LABEL = "a Foundry VTT OpenD6 Space actor"

SYSTEM_IDS = {"od6s", "nonex-ist-od6s"}
ATTRS = {
    "agi": "dexterity",
    "kno": "knowledge",
    "mec": "mechanical",
    "per": "perception",
    "str": "strength",
    "tec": "technical",
}
FORCE_SKILLS = {
    "control": "control",
    "sense": "sense",
    "alter": "alter",
    # OpenD6 Space's own names for the three metaphysics skills.
    "channel": "control",
    "transform": "alter",
}
CHARACTER_TYPES = {"character", "npc"}
OTHER_TYPES = {
    "creature": "a creature",
    "vehicle": "a vehicle",
    "starship": "a starship",
    "container": "a container",
}
DEFAULT_LIMITS = (3, 15)
"""An od6s attribute's ``min`` and ``max`` unless a species template set them (1D and 5D)."""


def body(doc: dict) -> dict:
    """The actor's (or an item's) own data: ``system``, or ``data`` before Foundry 10."""
    system = doc.get("system")
    return system if isinstance(system, dict) else mapping(doc.get("data"))


def _od6s_actor(doc: object) -> bool:
    if not isinstance(doc, dict) or not isinstance(doc.get("type"), str):
        return False
    attributes = body(doc).get("attributes")
    return isinstance(attributes, dict) and "agi" in attributes and "mec" in attributes


def matches(doc: object) -> bool:
    return _od6s_actor(doc) and doc.get("type") in CHARACTER_TYPES  # type: ignore[union-attr]


def _system_id(doc: dict) -> str:
    stats = mapping(doc.get("_stats"))
    source = mapping(mapping(doc.get("flags")).get("exportSource"))
    return text(stats.get("systemId") or source.get("system"), 40)


def refusal(doc: object) -> str | None:
    """Why a Foundry document that is not an od6s character cannot be imported."""
    if not isinstance(doc, dict):
        return None
    if _od6s_actor(doc):
        what = OTHER_TYPES.get(doc.get("type"), f"of type {text(doc.get('type'), 30)!r}")
        return (
            f"This Foundry actor is {what}, not a character: only characters (and NPCs) can "
            "be imported."
        )
    foundry = isinstance(doc.get("type"), str) and (
        isinstance(doc.get("system"), dict) or isinstance(doc.get("data"), dict)
    )
    if foundry and ("items" in doc or "_stats" in doc or "prototypeToken" in doc):
        system = _system_id(doc)
        if system and system not in SYSTEM_IDS:
            return (
                f"This is a Foundry VTT document of the {system!r} game system; only actors of "
                "the OpenD6 Space system (od6s) can be imported."
            )
        return (
            "This Foundry VTT document is not an OpenD6 Space character: it has no od6s "
            "attributes (agi, str, mec, kno, per, tec)."
        )
    return None


def convert(doc: dict, draft: DraftBuilder) -> None:
    data = body(doc)
    if doc.get("type") == "npc":
        draft.note("A Foundry NPC, imported as a player character")
    _species(data, draft)
    totals, metaphysics = _attributes(data, draft)
    for item in items(doc.get("items")):
        if isinstance(item, dict):
            _item(item, totals, metaphysics, draft)
    _balances(data, draft)
    _background(doc, data, draft)
    effects = [e for e in items(doc.get("effects")) if isinstance(e, dict)]
    if effects:
        names = ", ".join(text(e.get("name") or e.get("label"), 40) or "unnamed" for e in effects)
        draft.note(f"Active effects on the actor: {names}")


# ---------------------------------------------------------------------------------------------
# Species and attributes
# ---------------------------------------------------------------------------------------------
def _species(data: dict, draft: DraftBuilder) -> None:
    name = text(mapping(data.get("species")).get("content"), 60)
    if not name:
        draft.note("No species in the file: Human assumed (change it on the Species step)")
        name = "Human"
    known = draft.set_species(name)
    move = whole(mapping(data.get("move")).get("value"), None)
    species_move = known.move if known is not None else None
    if move is not None and move != species_move:
        draft.note(f"Move {move} (the species sets Move)")


def _attributes(data: dict, draft: DraftBuilder) -> tuple[dict[str, int], int]:
    attributes = mapping(data.get("attributes"))
    totals: dict[str, int] = {}
    limits = []
    for short, attribute in ATTRS.items():
        entry = mapping(attributes.get(short))
        label = ATTRIBUTE_LABELS[attribute]
        base = whole(entry.get("base"), None)
        if base is None:
            draft.note(f"{label}: no value in the file")
            continue
        totals[short] = base
        draft.set_attribute(attribute, base)
        mod = whole(entry.get("mod"), 0) or 0
        if mod:
            draft.note(f"{label} modifier {bonus_words(mod)} (an effect in Foundry), not imported")
        low, high = whole(entry.get("min"), None), whole(entry.get("max"), None)
        if low is not None and high is not None and (low, high) != DEFAULT_LIMITS:
            limits.append(f"{label} {code_words(low)}-{code_words(high)}")
    if limits:
        draft.note(
            f"Attribute limits in the file: {', '.join(limits)} (the species' limits are the "
            "campaign library's, or entered on the Species step)"
        )
    metaphysics = mapping(attributes.get("met"))
    for short in ("ca1", "ca2", "ca3", "ca4"):
        extra = whole(mapping(attributes.get(short)).get("base"), 0) or 0
        if extra:
            draft.note(f"Custom attribute {short} {code_words(extra)}")
    return totals, whole(metaphysics.get("base"), 0) or 0


# ---------------------------------------------------------------------------------------------
# Items: skills, specializations, Force skills and powers, gear
# ---------------------------------------------------------------------------------------------
def _item(item: dict, totals: dict[str, int], metaphysics: int, draft: DraftBuilder) -> None:
    kind = text(item.get("type"), 40)
    name = text(item.get("name"), 100)
    data = body(item)
    if not name:
        return
    if kind in ("skill", "specialization"):
        _skill(kind, name, data, totals, metaphysics, draft)
    elif kind == "manifestation":
        draft.add_power(name)
    elif kind == "weapon":
        _weapon(name, data, draft)
    elif kind == "armor":
        stats = _words(
            ("physical", _bonus(data.get("pr"))),
            ("energy", _bonus(data.get("er"))),
        )
        draft.add_armour(name, stats)
    elif kind == "gear":
        quantity = whole(data.get("quantity"), 1)
        draft.add_item(name, quantity if quantity is not None else 1)
    else:
        draft.note(f"Foundry item {name!r} of type {kind!r}")


def _skill(kind, name, data, totals, metaphysics, draft) -> None:
    attribute = text(data.get("attribute"), 10).lower()
    base = whole(data.get("base"), 0) or 0
    mod = whole(data.get("mod"), 0) or 0
    what = "Specialization" if kind == "specialization" else "Skill"
    if mod:
        draft.note(
            f"{what} {name}: modifier {bonus_words(mod)} (an effect in Foundry), not imported"
        )
    force = FORCE_SKILLS.get(key(name))
    if attribute == "met" and kind == "specialization":
        draft.note(
            f"Specialization {name} of the Force skill {text(data.get('skill'), 40)} "
            f"({bonus_words(base)})"
        )
        return
    if attribute == "met" or (force and kind == "skill" and attribute not in ATTRS):
        if force is None:
            draft.note(
                f"Force skill {name} {code_words(metaphysics + base)}: not Control, Sense or Alter"
            )
        else:
            draft.set_force_skill(force, metaphysics + base)
        return
    if attribute not in ATTRS:
        draft.note(f"{what} {name} ({bonus_words(base)}) of attribute {attribute!r}")
        return
    advanced = data.get("isAdvancedSkill") is True
    if base == 0 and not advanced:
        return  # at its attribute's code: nothing to note on a sheet
    if attribute not in totals:
        draft.note(f"{what} {name} {bonus_words(base)}: its attribute has no value in the file")
        return
    # computeSkillDisplayScore: flat for an advanced skill, else on top of the attribute.
    pips = base if advanced else totals[attribute] + base
    draft.add_skill(
        name,
        pips,
        attribute=ATTRS[attribute],
        specialization_of=text(data.get("skill"), 80) if kind == "specialization" else "",
        advanced=advanced or name.startswith("(A)"),
        what=what,
    )


def _bonus(value) -> str:
    pips = whole(value, 0) or 0
    return bonus_words(pips) if pips else ""


def _weapon(name: str, data: dict, draft: DraftBuilder) -> None:
    stats = mapping(data.get("stats"))
    damage = mapping(data.get("damage"))
    score = whole(damage.get("score"), 0) or 0
    if damage.get("muscle") is True:
        damage_words = f"STR+{code_words(score)}" if score else "STR"
    else:
        damage_words = code_words(score) if score else ""
    ranges = mapping(data.get("range"))
    bands = [text(ranges.get(b), 10) for b in ("short", "medium", "long")]
    skill = text(stats.get("skill"), 40)
    specialization = text(stats.get("specialization"), 40)
    words = _words(
        ("skill", f"{skill} ({specialization})" if skill and specialization else skill),
        ("damage", damage_words),
        ("ranges", "/".join(bands) if any(b not in ("", "0") for b in bands) else ""),
        ("ammo", text(data.get("ammo"), 10) if whole(data.get("ammo"), 0) else ""),
    )
    draft.add_weapon(name, words)


def _words(*pairs) -> str:
    return ", ".join(f"{label} {value}" for label, value in pairs if value)


# ---------------------------------------------------------------------------------------------
# Balances, credits and background
# ---------------------------------------------------------------------------------------------
def _value(data: dict, field: str, part: str = "value"):
    return mapping(data.get(field)).get(part)


def _balances(data: dict, draft: DraftBuilder) -> None:
    draft.set_balance("cp", whole(_value(data, "characterpoints"), 0), "Character Points")
    draft.set_balance("fp", whole(_value(data, "fatepoints"), 0), "Force Points")
    custom1 = data.get("custom1")
    dsp = custom1.get("value") if isinstance(custom1, dict) else custom1
    amount = whole(dsp, None)
    if amount is not None:
        draft.set_balance("dsp", amount, "Dark Side Points")
    elif text(dsp):
        draft.note(f"Custom field 1 {text(dsp, 40)!r} (Dark Side Points in the Star Wars setup)")
    draft.force["sensitive"] = _value(data, "metaphysicsextranormal") is True
    credits = _value(data, "credits")
    draft.set_credits(whole(credits, 0) or 0)
    if credits is not None and whole(credits, None) is None:
        draft.note(f"Credits {text(credits, 30)!r}: not a whole number")
    funds = whole(_value(data, "funds", "score"), 0) or 0
    if funds:
        draft.note(f"Funds {code_words(funds)} (OpenD6's Funds attribute)")
    wounds = _value(data, "wounds")
    if whole(wounds, 0):
        draft.note(f"Wound level {text(wounds, 10)} in Foundry (a new character starts unhurt)")


def _background(doc: dict, data: dict, draft: DraftBuilder) -> None:
    draft.set_text("name", doc.get("name"), 100)
    for field in ("gender", "age", "height"):
        value = text(_value(data, field, "content"))
        draft.set_text(field, value, 30)
        if len(value) > 30:
            draft.note(f"{field.capitalize()} {value[:60]!r}: cut to 30 characters")
    draft.add_paragraph("background", "", plain_text(_value(data, "background", "content")))
    draft.add_paragraph("background", "Type", text(_value(data, "chartype", "content")))
    draft.add_paragraph("background", "Weight", text(_value(data, "weight", "content")))
    draft.add_paragraph(
        "background", "Description", plain_text(_value(data, "description", "content"))
    )
    draft.add_paragraph("personality", "", plain_text(_value(data, "personality", "content")))
