"""Server time and queries of one resolved starship attack in an encounter of 10 crewed ships
(each a freighter flown and gunned by two characters) and 20 starfighters (a squadron flown by
its unnamed crew): the GM announces a fighter's laser cannons at the first freighter, its pilot
(a player) dodges, the GM rolls it: it hits, the hull roll fails by 8 and the freighter is
lightly damaged (the 1D table: -1D maneuverability), which goes onto its ship sheet.

Printed: the median milliseconds of the step that resolves the attack and of the whole
three-request exchange, against the same run's cheapest authenticated request (the live poll
answering 204), and the queries of each step (`queries per attack: N`, the most of the three;
goal: at most 15 whatever the number of craft — the run repeats the count with a quarter of the
craft to show it). No server needed: Django's WSGI handler and full middleware, on a throwaway
SQLite database unless DATABASE_URL is set. The dice are fixed; between attacks the three
steps are undone (untimed).

    python bench/ship_combat.py [--attacks 40] [--ships 10] [--fighters 20]
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
from django.test import RequestFactory  # noqa: E402
from django.urls import reverse  # noqa: E402
from encounter import CSRF, Queries, cookie_for  # noqa: E402  (bench/encounter.py)

warnings.filterwarnings("ignore", message="No directory at")
settings.ALLOWED_HOSTS = ["*"]
settings.DEBUG = False

# The dice in the engine's drawing order (ordinary dice, then the Wild Die):
DODGE = [1, 1, 1, 1, 1, 2]  # the pilot's 5D + 2D maneuverability, an extra action: 6D = 7
ATTACK = [5, 5, 5, 5, 5, 4]  # the fighter's crew 4D + fire control 2D = 29: a hit
DAMAGE = [4, 4, 4, 4, 4]  # laser cannons 5D = 20
HULL = [3, 3, 3, 3]  # hull 4D = 12: a margin of 8, lightly damaged
TABLE = [1]  # lightly damaged table, 1: -1D maneuverability
HIT = [*ATTACK, *DAMAGE, *HULL, *TABLE]
GOAL = 15


def build(tag, ships, fighters):
    """A campaign whose fight holds ``ships`` freighters, each crewed by a pilot (player one's
    character) and a gunner (player two's), and a squadron of ``fighters`` starfighters, in the
    round with every actor's actions declared."""
    from campaigns.models import Campaign, Membership
    from characters.craft_services import create_craft, crew_station
    from characters.models import Character, Skill
    from encounters.combatants import combatants_for_craft, squadron
    from encounters.services import apply_step, start_encounter
    from rules.craft import CraftStats, CraftWeapon
    from rules.dice import DieCode, FixedDice
    from rules.encounter import AddCombatants, DeclareActions, EncounterState
    from rules.scale import Scale

    d = DieCode.parse
    users = get_user_model().objects
    gm = users.create_user(f"gm-{tag}", password="bench-password-123")
    p1 = users.create_user(f"pilot-{tag}", password="bench-password-123")
    p2 = users.create_user(f"gunner-{tag}", password="bench-password-123")
    campaign = Campaign.objects.create(name=f"Ship bench {tag}", created_by=gm)
    for user, role in ((gm, "gm"), (p1, "player"), (p2, "player")):
        Membership.objects.create(campaign=campaign, user=user, role=role)
    gm_member = campaign.memberships.get(user=gm)
    freighter = CraftStats(
        name="Freighter",
        kind="starship",
        scale=Scale.STARFIGHTER,
        maneuverability=d("2D"),
        hull=d("4D"),
        shields=d("1D"),
        piloting_skill="space transports",
        weapons=(CraftWeapon("Quad laser", fire_control=d("2D"), damage=d("6D"), arc="turret"),),
    )
    fighter = CraftStats(
        name="TIE",
        kind="starship",
        scale=Scale.STARFIGHTER,
        maneuverability=d("2D"),
        hull=d("2D"),
        crew_code=d("4D"),
        weapons=(CraftWeapon("Laser cannons", fire_control=d("2D"), damage=d("5D"), arc="front"),),
    )
    people = []
    present = set()
    for n in range(ships):
        ship = create_craft(campaign, freighter, name=f"Freighter {n + 1}", party=True)
        pilot = Character.objects.create(
            campaign=campaign, owner=p1, name=f"Pilot {n + 1}", perception=d("2D")
        )
        gunner = Character.objects.create(
            campaign=campaign, owner=p2, name=f"Gunner {n + 1}", perception=d("2D")
        )
        Skill.objects.create(character=pilot, name="Space transports", code=d("5D"))
        Skill.objects.create(character=gunner, name="Starship gunnery", code=d("5D"))
        crew_station(gm_member, ship.stations.get(role="pilot"), pilot)
        crew_station(gm_member, ship.stations.get(role="gunner", weapon_index=0), gunner)
        ship.refresh_from_db()
        group = combatants_for_craft(ship, side="rebels", ruleset=campaign.ruleset, present=present)
        present |= {c.id for c in group}
        people += group
    wing = create_craft(campaign, fighter, name="Black", party=False)
    people += squadron(
        wing, side="empire", count=fighters, ruleset=campaign.ruleset, present=present
    )
    state = EncounterState(phase="order", initiative_winner="empire")
    encounter = start_encounter(campaign, "Ambush over Kessel", gm, state=state)
    version = 0
    commands = [AddCombatants(tuple(people))]
    for command in commands:
        apply_step(
            encounter.pk, command.to_json(), expected_version=version, actor=gm, rng=FixedDice([])
        )
        version += 1
    from rules.encounter import ChooseOrder

    apply_step(
        encounter.pk,
        ChooseOrder("empire", first=True).to_json(),
        expected_version=version,
        actor=gm,
        rng=FixedDice([]),
    )
    version += 1
    encounter.refresh_from_db()
    for cid in encounter.current_state().order:
        apply_step(
            encounter.pk,
            DeclareActions(cid, 1).to_json(),
            expected_version=version,
            actor=gm,
            rng=FixedDice([]),
        )
        version += 1
    encounter.refresh_from_db()
    state = encounter.current_state()
    target = next(c for c in state.combatants if c.craft is not None and c.side == "rebels")
    attacker = next(c for c in state.combatants if c.craft is not None and c.side == "empire")
    pilot = target.craft.holder("pilot")
    return gm, p1, encounter, attacker.id, target.id, pilot


class Bench:
    def __init__(self, encounter, gm, attacker, target, pilot):
        from encounters import views

        self.views = views
        self.encounter, self.gm = encounter, gm
        self.attacker, self.target, self.pilot = attacker, target, pilot
        self.handler = WSGIHandler()
        self.factory = RequestFactory()
        args = [encounter.campaign_id, encounter.pk]
        self.step_url = reverse("encounters:step", args=args)
        self.live_url = reverse("encounters:live", args=args)

    def version(self):
        self.encounter.refresh_from_db(fields=["version"])
        return self.encounter.version

    def call(self, environ):
        started = time.perf_counter()
        response = self.handler(environ, lambda status, headers: None)
        elapsed = (time.perf_counter() - started) * 1000
        response.close()
        return response, elapsed

    def attack(self, gm_cookie, player_cookie, *, count=False):
        """Announce (GM), dodge (the pilot's player), resolve (GM): per step (ms, queries)."""
        from rules.dice import FixedDice

        seen = self.version()
        steps = [
            (
                {
                    "type": "attack",
                    "attacker": self.attacker,
                    "target": self.target,
                    "difficulty": 10,
                    "gun": 0,
                },
                [],
                gm_cookie,
            ),
            (
                {
                    "type": "react",
                    "combatant": self.pilot,
                    "skill": "starship dodge",
                    "extra": "on",
                    "extra__present": "1",
                },
                DODGE,
                player_cookie,
            ),
            ({"type": "resolve_attack"}, HIT, gm_cookie),
        ]
        environs = [
            (
                self.factory.post(
                    self.step_url,
                    {**data, "seen": seen + i},
                    HTTP_HX_REQUEST="true",
                    HTTP_COOKIE=cookie,
                    HTTP_X_CSRFTOKEN=CSRF,
                ).environ,
                faces,
            )
            for i, (data, faces, cookie) in enumerate(steps)
        ]
        out = []
        for environ, faces in environs:
            self.views.dice = lambda faces=faces: FixedDice(faces)
            if count:
                with Queries() as captured:
                    response, ms = self.call(environ)
                n = len(captured)
            else:
                response, ms = self.call(environ)
                n = None
            assert response.status_code == 200, (response.status_code, response.content[:400])
            out.append((ms, n, response))
        body = out[-1][2].content.decode()
        assert "lightly damaged" in body, body[:600]
        return out

    def reset(self):
        from encounters.services import undo_last_step

        for _ in range(3):
            undo_last_step(self.encounter.pk, expected_version=self.version(), actor=self.gm)

    def poll(self, cookie, runs):
        url = f"{self.live_url}?v={self.version()}"
        samples = []
        for _ in range(runs):
            environ = self.factory.get(url, HTTP_HX_REQUEST="true", HTTP_COOKIE=cookie).environ
            response, ms = self.call(environ)
            assert response.status_code == 204, response.status_code
            samples.append(ms)
        return samples


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attacks", type=int, default=40)
    parser.add_argument("--ships", type=int, default=10)
    parser.add_argument("--fighters", type=int, default=20)
    parser.add_argument("--polls", type=int, default=5)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    from characters.craft_models import Craft

    results = {}
    for tag, ships, fighters in (
        ("small", max(1, args.ships // 4), max(1, args.fighters // 4)),
        ("full", args.ships, args.fighters),
    ):
        gm, player, encounter, attacker, target, pilot = build(tag, ships, fighters)
        bench = Bench(encounter, gm, attacker, target, pilot)
        gm_cookie, player_cookie = cookie_for(gm), cookie_for(player)
        runs = args.attacks if tag == "full" else 3
        for _ in range(3):  # warm up
            bench.attack(gm_cookie, player_cookie)
            bench.reset()
        resolve, exchange, polls = [], [], []
        for _ in range(runs):
            steps = [ms for ms, _, _ in bench.attack(gm_cookie, player_cookie)]
            resolve.append(steps[2])
            exchange.append(sum(steps))
            bench.reset()
            polls.extend(bench.poll(gm_cookie, args.polls))
        counted = bench.attack(gm_cookie, player_cookie, count=True)
        ship = Craft.objects.get(pk=int(target.split("-")[1]))
        assert ship.damage and ship.damage["maneuverability_lost"] == 1, ship.damage
        bench.reset()
        results[tag] = (ships, fighters, resolve, exchange, polls, [n for _, n, _ in counted])

    ships, fighters, resolve, exchange, polls, counts = results["full"]
    poll_ms = statistics.median(polls)
    print(f"database: {connection.vendor}")
    print(
        f"{ships} crewed ships (2 characters each) and {fighters} starfighters; "
        f"{len(resolve)} resolved starship attacks (announce, the pilot's dodge, the hit and "
        "its damage result onto the ship sheet)"
    )
    print(
        f"median server ms per resolved starship attack: {statistics.median(resolve):.2f} "
        f"(the resolve step; {statistics.median(resolve) / poll_ms:.1f}x the minimal view)"
    )
    print(
        f"whole exchange (three requests): {statistics.median(exchange):.2f} ms; minimal view "
        f"(live poll answering 204): {poll_ms:.2f} ms"
    )
    names = ("announce", "dodge", "resolve")
    small = results["small"]
    print(
        f"queries per attack: {max(counts)} ("
        + ", ".join(f"{n} {c}" for n, c in zip(names, counts, strict=True))
        + f"; with {small[0]} ships and {small[1]} fighters: "
        + ", ".join(f"{n} {c}" for n, c in zip(names, small[5], strict=True))
        + f"; goal <= {GOAL}: {'meets the goal' if max(counts) <= GOAL else 'MISSES the goal'})"
    )


if __name__ == "__main__":
    main()
