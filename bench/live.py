"""The live channel under load: P players poll a campaign's live view every 2 s while the GM
rolls R times a second, through gunicorn (4 workers) on PostgreSQL and Redis, for a minute.

    python bench/live.py [--players 100] [--rolls 10] [--seconds 60] [--big 100000]

Without DATABASE_URL and REDIS_URL it re-runs itself under scripts/services.sh, which starts
a throwaway PostgreSQL and Redis (the harness make test uses). Prints the p50/p95/p99 poll
latency, errors, bytes per poll, and the queries of an unchanged and of a changed poll (the
server counts them into a response header when DATAPAD_QUERY_COUNT is set). With --big N it
then adds N rolls to another campaign and times the unchanged and the changed poll again,
against the same polls on the near-empty database.
"""

import argparse
import gzip
import http.client
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

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
os.environ["DATAPAD_QUERY_COUNT"] = "1"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

POLLER = re.compile(r'id="live"[^>]*hx-get="([^"]+)"')


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def build(players: int):
    """A campaign with a GM, ``players`` players and a character each."""
    from campaigns.models import Campaign, Membership
    from characters.models import Character

    user_model = get_user_model()
    gm = user_model.objects.create_user("bench-gm", password="bench-password-123")
    campaign = Campaign.objects.create(name="Live bench", created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    users = user_model.objects.bulk_create(
        user_model(username=f"bench-player-{i}") for i in range(players)
    )
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=u, role="player") for u in users
    )
    characters = Character.objects.bulk_create(
        Character(campaign=campaign, owner=u, name=f"Hero {i}") for i, u in enumerate(users)
    )
    gm_character = Character.objects.create(campaign=campaign, owner=gm, name="GM's NPC")
    return campaign, gm, users, characters, gm_character


