"""The lock files pin every package, transitive ones too, with its hashes, and agree with the
pins people edit in requirements*.txt: a pin changed without `make lock` fails here."""

import re
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCKS = {"requirements.txt": "requirements.lock", "requirements-dev.txt": "requirements-dev.lock"}
ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.MULTILINE)


def _pins(name: str) -> dict[str, str]:
    """The human-edited pins of a requirements file and the files it includes with -r."""
    pins = {}
    for line in (ROOT / name).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r "):
            pins |= _pins(line[3:].strip())
        elif line:
            requirement = Requirement(line)
            (specifier,) = requirement.specifier
            assert specifier.operator == "==", f"{name}: {line} is not pinned"
            pins[canonicalize_name(requirement.name)] = specifier.version
    return pins


def _locked(name: str) -> dict[str, str]:
    return {canonicalize_name(n): v for n, v in ENTRY.findall((ROOT / name).read_text())}


@pytest.mark.parametrize("source", LOCKS)
def test_every_pin_people_edit_is_in_the_lock_at_the_same_version(source):
    locked = _locked(LOCKS[source])
    assert {n: locked.get(n) for n in _pins(source)} == _pins(source)


@pytest.mark.parametrize("lock", LOCKS.values())
def test_every_locked_package_carries_its_hashes(lock):
    blocks = re.split(r"\n(?=[A-Za-z0-9])", (ROOT / lock).read_text())
    entries = [b for b in blocks if ENTRY.match(b)]
    assert len(entries) == len(_locked(lock)) > len(_pins(lock.replace(".lock", ".txt")))
    assert [b.split()[0] for b in entries if "--hash=sha256:" not in b] == []


def test_the_dev_lock_installs_the_same_runtime_versions_as_the_runtime_lock():
    runtime, dev = _locked("requirements.lock"), _locked("requirements-dev.lock")
    assert {n: dev.get(n) for n in runtime} == runtime


def test_make_and_the_image_install_only_from_the_locks_checking_hashes():
    makefile = (ROOT / "Makefile").read_text()
    assert "--require-hashes" in makefile
    assert "-r requirements.lock" in makefile and "-r requirements-dev.lock" in makefile
    assert not re.search(r"pip install[^\n]*-r requirements(-dev)?\.txt", makefile)
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install --require-hashes -r requirements.lock" in dockerfile
