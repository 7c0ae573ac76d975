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

* Every wounded character rests (there is no activity log yet): no -1D or +1D periods.
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
from dataclasses import replace
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Q

from campaigns.models import Campaign, Membership
from characters import live
from characters.healing_models import HealingCourse, HealingEvent
from characters.models import Character, Currency
from characters.services import change_balance, fit_wound_level
from rules import DieCode, RulesError, RuleSet, SeededDice, roll
from rules.dice import DiceSource
from rules.difficulty import random_difficulty
from rules.injuries import (
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

__all__ = [
    "HealingError",
    "HealingStatus",
    "decide_death",
    "heal_due",
    "healing_dice",
    "healing_status",
    "set_cp_per_roll",
    "start_bacta",
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
    up to ``day - 1`` not yet processed, for each wounded character, each in its own
    transaction. Returns one JSON-safe report line per roll (who, what, dice, outcome)."""
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
    lines: list[dict[str, Any]] = []
    for pk in pks:
        with transaction.atomic():
            character = Character.objects.select_for_update().filter(pk=pk).first()
            if character is None:  # deleted meanwhile
                continue
            course = _locked_course(character, ended, seed=seed)
            if course.processed_through_day >= ended:  # done meanwhile (a retry, a worker)
                continue
            done = []
            for today in range(course.processed_through_day + 1, ended + 1):
                done.extend(_one_day(character, course, today, ruleset, rng_for))
            course.processed_through_day = ended
            course.save()
            if done:
                live.bump(character.campaign_id, public=_public(character))
            lines.extend(done)
    return lines


def _locked_course(character: Character, ended: int, *, seed: int) -> HealingCourse:
    """His course, locked; opened (or restarted) when his sheet's level is not the one the
    course follows: the period starts on ``ended``, the date the change was made on."""
    course = HealingCourse.objects.select_for_update().filter(character=character).first()
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
    if course.bacta_until is not None:
        if day >= course.bacta_until:
            return [_finish_bacta(character, course, day, ruleset, rng_for)]
        return []
    if course.death_pending:
        return []
    level = fit_wound_level(character.wound_level, ruleset=ruleset)
    if level not in HEALING_LEVELS:
        return []
    state = HealingState.from_json(course.state).note_activity(day, "rest")
    due = natural_roll_due(state, level, day, "rest", strength=character.strength, ruleset=ruleset)
    course.state = state.to_json()
    if due is None:
        return []
    cp = healing_cp_dice(state.cp_per_roll, character.character_points, ruleset=ruleset)
    rolled = roll(
        due.pool, ruleset=ruleset, rng=rng_for(course.seed, f"natural:{day}:1"), cp_dice=cp
    )
    new = natural_healing_result(level, rolled.total, ruleset=ruleset)
    words = [f"Strength {due.pool}" + (f" + {cp} CP" if cp else "") + f": {rolled.total}"]
    if cp:
        change_balance(character.pk, Currency.CP, -cp, f"CP on a natural-healing roll, day {day}")
        character.character_points -= cp
    after = _settle(character, course, level, new, day, ruleset, words)
    course.state = HealingState.from_json(course.state).restart_period(day).to_json()
    return [
        _event(
            character,
            HealingEvent.Kind.NATURAL,
            day,
            level,
            after,
            rolled.total,
            {"strength": rolled.to_json()},
            words,
        )
    ]


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
    character.save(update_fields=["wound_level", "stun_state", "updated_at"])
    course.level = new.value
    words.append("healed" if new is W.none else f"now {_label(new)}")
    return new


def _finish_bacta(
    character: Character, course: HealingCourse, day: int, ruleset: RuleSet, rng_for: RngFor
) -> dict[str, Any]:
    """The treatment ends on ``day``: its roll against a difficulty of the engine's level."""
    level = fit_wound_level(character.wound_level, ruleset=ruleset)
    rng = rng_for(course.seed, f"bacta:{day}:1")
    difficulty = bacta_difficulty(medicine=course.bacta_medicine)
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
) -> dict[str, Any]:
    """Store the event under its unique key (a duplicate aborts the day: IntegrityError) and
    return its report line."""
    text = "; ".join(words)
    HealingEvent.objects.create(
        character=character,
        kind=kind,
        day=day,
        n=1,
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
            if character.is_droid:
                raise HealingError(f"{character.name} is a droid: droids are repaired, not healed.")
            level = fit_wound_level(character.wound_level, ruleset=ruleset)
            if level not in HEALING_LEVELS:
                raise HealingError(
                    f"{character.name} is {_label(level).lower()}: "
                    "a bacta tank has nothing to heal."
                )
            course = _course_for_request(character, campaign)
            if course.bacta_until is not None:
                raise HealingError(
                    f"{character.name} is already in a bacta tank until day {course.bacta_until}."
                )
            if course.death_pending:
                raise HealingError(f"{character.name}'s death awaits the GM's decision.")
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
        course.save()
        HealingEvent.objects.create(
            character=character,
            kind=HealingEvent.Kind.GM,
            day=today,
            n=_next_n(character, HealingEvent.Kind.GM, today),
            level_before=level.value,
            level_after=after.value,
            words="the GM confirmed the death" if confirm else "the GM kept him alive",
        )
        live.bump(campaign_id, public=_public(character))
        return course


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
        self.next_roll_day = None
        if self.heals and not self.in_bacta and not self.death_pending:
            start = today
            if course is not None and course.level == character.wound_level and state:
                start = state.period_start_day
            try:
                self.next_roll_day = start + natural_healing_interval(self.level, ruleset=ruleset)
            except RulesError:
                self.next_roll_day = None

    @property
    def sentence(self) -> str:
        if self.in_bacta:
            return f"In a bacta tank until day {self.course.bacta_until}."
        if self.death_pending:
            return "A healing roll said death: nothing is rolled until the GM decides."
        if self.next_roll_day is not None:
            return f"Resting: next healing roll on day {self.next_roll_day}."
        return ""


def _safe_level(value: str, ruleset: RuleSet) -> WoundLevel | None:
    try:
        return fit_wound_level(value, ruleset=ruleset)
    except RulesError:
        return None


def healing_status(character: Character, campaign: Campaign) -> HealingStatus:
    course = HealingCourse.objects.filter(character=character).first()
    return HealingStatus(character, course, campaign.game_day, campaign.ruleset)
