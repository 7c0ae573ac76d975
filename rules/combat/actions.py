"""Actions in a round: the multiple-action penalty, declared actions, combined actions,
initiative and the order of actions, surprise (combat.md §1, §2.1, §7, §9.1; dice-and-core.md
§7–§8).

The multiple-action penalty has one home, :func:`rules.dice.multiple_action_penalty`, which the
sheet's rolls use too; it is re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self

from rules.dice import DieCode, multiple_action_penalty
from rules.errors import RulesError
from rules.injuries import WoundLevel, wound_penalty
from rules.ruleset import RuleSet

__all__ = [
    "ActionCount",
    "Actor",
    "CombatError",
    "InitiativeCandidate",
    "action_order",
    "combined_action_bonus",
    "initiative_pool",
    "initiative_roller",
    "initiative_winner",
    "max_combining",
    "multiple_action_penalty",
    "rc_combined_code",
    "rc_declaration_order",
    "split_combined_bonus",
    "surprised_targets",
]


class CombatError(RulesError):
    """A combat question that cannot be answered as asked."""


def _fields(
    data: Any, what: str, *, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> Mapping[str, Any]:
    """Check a stored dict's keys: every required one present, nothing unknown."""
    if not isinstance(data, Mapping):
        raise CombatError(f"{what} is stored as an object, not {type(data).__name__}")
    missing = [k for k in required if k not in data]
    unknown = sorted(str(k) for k in data if k not in required + optional)
    if missing or unknown:
        raise CombatError(f"{what}: missing {missing or 'nothing'}, unknown {unknown or 'nothing'}")
    return data


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CombatError(f"{what} must be a whole number, not {value!r}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise CombatError(f"{what} is true or false, not {value!r}")
    return value


def _wound(value: Any) -> WoundLevel:
    try:
        return WoundLevel(value)
    except ValueError:
        raise CombatError(f"unknown wound level {value!r}") from None


def _code(value: Any, what: str) -> DieCode:
    if isinstance(value, DieCode):
        return value
    if not isinstance(value, str):
        raise CombatError(f"{what} is a die code such as '2D+1', not {value!r}")
    return DieCode.parse(value)


# ---------------------------------------------------------------------------------------------
# Multiple actions (dice-and-core.md §7, combat.md §1.3, §2.1)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ActionCount:
    """A character's declared actions this round: the declared number, reactions added as
    extra actions, how many declared actions he has taken, [RC] free (surprise haste) actions,
    and whether he fires full auto ([HOUSE §13]: -1D more on everything that round). The
    penalty never goes down (CA-9)."""

    declared: int
    extra: int = 0
    used: int = 0
    free: int = 0
    full_auto: bool = False

    def __post_init__(self) -> None:
        for name in ("declared", "extra", "used", "free"):
            _int(getattr(self, name), f"{name} actions")
        _bool(self.full_auto, "full_auto")
        if self.declared < 1 or self.extra < 0 or not 0 <= self.used <= self.declared:
            raise CombatError("declare at least one action; used actions cannot exceed declared")
        if not 0 <= self.free <= self.declared + self.extra:
            raise CombatError("free actions must be between 0 and the number of actions")

    @property
    def total(self) -> int:
        return self.declared + self.extra

    @property
    def remaining(self) -> int:
        return self.declared - self.used

    def penalty_dice(self, *, ruleset: RuleSet) -> int:
        """Dice off every skill and attribute roll this round
        (:func:`~rules.dice.multiple_action_penalty`)."""
        return multiple_action_penalty(
            self.total, free_actions=self.free, full_auto=self.full_auto, ruleset=ruleset
        )

    def _with(self, *, extra: int | None = None, used: int | None = None) -> ActionCount:
        return ActionCount(
            self.declared,
            self.extra if extra is None else extra,
            self.used if used is None else used,
            self.free,
            self.full_auto,
        )

    def take(self) -> ActionCount:
        """Take the next declared action."""
        if not self.remaining:
            raise CombatError("no declared actions are left this round")
        return self._with(used=self.used + 1)

    def react(self, *, use_declared: bool) -> ActionCount:
        """A reaction: spend a remaining declared action, or add an extra action that raises
        the penalty for the rest of the round [UPG] [WIKI]."""
        if use_declared:
            return self.take()
        return self._with(extra=self.extra + 1)

    def lose_remaining(self) -> ActionCount:
        """Wounded: declared actions not yet taken are lost; the penalty stays (CA-9)."""
        return self._with(used=self.declared)

    def to_json(self) -> dict[str, Any]:
        return {
            "declared": self.declared,
            "extra": self.extra,
            "used": self.used,
            "free": self.free,
            "full_auto": self.full_auto,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        fields = _fields(
            data,
            "declared actions",
            required=("declared",),
            optional=("extra", "used", "free", "full_auto"),
        )
        return cls(
            fields["declared"],
            fields.get("extra", 0),
            fields.get("used", 0),
            fields.get("free", 0),
            fields.get("full_auto", False),
        )


# ---------------------------------------------------------------------------------------------
# Combined actions (dice-and-core.md §8)
# ---------------------------------------------------------------------------------------------
def combined_action_bonus(
    combining: int,
    command_margin: int = 0,
    *,
    ruleset: RuleSet,
    supporter_codes: Sequence[DieCode | str] | None = None,
    actions: int = 1,
    limit: int | None = None,
) -> DieCode:
    """The bonus a combined action gives the character who rolls.

    ``command`` ([UPG] [WIKI] [HOUSE §17]): +1D per three characters combining and +1 per extra
    one (one pip each); a failed command roll (``command_margin`` < 0) takes 1D off the bonus
    per point missed, never below 0D. ``rc_support`` ([RC]): ``combining`` counts the lead and
    ``supporter_codes`` are the others' codes; each supporter adds one pip per full die of his
    code after his multiple-action penalty (``actions`` declared); above ``limit``
    participants the bonus is lost and 3 pips come off per extra character. RC bonuses keep
    their pips (3D+6 is rolled as it stands)."""
    if combining < 0:
        raise CombatError("the number of characters combining cannot be negative")
    if ruleset.combined_actions == "command":
        pips = combining
        if command_margin < 0:
            pips = max(0, pips + 3 * command_margin)
        return DieCode.from_pips(pips)
    if supporter_codes is None:
        raise CombatError("Rules Companion combined actions need the supporters' die codes")
    if len(supporter_codes) != combining - 1:
        raise CombatError("give one die code for every supporter (everyone combining but the lead)")
    if limit is not None and combining > limit:
        return DieCode(0, -3 * (combining - limit))
    penalty = multiple_action_penalty(actions, ruleset=ruleset)
    return DieCode(0, sum(DieCode.parse(c).minus_dice(penalty).dice for c in supporter_codes))


def rc_combined_code(
    lead_code: DieCode | str,
    supporter_codes: Sequence[DieCode | str],
    *,
    actions: int = 1,
    limit: int | None = None,
) -> DieCode:
    """[RC] the lead's code, cut by his multiple-action penalty, plus the support pips
    (three troopers at 3D: 3D+6; two combined shots each: 2D+4)."""
    rc = RuleSet(combined_actions="rc_support")
    bonus = combined_action_bonus(
        len(supporter_codes) + 1,
        ruleset=rc,
        supporter_codes=supporter_codes,
        actions=actions,
        limit=limit,
    )
    penalty = multiple_action_penalty(actions, ruleset=rc)
    return DieCode.parse(lead_code).minus_dice(penalty).pool_add(bonus)


def max_combining(code: DieCode | str, *, actions: int = 1, ruleset: RuleSet) -> int:
    """How many characters may combine. 2E: as many as the leader has command dice (8D+2 → 8;
    the GM may allow more). [RC]: the coordinator's command dice (combined fire) or the highest
    skill dice among the participants (work under time pressure), after his own multiple-action
    penalty (command 4D while also firing → 3)."""
    code = DieCode.parse(code)
    if ruleset.combined_actions == "command":
        return code.dice
    return code.minus_dice(multiple_action_penalty(actions, ruleset=ruleset)).dice


def split_combined_bonus(bonus: DieCode | str, to_attack: DieCode | str) -> tuple[DieCode, DieCode]:
    """[UPG] [WIKI] split a combat bonus between the attack and the damage roll:
    +2D+2 with 1D to the attack → (+1D, +1D+2)."""
    bonus, to_attack = DieCode.parse(bonus), DieCode.parse(to_attack)
    if not 0 <= to_attack.total_pips <= bonus.total_pips:
        raise CombatError(f"the attack can take between +0 and all of {bonus.signed()}")
    return to_attack, bonus - to_attack


# ---------------------------------------------------------------------------------------------
# Initiative, order of actions, surprise (combat.md §1, §7, §9.1)
# ---------------------------------------------------------------------------------------------
def initiative_pool(
    perception: DieCode | str,
    *,
    wound: WoundLevel = WoundLevel.none,
    stun_dice: int = 0,
    slowed_down: bool = False,
    cp_dice: int = 0,
    ruleset: RuleSet,
) -> DieCode:
    """The initiative roll: Perception less wound and stun dice ([WIKI]; not an action, so no
    multiple-action penalty), -1D more for the [HOUSE] critical "Slowed Down". No Character
    Points may be spent on it [WIKI]."""
    if cp_dice:
        raise CombatError("Character Points cannot be spent on the initiative roll")
    extra = wound_penalty(wound, ruleset=ruleset) + stun_dice + (1 if slowed_down else 0)
    return DieCode.parse(perception).minus_dice(extra)


InitiativeCandidate = (
    tuple[str, DieCode | str, WoundLevel] | tuple[str, DieCode | str, WoundLevel, int, bool]
)
"""A side's member for :func:`initiative_roller`: (name, Perception, wound level), or with his
stun dice this round and whether he is [HOUSE] Slowed Down as well."""


def initiative_roller(side: Iterable[InitiativeCandidate], *, ruleset: RuleSet) -> str:
    """Who rolls for a side: the highest Perception, printed or effective
    (``initiative_roller``, CA-4: the pool :func:`initiative_pool` gives him, less his wound
    and stun dice and the [HOUSE] Slowed Down die); ties go to the higher printed code, then
    the first listed."""
    members: list[tuple[str, DieCode, DieCode]] = []
    for m in side:
        if len(m) not in (3, 5):
            raise CombatError(
                "a side's member is (name, Perception, wound level), with stun dice and "
                "slowed down after them or not"
            )
        stun_dice, slowed = (m[3], m[4]) if len(m) == 5 else (0, False)
        if _int(stun_dice, "stun dice") < 0:
            raise CombatError("stun dice cannot be negative")
        _bool(slowed, "slowed_down")
        printed = DieCode.parse(m[1])
        effective = initiative_pool(
            printed, wound=_wound(m[2]), stun_dice=stun_dice, slowed_down=slowed, ruleset=ruleset
        )
        members.append((m[0], printed, effective))
    if not members:
        raise CombatError("a side needs at least one character")

    def key(m: tuple[str, DieCode, DieCode]) -> tuple[DieCode, ...]:
        if ruleset.initiative_roller == "highest_printed":
            return (m[1],)
        return (m[2], m[1])

    return max(members, key=key)[0]


def initiative_winner(roll_a: int, roll_b: int) -> Literal["a", "b"] | None:
    """The side whose roller rolled higher chooses to act first or last; a tie is re-rolled
    (None) [WIKI]."""
    if roll_a == roll_b:
        return None
    return "a" if roll_a > roll_b else "b"


@dataclass(frozen=True, slots=True)
class Actor:
    name: str
    perception: DieCode
    actions: int
    winded: bool = False


def action_order(
    first_side: Iterable[Actor], second_side: Iterable[Actor], *, whole_pose: bool = False
) -> list[tuple[str, int]]:
    """[UPG] the order of actions: every character's first action (the first side, then the
    second, each by Perception, highest first), then every second action, and so on;
    characters without more actions are skipped. [HOUSE] "Winded" characters go last in each
    pass. ``whole_pose``: each character takes all his actions at once (to replay the [WIKI])."""
    seq = [
        a
        for side in (first_side, second_side)
        for a in sorted(side, key=lambda a: a.perception, reverse=True)
    ]
    seq = [a for a in seq if not a.winded] + [a for a in seq if a.winded]
    if whole_pose:
        return [(a.name, n) for a in seq for n in range(1, a.actions + 1)]
    passes = max((a.actions for a in seq), default=0)
    return [(a.name, n) for n in range(1, passes + 1) for a in seq if a.actions >= n]


def rc_declaration_order(
    actors: Iterable[tuple[str, DieCode | str, bool]], segment: Literal[1, 2]
) -> list[str]:
    """[RC] segment 1: lowest Dexterity declares first; segment 2 (combat reactions): highest
    first. On a tie the NPC (``True``) declares first in both."""
    if segment not in (1, 2):
        raise CombatError("the Rules Companion declares in segment 1 or 2")
    sign = 1 if segment == 1 else -1
    ordered = sorted(
        actors, key=lambda a: (sign * DieCode.parse(a[1]).total_pips, 0 if a[2] else 1)
    )
    return [name for name, _, _ in ordered]


def surprised_targets(
    sneak_rolls: Mapping[str, int],
    search_rolls: Mapping[str, int],
    *,
    ruleset: RuleSet,
) -> frozenset[str]:
    """[WIKI] a target spots an ambusher by rolling equal to or higher than his sneak roll and
    is then not surprised. ``per_target``: the others are surprised; ``any_spotter_alerts_all``:
    nobody is once anyone spots one (CA-18)."""
    if not sneak_rolls:
        raise CombatError("an ambush needs at least one ambusher")
    lowest_sneak = min(sneak_rolls.values())
    unspotted = frozenset(t for t, roll in search_rolls.items() if roll < lowest_sneak)
    if ruleset.surprise_granularity == "any_spotter_alerts_all" and unspotted != set(search_rolls):
        return frozenset()
    return unspotted
