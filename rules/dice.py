"""Die codes (``4D+2``) and rolling them with the Wild Die.

``DieCode`` is an immutable value in the style of ``fractions.Fraction``: it parses the
spellings people type, prints canonically, compares by total pips and supports two kinds of
arithmetic that the rules keep apart:

* **improvement arithmetic** (``+``/``-``): three pips carry into a die, so ``1D+2 + 2D+1`` is
  ``4D`` and one pip above ``3D+2`` is ``4D``;
* **pool arithmetic** (:meth:`DieCode.pool_add`, :meth:`DieCode.doubled`,
  :meth:`DieCode.minus_dice`): dice and pips stay as they are, so ``4D+6`` is a valid pool
  ("in play, pips never round up").

Rolling takes an injected random source (anything with a ``d6()`` method) and returns a
:class:`Roll` that keeps every die, so a stored roll can be shown and audited.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rules.errors import RulesError
from rules.ruleset import RuleSet

__all__ = [
    "DiceSource",
    "DieCode",
    "DieCodeError",
    "FixedDice",
    "Roll",
    "SeededDice",
    "SystemDice",
    "effective_pool",
    "explode",
    "roll",
]

MAX_DICE = 999
MAX_PIPS = 999


class DieCodeError(RulesError):
    """Text that is not a die code, with a message that says what is wrong."""


_CODE = re.compile(
    r"""^\s*
    (?P<sign>[+-])?\s*
    (?P<dice>\d+)\s*[dD]\s*
    (?:(?P<psign>[+-])\s*(?P<pips>\d+))?
    \s*$""",
    re.VERBOSE,
)
_PIPS_ONLY = re.compile(r"^\s*(?P<psign>[+-])\s*(?P<pips>\d+)\s*$")


def _explain(text: str) -> str:
    stripped = text.strip()
    if not stripped:
        return "a die code is empty; write it like 4D+2, 3D or +1"
    if re.fullmatch(r"\d+", stripped):
        return f"{stripped!r} has no D; write dice like {stripped}D or pips like +{stripped}"
    if re.search(r"[dD]\s*\d*\s*[dD]", stripped):
        return f"{text!r} has more than one D"
    if re.search(r"[dD]\s*\d", stripped):
        return f"{text!r}: pips come after a + or -, as in 4D+2"
    if re.search(r"[^0-9dD+\-\s]", stripped):
        bad = re.search(r"[^0-9dD+\-\s]", stripped).group()  # type: ignore[union-attr]
        return f"{text!r} contains {bad!r}; a die code uses only digits, D, + and -"
    return f"{text!r} is not a die code; write it like 4D+2, 3D, +1D or +2"


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class DieCode:
    """``dice``D plus ``pips``. Either part may be negative for a modifier (``-1D``)."""

    dice: int = 0
    pips: int = 0

    def __post_init__(self) -> None:
        for name in ("dice", "pips"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise DieCodeError(f"{name} must be a whole number, not {value!r}")
        if abs(self.dice) > MAX_DICE or abs(self.pips) > MAX_PIPS:
            raise DieCodeError(f"{self.dice}D{self.pips:+d} is larger than any die code in play")

    # --- construction -----------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str | DieCode) -> DieCode:
        """Parse ``4D+2``, ``4d+2``, `` 4D + 2 ``, ``4D``, ``+2``, ``0D+1``, ``-1D``…

        Pips are kept as written (``4D+6`` is a valid pool). Raise ``DieCodeError`` with a
        message that says what is wrong otherwise."""
        if isinstance(text, DieCode):
            return text
        if not isinstance(text, str):
            raise DieCodeError(f"a die code must be text, not {type(text).__name__}")
        return _parse_cached(text)

    @classmethod
    def from_pips(cls, total_pips: int) -> DieCode:
        """The canonical code with this many pips (3 pips = 1D): 11 -> 3D+2, -4 -> -1D-1."""
        sign = -1 if total_pips < 0 else 1
        dice, pips = divmod(abs(total_pips), 3)
        return cls(sign * dice, sign * pips)

    # --- views ------------------------------------------------------------------------------
    @property
    def total_pips(self) -> int:
        """Dice × 3 + pips: the number that orders codes (4D+2 = 14)."""
        return self.dice * 3 + self.pips

    @property
    def is_standard(self) -> bool:
        """True for a code as printed on a sheet: no negative dice, pips 0, 1 or 2."""
        return self.dice >= 0 and 0 <= self.pips <= 2

    def normalized(self) -> DieCode:
        """Carry pips into dice (4D+6 -> 6D)."""
        return DieCode.from_pips(self.total_pips)

    def __str__(self) -> str:
        if self.pips == 0:
            return f"{self.dice}D"
        return f"{self.dice}D{self.pips:+d}"

    def __repr__(self) -> str:
        return f"DieCode('{self}')"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def signed(self) -> str:
        """As a modifier: ``+1D``, ``-1D``, ``+2``, ``+1D+1``, ``+0``."""
        if self.dice == 0:
            return f"{self.pips:+d}"
        text = f"{self.dice:+d}D"
        return text if self.pips == 0 else f"{text}{self.pips:+d}"

    # --- ordering ---------------------------------------------------------------------------
    def __lt__(self, other: object) -> bool:
        if not isinstance(other, DieCode):
            return NotImplemented
        return (self.total_pips, self.dice) < (other.total_pips, other.dice)

    # --- improvement arithmetic: pips carry into dice ---------------------------------------
    def __add__(self, other: object) -> DieCode:
        other_code = _coerce(other)
        if other_code is None:
            return NotImplemented
        return DieCode.from_pips(self.total_pips + other_code.total_pips)

    __radd__ = __add__

    def __sub__(self, other: object) -> DieCode:
        other_code = _coerce(other)
        if other_code is None:
            return NotImplemented
        return DieCode.from_pips(self.total_pips - other_code.total_pips)

    def __rsub__(self, other: object) -> DieCode:
        other_code = _coerce(other)
        if other_code is None:
            return NotImplemented
        return DieCode.from_pips(other_code.total_pips - self.total_pips)

    def __neg__(self) -> DieCode:
        return DieCode(-self.dice, -self.pips)

    def __bool__(self) -> bool:
        return self.dice != 0 or self.pips != 0

    def plus_pips(self, pips: int) -> DieCode:
        """Improve by ``pips`` pips (one pip above 3D+2 is 4D)."""
        return DieCode.from_pips(self.total_pips + pips)

    # --- pool arithmetic: dice and pips kept as they are ------------------------------------
    def pool_add(self, other: DieCode | str) -> DieCode:
        """Add modifiers in play without carrying: 4D+2 with +4 is 4D+6."""
        o = DieCode.parse(other)
        return DieCode(self.dice + o.dice, self.pips + o.pips)

    def doubled(self) -> DieCode:
        """A Force Point doubles dice and pips separately: 5D+2 -> 10D+4 ([RC])."""
        return DieCode(self.dice * 2, self.pips * 2)

    def minus_dice(self, n: int) -> DieCode:
        """Take ``n`` dice away (a penalty), never below 0D; pips are kept."""
        return DieCode(max(0, self.dice - n), self.pips)

    def halved(self) -> DieCode:
        """Rushing: half the code in pips, rounded down (6D -> 3D, 5D+1 -> 2D+2)."""
        return DieCode.from_pips(max(0, self.total_pips) // 2)


def _coerce(other: object) -> DieCode | None:
    if isinstance(other, DieCode):
        return other
    if isinstance(other, str):
        return DieCode.parse(other)
    if isinstance(other, int) and not isinstance(other, bool) and other == 0:
        return DieCode()  # so sum() works
    return None


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> DieCode:
    m = _CODE.match(text)
    if m:
        dice = int(m["dice"]) * (-1 if m["sign"] == "-" else 1)
        pips = int(m["pips"] or 0) * (-1 if m["psign"] == "-" else 1)
        if len(m["dice"]) > 3 or len(m["pips"] or "") > 3:
            raise DieCodeError(f"{text!r} is larger than any die code in play")
        return DieCode(dice, pips)
    m = _PIPS_ONLY.match(text)
    if m:
        if len(m["pips"]) > 3:
            raise DieCodeError(f"{text!r} is larger than any die code in play")
        return DieCode(0, int(m["pips"]) * (-1 if m["psign"] == "-" else 1))
    raise DieCodeError(_explain(text))


# ---------------------------------------------------------------------------------------------
# Random sources
# ---------------------------------------------------------------------------------------------
class DiceSource(Protocol):
    def d6(self) -> int: ...


class SeededDice:
    """A reproducible source: ``SeededDice(42)`` rolls the same dice every time."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def d6(self) -> int:
        return int(self._random.random() * 6) + 1


