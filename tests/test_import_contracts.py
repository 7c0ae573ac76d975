"""Imports run one way, rules <- campaigns <- characters <- encounters, and the rules engine
imports no Django. import-linter checks the contracts in ``make lint`` (pyproject.toml,
[tool.importlinter]); these tests keep the contracts from being dropped or loosened quietly,
and run them with the suite too."""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _contracts(kind: str) -> list[dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return [c for c in config["contracts"] if c["type"] == kind]


def test_the_apps_are_layered_rules_campaigns_characters_encounters():
    (layers,) = _contracts("layers")
    assert layers["layers"] == ["config", "encounters", "characters", "campaigns", "rules"]


def test_the_rules_engine_may_not_import_django():
    assert any(
        c["source_modules"] == ["rules"] and "django" in c["forbidden_modules"]
        for c in _contracts("forbidden")
    )


def test_every_import_in_the_project_keeps_the_contracts():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run(
        [lint_imports, "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
