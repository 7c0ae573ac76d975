"""What a rule option is: its words, its source and the values the rules allow."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The source tags of the rules digests (/shared/rules/README.md), in words.
SOURCES: dict[str, str] = {
    "UPG": "Rules Upgrade (Second Edition R&E)",
    "WIKI": "Second Edition basic rules",
    "2E-STD": "Second Edition standard rule, not printed in the sources",
    "HOUSE": "House Rules",
    "RC": "Rules Companion (First Edition)",
    "SUGGESTED": "not in the sources: the digests' suggested reading",
}

OFF = ("Not used", "")
"""The words for ``False`` on an optional rule that is switched off."""


@dataclass(frozen=True, slots=True)
class Option:
    """What one rule option means, in words, and which values the rules allow.

    ``choices`` maps each allowed value to ``(words, source tag or "")``; for numbers,
    ``minimum``/``maximum`` bound the value; ``die_code`` options hold a die code (or nothing)
    between ``minimum`` and ``maximum`` dice."""

    label: str
    help: str
    source: str
    group: str
    choices: Mapping[Any, tuple[str, str]] = dataclasses.field(default_factory=dict)
    minimum: int | None = None
    maximum: int | None = None
    unit: str = ""
    die_code: bool = False

    @property
    def range_text(self) -> str:
        """ "0 to 5 Character Points" or "1D to 10D"; empty when the option is not a number."""
        if self.minimum is None or self.maximum is None:
            return ""
        if self.die_code:
            return f"a die code from {self.minimum}D to {self.maximum}D, or blank for none"
        return f"{self.minimum} to {self.maximum}{' ' + self.unit if self.unit else ''}"

    def words(self, value: object) -> str:
        """The value as a player would say it."""
        for choice, (words, _) in self.choices.items():
            if choice == value and type(choice) is type(value):
                return words
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if self.unit:
            return f"{value} {self.unit}"
        return str(value)

    def source_of(self, value: object) -> str:
        """The source tag of this value ("" when the option names none for it)."""
        for choice, (_, tag) in self.choices.items():
            if choice == value and type(choice) is type(value):
                return tag
        return ""


def option(
    label: str,
    help: str,
    *,
    group: str,
    source: str,
    choices: Mapping[Any, tuple[str, str]] | None = None,
    range: tuple[int, int] | None = None,
    unit: str = "",
    die_code: bool = False,
) -> Option:
    """An :class:`Option`; ``range`` is (minimum, maximum) for numbers and die codes."""
    return Option(
        label=label,
        help=help,
        source=source,
        group=group,
        choices=dict(choices or {}),
        minimum=range[0] if range else None,
        maximum=range[1] if range else None,
        unit=unit,
        die_code=die_code,
    )
