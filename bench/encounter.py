"""Server time of one resolved attack in a 50-combatant encounter (the GM announces trooper 1's
shot at Kira, Kira dodges, the GM rolls it: it hits and wounds her): the step request that
resolves it (and the whole three-request exchange, printed too), against the same run's
cheapest authenticated request (the live poll answering 204),
measured in the same run (the ratio is what to compare; these machines are shared and noisy).
Also the queries of each step, and the bytes of a step's HTMX answer against the whole page.
No server needed: requests go through Django's full middleware stack (CSRF included) with
Django's WSGI handler, on a throwaway SQLite database unless DATABASE_URL is set. The dice are
fixed, so every attack is the same; between attacks the three steps are undone (untimed).

    python bench/encounter.py [--attacks 60] [--combatants 50]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("REQUEST_LOGGING", "false")
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, RequestFactory  # noqa: E402
from django.urls import reverse  # noqa: E402

warnings.filterwarnings("ignore", message="No directory at")  # no collectstatic needed here
settings.ALLOWED_HOSTS = ["*"]
settings.DEBUG = False

# The attack's dice in the order the engine draws them (ordinary dice, then the Wild Die):
DODGE = [3, 4]  # Kira's dodge 3D as an extra action (-1D): 2D = 7
ATTACK = [5, 5, 5, 5]  # the trooper's blaster 4D = 20 against the dodge's 7: a hit
DAMAGE = [2, 2, 2, 2, 3]  # blaster rifle 5D = 11
STRENGTH = [2, 2]  # Kira's Strength 2D = 4: a margin of 7, Wounded
HIT_AND_WOUND = [*ATTACK, *DAMAGE, *STRENGTH]

CSRF = "b" * 32
"""A CSRF secret of the right shape, sent as cookie and header alike, as a browser would."""

GOALS = {"queries": 10, "ratio": 5, "swap": 0.25}


def build(size):
    """A campaign with a GM and a player whose character Kira faces ``size - 1`` troopers in
    the round, everyone having declared one action."""
    from campaigns.models import Campaign, Membership
    from characters.models import Character
    from encounters.services import start_encounter
    from rules.combat import ActionCount, WeaponRange
    from rules.dice import DieCode
    from rules.encounter import Combatant, EncounterState, Weapon

    users = get_user_model().objects
    gm = users.create_user("bench-gm", password="bench-password-123")
    player = users.create_user("bench-player", password="bench-password-123")
    campaign = Campaign.objects.create(name="Encounter bench", created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    Membership.objects.create(campaign=campaign, user=player, role="player")
    kira = Character.objects.create(campaign=campaign, owner=player, name="Kira")

    d = DieCode.parse
    rifle = Weapon("blaster rifle", "5D", "blaster", "ranged", WeaponRange(3, 30, 100, 300))

    def fighter(cid, name, side, npc):
        return Combatant(
            id=cid,
            name=name,
            side=side,
            perception=d("4D" if not npc else "2D"),
            dexterity=d("2D"),
            strength=d("2D"),
            skills=(("blaster", d("4D")), ("dodge", d("3D"))),
            weapon=rifle,
            npc=npc,
            actions=ActionCount(1),
        )

    pc = fighter(f"pc-{kira.pk}", "Kira", "rebels", npc=False)
    everyone = (pc, *(fighter(f"tk{i}", f"Trooper {i}", "empire", True) for i in range(1, size)))
    state = EncounterState(
        combatants=everyone,
        phase="round",
        side_order=("rebels", "empire"),
        order=tuple(c.id for c in everyone),
    )
    encounter = start_encounter(campaign, "Fifty at the docks", gm, state=state)
    return gm, player, encounter, pc.id


class Queries:
    """The statements sent to the database while it is open: an execute wrapper, because the
    WSGI handler resets ``connection.queries`` when a request starts (so
    ``CaptureQueriesContext`` around a handler call miscounts). Transaction control Django
    does through the driver (PostgreSQL's BEGIN, every COMMIT) is not a statement here;
    SQLite's BEGIN is."""

    def __enter__(self):
        self.sql = []
        self._wrapper = connection.execute_wrapper(self._record)
        self._wrapper.__enter__()
        return self

    def __exit__(self, *exc):
        self._wrapper.__exit__(*exc)

    def _record(self, execute, sql, params, many, context):
        self.sql.append(sql)
        return execute(sql, params, many, context)

    def __len__(self):
        return len(self.sql)


def cookie_for(user):
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={CSRF}"


class Bench:
    def __init__(self, encounter, gm, pc_id):
        from encounters import views

        self.views = views
        self.sql = []
        self.encounter, self.gm, self.pc_id = encounter, gm, pc_id
        self.handler = WSGIHandler()
        self.factory = RequestFactory()
        args = [encounter.campaign_id, encounter.pk]
        self.step_url = reverse("encounters:step", args=args)
        self.live_url = reverse("encounters:live", args=args)
        self.page_url = reverse("encounters:page", args=args)

    def version(self):
        self.encounter.refresh_from_db(fields=["version"])
        return self.encounter.version

    def call(self, environ):
        """One request through the WSGI handler (all middleware, no test-client signal hooks,
        which copy every template context and would slow big pages more than small ones):
        its response and server milliseconds."""
        started = time.perf_counter()
        response = self.handler(environ, lambda status, headers: None)
        elapsed = (time.perf_counter() - started) * 1000
        response.close()
        return response, elapsed

    def steps(self, cookie):
        """The three requests of one attack, as (environ, dice) built before any timing."""
        seen = self.version()
        fields = [
            {"type": "attack", "attacker": "tk1", "target": self.pc_id, "difficulty": 10},
            {"type": "react", "combatant": self.pc_id, "skill": "dodge"},
            {"type": "resolve_attack"},
        ]
        dice = [[], DODGE, HIT_AND_WOUND]
        out = []
        for i, (data, faces) in enumerate(zip(fields, dice, strict=True)):
            environ = self.factory.post(
                self.step_url,
                {**data, "seen": seen + i},
                HTTP_HX_REQUEST="true",
                HTTP_COOKIE=cookie,
                HTTP_X_CSRFTOKEN=CSRF,
            ).environ
            out.append((environ, faces))
        return out

    def attack(self, cookie, *, queries=False):
        """One resolved attack: per step (ms, bytes, queries or None, response)."""
        from rules.dice import FixedDice

        results = []
        for environ, faces in self.steps(cookie):
            self.views.dice = lambda faces=faces: FixedDice(faces)
            if queries:
                with Queries() as captured:
                    response, ms = self.call(environ)
                count = len(captured)
                self.sql.append(captured.sql)
            else:
                response, ms = self.call(environ)
                count = None
            assert response.status_code == 200, (response.status_code, response.content[:300])
            results.append((ms, len(response.content), count, response))
        body = results[-1][3].content.decode()
        assert "hits Kira" in body and "now Wounded" in body, body[:500]
        return results

    def reset(self):
        """Undo the attack's three steps (untimed), back to the state it started from."""
        from encounters.services import undo_last_step

        for _ in range(3):
            undo_last_step(self.encounter.pk, expected_version=self.version(), actor=self.gm)

    def poll(self, cookie, runs):
        """The live poll of an unchanged page (204): the cheapest authenticated request."""
        url = f"{self.live_url}?v={self.version()}"
        samples = []
        for _ in range(runs):
            environ = self.factory.get(url, HTTP_HX_REQUEST="true", HTTP_COOKIE=cookie).environ
            response, ms = self.call(environ)
            assert response.status_code == 204, response.status_code
            samples.append(ms)
        return samples

    def page_bytes(self, cookie):
        environ = self.factory.get(self.page_url, HTTP_COOKIE=cookie).environ
        response, _ = self.call(environ)
        assert response.status_code == 200, response.status_code
        return len(response.content)

    def player_dodge_queries(self, gm_cookie, player_cookie):
        """The queries of the player dodging from his phone (his own step, not the GM's)."""
        from rules.dice import FixedDice

        (announce, _), (react, faces), _ = self.steps(gm_cookie)
        self.views.dice = lambda: FixedDice([])
        assert self.call(announce)[0].status_code == 200
        react["HTTP_COOKIE"] = player_cookie
        self.views.dice = lambda: FixedDice(faces)
        with Queries() as captured:
            response, _ = self.call(react)
        assert response.status_code == 200, response.content[:300]
        from encounters.services import undo_last_step

        for _ in range(2):
            undo_last_step(self.encounter.pk, expected_version=self.version(), actor=self.gm)
        return len(captured)


def goal(ok):
    return "meets the goal" if ok else "MISSES the goal"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attacks", type=int, default=60)
    parser.add_argument("--combatants", type=int, default=50)
    parser.add_argument("--polls", type=int, default=5, help="204 polls timed after each attack")
    parser.add_argument("--sql", action="store_true", help="print the SQL of each step")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    gm, player, encounter, pc_id = build(args.combatants)
    gm_cookie, player_cookie = cookie_for(gm), cookie_for(player)
    bench = Bench(encounter, gm, pc_id)

    for _ in range(5):  # warm up template, query and role caches
        bench.attack(gm_cookie)
        bench.reset()
        bench.poll(gm_cookie, args.polls)
    # Interleave attacks and polls so noise hits both alike.
    attacks, polls, per_step = [], [], ([], [], [])
    for _ in range(args.attacks):
        steps = [ms for ms, _, _, _ in bench.attack(gm_cookie)]
        attacks.append(sum(steps))
        for samples, ms in zip(per_step, steps, strict=True):
            samples.append(ms)
        bench.reset()
        polls.extend(bench.poll(gm_cookie, args.polls))
    measured = bench.attack(gm_cookie, queries=True)
    bench.reset()
    url = f"{bench.live_url}?v={bench.version()}"
    with Queries() as poll_queries:
        bench.call(bench.factory.get(url, HTTP_HX_REQUEST="true", HTTP_COOKIE=gm_cookie).environ)
    player_queries = bench.player_dodge_queries(gm_cookie, player_cookie)
    page = bench.page_bytes(gm_cookie)

    exchange_ms, poll_ms = statistics.median(attacks), statistics.median(polls)
    attack_ms = statistics.median(per_step[2])  # the resolve step: the attack, end to end
    ratio = attack_ms / poll_ms
    counts = [count for _, _, count, _ in measured]
    sizes = [size for _, size, _, _ in measured]
    swap = max(sizes) / page
    names = ("announce", "react", "resolve")
    print(f"database: {connection.vendor}")
    print(
        f"{args.combatants} combatants, {args.attacks} resolved attacks (announce, dodge, "
        f"hit and wound), {len(polls)} polls"
    )
    print(
        f"median ms per resolved attack: {attack_ms:.2f} (the step that resolves it: the attack "
        "roll against the standing dodge, damage against Strength, the wound)"
    )
    print(f"minimal view median ms: {poll_ms:.2f} (live poll answering 204)")
    print(f"ratio: {ratio:.2f} (goal <= {GOALS['ratio']}: {goal(ratio <= GOALS['ratio'])})")
    print(
        f"whole exchange (announce, dodge, resolve: three requests): {exchange_ms:.2f} ms, "
        f"{exchange_ms / poll_ms:.1f}x the minimal view"
    )
    step_ms = [statistics.median(samples) for samples in per_step]
    print(
        "median ms per step request: "
        + ", ".join(
            f"{n} {ms:.2f} ({ms / poll_ms:.1f}x the minimal view)"
            for n, ms in zip(names, step_ms, strict=True)
        )
    )
    print(
        f"queries per attack: {max(counts)} (the most of the three step requests: "
        + ", ".join(f"{n} {c}" for n, c in zip(names, counts, strict=True))
        + f"; {sum(counts)} in all; goal <= {GOALS['queries']}: "
        f"{goal(max(counts) <= GOALS['queries'])})"
    )
    print(
        f"player's own dodge queries: {player_queries}; unchanged poll queries: {len(poll_queries)}"
    )
    print(
        f"htmx response bytes: {max(sizes)} (the largest step answer: "
        + ", ".join(f"{n} {s}" for n, s in zip(names, sizes, strict=True))
        + ")"
    )
    print(f"full page bytes: {page} (the GM's dashboard)")
    print(f"swap fraction: {swap:.3f} (goal < {GOALS['swap']}: {goal(swap < GOALS['swap'])})")
    if args.sql:
        for name, sql in zip(names, bench.sql, strict=True):
            print(f"-- {name}:", *(s[:120] for s in sql), sep="\n")


if __name__ == "__main__":
    main()