def request(port, method, path, cookie, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    started = time.perf_counter()
    all_headers = {"Cookie": cookie, "HX-Request": "true", "Accept-Encoding": "gzip"}
    all_headers.update(headers or {})
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    data = response.read()
    elapsed = time.perf_counter() - started
    connection.close()
    response.wire_bytes = len(data)  # what crossed the network, compressed or not
    if response.getheader("Content-Encoding") == "gzip":
        data = gzip.decompress(data)
    return response, data, elapsed


def first_poll_path(port, campaign, cookie):
    """What a player's open dice log polls first: the page names its poller's URL."""
    response, data, _ = request(port, "GET", f"/campaigns/{campaign.pk}/rolls/", cookie)
    assert response.status == 200, response.status
    page = data.decode()
    match = POLLER.search(page)
    assert match, "the dice log page has no live poller"
    return match.group(1).replace("&amp;", "&")


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency = []
        self.bytes = {"changed": [], "unchanged": []}
        self.queries = {"changed": [], "unchanged": []}
        self.errors = 0

    def add(self, status, size, elapsed, queries):
        with self.lock:
            if status not in (200, 204):
                self.errors += 1
                return
            kind = "changed" if status == 200 else "unchanged"
            self.latency.append(elapsed * 1000)
            self.bytes[kind].append(size)
            if queries is not None:
                self.queries[kind].append(int(queries))


def poller(port, path, cookie, stop, stats, offset):
    time.sleep(offset)
    while not stop.is_set():
        tick = time.perf_counter()
        try:
            response, data, elapsed = request(port, "GET", path, cookie)
        except OSError:
            stats.add(599, 0, 0, None)
        else:
            stats.add(
                response.status, response.wire_bytes, elapsed, response.getheader("X-DB-Queries")
            )
            if response.status == 200:
                match = POLLER.search(data.decode())
                if match:
                    path = match.group(1).replace("&amp;", "&")
        stop.wait(max(0.0, 2.0 - (time.perf_counter() - tick)))


def roller(port, campaign, character, cookie, per_second, stop, counter):
    """The GM rolls through the real view, with the CSRF token a browser would send."""
    next_at = time.perf_counter()
    while not stop.is_set():
        response = roll(port, campaign, character, cookie)
        if response.status == 200:
            counter[0] += 1
        else:
            counter[1] += 1
        next_at += 1 / per_second
        stop.wait(max(0.0, next_at - time.perf_counter()))


CSRF = "b" * 32
"""A CSRF secret of the right shape, sent as cookie and header alike, as a browser would."""


def roll(port, campaign, character, cookie):
    response, _, _ = request(
        port,
        "POST",
        f"/campaigns/{campaign.pk}/characters/{character.pk}/roll/",
        f"{cookie}; {settings.CSRF_COOKIE_NAME}={CSRF}",
        urlencode({"trait": "attr:dexterity", "actions": 1, "modifier": 0, "cp": 0}),
        {
            "X-CSRFToken": CSRF,
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"http://127.0.0.1:{port}",
        },
    )
    return response


def start_gunicorn(port):
    env = {
        **os.environ,
        "DATAPAD_QUERY_COUNT": "1",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CONN_MAX_AGE": "60",  # as in production: persistent connections
    }
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "4",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("gunicorn did not start")


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def sequential(port, path, cookie, runs):
    """Median time of ``runs`` polls of the same path, one after another."""
    times, last = [], None
    for _ in range(runs):
        response, data, elapsed = request(port, "GET", path, cookie)
        times.append(elapsed * 1000)
        last = response, data
    return statistics.median(times), last


def changed_poll(port, path, cookie, roll):
    """One roll, then the poll that sees it: its time, size and queries."""
    roll()
    response, _, elapsed = request(port, "GET", path, cookie)
    assert response.status == 200, response.status
    return elapsed * 1000, response.wire_bytes, response.getheader("X-DB-Queries")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--rolls", type=float, default=10, help="GM rolls per second")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--big", type=int, default=100_000, help="rolls in another campaign")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    from django.core.cache import cache

    cache.clear()
    campaign, gm, users, _, gm_character = build(args.players)
    cookies = [session_cookie(u) for u in users]
    gm_cookie = session_cookie(gm)

    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = start_gunicorn(port)
    try:
        paths = [first_poll_path(port, campaign, c) for c in cookies]
        stats, stop, counter = Stats(), threading.Event(), [0, 0]
        threads = [
            threading.Thread(
                target=poller,
                args=(port, paths[i], cookies[i], stop, stats, 2.0 * i / len(paths)),
                daemon=True,
            )
            for i in range(len(paths))
        ]
        threads.append(
            threading.Thread(
                target=roller,
                args=(port, campaign, gm_character, gm_cookie, args.rolls, stop, counter),
                daemon=True,
            )
        )
        for t in threads:
            t.start()
        time.sleep(args.seconds)
        stop.set()
        for t in threads:
            t.join(timeout=35)

        polls = len(stats.latency)
        print(f"database: PostgreSQL; server: gunicorn, 4 workers on 127.0.0.1:{port}")
        print(
            f"{args.players} players polling every 2 s, GM rolling {args.rolls:g}/s "
            f"for {args.seconds:g} s: {polls} polls, {counter[0]} rolls ({counter[1]} refused)"
        )
        print(
            f"poll latency ms: p50 {percentile(stats.latency, 50):.1f}  "
            f"p95 {percentile(stats.latency, 95):.1f}  p99 {percentile(stats.latency, 99):.1f}"
        )
        print(f"errors: {stats.errors}")
        for kind in ("unchanged", "changed"):
            sizes, queries = stats.bytes[kind], stats.queries[kind]
            if sizes:
                print(
                    f"{kind} polls: {len(sizes)}, median {statistics.median(sizes):.0f} bytes, "
                    f"queries median {statistics.median(queries):.0f} (max {max(queries)})"
                )

        # One new roll, one poll: size and queries, then the same with a big other campaign.
        def roll_once():
            assert roll(port, campaign, gm_character, gm_cookie).status == 200

        def measure(label):
            path = first_poll_path(port, campaign, cookies[0])
            request(port, "GET", path, cookies[0])
            changed = [changed_poll(port, path, cookies[0], roll_once) for _ in range(20)]
            path = first_poll_path(port, campaign, cookies[0])
            unchanged_ms, (response, _) = sequential(port, path, cookies[0], 200)
            changed_ms = statistics.median(c[0] for c in changed)
            print(
                f"{label}: unchanged poll median {unchanged_ms:.2f} ms "
                f"({response.status}, {response.getheader('X-DB-Queries')} queries); "
                f"changed poll (one new roll) median {changed_ms:.2f} ms, "
                f"{statistics.median(c[1] for c in changed):.0f} bytes, "
                f"{changed[-1][2]} queries"
            )
            return unchanged_ms, changed_ms

        base = measure("near-empty database")
        if args.big:
            add_rolls_elsewhere(args.big)
            big = measure(f"with {args.big:,} rolls in another campaign")
            print(
                f"ratio big/near-empty: unchanged {big[0] / base[0]:.2f}, "
                f"changed {big[1] / base[1]:.2f}"
            )
    finally:
        server.terminate()
        server.wait(timeout=10)


def add_rolls_elsewhere(n):
    from campaigns.models import Campaign
    from characters.models import DiceRoll

    owner = get_user_model().objects.create_user("bench-other")
    other = Campaign.objects.create(name="Other", created_by=owner)
    batch = 5000
    for start in range(0, n, batch):
        DiceRoll.objects.bulk_create(
            DiceRoll(
                campaign=other,
                actor=owner,
                label="Blaster",
                code="4D",
                pool="4D",
                dice={"normal": [1, 2, 3], "wild": [4]},
                total=10,
                hidden=i % 3 == 0,
            )
            for i in range(start, min(n, start + batch))
        )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {DiceRoll._meta.db_table}")


if __name__ == "__main__":
    main()
