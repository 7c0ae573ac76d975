"""The GM sets a number by hand (:class:`~rules.encounter.GMOverride`, one of
:data:`~rules.encounter.OVERRIDE_FIELDS`), and the log says so in the game's words ("GM sets
Rook's wound level to Wounded"; the skill only for a standing reaction total).

Action counts: setting ``declared``, ``extra`` or ``used`` on a combatant who has not declared
declares him (``declared`` or ``used`` of N: N declared, at least 1; ``extra``: 1 declared),
and the event says what his actions now are ("… now declared 7, used 7 (−6D)"). Used actions
are declared actions taken (a reaction added as an extra action is counted in ``extra``), so
``used`` never exceeds ``declared``: the GM is told the range instead of a silent change."""

from __future__ import annotations

from rules.combat import ActionCount
from rules.encounter._turns import actions_said
from rules.encounter.commands import GMOverride
from rules.encounter.events import Event
from rules.encounter.state import Combatant, EncounterError, EncounterState, Reaction
from rules.injuries import WoundState, parse_wound_level
from rules.ruleset import RuleSet

__all__ = ["override"]

FLAGS: dict[str, tuple[str, str]] = {
    "prone": ("prone", "not prone"),
    "lost_actions": ("without actions for the rest of the round", "able to act this round"),
    "stabilised": ("stabilised", "not stabilised"),
    "combining": ("combining fire this round", "not combining fire this round"),
    "medpac_locked": ("locked out of medpacs for 24 hours", "free to take medpacs"),
    "knocked_out": ("knocked out", "conscious"),
}
"""The flags the GM sets, and how the log says each (set, cleared)."""
_NUMBERS = {
    "declared": "declared actions",
    "extra": "extra actions",
    "used": "used actions",
    "haste": "haste",
    "initiative": "initiative",
    "mortal_rounds": "rounds mortally wounded",
    "medpacs": "medpacs used on him",
}
_COUNTS = ("declared", "extra", "used")


def override(
    state: EncounterState, cmd: GMOverride, *, ruleset: RuleSet
) -> tuple[EncounterState, list[Event]]:
    """The state with the GM's value set, and its event (``numbers``: the field and the value
    as given). A value the field cannot take is refused with the reason."""
    c = state.combatant(cmd.combatant)
    value, field = cmd.value, cmd.field
    if field == "wound_level":
        level = parse_wound_level(str(value), ruleset=ruleset)
        stabilised = c.stabilised and level is c.wounds.level
        wounds = WoundState(level, c.wounds.stuns, c.wounds.rested_through)
        c = c.replace(wounds=wounds, stabilised=stabilised)
        text = f"GM sets {c.name}'s wound level to {level.label}"
    elif field in FLAGS:
        if not isinstance(value, bool):
            raise EncounterError(f"{field} is set to true or false")
        c = c.replace(**{field: value})
        text = f"GM sets {c.name} {FLAGS[field][0 if value else 1]}"
    else:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise EncounterError(f"{field} is set to a whole number of 0 or more")
        if field == "reaction":
            if not cmd.skill:
                raise EncounterError("say which reaction skill's total to set")
            kept = tuple(r for r in c.reactions if r.skill != cmd.skill)
            c = c.replace(reactions=(*kept, Reaction(cmd.skill, value)))
            text = f"GM sets {c.name}'s standing {cmd.skill} total to {value}"
        elif field in _COUNTS:
            c, text = _count(c, field, value, ruleset=ruleset)
        else:
            c = c.replace(**{field: value})
            text = f"GM sets {c.name}'s {_NUMBERS[field]} to {value}"
    numbers = (("field", field), ("value", value))
    return state.with_combatant(c), [Event("override", c.id, text, numbers)]


def _count(c: Combatant, field: str, value: int, *, ruleset: RuleSet) -> tuple[Combatant, str]:
    """His action count with ``field`` set to ``value``, and the event's words."""
    now = c.actions
    if now is None:
        now = ActionCount(max(1, value) if field in ("declared", "used") else 1)
    parts = {"declared": now.declared, "extra": now.extra, "used": now.used} | {field: value}
    if field == "used" and value > parts["declared"]:
        raise EncounterError(
            f"{c.name} has declared {actions_said(now.declared, 0)}: used actions can be 0 to "
            f"{now.declared}, not {value} (a reaction added as an extra action is an extra "
            "action, not a used one)"
        )
    if field == "declared" and value < 1:
        raise EncounterError("a combatant declares at least 1 action")
    if field == "declared" and value < parts["used"]:
        raise EncounterError(
            f"{c.name} has used {parts['used']} actions: declare {parts['used']} or more"
        )
    if now.free > parts["declared"] + parts["extra"]:
        raise EncounterError(
            f"{c.name} has {now.free} free surprise haste actions: keep at least that many"
        )
    count = ActionCount(**parts, free=now.free, full_auto=now.full_auto)
    extra = f", extra {count.extra}" if count.extra else ""
    pen = count.penalty_dice(ruleset=ruleset)
    after = f"now declared {count.declared}{extra}, used {count.used}"
    after += f" (−{pen}D)" if pen else ""
    why = "" if c.actions is not None else f" ({c.name} had not declared)"
    text = f"GM sets {c.name}'s {_NUMBERS[field]} to {value}{why}: {after}"
    return c.replace(actions=count), text
