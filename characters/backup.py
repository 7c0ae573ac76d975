"""The characters app's parts of a campaign backup (:mod:`campaigns.backup`, the format in
``docs/backup-format.md``): the characters with their skills, Force powers and items, the dice
log, the ledger, the skills used in adventures, advancements, advances of time, the GM's skill
edits and the creation wizard's drafts. Registered by ``CharactersConfig.ready()``, in this
order (a part refers only to those before it).

Database ids inside JSON columns travel as refs: a roll's ``"trait": "skill:<id>"`` (the skill
rolled) and an advance's report lines (``character_id``, ``advancement``); a draft's owner
(``data.start.owner``, a user id) as a username. Portraits are not in the file (see the
format's documentation)."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError

from campaigns.backup import ENGINE_ERRORS, JsonRule, Loader, Part, Problem, Table
from characters.healing_models import HealingCourse, HealingEvent
from characters.models import (
    BALANCE_FIELDS,
    Advancement,
    Character,
    CreationDraft,
    DiceRoll,
    ForcePower,
    Item,
    LedgerEntry,
    Skill,
    SkillEdit,
    TimeAdvance,
    TraitUse,
    validate_stun_state,
)
from rules import DieCode, Roll
from rules.advancement import Training
from rules.droids import DroidDesign, validate_droid
from rules.injuries import HealingState

ATTRIBUTES = ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical")
BALANCES = tuple(BALANCE_FIELDS.values())
_SKILL_TRAIT = re.compile(r"^skill:([0-9]{1,19})$")
GONE_SKILL = "skill:gone"
"""A roll's trait when the skill rolled is no longer on any sheet of the campaign."""
INTERRUPTED = "interrupted by a backup and restore; advance again to carry on"


# --- JSON columns ------------------------------------------------------------------------------
def _stun_state(value: Any, loader: Loader) -> Any:
    try:
        validate_stun_state(value)
    except ValidationError as exc:
        raise Problem(" ".join(exc.messages)) from None
    return value


_CRITICAL_KEYS = {
    "table",
    "roll",
    "name",
    "words",
    "from_day",
    "deadline_day",
    "permanent",
    "healed_day",
    "treated_day",
}


def _criticals(value: Any, loader: Loader) -> Any:
    """[HOUSE] critical injuries carried on the sheet (characters.healing.carry_criticals)."""
    if not isinstance(value, list) or len(value) > 100:
        raise Problem("criticals: a list of at most 100 critical injuries")
    for c in value:
        if not isinstance(c, dict) or not {"table", "name"} <= set(c) <= _CRITICAL_KEYS:
            raise Problem(f"criticals: each is an object with the keys {sorted(_CRITICAL_KEYS)}")
        if c["table"] not in ("wounded", "wounded_twice", "incapacitated", "mortally_wounded"):
            raise Problem(f"criticals: no critical table {c['table']!r}")
        if not isinstance(c["name"], str) or not isinstance(c.get("words", ""), str):
            raise Problem("criticals: the name and words are text")
        for key in ("roll", "from_day", "deadline_day", "healed_day", "treated_day"):
            v = c.get(key)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                raise Problem(f"criticals: {key} is a whole number ≥ 0 or null")
        if not isinstance(c.get("permanent", False), bool):
            raise Problem("criticals: permanent is true or false")
    return value


def _droid_design(value: Any, loader: Loader) -> Any:
    """A droid's building record as the engine reads and the rules allow it (null for an
    organic character)."""
    if value is None:
        return value
    try:
        validate_droid(DroidDesign.from_json(value))  # as the builder let it be built
    except ENGINE_ERRORS as exc:
        raise Problem(f"not a droid design this server can read ({exc})") from None
    return value


def _dice_out(value: Any, exporter) -> Any:
    trait = value.get("trait") if isinstance(value, dict) else None
    found = _SKILL_TRAIT.match(trait) if isinstance(trait, str) else None
    if found is None:
        return value
    ref = exporter.ref("skills", int(found.group(1)))
    return {**value, "trait": GONE_SKILL if ref is None else f"skill:{ref}"}


