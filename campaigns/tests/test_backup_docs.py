"""docs/backup-format.md documents every field of every part, and only those: a field added to
a part (or a part added by an app) without its line in the format's documentation fails here."""

import re
from pathlib import Path

from campaigns.backup import CAMPAIGN, registered

DOC = Path(__file__).resolve().parents[2] / "docs" / "backup-format.md"


def documented() -> dict[str, list[str]]:
    """The fields listed in each section's table, by section heading."""
    sections: dict[str, list[str]] = {}
    heading = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip().strip("`")
            sections[heading] = []
        elif heading and (row := re.match(r"\| `([a-z_]+)` \|", line)):
            sections[heading].append(row.group(1))
    return sections


def expected() -> dict[str, list[str]]:
    sections = {"campaign": list(CAMPAIGN.fields)}
    for part in registered():
        sections[f"parts.{part.name}"] = [*part.table.fields, *part.table.children]
        for key, child in part.table.children.items():
            sections[f"parts.{part.name}[].{key}"] = list(child.fields)
    return sections


def test_every_part_and_field_is_documented_in_order():
    found = documented()
    for section, fields in expected().items():
        assert found.get(section) == fields, section
