"""The improvement projects part of a campaign backup (:mod:`campaigns.backup`, the format in
``docs/backup-format.md``): each project with its worker, the item or craft it improves, the
engine's state and what the ledger holds for it. Registered by ``CharactersConfig.ready()``
after the craft (a project's craft and worker are refs of theirs).

The state is checked with the engine (``ProjectState.from_json``)."""

from __future__ import annotations

from typing import Any

from campaigns.backup import ENGINE_ERRORS, JsonRule, Loader, Part, Problem, Table
from characters.project_models import Project
from rules.equipment import ProjectState

_ROLL_KEYS = {"day", "step", "total", "number", "success", "faces"}


def _state(value: Any, loader: Loader) -> Any:
    try:
        ProjectState.from_json(value)
    except ENGINE_ERRORS as exc:
        raise Problem(f"not a project state this server can read ({exc})") from None
    return value


def _rolls(value: Any, loader: Loader) -> Any:
    if not isinstance(value, list) or not all(
        isinstance(r, dict) and set(r) == _ROLL_KEYS for r in value
    ):
        raise Problem("a list of rolls: {day, step, total, number, success, faces}")
    return value


def _project(loader: Loader, values: dict[str, Any], where: str, ref: int | None) -> None:
    if (values["item"] is None) == (values["craft"] is None):
        loader.problem(f"{where}.item", "a project improves one item or one craft")
    if values["weapon"] is not None and values["craft"] is None:
        loader.problem(f"{where}.weapon", "only a craft's weapon (null for an item)")


PARTS = (
    Part(
        "projects",
        Table(
            Project,
            (
                "character",
                "item",
                "craft",
                "stat",
                "weapon",
                "label",
                "state",
                "status",
                "seed",
                "started_day",
                "worked_through_day",
                "cp_held",
                "credits_held",
                "rolls",
                "note",
                "created_by",
            ),
            refs={"character": "characters", "item": "items", "craft": "craft"},
            json={"state": JsonRule(into=_state), "rolls": JsonRule(into=_rolls)},
            check=_project,
        ),
        rows=lambda campaign: campaign.projects.all(),
    ),
)
