"""Advancement: what an improvement costs and how long it trains; Character Points in play.

Modules:

* :mod:`rules.advancement.costs`: the cost and training time of one improvement under the
  campaign's ``advancement_table`` (Rules Upgrade, House Rules, Rules Companion skill points):
  :func:`improvement_cost`, :class:`ImprovementCost`, [HOUSE] ambidexterity.
* :mod:`rules.advancement.downtime`: between adventures: the one-pip-per-adventure limit, the
  [UPG] attribute improvement roll, skills lifted by an attribute, and a :class:`Training` in
  progress (``start_training``/``train``, storable with ``to_json``/``from_json``).
* :mod:`rules.advancement.schools`: [HOUSE] schools (:class:`SchoolEnrolment`, storable),
  school debt and the Character Point slot.
* :mod:`rules.advancement.character_points`: the per-roll Character Point limits (kinds of roll
  in :data:`rules.traits.ROLL_KINDS`) and never CP with a Force Point.

Every public name is re-exported here, so ``from rules.advancement import improvement_cost``
works.
"""

from rules.advancement.character_points import (
    check_cp_spend,
    cp_and_fp_same_round_allowed,
    max_cp_per_roll,
    roll_kind,
)
from rules.advancement.costs import (
    KINDS,
    AdvancementError,
    ImprovementCost,
    Kind,
    NotInRuleset,
    ambidexterity_cost,
    improvement_cost,
)
from rules.advancement.downtime import (
    AttributeRoll,
    Training,
    TrainingOutcome,
    attribute_improvement_roll,
    can_raise_this_downtime,
    check_one_pip_per_adventure,
    resolve_attribute_roll,
    skills_after_attribute_raise,
    start_training,
    train,
)
from rules.advancement.schools import (
    MAX_SCHOOL_DEBT,
    NCO_LEADERSHIP_I,
    School,
    SchoolEnrolment,
    apply_school,
    attend,
    check_cp_slot,
    check_school_debt,
    cp_slot_cap,
    enrol,
    split_earned_cp,
)

__all__ = [
    "KINDS",
    "MAX_SCHOOL_DEBT",
    "NCO_LEADERSHIP_I",
    "AdvancementError",
    "AttributeRoll",
    "ImprovementCost",
    "Kind",
    "NotInRuleset",
    "School",
    "SchoolEnrolment",
    "Training",
    "TrainingOutcome",
    "ambidexterity_cost",
    "apply_school",
    "attend",
    "attribute_improvement_roll",
    "can_raise_this_downtime",
    "check_cp_slot",
    "check_cp_spend",
    "check_one_pip_per_adventure",
    "check_school_debt",
    "cp_and_fp_same_round_allowed",
    "cp_slot_cap",
    "enrol",
    "improvement_cost",
    "max_cp_per_roll",
    "resolve_attribute_roll",
    "roll_kind",
    "skills_after_attribute_raise",
    "split_earned_cp",
    "start_training",
    "train",
]
