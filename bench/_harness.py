"""What the time-advance benches share (bench/advance.py, bench/downtime.py): the real
services, a campaign of characters, Celery worker processes timed on an advance, and the
queries of an advance counted in this process.

A bench imports this module first and calls :func:`setup` before any Django import: without
DATABASE_URL and REDIS_URL it re-runs the bench under scripts/services.sh, which starts a
throwaway PostgreSQL and Redis (the harness make test uses), then sets Django up for them.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SKILLS = ["blaster", "dodge", "sneak", "streetwise"]
ATTRIBUTES = ["dexterity", "knowledge", "mechanical", "perception", "strength", "technical"]


def setup() -> None:
    """The real services (re-running the bench under scripts/services.sh when they are not
    given), then Django, for a bench: no request logging, Celery not eager, the schema
    migrated, the cache empty."""
    sys.path.insert(0, str(ROOT))
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        services = str(ROOT / "scripts" / "services.sh")
        os.execv(services, [services, sys.executable, *sys.argv])
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DJANGO_ENV"] = "test"
    os.environ["REQUEST_LOGGING"] = "false"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"

    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    cache.clear()


# --- A campaign ------------------------------------------------------------------------------
def build_party(name: str, characters: int, *, ruleset=None, credits: int = 0):
    """A campaign named ``name`` (under ``ruleset``, by default the 2nd edition's) with its GM
    and ``characters`` players, each with a character holding four skills (3D to 6D), 200 CP
    and ``credits`` (both through the ledger). Returns (campaign, GM, the characters)."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Campaign, Membership
    from characters.models import Character, Currency, Skill
    from characters.services import change_balance

    user_model = get_user_model()
    gm = user_model.objects.create_user(f"gm-{name}", password="bench-password-123")
    campaign = Campaign(name=name, created_by=gm)
    if ruleset is not None:
        campaign.set_ruleset(ruleset)
    campaign.save()
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
        if credits:
            change_balance(c, Currency.CREDITS, credits, "bench award", gm)
    return campaign, gm, people


def add_trainings(campaign, gm, people, trainings: int, window: int, later: int = 0) -> None:
    """``trainings`` trainings asked for by the GM through the advancement service (the points
    held through the ledger), spread over ``people``: ``trainings - later`` due on days spread
    over 1..``window``, ``later`` due after it; one in five an attribute, with its roll."""
    from characters.advancement import request_advancement

    rng = random.Random(f"{campaign.name} trainings")
    for n in range(trainings):
        character = people[n % len(people)]
        turn = n // len(people)  # the character's first, second... training
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


def campaign_named(name: str):
    from campaigns.models import Campaign

    return Campaign.objects.get(name=name)


# --- Worker processes ------------------------------------------------------------------------
class Workers:
    """Worker processes (``celery -A config worker --pool=solo``), their output in a log.
    Each reserves one task at a time (``--prefetch-multiplier=1``; the advance task is
    ``acks_late``): with Celery's default of 4, the first worker to poll could take both
    campaigns' advances and run them one after the other while the second sits idle."""

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
                        *("--pool=solo", "--concurrency=1", "--prefetch-multiplier=1"),
                        *("-l", "warning"),
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


def print_worker_times(one, halves, days: int) -> None:
    """Advance ``one`` campaign on one worker, then the two ``halves`` at once on two, and
    print ``one worker: S``, ``two workers: S`` and their ratio with the workers' CPU time."""
    seconds_one, cpu_one = advance_with_workers([one], days, workers=1)
    print(f"one worker: {seconds_one:.1f}")
    seconds_two, cpu_two = advance_with_workers(halves, days, workers=2)
    print(f"two workers: {seconds_two:.1f}")
    print(
        f"ratio two/one: {seconds_two / seconds_one:.2f} (worker CPU: {cpu_one:.1f} s on one, "
        f"{cpu_two:.1f} s on two; {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f})"
    )


# --- Counting queries ------------------------------------------------------------------------
class QueryCount:
    def __init__(self):
        self.n = 0

    def __call__(self, execute, sql, params, many, context):
        self.n += 1
        return execute(sql, params, many, context)


def _counted(handler: Callable, counter: QueryCount, spent: Counter) -> Callable:
    def run(campaign_id, day, **kwargs):
        before = counter.n
        try:
            return handler(campaign_id, day, **kwargs)
        finally:
            spent[getattr(handler, "__name__", repr(handler))] += counter.n - before

    return run


def counted_advance(campaign, days: int, *, per_handler: Counter | None = None):
    """Queries of an advance of ``days`` run here (the worker's code, in this process), and
    the advance (its report says what it did). ``per_handler``: filled with each handler's
    own queries, by the handler's name."""
    from django.db import connection

    from characters.downtime import HANDLERS, run_advance
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
    handlers = None
    if per_handler is not None:
        handlers = tuple(_counted(h, counter, per_handler) for h in HANDLERS)
    with connection.execute_wrapper(counter):
        advance = run_advance(advance.pk, handlers=handlers)
    assert advance.status == "done", advance.error
    return counter.n, advance
