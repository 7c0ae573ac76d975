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
        pages = []
        for value in item.funcargs.values():
            if hasattr(value, "screenshot") and hasattr(value, "url"):
                pages.append(value)
            for context in getattr(value, "contexts", []):  # a Browser: every page it opened
                pages.extend(context.pages)
        for number, page in enumerate(pages):
            with contextlib.suppress(Exception):
                page.screenshot(path=str(ARTIFACTS / f"{item.name}-{number}.png"), full_page=True)