class SystemDice(SeededDice):
    """The operating system's randomness (for real play)."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()


class FixedDice:
    """Dice given in advance, for tests and worked examples. Raises when it runs out."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces: Iterator[int] = iter(list(faces))

    def d6(self) -> int:
        try:
            face = next(self._faces)
        except StopIteration:
            raise RuntimeError("FixedDice ran out of dice") from None
        if not 1 <= face <= 6:
            raise ValueError(f"a d6 cannot show {face}")
        return face


# ---------------------------------------------------------------------------------------------
# Rolling
# ---------------------------------------------------------------------------------------------
MAX_EXPLOSIONS = 100  # a chain of 100 sixes has probability 6^-100: a broken source, not luck


def explode(rng: DiceSource, offer_crit: Callable[[list[int]], bool] | None = None):
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

    def to_json(self) -> dict:
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


def effective_pool(
    code: DieCode | str,
    *,
    actions: int = 1,
    penalty_dice: int = 0,
    force_point: bool = False,
    bonus: DieCode | str | None = None,
    ruleset: RuleSet = RuleSet(),
) -> DieCode:
    """The pool actually rolled: doubled by a Force Point, plus any bonus, minus 1D for each
    action beyond the first (multiple-action penalty) and the wound penalty dice; never below
    0D (pips are kept)."""
    if actions < 1:
        raise ValueError("a character takes at least one action")
    if penalty_dice < 0:
        raise ValueError("penalty dice cannot be negative")
    pool = DieCode.parse(code)
    if force_point:
        pool = pool.doubled()
    if bonus:
        pool = pool.pool_add(bonus)
    pool = pool.minus_dice(actions - 1 + penalty_dice)
    if ruleset.normalize_pips_in_play:
        pool = pool.normalized()
    return pool


class PoolTooSmallError(RulesError):
    """A roll whose pool, after penalties, is below 1D: it cannot be attempted."""


def rollable_pool(
    code: DieCode | str,
    *,
    actions: int = 1,
    penalty_dice: int = 0,
    force_point: bool = False,
    bonus: DieCode | str | None = None,
    ruleset: RuleSet = RuleSet(),
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
        causes.append(f"{actions} actions take {actions - 1}D")
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
    ruleset: RuleSet = RuleSet(),
    rng: DiceSource | None = None,
    *,
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
        raise ValueError("Character Point dice cannot be negative")
    rng = rng or SystemDice()
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
        chain, crit = explode(rng, offer_crit if ruleset.critical_injuries == "house" else None)
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
    cp_chains = tuple(tuple(explode(rng)[0]) for _ in range(cp_dice))
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
