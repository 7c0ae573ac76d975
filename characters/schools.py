"""[HOUSE] schools and school debt (characters-and-advancement.md §4.5, vectors C-35, C-36;
issue 19).

A GM offers schools in a campaign whose advancement follows the House Rules
(:func:`rules.advancement.schools.schools_in_use`): :func:`save_school` defines or edits one
(its length in weeks, its price in CP, the pips it adds to skills, who may attend in words),
:func:`set_school_open` closes or reopens its enrolments. Elsewhere the GM is told why not.

:func:`enrol_character`: a player enrols one of his own characters (the GM any), paying some or
all of the price from his Character Points now and owing the rest, in one transaction with the
character's row locked: at most 100 CP owed in all (:func:`rules.advancement.schools.enrol`),
one school at a time (checked, and backed by the ``one_school_at_a_time`` constraint when two
requests race). Both movements go through the ledger (``CP`` down, ``CP owed`` up).

:func:`withdraw`: the player or the GM takes the character out. Our reading (the House text is
silent): the price is for the seat, so CP paid stay paid and CP owed stay owed, except on the
day of enrolment itself, before any day was attended, when everything is undone (a change of
mind, not a withdrawal).

:func:`schools_due` is the time-advance job's handler (:data:`characters.downtime.HANDLERS`).
A school lasts its weeks in the campaign's weeks (5 days under the House calendar), counted
from the day after enrolment: an enrolment of day ``s`` for ``n`` days finishes as day
``s + n`` is reached. One query a day finds the enrolments whose finish day has come (the
finish day is computed in SQL from ``started_day`` and the stored state's ``days_needed``), so
a day with nothing due costs one query whatever the number of students. Finishing counts the
days attended (the engine's :func:`~rules.advancement.schools.attend`), moves the watermark
``worked_through_day`` to the day, and applies the bonuses to the sheet with
:func:`~rules.advancement.schools.apply_school` (a skill the character lacks is gained at its
attribute's code, then the pips are added). No dice: ``seed`` is unused. Idempotent: the row is
locked and read again, and a finished enrolment is not due any more.

:func:`earn_cp` is how Character Points are EARNED: it credits them and, while the character
owes CP for a school, moves half of them (rounded up) to the debt through the ledger, in the
same transaction ([HOUSE] item 9, C-36: owing 100, earning 12, 6 repay the debt). Under the
House advancement table the points earned at an adventure's end go to the pending slot
(:mod:`characters.month_end`); our reading: the repayment is made when the points are EARNED
(the award), from the pending slot, not when the month's end posts them. "50 % of all earned
CPs" is about earning; posting is the site's bookkeeping, and repaying at the award keeps
points earned before a debt from repaying it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, IntegerField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from campaigns.models import Campaign, Membership
from characters import live
from characters.models import Character, Currency, LedgerEntry, Skill
from characters.school_models import Enrolment, School
from characters.services import LedgerError, change_balance
from rules.advancement import AdvancementError
from rules.advancement.schools import (
    MAX_SCHOOL_DEBT,
    SchoolEnrolment,
    apply_school,
    attend,
    enrol,
    schools_in_use,
    split_earned_cp,
)
from rules.advancement.schools import School as RulesSchool
from rules.traits import ATTRIBUTE_LABELS, ATTRIBUTES

__all__ = [
    "MAX_WEEKS",
    "Earned",
    "SchoolError",
    "character_enrolment",
    "earn_cp",
    "enrol_character",
    "finish_day",
    "save_school",
    "school_of",
    "schools_due",
    "set_school_open",
    "withdraw",
]

MAX_WEEKS = 520
"""The longest school: ten years of weeks."""
MAX_PRICE = 1000
"""The highest price in CP (far past the 100 CP that can be owed)."""
NOT_HOUSE = (
    "Schools are a House rule: this campaign's advancement does not follow the House Rules. "
    "The GM can choose “House Rules costs” for “Improving skills and attributes” on the Rule "
    "options page to offer schools."
)
NAME_LENGTH = School._meta.get_field("name").max_length
INSTRUCTOR_LENGTH = School._meta.get_field("instructor").max_length
RESTRICTIONS_LENGTH = School._meta.get_field("restrictions").max_length


class SchoolError(ValueError):
    """A school request that was refused; the message says why. Nothing was changed."""


def _membership(campaign_id: int, actor) -> Membership | None:
    if actor is None or getattr(actor, "pk", None) is None:
        return None
    return Membership.objects.filter(campaign_id=campaign_id, user_id=actor.pk).first()


def _text(value: object, what: str, limit: int, *, required: bool = False) -> str:
    if not isinstance(value, str):
        raise SchoolError(f"Write {what} as text.")
    text = value.strip()
    if required and not text:
        raise SchoolError(f"Give {what}.")
    if "\x00" in text:
        raise SchoolError(f"{what.capitalize()} cannot contain NUL characters.")
    if len(text) > limit:
        raise SchoolError(f"{what.capitalize()} is too long: at most {limit} characters.")
    return text


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SchoolError(f"{what.capitalize()} is a whole number from {low} to {high}.")
    return value


def school_of(school: School) -> RulesSchool:
    """The engine's school for a stored one."""
    return RulesSchool(
        school.name,
        school.cp_cost,
        school.weeks,
        tuple((a, s, p) for a, s, p in school.bonuses),
    )


