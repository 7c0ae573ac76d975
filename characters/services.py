"""Writes that must be atomic: every balance change goes through :func:`change_balance`, which
writes a ledger entry in the same transaction; a roll from the sheet stores the roll and debits
its Character Points and Force Point together (:func:`roll_trait`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db import transaction
from django.db.models import F

from characters import live
from characters.models import (
    ATTRIBUTES,
    BALANCE_FIELDS,
    Character,
    Currency,
    DiceRoll,
    LedgerEntry,
    Skill,
    wound_level_label,
)
from rules import DieCode, RuleSet
from rules import roll as roll_dice
from rules.advancement import (
    AdvancementError,
    check_cp_spend,
    max_cp_per_roll,
    skills_after_attribute_raise,
)
from rules.combat import reaction_roll_kind
from rules.dice import DiceSource, SystemDice, rollable_pool
from rules.injuries import (
    STUN_AFFECTS_ROUNDS,
    StunState,
    WoundEffects,
    WoundLevel,
    WoundState,
    apply_wound,
    cannot_act_reason,
    injury_penalty_dice,
    stun_state,
    take_result,
    wound_effects,
    wound_ladder,
)
from rules.time import ROUNDS_PER_MINUTE

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
        balance, campaign_id, kind, secret = Character.objects.values_list(
            field, "campaign_id", "kind", "secret"
        ).get(pk=character_id)
        live.bump(campaign_id, public=not (kind == Character.Kind.NPC and secret))
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
# Wounds and stuns: the engine's WoundState, read on the campaign's ladder
# ---------------------------------------------------------------------------------------------
MAX_STUNS = 20
"""Stun points the GM can mark on a sheet at once (far past any knock-out)."""


def fit_wound_level(level: WoundLevel | str, *, ruleset: RuleSet) -> WoundLevel:
    """A stored wound level on this campaign's ladder. Only "wounded twice" can be off it (a
    Rules Companion campaign, or one whose rules changed since): it is two wounds, and the
    engine says what two wounds are on this ladder (the [RC]: incapacitated,
    injuries-and-healing.md §2.3)."""
    level = WoundLevel(level)
    if level in wound_ladder(ruleset=ruleset):
        return level
    once = apply_wound(WoundLevel.none, WoundLevel.wounded, ruleset=ruleset)
    return apply_wound(once, WoundLevel.wounded, ruleset=ruleset)


def wound_state(character: Character, *, ruleset: RuleSet) -> WoundState:
    """The character's level and stuns as the engine's :class:`WoundState`, on the ladder of
    ``ruleset`` (:func:`fit_wound_level`)."""
    state = character.wound_state
    level = fit_wound_level(state.level, ruleset=ruleset)
    return state if level is state.level else replace(state, level=level)


def sheet_round(state: WoundState) -> int:
    """The round a sheet asks the rules about. A sheet keeps no clock of its own (an encounter
    counts its rounds): its "now" is the round of the latest stun taken, 0 without, so stuns
    the GM marks stay in force, as the engine rules for the moment they were taken, until the
    GM clears them."""
    return max((stun.round for stun in state.stuns), default=0)


def with_stun_points(state: WoundState, points: int, *, ruleset: RuleSet) -> WoundState:
    """``state`` with ``points`` stun points on record, as the GM counts them on the sheet:
    the same count keeps the stuns as they are; 0 clears them; another count is that many
    stuns taken now (:func:`rules.injuries.take_result`, which ignores a stun on a character
    who is already out)."""
    if points == sum(stun.points for stun in state.stuns):
        return state
    now = sheet_round(state)
    state = replace(state, stuns=())
    for _ in range(points):
        state = take_result(state, WoundLevel.stunned, now_round=now, ruleset=ruleset)
    return state


@dataclass(frozen=True)
class Condition:
    """What a character's wounds and stuns do now, every answer from the engine
    (:mod:`rules.injuries`) with the campaign's ruleset."""

    state: WoundState
    ladder: tuple[WoundLevel, ...]
    effects: WoundEffects
    stuns: StunState
    penalty_dice: int
    """Dice off every skill and attribute roll: the wound's and the stuns' together."""
    cannot_act: str | None
    """Why he cannot act (``incapacitated``, ``knocked out by stuns``), None if he can."""
    rc_stuns: bool
    """[RC] stun handling: stun points, immobile at Dexterity dice, out at stamina dice."""
    knockout_at: int
    """Stun points (2E: stuns affecting him) that knock him out: his Strength dice, or in the
    [RC] his stamina dice."""
    immobile_at: int | None
    """[RC]: stun points in one round that leave him immobile (his Dexterity dice)."""
    stamina: bool = False
    """He has a stamina skill."""

    @property
    def level(self) -> WoundLevel:
        return self.state.level

    @property
    def label(self) -> str:
        return wound_level_label(self.state.level)

    @property
    def ladder_labels(self) -> list[tuple[str, bool]]:
        """The campaign's wound ladder in words, each with whether he is at that level."""
        return [(wound_level_label(level), level is self.level) for level in self.ladder]

    @property
    def cannot_act_words(self) -> str:
        """``cannot act``, with the reason when the level alone does not say it."""
        if self.cannot_act in (None, self.label.lower()):
            return "cannot act"
        return f"{self.cannot_act}: cannot act"

    @property
    def stun_points(self) -> int:
        return sum(stun.points for stun in self.state.stuns)

    @property
    def effect_words(self) -> list[str]:
        """What the wound did the moment it was taken, in the game's words."""
        e, words = self.effects, []
        if e.level is WoundLevel.killed:
            return words
        if e.knockback_m:
            low, high = e.knockback_m
            words.append(f"knocked back {low} m" if low == high else f"knocked back {low}–{high} m")
        if e.falls_prone:
            words.append("falls prone")
        if e.loses_next_round:
            words.append("loses the rest of the round and the next")
        elif e.loses_rest_of_round and e.can_act:
            words.append("loses the rest of the round")
        if e.unconscious_for:
            words.append(f"unconscious for {e.unconscious_for}")
        elif not e.conscious:
            words.append("unconscious")
        if e.death_rolls:
            words.append("a death roll at the end of each round until stabilised")
        return words

    @property
    def knockout_by(self) -> str:
        """Which dice count for the stun knock-out: ``Strength`` or, in the [RC] when he has
        the skill, ``stamina``."""
        return "stamina" if self.rc_stuns and self.stamina else "Strength"

    @property
    def stun_affects_minutes(self) -> int:
        """2E: how long a stun keeps "affecting" him (30 minutes)."""
        return STUN_AFFECTS_ROUNDS // ROUNDS_PER_MINUTE


