"""A vehicle's or starship's long run at speed [UPG] (vehicles-and-starships.md §4.3,
movement.md): at all-out it rolls its body strength (hull) every 10 minutes, at high speed
every hour; the first roll is Very Easy and each further one a level harder. The first miss
ends the run: by 1-10 the craft must rest twice as long as it ran; by 11 or more it suffers a
mechanical failure (a Moderate repair roll and at least an hour of work), which goes onto its
damage for the GM to clear when it is fixed (V25).

The GM runs it from the travel page; the craft's own body rolls are stored in the dice log as
rolls of no character, the GM as their actor."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters import live
from characters.craft_damage import default_difficulty_number
from characters.craft_models import Craft
from characters.models import DiceRoll
from rules import RulesError, RuleSet
from rules.craft import CraftState, effective_code
from rules.dice import DiceSource, SystemDice, roll
from rules.movement import fatigue_failure, fatigue_interval_minutes, fatigue_rolls

__all__ = ["LongRun", "LongRunRefused", "craft_long_run", "long_run"]

MAX_MINUTES = 24 * 60
MECHANICAL_FAILURE = (
    "mechanical failure after a long run: a Moderate repair roll and at least an hour of work"
)


class LongRunRefused(ValueError):
    """A long run that cannot be rolled; the message says why."""


@dataclass(frozen=True)
class BodyRoll:
    number: int
    level: str
    difficulty: int
    total: int
    made: bool


@dataclass(frozen=True)
class LongRun:
    speed: str
    minutes: int
    rolls: tuple[BodyRoll, ...]
    text: str
    mechanical_failure: bool = False
    rest_minutes: int | None = None


def long_run(
    craft: Craft,
    actor,
    *,
    speed: str,
    minutes: int,
    ruleset: RuleSet,
    rng: DiceSource | None = None,
) -> LongRun:
    """Roll the body strength checks a run of ``minutes`` at ``speed`` calls for, in order,
    until one fails; store each roll, and a mechanical failure on the craft, in one
    transaction (the craft's row locked). LongRunRefused for what cannot be run."""
    if speed not in ("high", "all_out"):
        raise LongRunRefused("only high speed and all-out wear a craft out; choose one of them")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
        raise LongRunRefused(f"give the minutes run, 1 to {MAX_MINUTES}")
    stats = craft.stat_block
    if stats.kind == "capital":
        raise LongRunRefused("capital ships do not make body strength rolls for speed")
    if stats.hull is None:
        raise LongRunRefused(f"{craft.name}'s stat block has no body strength or hull to roll")
    mover = "vehicle" if stats.kind == "vehicle" else "starship"
    try:
        levels = fatigue_rolls(speed, minutes, ruleset=ruleset, mover=mover)
        interval = fatigue_interval_minutes(speed, ruleset=ruleset, mover=mover) or 0
    except RulesError as exc:
        raise LongRunRefused(str(exc)) from None
    said = speed.replace("_", "-")
    if not levels:
        return LongRun(
            speed, minutes, (), f"No roll yet: at {said} it rolls every {interval} minutes."
        )
    dice = rng or SystemDice()
    with transaction.atomic():
        locked = Craft.objects.select_for_update().get(pk=craft.pk)
        try:
            state = CraftState.from_json(locked.damage) if locked.damage else CraftState()
        except RulesError:
            state = CraftState()
        if state.destroyed:
            raise LongRunRefused(f"{craft.name} is destroyed")
        code = effective_code(stats.hull, "hull", state, ruleset=ruleset)
        done: list[BodyRoll] = []
        text = f"{craft.name} ran {minutes} minutes at {said}: every body strength roll made."
        failure = None
        for number, level in enumerate(levels, 1):
            difficulty = default_difficulty_number(str(level), ruleset=ruleset)
            result = roll(code, ruleset=ruleset, rng=dice)
            made = result.total >= difficulty
            done.append(BodyRoll(number, str(level), difficulty, result.total, made))
            DiceRoll.objects.create(
                campaign_id=locked.campaign_id,
                character=None,
                actor=actor,
                label=f"{locked.name}: body strength after {number * interval} minutes at {said}",
                code=str(code),
                pool=str(result.pool),
                dice={**result.to_json(), "craft": locked.pk, "long_run": number},
                total=result.total,
                difficulty=difficulty,
            )
            if made:
                continue
            ran = number * interval
            failure = fatigue_failure(
                difficulty - result.total, ran, speed, ruleset=ruleset, mover=mover
            )
            if failure.mechanical_failure:
                text = (
                    f"{craft.name} failed roll {number} ({level}) by {difficulty - result.total} "
                    f"after {ran} minutes: mechanical failure. A Moderate repair roll and at "
                    "least an hour of work fix it."
                )
                state = dataclasses.replace(state, events=(*state.events, MECHANICAL_FAILURE))
                locked.damage = state.to_json()
                locked.save(update_fields=["damage"])
            else:
                rest = failure.rest_minutes
                rest_said = f"rest {rest} minutes" if rest is not None else "rest as the GM says"
                text = (
                    f"{craft.name} failed roll {number} ({level}) by {difficulty - result.total} "
                    f"after {ran} minutes: strained; it must {rest_said} before running again."
                )
            break
        live.bump(locked.campaign_id, public=True)
    return LongRun(
        speed,
        minutes,
        tuple(done),
        text,
        mechanical_failure=bool(failure and failure.mechanical_failure),
        rest_minutes=failure.rest_minutes if failure else None,
    )


@login_required
@require_POST
def craft_long_run(request, campaign_id, craft_id):
    """The GM's long run, from the travel page: the result shown in place (HTMX) or after a
    redirect; a refusal with its reason and nothing stored."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    craft = Craft.objects.filter(campaign=membership.campaign, pk=craft_id).first()
    if craft is None:
        raise Http404("No such craft")
    speed = request.POST.get("speed", "")
    raw = request.POST.get("minutes", "").strip()
    status = 200
    try:
        if not raw.isdecimal() or len(raw) > 6:
            raise LongRunRefused("give the minutes run as a whole number")
        result = long_run(
            craft, request.user, speed=speed, minutes=int(raw), ruleset=membership.campaign.ruleset
        )
        message, error = result.text, False
    except LongRunRefused as exc:
        message, error, status = str(exc)[:300], True, 400
    if request.htmx:
        context = {"campaign": membership.campaign, "craft": craft, "message": message}
        context["error"] = error
        return render(
            request, "characters/craft_travel.html#long-run-result", context, status=status
        )
    (messages.error if error else messages.success)(request, message)
    return redirect("characters:craft_travel", campaign_id, craft.pk)
