"""The ships and vehicles part of a campaign backup (:mod:`campaigns.backup`, the format in
``docs/backup-format.md``): each craft with its stat block, owner, value, damage, crew
stations and repair requests.
Registered by ``CharactersConfig.ready()`` after the characters' parts (a craft's owner and
its crew are refs of characters).

The stat block and the damage are checked with the engine (``CraftStats.from_json``,
``CraftState.from_json``); a gunner's weapon must be one of the stat block's weapons."""

from __future__ import annotations

import re
from typing import Any

from campaigns.backup import ENGINE_ERRORS, JsonRule, Loader, Part, Problem, Table
from characters.craft_models import Craft, CrewStation, RepairRequest
from rules import RulesError
from rules.craft import CraftState, CraftStats
from rules.difficulty import parse_level

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
                    ),
                    parent="craft",
                    refs={"payer": "characters", "engineer": "characters", "roll": "rolls"},
                    check=_repair,
                ),
            },
        ),
        rows=lambda campaign: campaign.craft.all(),
    ),
)
