"""Character creation: budgets and a pure validator for the character wizard.

Modules:

* :mod:`rules.creation.check`: :func:`check_creation` (every problem in words, the budgets,
  what is used and left, starting points), the budgets themselves (:func:`attribute_budget`,
  :func:`skill_budget`, :func:`starting_credits`) and :class:`SkillPick`.
* :mod:`rules.creation.species`: :class:`SpeciesLimits` (attribute limits and Move) and what a
  player may propose alone for a species without printed limits.
* :mod:`rules.creation.house`: [HOUSE] skill caps, starting Character Points and party limits.

Attributes are keyed as :data:`rules.traits.ATTRIBUTES` names them (``"dexterity"``; any case
is accepted); messages use :data:`rules.traits.ATTRIBUTE_LABELS`. Every public name is
re-exported here.
"""

from rules.creation.check import (
    MAX_ADDED_PER_SKILL,
    NPC_ATTRIBUTE_DICE,
    PC_ATTRIBUTE_DICE,
    SKILL_DICE,
    SPECIALIZATION_PIPS_PER_SKILL_DIE,
    STARTING_CREDITS,
    CreationReport,
    SkillPick,
    attribute_budget,
    attribute_pips_moved,
    check_creation,
    skill_attribute,
    skill_budget,
    starting_credits,
    starting_force_points,
)
from rules.creation.house import (
    HOUSE_MAX_MOVED_PIPS,
    HOUSE_MAX_SPECIALIZATIONS,
    HOUSE_SKILL_CAP,
    HOUSE_SPECIALIZATION_CAP,
    HOUSE_TIMELINE_BONUS,
    HouseStartingPoints,
    check_party,
    house_skill_cap_problem,
    house_starting_points,
)
from rules.creation.species import (
    HUMAN,
    PROPOSED_MAX_MOVE,
    PROPOSED_MAXIMUM_CEILING,
    PROPOSED_MINIMUM_FLOOR,
    CreationError,
    SpeciesLimits,
    proposed_maximum_problem,
    proposed_minimum_problem,
    proposed_move_problem,
    proposed_species_problems,
)

__all__ = [
    "HOUSE_MAX_MOVED_PIPS",
    "HOUSE_MAX_SPECIALIZATIONS",
    "HOUSE_SKILL_CAP",
    "HOUSE_SPECIALIZATION_CAP",
    "HOUSE_TIMELINE_BONUS",
    "HUMAN",
    "MAX_ADDED_PER_SKILL",
    "NPC_ATTRIBUTE_DICE",
    "PC_ATTRIBUTE_DICE",
    "PROPOSED_MAXIMUM_CEILING",
    "PROPOSED_MAX_MOVE",
    "PROPOSED_MINIMUM_FLOOR",
    "SKILL_DICE",
    "SPECIALIZATION_PIPS_PER_SKILL_DIE",
    "STARTING_CREDITS",
    "CreationError",
    "CreationReport",
    "HouseStartingPoints",
    "SkillPick",
    "SpeciesLimits",
    "attribute_budget",
    "attribute_pips_moved",
    "check_creation",
    "check_party",
    "house_skill_cap_problem",
    "house_starting_points",
    "proposed_maximum_problem",
    "proposed_minimum_problem",
    "proposed_move_problem",
    "proposed_species_problems",
    "skill_attribute",
    "skill_budget",
    "starting_credits",
    "starting_force_points",
]
