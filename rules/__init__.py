"""Datapad's rules engine: the Star Wars D6 rules as plain, pure Python (no Django).

Public surface: ``DieCode``, ``RuleSet``, ``roll`` here; ``rules.odds``, ``rules.combat``,
``rules.advancement``, ``rules.difficulty``, ``rules.droids``, ``rules.equipment``,
``rules.ships``, ``rules.data`` as modules.
"""

from rules.dice import DieCode, DieCodeError, FixedDice, Roll, SeededDice, SystemDice, roll
from rules.errors import RulesError
from rules.ruleset import PRESETS, RuleSet, RuleSetError

__all__ = [
    "PRESETS",
    "DieCode",
    "DieCodeError",
    "FixedDice",
    "Roll",
    "RuleSet",
    "RuleSetError",
    "RulesError",
    "SeededDice",
    "SystemDice",
    "roll",
]
