"""Exact odds of a die-code roll: the distribution of the total and the chance to succeed.

A code ``nD+p`` (n >= 1) rolls n-1 normal d6 and one Wild Die, then adds p ([2E-STD], see
``dice-and-core.md`` §2). The Wild Die adds a 6 and is rolled again, again and again while it
shows 6; only its *first* roll can be the 1 that the campaign's ``wild_die_one`` option acts on:

* ``"complication"``, ``"normal"`` and ``"gm_choice"`` count the 1 as rolled (a complication
  changes the story, not the total; for ``"gm_choice"`` pass ``wild_die_one="subtract"`` to
  any function here to get the other outcome the GM may pick, so the UI can show both);
* ``"subtract"`` takes the 1 and the highest normal die away (1D+p then totals p) [2E-STD];
* ``"house_table"`` [HOUSE, reading A1]: the GM rolls 1D; 3-5 (probability 1/2) subtract,
  1, 2 and 6 count the dice as rolled.

With ``wild_die=False`` ([RC]) the total is the plain sum of the dice. Character Point dice
explode like the Wild Die but never trigger the Wild Die 1 rule (A16). Totals follow
:func:`rules.dice.roll`: a pool of 0D (or less) is its pips, and a total below 0 counts as 0
(A5).

How it is computed (``../shared/perf/README.md`` §6): the sum of m normal dice is kept as exact
integer counts (a sliding window over prefix sums, so each die costs O(L)); the sum minus the
highest die comes from the counts of "all dice <= j" for j = 1..6; the unbounded explosion is
the 6-step recurrence ``Y[t] = b[t] + Y[t-6] / 6``. Every array stops at a cap and the mass
above it is folded into one exact "beyond" bucket (the geometric tail of the recurrence sums
in closed form), so the results are exact to float rounding (~1e-15) at any difficulty and
nothing is truncated. Pure Python, no numpy: ``import rules`` stays cheap.
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate, zip_longest
from operator import add, sub
from typing import Literal, NamedTuple

from rules.dice import DieCode
from rules.difficulty import standard_levels
from rules.errors import RulesError
from rules.ruleset import RuleSet

__all__ = [
    "DIFFICULTY_LEVELS",
    "Distribution",
    "LevelChance",
    "OddsError",
    "SuccessTable",
    "chances_by_level",
    "clear_cache",
    "distribution",
    "mean",
    "success_chance",
    "success_table",
]

SIXTH = 1 / 6
DEFAULT_HORIZON = 200
"""Totals up to this are resolved one by one in :func:`distribution` unless asked for more."""
MAX_DIFFICULTY = 100_000
MAX_CP_DICE = 100
MAX_POOL_DICE = 200
"""The largest pool worked out (a doubled 30D skill is 60D); 6**200 still fits a float."""
TABLE_DICE = 30
TABLE_DIFFICULTY = 100


def _level_tops(scale: Literal["2e", "rc"]) -> tuple[tuple[str, int], ...]:
    on_scale = RuleSet(difficulty_scale=scale)
    return tuple(
        (str(level), level.numbers(ruleset=on_scale)[1])
        for level in standard_levels(ruleset=on_scale)
    )


#: Representative difficulty number of each level: the top of its band (from
#: :mod:`rules.difficulty`), so a success beats every number the GM could pick inside that
#: level. 2E: Very Easy 5, Easy 10, Moderate 15, Difficult 20, Very Difficult 30, Heroic 40
#: ([UPG] "Heroic+10" is 41-50, so Heroic is 31-40); RC: Very Easy 5 ... Very Difficult 30.
DIFFICULTY_LEVELS: dict[str, tuple[tuple[str, int], ...]] = {
    "2e": _level_tops("2e"),
    "rc": _level_tops("rc"),
}


class OddsError(RulesError):
    """An odds question the engine cannot answer as asked, with a message that says why."""


_WILD_ONE_MODES = {
    "complication": "counted",
    "normal": "counted",
    "gm_choice": "counted",
    "subtract": "subtract",
    "house_table": "house",
}


# ---------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Distribution:
    """Probability of each roll total.

    ``probabilities[i]`` is P(total = ``low`` + i) for totals up to :attr:`high`; ``beyond``
    is P(total > high), the folded tail of the Wild Die's explosions (0 when the roll cannot
    explode, so the distribution is complete)."""

    low: int
    probabilities: tuple[float, ...]
    beyond: float = 0.0

    @property
    def high(self) -> int:
        """The highest total resolved one by one."""
        return self.low + len(self.probabilities) - 1

    def probability(self, total: int) -> float:
        """P(total is exactly ``total``)."""
        if total > self.high:
            if self.beyond:
                raise OddsError(
                    f"the odds were worked out for totals up to {self.high}; ask for "
                    f"distribution(..., up_to={total}) to see {total}"
                )
            return 0.0
        if total < self.low:
            return 0.0
        return self.probabilities[total - self.low]

    def at_least(self, difficulty: int) -> float:
        """P(total >= ``difficulty``): the chance to beat (or tie) it. A tie succeeds [UPG]."""
        if difficulty <= self.low:
            return 1.0
        if difficulty > self.high + 1:
            if self.beyond:
                raise OddsError(
                    f"the odds were worked out for difficulties up to {self.high + 1}; ask for "
                    f"distribution(..., up_to={difficulty})"
                )
            return 0.0
        split = difficulty - self.low
        below = math.fsum(self.probabilities[:split])  # P(total < difficulty)
        if below < 0.5:  # keep the precision at the end that is small
            return 1.0 - below
        return math.fsum(self.probabilities[split:]) + self.beyond

    def items(self) -> list[tuple[int, float]]:
        """(total, probability) pairs from :attr:`low` to :attr:`high` (for the odds chart)."""
        return [(self.low + i, p) for i, p in enumerate(self.probabilities)]


@dataclass(frozen=True, slots=True)
class SuccessTable:
    """P(total >= difficulty) for 1D..``max_dice`` x pips 0..2 x difficulty 1..``max_difficulty``.

    ``rows[(dice - 1) * 3 + pips][difficulty - 1]`` holds the chance."""

    max_dice: int
    max_difficulty: int
    rows: tuple[tuple[float, ...], ...]

    def chance(self, dice: int, pips: int, difficulty: int) -> float:
        """The chance for ``dice``D+``pips`` against ``difficulty`` (any difficulty <= max)."""
        if not (1 <= dice <= self.max_dice and 0 <= pips <= 2):
            raise OddsError(f"the table covers 1D to {self.max_dice}D+2, not {dice}D+{pips}")
        if difficulty > self.max_difficulty:
            raise OddsError(f"the table stops at difficulty {self.max_difficulty}")
        if difficulty < 1:
            return 1.0
        return self.rows[(dice - 1) * 3 + pips][difficulty - 1]


class LevelChance(NamedTuple):
    """One badge on the character sheet: "Moderate 15: 62%"."""

    level: str
    difficulty: int
    chance: float


# ---------------------------------------------------------------------------------------------
# Public functions
# ---------------------------------------------------------------------------------------------
def distribution(
    code: DieCode | str,
    *,
    ruleset: RuleSet,
    cp_dice: int = 0,
    modifier: int = 0,
    wild_die_one: str | None = None,
    up_to: int | None = None,
) -> Distribution:
    """The exact distribution of the total of ``code`` rolled under ``ruleset``.

    ``cp_dice`` Character Point dice (each explodes on 6, a 1 is just 1) and a flat
    ``modifier`` are added as :func:`rules.dice.roll` adds them. ``wild_die_one`` overrides
    the ruleset's Wild Die 1 option (e.g. ``"subtract"`` for the GM's other choice under
    ``"gm_choice"``). Totals are resolved one by one up to ``up_to`` (default: the highest
    total the dice reach without exploding, or 200 if that is higher) and above that folded
    into :attr:`Distribution.beyond`."""
    _check_count("Character Point dice", cp_dice, MAX_CP_DICE)
    _check_int("modifier", modifier)
    if up_to is not None:
        _check_difficulty(up_to, name="up_to")
    dice, pips, mode = _setup(code, ruleset, wild_die_one)
    return _distribution(dice, pips + modifier, mode, cp_dice, up_to or 0)


def success_chance(
    code: DieCode | str,
    difficulty: int,
    *,
    ruleset: RuleSet,
    cp_dice: int = 0,
    modifier: int = 0,
    wild_die_one: str | None = None,
) -> float:
    """P(total >= ``difficulty``) for ``code`` under ``ruleset`` (a tie succeeds [UPG]).

    Ordinary codes (1D..30D, difficulty - pips - modifier <= 100, no Character Point dice)
    are a lookup in the cached :func:`success_table`; anything else is computed directly."""
    dice, pips, mode = _setup(code, ruleset, wild_die_one)
    if not cp_dice and type(difficulty) is int and type(modifier) is int:  # the fast path
        need = difficulty - pips - modifier  # what the dice themselves must reach
        if 1 <= dice <= TABLE_DICE and difficulty >= -MAX_DIFFICULTY and need <= TABLE_DIFFICULTY:
            if difficulty <= 0 or need <= 0:
                return 1.0
            rows = _STANDARD_ROWS.get(mode) or _standard_rows(mode)
            return rows[(dice - 1) * 3][need - 1]
    _check_difficulty(difficulty)
    _check_count("Character Point dice", cp_dice, MAX_CP_DICE)
    _check_int("modifier", modifier)
    return _distribution(dice, pips + modifier, mode, cp_dice, difficulty).at_least(difficulty)


def success_table(
    max_dice: int = TABLE_DICE,
    max_difficulty: int = TABLE_DIFFICULTY,
    *,
    ruleset: RuleSet,
    wild_die_one: str | None = None,
) -> SuccessTable:
    """The whole table 1D..``max_dice`` x (+0, +1, +2) x difficulty 1..``max_difficulty``.

    Built once per (Wild Die rule, sizes) and then served from a cache, so the same call again
    is a lookup (:func:`clear_cache` empties it)."""
    _check_count("max_dice", max_dice, MAX_POOL_DICE, minimum=1)
    _check_count("max_difficulty", max_difficulty, MAX_DIFFICULTY, minimum=1)
    option = ruleset.wild_die_one if wild_die_one is None else wild_die_one
    return _table(max_dice, max_difficulty, _wild_mode(ruleset.wild_die, option))


def chances_by_level(
    code: DieCode | str,
    *,
    ruleset: RuleSet,
    cp_dice: int = 0,
    modifier: int = 0,
    wild_die_one: str | None = None,
) -> list[LevelChance]:
    """The chance against each standard difficulty level, at the top of its band
    (:data:`DIFFICULTY_LEVELS`, by ``ruleset.difficulty_scale``): "Very Easy 5: 99%", ..."""
    levels = DIFFICULTY_LEVELS[ruleset.difficulty_scale]
    return [
        LevelChance(
            name,
            number,
            success_chance(
                code,
                number,
                ruleset=ruleset,
                cp_dice=cp_dice,
                modifier=modifier,
                wild_die_one=wild_die_one,
            ),
        )
        for name, number in levels
    ]


def mean(
    code: DieCode | str,
    *,
    ruleset: RuleSet,
    cp_dice: int = 0,
    modifier: int = 0,
    wild_die_one: str | None = None,
) -> float:
    """The average total, exactly: an exploding die averages 21/5 = 4.2 (the 1 counted), a
    normal die 7/2; a subtracted Wild Die 1 costs 1 + the expected highest normal die."""
    _check_count("Character Point dice", cp_dice, MAX_CP_DICE)
    _check_int("modifier", modifier)
    dice, pips, mode = _setup(code, ruleset, wild_die_one)
    shift = pips + modifier
    exploding = Fraction(21, 5)
    value = Fraction(shift) + cp_dice * exploding
    if dice and mode == "none":
        value += dice * Fraction(7, 2)
    elif dice:
        value += (dice - 1) * Fraction(7, 2) + exploding
        loss = (1 + _expected_highest(dice - 1)) / 6  # the Wild Die 1 branch, subtracted
        losses: dict[str, Fraction] = {"counted": Fraction(0), "subtract": loss, "house": loss / 2}
        value -= losses[mode]
    if shift < 0:  # totals below 0 count as 0: add back what the clamp cut off
        raw = _distribution(dice, shift, mode, cp_dice, 0, clamp=False)
        value += sum(Fraction(p) * -total for total, p in raw.items() if total < 0)
    return float(value)


def clear_cache() -> None:
    """Forget every cached table and distribution (for benchmarks measuring a cold build)."""
    _table.cache_clear()
    _dice_total.cache_clear()
    _resolve.cache_clear()
    _STANDARD_ROWS.clear()


# ---------------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------------
def _wild_mode(wild_die: bool, option: str) -> str:
    if option not in _WILD_ONE_MODES:
        raise OddsError(
            f"unknown Wild Die 1 rule {option!r}; choose one of {', '.join(_WILD_ONE_MODES)}"
        )
    return _WILD_ONE_MODES[option] if wild_die else "none"


def _setup(code: DieCode | str, ruleset: RuleSet, wild_die_one: str | None) -> tuple[int, int, str]:
    """(dice, pips, Wild Die mode) of the pool actually rolled, as
    :func:`rules.dice.effective_pool` sees a plain roll (pips carried only if the ruleset
    normalizes them in play; fewer than 0 dice roll as 0D)."""
    if not isinstance(code, (str, DieCode)):  # the tuple form is the faster check
        DieCode.parse(code)  # raises the die-code error
    option = ruleset.wild_die_one if wild_die_one is None else wild_die_one
    if not isinstance(option, str):
        raise OddsError(f"the Wild Die 1 rule must be a name such as 'subtract', not {option!r}")
    return _resolve(code, ruleset.wild_die, option, ruleset.normalize_pips_in_play)


@functools.lru_cache(maxsize=4096)
def _resolve(
    code: DieCode | str, wild_die: bool, option: str, normalize: bool
) -> tuple[int, int, str]:
    pool = DieCode.parse(code)
    if normalize:
        pool = pool.normalized()
    if pool.dice > MAX_POOL_DICE:
        raise OddsError(f"odds are worked out for pools up to {MAX_POOL_DICE}D, not {pool}")
    return max(0, pool.dice), pool.pips, _wild_mode(wild_die, option)


def _check_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OddsError(f"{name} must be a whole number, not {value!r}")


def _check_count(name: str, value: object, maximum: int, minimum: int = 0) -> None:
    _check_int(name, value)
    assert isinstance(value, int)
    if not minimum <= value <= maximum:
        raise OddsError(f"{name} must be between {minimum} and {maximum}, not {value}")


def _check_difficulty(value: object, name: str = "difficulty") -> None:
    _check_int(name, value)
    assert isinstance(value, int)
    if abs(value) > MAX_DIFFICULTY:
        raise OddsError(f"a {name} of {value} is beyond any roll (limit {MAX_DIFFICULTY:,})")


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------
def _distribution(
    dice: int, shift: int, mode: str, cp_dice: int, up_to: int, clamp: bool = True
) -> Distribution:
    """Dice part (with ``cp_dice`` exploding dice) shifted by pips + modifier."""
    top = max(DEFAULT_HORIZON, up_to, 6 * (dice + cp_dice))
    cap = top + max(0, -shift)
    if dice:
        base, over = _dice_total(dice, mode, cap)
    else:
        base, over = (1.0,) + (0.0,) * cap, 0.0
    pmf = list(base)
    for _ in range(cp_dice):
        pmf, over = _add_exploding_die(pmf, over, cap)
    low = shift
    if clamp and shift < 0:  # a total below 0 counts as 0 (dice.roll, A5)
        pmf = [math.fsum(pmf[: 1 - shift]), *pmf[1 - shift :]]
        low = 0
    first = next(i for i, p in enumerate(pmf) if p)  # totals that cannot come up are left out
    last = len(pmf) if over else next(i for i in range(len(pmf) - 1, -1, -1) if pmf[i]) + 1
    return Distribution(low=low + first, probabilities=tuple(pmf[first:last]), beyond=over)


def _faces_counts(counts: list[int], faces: int, limit: int) -> list[int]:
    """Exact counts of the sum after adding one die showing 1..``faces`` (one way each).

    ``counts[t]`` is the number of ways to make total t; the list stops at the highest total
    that has a way (or at ``limit``). Each new total is a window over the prefix sums."""
    acc = list(accumulate(counts, initial=0))  # acc[k] = sum(counts[:k])
    size = min(len(counts) + faces, limit + 1)
    upper = acc[:size] if size <= len(acc) else acc + [acc[-1]] * (size - len(acc))
    lower = ([0] * faces + acc)[:size]
    return list(map(sub, upper, lower))


def _explode(b: list[float], spill: float, base_over: float, cap: int) -> tuple[list[float], float]:
    """Close the recurrence ``Y[t] = b[t] + Y[t-6] / 6`` (a die added that re-rolls on 6).

    ``b`` is the base convolved with faces 1..5 at weight 1/6, ``spill`` the part of that
    above ``cap`` and ``base_over`` the base's own mass above ``cap``. Returns Y up to ``cap``
    and P(Y > cap), folding the geometric tail: S = (6 * spill + sum(Y[cap-5..cap])) / 5."""
    y = b
    for t in range(6, cap + 1):
        y[t] += y[t - 6] * SIXTH
    return y, base_over + (6 * spill + math.fsum(y[max(0, cap - 5) :])) / 5


def _add_exploding_die(pmf: list[float], over: float, cap: int) -> tuple[list[float], float]:
    """Add one exploding die (a Character Point die) to a distribution of totals 0..cap."""
    padded = [0.0] * 5 + pmf
    b = [
        s * SIXTH
        for s in map(sum, zip(*(padded[5 - f : 5 - f + cap + 1] for f in range(1, 6)), strict=True))
    ]
    spill = math.fsum(x * max(0, t + 5 - cap) for t, x in enumerate(pmf)) * SIXTH
    return _explode(b, spill, over, cap)


def _padded(values: list[int], size: int, fill: int = 0) -> list[int]:
    """``values`` cut or padded with ``fill`` to exactly ``size`` entries."""
    return values[:size] if len(values) >= size else values + [fill] * (size - len(values))


def _wild_totals(max_dice: int, mode: str, cap: int) -> Iterator[tuple[list[float], float]]:
    """Yield (pmf over totals 0..cap, P(total > cap)) of the dice part of 1D..``max_dice``."""
    wide = cap + 6  # the sum minus the highest die needs sums up to cap + 6
    normal = [1]  # counts of the sum of m normal dice
    capped = {j: [1] for j in range(2, 6)}  # counts with every die <= j
    for n in range(1, max_dice + 1):
        m = n - 1
        if m:
            normal = _faces_counts(normal, 6, wide)
            if mode in ("subtract", "house"):
                for j in range(2, 6):
                    capped[j] = _faces_counts(capped[j], j, wide)
        ways = 6**m
        if mode == "none":
            plain = _padded(_faces_counts(normal, 6, cap), cap + 1)
            scale = 1 / (ways * 6)
            yield [c * scale for c in plain], (ways * 6 - sum(plain)) * scale
        else:
            yield _wild_pmf(normal, capped, m, ways, mode, cap)


def _wild_pmf(
    normal: list[int], capped: dict[int, list[int]], m: int, ways: int, mode: str, cap: int
) -> tuple[list[float], float]:
    """m normal dice (``ways`` = 6**m) plus the Wild Die (see the module docstring)."""
    low = normal[: cap + 1]
    acc = _padded(list(accumulate(low, initial=0)), cap + 2, sum(low))
    prefix = [0] * 6 + acc  # prefix[t + 6] = sum(low[:t])
    scale = 1 / (ways * 6)
    # the explosion, whatever the first roll did: Y = normal + an exploding die
    b15 = list(map(sub, prefix[6 : cap + 7], prefix[1 : cap + 2]))  # first roll 1..5
    spill15 = 5 * acc[-1] - sum(b15)
    y, y_over = _explode([c * scale for c in b15], spill15 * scale, (ways - acc[-1]) / ways, cap)
    if mode == "counted":
        return y, y_over
    # first roll 2..5 counted, first roll 6 then the explosion, first roll 1 by the rule
    b25 = map(sub, prefix[5 : cap + 6], prefix[1 : cap + 2])
    ones = _minus_highest(normal, capped, m, cap)
    if mode == "subtract":
        counts, weight, scale_1 = list(map(add, b25, ones)), 5, scale
    else:  # house: the GM's 1D shows 3-5 (subtract) or 1, 2, 6 (counted as rolled), A1
        shifted = _padded([0, *low], cap + 1)
        counts = [2 * a + s + c for a, s, c in zip(b25, ones, shifted, strict=True)]
        weight, scale_1 = 10, scale / 2
    six = [0.0] * 6 + y[: cap - 5] if cap >= 6 else [0.0] * (cap + 1)
    pmf = [c * scale_1 + v * SIXTH for c, v in zip(counts, six, strict=True)]
    over6 = (math.fsum(y[max(0, cap - 5) :]) + y_over) * SIXTH
    return pmf, (weight * ways - sum(counts)) * scale_1 + over6


def _minus_highest(normal: list[int], capped: dict[int, list[int]], m: int, cap: int) -> list[int]:
    """Counts of (sum of m dice - the highest of them), totals 0..cap.

    ways(highest = j, sum = t) = ways(all <= j, sum = t) - ways(all <= j-1, sum = t), so
    S[s] = sum over j of ways(all <= j, s + j) - ways(all <= j - 1, s + j)."""
    if m == 0:
        return _padded([1], cap + 1)
    tables = [[0] * m + [1], capped[2], capped[3], capped[4], capped[5], normal]
    hi = zip_longest(*(tables[j - 1][j:] for j in range(1, 7)), fillvalue=0)
    lo = zip_longest(*(tables[j - 1][j + 1 :] for j in range(1, 6)), fillvalue=0)
    sums = zip_longest(map(sum, hi), map(sum, lo), fillvalue=0)
    return _padded([h - low for h, low in sums], cap + 1)


@functools.lru_cache(maxsize=256)
def _dice_total(dice: int, mode: str, cap: int) -> tuple[tuple[float, ...], float]:
    """The dice part of ``dice``D (no pips) under a Wild Die mode, totals 0..cap."""
    for n, (pmf, over) in enumerate(_wild_totals(dice, mode, cap), start=1):
        if n == dice:
            return tuple(pmf), over
    raise AssertionError("unreachable")  # pragma: no cover


@functools.lru_cache(maxsize=32)
def _table(max_dice: int, max_difficulty: int, mode: str) -> SuccessTable:
    rows: list[tuple[float, ...]] = []
    for pmf, over in _wild_totals(max_dice, mode, max_difficulty):
        # tail[t] = P(dice total >= t), t = 0..max_difficulty + 1: summed from the top where
        # it is below 1/2, and 1 - P(total < t) above, so each end keeps its precision (and a
        # total that cannot miss reads exactly 1)
        tail = list(accumulate(reversed(pmf), initial=over))
        tail.reverse()
        below = list(accumulate(pmf, initial=0.0))
        half = bisect_left(below, 0.5)
        tail[:half] = [1.0 - c for c in below[:half]]
        rows.append(tuple(tail[1 : max_difficulty + 1]))
        rows.append(tuple(tail[0:max_difficulty]))
        rows.append((1.0, *tail[0 : max_difficulty - 1]))
    return SuccessTable(max_dice, max_difficulty, tuple(rows))


_STANDARD_ROWS: dict[str, tuple[tuple[float, ...], ...]] = {}
"""The default-size table's rows by Wild Die mode: success_chance's lookups skip the cache call."""


def _standard_rows(mode: str) -> tuple[tuple[float, ...], ...]:
    rows = _STANDARD_ROWS[mode] = _table(TABLE_DICE, TABLE_DIFFICULTY, mode).rows
    return rows


def _expected_highest(m: int) -> Fraction:
    """E[highest of m d6] = sum over j of P(highest >= j); 0 for no dice."""
    if m == 0:
        return Fraction(0)
    return sum((1 - Fraction(j - 1, 6) ** m for j in range(1, 7)), Fraction(0))
