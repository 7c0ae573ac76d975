"""Server time to render a 60-skill, 20-item character sheet, against a minimal Django view that
does one query, measured in the same run (the ratio is what to compare; these machines are
shared and noisy). No server needed: requests go through Django's full middleware stack with
the test client, on a throwaway SQLite database unless DATABASE_URL is set.

    python bench/sheet.py [--runs 200]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
import types
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
from django.http import HttpResponse  # noqa: E402
from django.test import Client, RequestFactory  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import include, path  # noqa: E402


def minimal_view(request):
    user = get_user_model().objects.filter(pk=request.user.pk).first()
    return HttpResponse(f"hello {user.username}")


urls = types.ModuleType("bench_urls")
urls.urlpatterns = [path("bench/minimal/", minimal_view), path("", include("config.urls"))]
sys.modules["bench_urls"] = urls
settings.ROOT_URLCONF = "bench_urls"
settings.ALLOWED_HOSTS = ["*"]
settings.DEBUG = False


def build_character():
    from campaigns.models import Campaign, Membership
    from characters.models import ATTRIBUTES, Character, Item, Skill

    user = get_user_model().objects.create_user("bench", password="bench-password-123")
    campaign = Campaign.objects.create(name="Bench", created_by=user)
    Membership.objects.create(campaign=campaign, user=user, role="gm")
    character = Character.objects.create(campaign=campaign, owner=user, name="Sixty Skills")
    Skill.objects.bulk_create(
        Skill(
            character=character,
            name=f"skill {i:02d}",
            attribute=ATTRIBUTES[i % 6],
            code=f"{3 + i % 4}D+{i % 3}",
        )
        for i in range(60)
    )
    Item.objects.bulk_create(
        Item(
            character=character, name=f"item {i}", kind="weapon", damage="4D", ranges="3-10/30/120"
        )
        for i in range(20)
    )
    return user, character


def median_ms(handler, environ, runs):
    """Median time for the WSGI handler (all middleware, no test-client signal hooks, which
    copy every template context and would slow big pages more than small ones)."""
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        response = handler(dict(environ), lambda status, headers: None)
        samples.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.status_code
        response.close()
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    user, character = build_character()
    client = Client()
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    handler = WSGIHandler()
    factory = RequestFactory()
    sheet_env = {**factory.get(character.get_absolute_url()).environ, "HTTP_COOKIE": cookie}
    minimal_env = {**factory.get("/bench/minimal/").environ, "HTTP_COOKIE": cookie}
    for env in (sheet_env, minimal_env):  # warm up template and query caches
        median_ms(handler, env, 10)
    # Interleave the two so noise hits both alike.
    sheet, minimal = [], []
    for _ in range(5):
        sheet.append(median_ms(handler, sheet_env, args.runs // 5))
        minimal.append(median_ms(handler, minimal_env, args.runs // 5))
    with CaptureQueriesContext(connection) as queries:
        handler(dict(sheet_env), lambda status, headers: None)
    sheet_ms, minimal_ms = statistics.median(sheet), statistics.median(minimal)
    print(f"database: {connection.vendor}")
    print(f"sheet (60 skills, 20 items) median: {sheet_ms:.2f} ms")
    print(f"minimal view (one query) median: {minimal_ms:.2f} ms")
    print(f"ratio: {sheet_ms / minimal_ms:.2f}")
    print(f"sheet queries: {len(queries)}")


if __name__ == "__main__":
    main()
