"""Restoring a backup in Chromium: the GM of the demo campaign uploads its backup on the restore
page and lands on the job's page, which says the campaign was restored and links to it; a job
still running shows its progress bar and, polled once a second, turns into the result by
itself when the worker finishes; a damaged file's page lists every problem with its place.
axe-core finds no WCAG 2.1 AA violation on the pages. Each page is photographed at a phone's
width and a desktop's into test-artifacts/restore/.

Celery runs eagerly here (as in ``make run`` without Redis), so the restore ends within the
upload; the running job's progress is set in the cache as the worker would set it (the real
worker: tests/test_restore_worker.py)."""

import json
import uuid

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from playwright.sync_api import expect

from campaigns.models import Campaign, RestoreJob
from characters.demo import load_demo
from tests.backups import export_text
from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SHOTS = ARTIFACTS / "restore"
WCAG_21_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    yield context.new_page()
    context.close()


def log_in(page, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )


def shoot_and_check(page, name):
    """A full-page picture at a phone's width and a desktop's, and axe at each."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    own = page.viewport_size
    page.evaluate("window.scrollTo(0, 0)")
    reports = []
    for width, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        results = Axe().run(page, options=WCAG_21_AA)
        if results.violations_count:
            reports.append(f"{name} at {width}:\n{results.generate_report()}")
    page.set_viewport_size(own)
    assert not reports, "\n".join(reports)


def upload(page, path, name=""):
    page.goto("/campaigns/restore/")
    page.get_by_label("Backup file").set_input_files(str(path))
    if name:
        page.get_by_label("Name of the restored campaign").fill(name)
    page.get_by_role("button", name="Restore the campaign").click()


def test_a_gm_restores_a_backup_and_follows_a_job_to_its_end(live_server, page, eager, tmp_path):
    original = load_demo()
    gm = get_user_model().objects.get(username="gm")
    text = export_text(original)
    good = tmp_path / "shadows-over-tatooine.datapad.json"
    good.write_text(text, encoding="utf-8")
    log_in(page, live_server, gm)

    page.goto("/campaigns/restore/")
    shoot_and_check(page, "form")
    upload(page, good, name="Tatooine, again")

    expect(page.get_by_text("“Tatooine, again” was restored from the backup.")).to_be_visible()
    restored = Campaign.objects.get(name="Tatooine, again")
    expect(page.get_by_role("link", name="Open “Tatooine, again”")).to_have_attribute(
        "href", restored.get_absolute_url()
    )
    shoot_and_check(page, "done")

    # A job a worker is writing: its bar, then (the worker done) the result, by itself.
    job = RestoreJob.objects.create(
        user=gm,
        key=uuid.uuid4(),
        filename="big-campaign.datapad.json",
        size=57_000_000,
        status="running",
        progress=40,
    )
    key = f"datapad:restore-job:{job.pk}:progress"
    cache.set(key, {"stage": "writing", "done": 41_000, "total": 100_050})
    page.goto(job.get_absolute_url())
    bar = page.locator("#restore-bar")
    expect(bar).to_have_attribute("value", "64")
    expect(
        page.get_by_text("Creating the campaign: 41,000 of 100,050 records… 64%.")
    ).to_be_visible()
    shoot_and_check(page, "running")
    RestoreJob.objects.filter(pk=job.pk).update(
        status="done", progress=100, campaign=restored, counts={"characters": 5, "rolls": 6}
    )
    cache.delete(key)
    expect(page.get_by_text("“Tatooine, again” was restored from the backup.")).to_be_visible(
        timeout=5000
    )
    expect(page.get_by_text("Restored: 5 characters, 6 dice rolls.")).to_be_visible()

    # A damaged file: every problem with its place, and no campaign.
    document = json.loads(text)
    document["parts"]["characters"][0]["skills"][0]["code"] = "9D+7"
    document["parts"]["members"][1]["role"] = "emperor"
    bad = tmp_path / "damaged.datapad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    campaigns = Campaign.objects.count()
    upload(page, bad)
    problems = page.locator("#backup-problems")
    expect(problems).to_contain_text("The backup was refused; nothing was created.")
    expect(problems).to_contain_text("parts.characters[0].skills[0].code: '9D+7' is not a die code")
    expect(problems).to_contain_text("parts.members[1].role: 'emperor' is not one of")
    assert Campaign.objects.count() == campaigns
    shoot_and_check(page, "refused")

    # The form lists the GM's latest restores, each a link to its page.
    page.goto("/campaigns/restore/")
    recent = page.get_by_role("region", name="Your latest restores")
    expect(recent.get_by_role("link")).to_have_count(3)
    shoot_and_check(page, "form-recent")