# ---------------------------------------------------------------------------------------------
# The GM's schools
# ---------------------------------------------------------------------------------------------
def save_school(
    campaign_id: int,
    *,
    actor,
    name: str,
    weeks: int,
    cp_cost: int,
    bonuses: tuple[tuple[str, str, int], ...],
    instructor: str = "",
    restrictions: str = "",
    open: bool = True,
    school_id: int | None = None,
) -> School:
    """Define a school (``school_id`` None) or edit one, as a GM of a House campaign. An edit
    applies to later enrolments only: each enrolment keeps the school as it was when it began
    (in its state). Refused with :class:`SchoolError`, nothing changed."""
    name = _text(name, "the school's name", NAME_LENGTH, required=True)
    instructor = _text(instructor, "the instructor", INSTRUCTOR_LENGTH)
    restrictions = _text(restrictions, "the restrictions", RESTRICTIONS_LENGTH)
    weeks = _whole(weeks, "the length in weeks", 1, MAX_WEEKS)
    cp_cost = _whole(cp_cost, "the price in CP", 0, MAX_PRICE)
    try:
        engine = RulesSchool(name, cp_cost, weeks, tuple(bonuses))
    except (AdvancementError, TypeError, ValueError) as exc:
        raise SchoolError(f"The bonuses: {exc}.") from None
    if not engine.bonuses:
        raise SchoolError("Give at least one bonus, e.g. 'Perception: command +2'.")
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update(no_key=True).filter(pk=campaign_id).first()
        membership = _membership(campaign_id, actor)
        if campaign is None or membership is None or not membership.is_gm:
            raise SchoolError("Only the campaign's GM can define its schools.")
        if not schools_in_use(ruleset=campaign.ruleset):
            raise SchoolError(NOT_HOUSE)
        school = None
        if school_id is not None:
            school = School.objects.select_for_update().filter(pk=school_id, campaign=campaign)
            school = school.first()
            if school is None:
                raise SchoolError("No such school in this campaign.")
        same = School.objects.filter(campaign=campaign, name__iexact=name)
        if school is not None:
            same = same.exclude(pk=school.pk)
        if same.exists():
            raise SchoolError(f"This campaign already has a school named {name}.")
        school = school or School(campaign=campaign)
        school.name, school.instructor, school.restrictions = name, instructor, restrictions
        school.weeks, school.cp_cost, school.open = weeks, cp_cost, bool(open)
        school.bonuses = [list(b) for b in engine.bonuses]
        try:
            with transaction.atomic():
                school.save()
        except IntegrityError:  # another GM's click named one the same meanwhile
            raise SchoolError(f"This campaign already has a school named {name}.") from None
        live.bump(campaign_id, public=True)
    return school


def set_school_open(campaign_id: int, school_id: int, *, actor, open: bool) -> School:
    """Close a school to new enrolments, or reopen it (the GM). Students already attending
    finish it."""
    with transaction.atomic():
        membership = _membership(campaign_id, actor)
        if membership is None or not membership.is_gm:
            raise SchoolError("Only the campaign's GM can open or close its schools.")
        school = School.objects.select_for_update().filter(pk=school_id, campaign_id=campaign_id)
        school = school.first()
        if school is None:
            raise SchoolError("No such school in this campaign.")
        school.open = bool(open)
        school.save(update_fields=["open"])
        live.bump(campaign_id, public=True)
    return school


