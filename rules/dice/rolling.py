"""Rolling a die code with the Wild Die, keeping every die, and the pool actually rolled.

:func:`roll` takes the campaign's ruleset and an injected random source and returns a
:class:`Roll` that keeps every die, so a stored roll can be shown, audited and read back
(:meth:`Roll.to_json`, :meth:`Roll.from_json`). :func:`effective_pool` and
:func:`rollable_pool` say what is rolled after a Force Point, bonuses, the multiple-action
penalty (:func:`multiple_action_penalty`, the rule's one home) and wound penalties.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rules.dice.codes import DieCode, DieCodeError
from rules.dice.sources import DiceError, DiceSource
from rules.ruleset import RuleSet

__all__ = [
    "MAX_EXPLOSIONS",
    "PoolTooSmallError",
    "Roll",
    "effective_pool",
    "explode",
    "multiple_action_penalty",
    "roll",
    "rollable_pool",
]

MAX_EXPLOSIONS = 100  # a chain of 100 sixes has probability 6^-100: a broken source, not luck


def explode(
    *, rng: DiceSource, offer_crit: Callable[[list[int]], bool] | None = None
) -> tuple[list[int], bool]:
    """One die rolled again and added on every 6 (the Wild Die, a Character Point die).

    Returns ``(chain, crit)``. ``offer_crit`` ([HOUSE] damage rolls) is asked on each 6; True
    keeps that 6 as a Critical Injury instead of re-rolling."""
    chain = [rng.d6()]
    while chain[-1] == 6 and len(chain) <= MAX_EXPLOSIONS:
        if offer_crit is not None and offer_crit(chain):
            return chain, True
        chain.append(rng.d6())
    return chain, False


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll with every die kept.

    ``normal`` are the ordinary dice, ``wild`` the Wild Die chain (first roll, then re-rolls
    after each 6), ``cp`` one chain per Character Point die. ``removed`` lists the dice taken
    out of the total by a Wild Die 1 (the 1 and the highest normal die)."""

    code: DieCode
    pool: DieCode
    normal: tuple[int, ...]
    wild: tuple[int, ...] = ()
    cp: tuple[tuple[int, ...], ...] = ()
    modifier: int = 0
    removed: tuple[int, ...] = ()
    complication: str | None = None
    house_table: int | None = None
    critical_injury: bool = False
    needs_gm_choice: bool = False
    force_point: bool = False
    total: int = 0
    notes: tuple[str, ...] = field(default=())

    @property
    def wild_one(self) -> bool:
        return bool(self.wild) and self.wild[0] == 1

    @property
    def exploded(self) -> bool:
        return len(self.wild) > 1

    @property
    def total_if_subtracted(self) -> int:
        """The total had the GM taken the Wild Die 1 and the highest die away."""
        if not self.wild_one or self.removed:
            return self.total
        return self.total - 1 - (max(self.normal) if self.normal else 0)

    def to_json(self) -> dict[str, object]:
        return {
            "code": str(self.code),
            "pool": str(self.pool),
            "normal": list(self.normal),
            "wild": list(self.wild),
            "cp": [list(c) for c in self.cp],
            "modifier": self.modifier,
            "removed": list(self.removed),
            "complication": self.complication,
            "house_table": self.house_table,
            "critical_injury": self.critical_injury,
            "needs_gm_choice": self.needs_gm_choice,
            "force_point": self.force_point,
            "total": self.total,
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: object) -> Roll:
        """The roll stored by :meth:`to_json`. Keys the app adds beside the roll's own
        (``"actions"``, ``"trait"``…) are ignored; a missing or damaged value, or a total that
        does not match the dice, raises :class:`DiceError` with the reason."""
        if not isinstance(data, dict):
            raise DiceError(f"a stored roll is a JSON object, not {type(data).__name__}")
        for key in ("code", "pool", "normal", "total"):
            if key not in data:
                raise DiceError(f"a stored roll has no {key!r}")
        try:
            code, pool = DieCode.parse(data["code"]), DieCode.parse(data["pool"])
        except DieCodeError as exc:
            raise DiceError(f"a stored roll's code or pool is damaged: {exc}") from None
        result = cls(
            code=code,
            pool=pool,
            normal=_faces(data["normal"], "normal"),
            wild=_faces(data.get("wild", []), "wild"),
            cp=_chains(data.get("cp", [])),
            modifier=_whole(data.get("modifier", 0), "modifier"),
            removed=_faces(data.get("removed", []), "removed"),
            complication=_text_or_none(data.get("complication"), "complication"),
            house_table=_face_or_none(data.get("house_table"), "house_table"),
            critical_injury=_flag(data.get("critical_injury", False), "critical_injury"),
            needs_gm_choice=_flag(data.get("needs_gm_choice", False), "needs_gm_choice"),
            force_point=_flag(data.get("force_point", False), "force_point"),
            total=_whole(data["total"], "total"),
            notes=_texts(data.get("notes", []), "notes"),
        )
        dice = sum(result.normal) + sum(result.wild) + sum(sum(c) for c in result.cp)
        counted = dice - sum(result.removed) + result.pool.pips + result.modifier
        if result.total != max(0, counted):
            raise DiceError(
                f"a stored roll's total {result.total} does not match its dice ({max(0, counted)})"
            )
        return result


