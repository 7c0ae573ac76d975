"""The rules engine is plain Python: importing every module loads no Django."""

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import rules

RULES_DIR = Path(rules.__file__).parent
MODULES = sorted(
    f"rules.{m.name}" for m in pkgutil.iter_modules([str(RULES_DIR)]) if m.name != "tests"
)


def test_importing_every_rules_module_loads_no_django():
    code = (
        "import importlib, sys\n"
        f"for name in {MODULES!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=RULES_DIR.parent,
    )
    assert result.stdout.strip() == "[]"
    assert len(MODULES) >= 10


def test_no_rules_source_file_imports_django():
    offenders = []
    for path in RULES_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "django"]
    assert offenders == []