def _dice_into(value: Any, loader: Loader) -> Any:
    if not isinstance(value, dict):
        raise Problem("a roll's dice are a JSON object (rules.Roll.to_json)")
    trait = value.get("trait")
    found = _SKILL_TRAIT.match(trait) if isinstance(trait, str) else None
    if found is None:
        return value
    try:
        skill = loader.resolve("skills", int(found.group(1)))
    except Problem as problem:
        raise Problem(f"{trait!r}: {problem.message}", ".trait") from None
    if not loader.restoring:  # checked: the ref stays until the skill's new id is known
        return value
    return {**value, "trait": f"skill:{skill}"}


def _training(value: Any, loader: Loader) -> Any:
    try:
        Training.from_json(value)
    except ENGINE_ERRORS as exc:
        raise Problem(f"not a training this server can read ({exc})") from None
    return value


def _object(value: Any, loader: Loader) -> Any:
    if not isinstance(value, dict):
        raise Problem("is a JSON object")
    return value


REPORT_REFS = (("character_id", "characters"), ("advancement", "advancements"))
"""Ids in an advance's report lines, and the parts whose refs they become."""


def _report_out(value: Any, exporter) -> Any:
    if not isinstance(value, list):
        return value
    lines = []
    for line in value:
        if isinstance(line, dict):
            line = dict(line)
            for key, space in REPORT_REFS:
                if isinstance(line.get(key), int):
                    line[key] = exporter.ref(space, line[key])
        lines.append(line)
    return lines


def _report_into(value: Any, loader: Loader) -> Any:
    if not isinstance(value, list):
        raise Problem("an advance's report is a list of lines")
    lines = []
    for number, line in enumerate(value):
        if not isinstance(line, dict):
            raise Problem("a report line is a JSON object", f"[{number}]")
        line = dict(line)
        for key, space in REPORT_REFS:
            if line.get(key) is not None:
                try:
                    line[key] = loader.resolve(space, line[key])
                except Problem as problem:
                    raise Problem(problem.message, f"[{number}].{key}") from None
        lines.append(line)
    return lines


def _draft_out(value: Any, exporter) -> Any:
    start = value.get("start") if isinstance(value, dict) else None
    if not isinstance(start, dict) or not isinstance(start.get("owner"), int):
        return value
    return {**value, "start": {**start, "owner": exporter.username(start["owner"])}}


def _draft_into(value: Any, loader: Loader) -> Any:
    if not isinstance(value, dict):
        raise Problem("a draft's data is a JSON object")
    start = value.get("start")
    if not isinstance(start, dict) or start.get("owner") is None:
        return value
    try:
        who = loader.user(start["owner"])
    except Problem as problem:
        raise Problem(problem.message, ".start.owner") from None
    # An owner with no account here: the draft has none, and the wizard says so.
    return {**value, "start": {**start, "owner": who.pk}}


# --- checks across fields and records -----------------------------------------------------------
def _healing_state(value: Any, loader: Loader) -> Any:
    try:
        HealingState.from_json(value)
    except ENGINE_ERRORS as exc:
        raise Problem(f"not a healing state this server can read ({exc})") from None
    return value


def _healing_dice(value: Any, loader: Loader) -> Any:
    if not isinstance(value, dict):
        raise Problem("a healing event's dice are a JSON object")
    return value


