"""Redis stopped: the GM's "advance" fails with a clear message and changes nothing, while the
rest of the site (pages, rolls, the live poll, the ledger) keeps working on PostgreSQL.

The web process runs in a subprocess whose ``REDIS_URL`` points at the discard port (nothing
listens there), as a web container does when the Redis container is stopped; its settings are
the production ones (Redis cache and broker, Celery not eager)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from campaigns.models import Membership
from campaigns.tests.factories import CampaignFactory, UserFactory
from characters.models import Character, DiceRoll, LedgerEntry, TimeAdvance
from characters.tests.factories import CharacterFactory, SkillFactory
from characters.tests.test_advance_services import database_url
from conftest import needs_services

pytestmark = [pytest.mark.services, needs_services(), pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import json, time
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

users = get_user_model().objects
gm, player = Client(HTTP_HOST="localhost"), Client(HTTP_HOST="localhost")
gm.force_login(users.get(pk={gm_id}))
player.force_login(users.get(pk={player_id}))
out = {{}}

def get(client, name, *args, **headers):
    response = client.get(reverse(name, args=args), **headers)
    return response.status_code

out["campaign"] = get(player, "campaigns:detail", {campaign_id})
out["sheet"] = get(player, "characters:sheet", {campaign_id}, {hero_id})
out["calendar"] = get(gm, "characters:calendar", {campaign_id})
out["dice_log"] = get(player, "characters:dice_log", {campaign_id})
out["live"] = get(player, "characters:live", {campaign_id}, HTTP_HX_REQUEST="true")
roll = player.post(
    reverse("characters:roll", args=[{campaign_id}, {hero_id}]),
    {{"trait": "skill:{blaster_id}", "actions": 1, "modifier": 0, "cp": 1}},
    HTTP_HX_REQUEST="true",
)
out["roll"] = roll.status_code
started = time.monotonic()
advance = gm.post(
    reverse("characters:advance", args=[{campaign_id}]),
    {{"days": "30", "from_day": "0"}},
    HTTP_HX_REQUEST="true",
)
out["advance"] = advance.status_code
out["advance_seconds"] = round(time.monotonic() - started, 1)
out["advance_says"] = advance.content.decode()
out["retarget"] = advance.headers.get("HX-Retarget", "")
print("RESULT " + json.dumps(out))
"""


def test_with_redis_stopped_advance_fails_clearly_and_the_rest_of_the_site_works():
    campaign = CampaignFactory()
    gm = campaign.created_by
    player = UserFactory()
    Membership.objects.create(campaign=campaign, user=player, role=Membership.Role.PLAYER)
    hero = CharacterFactory(campaign=campaign, owner=player, name="Tala", character_points=5)
    blaster = SkillFactory(character=hero, name="Blaster", code="5D")
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": "redis://127.0.0.1:9/0",  # the discard port: Redis is "stopped"
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DJANGO_ENV": "test",
    }
    script = SCRIPT.format(
        gm_id=gm.pk,
        player_id=player.pk,
        campaign_id=campaign.pk,
        hero_id=hero.pk,
        blaster_id=blaster.pk,
    )

    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, run.stdout + run.stderr
    out = json.loads(lines[0].removeprefix("RESULT "))
    # The rest of the site works.
    assert out["campaign"] == 200
    assert out["sheet"] == 200
    assert out["calendar"] == 200
    assert out["dice_log"] == 200
    assert out["live"] in (200, 204)
    assert out["roll"] == 200
    assert DiceRoll.objects.filter(character=hero).count() == 1
    hero.refresh_from_db()
    assert hero.character_points == 4
    assert LedgerEntry.objects.filter(character=hero, delta=-1).count() == 1
    # The advance is refused in place, quickly, with the reason, and nothing is saved.
    assert out["advance"] == 400
    assert "The job queue cannot be reached" in out["advance_says"]
    assert "nothing changed" in out["advance_says"]
    assert out["advance_seconds"] < 15
    assert not TimeAdvance.objects.exists()
    campaign.refresh_from_db()
    assert campaign.game_day == 0
    assert Character.objects.get(pk=hero.pk).character_points == 4
