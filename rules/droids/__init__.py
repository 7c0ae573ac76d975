"""Building and improving droids with the Rules Companion's building dice [RC].

Second Edition R&E has no droid-building rule in Datapad's sources, so these are the
[RC] rules (droids-and-equipment.md §2): all six attributes start at 1D and everything else
is paid from a budget of building dice (35D for an NPC droid, 65D for a player-character
droid). Costs are counted in whole dice, as every example in the source is (ambiguity 3).

Modules:

* ``design``: the values (:class:`DroidDesign`, :class:`DroidSkill`, :class:`DroidItem`) with
  ``to_json``/``from_json``, :class:`DroidError`, and :func:`droid_move` (the sheet's Move
  for a speed code, derived);
* ``building``: the cost of each heading, :func:`building_dice`, :func:`check_droid` (every
  problem at once, for the builder) and :func:`validate_droid`, the 13D cap;
* ``skills``: improving and adding droid skills (:func:`droid_skill_cost`, a new skill's
  1,000 credits, the Force refused);
* ``templates``: the R2 and 3PO stat blocks of ``rules/data/droids.json``
  (:func:`load_droid_templates`).
"""

from rules.droids.building import (
    ARMOR_DICE_PER_DIE,
    ATTRIBUTE_DICE_PER_DIE,
    DROID_SKILL_CAP,
    ITEM_DICE,
    NPC_BUILDING_DICE,
    PC_BUILDING_DICE,
    SPEED_DICE_PER_DIE,
    BuildingDice,
    DroidCheck,
    armor_building_dice,
    attribute_building_dice,
    building_dice,
    building_dice_budget,
    check_droid,
    check_droid_skill,
    droid_starting_force_points,
    item_building_dice,
    skill_building_dice,
    skill_from_building_dice,
    speed_building_dice,
    validate_droid,
)
from rules.droids.design import (
    BASE_ATTRIBUTE,
    NO_ARMOR,
    VISION_WORDS,
    DroidDesign,
    DroidError,
    DroidItem,
    DroidSkill,
    droid_move,
)
from rules.droids.skills import (
    FORCE_IMPROVEMENTS,
    NEW_DROID_SKILL_CREDITS,
    NEW_SKILL_IMPROVEMENTS,
    DroidSkillCost,
    droid_improvement_credits,
    droid_new_skill_improvement,
    droid_skill_cost,
)
from rules.droids.templates import load_droid_templates

__all__ = [
    "ARMOR_DICE_PER_DIE",
    "ATTRIBUTE_DICE_PER_DIE",
    "BASE_ATTRIBUTE",
    "DROID_SKILL_CAP",
    "FORCE_IMPROVEMENTS",
    "ITEM_DICE",
    "NEW_DROID_SKILL_CREDITS",
    "NEW_SKILL_IMPROVEMENTS",
    "NO_ARMOR",
    "NPC_BUILDING_DICE",
    "PC_BUILDING_DICE",
    "SPEED_DICE_PER_DIE",
    "VISION_WORDS",
    "BuildingDice",
    "DroidCheck",
    "DroidDesign",
    "DroidError",
    "DroidItem",
    "DroidSkill",
    "DroidSkillCost",
    "armor_building_dice",
    "attribute_building_dice",
    "building_dice",
    "building_dice_budget",
    "check_droid",
    "check_droid_skill",
    "droid_improvement_credits",
    "droid_move",
    "droid_new_skill_improvement",
    "droid_skill_cost",
    "droid_starting_force_points",
    "item_building_dice",
    "load_droid_templates",
    "skill_building_dice",
    "skill_from_building_dice",
    "speed_building_dice",
    "validate_droid",
]