def _healing(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    if not where.endswith("[0]"):
        loader.problem(where, "a character has at most one healing course")
    code = values["bacta_code"] or ""
    in_tank = values["bacta_until"] is not None
    if in_tank != (values["bacta_from"] is not None) or in_tank != bool(code):
        loader.problem(
            f"{where}.bacta_until", "a bacta treatment has its first day, last day and die code"
        )
    elif in_tank:
        if values["bacta_until"] < values["bacta_from"]:
            loader.problem(f"{where}.bacta_until", "a treatment ends on or after its first day")
        try:
            DieCode.parse(code)
        except ENGINE_ERRORS:
            loader.problem(f"{where}.bacta_code", "a die code such as 4D+1")


def _character(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    if values["kind"] == Character.Kind.PC and values["owner"] is None:
        loader.problem(f"{where}.owner", "a player character has an owner (a username)")
    if values["nature"] != Character.Nature.DROID and values["droid_design"] is not None:
        loader.problem(f"{where}.droid_design", "only a droid has a droid design (nature droid)")
    if ref is not None:
        held = {name: values[name] for name in BALANCES}
        loader.scratch.setdefault("balances", {})[ref] = (where, held)


def _roll(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    try:
        roll = Roll.from_json(values["dice"])
    except ENGINE_ERRORS as exc:
        loader.problem(f"{where}.dice", f"not a roll this server can read ({exc})")
        return
    if roll.total != values["total"]:
        loader.problem(f"{where}.total", f"{values['total']} is not its dice's total, {roll.total}")


def _ledger_entry(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    if values["delta"] == 0:
        loader.problem(f"{where}.delta", "a ledger entry changes a balance (not by 0)")
    last = loader.scratch.setdefault("ledger", {})
    last[values["character"], values["currency"]] = (values["balance_after"], where)


def _balances_match_ledger(loader: Loader) -> None:
    """Each balance on a sheet is where its ledger ends (0 with no entry)."""
    last = loader.scratch.get("ledger", {})
    for ref, (where, held) in loader.scratch.get("balances", {}).items():
        for currency, name in BALANCE_FIELDS.items():
            ends, place = last.get((ref, str(currency)), (0, None))
            if held[name] != ends:
                said = f"its ledger ends at {ends} ({place})" if place else "it has no ledger entry"
                loader.problem(f"{where}.{name}", f"{held[name]} but {said}")


def _time_advance(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    start, end, reached = values["from_day"], values["to_day"], values["day_reached"]
    if end <= start:
        loader.problem(f"{where}.to_day", f"day {end} is not after day {start}")
    elif not start <= reached <= end:
        loader.problem(f"{where}.day_reached", f"day {reached} is not within {start}…{end}")
    if values["status"] in (TimeAdvance.Status.QUEUED, TimeAdvance.Status.RUNNING):
        # No worker runs it here: it stops where it was, and the GM advances again.
        loader.note(f"The advance to day {end} was under way; it is stopped at day {reached}.")
        values["status"] = TimeAdvance.Status.FAILED
        values["error"] = INTERRUPTED


def _rolls_the_ledger_names(exporter) -> set[int]:
    """The rolls later parts name: the ledger's, and the craft's repair requests'."""
    from characters.craft_models import RepairRequest

    repairs = RepairRequest.objects.filter(craft__campaign=exporter.campaign, roll__isnull=False)
    return set(
        LedgerEntry.objects.filter(character__campaign=exporter.campaign, roll__isnull=False)
        .values_list("roll_id", flat=True)
        .iterator()
    ) | set(repairs.values_list("roll_id", flat=True))


# --- the parts ----------------------------------------------------------------------------------
CHARACTERS = Table(
    Character,
    (
        "kind",
        "nature",
        "owner",
        "secret",
        "name",
        "species",
        "template",
        "gender",
        "age",
        "height",
        *ATTRIBUTES,
        "move",
        "force_sensitive",
        "droid_design",
        *BALANCES,
        "wound_level",
        "stun_state",
        "criticals",
        "background",
        "personality",
        "notes",
        "created_at",
    ),
    codes=ATTRIBUTES,
    json={
        "stun_state": JsonRule(into=_stun_state),
        "droid_design": JsonRule(into=_droid_design),
        "criticals": JsonRule(into=_criticals),
    },
    children={
        "skills": Table(
            Skill,
            ("name", "attribute", "kind", "base_skill", "code"),
            parent="character",
            codes=("code",),
            unique=(("name",),),
        ),
        "powers": Table(
            ForcePower, ("name", "skills", "notes"), parent="character", unique=(("name",),)
        ),
        "items": Table(
            Item,
            (
                "kind",
                "name",
                "quantity",
                "damage",
                "skill",
                "ranges",
                "armour_physical",
                "armour_energy",
                "notes",
            ),
            parent="character",
            codes=("damage", "armour_physical", "armour_energy"),
        ),
        "healing": Table(
            HealingCourse,
            (
                "seed",
                "level",
                "state",
                "processed_through_day",
                "death_pending",
                "bacta_from",
                "bacta_until",
                "bacta_medicine",
                "bacta_code",
            ),
            parent="character",
            json={"state": JsonRule(into=_healing_state)},
            check=_healing,
        ),
        "healing_events": Table(
            HealingEvent,
            ("kind", "day", "n", "level_before", "level_after", "total", "dice", "words"),
            parent="character",
            json={"dice": JsonRule(into=_healing_dice)},
            unique=(("kind", "day", "n"),),
        ),
    },
    users={"owner": "importer"},
    check=_character,
)

ON_CHARACTERS = {"character": "characters"}

PARTS = (
    Part("characters", CHARACTERS, rows=lambda campaign: campaign.characters.all()),
    Part(
        "rolls",
        Table(
            DiceRoll,
            (
                "character",
                "actor",
                "label",
                "code",
                "pool",
                "dice",
                "total",
                "difficulty",
                "cp_spent",
                "force_point",
                "hidden",
                "created_at",
            ),
            refs=ON_CHARACTERS,
            json={"dice": JsonRule(out=_dice_out, into=_dice_into, refs=True)},
            check=_roll,
            remember=_rolls_the_ledger_names,
        ),
        rows=lambda campaign: campaign.rolls.all(),
    ),
    Part(
        "ledger",
        Table(
            LedgerEntry,
            (
                "character",
                "currency",
                "delta",
                "balance_after",
                "reason",
                "actor",
                "roll",
                "created_at",
            ),
            refs={**ON_CHARACTERS, "roll": "rolls"},
            check=_ledger_entry,
        ),
        rows=lambda campaign: LedgerEntry.objects.filter(character__campaign=campaign),
        campaign_field=None,
        finish=_balances_match_ledger,
    ),
    Part(
        "trait_uses",
        Table(
            TraitUse,
            ("adventure", "character", "trait", "by_hand", "created_at"),
            refs={**ON_CHARACTERS, "adventure": "adventures"},
            unique=(("adventure", "character", "trait"),),
        ),
        rows=lambda campaign: TraitUse.objects.filter(character__campaign=campaign),
        campaign_field=None,
    ),
    Part(
        "advancements",
        Table(
            Advancement,
            (
                "character",
                "kind",
                "target",
                "skill",
                "current",
                "new",
                "teacher",
                "used_last_adventure",
                "cp_cost",
                "training_days",
                "training",
                "adventure",
                "status",
                "requested_day",
                "start_day",
                "due_day",
                "completed_day",
                "reason",
                "roll",
                "requested_by",
                "decided_by",
                "created_at",
            ),
            refs={**ON_CHARACTERS, "skill": "skills", "adventure": "adventures"},
            json={"training": JsonRule(into=_training), "roll": JsonRule(into=_object)},
        ),
        rows=lambda campaign: Advancement.objects.filter(character__campaign=campaign),
        campaign_field=None,
    ),
    Part(
        "time_advances",
        Table(
            TimeAdvance,
            (
                "from_day",
                "to_day",
                "day_reached",
                "status",
                "seed",
                "report",
                "error",
                "requested_by",
                "created_at",
                "finished_at",
            ),
            json={"report": JsonRule(out=_report_out, into=_report_into, refs=True)},
            unique=(("to_day",),),
            check=_time_advance,
        ),
        rows=lambda campaign: campaign.time_advances.all(),
    ),
    Part(
        "skill_edits",
        Table(
            SkillEdit,
            (
                "character",
                "actor",
                "action",
                "skill_name",
                "before",
                "after",
                "detail",
                "created_at",
            ),
            refs=ON_CHARACTERS,
        ),
        rows=lambda campaign: SkillEdit.objects.filter(character__campaign=campaign),
        campaign_field=None,
    ),
    Part(
        "drafts",
        Table(
            CreationDraft,
            (
                "user",
                "kind",
                "step",
                "data",
                "status",
                "submitted_at",
                "exception_note",
                "review_reason",
                "reviewed_by",
            ),
            json={"data": JsonRule(out=_draft_out, into=_draft_into)},
            users={"user": "skip"},
        ),
        rows=lambda campaign: CreationDraft.objects.filter(campaign=campaign),
    ),
)
"""Registered by ``CharactersConfig.ready()`` after the campaign's own parts."""
