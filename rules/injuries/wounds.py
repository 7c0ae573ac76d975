"""The wound ladder, the effects of each level, stun, and the wound state a character carries
(injuries-and-healing.md §2–§4).

A character's injuries are a :class:`WoundState`: a level on the campaign's wound ladder
(:func:`wound_ladder`; the [RC] ladder has no "wounded twice") and the expiring :class:`Stun`
values he has taken. Stun is a separate track: a ``stunned`` damage result never changes the
wound level. The app stores a :class:`WoundState` (``to_json``/``from_json``) and asks
:func:`injury_penalty_dice` and :func:`can_act` / :func:`cannot_act_reason` for the rules.

Time in a fight is counted in combat rounds (12 a minute, :data:`rules.time.ROUNDS_PER_MINUTE`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, Self, get_args

from rules.dice import DiceSource, DieCode
from rules.errors import RulesError
from rules.ruleset import RuleSet
from rules.time import ROUNDS_PER_MINUTE

__all__ = [
    "STUN_AFFECTS_ROUNDS",
    "Duration",
    "InjuryError",
    "Stun",
    "StunState",
    "WoundEffects",
    "WoundLevel",
    "WoundState",
    "apply_wound",
    "can_act",
    "cannot_act_reason",
    "expire_stuns",
    "injury_penalty_dice",
    "parse_wound_level",
    "stun_penalty",
    "stun_state",
    "stuns_affecting",
    "take_result",
    "worsen",
    "wound_effects",
    "wound_ladder",
    "wound_penalty",
]

STUN_AFFECTS_ROUNDS = 30 * ROUNDS_PER_MINUTE
"""[HOUSE §2, §3 = 2E text] a stun keeps "affecting" a character for 30 minutes."""


class InjuryError(RulesError):
    """An injury or healing question that cannot be answered as asked."""


# ---------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------
class WoundLevel(StrEnum):
    """A damage-chart result and, without ``stunned``, a character's place on the wound track.

    ``str()`` and ``.name`` are the same lowercase word. Stun is a separate track: a
    ``stunned`` result never changes a character's wound level (injuries-and-healing.md §2.1).
    """

    none = "none"
    stunned = "stunned"
    wounded = "wounded"
    wounded_twice = "wounded_twice"
    incapacitated = "incapacitated"
    mortally_wounded = "mortally_wounded"
    killed = "killed"

    @property
    def rank(self) -> int:
        """Severity, 0 (none) to 6 (killed); ``stunned`` sits between none and wounded."""
        return _RANK[self]

    @property
    def label(self) -> str:
        """The game's words: ``Mortally wounded``."""
        return self.value.replace("_", " ").capitalize()

    @property
    def on_wound_track(self) -> bool:
        """True for the levels a character can be at (everything but ``stunned``)."""
        return self is not WoundLevel.stunned


_RANK = {level: i for i, level in enumerate(WoundLevel)}
W = WoundLevel  # short alias used in the tables below

Unit = Literal["rounds", "minutes", "hours", "days"]


@dataclass(frozen=True, slots=True)
class Duration:
    """A length of time rolled on plain dice, such as ``2D minutes`` or ``10D minutes``."""

    dice: int
    unit: Unit

    def __post_init__(self) -> None:
        if isinstance(self.dice, bool) or not isinstance(self.dice, int) or self.dice < 1:
            raise InjuryError("a rolled duration needs at least 1D")
        if self.unit not in get_args(Unit):
            raise InjuryError(f"a duration is counted in {', '.join(get_args(Unit))}")

    def __str__(self) -> str:
        return f"{self.dice}D {self.unit}"

    def roll(self, *, rng: DiceSource) -> int:
        """The length in ``unit``: the sum of ``dice`` plain dice (a GM roll, no Wild Die)."""
        return sum(rng.d6() for _ in range(self.dice))

    def roll_rounds(self, *, rng: DiceSource) -> int:
        """The length in combat rounds (12 a minute); only for rounds and minutes."""
        amount = self.roll(rng=rng)
        if self.unit == "rounds":
            return amount
        if self.unit == "minutes":
            return amount * ROUNDS_PER_MINUTE
        raise InjuryError(f"{self} is too long to count in combat rounds")

    def to_json(self) -> dict[str, Any]:
        return {"dice": self.dice, "unit": self.unit}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        fields = _fields(data, "a duration", required=("dice", "unit"))
        return cls(fields["dice"], fields["unit"])


