"""Improving between adventures: the one-pip limit, the attribute improvement roll, skills lifted
by an attribute, and a training in progress as a value a downtime job can store.

A :class:`Training` is started from an agreed :class:`ImprovementCost` with
:func:`start_training` and moved on by :func:`train` (``days`` of training at a time); when the
days are done the improvement lands, after the [UPG] attribute roll where the ruleset asks
for one. ``to_json``/``from_json`` store it between job steps."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, Self, cast

from rules.advancement.costs import AdvancementError, ImprovementCost, _mapping, _whole
from rules.dice import DiceSource, DieCode, DieCodeError, roll
from rules.ruleset import RuleSet

__all__ = [
    "AttributeRoll",
    "Training",
    "TrainingOutcome",
    "attribute_improvement_roll",
    "can_raise_this_downtime",
    "check_one_pip_per_adventure",
    "resolve_attribute_roll",
    "skills_after_attribute_raise",
    "start_training",
    "train",
]

_PIP_LIMITED = frozenset(
    {"skill", "specialization", "advanced", "advanced_specialization", "force_skill"}
)
_ONE_PIP: Final = DieCode(0, 1)


def can_raise_this_downtime(
    kind: str, pips_raised_since_last_adventure: int, *, ruleset: RuleSet
) -> bool:
    """[UPG] "A character can only improve a skill one pip between adventures" (001 l.19);
    applied to skills, specializations, advanced and Force skills, each separately (A-C7)."""
    if pips_raised_since_last_adventure < 0:
        raise AdvancementError("pips raised cannot be negative")
    if not ruleset.one_pip_per_skill_between_adventures or kind not in _PIP_LIMITED:
        return True
    return pips_raised_since_last_adventure == 0


def check_one_pip_per_adventure(
    kind: str, name: str, pips_raised_since_last_adventure: int, *, ruleset: RuleSet
) -> None:
    """Raise if ``name`` was already raised a pip since the last adventure."""
    if not can_raise_this_downtime(kind, pips_raised_since_last_adventure, ruleset=ruleset):
        raise AdvancementError(
            f"{name} was already raised a pip since the last adventure; "
            "a skill rises only one pip between adventures"
        )


@dataclass(frozen=True, slots=True)
class AttributeRoll:
    """The [UPG] attribute improvement roll: ``improved`` or ``refund`` CP back."""

    improved: bool
    refund: int
    character_roll: int | None = None
    gamemaster_roll: int | None = None


def resolve_attribute_roll(
    character_roll: int, gamemaster_roll: int, cp_spent: int
) -> AttributeRoll:
    """[UPG] 001 l.33: the attribute rises if the character's roll is equal to or less than the
    GM's; otherwise it stays and half the Character Points come back (exactly half, A-C6)."""
    if cp_spent < 0:
        raise AdvancementError("Character Points spent cannot be negative")
    improved = character_roll <= gamemaster_roll
    return AttributeRoll(
        improved, 0 if improved else cp_spent // 2, character_roll, gamemaster_roll
    )


def attribute_improvement_roll(
    new_code: DieCode | str,
    species_maximum: DieCode | str,
    cp_spent: int,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
) -> AttributeRoll:
    """Roll the new attribute code (character) against the species maximum (GM), both with the
    ruleset's Wild Die (A-C6); without ``attribute_improve_roll`` the raise simply succeeds."""
    if not ruleset.attribute_improve_roll:
        return AttributeRoll(True, 0)
    mine = roll(new_code, ruleset=ruleset, rng=rng).total
    gms = roll(species_maximum, ruleset=ruleset, rng=rng).total
    return resolve_attribute_roll(mine, gms, cp_spent)


def skills_after_attribute_raise(
    skills: Mapping[str, DieCode | str],
    advanced: Collection[str] = (),
    *,
    ruleset: RuleSet,
) -> dict[str, DieCode]:
    """The skills under an attribute after it rises a pip: [HOUSE] item 21 lifts every one
    except advanced skills (specializations included, A-C12); otherwise nothing changes."""
    lift = ruleset.attribute_raise_lifts_skills
    return {
        name: DieCode.parse(code) + (_ONE_PIP if lift and name not in advanced else DieCode())
        for name, code in skills.items()
    }


# ---------------------------------------------------------------------------------------------
# A training in progress
# ---------------------------------------------------------------------------------------------
TrainingOutcome = Literal["training", "improved", "not_improved"]
_OUTCOMES: Final = ("training", "improved", "not_improved")


