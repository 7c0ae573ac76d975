"""Advancement between adventures: pricing an improvement, asking for it, the GM's decision,
training that completes as the campaign's calendar passes its due day, the skills used in an
adventure, and the CP awards at an adventure's end.

Every rule comes from the engine (:mod:`rules.advancement`, :mod:`rules.force`,
:mod:`rules.reference`): the cost and training time are :func:`rules.advancement.improvement_cost`
for the campaign's ruleset, the one-pip limit is :func:`check_one_pip_per_adventure`, the
species' maximum Move is checked by ``improvement_cost`` and the attribute roll is made by
:func:`rules.advancement.train`. This module stores what the engine decides, holds and returns
the Character Points through the ledger (:func:`characters.services.change_balance`, in the
same transaction as the status change) and writes the result on the sheet.

Life of a request (:class:`characters.models.Advancement`):

* ``awaiting``: asked for, the CP held; waits for the GM when the campaign asks for approval, or
  when the GM must give something the rules leave to him (the species maximum of a species the
  reference table has no figures for, a training time the ruleset does not state);
* ``training``: from ``start_day`` to ``due_day`` (game days);
* ``done``; ``failed`` (the [UPG] attribute roll failed: half the CP came back; or the skill was
  removed from the sheet before the training ended: all of it came back); ``refused`` (by the
  GM, the CP back); ``withdrawn`` (by the player before training started, the CP back).

"The last adventure" is the campaign's latest adventure that has ended: a skill used in it
needs no training, and the one-pip limit counts the improvements asked for since it ended.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from campaigns.models import Adventure, Campaign, Membership
from characters import live
from characters.models import (
    Advancement,
    Character,
    Currency,
    ForcePower,
    Skill,
    TraitUse,
)
from characters.month_end import posts_at_month_end
from characters.schools import earn_cp
from characters.services import LedgerError, change_balance, lift_skills_with_attributes
from rules import DieCode, FixedDice, RulesError, RuleSet, SeededDice, SystemDice, roll
from rules.advancement import (
    KINDS,
    AdvancementError,
    ImprovementCost,
    Training,
    check_one_pip_per_adventure,
    cp_slot_cap,
    improvement_cost,
    start_training,
    train,
)
from rules.dice import DiceSource
from rules.droids import (
    FORCE_IMPROVEMENTS,
    droid_improvement_credits,
    droid_new_skill_improvement,
)
from rules.force import FORCE_SKILLS, check_power_room, force_power, force_sensitivity
from rules.reference import ReferenceDataError, species_by_name
from rules.reference import skill as reference_skill
from rules.traits import ATTRIBUTES, attribute_key

__all__ = [
    "Award",
    "InsufficientPoints",
    "NotAllowed",
    "Quote",
    "approve",
    "award_all",
    "complete_due",
    "last_adventure",
    "quote",
    "record_use",
    "refuse",
    "request_advancement",
    "seeded_dice",
    "set_trait_use",
    "withdraw",
]

Status = Advancement.Status
NAME_LENGTH = Advancement._meta.get_field("target").max_length
REASON_LENGTH = Advancement._meta.get_field("reason").max_length
MAX_EXTRA_CP = 1_000
MAX_GM_DAYS = 3_650
MAX_AWARD = 10_000

# Improvements of a skill already on the sheet, and the kind of Skill row each one improves.
_ON_SHEET = {
    "skill": Skill.Kind.SKILL,
    "specialization": Skill.Kind.SPECIALIZATION,
    "advanced": Skill.Kind.ADVANCED,
    "advanced_specialization": Skill.Kind.SPECIALIZATION,
    "force_skill": Skill.Kind.FORCE,
}
_NEW_SKILL = {
    "new_skill": Skill.Kind.SKILL,
    "new_specialization": Skill.Kind.SPECIALIZATION,
    "new_advanced": Skill.Kind.ADVANCED,
    "new_advanced_specialization": Skill.Kind.SPECIALIZATION,
    "new_force_skill": Skill.Kind.FORCE,
}
_LABELS = {
    "skill": "a skill",
    "specialization": "a specialization",
    "advanced": "an advanced skill",
    "advanced_specialization": "an advanced specialization",
    "force_skill": "a Force skill",
}
_OPEN = (Status.AWAITING, Status.TRAINING)
_COUNTED = (Status.AWAITING, Status.TRAINING, Status.DONE, Status.FAILED)
_ONE_PIP = DieCode(0, 1)


class NotAllowed(AdvancementError):
    """The actor may not do this: a player acting on another's character, or doing the GM's
    part. Nothing was changed."""


class InsufficientPoints(AdvancementError):
    """The ledger refused: the character does not hold the Character Points. Nothing was
    changed."""


# ---------------------------------------------------------------------------------------------
# Checking what people type, and who they are
# ---------------------------------------------------------------------------------------------
def _clean_text(value: object, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise AdvancementError(f"name {what}")
    text = value.strip()
    if not text:
        raise AdvancementError(f"name {what}")
    if "\x00" in text:
        raise AdvancementError(f"{what} cannot contain NUL characters")
    if len(text) > limit:
        raise AdvancementError(f"{what} is too long: at most {limit} characters")
    return text


def _clean_name(value: object, what: str = "the skill") -> str:
    return _clean_text(value, what, NAME_LENGTH)


def _whole(value: object, what: str, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
        raise AdvancementError(f"{what} must be a whole number from 0 to {maximum}")
    return value


def _membership(campaign_id: int, actor: Any) -> Membership | None:
    if actor is None or getattr(actor, "pk", None) is None:
        return None
    return Membership.objects.filter(campaign_id=campaign_id, user_id=actor.pk).first()


def _require_gm(campaign_id: int, actor: Any, what: str) -> None:
    membership = _membership(campaign_id, actor)
    if membership is None or not membership.is_gm:
        raise NotAllowed(f"only the campaign's GM can {what}")


def _require_control(character: Character, actor: Any, what: str) -> bool:
    """True for a GM, False for the character's player; NotAllowed for anyone else."""
    membership = _membership(character.campaign_id, actor)
    if membership is not None and membership.is_gm:
        return True
    if membership is None or character.owner_id is None or character.owner_id != actor.pk:
        raise NotAllowed(f"only {character.name}'s player or the GM can {what}")
    return False