# ---------------------------------------------------------------------------------------------
# Enrolling and withdrawing
# ---------------------------------------------------------------------------------------------
def finish_day(enrolment: Enrolment) -> int:
    """The game day the school is over (its days counted from the day after enrolment)."""
    try:
        needed = SchoolEnrolment.from_json(enrolment.state).days_needed
    except AdvancementError:
        needed = 0
    return enrolment.started_day + needed


def enrol_character(
    campaign_id: int, school_id: int, character_id: int, *, actor, pay: int
) -> Enrolment:
    """Enrol the character in the school from today, paying ``pay`` CP of the price now and
    owing the rest. The player of the character or the GM. Refused with :class:`SchoolError`,
    nothing changed: a closed school, someone else's character, a second school at once, not
    enough CP for what is paid, more than 100 CP owed in all."""
    if isinstance(pay, bool) or not isinstance(pay, int) or pay < 0:
        raise SchoolError("Pay a whole number of CP, 0 or more.")
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update(no_key=True).filter(pk=campaign_id).first()
        membership = _membership(campaign_id, actor)
        character = (
            Character.objects.select_for_update()
            .filter(pk=character_id, campaign_id=campaign_id)
            .first()
        )
        school = School.objects.filter(pk=school_id, campaign_id=campaign_id).first()
        if campaign is None or membership is None:
            raise SchoolError("No such campaign.")
        if character is None or (
            not membership.is_gm
            and (character.kind == Character.Kind.NPC or character.owner_id != membership.user_id)
        ):
            raise SchoolError("Only the character's player or the GM can enrol him.")
        if school is None:
            raise SchoolError("No such school in this campaign.")
        if not schools_in_use(ruleset=campaign.ruleset):
            raise SchoolError(NOT_HOUSE)
        if not school.open:
            raise SchoolError(f"{school.name} is closed to new students.")
        attending = (
            Enrolment.objects.filter(character=character, status=Enrolment.Status.ATTENDING)
            .select_related("school")
            .first()
        )
        if attending is not None:
            raise SchoolError(
                f"{character.name} is already at {attending.school.name} (until day "
                f"{finish_day(attending)}): one school at a time."
            )
        if pay > school.cp_cost:
            raise SchoolError(f"{school.name} costs {school.cp_cost} CP: pay at most that.")
        owed = school.cp_cost - pay
        try:
            state = enrol(school_of(school), character.cp_owed, ruleset=campaign.ruleset, paid=pay)
        except AdvancementError as exc:
            raise SchoolError(
                f"{character.name} cannot owe that much: {exc}. Pay more of the price now."
            ) from None
        if pay > character.character_points:
            raise SchoolError(
                f"{character.name} has {character.character_points} CP: not enough to pay "
                f"{pay} CP now. Owe more of it (at most {MAX_SCHOOL_DEBT} CP in all)."
            )
        try:
            if pay:
                change_balance(character, Currency.CP, -pay, f"Paid for {school.name}", actor)
            if owed:
                change_balance(character, Currency.CP_OWED, owed, f"Owed for {school.name}", actor)
        except LedgerError as exc:
            raise SchoolError(f"Not possible: {exc}.") from None
        day = campaign.game_day
        try:
            with transaction.atomic():
                enrolment = Enrolment.objects.create(
                    school=school,
                    character=character,
                    state=state.to_json(),
                    started_day=day,
                    worked_through_day=day,
                    cp_paid=pay,
                    cp_owed=owed,
                    created_by=actor if getattr(actor, "pk", None) else None,
                )
        except IntegrityError:  # another request enrolled him meanwhile (the constraint)
            raise SchoolError(
                f"{character.name} is already at a school: one school at a time."
            ) from None
        live.bump(campaign_id, public=True)
    return enrolment


