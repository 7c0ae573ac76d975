"""The encounters app's parts of a campaign backup (:mod:`campaigns.backup`, the format in
``docs/backup-format.md``): every encounter with its steps, and the saved quick stat blocks.
Registered by ``EncountersConfig.ready()``, after the characters' parts.

An encounter's state, its steps' commands, events and ``touched`` lists name a character's
combatant ``pc-<id>`` / ``npc-<id>`` (:func:`encounters.combatants.combatant_id_for`): in the
file the number is the character's ref (``pc-3`` is the third character of the file), and on
import the new character's id. A character no longer in the campaign (deleted since the
fight) becomes ``pc-gone-<n>``, which names no sheet. A vehicle or starship's combatant
``craft-<id>`` (and its squadron copies ``craft-<id>-<n>``) and the ``craft_id`` in its part
name the craft by its ref in the same way (``craft-gone-<n>`` and null when deleted).
Everything is checked with the engine
(``EncounterState.from_json``, ``command_from_json``, ``Event.from_json``,
``RuleSet.from_json``) before anything is written."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from campaigns.backup import ENGINE_ERRORS, RULE_OPTIONS, JsonRule, Loader, Part, Problem, Table
from encounters.combatants import character_id_of
from encounters.models import Encounter, StatBlock, Step
from rules.encounter import EncounterState, Event, command_from_json


def _walk(value: Any, swap: Callable[[str, str], str], at: str = "", depth: int = 0) -> Any:
    """``value`` with ``swap(text, place)`` applied to every text in it, keys included."""
    if isinstance(value, str):
        return swap(value, at)
    if depth > 50:
        raise Problem("is nested too deep", at)
    if isinstance(value, list):
        return [_walk(v, swap, f"{at}[{n}]", depth + 1) for n, v in enumerate(value)]
    if isinstance(value, dict):
        return {
            swap(k, at): _walk(v, swap, f"{at}.{k}", depth + 1) if isinstance(k, str) else v
            for k, v in value.items()
        }
    return value


_CRAFT = re.compile(r"^craft-([1-9][0-9]{0,18})((?:-[0-9]{1,6})?)$")


def _craft_refs(value: Any, swap: Callable[[int], int | None], depth: int = 0) -> Any:
    """``value`` with every ``craft_id`` number (a craft's part of a combatant) swapped."""
    if depth > 50:
        return value
    if isinstance(value, list):
        return [_craft_refs(v, swap, depth + 1) for v in value]
    if isinstance(value, dict):
        out = {k: _craft_refs(v, swap, depth + 1) for k, v in value.items()}
        pk = out.get("craft_id")
        if isinstance(pk, int) and not isinstance(pk, bool) and "hull" in out:
            out["craft_id"] = swap(pk)
        return out
    return value


def _ids_out(value: Any, exporter) -> Any:
    def swap(text: str, at: str) -> str:
        craft = _CRAFT.match(text)
        if craft is not None:
            pk = int(craft.group(1))
            ref = exporter.ref("craft", pk)
            if ref is None:
                return exporter.gone_id("craft", pk, "craft") + craft.group(2)
            return f"craft-{ref}{craft.group(2)}"
        pk = character_id_of(text)
        if pk is None:
            return text
        prefix = text.split("-", 1)[0]
        ref = exporter.ref("characters", pk)
        return f"{prefix}-{ref}" if ref is not None else exporter.gone_id("characters", pk, prefix)

    return _craft_refs(_walk(value, swap), lambda pk: exporter.ref("craft", pk))


def _ids_into(value: Any, loader: Loader) -> Any:
    def swap(text: str, at: str) -> str:
        craft = _CRAFT.match(text)
        if craft is not None:
            try:
                return f"craft-{loader.resolve('craft', int(craft.group(1)))}{craft.group(2)}"
            except Problem as problem:
                raise Problem(f"{text!r} names no craft: {problem.message}", at) from None
        ref = character_id_of(text)
        if ref is None:
            return text
        try:
            return f"{text.split('-', 1)[0]}-{loader.resolve('characters', ref)}"
        except Problem as problem:
            raise Problem(f"{text!r} names no character: {problem.message}", at) from None

    def craft(ref: int) -> int | None:
        try:
            return loader.resolve("craft", ref)
        except Problem as problem:
            raise Problem(f"craft_id {ref} names no craft: {problem.message}") from None

    return _craft_refs(_walk(value, swap), craft)


def _engine(reader: Callable[[Any], Any], what: str) -> Callable[[Any, Loader], Any]:
    """The JSON with its ids rewritten, checked by the engine's ``reader``."""

    def into(value: Any, loader: Loader) -> Any:
        value = _ids_into(value, loader)
        if not loader.restoring:
            try:
                reader(value)
            except Problem:
                raise
            except ENGINE_ERRORS as exc:
                raise Problem(f"not {what} this server can read ({exc})") from None
        return value

    return into


def _events(value: Any) -> None:
    if not isinstance(value, list):
        raise Problem("a step's events are a list")
    for number, event in enumerate(value):
        try:
            Event.from_json(event)
        except ENGINE_ERRORS as exc:
            raise Problem(f"not an event this server can read ({exc})", f"[{number}]") from None


def _touched(value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Problem("a step's touched combatants are a list of ids")


def _block(value: Any, loader: Loader) -> Any:
    if not isinstance(value, dict):
        raise Problem("a stat block is a JSON object (the quick stat block form's values)")
    return value


STATE = JsonRule(
    out=_ids_out, into=_engine(EncounterState.from_json, "an encounter state"), refs=True
)

STEPS = Table(
    Step,
    ("number", "version", "command", "events", "touched", "actor", "created_at"),
    parent="encounter",
    json={
        "command": JsonRule(out=_ids_out, into=_engine(command_from_json, "a step"), refs=True),
        "events": JsonRule(out=_ids_out, into=_engine(_events, "events"), refs=True),
        "touched": JsonRule(out=_ids_out, into=_engine(_touched, "a list of ids"), refs=True),
    },
    unique=(("number",),),
)

PARTS = (
    Part(
        "encounters",
        Table(
            Encounter,
            (
                "name",
                "status",
                "state",
                "initial_state",
                "rule_options",
                "version",
                "step_count",
                "undone_at",
                "created_by",
                "created_at",
            ),
            json={"state": STATE, "initial_state": STATE, "rule_options": RULE_OPTIONS},
            children={"steps": STEPS},
        ),
        rows=lambda campaign: campaign.encounters.all(),
    ),
    Part(
        "stat_blocks",
        Table(
            StatBlock,
            ("name", "block", "created_at"),
            json={"block": JsonRule(into=_block)},
            unique=(("name",),),
        ),
        rows=lambda campaign: campaign.stat_blocks.all(),
    ),
)
"""Registered by ``EncountersConfig.ready()`` after the characters' parts."""