def _fields(
    data: Any, what: str, *, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> Mapping[str, Any]:
    """Check a stored dict's keys: every required one present, nothing unknown."""
    if not isinstance(data, Mapping):
        raise InjuryError(f"{what} is stored as an object, not {type(data).__name__}")
    missing = [k for k in required if k not in data]
    unknown = sorted(str(k) for k in data if k not in required + optional)
    if missing or unknown:
        raise InjuryError(f"{what}: missing {missing or 'nothing'}, unknown {unknown or 'nothing'}")
    return data


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InjuryError(f"{what} must be a whole number, not {value!r}")
    return value


def _level(value: Any) -> WoundLevel:
    try:
        return WoundLevel(value)
    except ValueError:
        names = ", ".join(level.value for level in WoundLevel)
        raise InjuryError(f"unknown wound level {value!r}; choose one of {names}") from None


# ---------------------------------------------------------------------------------------------
# The wound ladder (§2)
# ---------------------------------------------------------------------------------------------
def _check_track(level: WoundLevel, ruleset: RuleSet, what: str) -> None:
    if level is W.wounded_twice and not ruleset.wounded_twice_level:
        raise InjuryError(f"{what}: this campaign's wound ladder has no 'wounded twice' level")


def wound_ladder(*, ruleset: RuleSet) -> tuple[WoundLevel, ...]:
    """The levels a character can be at, healthy to killed, in this campaign: none, wounded,
    wounded twice, incapacitated, mortally wounded, killed ([UPG] [HOUSE]); the [RC] ladder
    (``wounded_twice_level`` off) has no wounded twice. ``stunned`` is never on it: stuns are
    kept as :class:`Stun` values in a :class:`WoundState`."""
    return tuple(
        lvl
        for lvl in WoundLevel
        if lvl.on_wound_track and (ruleset.wounded_twice_level or lvl is not W.wounded_twice)
    )


def parse_wound_level(value: WoundLevel | str, *, ruleset: RuleSet) -> WoundLevel:
    """A level on this campaign's wound ladder, from a stored or typed value (``"wounded"``);
    refuses ``stunned`` (not a wound level) and, on the [RC] ladder, ``wounded_twice``."""
    level = _level(value)
    if not level.on_wound_track:
        raise InjuryError("'stunned' is not a wound level; a stunned character is at 'none'")
    _check_track(level, ruleset, "wound level")
    return level


def apply_wound(
    current_level: WoundLevel, new_result: WoundLevel, *, ruleset: RuleSet
) -> WoundLevel:
    """The wound level after a new damage result ([UPG] [HOUSE §3 = 2E text] [RC]).

    Wounded + wounded = wounded twice (the [RC] ladder: incapacitated); wounded twice + wounded
    = incapacitated; incapacitated + wounded or worse = mortally wounded; mortally wounded +
    incapacitated or worse = killed; otherwise the worse of the two (IH-2). A ``stunned`` or
    ``none`` result leaves the level as it is (stuns are tracked with :func:`stun_state`)."""
    current_level, new_result = _level(current_level), _level(new_result)
    if not current_level.on_wound_track:
        raise InjuryError("'stunned' is not a wound level; a stunned character is at 'none'")
    _check_track(current_level, ruleset, "current level")
    _check_track(new_result, ruleset, "new result")
    if new_result in (W.none, W.stunned):
        return current_level
    if W.killed in (current_level, new_result):
        return W.killed
    if current_level is W.mortally_wounded and new_result.rank >= W.incapacitated.rank:
        return W.killed
    if current_level is W.incapacitated:
        return max(W.mortally_wounded, new_result, key=_RANK.__getitem__)
    if current_level is W.wounded_twice and new_result is W.wounded:
        return W.incapacitated
    if current_level is W.wounded and new_result is W.wounded:
        return W.wounded_twice if ruleset.wounded_twice_level else W.incapacitated
    return max(current_level, new_result, key=_RANK.__getitem__)


def worsen(level: WoundLevel, steps: int, *, ruleset: RuleSet) -> WoundLevel:
    """``steps`` levels down the wound track (wounded twice is skipped on the [RC] ladder);
    past mortally wounded is killed. Used by the bacta "+2 levels" failure (IH-30)."""
    ladder = wound_ladder(ruleset=ruleset)
    level = _level(level)
    if not level.on_wound_track:
        raise InjuryError("'stunned' is not a wound level")
    _check_track(level, ruleset, "level")
    return ladder[min(len(ladder) - 1, ladder.index(level) + steps)]


# ---------------------------------------------------------------------------------------------
# Effects of each level (§3)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WoundEffects:
    """What a level does: dice off every skill and attribute roll, and what happens this round."""

    level: WoundLevel
    penalty_dice: int
    falls_prone: bool = False
    knockback_m: tuple[int, int] | None = None
    loses_rest_of_round: bool = False
    loses_next_round: bool = False
    can_act: bool = True
    conscious: bool = True
    unconscious_for: Duration | None = None
    death_rolls: bool = False


def wound_penalty(level: WoundLevel, *, ruleset: RuleSet) -> int:
    """Dice off every skill and attribute roll (not off Strength to resist damage [WIKI]):
    stunned 1 (this round and the next), wounded 1, wounded twice 2 [UPG], none for the rest
    (from incapacitated on the character cannot act at all)."""
    return wound_effects(level, ruleset=ruleset).penalty_dice


def wound_effects(level: WoundLevel, *, ruleset: RuleSet) -> WoundEffects:
    """The effects of a wound level: 2E text ([WIKI] [UPG] [HOUSE §3]) or, with
    ``wound_effects = "house"``, the House list ([HOUSE §2]: knock-back, and a second wound
    also costs the next round; IH-8)."""
    level = _level(level)
    if level is not W.stunned:
        _check_track(level, ruleset, "level")
    house = ruleset.wound_effects == "house"
    match level:
        case W.none:
            return WoundEffects(level, 0)
        case W.stunned:
            return WoundEffects(level, 1)
        case W.wounded if house:
            return WoundEffects(level, 1, knockback_m=(1, 1), loses_rest_of_round=True)
        case W.wounded:
            return WoundEffects(level, 1, falls_prone=True, loses_rest_of_round=True)
        case W.wounded_twice:
            return WoundEffects(
                level, 2, falls_prone=True, loses_rest_of_round=True, loses_next_round=house
            )
        case W.incapacitated:
            return WoundEffects(
                level,
                0,
                falls_prone=True,
                knockback_m=(1, 3) if house else None,
                unconscious_for=Duration(10, "minutes"),
                can_act=False,
                conscious=False,
                loses_rest_of_round=True,
            )
        case W.mortally_wounded:
            return WoundEffects(
                level,
                0,
                falls_prone=True,
                knockback_m=(1, 3) if house else None,
                death_rolls=True,
                can_act=False,
                conscious=False,
                loses_rest_of_round=True,
            )
    return WoundEffects(  # killed
        level, 0, falls_prone=True, can_act=False, conscious=False, loses_rest_of_round=True
    )


# ---------------------------------------------------------------------------------------------
# Stun (§4)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Stun:
    """One stun result taken in combat round ``round``: 1 point in 2E, 1 or 2 in [RC]."""

    round: int
    points: int = 1

    def __post_init__(self) -> None:
        _int(self.round, "a stun's round")
        if _int(self.points, "a stun's points") < 1:
            raise InjuryError("a stun is at least one point")

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "points": self.points}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        fields = _fields(data, "a stun", required=("round",), optional=("points",))
        return cls(fields["round"], fields.get("points", 1))


