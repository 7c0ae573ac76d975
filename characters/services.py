"""Writes that must be atomic: every balance change goes through :func:`change_balance`, which
writes a ledger entry in the same transaction; a roll from the sheet stores the roll and debits
its Character Points and Force Point together (:func:`roll_trait`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import F

from campaigns.models import DiceRoll
from characters.models import (
    ATTRIBUTES,
    BALANCE_FIELDS,
    Character,
    Currency,
    LedgerEntry,
    Skill,
)
from rules import DieCode, RuleSet
from rules import roll as roll_dice
from rules.advancement import (
    AdvancementError,
    check_cp_spend,
    max_cp_per_roll,
    skills_after_attribute_raise,
)
from rules.dice import DiceSource, SystemDice, rollable_pool

MAX_DELTA = 1_000_000_000


class LedgerError(ValueError):
    """A balance change that was refused; the message says why. Nothing was changed."""


def change_balance(
    character: Character | int,
    currency: str,
    delta: int,
    reason: str,
    actor=None,
    roll: DiceRoll | None = None,
) -> LedgerEntry:
    """Add ``delta`` (negative to spend) to one balance and record it in the ledger.

    The update is conditional (``balance + delta >= 0``) and runs in the caller's transaction
    or its own, so concurrent spends can never take a balance below zero: each one either
    applies whole, with its ledger entry, or is refused with :class:`LedgerError`."""
    if currency not in BALANCE_FIELDS:
        raise LedgerError(f"unknown balance {currency!r}")
    if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
        raise LedgerError("the change must be a whole number other than 0")
    if abs(delta) > MAX_DELTA:
        raise LedgerError("that change is too large")
    reason = (reason or "").strip()
    if not reason:
        raise LedgerError("say why the balance changes")
    field = BALANCE_FIELDS[currency]
    character_id = character if isinstance(character, int) else character.pk
    label = Currency(currency).label
    with transaction.atomic():
        rows = Character.objects.filter(pk=character_id)
        if delta < 0:
            rows = rows.filter(**{f"{field}__gte": -delta})
        if not rows.update(**{field: F(field) + delta}):
            if not Character.objects.filter(pk=character_id).exists():
                raise LedgerError("no such character")
            held = Character.objects.values_list(field, flat=True).get(pk=character_id)
            raise LedgerError(f"not enough {label}: {-delta} needed, {held} held")
        balance = Character.objects.values_list(field, flat=True).get(pk=character_id)
        entry = LedgerEntry.objects.create(
            character_id=character_id,
            currency=currency,
            delta=delta,
            balance_after=balance,
            reason=reason[:200],
            actor=actor,
            roll=roll,
        )
    if isinstance(character, Character):
        setattr(character, field, balance)
    return entry


# ---------------------------------------------------------------------------------------------
# Rolling from the sheet
# ---------------------------------------------------------------------------------------------
WOUND_PENALTY_DICE = {
    "none": 0,
    "stunned": 1,
    "wounded": 1,
    "wounded_twice": 2,
}
"""Dice taken from skill and attribute rolls by wound level (dice-and-core.md §9.2). From
incapacitated on, the character cannot act at all."""
CANNOT_ACT = {"incapacitated", "mortally_wounded", "killed"}


@dataclass(frozen=True)
class Trait:
    """Something on a sheet that can be rolled: an attribute or a skill."""

    key: str  # "attr:dexterity" or "skill:<id>"
    label: str
    code: DieCode
    roll_kind: str  # for the CP limit: skill, specialization, dodge, ...
    attribute: str


REACTION_SKILLS = {"dodge", "melee parry", "brawling parry", "vehicle dodge", "starship dodge"}


def trait_for(character: Character, key: str) -> Trait:
    """Look up a rollable trait of this character; ValueError with a message if unknown."""
    kind, _, rest = (key or "").partition(":")
    if kind == "attr":
        if rest not in ATTRIBUTES:
            raise ValueError(f"{rest!r} is not an attribute")
        return Trait(key, rest.capitalize(), character.attribute(rest), "attribute", rest)
    if kind == "skill" and rest.isdigit():
        skill = Skill.objects.filter(character=character, pk=int(rest)).first()
        if skill is None:
            raise ValueError("this character has no such skill")
        if skill.kind == Skill.Kind.SPECIALIZATION:
            roll_kind = "specialization"
        elif skill.name.lower() in REACTION_SKILLS:
            roll_kind = "dodge" if "dodge" in skill.name.lower() else "parry"
        else:
            roll_kind = "skill"
        return Trait(key, skill.name, skill.code, roll_kind, skill.attribute)
    raise ValueError("choose an attribute or a skill of this character to roll")


def cp_limit(trait: Trait, ruleset: RuleSet) -> int | None:
    return max_cp_per_roll(trait.roll_kind, ruleset)


def roll_trait(
    character: Character,
    actor,
    trait_key: str,
    *,
    ruleset: RuleSet,
    actions: int = 1,
    modifier: int = 0,
    cp: int = 0,
    force_point: bool = False,
    difficulty: int | None = None,
    hidden: bool | None = None,
    note: str = "",
    rng: DiceSource | None = None,
) -> DiceRoll:
    """Roll an attribute or skill from the sheet, store it, and debit the CP and Force Point
    spent, all in one transaction. Raises ValueError (with a reason) and changes nothing when
    the roll is not allowed. ``hidden`` unset: a secret NPC's roll is hidden, any other is
    not."""
    if not 1 <= actions <= 10:
        raise ValueError("number of actions must be between 1 and 10")
    if not -100 <= modifier <= 100:
        raise ValueError("modifier must be between -100 and +100")
    if difficulty is not None and not 1 <= difficulty <= 200:
        raise ValueError("difficulty must be between 1 and 200")
    note = (note or "").strip()
    if "\x00" in note:
        raise ValueError("the note cannot contain NUL characters")
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=character.pk)
        if locked.wound_level in CANNOT_ACT:
            raise ValueError(
                f"{locked.name} is {locked.get_wound_level_display().lower()} and cannot act"
            )
        trait = trait_for(locked, trait_key)
        try:
            check_cp_spend(trait.roll_kind, cp, ruleset, force_point_this_round=force_point)
        except AdvancementError as exc:
            raise ValueError(str(exc)) from None
        if cp > locked.character_points:
            raise ValueError(
                f"not enough Character Points: {cp} needed, {locked.character_points} held"
            )
        if force_point and locked.force_points < 1:
            raise ValueError("no Force Point left to spend")
        penalty = WOUND_PENALTY_DICE.get(locked.wound_level, 0)
        rollable_pool(
            trait.code,
            actions=actions,
            penalty_dice=penalty,
            force_point=force_point,
            ruleset=ruleset,
        )
        result = roll_dice(
            trait.code,
            ruleset,
            rng or SystemDice(),
            actions=actions,
            penalty_dice=penalty,
            modifier=modifier,
            cp_dice=cp,
            force_point=force_point,
        )
        # The label must fit its column: the note gives way (with an ellipsis), never the name.
        room = DiceRoll._meta.get_field("label").max_length - len(f"{trait.label} ()")
        if len(note) > room:
            note = note[: room - 1].rstrip() + "…" if room > 1 else ""
        label = f"{trait.label} ({note})" if note else trait.label
        record = DiceRoll.objects.create(
            campaign_id=locked.campaign_id,
            character=locked,
            actor=actor,
            label=label,
            code=str(trait.code),
            pool=str(result.pool),
            dice={
                **result.to_json(),
                "actions": actions,
                "wound_penalty": penalty,
                "trait": trait.key,
            },
            total=result.total,
            difficulty=difficulty,
            cp_spent=cp,
            force_point=force_point,
            hidden=(locked.is_npc and locked.secret) if hidden is None else hidden,
        )
        if cp:
            change_balance(locked, Currency.CP, -cp, f"Spent on {trait.label} roll", actor, record)
        if force_point:
            change_balance(
                locked, Currency.FP, -1, f"Force Point on {trait.label} roll", actor, record
            )
    return record


def lift_skills_with_attributes(
    character: Character, before: dict[str, DieCode], *, ruleset: RuleSet
) -> list[str]:
    """After the GM changed attributes on the sheet: where the ruleset says skills rise with
    their attribute ([HOUSE] item 21, ``attribute_raise_lifts_skills``), lift that attribute's
    skills pip for pip, advanced skills excepted. Call inside the transaction that saved the
    attributes. Returns one line per attribute saying what changed, for the GM to read."""
    if not ruleset.attribute_raise_lifts_skills:
        return []
    lines = []
    for attribute, old in before.items():
        raised = character.attribute(attribute).total_pips - old.total_pips
        if raised == 0:
            continue
        skills = list(
            Skill.objects.select_for_update()
            .filter(character=character, attribute=attribute)
            .order_by("name")
        )
        if not skills:
            continue
        label = attribute.capitalize()
        if raised < 0:
            lines.append(f"{label} was lowered; its skills were left as they were.")
            continue
        codes = {s.name: s.code for s in skills}
        advanced = {s.name for s in skills if s.kind == Skill.Kind.ADVANCED}
        for _ in range(raised):
            codes = skills_after_attribute_raise(codes, advanced, ruleset)
        changed = [s for s in skills if codes[s.name] != s.code]
        moves = [f"{s.name} {s.code} → {codes[s.name]}" for s in changed]
        for s in changed:
            s.code = codes[s.name]
        Skill.objects.bulk_update(changed, ["code"])
        if moves:
            lines.append(f"{label} rose, and its skills with it (House Rules): {', '.join(moves)}.")
    return lines
