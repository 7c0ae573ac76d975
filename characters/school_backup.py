"""The [HOUSE] schools part of a campaign backup (:mod:`campaigns.backup`, the format in
``docs/backup-format.md``): each school the GM defined, with its enrolments (the student by
ref, the engine's state, what was paid and owed, what the school gave). Registered by
``CharactersConfig.ready()`` after the characters (an enrolment's student is one of theirs).

The bonuses and the state are checked with the engine (``School``,
``SchoolEnrolment.from_json``); a character attends at most one school at a time."""

from __future__ import annotations

from typing import Any

from campaigns.backup import ENGINE_ERRORS, JsonRule, Loader, Part, Problem, Table
from characters.school_models import Enrolment, School
from rules.advancement.schools import School as RulesSchool
from rules.advancement.schools import SchoolEnrolment


def _bonuses(value: Any, loader: Loader) -> Any:
    try:
        school = RulesSchool.from_json({"name": "x", "cp_cost": 0, "weeks": 1, "bonuses": value})
    except ENGINE_ERRORS as exc:
        raise Problem(
            f"not a list of [attribute, skill, pips] this server can read ({exc})"
        ) from None
    if not school.bonuses:
        raise Problem("a school gives at least one bonus")
    return [list(b) for b in school.bonuses]


def _state(value: Any, loader: Loader) -> Any:
    try:
        SchoolEnrolment.from_json(value)
    except ENGINE_ERRORS as exc:
        raise Problem(f"not a school enrolment this server can read ({exc})") from None
    return value


def _result(value: Any, loader: Loader) -> Any:
    if not isinstance(value, dict) or not all(
        isinstance(k, str)
        and isinstance(v, list)
        and len(v) == 2
        and all(isinstance(c, str) for c in v)
        for k, v in value.items()
    ):
        raise Problem("an object {skill: [before, after]} (before empty for a skill gained)")
    return value


def _school(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    if values["weeks"] < 1:
        loader.problem(f"{where}.weeks", "a school lasts at least a week")


def _enrolment(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    status = values["status"]
    if status == Enrolment.Status.ATTENDING:
        attending = loader.scratch.setdefault("school_students", {})
        if values["character"] in attending:
            loader.problem(
                f"{where}.status",
                f"the character is already attending a school ({attending[values['character']]})",
            )
        attending[values["character"]] = where
        if values["finished_day"] is not None:
            loader.problem(f"{where}.finished_day", "null while the character attends")
    elif values["finished_day"] is None:
        loader.problem(f"{where}.finished_day", "the day it finished or was left")
    if values["worked_through_day"] < values["started_day"]:
        loader.problem(f"{where}.worked_through_day", "not before the day the school began")


PARTS = (
    Part(
        "schools",
        Table(
            School,
            ("name", "instructor", "weeks", "cp_cost", "bonuses", "restrictions", "open"),
            json={"bonuses": JsonRule(into=_bonuses)},
            unique=(("name",),),
            check=_school,
            children={
                "enrolments": Table(
                    Enrolment,
                    (
                        "character",
                        "status",
                        "state",
                        "started_day",
                        "worked_through_day",
                        "finished_day",
                        "cp_paid",
                        "cp_owed",
                        "result",
                        "created_by",
                    ),
                    parent="school",
                    refs={"character": "characters"},
                    json={"state": JsonRule(into=_state), "result": JsonRule(into=_result)},
                    check=_enrolment,
                ),
            },
        ),
        rows=lambda campaign: campaign.schools.all(),
    ),
)
