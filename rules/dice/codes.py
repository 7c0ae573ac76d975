"""Die codes (``4D+2``): parsing, printing, ordering and the two kinds of arithmetic.

``DieCode`` is an immutable value in the style of ``fractions.Fraction``: it parses the
spellings people type, prints canonically, compares by total pips and supports two kinds of
arithmetic that the rules keep apart:

* **improvement arithmetic** (``+``/``-``): three pips carry into a die, so ``1D+2 + 2D+1`` is
  ``4D`` and one pip above ``3D+2`` is ``4D``;
* **pool arithmetic** (:meth:`DieCode.pool_add`, :meth:`DieCode.doubled`,
  :meth:`DieCode.minus_dice`): dice and pips stay as they are, so ``4D+6`` is a valid pool
  ("in play, pips never round up").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from rules.errors import RulesError

__all__ = ["MAX_DICE", "MAX_PIPS", "DieCode", "DieCodeError"]

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
