"""Project-wide test set-up: what the run uses (database, broker, browser) is printed in the
header, and browser tests get Debian's Chromium."""

import os
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
REQUIRE_SERVICES = os.environ.get("DATAPAD_REQUIRE_SERVICES") == "1"


def pytest_report_header(config):
    from django.conf import settings
    from django.db import connection

    db = settings.DATABASES["default"]
    lines = [
        f"datapad database: {connection.vendor} ({db['ENGINE']}) "
        f"at {db.get('HOST') or db.get('NAME')}:{db.get('PORT') or ''}",
        f"datapad broker: {settings.CELERY_BROKER_URL} (eager={settings.CELERY_TASK_ALWAYS_EAGER})",
        f"datapad browser: {CHROMIUM}",
    ]
    return lines


_browser_results = {"passed": 0, "failed": 0}


def pytest_runtest_logreport(report):
    if report.when == "call" and "browser" in report.keywords:
        _browser_results["passed" if report.passed else "failed"] += 1


def pytest_terminal_summary(terminalreporter):
    from django.db import connection

    terminalreporter.write_line(
        f"datapad: database vendor {connection.vendor}; browser tests in headless Chromium: "
        f"{_browser_results['passed']} passed, {_browser_results['failed']} failed"
    )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def needs_services():
    """Skip a test that needs real PostgreSQL/Redis when they are absent, except under
    ``make test`` (DATAPAD_REQUIRE_SERVICES=1), where their absence is a failure."""
    present = bool(os.environ.get("REDIS_URL")) and bool(os.environ.get("DATABASE_URL"))
    if REQUIRE_SERVICES and not present:
        raise RuntimeError("make test must provide DATABASE_URL and REDIS_URL")
    return pytest.mark.skipif(not present, reason="needs PostgreSQL and Redis (run make test)")


@pytest.fixture
def eager():
    """Celery runs tasks at once, in the test's process (``make run``'s embedded mode), for the
    test's length: an advance or a restore finishes inside the request that asks for it."""
    from characters.tasks import advance_time  # the project's Celery app, once Django is set up

    app = advance_time.app
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before