def last_adventure(campaign_id: int) -> Adventure | None:
    """The campaign's latest adventure that has ended (None before the first one ends)."""
    return (
        Adventure.objects.filter(campaign_id=campaign_id, end_day__isnull=False)
        .order_by("-end_day", "-start_day", "-pk")
        .first()
    )


def _engine(call: Callable[[], Any]) -> Any:
    """Run an engine call; any refusal becomes an AdvancementError with the engine's words."""
    try:
        return call()
    except AdvancementError:
        raise
    except RulesError as exc:
        raise AdvancementError(str(exc)) from None


# ---------------------------------------------------------------------------------------------
# The quote: what an improvement costs, how long it trains, what limits apply
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Quote:
    """An improvement priced for one character under the campaign's ruleset.

    ``cost`` is the engine's :class:`~rules.advancement.ImprovementCost`; ``days`` the training
    time (None: the rules give none and the GM sets it); ``needs_gm`` what the GM must give
    before training can start (the request then waits for him); ``limits`` the limits that
    apply, in words; ``held`` the Character Points the character holds now."""

    kind: str
    target: str
    current: DieCode | int | None
    new: DieCode | int | None
    cost: ImprovementCost
    teacher: bool
    used_last_adventure: bool
    held: int
    days: int | None
    species_maximum: DieCode | int | None = None
    needs_gm: tuple[str, ...] = ()
    waiting_for: tuple[str, ...] = ()
    """``needs_gm`` as keys: ``"species_maximum"``, ``"days"``."""
    limits: tuple[str, ...] = ()
    skill_id: int | None = None
    attribute: str = ""
    base_skill: str = ""
    adventure_id: int | None = None
    credits: int = 0
    """Credits paid with the points: a droid's new skill in the Rules Companion (1,000)."""
    credits_held: int = 0

    @property
    def cp(self) -> int:
        """Character Points to hold (skill points in the Rules Companion), extra CP included."""
        return self.cost.character_points

    @property
    def affordable(self) -> bool:
        return self.held >= self.cp and self.credits_held >= self.credits

    @property
    def wasted_extra_cp(self) -> int:
        """Extra points beyond those that bring training down to its minimum."""
        return max(0, self.cost.extra_cp - self.cost.useful_extra_cp)

    @property
    def currency(self) -> str:
        return self.cost.currency


def quote(
    character: Character,
    kind: str,
    target: str,
    *,
    ruleset: RuleSet,
    teacher: bool = True,
    extra_cp: int = 0,
    teacher_code: DieCode | str | None = None,
    attribute: str | None = None,
    base_skill: str | None = None,
    species_maximum: DieCode | str | int | None = None,
    days: int | None = None,
) -> Quote:
    """Price ``kind`` of ``target`` for ``character`` (nothing is saved). Raises
    :class:`AdvancementError` with the reason when the rules refuse it (the one-pip limit, Move
    at the species maximum, a skill the sheet lacks…); not holding the points is not a refusal
    here (``Quote.affordable``), the ledger refuses when it is asked for.

    ``target``: the skill or specialization (its name on the sheet), the attribute, the new
    skill's name, the power; ignored for Move and Force-sensitivity. ``attribute``: a new
    skill's governing attribute when the skill table does not know it; ``base_skill``: the skill
    a new specialization specializes. ``teacher_code``: an [RC] Force teacher's code.
    ``species_maximum`` and ``days``: the GM's figures where the rules or the species table
    give none."""
    if kind not in KINDS:
        raise AdvancementError(f"unknown improvement {kind!r}; choose one of {', '.join(KINDS)}")
    if not isinstance(teacher, bool):
        raise AdvancementError("say whether a teacher trains the character (true or false)")
    extra_cp = _whole(extra_cp, "extra Character Points", MAX_EXTRA_CP)
    if days is not None:
        days = _whole(days, "training days", MAX_GM_DAYS)
    droid = character.nature == Character.Nature.DROID
    if droid and kind in FORCE_IMPROVEMENTS:  # before anything else: never for a droid [RC]
        _engine(lambda: droid_improvement_credits(kind, str(target), None, ruleset=ruleset))
    skills = {s.name.casefold(): s for s in Skill.objects.filter(character_id=character.pk)}
    last = last_adventure(character.campaign_id)
    plan = _target(character, kind, target, skills, attribute, base_skill, ruleset)
    current = plan["current"]

    maximum = _species_maximum(character, kind, plan["target"], species_maximum)
    needs: dict[str, str] = {}
    limits: list[str] = []
    used = bool(plan["uses"]) and _used(character, last, plan["uses"])
    if droid and kind == "new_skill" and ruleset.advancement_table == "rc_skill_points":
        # [RC] prices a droid's new skill (its points and 1,000 credits), no other new skill
        cost: ImprovementCost = _engine(
            lambda: droid_new_skill_improvement(plan["target"], current, ruleset=ruleset)
        )
    else:
        cost = _engine(
            lambda: improvement_cost(
                kind,
                current,
                ruleset=ruleset,
                teacher=teacher,
                used_last_adventure=used,
                teacher_code=teacher_code,
                species_maximum=maximum if kind == "move" else None,
            )
        )
    if extra_cp:
        cost = _engine(lambda: cost.with_extra_cp(extra_cp))
    credits = 0
    if droid:  # a Force-named skill or one above 13D refused; a new skill's credits [RC]
        credits = _engine(
            lambda: droid_improvement_credits(kind, plan["target"], cost.new, ruleset=ruleset)
        )

    if kind == "move":
        if maximum is None:
            needs["species_maximum"] = f"the species' maximum Move ({character.species})"
        else:
            limits.append(f"Move can never rise above the species maximum, {maximum}")
    if cost.attribute_roll:
        if maximum is None:
            needs["species_maximum"] = f"the species maximum for {plan['target'].capitalize()}"
        else:
            limits.append(
                f"after training, {cost.new} is rolled against the GM's roll of the species "
                f"maximum {maximum}; above it, the attribute stays and half the points come back"
            )
    training_days = cost.training_days if days is None else days
    if training_days is None:
        needs["days"] = "the training time (the rules give none)"

    statuses = list(
        Advancement.objects.filter(
            character_id=character.pk,
            target__iexact=plan["target"],
            status__in=_COUNTED,
            **({"adventure": last} if last else {"adventure__isnull": True}),
        ).values_list("status", flat=True)
    )
    if any(s in _OPEN for s in statuses):
        raise AdvancementError(
            f"an improvement of {plan['target']} is already asked for; wait until it ends"
        )
    _engine(
        lambda: check_one_pip_per_adventure(kind, plan["target"], len(statuses), ruleset=ruleset)
    )
    if ruleset.one_pip_per_skill_between_adventures and kind in _ON_SHEET:
        limits.append("a skill rises only one pip between adventures")
    return Quote(
        kind=kind,
        target=plan["target"],
        current=current,
        new=cost.new,
        cost=cost,
        teacher=teacher,
        used_last_adventure=used,
        held=character.character_points,
        days=training_days,
        species_maximum=maximum,
        needs_gm=tuple(needs.values()),
        waiting_for=tuple(needs),
        limits=tuple(limits) + tuple(cost.notes),
        skill_id=plan["skill"].pk if plan["skill"] is not None else None,
        attribute=plan["attribute"],
        base_skill=plan["base_skill"],
        adventure_id=last.pk if last else None,
        credits=credits,
        credits_held=character.credits,
    )


