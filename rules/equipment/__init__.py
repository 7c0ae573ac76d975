"""Improving, repairing and damaging equipment, and long-running improvement projects
(droids-and-equipment.md).

Modules:

* :mod:`rules.equipment.improvement` — the Rules Companion's skill-point customization (die
  codes, armor, hyperdrives, added weapons) and the Rules Upgrade's percentage improvement,
  chosen by ``ruleset.equipment_improvement``; each returns :class:`ImprovementStep` values;
* :mod:`rules.equipment.repairs` — the [UPG]/[HOUSE] repair tables, the pace of work
  (prepared, rushed) and the [HOUSE] rule that a severe wound makes carried gear roll Body;
* :mod:`rules.equipment.market` — [RC] permit and licence fees, [HOUSE] black-market prices;
* :mod:`rules.equipment.projects` — a project as stored values: the request, its log and its
  state, each with ``to_json``/``from_json``;
* :mod:`rules.equipment.progress` — running a project through game time: validate, advance,
  resolve a roll made at the table, resume after the GM's ruling, abandon.

Durations are whole minutes of game time; a week is the campaign's week and a month 35 days
(:mod:`rules.time`). Difficulties are ``rules.difficulty.DifficultyLevel`` values. Refusals
are :class:`EquipmentError` (a ``rules.RulesError``).
"""

from rules.equipment._common import MINUTES_PER_DAY, SCALES, EquipmentError, ImprovementStep
from rules.equipment.improvement import (
    HYPERDRIVE_CHAIN,
    RC_ADDITIVE_STATS,
    RC_SCALE_RATES,
    UPG_HYPERDRIVE,
    UPG_STATS,
    UPG_TABLES,
    WeaponInstall,
    armor_dexterity_penalty,
    parse_hyperdrive,
    rc_armor_improvement,
    rc_credits,
    rc_hyperdrive_improvement,
    rc_improvement,
    rc_pip_cost,
    rc_tech_difficulty,
    rc_time_per_pip,
    rc_weapon_install,
    upg_improvement,
)
from rules.equipment.market import (
    AVAILABILITY_PERCENT,
    AvailabilityFee,
    availability_fee,
    black_market_price_range,
    license_check_difficulty,
)
from rules.equipment.progress import (
    abandon_project,
    advance_project,
    resolve_roll,
    resume_project,
    validate_project,
)
from rules.equipment.projects import (
    LogEntry,
    ProjectKind,
    ProjectRequest,
    ProjectState,
    ProjectStatus,
    StatValue,
)
from rules.equipment.repairs import (
    REPAIR_SYSTEMS,
    GearCheck,
    RepairRequirement,
    gear_must_roll,
    gear_survives,
    repair_requirement,
    work_pace,
)

__all__ = [
    "AVAILABILITY_PERCENT",
    "HYPERDRIVE_CHAIN",
    "MINUTES_PER_DAY",
    "RC_ADDITIVE_STATS",
    "RC_SCALE_RATES",
    "REPAIR_SYSTEMS",
    "SCALES",
    "UPG_HYPERDRIVE",
    "UPG_STATS",
    "UPG_TABLES",
    "AvailabilityFee",
    "EquipmentError",
    "GearCheck",
    "ImprovementStep",
    "LogEntry",
    "ProjectKind",
    "ProjectRequest",
    "ProjectState",
    "ProjectStatus",
    "RepairRequirement",
    "StatValue",
    "WeaponInstall",
    "abandon_project",
    "advance_project",
    "armor_dexterity_penalty",
    "availability_fee",
    "black_market_price_range",
    "gear_must_roll",
    "gear_survives",
    "license_check_difficulty",
    "parse_hyperdrive",
    "rc_armor_improvement",
    "rc_credits",
    "rc_hyperdrive_improvement",
    "rc_improvement",
    "rc_pip_cost",
    "rc_tech_difficulty",
    "rc_time_per_pip",
    "rc_weapon_install",
    "repair_requirement",
    "resolve_roll",
    "resume_project",
    "upg_improvement",
    "validate_project",
    "work_pace",
]