def condition(
    character: Character, *, ruleset: RuleSet, stamina: DieCode | None = None
) -> Condition:
    """What the sheet and the roll panel show of the character's wounds and stuns.
    ``stamina``: his stamina skill's code, if he has one (the [RC] stun knock-out counts it)."""
    state = wound_state(character, ruleset=ruleset)
    now = sheet_round(state)
    stuns = stun_state(
        state.stuns,
        now,
        strength=character.strength,
        dexterity=character.dexterity,
        stamina=stamina,
        rested_through=state.rested_through,
        ruleset=ruleset,
    )
    rc = ruleset.stun_knockout == "rc_dex_stamina"
    out_at = (stamina if rc and stamina is not None else character.strength).dice
    return Condition(
        state=state,
        ladder=wound_ladder(ruleset=ruleset),
        effects=wound_effects(state.level, ruleset=ruleset),
        stuns=stuns,
        penalty_dice=injury_penalty_dice(state, now_round=now, ruleset=ruleset),
        cannot_act=cannot_act_reason(
            state, now_round=now, strength=character.strength, stamina=stamina, ruleset=ruleset
        ),
        rc_stuns=rc,
        knockout_at=max(1, out_at),
        immobile_at=max(1, character.dexterity.dice) if rc else None,
        stamina=stamina is not None,
    )


def stamina_of(character: Character) -> DieCode | None:
    """The character's stamina skill code, None without one."""
    return (
        Skill.objects.filter(character=character, name__iexact="stamina")
        .values_list("code", flat=True)
        .first()
    )


# ---------------------------------------------------------------------------------------------
# Rolling from the sheet
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Trait:
    """Something on a sheet that can be rolled: an attribute or a skill."""

    key: str  # "attr:dexterity" or "skill:<id>"
    label: str
    code: DieCode
    roll_kind: str  # for the CP limit: skill, specialization, dodge, ...
    attribute: str


def trait_for(character: Character, key: str) -> Trait:
    """Look up a rollable trait of this character; ValueError with a message if unknown."""
    kind, _, rest = (key or "").partition(":")
    if kind == "attr":
        if rest not in ATTRIBUTES:
            raise ValueError(f"{rest!r} is not an attribute")
        return Trait(key, rest.capitalize(), character.attribute(rest), "attribute", rest)
    if kind == "skill" and rest.isdecimal():
        skill = Skill.objects.filter(character=character, pk=int(rest)).first()
        if skill is None:
            raise ValueError("this character has no such skill")
        if skill.kind == Skill.Kind.SPECIALIZATION:
            roll_kind = "specialization"
        else:
            roll_kind = reaction_roll_kind(skill.name) or "skill"
        return Trait(key, skill.name, skill.code, roll_kind, skill.attribute)
    raise ValueError("choose an attribute or a skill of this character to roll")


def cp_limit(trait: Trait, ruleset: RuleSet) -> int | None:
    return max_cp_per_roll(trait.roll_kind, ruleset=ruleset)


def check_roll_inputs(actions: int, modifier: int, difficulty: int | None) -> None:
    """The bounds every roll form shares; ValueError (with a reason) outside them."""
    if not 1 <= actions <= 10:
        raise ValueError("number of actions must be between 1 and 10")
    if not -100 <= modifier <= 100:
        raise ValueError("modifier must be between -100 and +100")
    if difficulty is not None and not 1 <= difficulty <= 200:
        raise ValueError("difficulty must be between 1 and 200")


