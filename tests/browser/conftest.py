import contextlib
import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the
# test itself (fixtures, assertions) are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        for name, value in item.funcargs.items():
            if hasattr(value, "screenshot") and hasattr(value, "url"):
                with contextlib.suppress(Exception):
                    value.screenshot(
                        path=str(ARTIFACTS / f"{item.name}-{name}.png"), full_page=True
                    )