def _advancement_kind(skill: Skill, skills: Mapping[str, Skill]) -> str:
    """The improvement kind of a skill on the sheet. An advanced specialization is a
    specialization of an advanced skill."""
    if skill.kind == Skill.Kind.SPECIALIZATION:
        base = skills.get(skill.base_skill.casefold()) if skill.base_skill else None
        advanced = base is not None and base.kind == Skill.Kind.ADVANCED
        return "advanced_specialization" if advanced else "specialization"
    return {
        Skill.Kind.SKILL: "skill",
        Skill.Kind.ADVANCED: "advanced",
        Skill.Kind.FORCE: "force_skill",
    }[skill.kind]


def _reference_attribute(name: str) -> tuple[str | None, Any]:
    """The governing attribute of a skill the table knows, and the table's entry."""
    try:
        entry = reference_skill(name)
    except ReferenceDataError:
        return None, None
    return entry.attribute, entry


def _attribute_of(name: str, given: str | None, what: str) -> str:
    if given:
        return _engine(lambda: attribute_key(given))
    found, _ = _reference_attribute(name)
    if found is None:
        raise AdvancementError(f"say which attribute governs {what}")
    return found


def _target(
    character: Character,
    kind: str,
    target: object,
    skills: Mapping[str, Skill],
    attribute: str | None,
    base_skill: str | None,
    ruleset: RuleSet,
) -> dict[str, Any]:
    """What is improved: its name, code, the Skill row, and the trait names whose use in the
    last adventure counts as "used" (``uses``)."""
    plan: dict[str, Any] = {"skill": None, "attribute": "", "base_skill": "", "uses": ()}
    if kind in _ON_SHEET:
        name = _clean_name(target)
        skill = skills.get(name.casefold())
        if skill is None:
            raise AdvancementError(f"{character.name} has no skill called {name}")
        actual = _advancement_kind(skill, skills)
        if actual != kind:
            raise AdvancementError(f"{skill.name} is {_LABELS[actual]}, not {_LABELS[kind]}")
        return {
            **plan,
            "target": skill.name,
            "current": skill.code,
            "skill": skill,
            "attribute": skill.attribute,
            "uses": (skill.name.lower(),),
        }
    if kind == "attribute":
        key = _engine(lambda: attribute_key(_clean_name(target, "the attribute")))
        return {
            **plan,
            "target": key,
            "current": character.attribute(key),
            "attribute": key,
            "uses": (key,),
        }
    if kind == "move":
        return {**plan, "target": "Move", "current": character.move}
    if kind == "force_sensitivity":
        if character.force_sensitive:
            raise AdvancementError(f"{character.name} is already Force-sensitive")
        allowed = _engine(lambda: force_sensitivity(character.species, ruleset=ruleset))
        if not allowed.allowed:
            raise AdvancementError(allowed.note)
        return {**plan, "target": "Force-sensitivity", "current": None}
    if kind == "force_power":
        return {**plan, **_power_target(character, target, skills, ruleset)}

    name = _clean_name(target, "the new skill")
    if name.casefold() in skills:
        raise AdvancementError(f"{character.name} already has {name}")
    if kind == "new_force_skill":
        if name.lower() not in FORCE_SKILLS:
            raise AdvancementError(f"{name} is not a Force skill; choose control, sense or alter")
        return {**plan, "target": name.lower(), "current": None, "attribute": "force"}
    if kind == "new_skill":
        key = _attribute_of(name, attribute, name)
        _, entry = _reference_attribute(name)
        if entry is not None and entry.advanced:
            raise AdvancementError(f"{name} is an advanced skill: ask for a new advanced skill")
        uses = (name.lower(), key) if ruleset.advancement_table == "house" else (name.lower(),)
        return {
            **plan,
            "target": name,
            "current": character.attribute(key),
            "attribute": key,
            "uses": uses,
        }
    if kind == "new_advanced":
        key = _attribute_of(name, attribute, name)
        _, entry = _reference_attribute(name)
        for need in entry.prerequisites if entry is not None else ():
            have = skills.get(need.skill.casefold())
            if have is None or have.code < need.minimum:
                raise AdvancementError(f"(A) {name} needs {need.skill} at {need.minimum} or more")
        return {**plan, "target": name, "current": None, "attribute": key}
    # a new specialization (of a skill, or of an advanced skill)
    base = _clean_name(base_skill, "the skill it specializes")
    on_sheet = skills.get(base.casefold())
    if kind == "new_advanced_specialization" and (
        on_sheet is None or on_sheet.kind != Skill.Kind.ADVANCED
    ):
        raise AdvancementError(f"{character.name} needs the advanced skill {base} first")
    if on_sheet is not None:
        current, key, base = on_sheet.code, on_sheet.attribute, on_sheet.name
    else:
        key = _attribute_of(base, attribute, base)
        current = character.attribute(key)
    return {
        **plan,
        "target": name,
        "current": current,
        "attribute": key,
        "base_skill": base,
        "uses": (name.lower(),),
    }