@dataclass(frozen=True, slots=True)
class StunState:
    """What a character's stuns do to him now (:func:`stun_state`)."""

    penalty_dice: int
    """Dice off every action this round (never off Strength to resist damage)."""
    affecting: int
    """2E: stuns still "affecting" (30 minutes); [RC]: active stun points."""
    knocked_out: bool
    immobile: bool = False
    """[RC] only: no Dexterity actions."""
    knockout_for: Duration | None = None

    def __post_init__(self) -> None:
        if _int(self.penalty_dice, "stun penalty dice") < 0 or _int(self.affecting, "stuns") < 0:
            raise InjuryError("stun counts cannot be negative")
        for name in ("knocked_out", "immobile"):
            if not isinstance(getattr(self, name), bool):
                raise InjuryError(f"a stun state's {name} is true or false")
        if self.knockout_for is not None and not isinstance(self.knockout_for, Duration):
            raise InjuryError("a stun state's knock-out length is a Duration")

    def to_json(self) -> dict[str, Any]:
        return {
            "penalty_dice": self.penalty_dice,
            "affecting": self.affecting,
            "knocked_out": self.knocked_out,
            "immobile": self.immobile,
            "knockout_for": self.knockout_for.to_json() if self.knockout_for else None,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        fields = _fields(
            data,
            "a stun state",
            required=("penalty_dice", "affecting", "knocked_out"),
            optional=("immobile", "knockout_for"),
        )
        knockout = fields.get("knockout_for")
        return cls(
            fields["penalty_dice"],
            fields["affecting"],
            fields["knocked_out"],
            fields.get("immobile", False),
            Duration.from_json(knockout) if knockout is not None else None,
        )


def stun_penalty(stuns: Iterable[Stun], now_round: int) -> int:
    """Dice off actions: each stun counts for the round it was taken and the next one
    ([HOUSE §2, §3 = 2E text], [RC]); several stuns add up (IH-3)."""
    return sum(s.points for s in stuns if s.round <= now_round <= s.round + 1)


def stuns_affecting(
    stuns: Iterable[Stun], now_round: int, *, rested_through: int | None = None
) -> int:
    """2E: stuns still "affecting" the character: taken in the last 30 minutes and not cleared
    by a one-minute rest. ``rested_through``: the round in which a full minute (12 rounds) of
    rest ended; stuns taken before it no longer count (IH-4)."""
    return sum(
        s.points
        for s in stuns
        if s.round <= now_round < s.round + STUN_AFFECTS_ROUNDS
        and (rested_through is None or s.round > rested_through)
    )


def stun_state(
    stuns: Iterable[Stun],
    now_round: int,
    *,
    strength: DieCode | str,
    dexterity: DieCode | str | None = None,
    stamina: DieCode | str | None = None,
    rested_through: int | None = None,
    ruleset: RuleSet,
) -> StunState:
    """Penalty and knock-out from stuns.

    2E ([HOUSE §2, §3 = 2E text]): unconscious for 2D minutes once the stuns affecting him reach
    the dice of his Strength (3D+2 → 3). [RC] (``stun_knockout = "rc_dex_stamina"``): immobile
    while the stun points taken this round reach his Dexterity dice; unconscious once the active
    stun points reach his stamina dice, or Strength dice without stamina (IH-6; 2D minutes)."""
    stuns = tuple(stuns)
    penalty = stun_penalty(stuns, now_round)
    if ruleset.stun_knockout == "rc_dex_stamina":
        this_round = sum(s.points for s in stuns if s.round == now_round)
        immobile = dexterity is not None and this_round >= max(1, DieCode.parse(dexterity).dice)
        limit = DieCode.parse(stamina if stamina is not None else strength).dice
        out = penalty >= max(1, limit)
        return StunState(penalty, penalty, out, immobile, Duration(2, "minutes") if out else None)
    affecting = stuns_affecting(stuns, now_round, rested_through=rested_through)
    out = affecting >= max(1, DieCode.parse(strength).dice)
    return StunState(penalty, affecting, out, False, Duration(2, "minutes") if out else None)


# ---------------------------------------------------------------------------------------------
# The wound state a character carries
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WoundState:
    """A character's injuries between requests: his level on the wound ladder, the stuns he has
    taken (each with the round it was taken in) and the round in which his last one-minute rest
    ended (stuns taken before it no longer affect him, IH-4). Rounds are counted on one clock
    that the caller keeps (an encounter's round numbers)."""

    level: WoundLevel = WoundLevel.none
    stuns: tuple[Stun, ...] = field(default=())
    rested_through: int | None = None

    def __post_init__(self) -> None:
        level = _level(self.level)
        if not level.on_wound_track:
            raise InjuryError("'stunned' is not a wound level; keep stuns as Stun values")
        object.__setattr__(self, "level", level)
        if not isinstance(self.stuns, tuple) or not all(isinstance(s, Stun) for s in self.stuns):
            raise InjuryError("a wound state's stuns are a tuple of Stun values")
        if self.rested_through is not None:
            _int(self.rested_through, "the round a rest ended")

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level.value,
            "stuns": [s.to_json() for s in self.stuns],
            "rested_through": self.rested_through,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        fields = _fields(
            data, "a wound state", required=("level",), optional=("stuns", "rested_through")
        )
        stuns = fields.get("stuns", [])
        if not isinstance(stuns, list):
            raise InjuryError("a wound state's stuns are stored as a list")
        return cls(
            _level(fields["level"]),
            tuple(Stun.from_json(s) for s in stuns),
            fields.get("rested_through"),
        )


def take_result(
    state: WoundState,
    result: WoundLevel,
    *,
    now_round: int,
    stun_points: int = 1,
    ruleset: RuleSet,
) -> WoundState:
    """The state after a damage-chart result taken in round ``now_round``: ``stunned`` adds a
    :class:`Stun` of ``stun_points`` (2 for an [RC] "2 Stun"); a wound result moves the level
    by :func:`apply_wound`; ``none`` changes nothing. A stun on a character who is already out
    (incapacitated or worse) is logged by the caller and has no effect (IH-2)."""
    result = _level(result)
    _check_track(state.level, ruleset, "current level")
    if result is W.stunned:
        if not wound_effects(state.level, ruleset=ruleset).can_act:
            return state
        return WoundState(
            state.level, (*state.stuns, Stun(now_round, stun_points)), state.rested_through
        )
    level = apply_wound(state.level, result, ruleset=ruleset)
    return WoundState(level, state.stuns, state.rested_through)


def expire_stuns(state: WoundState, now_round: int, *, ruleset: RuleSet) -> WoundState:
    """The state without the stuns that can no longer matter at ``now_round``: in 2E those
    older than 30 minutes or cleared by a rest; in [RC] (active stun points count) those whose
    two rounds are over. Keeps the stored list short; answers stay the same."""
    if ruleset.stun_knockout == "rc_dex_stamina":
        kept = tuple(s for s in state.stuns if now_round <= s.round + 1)
    else:
        rested = state.rested_through
        kept = tuple(
            s
            for s in state.stuns
            if now_round < s.round + STUN_AFFECTS_ROUNDS and (rested is None or s.round > rested)
        )
    return WoundState(state.level, kept, state.rested_through)


def injury_penalty_dice(state: WoundState, *, now_round: int, ruleset: RuleSet) -> int:
    """Dice off every skill and attribute roll (not off Strength to resist damage) from wounds
    and stuns together at ``now_round``: the wound level's penalty (:func:`wound_penalty`:
    wounded 1D, wounded twice 2D) plus 1D for each stun point taken this round or the last
    (:func:`stun_penalty`). The multiple-action penalty is added by the roll itself."""
    return wound_penalty(state.level, ruleset=ruleset) + stun_penalty(state.stuns, now_round)


def cannot_act_reason(
    state: WoundState,
    *,
    now_round: int,
    strength: DieCode | str,
    stamina: DieCode | str | None = None,
    ruleset: RuleSet,
) -> str | None:
    """Why the character cannot act at ``now_round``, in the game's words, or None if he can:
    ``"incapacitated"``, ``"mortally wounded"``, ``"killed"`` (from incapacitated on he cannot
    act at all, §3) or ``"knocked out by stuns"`` (:func:`stun_state`: 2E stuns affecting him
    reach his Strength dice; [RC] active stun points reach his stamina or Strength dice)."""
    if not wound_effects(state.level, ruleset=ruleset).can_act:
        return state.level.label.lower()
    stunned = stun_state(
        state.stuns,
        now_round,
        strength=strength,
        stamina=stamina,
        rested_through=state.rested_through,
        ruleset=ruleset,
    )
    return "knocked out by stuns" if stunned.knocked_out else None


def can_act(
    state: WoundState,
    *,
    now_round: int,
    strength: DieCode | str,
    stamina: DieCode | str | None = None,
    ruleset: RuleSet,
) -> bool:
    """True when the character may act at ``now_round`` (:func:`cannot_act_reason` is None)."""
    reason = cannot_act_reason(
        state, now_round=now_round, strength=strength, stamina=stamina, ruleset=ruleset
    )
    return reason is None
