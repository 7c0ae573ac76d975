"""Datapad's rules engine: the Star Wars D6 rules as plain, pure Python (no Django).

Every public function whose answer depends on rule options takes the campaign's ``ruleset``
as a required keyword; every one that rolls takes a dice source ``rng`` the same way. Every
refusal is a :class:`RulesError` (a ``ValueError``) with a message for the user. Here:
``DieCode``, ``Roll``, ``roll``, ``RuleSet``, ``RulesError`` and the dice sources. The public
modules and packages, by topic:

* ``dice/`` die codes, dice sources, rolling with the Wild Die (``Roll``), the pool rolled and
  the multiple-action penalty; ``odds`` exact odds of a roll; ``difficulty`` difficulty levels
  (``DifficultyLevel``, the one difficulty type) and numbers, modifiers, random difficulties;
  ``tasks`` opposed rolls, uncertainty dice, preparing and rushing;
* ``ruleset`` the campaign's options (``RuleSet``, presets); ``options/`` what each option
  means; ``errors`` ``RulesError``; ``traits`` the attributes and kinds of roll; ``time``
  rounds, days, weeks and months; ``reference/`` the shipped tables (skills, species,
  weapons, armour) and ``data/`` their files;
* ``combat/`` actions, attacks and damage; ``encounter/`` the combat round as a state machine
  (``apply(state, command, *, ruleset, rng)``, replays); ``injuries/`` wounds and stun,
  critical injuries, healing; ``scale`` the six scales, shared by combat and craft;
  ``movement/`` speeds, terrain, chases, falling; ``craft/`` vehicles, starships and capital ships;
* ``advancement/`` improvement costs, training, schools, Character Point limits;
  ``creation/`` character creation budgets and checks; ``force/`` Force skills, powers,
  Force Points and the Dark Side; ``droids`` building droids; ``equipment/`` improving and
  repairing gear and improvement projects.

State an app stores between steps has ``to_json``/``from_json``; a package's ``__init__``
re-exports its modules' public names and says what each module holds.
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