def _power_target(
    character: Character, target: object, skills: Mapping[str, Skill], ruleset: RuleSet
) -> dict[str, Any]:
    name = _clean_name(target, "the Force power")
    if ForcePower.objects.filter(character_id=character.pk, name__iexact=name).exists():
        raise AdvancementError(f"{character.name} already knows {name}")
    codes = {n: s.code for n, s in skills.items() if s.kind == Skill.Kind.FORCE}
    try:
        power = force_power(name)
    except RulesError:
        if not codes:
            raise AdvancementError(f"{character.name} has no Force skill to use a power") from None
        return {"target": name, "current": None}
    missing = [s for s in power.skills if s not in codes]
    if missing:
        raise AdvancementError(f"{power.name} needs {' and '.join(missing)}")
    if ruleset.force_power_learning == "rc_mastery":
        known = ForcePower.objects.filter(character_id=character.pk).values_list("name", flat=True)
        mastered = []
        for known_name in known:
            try:
                mastered.append(force_power(known_name))
            except RulesError:
                continue
        _engine(lambda: check_power_room(codes, mastered, power))
    return {"target": power.name, "current": None}


def _species_maximum(
    character: Character, kind: str, target: str, given: DieCode | str | int | None
) -> DieCode | int | None:
    """The species maximum for Move or an attribute: the GM's figure when given, else the
    species table's (None when it has none for this species)."""
    if kind == "move":
        if given is not None:
            return _whole(given, "the species' maximum Move", 100)
        try:
            return species_by_name(character.species).max_move
        except ReferenceDataError:
            return None
    if kind != "attribute":
        return None
    if given is not None:
        return _engine(lambda: DieCode.parse(given))
    try:
        return species_by_name(character.species).attribute_range(target).maximum
    except ReferenceDataError:
        return None


def _used(character: Character, last: Adventure | None, traits: Iterable[str]) -> bool:
    if last is None:
        return False
    return TraitUse.objects.filter(
        adventure=last, character_id=character.pk, trait__in=list(traits)
    ).exists()


# ---------------------------------------------------------------------------------------------
# Asking, deciding, withdrawing
# ---------------------------------------------------------------------------------------------
def request_advancement(
    character: Character,
    kind: str,
    target: str,
    *,
    actor: Any,
    teacher: bool = True,
    extra_cp: int = 0,
    teacher_code: DieCode | str | None = None,
    attribute: str | None = None,
    base_skill: str | None = None,
    species_maximum: DieCode | str | int | None = None,
    days: int | None = None,
) -> Advancement:
    """Ask for an improvement: price it (:func:`quote`), hold its points through the ledger and
    store the request, in one transaction. It waits for the GM when the campaign asks for
    approval (a GM's own request does not) or when the GM must give a figure; otherwise it
    starts training today, and one that needs no training is done at once.

    ``actor``: the character's player or a GM (:class:`NotAllowed` otherwise); only a GM may
    give ``species_maximum`` or ``days``. Any refusal changes nothing."""
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=character.pk)
        is_gm = _require_control(locked, actor, "ask to improve this character")
        if not is_gm and (species_maximum is not None or days is not None):
            raise NotAllowed("only the GM gives the species maximum or the training time")
        campaign = Campaign.objects.get(pk=locked.campaign_id)
        ruleset = campaign.ruleset
        q = quote(
            locked,
            kind,
            target,
            ruleset=ruleset,
            teacher=teacher,
            extra_cp=extra_cp,
            teacher_code=teacher_code,
            attribute=attribute,
            base_skill=base_skill,
            species_maximum=species_maximum,
            days=days,
        )
        if is_gm and q.needs_gm:
            raise AdvancementError(f"give {' and '.join(q.needs_gm)}")
        if q.cp:
            _ledger(locked, -q.cp, f"Held for {_what(q.kind, q.target, q.current, q.new)}", actor)
        if q.credits:
            _ledger(
                locked,
                -q.credits,
                f"Paid for {_what(q.kind, q.target, q.current, q.new)} (a droid's new skill)",
                actor,
                Currency.CREDITS,
            )
        waits = bool(q.needs_gm) or (campaign.approve_advancement and not is_gm)
        advancement = Advancement.objects.create(
            character=locked,
            kind=q.kind,
            target=q.target,
            skill_id=q.skill_id,
            current=_text(q.current),
            new=_text(q.new),
            teacher=q.teacher,
            used_last_adventure=q.used_last_adventure,
            cp_cost=q.cp,
            training_days=q.days or 0,
            training=_training_json(q),
            adventure_id=q.adventure_id,
            status=Status.AWAITING if waits else Status.TRAINING,
            requested_day=campaign.game_day,
            requested_by=actor,
            decided_by=actor if is_gm else None,
        )
        if not waits:
            _start(advancement, locked, campaign, ruleset)
        live.bump(locked.campaign_id, public=_public(locked))
    return advancement


