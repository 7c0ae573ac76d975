"""From a submitted form to an engine step, and what a step means for the app around the
engine: who may take it (a player acts only for his own combatant), which Character Points and
Force Points it spends from which sheet, and which combatants it touched (what a live view must
redraw).

Forms post the command's fields by name (``type=attack``, ``attacker=…``, ``difficulty=15``);
:func:`command_data` turns them into the JSON the engine's ``command_from_json`` reads, and a
value of the wrong shape is refused with a message naming the field."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any

from django.http import QueryDict

from rules.encounter import COMMANDS, EncounterError, EncounterState, next_to_act

__all__ = [
    "PLAYER_STEPS",
    "REDRAW_ALL",
    "Spend",
    "command_data",
    "player_refusal",
    "spends",
    "touched",
]

MAX_NUMBER = 1000
"""No difficulty, action count or Character Point spend in a fight comes near this."""

PLAYER_STEPS = ("declare_actions", "act", "aim", "attack", "react", "resolve_attack")
"""What a player may do, always for his own combatant (first aid needs the GM's difficulty
number: the GM takes that step)."""

PLAYER_FIELDS = {
    "attack": ("range_band", "cp_dice", "force_point", "gun"),
    "react": ("skill", "extra", "full", "haste", "cp_dice", "force_point"),
    "resolve_attack": ("damage_cp",),
}
"""What a player may choose on those steps beyond who acts; every other field keeps its default
(the difficulty, cover and combined-fire bonuses are the GM's numbers)."""

REDRAW_ALL = (
    "add_combatant",
    "add_combatants",
    "remove_combatant",
    "roll_initiative",
    "choose_order",
    "next_segment",
    "end_round",
    "end_encounter",
    "declare_all",
    "surprise",
    "detonate",
)
"""Steps that change the order or every combatant: a live view redraws the whole table."""

_PEOPLE = ("combatant", "attacker", "target", "healer", "patient", "pilot", "craft", "other")
_GROUPS = ("others", "supporters", "combatants")


def _field_kinds(kind: str) -> dict[str, str]:
    command = COMMANDS[kind]
    return {f.name: str(f.type) for f in fields(command)}  # type: ignore[arg-type]


def _number(raw: str, name: str, optional: bool) -> int | None:
    raw = raw.strip()
    if not raw:
        if optional:
            return None
        raise EncounterError(f"{name.replace('_', ' ')}: give a whole number")
    digits = raw.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        raise EncounterError(f"{name.replace('_', ' ')}: {raw[:20]!r} is not a whole number")
    if len(digits) > 6:  # a whole number, but far out of range
        raise EncounterError(
            f"{name.replace('_', ' ')}: {raw[:20]!r} is not a whole number from 0 to {MAX_NUMBER}"
        )
    value = int(raw)
    if not 0 <= value <= MAX_NUMBER:
        raise EncounterError(f"{name.replace('_', ' ')} is between 0 and {MAX_NUMBER}")
    return value


def command_data(post: QueryDict) -> dict[str, Any]:
    """The step a form posted, as the engine's JSON (``{"type": ..., ...}``). Fields the form
    leaves out take the command's defaults; checkboxes are true when present."""
    kind = post.get("type", "")
    if kind not in COMMANDS or kind == "add_combatant":
        raise EncounterError(f"unknown encounter step {kind[:40]!r}")
    data: dict[str, Any] = {"type": kind}
    command = COMMANDS[kind]
    if kind == "detonate":
        data["victims"] = _victims(post)
    defaults = {f.name: f.default for f in fields(command)}  # type: ignore[arg-type]
    for name, kinds in _field_kinds(kind).items():
        if name in data:
            continue
        if "tuple" in kinds:
            values = [v.strip() for v in post.getlist(name) if v.strip()]
            if any("\x00" in v or len(v) > 100 for v in values):
                raise EncounterError(f"{name.replace('_', ' ')}: choose from the list")
            if values or name in post:
                data[name] = values
            continue
        if "bool" in kinds and "int" not in kinds:
            if name in post or f"{name}__present" in post:
                data[name] = post.get(name) in ("on", "true", "1", "yes")
            continue
        if name not in post:
            continue
        raw = post.get(name, "")
        if "\x00" in raw:
            raise EncounterError(f"{name.replace('_', ' ')} cannot contain NUL characters")
        if "int" in kinds and "str" not in kinds:
            data[name] = _number(raw, name, "None" in kinds)
        elif "float" in kinds:
            data[name] = None if not raw.strip() else _decimal(raw, name)
        elif "str" in kinds and "int" in kinds:  # a GM override's value
            data[name] = _override_value(raw)
        else:
            text = " ".join(raw.split())
            data[name] = None if not text and "None" in kinds else text[:200]
    for name, default in defaults.items():
        if name not in data and default is not MISSING:
            data[name] = list(default) if isinstance(default, tuple) else default
    missing = [n for n in _field_kinds(kind) if n not in data]
    if missing:
        raise EncounterError(f"say the {missing[0].replace('_', ' ')} for this step")
    return data


def _victims(post: QueryDict) -> list[list[str | int]]:
    """Who a blast catches, from the form's ``victim__<id>`` fields: the metres each stands
    from where it went off (left blank: not caught)."""
    out: list[list[str | int]] = []
    for key in post:
        if not key.startswith("victim__") or not post.get(key, "").strip():
            continue
        metres = _number(post[key], "metres from the blast", False)
        out.append([key.removeprefix("victim__")[:100], metres or 0])
    if not out:
        raise EncounterError("say who the blast catches: give a distance for each one")
    return out


def _decimal(raw: str, name: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise EncounterError(f"{name.replace('_', ' ')}: {raw[:20]!r} is not a number") from None
    if not 0 < value < 100_000:
        raise EncounterError(f"{name.replace('_', ' ')} is a size in centimetres")
    return value


def _override_value(raw: str) -> int | str | bool:
    text = raw.strip().lower()
    if text in ("true", "yes", "on"):
        return True
    if text in ("false", "no", "off"):
        return False
    if text.isascii() and text.isdigit() and len(text) <= 6:
        return int(text)
    return " ".join(raw.split())[:40]


def _people(data: dict[str, Any]) -> set[str]:
    found = {str(data[k]) for k in _PEOPLE if isinstance(data.get(k), str)}
    for key in _GROUPS:
        value = data.get(key)
        if isinstance(value, list):
            found.update(v if isinstance(v, str) else str(v.get("id")) for v in value)
    return found


def player_refusal(data: dict[str, Any], own: set[str], state: EncounterState) -> str | None:
    """Why a player may not take this step (None: he may). A player acts for his own combatant
    only: he declares, acts, attacks, reacts and gives first aid as himself, and rolls an
    attack only when it is his own."""
    kind = data.get("type")
    if kind not in PLAYER_STEPS:
        return "only the GM can do that"
    if not own:
        return "you have no combatant in this encounter"
    actor = {
        "declare_actions": "combatant",
        "act": "combatant",
        "react": "combatant",
        "aim": "combatant",
        "attack": "attacker",
    }.get(str(kind))
    if actor is not None and data.get(actor) not in own:
        return "you can only act for your own character"
    if kind in ("act", "aim", "attack") and state.phase == "round" and not state.segment:
        due = next_to_act(state)
        if due is not None and due[0] != data.get(actor):
            return f"it is {state.combatant(due[0]).name}'s action now; wait for your turn"
    command = COMMANDS[str(kind)]
    free = PLAYER_FIELDS.get(str(kind))
    if free is not None:
        for f in fields(command):  # type: ignore[arg-type]
            if f.name in free or f.default is MISSING:
                continue
            default = list(f.default) if isinstance(f.default, tuple) else f.default
            if data.get(f.name, default) != default:
                return f"the GM sets the {f.name.replace('_', ' ')}"
    if kind == "attack" and not data.get("range_band"):
        target = next((c for c in state.combatants if c.id == data.get("target")), None)
        if target is None or not target.range_band:
            return "say how far the target is (the range sets the difficulty)"
    if kind == "resolve_attack" and (state.pending is None or state.pending.attacker not in own):
        return "the GM rolls attacks on you; you roll your own"
    return None


@dataclass(frozen=True, slots=True)
class Spend:
    """Points a step takes from a combatant's sheet."""

    combatant: str
    currency: str  # "cp" or "fp"
    amount: int
    reason: str


def spends(data: dict[str, Any], before: EncounterState) -> list[Spend]:
    """The Character Points and Force Points a step spends, from the state it was taken on."""
    kind = data.get("type")
    who = {
        "attack": "attacker",
        "react": "combatant",
        "first_aid": "healer",
        "throw": "thrower",
    }.get(str(kind))
    what = {
        "attack": "an attack",
        "react": "a reaction",
        "first_aid": "first aid",
        "throw": "a throw",
    }.get(str(kind), "")
    out: list[Spend] = []
    if who is not None and isinstance(data.get(who), str):
        cp = data.get("cp_dice") or 0
        if cp:
            out.append(Spend(data[who], "cp", cp, f"Character Points on {what}"))
        if data.get("force_point"):
            out.append(Spend(data[who], "fp", 1, "Force Point in a fight (doubles the round)"))
    elif kind == "resolve_attack" and data.get("damage_cp") and before.pending is not None:
        out.append(
            Spend(before.pending.attacker, "cp", data["damage_cp"], "Character Points on damage")
        )
    return [s for s in out if isinstance(s.amount, int) and s.amount > 0]


GLOBAL_STEPS = frozenset({*REDRAW_ALL, "resolve_attack"})
"""Steps that depend on the whole fight: taken only on the latest version."""

EVERYONE = "*"


def touched(
    command: dict[str, Any], events: list[dict[str, Any]], before: EncounterState | None = None
) -> set[str] | None:
    """The combatants a step changed, or None when the whole table must be redrawn. With the
    state it was taken on, the attacker and target of the attack it resolved count too (a miss
    changes no one's wounds, but both rows lose their part in the announced attack)."""
    if command.get("type") in REDRAW_ALL:
        return None
    found = _people(command)
    found.update(str(e["combatant"]) for e in events if e.get("combatant"))
    if (
        before is not None
        and before.pending is not None
        and command.get("type")
        in (
            "resolve_attack",
            "react",
        )
    ):
        pending = before.pending
        found.update({pending.attacker, pending.target, *getattr(pending, "others", ())})
        found.update(getattr(pending, "supporters", ()))
    return found


def stored_touched(step: Any) -> set[str] | None:
    """What a stored step changed: its ``touched`` list (None for the whole table), or, for a
    step stored before the list was kept, what its command and events name."""
    if step.touched:
        return None if EVERYONE in step.touched else set(step.touched)
    return touched(step.command, step.events)


def may_skip_ahead(data: dict[str, Any], later: list[list[str]]) -> bool:
    """Whether a step taken on an older version can still be taken: it acts on named
    combatants and none of the steps since (their ``touched`` lists) changed any of them or
    the whole table. Two players declaring at the same moment both go through; a double click,
    or "end the round" from a stale tab, does not."""
    if data.get("type") in GLOBAL_STEPS:
        return False
    people = _people(data)
    if not people:
        return False
    return all(ids and EVERYONE not in ids and not people & set(ids) for ids in later)
