"""Grenades and other explosives, the stored side (combat.md §4.8, §9.10; CA-24): the steps
:class:`Throw` and :class:`Detonate` and the :class:`PendingBlast` the encounter keeps between
them. What the steps do is :mod:`rules.encounter.blast`.

An explosive is given as its stat line: the blast radius of each band from the centre out
(``"0-2/8/12/20"`` metres; the leading ``0-`` may be left out) and the damage in each band
(``"10D/8D/5D/2D"``). The sources print no explosive's numbers (band values are weapon data),
so the GM enters them.

A value module the encounter's state stores: it imports nothing else of the encounter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from rules._stored import Reader
from rules.dice import DieCode, DieCodeError
from rules.encounter.errors import EncounterError

__all__ = ["MAX_VICTIMS", "Detonate", "PendingBlast", "Throw", "parse_blast"]

MAX_VICTIMS = 100
"""The most combatants one :class:`Detonate` names."""
RANGE_BANDS = ("point_blank", "short", "medium", "long")


def _whole(value: object, what: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise EncounterError(f"{what} is a whole number of {least} or more, not {value!r}")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or "\x00" in value or len(value) > 100:
        raise EncounterError(f"{what} is a name of 1 to 100 characters")
    return value


def parse_blast(radius: str, damage: str) -> tuple[tuple[int, DieCode], ...]:
    """The bands of an explosive, ``(outer radius in metres, damage)`` from the centre out,
    from its stat line: ``parse_blast("0-2/8/12/20", "10D/8D/5D/2D")``."""
    if not isinstance(radius, str) or not isinstance(damage, str):
        raise EncounterError("an explosive's blast radius and damage are text like 0-2/8 and 5D/4D")
    radii_text = radius.strip()
    if radii_text.startswith("0-"):
        radii_text = radii_text[2:]
    radii_parts = [part.strip() for part in radii_text.split("/")]
    damage_parts = [part.strip() for part in damage.split("/")]
    if not radii_text or len(radii_parts) != len(damage_parts) or len(radii_parts) > 10:
        raise EncounterError(
            f"the blast radius {radius[:40]!r} and the damage {damage[:40]!r} need the same "
            "number of bands (1 to 10), from the centre out: 0-2/8/12/20 and 10D/8D/5D/2D"
        )
    radii = []
    for part in radii_parts:
        if not part.isdecimal() or len(part) > 4 or int(part) < 1:
            raise EncounterError(f"a blast radius is whole metres, 1 or more; not {part[:20]!r}")
        radii.append(int(part))
    if radii != sorted(set(radii)):
        raise EncounterError("the blast radii grow from the centre out (0-2/8/12/20)")
    codes = []
    for part in damage_parts:
        try:
            codes.append(DieCode.parse(part))
        except DieCodeError as exc:
            raise EncounterError(f"blast damage {part[:20]!r}: {exc}") from None
    return tuple(zip(radii, codes, strict=True))


@dataclass(frozen=True, slots=True)
class PendingBlast:
    """A thrown explosive waiting to go off: who threw it, what it is (name, bands, energy or
    physical damage against armour), whether the throw hit the spot aimed at, and how far it
    scattered on a miss ([RC] ``grenade_scatter``; None: where the GM says)."""

    thrower: str
    name: str
    bands: tuple[tuple[int, DieCode], ...]
    energy: bool = False
    hit: bool = True
    scatter_m: int | None = None

    def __post_init__(self) -> None:
        _text(self.thrower, "the thrower")
        _text(self.name, "an explosive's name")
        ok = isinstance(self.bands, tuple) and all(
            isinstance(b, tuple) and len(b) == 2 and isinstance(b[1], DieCode) for b in self.bands
        )
        if not ok or not self.bands:
            raise EncounterError("a blast has bands of (radius in metres, damage DieCode)")
        radii = [_whole(r, "a blast radius", 1) for r, _ in self.bands]
        if radii != sorted(set(radii)):
            raise EncounterError("the blast radii grow from the centre out")
        for name in ("energy", "hit"):
            if not isinstance(getattr(self, name), bool):
                raise EncounterError(f"a blast's {name} flag is true or false")
        if self.scatter_m is not None:
            _whole(self.scatter_m, "the scatter in metres")

    @property
    def radius(self) -> str:
        """The stat line's blast radius: ``0-2/8/12/20``."""
        return "0-" + "/".join(str(r) for r, _ in self.bands)

    @property
    def damage(self) -> str:
        """The stat line's damage: ``10D/8D/5D/2D``."""
        return "/".join(str(code) for _, code in self.bands)

    def to_json(self) -> dict[str, Any]:
        return {
            "thrower": self.thrower,
            "name": self.name,
            "radius": self.radius,
            "damage": self.damage,
            "energy": self.energy,
            "hit": self.hit,
            "scatter_m": self.scatter_m,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = ("thrower", "name", "radius", "damage", "energy", "hit", "scatter_m")
        r = Reader(data, "pending blast", keys, EncounterError)
        return cls(
            r.text("thrower"),
            r.text("name"),
            parse_blast(r.text("radius"), r.text("damage")),
            r.flag("energy"),
            r.flag("hit"),
            r.optional_integer("scatter_m"),
        )


_KINDS: dict[str, tuple[type, ...]] = {
    "thrower": (str,),
    "damage": (str,),
    "radius": (str,),
    "difficulty": (int, type(None)),
    "range_band": (str, type(None)),
    "name": (str,),
    "skill": (str,),
    "energy": (bool,),
    "cp_dice": (int,),
    "force_point": (bool,),
}


@dataclass(frozen=True, slots=True)
class Throw:
    """Throw an explosive at a spot (combat.md §4.8): the thrower spends an action and rolls
    ``skill`` (grenade) with the round's penalties against the GM's ``difficulty`` (the range
    difficulty of the spot; ``range_band`` names the span and, with [RC] scatter, sets how far
    a miss scatters). ``damage`` and ``radius`` are the explosive's stat line
    (:func:`parse_blast`); ``energy``: its damage is energy (armour's energy protection), not
    physical. It lands on the spot or scatters; :class:`Detonate` then names who is caught."""

    thrower: str
    damage: str
    radius: str
    difficulty: int | None = None
    range_band: str | None = None
    name: str = "grenade"
    skill: str = "grenade"
    energy: bool = False
    cp_dice: int = 0
    force_point: bool = False
    type: ClassVar[str] = "throw"

    def __post_init__(self) -> None:
        for key, kinds in _KINDS.items():
            value = getattr(self, key)
            if not isinstance(value, kinds) or (int in kinds and isinstance(value, bool)):
                raise EncounterError(f"throw: {key} has the wrong type ({value!r})")
        _text(self.thrower, "the thrower")
        _text(self.name, "the explosive's name")
        _text(self.skill, "the throwing skill")
        parse_blast(self.radius, self.damage)
        if self.difficulty is not None:
            _whole(self.difficulty, "a difficulty number")
        if self.range_band is not None and self.range_band not in RANGE_BANDS:
            raise EncounterError(
                f"a grenade is thrown at {', '.join(RANGE_BANDS)} range; "
                f"not {self.range_band[:40]!r}"
            )
        _whole(self.cp_dice, "Character Point dice")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **{key: getattr(self, key) for key in _KINDS}}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(data, "throw step", ("type", *_KINDS), EncounterError)
        if r.data["type"] != cls.type:
            raise r.refuse("type", repr(cls.type))
        values = {key: r.data[key] for key in _KINDS}
        return cls(**values)  # type: ignore[arg-type]  # checked in __post_init__