def approve(
    advancement: Advancement,
    *,
    actor: Any,
    species_maximum: DieCode | str | int | None = None,
    days: int | None = None,
) -> Advancement:
    """The GM approves a request awaiting him: training starts today (one that needs no training
    is done at once). ``species_maximum``/``days``: the figures the request waits for (the GM may
    also correct the species table's maximum). A request in any other state is refused with the
    reason, and nothing changes."""
    if days is not None:
        days = _whole(days, "training days", MAX_GM_DAYS)
    with transaction.atomic():
        locked = _lock(advancement)
        character = locked.character
        _require_gm(character.campaign_id, actor, "approve advancement")
        _check_status(locked, "approved")
        campaign = Campaign.objects.get(pk=character.campaign_id)
        ruleset = campaign.ruleset
        stored = dict(locked.training)
        training = Training.from_json(stored)
        needs = list(stored.get("needs", []))
        if locked.kind == "move" and (species_maximum is not None or "species_maximum" in needs):
            if species_maximum is None:
                raise AdvancementError(f"give the species' maximum Move ({character.species})")
            maximum = _whole(species_maximum, "the species' maximum Move", 100)
            _engine(
                lambda: improvement_cost(
                    "move", int(locked.current), ruleset=ruleset, species_maximum=maximum
                )
            )
        elif training.cost.attribute_roll and (
            species_maximum is not None or training.species_maximum is None
        ):
            if species_maximum is None:
                raise AdvancementError(
                    f"give the species maximum for {locked.target.capitalize()} (the GM rolls it)"
                )
            code = _engine(lambda: DieCode.parse(species_maximum))
            training = replace(training, species_maximum=code)
        if days is not None and "days" not in needs:
            raise AdvancementError("the rules set this training time; the GM cannot change it")
        if "days" in needs:
            if days is None:
                raise AdvancementError("give the training time in days (the rules give none)")
            training = replace(training, days_needed=days)
            locked.training_days = days
        locked.training = {**training.to_json(), "sheet": stored.get("sheet", {})}
        locked.status = Status.TRAINING
        locked.decided_by = actor
        _start(locked, character, campaign, ruleset)
        live.bump(character.campaign_id, public=_public(character))
    return locked


def refuse(advancement: Advancement, *, actor: Any, reason: str) -> Advancement:
    """The GM refuses a request awaiting him, with a reason shown to the player; the points
    come back through the ledger in the same transaction."""
    reason = _clean_text(reason, "the reason", REASON_LENGTH)
    with transaction.atomic():
        locked = _lock(advancement)
        character = locked.character
        _require_gm(character.campaign_id, actor, "refuse advancement")
        _check_status(locked, "refused")
        if locked.cp_cost:
            _ledger(character, locked.cp_cost, f"Returned: {locked.target} refused", actor)
        _return_credits(locked, character, f"Returned: {locked.target} refused", actor)
        locked.status = Status.REFUSED
        locked.reason = reason
        locked.decided_by = actor
        locked.save()
        live.bump(character.campaign_id, public=_public(character))
    return locked


def withdraw(advancement: Advancement, *, actor: Any) -> Advancement:
    """The player (or a GM) withdraws a request before its training starts; the points come
    back."""
    with transaction.atomic():
        locked = _lock(advancement)
        character = locked.character
        _require_control(character, actor, "withdraw this request")
        _check_status(locked, "withdrawn")
        if locked.cp_cost:
            _ledger(character, locked.cp_cost, f"Returned: {locked.target} withdrawn", actor)
        _return_credits(locked, character, f"Returned: {locked.target} withdrawn", actor)
        locked.status = Status.WITHDRAWN
        locked.save()
        live.bump(character.campaign_id, public=_public(character))
    return locked


def _lock(advancement: Advancement) -> Advancement:
    """The request and its character, locked (in that order everywhere)."""
    return (
        Advancement.objects.select_for_update().select_related("character").get(pk=advancement.pk)
    )


def _check_status(advancement: Advancement, verb: str) -> None:
    if advancement.status == Status.AWAITING:
        return
    now = {
        Status.TRAINING: "already training",
        Status.DONE: "already done",
        Status.FAILED: "already over",
        Status.REFUSED: "already refused",
        Status.WITHDRAWN: "already withdrawn",
    }[Status(advancement.status)]
    raise AdvancementError(
        f"this request for {advancement.target} is {now}; only a request awaiting the GM can be "
        f"{verb}"
    )


def _ledger(
    character: Character, delta: int, reason: str, actor: Any, currency: str = Currency.CP
) -> None:
    try:
        change_balance(character, currency, delta, reason, actor)
    except LedgerError as exc:
        raise InsufficientPoints(str(exc)) from None


def _credits_paid(advancement: Advancement) -> int:
    """The credits paid with the request (a droid's new skill), kept with the sheet's notes."""
    sheet = advancement.training.get("sheet") if isinstance(advancement.training, dict) else None
    paid = sheet.get("credits", 0) if isinstance(sheet, dict) else 0
    return paid if isinstance(paid, int) and not isinstance(paid, bool) and paid > 0 else 0


def _return_credits(
    advancement: Advancement, character: Character, reason: str, actor: Any
) -> None:
    """A refused or withdrawn request gives its credits back with its points."""
    paid = _credits_paid(advancement)
    if paid:
        _ledger(character, paid, reason, actor, Currency.CREDITS)


def _text(code: DieCode | int | None) -> str:
    return "" if code is None else str(code)


def _what(kind: str, target: str, current: Any, new: Any) -> str:
    if kind == "force_sensitivity":
        return "Force-sensitivity"
    if kind == "force_power":
        return f"the Force power {target}"
    label = target.capitalize() if kind == "attribute" else target
    if current in (None, "") or current == new:
        return f"{label} {new}" if new not in (None, "") else label
    return f"{label} {current} → {new}"


