"""The ships and vehicles part of a campaign backup (:mod:`campaigns.backup`, the format in
``docs/backup-format.md``): each craft with its stat block, owner, value, damage, crew
stations and repair requests (with a repair worked in downtime: its pace, seed, days and
rolls), and the droid repairs (characters.repair_models.DroidRepair: a part of its own).
Registered by ``CharactersConfig.ready()`` after the characters' parts (a craft's owner and
its crew are refs of characters).

The stat block and the damage are checked with the engine (``CraftStats.from_json``,
``CraftState.from_json``); a gunner's weapon must be one of the stat block's weapons."""

from __future__ import annotations

import re
from typing import Any

from campaigns.backup import ENGINE_ERRORS, JsonRule, Loader, Part, Problem, Table
from characters.craft_models import Craft, CrewStation, RepairRequest
from characters.repair_models import DroidRepair
from rules import RulesError
from rules.craft import CraftState, CraftStats
from rules.difficulty import parse_level
from rules.equipment.repair_job import RepairJob
from rules.injuries import WoundLevel

_WEAPONS = "craft_weapons"
"""loader.scratch: the number of weapons of the craft being checked (its stations follow)."""


def _stats(value: Any, loader: Loader) -> Any:
    try:
        CraftStats.from_json(value)
    except ENGINE_ERRORS as exc:
        raise Problem(f"not a stat block this server can read ({exc})") from None
    return value


def _damage(value: Any, loader: Loader) -> Any:
    if value is None:
        return value
    try:
        CraftState.from_json(value)
    except ENGINE_ERRORS as exc:
        raise Problem(f"not a craft's damage this server can read ({exc})") from None
    return value


def _craft(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    if values["party"] and values["owner_character"] is not None:
        loader.problem(f"{where}.party", "a craft belongs to a character or to the party")
    try:
        loader.scratch[_WEAPONS] = len(CraftStats.from_json(values["stats"]).weapons)
    except ENGINE_ERRORS:
        loader.scratch[_WEAPONS] = 0  # the stat block's own problem is reported already


def _station(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    index = values["weapon_index"]
    if values["role"] == CrewStation.Role.GUNNER:
        if index is None or index >= loader.scratch.get(_WEAPONS, 0):
            loader.problem(f"{where}.weapon_index", "a gunner mans one of the craft's weapons")
    elif index is not None:
        loader.problem(f"{where}.weapon_index", "only a gunner has a weapon (null)")


_ENTRY = re.compile(r"(maneuverability|moves|shields|hyperdrive|weapon:\d{1,4})")


def _repair(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    if not _ENTRY.fullmatch(values["entry"] or ""):
        loader.problem(
            f"{where}.entry",
            "a repaired system: maneuverability, moves, shields, hyperdrive or weapon:<n>",
        )
    try:
        parse_level(values["difficulty"])
    except RulesError:
        loader.problem(f"{where}.difficulty", "a difficulty level such as Moderate")
    if not 1 <= (values["hired"] or 0) <= 3:
        loader.problem(f"{where}.hired", "1 (the crew's own work), 2 or 3 (hired)")


def _job_rolls(value: Any, loader: Loader) -> Any:
    """A repair job's rolls (characters.repair_jobs): empty (rolled at the table), or a start
    entry with the engine's job state, then one entry per day worked with its rolls."""
    if value == []:
        return value
    start = value[0] if isinstance(value, list) and value else None
    if not isinstance(start, dict) or not isinstance(start.get("start"), int):
        raise Problem("a repair job's rolls: [{start, job, ...}, {day, rolls, success}, ...]")
    try:
        RepairJob.from_json(start.get("job"))
    except ENGINE_ERRORS as exc:
        raise Problem(f"not a repair job this server can read ({exc})") from None
    for day in value[1:]:
        if not (
            isinstance(day, dict)
            and isinstance(day.get("day"), int)
            and isinstance(day.get("rolls"), list)
            and all(isinstance(r, dict) and isinstance(r.get("total"), int) for r in day["rolls"])
        ):
            raise Problem("each day worked: {day, rolls: [{n, total, normal, ...}], success}")
    return value


def _job_fields(loader: Loader, values: dict[str, Any], where: str) -> None:
    if values["pace"] not in ("normal", "rushed", "prepared"):
        loader.problem(f"{where}.pace", "normal, rushed or prepared")
    working = values["status"] == "working"
    if working and (values["seed"] is None or values["worked_through_day"] is None):
        loader.problem(f"{where}.seed", "a repair under way has a seed and a watermark")


def _repair_job(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    _repair(loader, values, where, ref)
    _job_fields(loader, values, where)


_WORKING_DROIDS = "droids_under_repair"
"""loader.scratch: the droids (refs) with a repair under way, one each."""


def _droid_repair(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    _job_fields(loader, values, where)
    try:
        WoundLevel(values["from_level"])
        parse_level(values["difficulty"])
    except (ValueError, RulesError):
        loader.problem(f"{where}.from_level", "a wound level and a difficulty level")
    if values["engineer"] is None and not values["hired_code"]:
        loader.problem(f"{where}.engineer", "an engineer, or a hired technician's code")
    if values["status"] == "working":
        working = loader.scratch.setdefault(_WORKING_DROIDS, set())
        if values["droid"] in working:
            loader.problem(f"{where}.droid", "one repair under way per droid")
        working.add(values["droid"])


PARTS = (
    Part(
        "craft",
        Table(
            Craft,
            (
                "name",
                "catalogue_name",
                "stats",
                "owner_character",
                "party",
                "damage",
                "value",
                "notes",
                "created_at",
            ),
            refs={"owner_character": "characters"},
            json={"stats": JsonRule(into=_stats), "damage": JsonRule(into=_damage)},
            check=_craft,
            children={
                "crew_stations": Table(
                    CrewStation,
                    ("role", "weapon_index", "character"),
                    parent="craft",
                    refs={"character": "characters"},
                    unique=(("role", "weapon_index"),),
                    check=_station,
                ),
                "repairs": Table(
                    RepairRequest,
                    (
                        "entry",
                        "description",
                        "requested_by",
                        "status",
                        "difficulty",
                        "cost",
                        "minutes",
                        "hired",
                        "payer",
                        "engineer",
                        "roll",
                        "note",
                        "created_at",
                        "resolved_at",
                        "pace",
                        "seed",
                        "started_day",
                        "worked_through_day",
                        "finished_day",
                        "rolls",
                    ),
                    parent="craft",
                    refs={"payer": "characters", "engineer": "characters", "roll": "rolls"},
                    json={"rolls": JsonRule(into=_job_rolls)},
                    check=_repair_job,
                ),
            },
        ),
        rows=lambda campaign: campaign.craft.all(),
    ),
    Part(
        "droid_repairs",
        Table(
            DroidRepair,
            (
                "droid",
                "engineer",
                "hired_code",
                "payer",
                "status",
                "from_level",
                "difficulty",
                "cost",
                "pace",
                "seed",
                "started_day",
                "worked_through_day",
                "finished_day",
                "rolls",
                "note",
                "requested_by",
                "created_at",
            ),
            refs={"droid": "characters", "engineer": "characters", "payer": "characters"},
            json={"rolls": JsonRule(into=_job_rolls)},
            check=_droid_repair,
        ),
        rows=lambda campaign: campaign.droid_repairs.all(),
    ),
)
