"""Advancing game time as a Celery job: a campaign of 500 characters with 1,000 pending
trainings, due on days spread over the next 30, advanced 30 days.

    python bench/advance.py [--characters 500] [--trainings 1000] [--days 30]

Without DATABASE_URL and REDIS_URL it re-runs itself under scripts/services.sh, which starts
a throwaway PostgreSQL and Redis (the harness make test uses). Prints:

* ``one worker: S``: seconds from the GM's click (``start_advance``) to the advance done, one
  Celery worker process doing it;
* ``two workers: S``: the same work as two campaigns of half the size (250 characters, 500
  trainings each), clicked at once, two worker processes; then the ratio, and the workers'
  CPU seconds (on a shared 2-core machine the ratio says as much about the neighbours).
  One campaign's advance is sequential by design: day d is applied whole, in one
  transaction, before day d+1, and one run of a campaign holds its advance's row at a time.
  Within a day the completions of different characters are independent (each roll is
  seeded by the advance and the advancement), so a day could be split by character across
  workers, but every day would then need a barrier (a chord per day) and per-worker
  progress the TimeAdvance row does not keep, for days that hold some 33 completions. So
  workers share the load campaign by campaign: several campaigns advance at once;
* ``queries per character-day: N``: the queries of the advance (the same ``run_advance`` the
  worker runs, counted in this process) over characters x days. A day costs a few queries of
  its own whatever is pending (one query finds what falls due that day), and each training
  that completes costs the same few more; so the figure follows the trainings that
  complete, not those pending: it is printed for 500 and for 1,000 trainings due in the
  window, and for 1,000 pending of which 500 fall due after it, with the queries per
  completed training and per day with nothing due.

The trainings are asked for through the advancement service (``request_advancement``, the
points held through the ledger) by the GM, who sets each training's days (1 to the window)
so that completions spread over it; one in five is an attribute, with its roll.
"""

import argparse
import time

import _harness  # bench/ is on the path: this file's folder

_harness.setup()

from _harness import (  # noqa: E402
    add_trainings,
    build_party,
    campaign_named,
    counted_advance,
    print_worker_times,
)


def build(name: str, characters: int, trainings: int, window: int, later: int = 0):
    """A campaign of ``characters`` characters, each with four skills and 200 CP, and
    ``trainings`` trainings asked for on day 0: ``trainings - later`` due on days spread over
    1..``window``, ``later`` due after it."""
    campaign, gm, people = build_party(name, characters)
    add_trainings(campaign, gm, people, trainings, window, later)
    return campaign


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=500)
    parser.add_argument("--trainings", type=int, default=1000)
    parser.add_argument("--days", type=int, default=30)
    args = parser.parse_args()
    n, t, days = args.characters, args.trainings, args.days

    started = time.perf_counter()
    one = build("one", n, t, days)
    halves = [build(f"half-{i}", n // 2, t // 2, days) for i in range(2)]
    print(
        f"built {n} characters with {t} trainings (and twice half of that) "
        f"in {time.perf_counter() - started:.0f} s; PostgreSQL, Redis, worker processes "
        "with --pool=solo"
    )
    print_worker_times(one, halves, days)

    rows = []
    for label, trainings, later in (
        (f"{t // 2:,} pending trainings, all due in the {days} days", t // 2, 0),
        (f"{t:,} pending trainings, all due in the {days} days", t, 0),
        (f"{t:,} pending trainings, {t // 2:,} of them due after day {days}", t, t // 2),
    ):
        campaign = build(f"count-{trainings}-{later}", n, trainings, days, later)
        queries, advance = counted_advance(campaign, days)
        rows.append((label, queries, len(advance.report)))
    print(f"queries per character-day: {rows[1][1] / (n * days):.2f}")
    # Days with nothing due: the first campaign counted has nothing left to complete.
    one_day, _ = counted_advance(campaign_named(f"count-{t // 2}-0"), 1)
    eleven_days, _ = counted_advance(campaign_named(f"count-{t // 2}-0"), 11)
    idle_day = (eleven_days - one_day) / 10
    for label, queries, completed in rows:
        per_completion = (queries - one_day - (days - 1) * idle_day) / completed
        print(
            f"  {n} characters, {label}: {queries / (n * days):.2f} per character-day "
            f"({queries:,} queries, {completed:,} completed, "
            f"{per_completion:.1f} per completed training)"
        )
    print(
        f"  a day with nothing due: {idle_day:.0f} queries (an advance of one such day: "
        f"{one_day}, with taking the advance)"
    )


if __name__ == "__main__":
    main()