def _whole(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DiceError(f"a stored roll's {key!r} must be a whole number, not {value!r}")
    return value


def _faces(value: object, key: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise DiceError(f"a stored roll's {key!r} must be a list of dice, not {value!r}")
    for face in value:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise DiceError(f"a stored roll's {key!r} holds {face!r}: a d6 shows 1 to 6")
    return tuple(value)


def _chains(value: object) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list) or not all(isinstance(c, list) for c in value):
        raise DiceError(f"a stored roll's 'cp' must be a list of lists of dice, not {value!r}")
    return tuple(_faces(chain, "cp") for chain in value)


def _face_or_none(value: object, key: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise DiceError(f"a stored roll's {key!r} must be a d6 face or null, not {value!r}")
    return value


def _flag(value: object, key: str) -> bool:
    if not isinstance(value, bool):
        raise DiceError(f"a stored roll's {key!r} must be true or false, not {value!r}")
    return value


def _text_or_none(value: object, key: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise DiceError(f"a stored roll's {key!r} must be text or null, not {value!r}")
    return value


def _texts(value: object, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DiceError(f"a stored roll's {key!r} must be a list of text, not {value!r}")
    return tuple(value)


def multiple_action_penalty(
    actions: int,
    *,
    free_actions: int = 0,
    full_auto: bool = False,
    ruleset: RuleSet,
) -> int:
    """Dice off every skill and attribute roll this round: 1D for each action beyond the first
    ([2E-STD], confirmed by [WIKI] and [RC]). ``free_actions``: [RC] surprise haste, which does
    not lower die codes. ``full_auto``: [HOUSE §13] an extra -1D on all actions that round.
    Not applied to damage or to Strength against damage, nor to initiative.

    The one home of the rule: the sheet's rolls (:func:`effective_pool`) and the encounter
    (:mod:`rules.combat`, which re-exports it) both ask here."""
    if actions < 1:
        raise DiceError("a character takes at least one action in a round")
    if not 0 <= free_actions <= actions:
        raise DiceError("free actions must be between 0 and the number of actions")
    if full_auto and ruleset.auto_fire != "house":
        raise DiceError("this campaign does not use the House automatic-fire rules")
    return max(0, actions - free_actions - 1) + (1 if full_auto else 0)


def effective_pool(
    code: DieCode | str,
    *,
    actions: int = 1,
    penalty_dice: int = 0,
    force_point: bool = False,
    bonus: DieCode | str | None = None,
    ruleset: RuleSet,
) -> DieCode:
    """The pool actually rolled: doubled by a Force Point, plus any bonus, minus 1D for each
    action beyond the first (multiple-action penalty) and the wound penalty dice; never below
    0D (pips are kept)."""
    if actions < 1:
        raise DiceError("a character takes at least one action")
    if penalty_dice < 0:
        raise DiceError("penalty dice cannot be negative")
    pool = DieCode.parse(code)
    if force_point:
        pool = pool.doubled()
    if bonus:
        pool = pool.pool_add(bonus)
    pool = pool.minus_dice(multiple_action_penalty(actions, ruleset=ruleset) + penalty_dice)
    if ruleset.normalize_pips_in_play:
        pool = pool.normalized()
    return pool


class PoolTooSmallError(DiceError):
    """A roll whose pool, after penalties, is below 1D: it cannot be attempted."""


def rollable_pool(
    code: DieCode | str,
    *,
    actions: int = 1,
    penalty_dice: int = 0,
    force_point: bool = False,
    bonus: DieCode | str | None = None,
    ruleset: RuleSet,
) -> DieCode:
    """:func:`effective_pool`, refused with :class:`PoolTooSmallError` when fewer than 1D is
    left: the sources do not say what a 0D roll means, and the digest's suggested handling
    (dice-and-core.md A5) is that the action cannot be attempted. The message says why."""
    pool = effective_pool(
        code,
        actions=actions,
        penalty_dice=penalty_dice,
        force_point=force_point,
        bonus=bonus,
        ruleset=ruleset,
    )
    if pool.dice >= 1:
        return pool
    causes = []
    if actions > 1:
        causes.append(
            f"{actions} actions take {multiple_action_penalty(actions, ruleset=ruleset)}D"
        )
    if penalty_dice:
        causes.append(f"wounds take {penalty_dice}D")
    base = DieCode.parse(code)
    why = " and ".join(causes) or "penalties"
    raise PoolTooSmallError(
        f"{why} from {base}, leaving {pool}: a roll needs at least 1D"
        + (" (take fewer actions)" if actions > 1 else "")
    )


def roll(
    code: DieCode | str,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
    actions: int = 1,
    penalty_dice: int = 0,
    modifier: int = 0,
    cp_dice: int = 0,
    force_point: bool = False,
    bonus: DieCode | str | None = None,
    wild_die: bool | None = None,
    offer_crit: Callable[[list[int]], bool] | None = None,
) -> Roll:
    """Roll a die code per the ruleset and keep every die.

    Dice are drawn in this order (worked examples rely on it): the ordinary dice, the Wild
    Die chain, the House complication-table roll (only on a Wild Die 1), then the Character
    Point dice one by one. ``modifier`` is a flat number added to the total. ``wild_die``
    overrides the ruleset (e.g. a roll the GM makes without one)."""
    if cp_dice < 0:
        raise DiceError("Character Point dice cannot be negative")
    base = DieCode.parse(code)
    pool = effective_pool(
        base,
        actions=actions,
        penalty_dice=penalty_dice,
        force_point=force_point,
        bonus=bonus,
        ruleset=ruleset,
    )
    use_wild = ruleset.wild_die if wild_die is None else wild_die
    normal: Sequence[int]
    wild: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    complication = None
    house_table = None
    crit = False
    needs_choice = False
    notes: list[str] = []

    if pool.dice <= 0:
        normal = ()
        total = pool.pips
    elif not use_wild:
        normal = tuple(rng.d6() for _ in range(pool.dice))
        total = sum(normal) + pool.pips
    else:
        normal = tuple(rng.d6() for _ in range(pool.dice - 1))
        chain, crit = explode(
            rng=rng, offer_crit=offer_crit if ruleset.critical_injuries == "house" else None
        )
        wild = tuple(chain)
        total = sum(normal) + sum(wild) + pool.pips
        if wild[0] == 1:
            option = ruleset.wild_die_one
            highest = max(normal) if normal else 0
            if option == "subtract":
                removed = (1, highest) if normal else (1,)
                total -= 1 + highest
            elif option == "complication":
                complication = "complication"
            elif option == "gm_choice":
                needs_choice = True
                notes.append("Wild Die 1: the GM picks a complication or removing the highest die")
            elif option == "house_table":
                house_table = rng.d6()
                if house_table == 1:
                    complication = "really bad complication"
                elif house_table == 2:
                    complication = "complication"
                elif house_table <= 5:
                    removed = (1, highest) if normal else (1,)
                    total -= 1 + highest
            # "normal": counted as rolled, nothing happens
    cp_chains = tuple(tuple(explode(rng=rng)[0]) for _ in range(cp_dice))
    total += sum(sum(c) for c in cp_chains) + modifier
    return Roll(
        code=base,
        pool=pool,
        normal=tuple(normal),
        wild=wild,
        cp=cp_chains,
        modifier=modifier,
        removed=removed,
        complication=complication,
        house_table=house_table,
        critical_injury=crit,
        needs_gm_choice=needs_choice,
        force_point=force_point,
        total=max(0, total),  # a total below 0 counts as 0 (dice-and-core.md A5)
        notes=tuple(notes),
    )
