"""The encounter's refusal, :class:`EncounterError` (also importable from
:mod:`rules.encounter.state`), in a module of its own so that the value modules the state
stores can raise it without importing the state."""

from __future__ import annotations

from rules.errors import RulesError

__all__ = ["EncounterError"]


class EncounterError(RulesError):
    """A step the encounter refuses (no actions left, a reaction to nothing, an unknown
    combatant, a step on an ended encounter) or stored encounter data that is damaged."""