@dataclass(frozen=True, slots=True)
class Detonate:
    """The thrown explosive goes off. There is no map: the GM names who is caught and how many
    metres each stands from where it went off (``victims``: ``(combatant id, metres)`` pairs, in
    the order their damage is rolled); each takes the damage of his blast band against his own
    Strength roll. [HOUSE] ``critical``: a damage roll's Wild Die 6 is taken as a critical
    injury (:mod:`rules.encounter.house`)."""

    victims: tuple[tuple[str, int], ...]
    critical: bool = True
    type: ClassVar[str] = "detonate"

    def __post_init__(self) -> None:
        if not isinstance(self.victims, tuple | list):
            raise EncounterError("victims is a list of [combatant id, metres] pairs")
        pairs = tuple(tuple(v) if isinstance(v, list) else v for v in self.victims)
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)):
                raise EncounterError("each victim is a [combatant id, metres] pair")
            _whole(pair[1], "a victim's distance from the blast in metres")
        object.__setattr__(self, "victims", pairs)
        ids = [cid for cid, _ in pairs]
        if len(set(ids)) != len(ids):
            raise EncounterError("a combatant is named twice among the victims")
        if len(ids) > MAX_VICTIMS:
            raise EncounterError(f"a blast catches at most {MAX_VICTIMS} combatants")
        if not isinstance(self.critical, bool):
            raise EncounterError("critical is true or false")

    def to_json(self) -> dict[str, Any]:
        victims = [[cid, metres] for cid, metres in self.victims]
        return {"type": self.type, "victims": victims, "critical": self.critical}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(data, "detonate step", ("type", "victims", "critical"), EncounterError)
        if r.data["type"] != cls.type:
            raise r.refuse("type", repr(cls.type))
        victims = []
        for item in r.items("victims"):
            if not isinstance(item, list) or len(item) != 2:
                raise EncounterError("detonate step: each victim is stored as [id, metres]")
            victims.append((item[0], item[1]))
        return cls(tuple(victims), r.flag("critical"))