def _public(character: Character) -> bool:
    return not (character.kind == Character.Kind.NPC and character.secret)


def _training_json(q: Quote) -> dict[str, Any]:
    """The engine's Training, plus what the sheet needs to create a new skill ("sheet") and
    what the GM still has to give ("needs")."""
    days = q.days if q.days is not None else 0
    maximum = q.species_maximum if isinstance(q.species_maximum, DieCode) else None
    if maximum is not None or not q.cost.attribute_roll:
        training = start_training(q.target, q.cost, days=days, species_maximum=maximum)
    else:  # the GM gives the species maximum when he approves
        training = Training(q.target, q.cost, days)
    sheet: dict[str, Any] = {"attribute": q.attribute, "base_skill": q.base_skill}
    if q.credits:
        sheet["credits"] = q.credits
    return {**training.to_json(), "sheet": sheet, "needs": list(q.waiting_for)}


# ---------------------------------------------------------------------------------------------
# Training and completing
# ---------------------------------------------------------------------------------------------
def seeded_dice(seed: int, advancement_id: int) -> DiceSource:
    """The dice for one advancement's completion: from the time advance's seed and the
    advancement, so the result does not depend on chunking, order of days or retries."""
    digest = hashlib.sha256(f"{seed}:{advancement_id}".encode()).digest()
    return SeededDice(int.from_bytes(digest[:8], "big"))