@dataclass(frozen=True, slots=True)
class Training:
    """One improvement being trained: what (``trait``, e.g. ``"blaster"`` or ``"dexterity"``),
    at what agreed ``cost``, ``days_needed`` in all and ``days_done`` so far.

    ``outcome`` is ``"training"`` until the days are done, then ``"improved"`` or, when the
    [UPG] attribute roll failed, ``"not_improved"`` with ``refund`` Character Points back.
    ``species_maximum`` is the GM's code for that roll (attributes only)."""

    trait: str
    cost: ImprovementCost
    days_needed: int
    days_done: int = 0
    species_maximum: DieCode | None = None
    outcome: TrainingOutcome = "training"
    refund: int = 0
    attribute_roll: AttributeRoll | None = None

    @property
    def days_left(self) -> int:
        return max(0, self.days_needed - self.days_done)

    @property
    def finished(self) -> bool:
        return self.outcome != "training"

    def to_json(self) -> dict[str, Any]:
        roll_ = self.attribute_roll
        return {
            "trait": self.trait,
            "cost": self.cost.to_json(),
            "days_needed": self.days_needed,
            "days_done": self.days_done,
            "species_maximum": None if self.species_maximum is None else str(self.species_maximum),
            "outcome": self.outcome,
            "refund": self.refund,
            "attribute_roll": None
            if roll_ is None
            else {
                "improved": roll_.improved,
                "refund": roll_.refund,
                "character_roll": roll_.character_roll,
                "gamemaster_roll": roll_.gamemaster_roll,
            },
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        """The training :meth:`to_json` stored; :class:`AdvancementError` on anything else."""
        d = _mapping(data, "training")
        trait = d.get("trait")
        if not isinstance(trait, str) or not trait.strip():
            raise AdvancementError("stored training must name the trait being trained")
        outcome = d.get("outcome", "training")
        if outcome not in _OUTCOMES:
            raise AdvancementError(f"stored training outcome {outcome!r} is not one of {_OUTCOMES}")
        maximum = d.get("species_maximum")
        if maximum is not None and not isinstance(maximum, str):
            raise AdvancementError("stored species maximum must be a die code")
        try:
            species_maximum = None if maximum is None else DieCode.parse(maximum)
        except DieCodeError as exc:
            raise AdvancementError(f"stored species maximum: {exc}") from None
        return cls(
            trait=trait,
            cost=ImprovementCost.from_json(d.get("cost")),
            days_needed=_whole(d.get("days_needed"), "days_needed"),
            days_done=_whole(d.get("days_done", 0), "days_done"),
            species_maximum=species_maximum,
            outcome=cast(TrainingOutcome, outcome),
            refund=_whole(d.get("refund", 0), "refund"),
            attribute_roll=_attribute_roll_from_json(d.get("attribute_roll")),
        )


def _attribute_roll_from_json(data: object) -> AttributeRoll | None:
    if data is None:
        return None
    d = _mapping(data, "attribute roll")
    improved = d.get("improved")
    if not isinstance(improved, bool):
        raise AdvancementError("stored attribute roll must say whether it improved")
    rolls = [d.get("character_roll"), d.get("gamemaster_roll")]
    if not all(r is None or (isinstance(r, int) and not isinstance(r, bool)) for r in rolls):
        raise AdvancementError("stored attribute roll totals must be whole numbers or null")
    return AttributeRoll(
        improved,
        _whole(d.get("refund", 0), "refund"),
        cast(int | None, rolls[0]),
        cast(int | None, rolls[1]),
    )


def start_training(
    trait: str,
    cost: ImprovementCost,
    *,
    days: int | None = None,
    species_maximum: DieCode | str | None = None,
) -> Training:
    """Begin training ``trait`` at the agreed ``cost``. ``days`` is needed only when the ruleset
    leaves the time to the GM (``cost.training_days`` is None); ``species_maximum`` only for an
    attribute that must pass the [UPG] improvement roll."""
    if not trait.strip():
        raise AdvancementError("name the skill or attribute to train")
    needed = cost.training_days if days is None else days
    if needed is None:
        raise AdvancementError(
            f"the rules set no training time for {trait}; the gamemaster gives the days"
        )
    if isinstance(needed, bool) or not isinstance(needed, int) or needed < 0:
        raise AdvancementError("training days must be a whole number, 0 or more")
    maximum = None if species_maximum is None else DieCode.parse(species_maximum)
    if cost.attribute_roll and maximum is None:
        raise AdvancementError(
            f"raising {trait} ends with a roll against the species maximum; give that code"
        )
    return Training(trait.strip(), cost, needed, species_maximum=maximum)


def train(
    training: Training, days: int, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[Training, tuple[str, ...]]:
    """``days`` more days of training: the new state and what happened, in words. When the
    last day is done the improvement lands, or the [UPG] attribute roll decides (half the
    points back on a failure)."""
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise AdvancementError("days of training must be a whole number, 0 or more")
    if training.finished:
        raise AdvancementError(f"the training in {training.trait} is already over")
    done = min(training.days_needed, training.days_done + days)
    state = replace(training, days_done=done)
    events = [f"{training.trait}: {done} of {training.days_needed} days trained"]
    if done < training.days_needed:
        return state, tuple(events)
    new = training.cost.new
    if training.cost.attribute_roll and isinstance(new, DieCode):
        assert training.species_maximum is not None  # start_training asks for it
        result = attribute_improvement_roll(
            new,
            training.species_maximum,
            training.cost.character_points,
            ruleset=ruleset,
            rng=rng,
        )
        if not result.improved:
            events.append(
                f"{training.trait} stays: the roll {result.character_roll} is above the "
                f"gamemaster's {result.gamemaster_roll}; {result.refund} CP come back"
            )
            finished = replace(
                state, outcome="not_improved", refund=result.refund, attribute_roll=result
            )
            return finished, tuple(events)
        state = replace(state, attribute_roll=result)
    events.append(
        f"{training.trait}: training complete"
        if new is None
        else f"{training.trait} rises to {new}"
    )
    return replace(state, outcome="improved"), tuple(events)
