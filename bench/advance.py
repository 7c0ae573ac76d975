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
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
    os.execv(
        str(ROOT / "scripts" / "services.sh"),
        [str(ROOT / "scripts" / "services.sh"), sys.executable, *sys.argv],
    )

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DJANGO_ENV"] = "test"
os.environ["REQUEST_LOGGING"] = "false"
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

SKILLS = ["blaster", "dodge", "sneak", "streetwise"]
ATTRIBUTES = ["dexterity", "knowledge", "mechanical", "perception", "strength", "technical"]


def build(name: str, characters: int, trainings: int, window: int, later: int = 0):
    """A campaign of ``characters`` characters, each with four skills and 200 CP, and
    ``trainings`` trainings asked for on day 0: ``trainings - later`` due on days spread over
    1..``window``, ``later`` due after it."""
    from campaigns.models import Campaign, Membership
    from characters.advancement import request_advancement
    from characters.models import Character, Currency, Skill
    from characters.services import change_balance

    user_model = get_user_model()
    gm = user_model.objects.create_user(f"gm-{name}", password="bench-password-123")
    campaign = Campaign.objects.create(name=name, created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    rng = random.Random(name)
    players = user_model.objects.bulk_create(
        user_model(username=f"{name}-player-{i}") for i in range(characters)
    )
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=u, role="player") for u in players
    )
    people = Character.objects.bulk_create(
        Character(
            campaign=campaign,
            owner=players[i],
            name=f"{name} hero {i}",
            dexterity="3D",
            knowledge="2D+1",
            mechanical="2D+2",
            perception="3D+1",
            strength="3D",
            technical="2D",
        )
        for i in range(characters)
    )
    Skill.objects.bulk_create(
        Skill(character=c, name=skill, attribute="dexterity", code=f"{rng.randint(3, 6)}D")
        for c in people
        for skill in SKILLS
    )
    for c in people:
        change_balance(c, Currency.CP, 200, "bench award", gm)
    for n in range(trainings):
        character = people[n % characters]
        turn = n // characters  # the character's first, second... training
        days = rng.randint(1, window) if n < trainings - later else window + rng.randint(1, 30)
        if n % 5 == 4:
            attribute = ATTRIBUTES[turn % len(ATTRIBUTES)]
            request_advancement(
                character, "attribute", attribute, actor=gm, days=days, species_maximum="3D"
            )
        else:
            skill = SKILLS[turn % len(SKILLS)]
            request_advancement(
                character, "skill", skill, actor=gm, teacher=turn % 2 == 0, days=days
            )
    return campaign


class Workers:
    """Worker processes (``celery -A config worker --pool=solo``), their output in a log."""

    def __init__(self):
        self.processes = []
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed in stop()
            "w", prefix="bench-advance-worker-", suffix=".log", delete=False
        )

    def start(self, count: int):
        from config.celery import app

        names = []
        for i in range(count):
            hostname = f"bench-{i}-{os.getpid()}@localhost"
            self.processes.append(
                subprocess.Popen(
                    [
                        *(sys.executable, "-m", "celery", "-A", "config", "worker"),
                        *("--pool=solo", "--concurrency=1", "-l", "warning"),
                        *("--without-gossip", "--without-mingle", "--hostname", hostname),
                    ],
                    cwd=ROOT,
                    env=os.environ.copy(),
                    stdout=self.log,
                    stderr=subprocess.STDOUT,
                )
            )
            names.append(hostname)
        deadline = time.monotonic() + 60
        while len(app.control.ping(destination=names, timeout=0.5)) < count:
            if time.monotonic() > deadline:
                raise SystemExit(
                    f"the Celery workers did not answer a ping in 60 s: {self.log.name}"
                )

    def cpu_seconds(self) -> float:
        """CPU time the worker processes have used so far (user + system)."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for process in self.processes:
            fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / ticks

    def stop(self):
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait(timeout=30)
        self.processes = []
        self.log.close()
        os.unlink(self.log.name)


def advance_with_workers(campaigns, days: int, workers: int) -> tuple[float, float]:
    """Seconds from the clicks to every advance done, with ``workers`` worker processes, and
    the CPU seconds the workers used meanwhile."""
    from characters.downtime import start_advance
    from characters.models import TimeAdvance

    pool = Workers()
    pool.start(workers)
    try:
        cpu = pool.cpu_seconds()
        started = time.perf_counter()
        advances = [start_advance(c, days, actor=c.created_by) for c in campaigns]
        ids = [a.pk for a in advances]
        while TimeAdvance.objects.filter(pk__in=ids, status__in=["queued", "running"]).exists():
            time.sleep(0.05)
        elapsed = time.perf_counter() - started
        cpu = pool.cpu_seconds() - cpu
    finally:
        pool.stop()
    for advance in TimeAdvance.objects.filter(pk__in=ids):
        assert advance.status == "done", advance.error
    return elapsed, cpu


class QueryCount:
    def __init__(self):
        self.n = 0

    def __call__(self, execute, sql, params, many, context):
        self.n += 1
        return execute(sql, params, many, context)


def counted_advance(campaign, days: int) -> tuple[int, int]:
    """Queries of an advance of ``days`` run here (the worker's code, in this process), and
    the trainings it completed."""
    from characters.downtime import run_advance
    from characters.models import TimeAdvance

    campaign.refresh_from_db()
    advance = TimeAdvance.objects.create(
        campaign=campaign,
        from_day=campaign.game_day,
        to_day=campaign.game_day + days,
        day_reached=campaign.game_day,
        seed=1,
    )
    counter = QueryCount()
    with connection.execute_wrapper(counter):
        advance = run_advance(advance.pk)
    assert advance.status == "done", advance.error
    return counter.n, len(advance.report)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=500)
    parser.add_argument("--trainings", type=int, default=1000)
    parser.add_argument("--days", type=int, default=30)
    args = parser.parse_args()
    n, t, days = args.characters, args.trainings, args.days

    call_command("migrate", verbosity=0)
    from django.core.cache import cache

    cache.clear()
    started = time.perf_counter()
    one = build("one", n, t, days)
    halves = [build(f"half-{i}", n // 2, t // 2, days) for i in range(2)]
    print(
        f"built {n} characters with {t} trainings (and twice half of that) "
        f"in {time.perf_counter() - started:.0f} s; PostgreSQL, Redis, worker processes "
        "with --pool=solo"
    )

    seconds_one, cpu_one = advance_with_workers([one], days, workers=1)
    print(f"one worker: {seconds_one:.1f}")
    seconds_two, cpu_two = advance_with_workers(halves, days, workers=2)
    print(f"two workers: {seconds_two:.1f}")
    print(
        f"ratio two/one: {seconds_two / seconds_one:.2f} (worker CPU: {cpu_one:.1f} s on one, "
        f"{cpu_two:.1f} s on two; {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f})"
    )

    rows = []
    for label, trainings, later in (
        (f"{t // 2:,} pending trainings, all due in the {days} days", t // 2, 0),
        (f"{t:,} pending trainings, all due in the {days} days", t, 0),
        (f"{t:,} pending trainings, {t // 2:,} of them due after day {days}", t, t // 2),
    ):
        campaign = build(f"count-{trainings}-{later}", n, trainings, days, later)
        queries, completed = counted_advance(campaign, days)
        rows.append((label, queries, completed))
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


def campaign_named(name: str):
    from campaigns.models import Campaign

    return Campaign.objects.get(name=name)


if __name__ == "__main__":
    main()