class _Recorder:
    """A dice source that remembers every face it gave."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.faces: list[int] = []

    def d6(self) -> int:
        face = self.source.d6()
        self.faces.append(face)
        return face


def _start(
    advancement: Advancement, character: Character, campaign: Campaign, ruleset: RuleSet
) -> None:
    """Training starts today; with no training to do, the improvement lands now."""
    advancement.status = Status.TRAINING
    advancement.start_day = campaign.game_day
    advancement.due_day = campaign.game_day + advancement.training_days
    if advancement.training_days:
        advancement.save()
        return
    _finish(advancement, character, ruleset, SystemDice())


def complete_due(
    campaign_id: int,
    day: int,
    *,
    seed: int,
    rng_for: Callable[[int, int], DiceSource] = seeded_dice,
) -> list[dict[str, Any]]:
    """Complete every training of the campaign due on or before game day ``day``, in (due day,
    id) order, each in its own transaction with its row locked and its status checked again,
    so running this twice for the same day does nothing the second time. The attribute roll's
    dice come from ``rng_for(seed, advancement id)`` (:func:`seeded_dice`). Returns one
    JSON-safe report line per advancement completed (who, what, outcome, every die)."""
    if isinstance(day, bool) or not isinstance(day, int) or day < 0:
        raise AdvancementError("the game day must be a whole number, 0 or more")
    due = list(
        Advancement.objects.filter(
            character__campaign_id=campaign_id, status=Status.TRAINING, due_day__lte=day
        )
        .order_by("due_day", "pk")
        .values_list("pk", flat=True)
    )
    if not due:
        return []
    ruleset = Campaign.objects.only("rule_options").get(pk=campaign_id).ruleset
    lines = []
    for pk in due:
        with transaction.atomic():
            advancement = (
                Advancement.objects.select_for_update()
                .select_related("character")
                .filter(pk=pk, status=Status.TRAINING, due_day__lte=day)
                .first()
            )
            if advancement is None:  # completed meanwhile (a retry, another worker)
                continue
            character = advancement.character
            lines.append(_finish(advancement, character, ruleset, rng_for(seed, pk)))
            live.bump(character.campaign_id, public=_public(character))
    return lines


def _finish(
    advancement: Advancement, character: Character, ruleset: RuleSet, rng: DiceSource
) -> dict[str, Any]:
    """The last day of training: the engine's :func:`train` makes the attribute roll where the
    ruleset asks for one; the result goes on the sheet, or half the points come back."""
    stored = dict(advancement.training)
    training = Training.from_json(stored)
    dice = _Recorder(rng)
    state, words = train(training, training.days_left, ruleset=ruleset, rng=dice)
    advancement.training = {**state.to_json(), "sheet": stored.get("sheet", {})}
    advancement.completed_day = advancement.due_day
    advancement.roll = _roll_record(state, dice.faces, ruleset)
    lines = list(words)
    refund = 0
    if state.outcome == "not_improved":
        advancement.status = Status.FAILED
        refund = state.refund
        if refund:
            _ledger(character, refund, f"Half back: {advancement.target} did not rise", None)
    else:
        applied = _apply(advancement, character, ruleset, stored.get("sheet", {}))
        if applied is None:  # the skill left the sheet before the training ended
            advancement.status = Status.FAILED
            refund = advancement.cp_cost
            advancement.reason = "the skill was removed from the sheet; the points came back"
            if refund:
                _ledger(character, refund, f"Returned: {advancement.target} removed", None)
            lines.append(f"{advancement.target} is no longer on the sheet; {refund} CP back")
        else:
            advancement.status = Status.DONE
            lines.extend(applied)
    advancement.save()
    return {
        "advancement": advancement.pk,
        "character_id": character.pk,
        "character": character.name,
        "kind": advancement.kind,
        "target": advancement.target,
        "from": advancement.current,
        "to": advancement.new,
        "day": advancement.completed_day,
        "outcome": "improved" if advancement.status == Status.DONE else "not_improved",
        "cp_back": refund,
        "words": lines,
        "roll": advancement.roll,
    }


def _roll_record(state: Training, faces: list[int], ruleset: RuleSet) -> dict[str, Any] | None:
    """The attribute roll with every die: the two rolls replayed from the faces the engine
    drew (the character's new code first, then the GM's species maximum)."""
    result = state.attribute_roll
    if result is None or result.character_roll is None:
        return None
    new, maximum = state.cost.new, state.species_maximum
    record: dict[str, Any] = {
        "character_roll": result.character_roll,
        "gamemaster_roll": result.gamemaster_roll,
        "improved": result.improved,
        "refund": result.refund,
        "new_code": _text(new),
        "species_maximum": _text(maximum),
        "faces": list(faces),
    }
    if isinstance(new, DieCode) and maximum is not None:
        replay = FixedDice(faces)
        try:
            mine = roll(new, ruleset=ruleset, rng=replay)
            gms = roll(maximum, ruleset=ruleset, rng=replay)
        except (RulesError, RuntimeError):  # pragma: no cover - the engine drew differently
            return record
        if (mine.total, gms.total) == (result.character_roll, result.gamemaster_roll):
            record["character"] = mine.to_json()
            record["gamemaster"] = gms.to_json()
    return record


def _apply(
    advancement: Advancement, character: Character, ruleset: RuleSet, sheet: Mapping[str, Any]
) -> list[str] | None:
    """Write the improvement on the sheet; what changed, in words. None when the skill being
    improved is no longer on the sheet."""
    kind, target = advancement.kind, advancement.target
    if kind in _ON_SHEET:
        skill = (
            Skill.objects.select_for_update()
            .filter(character=character, name__iexact=target)
            .first()
        )
        if skill is None:
            return None
        skill.code = _raised(skill.code, advancement)
        skill.save(update_fields=["code"])
        return []
    if kind in _NEW_SKILL:
        new = DieCode.parse(advancement.new)
        skill = (
            Skill.objects.select_for_update()
            .filter(character=character, name__iexact=target)
            .first()
        )
        if skill is not None:  # the GM added it meanwhile: keep the higher code
            if skill.code < new:
                skill.code = new
                skill.save(update_fields=["code"])
            return []
        Skill.objects.create(
            character=character,
            name=target,
            attribute=sheet.get("attribute") or "force",
            kind=_NEW_SKILL[kind],
            base_skill=sheet.get("base_skill", ""),
            code=new,
        )
        return []
    if kind == "attribute":
        old = character.attribute(target)
        setattr(character, target, _raised(old, advancement))
        character.save(update_fields=[target, "updated_at"])
        return lift_skills_with_attributes(character, {target: old}, ruleset=ruleset)
    if kind == "move":
        now = character.move
        character.move = int(advancement.new) if str(now) == advancement.current else now + 1
        character.save(update_fields=["move", "updated_at"])
        return []
    if kind == "force_sensitivity":
        character.force_sensitive = True
        character.save(update_fields=["force_sensitive", "updated_at"])
        return []
    if kind == "force_power":
        try:
            skills = ", ".join(force_power(target).skills)
        except RulesError:
            skills = ""
        ForcePower.objects.get_or_create(
            character=character, name=target, defaults={"skills": skills}
        )
        return []
    raise AssertionError(f"no sheet change for {kind}")  # pragma: no cover - KINDS are covered


def _raised(code: DieCode, advancement: Advancement) -> DieCode:
    """The new code: as priced, or, when the GM changed the code during training, one pip above
    what it is now (the improvement bought is one pip)."""
    if str(code) == advancement.current:
        return DieCode.parse(advancement.new)
    return code + _ONE_PIP


# ---------------------------------------------------------------------------------------------
# Skills used during an adventure
# ---------------------------------------------------------------------------------------------
def _trait_key(trait: object) -> str:
    key = _clean_text(trait, "the skill or attribute", TraitUse._meta.get_field("trait").max_length)
    return key.lower()


_USE_TABLE = TraitUse._meta.db_table
_ADVENTURE_TABLE = Adventure._meta.db_table
_RECORD_USE_SQL = (
    f"INSERT INTO {_USE_TABLE} "
    f"({TraitUse._meta.get_field('adventure').column}, "
    f"{TraitUse._meta.get_field('character').column}, trait, by_hand, created_at) "
    f"SELECT a.id, %s, %s, %s, %s FROM {_ADVENTURE_TABLE} a "
    f"WHERE a.{Adventure._meta.get_field('campaign').column} = %s AND a.end_day IS NULL "
    "ON CONFLICT DO NOTHING"
)
"""One statement: insert the use into the campaign's running adventure, if there is one, unless
it is already recorded (a roll from the sheet costs one query more, not two)."""


def record_use(character: Character, trait_key: str) -> bool:
    """Record that ``character`` used ``trait_key`` (an attribute key or a skill's name, any
    case) in the campaign's running adventure; nothing when no adventure runs or it is already
    recorded. True if a use was added. Called by :func:`characters.services.roll_trait`."""
    trait = _trait_key(trait_key)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_RECORD_USE_SQL, [character.pk, trait, False, now, character.campaign_id])
        return cursor.rowcount > 0


def set_trait_use(
    character: Character,
    trait: str,
    *,
    actor: Any,
    used: bool = True,
    adventure: Adventure | None = None,
) -> TraitUse | None:
    """The GM ticks (``used``) or unticks a skill or attribute as used in ``adventure`` (by
    default the running one, else the last that ended). Returns the use, None when unticked."""
    key = _trait_key(trait)
    if (
        key not in ATTRIBUTES
        and not Skill.objects.filter(character_id=character.pk, name__iexact=key).exists()
    ):
        raise AdvancementError(f"{character.name} has no skill or attribute called {trait}")
    with transaction.atomic():
        _require_gm(character.campaign_id, actor, "mark skills used in an adventure")
        if adventure is None:
            adventure = Adventure.objects.filter(
                campaign_id=character.campaign_id, end_day__isnull=True
            ).first() or last_adventure(character.campaign_id)
        if adventure is None or adventure.campaign_id != character.campaign_id:
            raise AdvancementError("there is no adventure of this campaign to mark it in")
        if not used:
            TraitUse.objects.filter(
                adventure=adventure, character_id=character.pk, trait=key
            ).delete()
            return None
        use, _ = TraitUse.objects.get_or_create(
            adventure=adventure, character_id=character.pk, trait=key, defaults={"by_hand": True}
        )
    return use


# ---------------------------------------------------------------------------------------------
# The end of an adventure: awards to every character at once
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Award:
    """What one character earns at the end of an adventure, with the reason the ledger shows.
    ``kill_bonus``: [HOUSE] extra CP for defeating Antagonists (its own ledger line)."""

    character_id: int
    reason: str
    cp: int = 0
    fp: int = 0
    dsp: int = 0
    kill_bonus: int = 0


def award_all(
    campaign: Campaign,
    awards: Iterable[Award | Mapping[str, Any]],
    *,
    actor: Any,
    joined_group: bool = False,
    full_might: bool = False,
) -> list[dict[str, Any]]:
    """Award Character Points, Force Points (returned or earned heroically) and Dark Side
    Points to several characters of ``campaign`` at once, each with its reason, through the
    ledger in one transaction: all of it or, on any refusal, none.

    House options, where the campaign's ruleset uses them: the kill bonus is accepted only
    under the House advancement table; under it too the CP (kill bonus included) go to the
    character's pending slot (``Currency.PENDING_CP``), posted to his Character Points at the
    month's end (:mod:`characters.month_end`); the [HOUSE] CP slot cap (:func:`cp_slot_cap`:
    20, or 30 once the party has ``joined_group``; none under ``full_might``) is reported on a
    line's ``note``, counting the points pending (points earned in play may exceed it, so it
    never refuses an award).
    Returns one JSON-safe line per ledger entry."""
    _require_gm(campaign.pk, actor, "award points")
    ruleset = campaign.ruleset
    checked = [_checked_award(a, ruleset) for a in awards]
    ids = [a.character_id for a in checked]
    if len(set(ids)) != len(ids):
        raise AdvancementError("each character can appear only once in an award")
    if not any(a.cp or a.fp or a.dsp or a.kill_bonus for a in checked):
        raise AdvancementError("nothing to award: every amount is 0")
    cap = cp_slot_cap(joined_group, full_might, ruleset=ruleset)
    cp_slot = Currency.PENDING_CP if posts_at_month_end(ruleset) else Currency.CP
    lines: list[dict[str, Any]] = []
    with transaction.atomic():
        characters = {
            c.pk: c
            for c in Character.objects.select_for_update()
            .filter(campaign_id=campaign.pk, pk__in=ids)
            .order_by("pk")
        }
        missing = [i for i in ids if i not in characters]
        if missing:
            raise AdvancementError("every character awarded must belong to this campaign")
        for award in sorted(checked, key=lambda a: a.character_id):
            character = characters[award.character_id]
            earned = 0  # CP earned so far in this award: half of them repay a school debt
            for currency, amount, reason in (
                (cp_slot, award.cp, award.reason),
                (cp_slot, award.kill_bonus, f"Kill bonus: {award.reason}"),
                (Currency.FP, award.fp, award.reason),
                (Currency.DSP, award.dsp, award.reason),
            ):
                if not amount:
                    continue
                repaid = None
                if currency == cp_slot:
                    got = earn_cp(
                        character, amount, reason, actor, currency=cp_slot, earned_before=earned
                    )
                    entry, repaid, earned = got.entry, got, earned + amount
                else:
                    entry = change_balance(character, currency, amount, reason, actor)
                line = {
                    "character_id": character.pk,
                    "character": character.name,
                    "currency": str(currency),
                    "delta": amount,
                    "balance_after": entry.balance_after,
                    "reason": entry.reason,
                    "note": "",
                }
                if currency == Currency.CP and cap is not None and entry.balance_after > cap:
                    line["note"] = (
                        f"{character.name} holds {entry.balance_after} CP, above the {cap} CP "
                        "slot cap; only points earned while gaming may be there beyond it"
                    )
                held = character.character_points + character.pending_cp
                if currency == Currency.PENDING_CP and cap is not None and held > cap:
                    line["note"] = (
                        f"{character.name} will hold {held} CP once the pending points are "
                        f"posted, above the {cap} CP slot cap; only points earned while gaming "
                        "may be there beyond it"
                    )
                if repaid is not None and repaid.repaid:
                    line["repaid"] = repaid.repaid
                    line["note"] = (f"{line['note']}; " if line["note"] else "") + (
                        f"{character.name} repays {repaid.repaid} CP of school debt (half of "
                        f"the CP earned); {repaid.still_owed} CP still owed"
                    )
                lines.append(line)
    return lines


def _checked_award(award: Award | Mapping[str, Any], ruleset: RuleSet) -> Award:
    if isinstance(award, Mapping):
        known = {"character_id", "reason", "cp", "fp", "dsp", "kill_bonus"}
        unknown = set(award) - known
        if unknown:
            raise AdvancementError(f"unknown award field(s): {', '.join(sorted(unknown))}")
        try:
            award = Award(**award)
        except TypeError:
            raise AdvancementError("each award names a character and a reason") from None
    if isinstance(award.character_id, bool) or not isinstance(award.character_id, int):
        raise AdvancementError("each award names a character")
    amounts = {
        "Character Points": award.cp,
        "Force Points": award.fp,
        "Dark Side Points": award.dsp,
        "the kill bonus": award.kill_bonus,
    }
    for what, amount in amounts.items():
        _whole(amount, what, MAX_AWARD)
    if award.kill_bonus and ruleset.advancement_table != "house":
        raise AdvancementError("the kill bonus is a House rule; this campaign does not use it")
    room = REASON_LENGTH - len("Kill bonus: ")
    reason = _clean_text(award.reason, "the reason for the award", room)
    return replace(award, reason=reason)