def roll_and_record(
    locked: Character,
    actor,
    code: DieCode,
    *,
    label: str,
    ruleset: RuleSet,
    roll_kind: str = "skill",
    attribute: str = "",
    actions: int = 1,
    modifier: int = 0,
    cp: int = 0,
    force_point: bool = False,
    difficulty: int | None = None,
    hidden: bool | None = None,
    rng: DiceSource | None = None,
    details: dict | None = None,
    spent_on: str = "",
) -> DiceRoll:
    """The one roll every page makes for a character: check he can act and can spend the
    Character Points and Force Point asked for, roll ``code`` with his wound penalty, store the
    roll with ``details`` beside the dice, and debit the points. Call it inside a transaction,
    with ``locked`` locked (``select_for_update``). ValueError (with a reason) for a roll that
    is not allowed; the caller's transaction then rolls back. ``attribute`` "dexterity": an
    immobile character ([RC] stuns) cannot make it (nor any Dexterity skill)."""
    now = condition(locked, ruleset=ruleset, stamina=stamina_of(locked))
    if now.cannot_act:
        raise ValueError(f"{locked.name} is {now.cannot_act} and cannot act")
    if now.stuns.immobile and attribute == "dexterity":
        raise ValueError(f"{locked.name} is immobile from stuns and cannot take Dexterity actions")
    try:
        check_cp_spend(roll_kind, cp, ruleset=ruleset, force_point_this_round=force_point)
    except AdvancementError as exc:
        raise ValueError(str(exc)) from None
    if cp > locked.character_points:
        raise ValueError(
            f"not enough Character Points: {cp} needed, {locked.character_points} held"
        )
    if force_point and locked.force_points < 1:
        raise ValueError("no Force Point left to spend")
    penalty = now.penalty_dice
    rollable_pool(
        code, actions=actions, penalty_dice=penalty, force_point=force_point, ruleset=ruleset
    )
    result = roll_dice(
        code,
        ruleset=ruleset,
        rng=rng or SystemDice(),
        actions=actions,
        penalty_dice=penalty,
        modifier=modifier,
        cp_dice=cp,
        force_point=force_point,
    )
    record = DiceRoll.objects.create(
        campaign_id=locked.campaign_id,
        character=locked,
        actor=actor,
        label=label,
        code=str(code),
        pool=str(result.pool),
        dice={
            **result.to_json(),
            "actions": actions,
            "wound_penalty": penalty,
            **(details or {}),
        },
        total=result.total,
        difficulty=difficulty,
        cp_spent=cp,
        force_point=force_point,
        hidden=(locked.is_npc and locked.secret) if hidden is None else hidden,
    )
    live.bump(locked.campaign_id, public=not record.hidden)
    spent_on = spent_on or label
    if cp:
        change_balance(locked, Currency.CP, -cp, f"Spent on {spent_on} roll", actor, record)
    if force_point:
        change_balance(locked, Currency.FP, -1, f"Force Point on {spent_on} roll", actor, record)
    return record


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
    spent, all in one transaction (:func:`roll_and_record`). Raises ValueError (with a reason)
    and changes nothing when the roll is not allowed. ``hidden`` unset: a secret NPC's roll is
    hidden, any other is not."""
    check_roll_inputs(actions, modifier, difficulty)
    note = (note or "").strip()
    if "\x00" in note:
        raise ValueError("the note cannot contain NUL characters")
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=character.pk)
        trait = trait_for(locked, trait_key)
        # The label must fit its column: the note gives way (with an ellipsis), never the name.
        room = DiceRoll._meta.get_field("label").max_length - len(f"{trait.label} ()")
        if len(note) > room:
            note = note[: room - 1].rstrip() + "…" if room > 1 else ""
        record = roll_and_record(
            locked,
            actor,
            trait.code,
            label=f"{trait.label} ({note})" if note else trait.label,
            ruleset=ruleset,
            roll_kind=trait.roll_kind,
            attribute=trait.attribute,
            actions=actions,
            modifier=modifier,
            cp=cp,
            force_point=force_point,
            difficulty=difficulty,
            hidden=hidden,
            rng=rng,
            details={"trait": trait.key},
            spent_on=trait.label,
        )
        # Used in the running adventure, if one runs (one query; the import: a cycle).
        from characters.advancement import record_use

        record_use(locked, trait.attribute if trait.key.startswith("attr:") else trait.label)
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
            codes = skills_after_attribute_raise(codes, advanced, ruleset=ruleset)
        changed = [s for s in skills if codes[s.name] != s.code]
        moves = [f"{s.name} {s.code} → {codes[s.name]}" for s in changed]
        for s in changed:
            s.code = codes[s.name]
        Skill.objects.bulk_update(changed, ["code"])
        if moves:
            lines.append(f"{label} rose, and its skills with it (House Rules): {', '.join(moves)}.")
    return lines
