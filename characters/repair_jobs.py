"""Repairs of damaged craft and droids as downtime jobs (droids-and-equipment.md §5; issue 19).

A craft repair starts as an open :class:`~characters.craft_models.RepairRequest` (its quote:
difficulty, cost, the work before the first roll). At the table it is still rolled at once
(:func:`characters.craft_damage.resolve_repair`); :func:`start_craft_repair` instead turns it
into a job that finishes in game time. A droid (a character whose nature is droid) is repaired
by a :class:`~characters.repair_models.DroidRepair` started with :func:`start_droid_repair`.

How time works (our reading, :mod:`rules.equipment.repair_job`): the worker spends
``WORK_HOURS_PER_DAY`` = 8 hours of each game day on the job; the first roll comes after the
request's minutes (15, or 60 for a hyperdrive; a droid: 60, our reading), after a failure
another roll after the same interval again (ambiguity 17's suggestion); rushed halves the
interval and the skill, prepared doubles it and adds +1D (refused under the Rules Companion,
E29). A day holds up to ``floor(8 * 60 / interval)`` rolls and stops at the first success.
The worker's code is fixed when the job starts: his repair skill (else Technical), the Rules
Companion's helpers combining (E34), the pace; or a hired technician's code the GM gives.

:func:`repairs_due` is the time-advance handler (:data:`characters.downtime.HANDLERS`). One
query finds the jobs whose watermark ``worked_through_day`` is before the day (craft and droid
jobs in one UNION); each job is then worked in its own savepoint with its rows locked, one day
at a time, the dice of a day drawn from the job's own seed and the day (never the advance's),
so a catch-up of N days rolls what N one-day advances roll, and a day run twice does nothing
(the watermark is read again under the lock).

A success removes the damage (the craft's entry, or the droid's wound level back to none) and
debits the payer's credits through the ledger (``characters.services.change_balance``) in the
same transaction. A payer who cannot pay when a day begins pauses the job with a note ("Paused
on day N: ..."; a paused job keeps its status and is skipped by the handler's query) until the
owner or the GM resumes it. Damage that changed since the job began (the GM cleared it, another
hit) stops the job: it is cancelled with the reason, nothing paid.

Dice: every roll of every day is kept on the job (``rolls``: a start entry with the job's
state, then one entry per day worked with each roll's total and faces). Only the successful
roll becomes a :class:`~characters.models.DiceRoll` (the campaign's dice log, linked from the
ledger entry that pays for it): a hard repair fails up to 32 times a day, and a row per failure
would bury the dice log and cost a write each; the day's summary keeps every die for audit.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import IntegerField, Value
from django.utils import timezone

from campaigns.models import Campaign, Membership
from characters import craft_damage, live
from characters.craft_models import Craft, RepairRequest
from characters.craft_services import CraftRefused, can_edit_craft
from characters.models import Character, Currency, DiceRoll, Skill
from characters.repair_models import DroidRepair
from characters.services import LedgerError, change_balance, condition, stamina_of
from rules import DieCode, RulesError, RuleSet, SeededDice
from rules.dice import DiceSource, Roll
from rules.difficulty import number_range, parse_level
from rules.droids.repair import DROID_REPAIR_MINUTES, droid_repair_difficulty
from rules.equipment import repair_requirement
from rules.equipment.repair_job import RepairJob, RepairRolled, start_repair_job, work_day

__all__ = [
    "PACES",
    "PAUSED",
    "RepairJobError",
    "annotate_repairs",
    "cancel_job",
    "job_dice",
    "job_summary",
    "repairs_due",
    "resume_job",
    "start_craft_repair",
    "start_droid_repair",
]

PAUSED = "Paused"
"""A working job whose note starts so is paused (the payer could not pay): the handler skips it."""
PACES = (
    ("normal", "Normal"),
    ("rushed", "Rushed: half the time, half the skill"),
    ("prepared", "Prepared: twice the time, +1D"),
)
DROID_SKILL = "droid repair"
MAX_COST = 10**12
RngFor = Callable[[int, str], DiceSource]


class RepairJobError(ValueError):
    """A repair job request that was refused; the message says why. Nothing changed."""


def job_dice(seed: int, key: str) -> DiceSource:
    """The dice of one day of one job: from the job's seed and the key (its kind and the day),
    hashed canonically (never Python's ``hash()``)."""
    digest = hashlib.sha256(f"repair:{seed}:{key}".encode()).digest()
    return SeededDice(int.from_bytes(digest[:8], "big"))


def whole_number(value: object, what: str, *, low: int = 0, high: int = MAX_COST) -> int:
    """A whole number typed in a form: ASCII digits only (``"٣"`` is refused, not read as 3)."""
    if isinstance(value, bool):
        raise RepairJobError(f"{what} is a whole number from {low:,} to {high:,}")
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip()
        if not (text.isascii() and text.isdecimal() and len(text) <= 13):
            raise RepairJobError(
                f"{what} is a whole number from {low:,} to {high:,}, in digits 0-9"
            )
        number = int(text)
    if not low <= number <= high:
        raise RepairJobError(f"{what} is a whole number from {low:,} to {high:,}")
    return number


def _membership(campaign_id: int, actor) -> Membership | None:
    if actor is None or getattr(actor, "pk", None) is None:
        return None
    return Membership.objects.filter(campaign_id=campaign_id, user_id=actor.pk).first()


def _number(level: str, difficulty: object, ruleset: RuleSet, gm: bool) -> int:
    """The number to reach: the top of the level by default; the GM may pick one in it."""
    low, high = number_range(parse_level(level), ruleset=ruleset)
    if difficulty is None or difficulty == "":
        return high
    if not gm:
        raise RepairJobError("only the GM sets the difficulty number")
    number = whole_number(difficulty, "the difficulty number", low=1, high=1000)
    if not low <= number <= high:
        raise RepairJobError(f"a {parse_level(level)} repair has a difficulty from {low} to {high}")
    return number


def _hired(code: object) -> DieCode:
    try:
        parsed = DieCode.parse(str(code).strip())
    except RulesError as exc:
        raise RepairJobError(f"the hired technician's code: {exc}") from None
    if not 1 <= parsed.dice <= 30 or not 0 <= parsed.pips <= 2:
        raise RepairJobError("the hired technician's code is a die code from 1D to 30D+2")
    return parsed


def _worker_code(worker: Character, skill_name: str, *, ruleset: RuleSet) -> DieCode:
    now = condition(worker, ruleset=ruleset, stamina=stamina_of(worker))
    if now.cannot_act:
        raise RepairJobError(f"{worker.name} is {now.cannot_act} and cannot work")
    skill = Skill.objects.filter(character=worker, name__iexact=skill_name).first()
    return skill.code if skill is not None else worker.technical


def _skill_words(worker: Character | None, skill_name: str) -> str:
    """What the worker rolls, in words: the repair skill, or "Technical (no droid repair
    skill)" when he lacks it (:func:`_worker_code` rolls his Technical then)."""
    if worker is None or Skill.objects.filter(character=worker, name__iexact=skill_name).exists():
        return skill_name
    return f"Technical (no {skill_name} skill)"


def _start_entry(day: int, job: RepairJob, **extra) -> dict[str, Any]:
    return {"start": day, "job": job.to_json(), **extra}


def _make_job(minutes: int, code: DieCode, number: int, pace: str, ruleset: RuleSet) -> RepairJob:
    try:
        return start_repair_job(minutes, code, number, pace, ruleset=ruleset)
    except RulesError as exc:
        raise RepairJobError(str(exc)) from None


def _check_payer(payer: Character | None, cost: int) -> None:
    if cost and payer is None:
        raise RepairJobError(f"say who pays the {cost:,} credits")
    if payer is not None and payer.credits < cost:
        raise RepairJobError(
            f"not enough Credits: {payer.name} holds {payer.credits:,}, the repair costs {cost:,}"
        )


# ---------------------------------------------------------------------------------------------
# Starting a craft repair job
# ---------------------------------------------------------------------------------------------
def start_craft_repair(
    campaign_id: int,
    request_id: int,
    *,
    actor,
    pace: str = "normal",
    engineer_id: int | None = None,
    hired_code: str = "",
    difficulty: object = None,
    helper_ids: Sequence[int] = (),
) -> RepairRequest:
    """Work on an open repair in downtime: the craft's owner, a party member for a party craft,
    or the GM. The engineer at the engineer station works it (or ``engineer_id``: the player's
    own character, any character for the GM; or the GM's ``hired_code``). Refused with
    :class:`RepairJobError`, nothing changed."""
    pace = pace or "normal"
    if pace not in dict(PACES):
        raise RepairJobError("pace is normal, rushed or prepared")
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update(no_key=True).filter(pk=campaign_id).first()
        request = RepairRequest.objects.filter(pk=request_id, craft__campaign_id=campaign_id)
        craft_id = request.values_list("craft_id", flat=True).first()
        membership = _membership(campaign_id, actor)
        if campaign is None or craft_id is None or membership is None:
            raise RepairJobError("no such repair in this campaign")
        craft = (
            Craft.objects.select_for_update(of=("self",))
            .select_related("owner_character")
            .get(pk=craft_id)
        )
        locked = RepairRequest.objects.select_for_update().get(pk=request_id)
        if not craft_damage.can_request_repair(membership, craft):
            raise RepairJobError(f"{craft.name} is not yours: its owner or the GM repairs it")
        if locked.status != RepairRequest.Status.OPEN:
            raise RepairJobError(f"that repair is {locked.get_status_display().lower()} already")
        ruleset = campaign.ruleset
        _check_damage(craft, locked, ruleset)
        gm = membership.is_gm
        engineer = None
        helpers: list[str] = []  # names: the rolls keep no database ids (backups)
        skill_name = craft_damage.repair_skill(craft.stat_block, locked.entry)
        if hired_code:
            if not gm:
                raise RepairJobError("only the GM gives a hired technician's code")
            code = _hired(hired_code)
        else:
            station = craft_damage.engineer_of(craft)
            if engineer_id is not None:
                engineer = Character.objects.filter(pk=engineer_id, campaign_id=campaign_id).first()
                if engineer is None:
                    raise RepairJobError("that character is not in this campaign")
                mine = engineer.owner_id == membership.user_id
                if not (gm or mine or (station is not None and station.pk == engineer.pk)):
                    raise RepairJobError(
                        "a player sets his own character or the engineer at the station to work"
                    )
            else:
                engineer = station
            if engineer is None:
                raise RepairJobError(
                    "nobody holds the engineer station: crew it or say who works on it"
                )
            engineer = Character.objects.select_for_update().get(pk=engineer.pk)
            code = _worker_code(engineer, skill_name, ruleset=ruleset)
            if helper_ids:
                found = list(
                    Character.objects.filter(pk__in=set(helper_ids), campaign_id=campaign_id)
                )
                if len(found) != len(set(helper_ids)):
                    raise RepairJobError("a helper is not a character of this campaign")
                try:
                    code = craft_damage._combined_work(
                        craft, engineer, code, skill_name, found, ruleset=ruleset
                    )
                except CraftRefused as exc:
                    raise RepairJobError(str(exc)) from None
                helpers = sorted(h.name for h in found if h.pk != engineer.pk)
        number = _number(locked.difficulty, difficulty, ruleset, gm)
        payer = Character.objects.filter(pk=locked.payer_id).first() if locked.cost else None
        _check_payer(payer, locked.cost)
        job = _make_job(locked.minutes, code, number, pace, ruleset)
        day = campaign.game_day
        locked.status = RepairRequest.Status.WORKING
        locked.engineer = engineer
        locked.pace = pace
        locked.seed = secrets.randbits(62)
        locked.started_day = locked.worked_through_day = day
        locked.finished_day = None
        locked.rolls = [
            _start_entry(
                day,
                job,
                skill=_skill_words(engineer, skill_name),
                worker=engineer.name if engineer else f"a hired technician ({code})",
                helpers=helpers,
                hired=bool(hired_code),
            )
        ]
        locked.note = f"Under way since day {day}."
        locked.save()
        live.bump(campaign_id, public=True)
        return locked


def _check_damage(craft: Craft, request: RepairRequest, ruleset: RuleSet) -> None:
    state = craft.damage_state
    listed = craft_damage.damage_entries(state, craft.stat_block, ruleset=ruleset)
    entries = {e.key: e for e in listed}
    entry = entries.get(request.entry)
    if state.destroyed or entry is None or entry.text[:200] != request.description:
        raise RepairJobError("the damage changed since the request: cancel it and ask again")
    if entry.system is None:
        raise RepairJobError(f"{entry.text}: not a repair; the GM clears it")
    try:  # a destroyed weapon "may not be repaired" (§5.2): the table says so
        repair_requirement(entry.system, entry.amount, ruleset=ruleset, base_value=0)
    except RulesError as exc:
        raise RepairJobError(f"{entry.text}: {exc}") from None


# ---------------------------------------------------------------------------------------------
# Starting a droid repair job
# ---------------------------------------------------------------------------------------------
def can_repair_droid(membership: Membership | None, droid: Character) -> bool:
    """The droid's player (its owner) or the GM."""
    return membership is not None and (membership.is_gm or droid.owner_id == membership.user_id)


def start_droid_repair(
    campaign_id: int,
    droid_id: int,
    *,
    actor,
    pace: str = "normal",
    engineer_id: int | None = None,
    hired_code: str = "",
    cost: object = 0,
    payer_id: int | None = None,
    difficulty: object = None,
) -> DroidRepair:
    """Repair a damaged droid in downtime: its owner or the GM starts it; an engineer works it
    (his droid repair, else Technical) or a hired technician's code (the GM's); the cost is the
    GM's credits (0 by default), paid on success by ``payer_id``. Refused with
    :class:`RepairJobError`, nothing changed: an undamaged or destroyed droid, a second repair
    of the same droid, someone else's droid."""
    pace = pace or "normal"
    if pace not in dict(PACES):
        raise RepairJobError("pace is normal, rushed or prepared")
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update(no_key=True).filter(pk=campaign_id).first()
        droid = (
            Character.objects.select_for_update()
            .filter(pk=droid_id, campaign_id=campaign_id)
            .first()
        )
        membership = _membership(campaign_id, actor)
        if campaign is None or droid is None or membership is None:
            raise RepairJobError("no such droid in this campaign")
        if not droid.is_droid:
            raise RepairJobError(
                f"{droid.name} is not a droid: characters heal, droids are repaired"
            )
        if not can_repair_droid(membership, droid):
            raise RepairJobError(f"{droid.name} is not yours: its owner or the GM repairs it")
        gm = membership.is_gm
        try:
            level = droid_repair_difficulty(droid.wound_level)
        except RulesError as exc:
            raise RepairJobError(f"{droid.name}: {exc}") from None
        if DroidRepair.objects.filter(droid=droid, status=DroidRepair.Status.WORKING).exists():
            raise RepairJobError(f"{droid.name} is being repaired already")
        credits = whole_number(cost if cost not in (None, "") else 0, "the cost in credits")
        if credits and not gm:
            raise RepairJobError("only the GM sets a droid repair's cost")
        ruleset = campaign.ruleset
        engineer = None
        if hired_code:
            if not gm:
                raise RepairJobError("only the GM gives a hired technician's code")
            code = _hired(hired_code)
        else:
            if engineer_id is None:
                raise RepairJobError(
                    "say who works on the droid (or, GM, a hired technician's code)"
                )
            engineer = (
                Character.objects.select_for_update()
                .filter(pk=engineer_id, campaign_id=campaign_id)
                .first()
            )
            if engineer is None:
                raise RepairJobError("that character is not in this campaign")
            if engineer.pk == droid.pk:
                raise RepairJobError(f"{droid.name} cannot repair itself: it is damaged")
            if not gm and engineer.owner_id != membership.user_id:
                raise RepairJobError("a player sets only his own character to work")
            code = _worker_code(engineer, DROID_SKILL, ruleset=ruleset)
        payer = None
        if payer_id is not None:
            payer = Character.objects.filter(pk=payer_id, campaign_id=campaign_id).first()
            if payer is None:
                raise RepairJobError("the payer is not a character of this campaign")
            if not gm and payer.owner_id != membership.user_id:
                raise RepairJobError("you can pay only with your own character")
        _check_payer(payer, credits)
        number = _number(str(level), difficulty, ruleset, gm)
        job = _make_job(DROID_REPAIR_MINUTES, code, number, pace, ruleset)
        day = campaign.game_day
        repair = DroidRepair.objects.create(
            campaign=campaign,
            droid=droid,
            engineer=engineer,
            hired_code=str(code) if hired_code else "",
            payer=payer if credits else None,
            from_level=droid.wound_level,
            difficulty=str(level),
            cost=credits,
            pace=pace,
            seed=secrets.randbits(62),
            started_day=day,
            worked_through_day=day,
            rolls=[
                _start_entry(
                    day,
                    job,
                    skill=_skill_words(engineer, DROID_SKILL),
                    worker=engineer.name if engineer else f"a hired technician ({code})",
                    hired=bool(hired_code),
                )
            ],
            note=f"Under way since day {day}.",
            requested_by=actor,
        )
        live.bump(campaign_id, public=True)
        return repair


# ---------------------------------------------------------------------------------------------
# Cancelling and resuming
# ---------------------------------------------------------------------------------------------
def _locked_job(campaign_id: int, kind: str, job_id: int):
    if kind == "craft":
        craft_id = (
            RepairRequest.objects.filter(pk=job_id, craft__campaign_id=campaign_id)
            .values_list("craft_id", flat=True)
            .first()
        )
        if craft_id is None:
            return None, None
        craft = (
            Craft.objects.select_for_update(of=("self",))
            .select_related("owner_character")
            .get(pk=craft_id)
        )
        job = RepairRequest.objects.select_for_update().get(pk=job_id)
        job.craft = craft
        return job, craft
    if kind == "droid":
        job = (
            DroidRepair.objects.select_for_update(of=("self",))
            .select_related("droid")
            .filter(pk=job_id, campaign_id=campaign_id)
            .first()
        )
        return job, None
    raise RepairJobError("a repair job is a craft's or a droid's")


def _may_change(membership: Membership | None, job, craft: Craft | None) -> bool:
    if membership is None:
        return False
    if membership.is_gm:
        return True
    if craft is not None:
        return job.requested_by_id == membership.user_id or can_edit_craft(membership, craft)
    return job.droid.owner_id == membership.user_id


def cancel_job(campaign_id: int, kind: str, job_id: int, *, actor) -> Any:
    """Stop a repair job under way (paused or not): the GM, the craft's owner or whoever asked
    for it, the droid's owner. Nothing is paid; the damage stays; the rolls are kept."""
    with transaction.atomic():
        job, craft = _locked_job(campaign_id, kind, job_id)
        membership = _membership(campaign_id, actor)
        if job is None or membership is None:
            raise RepairJobError("no such repair in this campaign")
        if not _may_change(membership, job, craft):
            raise RepairJobError("only the GM or the owner stops this repair")
        if job.status != job.Status.WORKING:
            raise RepairJobError(f"that repair is {job.get_status_display().lower()} already")
        day = Campaign.objects.values_list("game_day", flat=True).get(pk=campaign_id)
        job.status = job.Status.CANCELLED
        job.note = f"Cancelled on day {day} after {job_summary(job)['count']} rolls; nothing paid."
        if kind == "craft":
            job.resolved_at = timezone.now()
        job.save()
        live.bump(campaign_id, public=True)
        return job


def resume_job(campaign_id: int, kind: str, job_id: int, *, actor) -> Any:
    """Carry on with a paused job from today, once the payer can pay."""
    with transaction.atomic():
        job, craft = _locked_job(campaign_id, kind, job_id)
        membership = _membership(campaign_id, actor)
        if job is None or membership is None:
            raise RepairJobError("no such repair in this campaign")
        if not _may_change(membership, job, craft):
            raise RepairJobError("only the GM or the owner resumes this repair")
        if job.status != job.Status.WORKING or not job.note.startswith(PAUSED):
            raise RepairJobError("only a paused repair can be resumed")
        payer = Character.objects.filter(pk=job.payer_id).first() if job.cost else None
        _check_payer(payer, job.cost)
        day = Campaign.objects.values_list("game_day", flat=True).get(pk=campaign_id)
        job.worked_through_day = max(job.worked_through_day, day)
        job.note = f"Resumed on day {day}."
        job.save()
        live.bump(campaign_id, public=True)
        return job


# ---------------------------------------------------------------------------------------------
# The handler
# ---------------------------------------------------------------------------------------------
def repairs_due(
    campaign_id: int, day: int, *, seed: int, rng_for: RngFor | None = None
) -> list[dict[str, Any]]:
    """The repair work done as the campaign's date moves to ``day``: every craft and droid job
    under way (not paused) gets each day after its watermark, one at a time, each job in its own
    savepoint with its rows locked. ``seed`` (the advance's) is not used: a job's dice come from
    its own seed and the day. Returns one report line per job-day worked, JSON-safe."""
    if isinstance(day, bool) or not isinstance(day, int) or day < 0:
        raise RepairJobError("the game day must be a whole number, 0 or more")
    craft_jobs = (
        RepairRequest.objects.filter(
            craft__campaign_id=campaign_id,
            status=RepairRequest.Status.WORKING,
            worked_through_day__lt=day,
        )
        .exclude(note__startswith=PAUSED)
        .annotate(kind=Value(0, output_field=IntegerField()))
        .order_by()
        .values_list("kind", "pk")
    )
    droid_jobs = (
        DroidRepair.objects.filter(
            campaign_id=campaign_id, status=DroidRepair.Status.WORKING, worked_through_day__lt=day
        )
        .exclude(note__startswith=PAUSED)
        .annotate(kind=Value(1, output_field=IntegerField()))
        .order_by()
        .values_list("kind", "pk")
    )
    due = sorted(craft_jobs.union(droid_jobs, all=True).order_by())
    if not due:
        return []
    ruleset = Campaign.objects.only("rule_options").get(pk=campaign_id).ruleset
    rng_for = rng_for or job_dice  # looked up now: a browser test seeds it here
    lines: list[dict[str, Any]] = []
    for kind, pk in due:
        with transaction.atomic():
            job, craft = _locked_job(campaign_id, "craft" if kind == 0 else "droid", pk)
            if job is None:
                continue
            while (
                job.status == job.Status.WORKING
                and not job.note.startswith(PAUSED)
                and job.worked_through_day < day
            ):
                lines.extend(_one_day(job, craft, job.worked_through_day + 1, ruleset, rng_for))
            job.save()
    if lines:
        live.bump(campaign_id, public=True)
    return lines


def _one_day(job, craft: Craft | None, day: int, ruleset: RuleSet, rng_for: RngFor) -> list[dict]:
    """The work of ``day`` on one job: check it can go on, roll the day, settle a success."""
    droid = None
    if craft is not None:
        try:
            _check_damage(craft, job, ruleset)
        except RepairJobError:
            return [
                _stop(
                    job,
                    day,
                    "the damage changed since the work began (cleared or hit "
                    "again): ask for the repair again",
                )
            ]
        what = f"{craft.name}: {job.description}"
    else:
        droid = Character.objects.select_for_update().get(pk=job.droid_id)
        if droid.wound_level != job.from_level:
            return [_stop(job, day, f"{droid.name}'s damage changed since the work began")]
        what = f"{droid.name}: {job.from_level.replace('_', ' ')}"
    start = job.rolls[0] if job.rolls and isinstance(job.rolls[0], dict) else {}
    hired = bool(start.get("hired"))
    if not hired and job.engineer_id is None:
        return [_pause(job, day, what, "nobody works on it any more (the engineer is gone)")]
    payer = None
    if job.cost:
        payer = Character.objects.select_for_update().filter(pk=job.payer_id).first()
        if payer is None:
            return [_pause(job, day, what, "the character who was to pay is gone")]
        if payer.credits < job.cost:
            return [
                _pause(
                    job,
                    day,
                    what,
                    f"{payer.name} holds {payer.credits:,} credits, the repair costs {job.cost:,}",
                )
            ]
    try:
        state = RepairJob.from_json(start.get("job"))
    except RulesError as exc:
        return [_pause(job, day, what, f"the job's stored state is damaged ({exc})")]
    after, rolled = work_day(state, ruleset=ruleset, rng=rng_for(job.seed, f"{_kind(job)}:{day}"))
    start["job"] = after.to_json()
    job.rolls = [start, *job.rolls[1:], _day_entry(day, rolled)]
    job.worked_through_day = day
    words = [_rolls_words(rolled, state)]
    if after.done:
        record = _success_roll(job, craft, droid, day, rolled[-1], what)
        if craft is not None:
            left = craft_damage.without_entry(craft.damage_state, job.entry)
            craft.damage = None if left is None else left.to_json()
            craft.save(update_fields=["damage"])
            job.roll, job.resolved_at = record, timezone.now()
        else:
            droid.wound_level = "none"
            droid.save(update_fields=["wound_level"])
        if job.cost:
            try:
                change_balance(
                    payer, Currency.CREDITS, -job.cost, f"Repair of {what}"[:200], None, record
                )
            except LedgerError as exc:  # the payer is locked and was checked: not expected
                raise RepairJobError(str(exc)) from None
            words.append(f"{job.cost:,} credits paid by {payer.name}")
        count = after.rolls_made
        job.status = job.Status.DONE
        job.finished_day = day
        job.note = f"Repaired on day {day} ({count} roll{'s' if count != 1 else ''})"
        words.append(job.note)
        outcome = "repaired"
    else:
        outcome = "failed"  # the day's rolls failed; the work goes on
        words.append("the work goes on tomorrow")
    return [_line(job, craft, day, what, outcome, words, rolled)]


def _kind(job) -> str:
    return "craft" if isinstance(job, RepairRequest) else "droid"


def _compact(rolled: RepairRolled) -> dict[str, Any]:
    """One roll as the day's summary keeps it: the total and every die."""
    roll = rolled.roll
    data: dict[str, Any] = {"n": rolled.n, "total": roll.total, "normal": list(roll.normal)}
    if roll.wild:
        data["wild"] = list(roll.wild)
    if roll.removed:
        data["removed"] = list(roll.removed)
    if roll.complication:
        data["complication"] = roll.complication
    return data


def _day_entry(day: int, rolled: Sequence[RepairRolled]) -> dict[str, Any]:
    return {
        "day": day,
        "rolls": [_compact(r) for r in rolled],
        "success": bool(rolled) and rolled[-1].success,
    }


def _rolls_words(rolled: Sequence[RepairRolled], state: RepairJob) -> str:
    if not rolled:
        return "no roll"
    best = max(r.roll.total for r in rolled)
    count = len(rolled)
    return (
        f"{count} roll{'s' if count != 1 else ''} of {state.code} against {state.difficulty}, "
        f"every {state.interval} minutes; best {best}"
    )


def _success_roll(
    job, craft: Craft | None, droid: Character | None, day: int, rolled: RepairRolled, what: str
) -> DiceRoll:
    """The successful roll in the campaign's dice log (the failures stay in the job's rolls)."""
    roll: Roll = rolled.roll
    worker = Character.objects.filter(pk=job.engineer_id).first() if job.engineer_id else None
    label = f"Repair of {what} (day {day}, roll {rolled.n})"
    details: dict[str, Any] = {"repair_job": _kind(job), "job": job.pk, "day": day, "n": rolled.n}
    if craft is not None:
        details |= {"craft": craft.pk, "repair": job.pk}
    else:
        details["droid"] = droid.pk if droid else None
    campaign_id = craft.campaign_id if craft is not None else job.campaign_id
    return DiceRoll.objects.create(
        campaign_id=campaign_id,
        character=worker,
        actor=None,
        label=label if len(label) <= 120 else label[:119] + "…",
        code=str(roll.code),
        pool=str(roll.pool),
        dice={**roll.to_json(), **details},
        total=roll.total,
        difficulty=rolled.difficulty,
        hidden=bool(worker and worker.is_npc and worker.secret),
    )


def _pause(job, day: int, what: str, why: str) -> dict[str, Any]:
    job.note = f"{PAUSED} on day {day}: {why}. Resume it once that is mended."[:200]
    return _line(job, None, day, what, "paused", [job.note.rstrip(".")], ())


def _stop(job, day: int, why: str) -> dict[str, Any]:
    job.status = job.Status.CANCELLED
    job.worked_through_day = day
    job.note = f"Stopped on day {day}: {why}."[:200]
    if isinstance(job, RepairRequest):
        job.resolved_at = timezone.now()
    what = job.description if isinstance(job, RepairRequest) else job.from_level
    return _line(job, None, day, what, "stopped", [job.note.rstrip(".")], ())


def _line(
    job, craft, day: int, what: str, outcome: str, words: list[str], rolled
) -> dict[str, Any]:
    """A report line: about the engineer (or the droid, or who pays for a hired job)."""
    if isinstance(job, DroidRepair):
        about = job.droid
    else:
        about = job.engineer or job.payer
        if about is None and job.craft.owner_character_id is not None:
            about = job.craft.owner_character
    line: dict[str, Any] = {
        "character_id": about.pk if about is not None else None,
        "character": about.name if about is not None else "",
        "kind": "repair",
        "repair": _kind(job),
        "job": job.pk,
        "repair_day": day,
        "target": what,
        "outcome": outcome,
        "words": words,
    }
    if rolled:
        line["roll"] = {
            "character": rolled[-1].roll.to_json(),
            "rolls": [_compact(r) for r in rolled],
        }
    return line


# ---------------------------------------------------------------------------------------------
# For the pages
# ---------------------------------------------------------------------------------------------
def annotate_repairs(membership, craft, repairs) -> None:
    """What the ship sheet's repair list shows of jobs (``craft_views._damage_context``
    calls this): the job's summary, and who may start, stop or resume it."""
    may_start = craft_damage.can_request_repair(membership, craft)
    for repair in repairs:
        repair.job = job_summary(repair) if repair.started_day is not None else None
        repair.can_start_job = may_start and repair.status == RepairRequest.Status.OPEN
        repair.can_stop_job = repair.status == RepairRequest.Status.WORKING and (
            membership.is_gm
            or repair.requested_by_id == membership.user_id
            or can_edit_craft(membership, craft)
        )


def job_summary(job) -> dict[str, Any]:
    """What a page shows of a job: the worker, the code, the interval, each day's rolls."""
    rolls = job.rolls if isinstance(job.rolls, list) else []
    start = rolls[0] if rolls and isinstance(rolls[0], dict) and "start" in rolls[0] else {}
    days = [d for d in rolls[1:] if isinstance(d, dict) and "day" in d]
    state = start.get("job") if isinstance(start.get("job"), dict) else {}
    count = sum(len(d.get("rolls") or []) for d in days)
    return {
        "worker": start.get("worker", ""),
        "skill": start.get("skill", ""),
        "code": state.get("code", ""),
        "difficulty": state.get("difficulty"),
        "interval": state.get("interval"),
        "days": [
            {
                "day": d.get("day"),
                "totals": [r.get("total") for r in d.get("rolls") or [] if isinstance(r, dict)],
                "success": d.get("success"),
            }
            for d in days[-10:]
        ],
        "count": count,
        "paused": job.status == "working" and (job.note or "").startswith(PAUSED),
    }
