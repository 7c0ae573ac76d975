"""The engine's public surface keeps the house rules (issue 13, STYLE.md "Where logic lives").

* nothing implicit: every public function or method that takes the campaign's ``ruleset`` or a
  dice source ``rng`` takes it as a required keyword (no ``ruleset=RuleSet()`` defaults, no
  ``rng=None`` falling back to the system's dice), and nothing but its own class makes
  ``SystemDice()``;
* modules by topic: no module in ``rules/`` is longer than 600 lines;
* one error type: nothing in ``rules/`` raises a bare ``ValueError``, only ``RulesError``s.

Each check is parametrised by module, so a failure names the module to mend. Modules are
found with :mod:`pkgutil` without importing them; each test imports (or parses) its own.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

import rules

ROOT = Path(rules.__file__).parent
MAX_LINES = 600
GUARDED = ("ruleset", "rng")


def _modules(path: Path, prefix: str) -> Iterator[tuple[str, Path]]:
    """(dotted name, file) of every public module and package under ``path``, tests left out."""
    for info in pkgutil.iter_modules([str(path)]):
        if info.name.startswith("_") or info.name == "tests":
            continue
        name = f"{prefix}.{info.name}"
        if info.ispkg:
            yield name, path / info.name / "__init__.py"
            yield from _modules(path / info.name, name)
        else:
            yield name, path / f"{info.name}.py"


PUBLIC = [("rules", ROOT / "__init__.py"), *_modules(ROOT, "rules")]
"""The public modules, by dotted name."""

SOURCES = sorted(
    (p for p in ROOT.rglob("*.py") if "tests" not in p.relative_to(ROOT).parts),
    key=lambda p: p.relative_to(ROOT).as_posix(),
)
"""Every module file of the engine (private ones too), tests left out."""


def _file_id(path: Path) -> str:
    return "rules/" + path.relative_to(ROOT).as_posix()


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


# ---------------------------------------------------------------------------------------------
# (a) ruleset and rng: required keywords on the public surface
# ---------------------------------------------------------------------------------------------
def _defined_in(obj: object, module: ModuleType) -> bool:
    return getattr(inspect.unwrap(obj), "__module__", None) == module.__name__  # type: ignore[arg-type]


def _routines(module: ModuleType) -> Iterator[tuple[str, Callable[..., object]]]:
    """Public functions of ``module`` and public methods of its public classes (those defined
    there, not imported), by qualified name."""
    for name, obj in vars(module).items():
        if name.startswith("_") or not _defined_in(obj, module):
            continue
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                if isinstance(member, staticmethod | classmethod):
                    member = member.__func__
                if callable(member) and inspect.isroutine(inspect.unwrap(member)):
                    yield f"{name}.{attr}", member
        elif callable(obj) and inspect.isroutine(inspect.unwrap(obj)):
            yield name, obj


def _loose_parameters(module: ModuleType) -> list[str]:
    loose = []
    for qualname, routine in _routines(module):
        try:
            signature = inspect.signature(routine)
        except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
            continue
        for parameter in signature.parameters.values():
            if parameter.name not in GUARDED:
                continue
            if parameter.kind is not inspect.Parameter.KEYWORD_ONLY:
                loose.append(f"{qualname}({parameter.name}) is not keyword-only")
            if parameter.default is not inspect.Parameter.empty:
                loose.append(f"{qualname}({parameter.name}={parameter.default!r}) has a default")
    return loose


@pytest.mark.parametrize(("name", "path"), PUBLIC, ids=[name for name, _ in PUBLIC])
def test_ruleset_and_rng_are_required_keywords_on_the_public_surface(name, path):
    module = importlib.import_module(name)
    assert _loose_parameters(module) == []


def test_the_surface_walk_finds_the_engine_modules():
    names = {name for name, _ in PUBLIC}
    assert {"rules", "rules.dice", "rules.odds", "rules.difficulty", "rules.ruleset"} <= names
    assert not any(".tests" in name or name.rsplit(".", 1)[-1].startswith("_") for name in names)


def test_the_surface_check_catches_an_optional_or_positional_ruleset():
    module = ModuleType("rules.example")
    exec(  # a throwaway module to prove the check bites
        "class RuleSet: ...\n"
        "def positional(code, ruleset): ...\n"
        "def defaulted(code, *, ruleset=RuleSet(), rng=None): ...\n"
        "def fine(code, *, ruleset, rng): ...\n"
        "class Thing:\n"
        "    def method(self, ruleset): ...\n"
        "    @classmethod\n"
        "    def build(cls, *, rng=None): ...\n",
        module.__dict__,
    )
    loose = _loose_parameters(module)
    assert len(loose) == 5
    assert any(item.startswith("positional(ruleset)") for item in loose)
    assert any(item.startswith("Thing.build(rng=None)") for item in loose)
    assert not any(item.startswith("fine") for item in loose)


# ---------------------------------------------------------------------------------------------
# (b) no system dice and no default ruleset in the engine
# ---------------------------------------------------------------------------------------------
def _called(node: ast.AST, name: str) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in ("preset", "from_json"):
        func = func.value  # RuleSet.preset("2e") is a ruleset made up on the spot too
    return (isinstance(func, ast.Name) and func.id == name) or (
        isinstance(func, ast.Attribute) and func.attr == name
    )


def _implicit_rules(tree: ast.Module) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if _called(node, "SystemDice"):
            found.append(f"line {node.lineno}: SystemDice()")  # type: ignore[attr-defined]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            args = node.args
            positional = args.posonlyargs + args.args
            pairs = list(
                zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
            )
            pairs += [
                (a, d)
                for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
                if d is not None
            ]
            for arg, default in pairs:
                if arg.arg in GUARDED or _called(default, "RuleSet"):
                    found.append(f"line {default.lineno}: {arg.arg}={ast.unparse(default)}")
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            value = node.value
            if _called(value, "field"):
                value = next(
                    (k.value for k in value.keywords if k.arg in ("default", "default_factory")),
                    value,
                )
            if _called(value, "RuleSet") or (isinstance(value, ast.Name) and value.id == "RuleSet"):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", SOURCES, ids=_file_id)
def test_no_module_makes_system_dice_or_a_default_ruleset(path):
    assert _implicit_rules(_parse(path)) == []


def test_the_implicit_rules_check_catches_defaults_and_system_dice():
    tree = ast.parse(
        "def a(code, ruleset=RuleSet()): ...\n"
        "def b(code, *, ruleset: RuleSet = RuleSet.preset('2e')): ...\n"
        "def c(code, *, rng=None):\n"
        "    rng = rng or SystemDice()\n"
        "def d(code, rules=RuleSet()): ...\n"
        "class State:\n"
        "    ruleset: RuleSet = RuleSet()\n"
        "    other: RuleSet = field(default_factory=RuleSet)\n"
        "def fine(code, *, ruleset, rng, actions=1): ...\n"
    )
    assert len(_implicit_rules(tree)) == 7


# ---------------------------------------------------------------------------------------------
# (c) modules by topic: none over 600 lines
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", SOURCES, ids=_file_id)
def test_no_module_is_longer_than_600_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{_file_id(path)} has {lines} lines; split it by topic"


# ---------------------------------------------------------------------------------------------
# (d) one error type: no bare ValueError
# ---------------------------------------------------------------------------------------------
def _bare_value_errors(tree: ast.Module) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name) and exc.id == "ValueError":
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("path", SOURCES, ids=_file_id)
def test_no_module_raises_a_bare_value_error(path):
    assert _bare_value_errors(_parse(path)) == [], "raise a RulesError subclass instead"


def test_the_value_error_check_catches_both_spellings():
    tree = ast.parse(
        "raise ValueError('no')\nraise ValueError\nraise RulesError('fine')\n"
        "try:\n    pass\nexcept ValueError:\n    raise\n"
    )
    assert _bare_value_errors(tree) == [1, 2]
