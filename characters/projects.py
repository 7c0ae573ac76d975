"""Improvement projects as downtime jobs (droids-and-equipment.md §3, §6, §9; issue 19).

:func:`start_project` turns a quote (:mod:`characters.projects_quote`) into a
:class:`~characters.project_models.Project`: in one transaction it checks who asks, prices the
work again with the engine (:func:`rules.equipment.validate_project`) and takes the whole
planned cost from the worker through the ledger. The Rules Companion's skill points are taken
as Character Points, 1 : 1 (Ambiguity 4's suggestion: the app has no separate skill points).

:func:`projects_due` is the time-advance job's handler (:data:`characters.downtime.HANDLERS`).
When the campaign's date moves to day ``d`` every running project gets the work of each day up
to ``d`` it has not had yet, one day at a time, through :func:`rules.equipment.advance_project`;
the dice of a day come from the project's own seed and the day (never the advance's seed), so
one catch-up advance rolls what daily advances roll. Each step that succeeds goes on the item's
code or the craft's stat block at once; a failed attempt costs what the engine charges again
for the next one (taken through the ledger when it is due; not enough points pauses the
project). A finished project gives back what it held and did not spend. Idempotent: the row is
locked and its watermark ``worked_through_day`` read again, so a day done twice does nothing.

:func:`change_project` pauses, resumes or abandons (:func:`rules.equipment.abandon_project`:
what was spent stays spent; what was held and not spent comes back).
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.db import transaction

from campaigns.models import Campaign, Membership
from characters import live
from characters.craft_models import Craft
from characters.models import Character, Currency, Item
from characters.project_models import Project
from characters.services import LedgerError, change_balance
from rules import DieCode, RulesError, RuleSet, SeededDice
from rules.dice import DiceSource
from rules.equipment import MINUTES_PER_DAY, ProjectState, validate_project
from rules.equipment.progress import abandon_project, advance_project, resume_project
from rules.time import DAYS_PER_MONTH

__all__ = [
    "ProjectError",
    "change_project",
    "next_roll_day",
    "project_dice",
    "projects_due",
    "start_project",
]

RngFor = Callable[[int, str], DiceSource]
ACTIVE = (Project.Status.RUNNING, Project.Status.PAUSED, Project.Status.FAILED)
_ITEM_FIELDS = {"damage": "damage", "armour_physical": "armour_physical"}
_ITEM_FIELDS["armour_energy"] = "armour_energy"
_CRAFT_FIELDS = {
    "maneuverability": "maneuverability",
    "hull": "hull",
    "shields": "shields",
    "speed": "speed_code",
    "move": "move",
    "space": "space",
    "hyperdrive": "hyperdrive",
}
_WEAPON_FIELDS = ("fire_control", "damage")


class ProjectError(ValueError):
    """A project request or change that was refused; the message says why. Nothing changed."""


def project_dice(seed: int, key: str) -> DiceSource:
    """The dice of one day of one project: from the project's seed and the key (the day),
    hashed canonically (never Python's ``hash()``)."""
    digest = hashlib.sha256(f"project:{seed}:{key}".encode()).digest()
    return SeededDice(int.from_bytes(digest[:8], "big"))


class _Faces:
    """A dice source that remembers every face it gave (for the report)."""

    def __init__(self, rng: DiceSource):
        self.rng = rng
        self.faces: list[int] = []

    def d6(self) -> int:
        face = self.rng.d6()
        self.faces.append(face)
        return face


# ---------------------------------------------------------------------------------------------
# Starting
# ---------------------------------------------------------------------------------------------
def _membership(campaign_id: int, actor) -> Membership | None:
    if actor is None or getattr(actor, "pk", None) is None:
        return None
    return Membership.objects.filter(campaign_id=campaign_id, user_id=actor.pk).first()


def _may_run(membership: Membership | None, project_or_target, worker: Character) -> bool:
    """The GM, or the player of the worker when the gear is his to improve."""
    if membership is None:
        return False
    if membership.is_gm:
        return True
    if worker.owner_id != membership.user_id:
        return False
    item, craft = project_or_target
    if item is not None:
        return item.character_id == worker.pk
    owner = craft.owner_character
    return craft.party or (owner is not None and owner.owner_id == membership.user_id)


def start_project(
    campaign_id: int,
    *,
    actor,
    worker_id: int,
    quote,
    stat: str,
    skill: DieCode,
    item_id: int | None = None,
    craft_id: int | None = None,
    weapon: int | None = None,
) -> Project:
    """Start the quoted improvement: ``worker_id`` does the work and rolls ``skill`` (his
    technology for the Rules Companion, his repair skill for the Rules Upgrade). Refused with
    :class:`ProjectError`, nothing changed: someone else's gear, a quote the sheet cannot take
    as one project (a Dexterity enhancement, an added weapon), a second project on the same
    code, not enough Character Points or credits."""
    if not isinstance(skill, DieCode) or not 1 <= skill.dice <= 30 or skill.pips < 0:
        raise ProjectError("The worker's roll is a die code from 1D to 30D, e.g. 4D+1.")
    if (item_id is None) == (craft_id is None):
        raise ProjectError("A project improves one item or one craft.")
    if len(quote.parts) != 1 or quote.parts[0].state.request.kind != "improve":
        raise ProjectError(
            "Datapad runs one code's improvement as a project; a Dexterity enhancement or an "
            "added weapon is made by the GM on the sheet."
        )
    if item_id is not None and stat not in _ITEM_FIELDS:
        raise ProjectError("Choose a weapon's damage or an armour's protection.")
    if craft_id is not None and stat not in _CRAFT_FIELDS and stat not in _WEAPON_FIELDS:
        raise ProjectError("Choose one of the craft's codes.")
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update(no_key=True).filter(pk=campaign_id).first()
        worker = (
            Character.objects.select_for_update()
            .filter(pk=worker_id, campaign_id=campaign_id)
            .first()
        )
        item = craft = None
        if item_id is not None:
            item = (
                Item.objects.select_for_update()
                .filter(pk=item_id, character__campaign_id=campaign_id)
                .first()
            )
        else:
            craft = (
                Craft.objects.select_for_update(of=("self",))
                .select_related("owner_character")
                .filter(pk=craft_id, campaign_id=campaign_id)
                .first()
            )
        if campaign is None or worker is None or (item is None and craft is None):
            raise ProjectError("No such character or gear in this campaign.")
        if not _may_run(_membership(campaign_id, actor), (item, craft), worker):
            raise ProjectError(
                "Only the gear's owner (working on it himself) or the GM can start this project."
            )
        same = Project.objects.filter(status__in=ACTIVE, stat=stat, weapon=weapon)
        same = same.filter(item=item) if item is not None else same.filter(craft=craft)
        if same.exists():
            raise ProjectError("A project on this code is already under way: finish it first.")
        ruleset = campaign.ruleset
        request = dataclasses.replace(quote.parts[0].state.request, skill=skill)
        try:
            state = validate_project(request, ruleset=ruleset)
        except RulesError as exc:
            raise ProjectError(f"Not possible: {exc}.") from None
        label = f"{quote.subject[:1].upper()}{quote.subject[1:]}"[:200]
        cp, credits = state.skill_points_planned, state.credits_planned
        _take(worker, cp, credits, f"Held for a project: {label}"[:200], actor)
        project = Project.objects.create(
            campaign=campaign,
            character=worker,
            item=item,
            craft=craft,
            stat=stat,
            weapon=weapon,
            label=label,
            state=state.to_json(),
            seed=secrets.randbits(62),
            started_day=campaign.game_day,
            worked_through_day=campaign.game_day,
            cp_held=cp,
            credits_held=credits,
            note=f"Started on day {campaign.game_day}.",
            created_by=actor if getattr(actor, "pk", None) else None,
        )
        live.bump(campaign_id, public=True)
        return project


def _take(worker: Character, cp: int, credits: int, reason: str, actor) -> None:
    """Take ``cp`` and ``credits`` from the worker, or ProjectError (the caller's transaction
    rolls back whatever was taken)."""
    for currency, amount, words in (
        (Currency.CP, cp, "Character Points (skill points, 1 : 1)"),
        (Currency.CREDITS, credits, "credits"),
    ):
        if amount <= 0:
            continue
        try:
            change_balance(worker.pk, currency, -amount, reason, actor=actor)
        except LedgerError as exc:
            raise ProjectError(
                f"{worker.name} has not enough {words}: {amount:,} needed ({exc})."
            ) from None


def _give_back(project: Project, state: ProjectState, reason: str, actor=None) -> list[str]:
    """Return what the project held and did not spend; words for the report."""
    words = []
    for currency, held, spent, name in (
        (Currency.CP, project.cp_held, state.skill_points_spent, "CP"),
        (Currency.CREDITS, project.credits_held, state.credits_spent, "credits"),
    ):
        back = held - spent
        if back > 0:
            change_balance(project.character_id, currency, back, reason[:200], actor=actor)
            words.append(f"{back:,} {name} back")
    project.cp_held = min(project.cp_held, state.skill_points_spent)
    project.credits_held = min(project.credits_held, state.credits_spent)
    return words


# ---------------------------------------------------------------------------------------------
# The job
# ---------------------------------------------------------------------------------------------
DAY_FIELDS = ["state", "status", "worked_through_day", "cp_held", "credits_held", "rolls", "note"]
"""What a day's work changes on a project (:func:`_one_day`)."""


def projects_due(
    campaign_id: int, day: int, *, seed: int, rng_for: RngFor = project_dice
) -> list[dict[str, Any]]:
    """The project work done as the campaign's date moves to ``day``: for each running project,
    every day after its watermark, one at a time, the projects locked together in id order.
    Returns one report line per roll (and per pause or refund), JSON-safe."""
    if isinstance(day, bool) or not isinstance(day, int) or day < 0:
        raise ProjectError("the game day must be a whole number, 0 or more")
    with transaction.atomic():
        # Every running project locked at once, in id order, and saved in one statement: a day
        # with no roll due costs the same few queries however many projects are under way
        # (bench/downtime.py); a roll, a charge or a finished step adds its own.
        projects = list(
            Project.objects.select_for_update(of=("self",))
            .select_related("character")
            .filter(
                campaign_id=campaign_id, status=Project.Status.RUNNING, worked_through_day__lt=day
            )
            .order_by("pk")
        )
        if not projects:
            return []
        ruleset = Campaign.objects.only("rule_options").get(pk=campaign_id).ruleset
        lines: list[dict[str, Any]] = []
        for project in projects:
            while project.status == Project.Status.RUNNING and project.worked_through_day < day:
                lines.extend(_one_day(project, project.worked_through_day + 1, ruleset, rng_for))
        Project.objects.bulk_update(projects, DAY_FIELDS)
    return lines


def _one_day(project: Project, day: int, ruleset: RuleSet, rng_for: RngFor) -> list[dict[str, Any]]:
    """The work of the day that brings the project to ``day``: the engine's day, then what it
    charged, rolled and finished."""
    before = ProjectState.from_json(project.state)
    dice = _Faces(rng_for(project.seed, str(day)))
    after = advance_project(before, 1, ruleset=ruleset, rng=dice)
    extra_cp = after.skill_points_spent - project.cp_held
    extra_credits = after.credits_spent - project.credits_held
    if extra_cp > 0 or extra_credits > 0:
        try:
            with transaction.atomic():
                _take(
                    project.character,
                    max(extra_cp, 0),
                    max(extra_credits, 0),
                    f"Another attempt: {project.label}"[:200],
                    None,
                )
        except ProjectError as exc:
            project.status = Project.Status.PAUSED
            project.note = f"Paused on day {day}: {exc}"[:300]
            return [_line(project, day, before, before, None, [project.note])]
        project.cp_held += max(extra_cp, 0)
        project.credits_held += max(extra_credits, 0)
    project.state = after.to_json()
    project.worked_through_day = day
    new_entries = after.log[len(before.log) :]
    lines = []
    if after.step_index > before.step_index:
        _apply(project, after)
    faces = dice.faces
    for entry in new_entries:
        words = [
            f"step {entry.step}: {entry.difficulty or 'no'} roll"
            + (f", {entry.total} against {entry.number}" if entry.total is not None else ""),
            "success" if entry.success else entry.note or "failed",
        ]
        if faces:
            words.append("dice " + ", ".join(str(f) for f in faces))
        project.rolls = [
            *project.rolls,
            {
                "day": day,
                "step": entry.step,
                "total": entry.total,
                "number": entry.number,
                "success": entry.success,
                "faces": faces,
            },
        ]
        lines.append(_line(project, day, before, after, entry.success, words))
        faces = []  # one day's dice go with its first roll
    if after.status == "completed":
        project.status = Project.Status.DONE
        back = _give_back(project, after, f"Not spent: {project.label}")
        project.note = f"Done on day {day}: now {after.value}."
        if back:
            project.note = f"{project.note[:-1]}; {', '.join(back)}."
            lines.append(_line(project, day, after, after, True, back))
    elif after.status == "awaiting_gm":
        project.status = Project.Status.FAILED
        project.note = f"Day {day}: the modification failed; the GM decides what it did."
    elif new_entries:
        project.note = f"Day {day}: {'step done' if new_entries[-1].success else 'failed'}."
    return lines


def _line(project, day, before, after, success, words) -> dict[str, Any]:
    return {
        "project": project.pk,
        "character_id": project.character_id,
        "character": project.character.name,
        "kind": "project",
        "target": project.label,
        "from": before.value or "",
        "to": after.value or "",
        "outcome": "improved" if success else "not_improved",
        "cp_back": 0,
        "words": words,
    }


def _stat_value(stat: str, text: str):
    """A step's ``after`` in the sheet's type: a die code, Move or Space, a multiplier."""
    if stat in ("move", "space"):
        return int(text)
    if stat == "hyperdrive":
        return float(Fraction(text.lstrip("x")))
    return DieCode.parse(text)


def _apply(project: Project, state: ProjectState) -> None:
    """Put the stat's value now (the last step done) on the item or the craft."""
    value = state.value
    if value is None:
        return
    if project.item_id is not None:
        item = Item.objects.select_for_update().get(pk=project.item_id)
        setattr(item, _ITEM_FIELDS[project.stat], DieCode.parse(value))
        item.save(update_fields=[_ITEM_FIELDS[project.stat]])
        return
    craft = Craft.objects.select_for_update().get(pk=project.craft_id)
    block = craft.stat_block
    if project.stat in _WEAPON_FIELDS:
        weapons = list(block.weapons)
        weapons[project.weapon] = dataclasses.replace(
            weapons[project.weapon], **{project.stat: DieCode.parse(value)}
        )
        block = dataclasses.replace(block, weapons=tuple(weapons))
    else:
        field = _CRAFT_FIELDS[project.stat]
        block = dataclasses.replace(block, **{field: _stat_value(project.stat, value)})
    craft.stats = block.to_json()
    craft.save(update_fields=["stats"])


# ---------------------------------------------------------------------------------------------
# Pause, resume, abandon
# ---------------------------------------------------------------------------------------------
def change_project(campaign_id: int, project_id: int, *, actor, action: str) -> Project:
    """``pause``, ``resume`` or ``abandon`` a project, by the worker's player or the GM.
    A failed [UPG] hyperdrive modification is resumed by the GM only. Abandoning gives back
    what was held and not spent (the engine: what was spent stays spent)."""
    if action not in ("pause", "resume", "abandon"):
        raise ProjectError("Choose pause, resume or abandon.")
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update(no_key=True).filter(pk=campaign_id).first()
        project = (
            Project.objects.select_for_update(of=("self",))
            .select_related("character")
            .filter(pk=project_id, campaign_id=campaign_id)
            .first()
        )
        membership = _membership(campaign_id, actor)
        if campaign is None or project is None or membership is None:
            raise ProjectError("No such project in this campaign.")
        if not (membership.is_gm or project.character.owner_id == membership.user_id):
            raise ProjectError("Only the worker's player or the GM can do that.")
        today = campaign.game_day
        state = ProjectState.from_json(project.state)
        status = project.status
        if action == "pause":
            if status != Project.Status.RUNNING:
                raise ProjectError("Only a running project can be paused.")
            project.status = Project.Status.PAUSED
            project.note = f"Paused on day {today}."
        elif action == "resume":
            if status == Project.Status.FAILED:
                if not membership.is_gm:
                    raise ProjectError("The GM decides what the failed modification did.")
                state = resume_project(state)
            elif status != Project.Status.PAUSED:
                raise ProjectError("Only a paused project can be resumed.")
            project.status = Project.Status.RUNNING
            project.worked_through_day = max(project.worked_through_day, today)
            project.note = f"Resumed on day {today}."
        else:
            if status not in ACTIVE:
                raise ProjectError("This project is over already.")
            state = abandon_project(state)
            back = _give_back(project, state, f"Abandoned: {project.label}", actor)
            project.status = Project.Status.ABANDONED
            project.note = f"Abandoned on day {today}" + (f"; {', '.join(back)}." if back else ".")
        project.state = state.to_json()
        project.save()
        live.bump(campaign_id, public=True)
        return project


def next_roll_day(project: Project) -> int | None:
    """The game day of the next roll, if the project runs on as it is."""
    if project.status != Project.Status.RUNNING:
        return None
    try:
        state = ProjectState.from_json(project.state)
    except RulesError:
        return None
    step = state.current_step
    if step is None:
        return None
    need = step.minutes
    if state.attempt and state.system == "upg":
        need = DAYS_PER_MONTH * MINUTES_PER_DAY  # a new roll a month
    left = max(need - state.minutes_worked, 0)
    return project.worked_through_day + max(-(-left // MINUTES_PER_DAY), 1)


def character_projects(character_id: int) -> list[Project]:
    projects = list(
        Project.objects.filter(character_id=character_id)
        .select_related("item", "craft")
        .order_by("-pk")[:50]
    )
    for project in projects:
        project.next_roll = next_roll_day(project)
    return projects


def craft_projects(craft_id: int) -> list[Project]:
    projects = list(
        Project.objects.filter(craft_id=craft_id).select_related("character").order_by("-pk")[:50]
    )
    for project in projects:
        project.next_roll = next_roll_day(project)
    return projects
