"""Production settings: the same module the container runs, checked by Django itself."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "x9!k2#" * 10,
    "ALLOWED_HOSTS": "datapad.example.org",
}


def _manage(*args, env):
    dropped = ("SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE")
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_no_warnings_in_production():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = _manage("check", env=env)
    assert result.returncode != 0
    assert "Production needs SECRET_KEY" in result.stderr


def test_production_refuses_a_short_secret_key():
    result = _manage("check", env={**PRODUCTION_ENV, "SECRET_KEY": "short"})
    assert result.returncode != 0
    assert "at least 50 characters" in result.stderr