def withdraw(campaign_id: int, enrolment_id: int, *, actor) -> Enrolment:
    """Take the character out of the school (his player or the GM). CP paid stay paid and CP
    owed stay owed (our reading), unless no day has been attended yet (the day of enrolment):
    then the CP paid come back and the CP owed are cancelled."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update(no_key=True).filter(pk=campaign_id).first()
        membership = _membership(campaign_id, actor)
        enrolment = (
            Enrolment.objects.select_for_update(of=("self",))
            .select_related("character", "school")
            .filter(pk=enrolment_id, school__campaign_id=campaign_id)
            .first()
        )
        if campaign is None or membership is None or enrolment is None:
            raise SchoolError("No such enrolment in this campaign.")
        character = enrolment.character
        if not membership.is_gm and character.owner_id != membership.user_id:
            raise SchoolError("Only the character's player or the GM can withdraw him.")
        if enrolment.status != Enrolment.Status.ATTENDING:
            raise SchoolError(f"{character.name} is no longer at {enrolment.school.name}.")
        Character.objects.select_for_update().filter(pk=character.pk).first()
        today = max(campaign.game_day, enrolment.started_day)
        state = SchoolEnrolment.from_json(enrolment.state)
        days = min(today - enrolment.worked_through_day, state.days_left)
        if days > 0:
            state, _ = attend(state, days)
        name = enrolment.school.name
        if state.days_done == 0:
            reason = f"Returned: withdrew from {name} before it began"
            if enrolment.cp_paid:
                change_balance(character, Currency.CP, enrolment.cp_paid, reason, actor)
            held = Character.objects.values_list("cp_owed", flat=True).get(pk=character.pk)
            cancel = min(enrolment.cp_owed, held)
            if cancel:
                change_balance(character, Currency.CP_OWED, -cancel, reason, actor)
        enrolment.state = state.to_json()
        enrolment.status = Enrolment.Status.WITHDRAWN
        enrolment.worked_through_day = today
        enrolment.finished_day = today
        enrolment.save(update_fields=["state", "status", "worked_through_day", "finished_day"])
        live.bump(campaign_id, public=True)
    return enrolment


def character_enrolment(character_id: int) -> Enrolment | None:
    """The school the character attends now, with ``finishes`` (its finish day), or None."""
    enrolment = (
        Enrolment.objects.filter(character_id=character_id, status=Enrolment.Status.ATTENDING)
        .select_related("school")
        .first()
    )
    if enrolment is not None:
        enrolment.finishes = finish_day(enrolment)
    return enrolment


# ---------------------------------------------------------------------------------------------
# The job
# ---------------------------------------------------------------------------------------------
def _due(campaign_id: int, day: int):
    finish = F("started_day") + Cast(KT("state__days_needed"), IntegerField())
    return (
        Enrolment.objects.filter(
            school__campaign_id=campaign_id,
            status=Enrolment.Status.ATTENDING,
            worked_through_day__lt=day,
            started_day__lt=day,
        )
        .alias(finish=finish)
        .filter(finish__lte=day)
    )


def schools_due(campaign_id: int, day: int, *, seed: int = 0) -> list[dict[str, Any]]:
    """Downtime handler: the schools that are over as the campaign's date moves to ``day``,
    each finished in its own transaction (the enrolment's row locked and read again): the days
    counted, the bonuses put on the sheet, the result recorded. One JSON-safe report line per
    school finished. ``seed`` is unused (no dice)."""
    if isinstance(day, bool) or not isinstance(day, int) or day < 0:
        raise SchoolError("the game day must be a whole number, 0 or more")
    pks = list(_due(campaign_id, day).order_by("pk").values_list("pk", flat=True))
    lines: list[dict[str, Any]] = []
    for pk in pks:
        with transaction.atomic():
            enrolment = (
                _due(campaign_id, day)
                .select_for_update(of=("self",))
                .select_related("character", "school")
                .filter(pk=pk)
                .first()
            )
            if enrolment is not None:
                lines.append(_finish(enrolment, day))
    return lines


def _finish(enrolment: Enrolment, day: int) -> dict[str, Any]:
    character = Character.objects.select_for_update().get(pk=enrolment.character_id)
    state = SchoolEnrolment.from_json(enrolment.state)
    if not state.finished:
        state, _ = attend(state, state.days_left)
    school = state.school
    rows = {
        s.name.casefold(): s for s in Skill.objects.select_for_update().filter(character=character)
    }
    current = {}
    for _, skill, _ in school.bonuses:
        row = rows.get(skill.casefold())
        if row is not None:
            current[skill] = row.code
    attributes = {a: getattr(character, a) for a in ATTRIBUTES}
    after = apply_school(school, current, attributes)
    result: dict[str, list[str]] = {}
    words = [f"{school.name} is over: {state.days_done} days attended"]
    for attribute, skill, pips in school.bonuses:
        new = after[skill]
        row = rows.get(skill.casefold())
        if row is None:
            row = Skill.objects.create(
                character=character, name=skill, attribute=attribute, code=new
            )
            rows[skill.casefold()] = row
            base = getattr(character, attribute)
            words.append(
                f"{skill} gained at {new} ({ATTRIBUTE_LABELS[attribute]} {base} +{_pips(pips)})"
            )
            result[skill] = ["", str(new)]
        else:
            before = row.code
            row.code = new
            row.save(update_fields=["code"])
            words.append(f"{row.name} {before} → {new}")
            result[row.name] = [str(before), str(new)]
    enrolment.state = state.to_json()
    enrolment.status = Enrolment.Status.DONE
    enrolment.worked_through_day = day
    enrolment.finished_day = day
    enrolment.result = result
    enrolment.save(
        update_fields=["state", "status", "worked_through_day", "finished_day", "result"]
    )
    live.bump(
        character.campaign_id,
        public=not (character.kind == Character.Kind.NPC and character.secret),
    )
    return {
        "character_id": character.pk,
        "character": character.name,
        "kind": "school",
        "target": school.name,
        "from": "",
        "to": "finished",
        "outcome": "improved",
        "cp_back": 0,
        "words": words,
    }


def _pips(pips: int) -> str:
    return f"{pips} pip" if pips == 1 else f"{pips} pips"


# ---------------------------------------------------------------------------------------------
# Earning Character Points: half repays the school debt
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Earned:
    """What :func:`earn_cp` did: the ledger entry of the points earned, and how many of them
    went to the school debt (0: none owed)."""

    entry: LedgerEntry
    repaid: int
    still_owed: int


EARNING_SLOTS = (Currency.CP, Currency.PENDING_CP)


def earn_cp(
    character: Character | int,
    amount: int,
    reason: str,
    actor=None,
    roll=None,
    *,
    currency: str = Currency.CP,
    earned_before: int = 0,
) -> Earned:
    """Credit ``amount`` Character Points EARNED (to ``currency``: the Character Points, or
    the [HOUSE] pending slot) and, while the character owes CP for a school, move half of them
    (rounded up, never more than owed) from that slot to the debt: the slot down and ``CP
    owed`` down, each with a ledger entry "Repays school debt: <reason>", all in one
    transaction with the character's row locked. ``earned_before``: points earned at the same
    time and already credited (an award's CP before its kill bonus), so the half is of the
    whole. Raises :class:`~characters.services.LedgerError` as ``change_balance`` does.

    Not for refunds or the GM's corrections in the ledger: those are not earnings."""
    if currency not in EARNING_SLOTS:
        raise LedgerError("points are earned as Character Points or pending CP")
    character_id = character if isinstance(character, int) else character.pk
    with transaction.atomic():
        entry = change_balance(character, currency, amount, reason, actor, roll)
        owed = (
            Character.objects.select_for_update()
            .values_list("cp_owed", flat=True)
            .get(pk=character_id)
        )
        repaid = 0
        if owed:
            repaid, _ = split_earned_cp(amount, owed, earned_before=earned_before)
        if repaid:
            why = f"Repays school debt: {reason}"
            change_balance(character, currency, -repaid, why, actor)
            change_balance(character, Currency.CP_OWED, -repaid, why, actor)
    return Earned(entry, repaid, owed - repaid)


def bonus_words(bonuses: list[list[Any]] | tuple[tuple[str, str, int], ...]) -> list[str]:
    """A school's bonuses in words: "Perception: command +2 pips"."""
    return [f"{ATTRIBUTE_LABELS.get(a, a)}: {s} +{_pips(p)}" for a, s, p in bonuses]
