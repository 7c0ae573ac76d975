"""The [HOUSE] critical injuries a combatant has taken in the encounter (injuries-and-healing.md
§5): :class:`CriticalTaken`, stored on :attr:`rules.encounter.Combatant.criticals`. Rolling
them and what they change in the fight is :mod:`rules.encounter.house`; the tables are
:mod:`rules.injuries.criticals`.

A value module the combatant's state stores: it imports nothing else of the encounter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from rules._stored import Reader
from rules.encounter.errors import EncounterError
from rules.injuries import CRITICAL_TABLES, CriticalInjury, WoundLevel

__all__ = ["CRITICAL_ATTRIBUTES", "CriticalTaken", "criticals_from_json"]

W = WoundLevel
TABLES = (W.stunned, W.wounded, W.incapacitated, W.mortally_wounded)
_TABLE_NAMES = tuple(level.value for level in TABLES)
CRITICAL_ATTRIBUTES = (
    "Knowledge",
    "Perception",
    "Mechanical",
    "Technical",
    "Dexterity",
    "Strength",
)
"""What the [HOUSE] attribute table (2D) can give a Horrific or Gruesome Injury."""
_ROLLS_ATTRIBUTE = ("Horrific Injury", "Gruesome Injury")


@dataclass(frozen=True, slots=True)
class CriticalTaken:
    """One [HOUSE] critical injury taken in the fight: the table it was rolled on (a wounded
    twice hit uses the wounded table), its name, the round it was taken, and what its own
    rolls gave: the attribute that loses 1D (Horrific and Gruesome Injury) and the days
    before an untreated Deafness, Blindness or Paralysis becomes permanent."""

    table: WoundLevel
    name: str
    round: int
    attribute: str | None = None
    deadline_days: int | None = None

    def __post_init__(self) -> None:
        if self.table not in TABLES:
            raise EncounterError(f"a critical injury's table is one of {', '.join(_TABLE_NAMES)}")
        names = {c.name for c in CRITICAL_TABLES[self.table].values()}
        if self.name not in names:
            raise EncounterError(
                f"no critical injury {self.name!r} on the {self.table.label} table"
            )
        if isinstance(self.round, bool) or not isinstance(self.round, int) or self.round < 1:
            raise EncounterError("a critical injury's round is a whole number of 1 or more")
        wants_attribute = self.name in _ROLLS_ATTRIBUTE
        if wants_attribute != (self.attribute is not None):
            raise EncounterError(
                "a Horrific or Gruesome Injury names the attribute it lowers; no other does"
            )
        if self.attribute is not None and self.attribute not in CRITICAL_ATTRIBUTES:
            raise EncounterError(f"the attribute is one of {', '.join(CRITICAL_ATTRIBUTES)}")
        wants_deadline = self.injury.deadline is not None
        if wants_deadline != (self.deadline_days is not None):
            raise EncounterError(
                "Deafness, Blinded and Paralysis carry the days left for treatment; no other does"
            )
        days = self.deadline_days
        if days is not None and (isinstance(days, bool) or not isinstance(days, int) or days < 1):
            raise EncounterError("the days left for treatment are a whole number of 1 or more")

    @property
    def injury(self) -> CriticalInjury:
        """The table's entry: its effect and the treatment deadline it rolls."""
        return next(c for c in CRITICAL_TABLES[self.table].values() if c.name == self.name)

    @property
    def effect(self) -> str:
        """What it does, as the table says it, with the rolled attribute or deadline."""
        text = self.injury.effect
        if self.attribute is not None:
            text = f"{self.attribute} -1D" + (
                " for good" if self.name == "Gruesome Injury" else " until healed"
            )
        if self.deadline_days is not None:
            text += f"; permanent if untreated for {self.deadline_days} days"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table.value,
            "name": self.name,
            "round": self.round,
            "attribute": self.attribute,
            "deadline_days": self.deadline_days,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = ("table", "name", "round", "attribute", "deadline_days")
        r = Reader(data, "critical injury", keys, EncounterError)
        attribute = r.data["attribute"]
        return cls(
            WoundLevel(r.choice("table", _TABLE_NAMES)),
            r.text("name"),
            r.integer("round", least=1),
            None if attribute is None else r.text("attribute"),
            r.optional_integer("deadline_days"),
        )


def criticals_from_json(data: Any) -> tuple[CriticalTaken, ...]:
    """A combatant's stored list of critical injuries."""
    if not isinstance(data, list):
        raise EncounterError(
            f"the critical injuries are stored as a list, not {type(data).__name__}"
        )
    return tuple(CriticalTaken.from_json(item) for item in data)
