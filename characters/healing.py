"""Healing over days between adventures: natural healing rolls and bacta tanks as a downtime
handler (injuries-and-healing.md §7, §8, §10; issue 19).

:func:`heal_due` is the time-advance job's handler (:data:`characters.downtime.HANDLERS`).
The job calls it once for each day ``d`` the campaign's date moves to; the day that has
*ended* is ``d - 1`` (H-66: only ended days are processed, so whatever happens during the
current day, a medpac or a new wound, is not missed). For every wounded character of the
campaign (droids are repaired, not healed) it processes each ended day after his course's
watermark, in its own transaction with his row and his course locked:

* a bacta treatment that ends that day makes its roll (the tank's operator's die code against
  a difficulty the engine gives: :func:`rules.injuries.bacta_difficulty`, the number rolled
  as a random difficulty of that level); success heals him fully, failure is
  :func:`rules.injuries.bacta_failure_level`. No natural rolls while in the tank;
* otherwise, when :func:`rules.injuries.natural_roll_due` says a roll is due, his Strength is
  rolled (with the Wild Die and the Character Points set in advance, IH-26) and
  :func:`rules.injuries.natural_healing_result` gives his new level, which goes on the sheet
  through ``Character.set_wound_state``; every roll restarts the period (IH-17).

A result of death with the campaign's ``death_automation = flag_for_gm`` sets
``death_pending`` instead: the level stays and nothing is rolled until the GM decides (H-67).

Idempotent (H-58): each event has a unique key (character, kind, day, n) and the watermark
``processed_through_day`` is read again under the row lock, so a day processed twice rolls
nothing the second time. The dice come from the course's own seed and the event's key, never
from the advance's seed: one catch-up advance of ten days rolls the same dice as ten advances
of a day.

Choices where the rules leave room (documented in the README):

* Each day's activity comes from the dated log his player or a GM keeps (rest unless said):
  an active day after the period's first spoils it (-1D), taking it easy doubles the interval
  and gives +1D (H-57, IH-17). [RC] Accelerate Healing marked on a due day gives two rolls at
  +2 each (H-59, IH-18).
* [HOUSE] critical injuries on the sheet whose deadline passes untreated become permanent, or
  (internal bleeding) kill him, flagged for the GM (§5, H-42).
* Medpacs are used at once from the sheet (:func:`use_medpac`): the sheet keeps days, not the
  hour, so a medpac counts at its day's start: "within the day" is that game day and a
  lock-out ends when the date moves on.
* A mortally wounded character carried into downtime counts as stabilised and treated (the
  combat tracker handles dying; IH-29 gives the same reading for healing and bacta results).
* A level changed on the sheet (a new wound, a medpac, a GM edit) restarts the period on the
  day it was noticed: the campaign's date when the change was made.
* The owner of a character or a GM may put him in a bacta tank; the treatment roll is made
  by the job when the time is up.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Q

from campaigns.models import Campaign, Membership
from characters import live
from characters.healing_models import HealingCourse, HealingEvent
from characters.models import Character, Currency, DiceRoll, Item, Skill
from characters.services import change_balance, condition, fit_wound_level, roll_and_record
from rules import DieCode, RulesError, RuleSet, SeededDice, roll
from rules.dice import DiceSource, rollable_pool
from rules.difficulty import random_dice, random_difficulty
from rules.injuries import (
    HealingRoll,
    HealingState,
    WoundLevel,
    bacta_difficulty,
    bacta_failure_level,
    bacta_time,
    healing_cp_dice,
    natural_healing_interval,
    natural_healing_result,
    natural_roll_due,
)
from rules.injuries.criticals import (
    PERMANENT_AT_ONCE,
    CriticalInjury,
    carried_deadline_day,
    critical_deadline_passed,
    critical_heal_shift,
    critical_healed_by,
    critical_lapse,
)
from rules.injuries.healing import (
    accelerate_healing_applies,
    kd6_distribution,
    medpac_difficulty,
    medpac_locked_out,
    medpac_locks_out,
    medpac_roll_bonus,
    medpac_success_level,
    natural_rolls_on,
    rc_medpac_number,
    record_medpac,
)
from rules.odds import success_chance

__all__ = [
    "HealingError",
    "HealingStatus",
    "carry_criticals",
    "critical_lines",
    "decide_death",
    "heal_due",
    "healing_dice",
    "healing_status",
    "mark_accelerate",
    "medpac_plan",
    "set_activity",
    "set_cp_per_roll",
    "start_bacta",
    "use_medpac",
]

W = WoundLevel
HEALING_LEVELS = (W.wounded, W.wounded_twice, W.incapacitated, W.mortally_wounded)
"""The levels natural healing and bacta work on."""

MAX_CP_PER_ROLL = 99
"""The most Character Points per healing roll a player may set (the engine caps the dice)."""

RngFor = Callable[[int, str], DiceSource]


class HealingError(ValueError):
    """A healing request that was refused; the message says why. Nothing was changed."""


def healing_dice(seed: int, key: str) -> DiceSource:
    """The dice of one healing event: from the course's seed and the event's key
    (``natural:12:1``), hashed canonically (never Python's ``hash()``)."""
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
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


def _course_seed(seed: int, character_id: int) -> int:
    """A new course's seed: from the seed of the advance (or request) that opened it and the
    character, so two characters wounded the same day do not share their dice."""
    digest = hashlib.sha256(f"healing:{seed}:{character_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # fits a signed BigIntegerField


# ---------------------------------------------------------------------------------------------
# The downtime handler
# ---------------------------------------------------------------------------------------------
def heal_due(
    campaign_id: int, day: int, *, seed: int, rng_for: RngFor = healing_dice
) -> list[dict[str, Any]]:
    """The healing that falls due when the campaign's date moves to ``day``: every ended day
    up to ``day - 1`` not yet processed, for each wounded character, in one transaction (the
    day's, when the advance calls it). Returns one JSON-safe report line per roll (who, what,
    dice, outcome)."""
    if isinstance(day, bool) or not isinstance(day, int) or day < 0:
        raise HealingError("the game day must be a whole number, 0 or more")
    ended = day - 1
    if ended < 0:
        return []
    levels = [level.value for level in HEALING_LEVELS]
    pks = list(
        Character.objects.filter(campaign_id=campaign_id, nature=Character.Nature.ORGANIC)
        .filter(Q(wound_level__in=levels) | Q(healing__bacta_until__isnull=False))
        .exclude(healing__processed_through_day__gte=ended)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if not pks:
        return []
    ruleset = Campaign.objects.only("rule_options").get(pk=campaign_id).ruleset
    # A bounded number of statements a day whatever the number of wounded (bench/downtime.py):
    # the characters and their courses are locked in two statements (in id order, as every
    # other writer locks a character), the day's watermarks written in one; only what happens
    # (a roll, a new course, a change of level) costs more. The day's transaction holds it all.
    with transaction.atomic():  # the day's, when the advance calls it
        return _heal(pks, ended, ruleset, seed=seed, rng_for=rng_for)


def _heal(
    pks: list[int], ended: int, ruleset: RuleSet, *, seed: int, rng_for: RngFor
) -> list[dict[str, Any]]:
    """The day's healing of the characters ``pks``, locked here, in the caller's transaction."""
    lines: list[dict[str, Any]] = []
    characters = list(Character.objects.select_for_update().filter(pk__in=pks).order_by("pk"))
    courses = {
        course.character_id: course
        for course in HealingCourse.objects.select_for_update()
        .filter(character_id__in=pks)
        .order_by("character_id")
    }
    worked: list[HealingCourse] = []
    for character in characters:
        course = _locked_course(character, ended, seed=seed, found=courses.get(character.pk))
        if course.processed_through_day >= ended:  # done meanwhile (a retry, a worker)
            continue
        done = []
        for today in range(course.processed_through_day + 1, ended + 1):
            done.extend(_one_day(character, course, today, ruleset, rng_for))
        course.processed_through_day = ended
        worked.append(course)
        if done:
            live.bump(character.campaign_id, public=_public(character))
        lines.extend(done)
    if worked:
        HealingCourse.objects.bulk_update(worked, COURSE_FIELDS)
    return lines


COURSE_FIELDS = [
    "level",
    "state",
    "processed_through_day",
    "death_pending",
    "bacta_from",
    "bacta_until",
    "bacta_medicine",
    "bacta_code",
]
"""What the day's work may change on a course, written for every course at once."""


def _locked_course(
    character: Character, ended: int, *, seed: int, found: HealingCourse | None
) -> HealingCourse:
    """His course (``found``: locked by the caller, None when he has none); opened (or
    restarted) when his sheet's level is not the one the course follows: the period starts on
    ``ended``, the date the change was made on."""
    course = found
    if course is None:
        return HealingCourse.objects.create(
            character=character,
            seed=_course_seed(seed, character.pk),
            level=character.wound_level,
            state=HealingState(period_start_day=ended).to_json(),
            processed_through_day=ended,
        )
    if course.level != character.wound_level:
        state = HealingState.from_json(course.state).restart_period(max(ended, 0))
        course.level = character.wound_level
        course.state = state.to_json()
        course.death_pending = False
        # The change was made during day ``ended``: that day is the period's first day and
        # nothing falls due on it.
    return course


def _one_day(
    character: Character, course: HealingCourse, day: int, ruleset: RuleSet, rng_for: RngFor
) -> list[dict[str, Any]]:
    """Day ``day`` (ended) of his course: a bacta treatment that ends, or a natural roll due."""
    if course.death_pending:
        return []
    if course.bacta_until is not None:
        if day >= course.bacta_until:
            return [_finish_bacta(character, course, day, ruleset, rng_for)]
        return []
    crits = _critical_deadlines(character, course, day, ruleset)
    if course.death_pending or W(character.wound_level) is W.killed:
        return crits
    level = fit_wound_level(character.wound_level, ruleset=ruleset)
    if level not in HEALING_LEVELS:
        return crits
    state = HealingState.from_json(course.state)
    activity = state.activity_on(day)
    state = state.note_activity(day, activity)
    due = natural_roll_due(
        state, level, day, activity, strength=character.strength, ruleset=ruleset
    )
    course.state = state.to_json()
    if due is None:
        return crits
    rolls, bonus = natural_rolls_on(state, day, ruleset=ruleset)
    lines = crits
    for n in range(1, rolls + 1):
        if n > 1 and (course.death_pending or level not in HEALING_LEVELS):
            break  # healed, dead or flagged by the first roll: no second roll (H-59)
        lines.append(_natural_roll(character, course, level, due, day, n, bonus, ruleset, rng_for))
        level = W(course.level) if not course.death_pending else level
    return lines


def _natural_roll(
    character: Character,
    course: HealingCourse,
    level: WoundLevel,
    due: HealingRoll,
    day: int,
    n: int,
    bonus: int,
    ruleset: RuleSet,
    rng_for: RngFor,
) -> dict[str, Any]:
    """One natural-healing Strength roll (the n-th of the day): +``bonus`` from [RC]
    Accelerate Healing; the period restarts after it (IH-17)."""
    state = HealingState.from_json(course.state)
    cp = healing_cp_dice(state.cp_per_roll, character.character_points, ruleset=ruleset)
    rolled = roll(
        due.pool,
        ruleset=ruleset,
        rng=rng_for(course.seed, f"natural:{day}:{n}"),
        cp_dice=cp,
        modifier=bonus,
    )
    new = natural_healing_result(level, rolled.total, ruleset=ruleset)
    why = {1: " (taking it easy: +1D)", -1: " (an active period: -1D)"}.get(due.modifier_dice, "")
    extra = (f" + {cp} CP" if cp else "") + (f" + {bonus} Accelerate Healing" if bonus else "")
    words = [f"Strength {due.pool}{why}{extra}: {rolled.total}"]
    if cp:
        change_balance(character.pk, Currency.CP, -cp, f"CP on a natural-healing roll, day {day}")
        character.character_points -= cp
    after = _settle(character, course, level, new, day, ruleset, words)
    course.state = HealingState.from_json(course.state).restart_period(day).to_json()
    return _event(
        character,
        HealingEvent.Kind.NATURAL,
        day,
        level,
        after,
        rolled.total,
        {"strength": rolled.to_json()},
        words,
        n=n,
    )


def _settle(
    character: Character,
    course: HealingCourse,
    before: WoundLevel,
    new: WoundLevel,
    day: int,
    ruleset: RuleSet,
    words: list[str],
) -> WoundLevel:
    """Put ``new`` on the sheet, or flag a death for the GM (H-67, IH-29); returns the level
    he is at now."""
    if new is W.killed and ruleset.death_automation == "flag_for_gm":
        course.death_pending = True
        words.append("death: waiting for the GM's decision, nothing is rolled until then")
        return before
    if new is W.mortally_wounded and before is not W.mortally_wounded:
        words.append(
            "mortally wounded: counted as stabilised and treated (IH-29); the GM may hand him "
            "to the dying procedure instead"
        )
    character.set_wound_state(replace(character.wound_state, level=new))
    fields = ["wound_level", "stun_state", "updated_at"]
    if new is W.none:
        # IH-21: a wounded-table critical clears when the wound it came with is healed.
        for c in _open_criticals(character):
            if _table(c) in (W.wounded, W.wounded_twice):
                c["healed_day"] = day
                words.append(f"{c.get('name')} healed with the wound")
                fields.append("criticals")
    character.save(update_fields=list(dict.fromkeys(fields)))
    course.level = new.value
    words.append("healed" if new is W.none else f"now {_label(new)}")
    return new


def _finish_bacta(
    character: Character, course: HealingCourse, day: int, ruleset: RuleSet, rng_for: RngFor
) -> dict[str, Any]:
    """The treatment ends on ``day``: its roll against a difficulty of the engine's level."""
    level = fit_wound_level(character.wound_level, ruleset=ruleset)
    rng = rng_for(course.seed, f"bacta:{day}:1")
    shift = _critical_shift(character, ruleset, method="bacta")
    difficulty = bacta_difficulty(medicine=course.bacta_medicine, critical_shift=shift)
    number = random_difficulty(difficulty, ruleset=ruleset, rng=rng)
    rolled = roll(DieCode.parse(course.bacta_code), ruleset=ruleset, rng=rng)
    success = rolled.total >= number.number
    who = "(A) Medicine" if course.bacta_medicine else "first aid or Technical"
    words = [
        f"bacta treatment since day {course.bacta_from}: {who} {course.bacta_code} rolled "
        f"{rolled.total} against {difficulty} {number.number}"
    ]
    if level not in HEALING_LEVELS:
        words.append("nothing left to heal")
        after = level
    elif success:
        treated = _treat_criticals(character, day, method="bacta")
        if treated:
            character.save(update_fields=["criticals", "updated_at"])
            words.extend(treated)
        after = _settle(character, course, level, W.none, day, ruleset, words)
    else:
        words.append("failed")
        new = bacta_failure_level(level, medicine=course.bacta_medicine, ruleset=ruleset)
        after = (
            level if new is level else _settle(character, course, level, new, day, ruleset, words)
        )
    course.bacta_from = course.bacta_until = None
    course.bacta_code = ""
    course.state = HealingState.from_json(course.state).restart_period(day).to_json()
    dice = {"difficulty": list(number.dice), "treatment": rolled.to_json()}
    return _event(character, HealingEvent.Kind.BACTA, day, level, after, rolled.total, dice, words)


def _event(
    character: Character,
    kind: str,
    day: int,
    before: WoundLevel,
    after: WoundLevel,
    total: int | None,
    dice: dict[str, Any],
    words: list[str],
    *,
    n: int = 1,
) -> dict[str, Any]:
    """Store the event under its unique key (a duplicate aborts the day: IntegrityError) and
    return its report line."""
    text = "; ".join(words)
    HealingEvent.objects.create(
        character=character,
        kind=kind,
        day=day,
        n=n,
        level_before=before.value,
        level_after=after.value,
        total=total,
        dice=dice,
        words=text[:300],
    )
    return {
        "character_id": character.pk,
        "character": character.name,
        "kind": "healing",
        "healing": kind,
        "what": HealingEvent.Kind(kind).label,
        "healing_day": day,
        "from": _label(before),
        "to": _label(after),
        "total": total,
        "words": words,
        # "character": the roll as the advance's report shows a roll with its dice.
        "roll": {"character": dice.get("strength") or dice.get("treatment"), **dice},
    }


def _label(level: WoundLevel) -> str:
    return "Healthy" if level is W.none else level.label


def _public(character: Character) -> bool:
    return not (character.kind == Character.Kind.NPC and character.secret)


# ---------------------------------------------------------------------------------------------
# Requests from the sheet
# ---------------------------------------------------------------------------------------------
def _membership(campaign_id: int, actor) -> Membership | None:
    if actor is None or getattr(actor, "pk", None) is None:
        return None
    return Membership.objects.filter(campaign_id=campaign_id, user_id=actor.pk).first()


def _controlled(character_id: int, campaign_id: int, actor, *, gm_only: bool = False):
    """The campaign (row locked) and the character (row locked), or HealingError."""
    membership = _membership(campaign_id, actor)
    campaign = Campaign.objects.select_for_update(no_key=True).filter(pk=campaign_id).first()
    character = (
        Character.objects.select_for_update()
        .filter(pk=character_id, campaign_id=campaign_id)
        .first()
    )
    if membership is None or campaign is None or character is None:
        raise HealingError("No such character in this campaign.")
    allowed = membership.is_gm or (not gm_only and character.owner_id == actor.pk)
    if not allowed:
        raise HealingError(
            "Only the campaign's GM can decide that."
            if gm_only
            else "Only the character's player or the GM can do that."
        )
    return campaign, character


def _course_for_request(character: Character, campaign: Campaign) -> HealingCourse:
    """His course, locked, opened for a request made on the campaign's current date."""
    course = HealingCourse.objects.select_for_update().filter(character=character).first()
    today = campaign.game_day
    if course is None:
        return HealingCourse.objects.create(
            character=character,
            seed=_course_seed(secrets.randbits(62), character.pk),
            level=character.wound_level,
            state=HealingState(period_start_day=today).to_json(),
            processed_through_day=today - 1,
        )
    if course.level != character.wound_level:
        course.level = character.wound_level
        course.state = HealingState.from_json(course.state).restart_period(today).to_json()
        course.death_pending = False
    return course


def _next_n(character: Character, kind: str, day: int) -> int:
    top = HealingEvent.objects.filter(character=character, kind=kind, day=day).aggregate(
        top=Max("n")
    )["top"]
    return (top or 0) + 1


def _treatable(
    character: Character, campaign: Campaign, treatment: str, tank_verb: str
) -> tuple[WoundLevel, HealingCourse]:
    """His wound level and course when ``treatment`` ("a medpac", "a bacta tank") can be given
    him today; HealingError with the reason otherwise (a droid, nothing to heal, already in a
    tank, a death awaiting the GM)."""
    if character.is_droid:
        raise HealingError(f"{character.name} is a droid: droids are repaired, not healed.")
    level = fit_wound_level(character.wound_level, ruleset=campaign.ruleset)
    if level not in HEALING_LEVELS:
        raise HealingError(
            f"{character.name} is {_label(level).lower()}: {treatment} has nothing to heal."
        )
    course = _course_for_request(character, campaign)
    if course.bacta_until is not None:
        raise HealingError(
            f"{character.name} {tank_verb} in a bacta tank until day {course.bacta_until}."
        )
    if course.death_pending:
        raise HealingError(f"{character.name}'s death awaits the GM's decision.")
    return level, course


def start_bacta(
    campaign_id: int, character_id: int, *, actor, medicine: bool, code: DieCode
) -> HealingCourse:
    """Put the character in a bacta tank on the campaign's current date: the engine gives the
    time for his level and the campaign's ``bacta_times`` (rolled now, plain dice), and the job
    makes the treatment roll with ``code`` when it ends. Refused with :class:`HealingError`,
    nothing changed, for someone who is neither his player nor a GM, a droid, a character with
    nothing to heal, one already in a tank, or one whose death awaits the GM."""
    if not isinstance(code, DieCode) or not 1 <= code.dice <= 30 or code.pips < 0:
        raise HealingError("The treatment roll's die code is 1D to 30D, e.g. 4D+1.")
    try:
        with transaction.atomic():
            campaign, character = _controlled(character_id, campaign_id, actor)
            ruleset = campaign.ruleset
            level, course = _treatable(character, campaign, "a bacta tank", "is already")
            today = campaign.game_day
            n = _next_n(character, HealingEvent.Kind.BACTA_TIME, today)
            duration = bacta_time(level, ruleset=ruleset)
            rng = _Faces(healing_dice(course.seed, f"bacta_time:{today}:{n}"))
            amount = duration.roll(rng=rng)
            faces = rng.faces
            days = amount if duration.unit == "days" else amount // 24
            course.bacta_from = today
            course.bacta_until = today + days
            course.bacta_medicine = bool(medicine)
            course.bacta_code = str(code)
            course.save()
            HealingEvent.objects.create(
                character=character,
                kind=HealingEvent.Kind.BACTA_TIME,
                day=today,
                n=n,
                level_before=level.value,
                level_after=level.value,
                total=amount,
                dice={"time": faces, "duration": str(duration)},
                words=(
                    f"into a bacta tank: {duration} = {amount} {duration.unit}, until day "
                    f"{course.bacta_until}"
                ),
            )
            live.bump(campaign_id, public=_public(character))
            return course
    except RulesError as exc:
        raise HealingError(str(exc)) from None
    except IntegrityError:
        raise HealingError(
            "Someone else changed this character's healing meanwhile: try again."
        ) from None


def set_cp_per_roll(campaign_id: int, character_id: int, *, actor, cp: int) -> HealingCourse:
    """Character Points spent on each natural-healing roll (IH-26), set in advance by his
    player or a GM: capped by the engine at the roll and deducted when the roll is made."""
    if isinstance(cp, bool) or not isinstance(cp, int) or not 0 <= cp <= MAX_CP_PER_ROLL:
        raise HealingError(
            f"Character Points per healing roll: a whole number from 0 to {MAX_CP_PER_ROLL}."
        )
    with transaction.atomic():
        campaign, character = _controlled(character_id, campaign_id, actor)
        if healing_cp_dice(cp, cp, ruleset=campaign.ruleset) == 0 and cp:
            raise HealingError("This campaign's rules spend no Character Points on healing rolls.")
        course = _course_for_request(character, campaign)
        state = HealingState.from_json(course.state)
        course.state = replace(state, cp_per_roll=cp).to_json()
        course.save()
        return course


def decide_death(campaign_id: int, character_id: int, *, actor, confirm: bool) -> HealingCourse:
    """The GM's decision on a death flagged by a healing or bacta roll (H-67): ``confirm``
    puts him at killed; otherwise he stays at his level and a new healing period starts today."""
    with transaction.atomic():
        campaign, character = _controlled(character_id, campaign_id, actor, gm_only=True)
        course = HealingCourse.objects.select_for_update().filter(character=character).first()
        if course is None or not course.death_pending:
            raise HealingError(f"No death of {character.name} awaits a decision.")
        today = campaign.game_day
        level = W(character.wound_level)
        after = W.killed if confirm else level
        if confirm:
            character.set_wound_state(replace(character.wound_state, level=W.killed))
            character.save(update_fields=["wound_level", "stun_state", "updated_at"])
        course.level = after.value
        course.death_pending = False
        course.state = HealingState.from_json(course.state).restart_period(today).to_json()
        course.processed_through_day = max(course.processed_through_day, today - 1)
        words = "the GM confirmed the death" if confirm else "the GM kept him alive"
        return _noted(character, course, HealingEvent.Kind.GM, today, level, after, words)


def _noted(
    character: Character,
    course: HealingCourse,
    kind: str,
    today: int,
    before: WoundLevel,
    after: WoundLevel,
    words: str,
) -> HealingCourse:
    """Save the course a request changed, note what was done in an event of ``kind`` on
    ``today`` (the next of its kind that day), and tell the live views."""
    course.save()
    HealingEvent.objects.create(
        character=character,
        kind=kind,
        day=today,
        n=_next_n(character, kind, today),
        level_before=before.value,
        level_after=after.value,
        words=words,
    )
    live.bump(character.campaign_id, public=_public(character))
    return course


# ---------------------------------------------------------------------------------------------
# Medpacs between fights, activity, Accelerate Healing (issue 19, §6, §7, H-57, H-59)
# ---------------------------------------------------------------------------------------------
MINUTES_PER_DAY = 24 * 60
ACTIVITIES = {
    "rest": "Resting",
    "easy": "Taking it easy (twice as long, +1D)",
    "active": "Active: working, adventuring (-1D)",
}
RC_SCALE_LOW = {W.wounded: 6, W.wounded_twice: 6, W.incapacitated: 11, W.mortally_wounded: 16}
"""[RC] the bottom of each level's medpac scale: the number used when no one chose one yet
(one blaster bolt → 6, H-49). Wounded twice (not on the RC ladder) uses the wounded scale."""


def rc_medpac_base(level: WoundLevel, state: HealingState, chosen: int | None) -> int:
    """[RC] the wound's medpac number: the one chosen now, else the one kept with the wound
    (consistency, §6.3) when it fits his level's scale, else the bottom of the scale."""
    if chosen is not None:
        return chosen
    scale = W.wounded if level is W.wounded_twice else level
    kept = state.rc_medpac_number
    low = RC_SCALE_LOW[level]
    if kept is not None and low <= kept <= low + 4 and scale in RC_SCALE_LOW:
        return kept
    return low


def _day_minute(day: int) -> int:
    """The game minute a medpac used on ``day`` counts at: the sheet keeps days, not the time
    of day, so a use counts at the day's start and its 24 hours cover that game day."""
    return day * MINUTES_PER_DAY


@dataclass(frozen=True)
class MedpacPlan:
    """What a medpac roll would be: the roll's pool (after the first-aider's wounds and the
    -1D on himself), the difficulty (a level rolled as a random number, or an [RC] number),
    the bonus and the chance of success."""

    aider: Character
    skill: str
    code: DieCode
    pool: DieCode | None
    level_text: str
    number: int | None
    difficulty: Any
    bonus: int
    chance: float | None
    problem: str = ""


def _first_aid(aider: Character) -> tuple[str, DieCode]:
    skill = Skill.objects.filter(character=aider, name__iexact="first aid").first()
    if skill is not None:
        return "first aid", DieCode.parse(skill.code)
    return "Technical (no first aid skill)", DieCode.parse(aider.technical)


def _medpac_difficulty(
    level: WoundLevel,
    state: HealingState,
    today: int,
    *,
    ruleset: RuleSet,
    fastflesh: bool,
    pack_used_before: bool,
    rc_number: int | None,
    critical_shift: int,
) -> tuple[Any, int | None, str, int]:
    """(difficulty level or None, fixed [RC] number or None, words, Accelerate bonus)."""
    minute = _day_minute(today)
    earlier = state.medpacs_within_day(minute)
    bonus = medpac_roll_bonus(state, today, earlier, ruleset=ruleset)
    if ruleset.medpac_rules == "rc":
        scale = W.wounded if level is W.wounded_twice else level
        base = rc_medpac_base(level, state, rc_number)
        accelerate = bool(bonus)
        number = rc_medpac_number(scale, base, earlier_today=earlier, accelerate_healing=accelerate)
        more = f", {earlier} earlier today" if earlier else ""
        return None, number, f"difficulty {number} (the GM's {base}{more})", bonus
    difficulty = medpac_difficulty(
        level,
        ruleset=ruleset,
        earlier_uses=earlier,
        pack_uses=1 if pack_used_before else 0,
        fastflesh=fastflesh,
        critical_shift=critical_shift,
    )
    parts = [f"{earlier} earlier today"] if earlier else []
    if pack_used_before:
        parts.append("this pack used before")
    if fastflesh:
        parts.append("fastflesh")
    if critical_shift:
        parts.append(f"critical injury +{critical_shift}")
    more = f" ({', '.join(parts)})" if parts else ""
    return difficulty, None, f"{difficulty}{more}", bonus


def medpac_plan(
    patient: Character,
    aider: Character,
    campaign: Campaign,
    *,
    fastflesh: bool = False,
    pack_used_before: bool = False,
    rc_number: int | None = None,
) -> MedpacPlan:
    """The medpac roll ``aider`` would make on ``patient`` today, with its exact chance (the
    roll panel's odds: a random difficulty's dice are summed over). Never raises: a problem is
    in ``problem``."""
    ruleset = campaign.ruleset
    skill, code = _first_aid(aider)
    course = HealingCourse.objects.filter(character=patient).first()
    state = HealingState()
    if course is not None:
        try:
            state = HealingState.from_json(course.state)
        except RulesError:
            state = HealingState()
    shift = _critical_shift(patient, ruleset, method="medpac")
    try:
        level = fit_wound_level(patient.wound_level, ruleset=ruleset)
        if level not in HEALING_LEVELS:
            raise HealingError(f"{patient.name} is not wounded")
        difficulty, number, text, bonus = _medpac_difficulty(
            level,
            state,
            campaign.game_day,
            ruleset=ruleset,
            fastflesh=fastflesh,
            pack_used_before=pack_used_before,
            rc_number=rc_number,
            critical_shift=shift,
        )
        own = code.minus_dice(1) if aider.pk == patient.pk else code
        now = condition(aider, ruleset=ruleset)
        if now.cannot_act:  # the roll would be refused: no odds beside his name
            raise HealingError(f"{now.cannot_act}: cannot act")
        pool = rollable_pool(own, penalty_dice=now.penalty_dice, ruleset=ruleset)
    except (RulesError, HealingError) as exc:
        return MedpacPlan(aider, skill, code, None, "", None, None, 0, None, str(exc))
    if number is not None:
        chance = success_chance(pool, number, ruleset=ruleset, modifier=bonus)
    else:
        low, _ = random_dice(difficulty)
        chance = sum(
            p * success_chance(pool, target, ruleset=ruleset, modifier=bonus)
            for target, p in kd6_distribution(low).items()
        )
        text += f", rolled on {low}D"
    return MedpacPlan(aider, skill, code, pool, text, number, difficulty, bonus, chance)


@dataclass(frozen=True)
class MedpacOutcome:
    success: bool
    before: WoundLevel
    after: WoundLevel
    words: list[str]
    roll: DiceRoll
    event: HealingEvent


def _lock_pair(campaign_id: int, patient_id: int, aider_id: int):
    """Both characters, row-locked in primary-key order (no deadlock between two requests that
    swap the roles)."""
    rows = {
        c.pk: c
        for c in Character.objects.select_for_update()
        .filter(campaign_id=campaign_id, pk__in={patient_id, aider_id})
        .order_by("pk")
    }
    return rows.get(patient_id), rows.get(aider_id)


def use_medpac(
    campaign_id: int,
    patient_id: int,
    *,
    actor,
    aider_id: int,
    fastflesh: bool = False,
    pack_used_before: bool = False,
    rc_number: int | None = None,
    rng: DiceSource | None = None,
) -> MedpacOutcome:
    """``aider`` uses a medpac on ``patient`` on the campaign's current date (§6): his first
    aid (Technical without the skill; -1D on himself) against the engine's difficulty for the
    campaign's ``medpac_rules``, the patient's level and the medpacs already used on him today;
    the roll goes through :func:`characters.services.roll_and_record` (the dice log). Success
    heals what :func:`rules.injuries.medpac_success_level` says and restarts the healing period
    when the level changes; a miss by more than 10 locks medpacs out for 24 hours; a failure
    changes nothing else (IH-17). A "Medpac" (or "Fastflesh") item in the first-aider's gear
    loses one; without one nothing is taken off (the sheet keeps no required inventory).
    Any character the actor sees may be treated (a companion too), by a first-aider of the
    actor's own (any, for a GM). Refused with :class:`HealingError`, nothing changed: a
    first-aider who is not the actor's (unless he is a GM), a secret NPC, a droid, a patient
    with nothing a medpac heals, one in a bacta tank or whose death awaits the GM, a lock-out,
    a first-aider who cannot act."""
    if rc_number is not None and (isinstance(rc_number, bool) or not 1 <= rc_number <= 40):
        raise HealingError("The difficulty number is a whole number from 1 to 40.")
    try:
        with transaction.atomic():
            membership = _membership(campaign_id, actor)
            campaign = (
                Campaign.objects.select_for_update(no_key=True).filter(pk=campaign_id).first()
            )
            patient, aider = _lock_pair(campaign_id, patient_id, aider_id)
            if membership is None or campaign is None or patient is None:
                raise HealingError("No such character in this campaign.")
            if aider is None:
                raise HealingError("No such first-aider in this campaign.")
            if not membership.is_gm and patient.is_npc and patient.secret:
                raise HealingError("No such character in this campaign.")
            if not membership.is_gm and aider.owner_id != actor.pk:
                raise HealingError(
                    f"{aider.name} is not your character: a player treats a companion with one "
                    "of his own characters."
                )
            ruleset = campaign.ruleset
            if rc_number is not None and not membership.is_gm:
                raise HealingError("Only the GM places the difficulty number in its scale.")
            level, course = _treatable(patient, campaign, "a medpac", "is")
            today = campaign.game_day
            minute = _day_minute(today)
            state = HealingState.from_json(course.state)
            if medpac_locked_out(state, minute, fastflesh=fastflesh, ruleset=ruleset):
                free = (state.medpac_lockout_until or 0) // MINUTES_PER_DAY
                raise HealingError(
                    f"No more medpacs on {patient.name} until day {free}: the last one missed "
                    "by more than 10 (24 hours)."
                    + (
                        " A fastflesh pack may still be used."
                        if ruleset.medpac_rules == "house"
                        else ""
                    )
                )
            shift = _critical_shift(patient, ruleset, method="medpac")
            difficulty, number, text, bonus = _medpac_difficulty(
                level,
                state,
                today,
                ruleset=ruleset,
                fastflesh=fastflesh,
                pack_used_before=pack_used_before,
                rc_number=rc_number,
                critical_shift=shift,
            )
            if ruleset.medpac_rules == "rc":
                state = replace(state, rc_medpac_number=rc_medpac_base(level, state, rc_number))
            n = _next_n(patient, HealingEvent.Kind.MEDPAC, today)
            dice = rng or healing_dice(course.seed, f"medpac:{today}:{n}")
            difficulty_dice: list[int] = []
            if number is None:
                rolled_difficulty = random_difficulty(difficulty, ruleset=ruleset, rng=dice)
                number = rolled_difficulty.number
                difficulty_dice = list(rolled_difficulty.dice)
            skill, code = _first_aid(aider)
            own = aider.pk == patient.pk
            if own:
                code = code.minus_dice(1)
            label = f"Medpac on {patient.name}: {skill}" + (" (on himself, -1D)" if own else "")
            try:
                record = roll_and_record(
                    aider,
                    actor,
                    code,
                    label=label[:120],
                    ruleset=ruleset,
                    attribute="technical",
                    modifier=bonus,
                    difficulty=number,
                    rng=dice,
                    details={
                        "medpac": {
                            "patient": patient.pk,
                            "difficulty": text,
                            "difficulty_dice": difficulty_dice,
                            "fastflesh": fastflesh,
                        }
                    },
                    hidden=any(c.is_npc and c.secret for c in (patient, aider)),
                    spent_on="medpac",
                )
            except ValueError as exc:
                raise HealingError(f"{aider.name} cannot use the medpac: {exc}.") from None
            success = record.total >= number
            state = record_medpac(
                state,
                minute,
                total=record.total,
                difficulty_number=number,
                fastflesh=fastflesh,
                ruleset=ruleset,
            )
            words = [
                f"{aider.name}'s {skill} {record.pool}"
                + (f" +{bonus} Accelerate Healing" if bonus else "")
                + f": {record.total} against {text}: {number}"
            ]
            after = level
            if success:
                after = medpac_success_level(level, ruleset=ruleset, fastflesh=fastflesh)
                treated = _treat_criticals(patient, today, method="medpac")
                if after is not level:
                    patient.set_wound_state(replace(patient.wound_state, level=after))
                    patient.save(
                        update_fields=["wound_level", "stun_state", "criticals", "updated_at"]
                    )
                    course.level = after.value
                    state = replace(state.restart_period(today), rc_medpac_number=None)
                    words.append("healed" if after is W.none else f"now {_label(after)}")
                else:
                    if treated:
                        patient.save(update_fields=["criticals", "updated_at"])
                    words.append(
                        "success: he wakes but stays at his level (a plain House medpac)"
                        if level is W.incapacitated
                        else "success: held for 30 minutes, still mortally wounded (House)"
                        if level is W.mortally_wounded
                        else "success"
                    )
                words.extend(treated)
            else:
                words.append("failed: nothing changes")
                if state.medpac_lockout_until is not None and medpac_locks_out(
                    record.total, number, ruleset=ruleset
                ):
                    words.append("missed by more than 10: no more medpacs on him for 24 hours")
            words.append(_take_medpac(aider, fastflesh=fastflesh, reuse=pack_used_before))
            course.state = state.to_json()
            course.save()
            event = HealingEvent.objects.create(
                character=patient,
                kind=HealingEvent.Kind.MEDPAC,
                day=today,
                n=n,
                level_before=level.value,
                level_after=after.value,
                total=record.total,
                dice={
                    "first_aid": {k: v for k, v in record.dice.items() if k != "medpac"},
                    "difficulty": number,
                    "difficulty_dice": difficulty_dice,
                },
                words="; ".join(words)[:300],
            )
            live.bump(campaign_id, public=_public(patient))
            return MedpacOutcome(success, level, after, words, record, event)
    except RulesError as exc:
        raise HealingError(str(exc)) from None
    except IntegrityError:
        raise HealingError(
            "Someone else changed this character's healing meanwhile: try again."
        ) from None


def _take_medpac(aider: Character, *, fastflesh: bool, reuse: bool) -> str:
    """One pack off the first-aider's gear, if he carries one (a reused House pack is the one
    already opened: nothing more is taken)."""
    if reuse:
        return "the same pack's second use"
    items = Item.objects.select_for_update().filter(character=aider, kind=Item.Kind.GEAR)
    if fastflesh:
        items = items.filter(name__icontains="fastflesh")
    else:
        items = items.filter(name__icontains="medpac").exclude(name__icontains="fastflesh")
    item = items.filter(quantity__gt=0).order_by("pk").first()
    kind = "fastflesh medpac" if fastflesh else "medpac"
    if item is None:
        return f"no {kind} in {aider.name}'s gear: none taken off"
    item.quantity -= 1
    item.save(update_fields=["quantity"])
    return f"one {kind} used from {aider.name}'s gear ({item.quantity} left)"


def set_activity(campaign_id: int, character_id: int, *, actor, activity: str) -> HealingCourse:
    """His activity from today on (H-57): rest, easy or active, set by his player or a GM. The
    job reads each day's own activity from the dated log: an active day spoils the period
    (-1D), taking it easy doubles the interval and gives +1D (IH-17)."""
    if activity not in ACTIVITIES:
        raise HealingError("Activity: rest, easy or active.")
    try:
        with transaction.atomic():
            campaign, character = _controlled(character_id, campaign_id, actor)
            if character.is_droid:
                raise HealingError(f"{character.name} is a droid: droids are repaired, not healed.")
            course = _course_for_request(character, campaign)
            today = campaign.game_day
            state = HealingState.from_json(course.state)
            before = state.activity_on(today)
            state = state.with_activity(today, activity, keep_from=course.processed_through_day + 1)
            course.state = state.to_json()
            level = W(character.wound_level)
            words = f"activity from day {today}: {activity} (was {before})"
            return _noted(character, course, HealingEvent.Kind.ACTIVITY, today, level, level, words)
    except RulesError as exc:
        raise HealingError(str(exc)) from None


def mark_accelerate(campaign_id: int, character_id: int, *, actor) -> HealingCourse:
    """[RC] The GM marks that Accelerate Healing succeeded on him today (H-59): on a day a
    natural roll is due the job makes two at +2 each; his first two medpacs today get +2 and
    the second is not raised (H-51)."""
    with transaction.atomic():
        campaign, character = _controlled(character_id, campaign_id, actor, gm_only=True)
        ruleset = campaign.ruleset
        if not accelerate_healing_applies(ruleset=ruleset):
            raise HealingError(
                "Accelerate Healing's two rolls at +2 are the Rules Companion's: this campaign "
                "does not use its healing rules."
            )
        if character.is_droid:
            raise HealingError(f"{character.name} is a droid: droids are repaired, not healed.")
        level = _safe_level(character.wound_level, ruleset)
        if level not in HEALING_LEVELS:
            raise HealingError(f"{character.name} has nothing to heal.")
        course = _course_for_request(character, campaign)
        today = campaign.game_day
        state = HealingState.from_json(course.state)
        if today in state.accelerate_days:
            raise HealingError(f"Accelerate Healing is already marked on {character.name} today.")
        state = state.with_accelerate(today, keep_from=course.processed_through_day + 1)
        course.state = state.to_json()
        words = "Accelerate Healing succeeded (marked by the GM): two rolls at +2 today"
        return _noted(character, course, HealingEvent.Kind.ACCELERATE, today, level, level, words)


# ---------------------------------------------------------------------------------------------
# [HOUSE] critical injuries carried on the sheet (§5)
# ---------------------------------------------------------------------------------------------
def _open_criticals(character: Character) -> list[dict[str, Any]]:
    """His criticals that still matter: not healed (permanent ones stay on the sheet but no
    roll heals them)."""
    found = character.criticals if isinstance(character.criticals, list) else []
    return [
        c
        for c in found
        if isinstance(c, dict) and c.get("healed_day") is None and not c.get("permanent")
    ]


def _table(c: dict[str, Any]) -> WoundLevel | None:
    try:
        return W(c.get("table"))
    except ValueError:
        return None


def _critical_shift(character: Character, ruleset: RuleSet, *, method: str) -> int:
    """Difficulty levels his open criticals add to a ``medpac`` or ``bacta`` roll (§5.2, H-43):
    the largest shift among those that roll heals (a medpac: wounded-table ones)."""
    if ruleset.critical_injuries != "house":
        return 0
    shifts = [
        critical_heal_shift(table)
        for c in _open_criticals(character)
        if (table := _table(c)) is not None and critical_healed_by(table, method)
    ]
    return max(shifts, default=0)


def _treat_criticals(character: Character, day: int, *, method: str) -> list[str]:
    """A successful medpac or bacta roll on him (IH-21): the criticals it heals are healed
    (``healed_day``); every other open one with a deadline counts as treated (``treated_day``:
    its deadline no longer runs). Returns the words; the caller saves ``criticals``."""
    words = []
    for c in _open_criticals(character):
        table = _table(c)
        if table is None:
            continue
        if critical_healed_by(table, method):
            c["healed_day"] = day
            words.append(f"{c.get('name')} healed")
        elif c.get("deadline_day") is not None and c.get("treated_day") is None:
            c["treated_day"] = day
            words.append(f"{c.get('name')} treated in time")
    return words


def carry_criticals(character: Character, taken: list[dict[str, Any]], *, day: int) -> int:
    """[HOUSE] The criticals he takes out of a fight ending on ``day`` (the encounter's
    ``CriticalTaken.to_json()`` values) go on his sheet: stunned-table ones have worn off; the
    deadline's days were rolled in the fight (seeded, in its events). The caller holds his row
    and saves ``criticals``. Returns how many were added."""
    added = 0
    current = list(character.criticals) if isinstance(character.criticals, list) else []
    for k in taken:
        table = _table(k)
        if table is None or table is W.stunned:
            continue
        name = str(k.get("name", ""))
        deadline_days = k.get("deadline_days")
        try:
            injury = CriticalInjury.from_json({"table": table.value, "name": name})
        except RulesError:
            continue
        words = injury.effect
        if k.get("attribute"):
            words = f"{k['attribute']} -1D" + (
                " for good" if name == "Gruesome Injury" else " until healed"
            )
        current.append(
            {
                "table": table.value,
                "roll": k.get("roll"),
                "name": name,
                "words": words,
                "from_day": day,
                "deadline_day": carried_deadline_day(name, day, deadline_days),
                "permanent": name in PERMANENT_AT_ONCE,
                "healed_day": None,
                "treated_day": None,
            }
        )
        added += 1
    character.criticals = current
    return added


def _critical_deadlines(
    character: Character, course: HealingCourse, day: int, ruleset: RuleSet
) -> list[dict[str, Any]]:
    """Ended day ``day``: each open critical whose deadline has come untreated becomes
    permanent, or (internal bleeding) kills him: flagged for the GM with ``flag_for_gm``."""
    lines: list[dict[str, Any]] = []
    changed = False
    for c in _open_criticals(character):
        deadline = c.get("deadline_day")
        if not isinstance(deadline, int) or c.get("treated_day") is not None:
            continue
        if not critical_deadline_passed(deadline, day + 1):
            continue
        changed = True
        c["permanent"] = True
        level = W(character.wound_level)
        name = c.get("name", "")
        if critical_lapse(name) == "death":
            words = [f"{name} untreated since day {c.get('from_day')}: death"]
            after = _settle(character, course, level, W.killed, day, ruleset, words)
        else:
            words = [f"{name} untreated before day {deadline}: permanent"]
            after = level
        lines.append(
            _event(
                character,
                HealingEvent.Kind.CRITICAL,
                day,
                level,
                after,
                None,
                {},
                words,
                n=_next_n(character, HealingEvent.Kind.CRITICAL, day),
            )
        )
    if changed:
        character.save(update_fields=["criticals", "updated_at"])
    return lines


def critical_lines(character: Character, today: int) -> list[str]:
    """The sheet's words for his criticals: "Blinded — treat before day 7 or it is
    permanent"."""
    out = []
    found = character.criticals if isinstance(character.criticals, list) else []
    for c in found:
        if not isinstance(c, dict):
            continue
        name, words = c.get("name", "?"), c.get("words", "")
        if c.get("healed_day") is not None:
            continue
        text = f"{name}: {words}" if words else str(name)
        deadline = c.get("deadline_day")
        if c.get("permanent"):
            text += " (permanent)"
        elif deadline is not None and c.get("treated_day") is None:
            lapse = "he dies" if critical_lapse(str(name)) == "death" else "it is permanent"
            text += f" — treat before day {deadline} or {lapse}"
        out.append(text)
    return out


# ---------------------------------------------------------------------------------------------
# What the sheet shows
# ---------------------------------------------------------------------------------------------
class HealingStatus:
    """The healing part of the sheet: one sentence, and the events so far."""

    def __init__(self, character: Character, course: HealingCourse | None, today: int, ruleset):
        self.character = character
        self.course = course
        self.today = today
        self.ruleset = ruleset
        self.level = _safe_level(character.wound_level, ruleset)
        self.cp_allowed = ruleset.advancement_table != "rc_skill_points"
        state = None
        if course is not None:
            try:
                state = HealingState.from_json(course.state)
            except RulesError:
                state = None
        self.cp_per_roll = state.cp_per_roll if state else 0
        self.in_bacta = course is not None and course.bacta_until is not None
        self.death_pending = course is not None and course.death_pending
        self.heals = not character.is_droid and self.level in HEALING_LEVELS
        self.activity = state.activity_on(today) if state else "rest"
        self.activity_label = ACTIVITIES[self.activity]
        self.spoiled = bool(state and state.period_was_active) or self.activity == "active"
        self.accelerate_today = bool(state and today in state.accelerate_days)
        self.accelerate_allowed = accelerate_healing_applies(ruleset=ruleset)
        self.locked_until_day = None
        if state and medpac_locked_out(state, _day_minute(today), ruleset=ruleset):
            self.locked_until_day = (state.medpac_lockout_until or 0) // MINUTES_PER_DAY
        self.next_roll_day = None
        if self.heals and not self.in_bacta and not self.death_pending:
            start = today
            if course is not None and course.level == character.wound_level and state:
                start = state.period_start_day
            easy = self.activity == "easy" and not self.spoiled
            try:
                interval = natural_healing_interval(self.level, ruleset=ruleset, easy=easy)
            except RulesError:
                interval = None
            if interval is not None:
                self.next_roll_day = start + interval

    @property
    def sentence(self) -> str:
        if self.in_bacta:
            return f"In a bacta tank until day {self.course.bacta_until}."
        if self.death_pending:
            return "A healing roll said death: nothing is rolled until the GM decides."
        if self.next_roll_day is not None:
            how = {"rest": "Resting", "easy": "Taking it easy", "active": "Active"}[self.activity]
            dice = " at +1D" if how == "Taking it easy" and not self.spoiled else ""
            dice = " at -1D (an active day spoiled the period)" if self.spoiled else dice
            return f"{how}: next healing roll on day {self.next_roll_day}{dice}."
        return ""


def _safe_level(value: str, ruleset: RuleSet) -> WoundLevel | None:
    try:
        return fit_wound_level(value, ruleset=ruleset)
    except RulesError:
        return None


def healing_status(character: Character, campaign: Campaign) -> HealingStatus:
    course = HealingCourse.objects.filter(character=character).first()
    return HealingStatus(character, course, campaign.game_day, campaign.ruleset)
