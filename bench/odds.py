#!/usr/bin/env python3
"""Odds-table benchmark: ``rules.odds`` against icepool, in one process.

Run from the repository root:  .venv/bin/python bench/odds.py  [--max-dice 30 --max-diff 100]

For each Wild Die rule ("complication", "subtract") it prints, one figure per line:
  ours <rule>      median over --repeats cold builds (cache cleared before each) of the table
                   P(total >= d) for 1D..30D x (+0, +1, +2) x d = 1..100 (9,000 cells)
  ours api <rule>  9,000 success_chance(text, d) calls, the cold table build included
  icepool <rule>   the same table from icepool (exact rationals), best practice: one Die per
                   dice count with the Wild Die as d6.explode(depth=20), the '>=' column read
                   once; a single run (icepool caches its dice, so a repeat would be warm)
  ratio <rule>     icepool time / our time
  max abs diff     largest |ours - icepool| over every cell
The exit status is 1 if any max abs diff is 1e-9 or more. See ../shared/perf/README.md §2
(exact definition) and §7 (this benchmark). Depth 20 cuts off 6**-21 of mass at totals >= 126,
so for difficulties <= 100 icepool's table equals the unbounded one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rules import odds  # noqa: E402
from rules.ruleset import RuleSet  # noqa: E402

RULES = ("complication", "subtract")
DEPTH = 20
PIPS = (0, 1, 2)
LIMIT = 1e-9

Rows = list[list[float]]


def ours_table(max_dice: int, max_diff: int, rule: str) -> Rows:
    """Our table, rows[(n - 1) * 3 + pips][d - 1] = P(total >= d)."""
    table = odds.success_table(max_dice, max_diff, ruleset=RuleSet(wild_die_one=rule))
    return [list(row) for row in table.rows]


def _icepool_die(icepool, n: int, rule: str):
    d6 = icepool.d6
    m = n - 1
    if rule == "complication":  # the 1 counts as rolled
        wild = d6.explode(depth=DEPTH)
        return (m @ d6 + wild) if m else wild
    normal = (m @ d6) if m else icepool.Die([0])
    one = d6.highest(m, drop=1) if m else icepool.Die([0])  # the 1 and the highest die removed
    after_six = 6 + d6.explode(depth=DEPTH - 1)
    return icepool.Die([one, normal + 2, normal + 3, normal + 4, normal + 5, normal + after_six])


def icepool_table(max_dice: int, max_diff: int, rule: str) -> Rows:
    """The same table from icepool: one Die per dice count, its '>=' column read once."""
    import icepool

    rows: Rows = []
    for n in range(1, max_dice + 1):
        die = _icepool_die(icepool, n, rule)
        denominator = die.denominator()
        outcomes = die.outcomes()
        # tail[t] = P(total >= t) for t = 0..the highest outcome + 1 (outcomes are >= 0)
        tail = [0.0] * (outcomes[-1] + 2)
        for outcome, count in zip(outcomes, die.quantities(">="), strict=True):
            tail[outcome] = count / denominator
        for t in range(outcomes[-1], -1, -1):  # a total that cannot occur: as the next one up
            if t < outcomes[0]:
                tail[t] = 1.0
            elif t not in die:
                tail[t] = tail[t + 1]
        tail += [0.0] * (max_diff + 1 - len(tail))
        for p in PIPS:
            rows.append([tail[d - p] if d >= p else 1.0 for d in range(1, max_diff + 1)])
    return rows


def max_abs_diff(ours: Rows, theirs: Rows) -> float:
    return max(
        abs(a - b) for ra, rb in zip(ours, theirs, strict=True) for a, b in zip(ra, rb, strict=True)
    )


def compare_with_icepool(max_dice: int, max_diff: int, rule: str) -> float:
    """max |ours - icepool| over the table (the check this benchmark gates on)."""
    odds.clear_cache()
    return max_abs_diff(
        ours_table(max_dice, max_diff, rule), icepool_table(max_dice, max_diff, rule)
    )


def time_ours(max_dice: int, max_diff: int, rule: str, repeats: int) -> tuple[float, float]:
    """(median, best) seconds of a cold table build (every cache cleared first)."""
    ruleset = RuleSet(wild_die_one=rule)
    times = []
    for _ in range(repeats):
        odds.clear_cache()
        start = time.perf_counter()
        odds.success_table(max_dice, max_diff, ruleset=ruleset)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def time_api(max_dice: int, max_diff: int, rule: str, repeats: int) -> float:
    """Median seconds of 3 * max_dice * max_diff success_chance calls, cold build included."""
    ruleset = RuleSet(wild_die_one=rule)
    codes = [f"{n}D+{p}" if p else f"{n}D" for n in range(1, max_dice + 1) for p in PIPS]
    times = []
    for _ in range(repeats):
        odds.clear_cache()
        start = time.perf_counter()
        for code in codes:
            for d in range(1, max_diff + 1):
                odds.success_chance(code, d, ruleset=ruleset)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-dice", type=int, default=30)
    parser.add_argument("--max-diff", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args(argv)
    try:
        import icepool  # noqa: F401
    except ImportError:
        print(
            "icepool is not installed here; run it as .venv/bin/python bench/odds.py",
            file=sys.stderr,
        )
        return 2
    n, d = args.max_dice, args.max_diff
    cells = 3 * n * d
    print(f"odds table 1D..{n}D x (+0,+1,+2) x difficulty 1..{d} = {cells:,} cells")
    failed = False
    for rule in RULES:
        ours, best = time_ours(n, d, rule, args.repeats)
        api = time_api(n, d, rule, max(3, args.repeats // 3))
        start = time.perf_counter()
        theirs = icepool_table(n, d, rule)
        icepool_time = time.perf_counter() - start
        odds.clear_cache()
        diff = max_abs_diff(ours_table(n, d, rule), theirs)
        failed |= diff >= LIMIT
        print(f"ours {rule}: {_ms(ours)} (median of {args.repeats} cold builds; best {_ms(best)})")
        print(f"ours api {rule}: {_ms(api)} ({cells:,} success_chance calls incl. the build)")
        print(f"icepool {rule}: {_ms(icepool_time)} (full table, one run, depth {DEPTH})")
        print(f"ratio {rule} (icepool/ours): {icepool_time / ours:.0f}x")
        print(f"max abs diff {rule}: {diff:.1e}{'  FAIL (limit 1e-9)' if diff >= LIMIT else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
