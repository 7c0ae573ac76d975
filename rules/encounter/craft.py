"""Vehicles and starships in the encounter (vehicles-and-starships.md §3, §8, §9).

A craft is a :class:`~rules.encounter.state.Combatant` whose ``craft`` is a :class:`CraftPart`:
its codes (maneuverability, hull or body, shields), its guns with their fire arcs, its crew
and its damage (:class:`rules.craft.CraftState`). Its scale is the combatant's scale.

Who acts for a craft:

* **crewed by characters** (``crew`` names combatants of the encounter): the craft declares
  nothing and has no turn of its own. The pilot's actions dodge for it ("starship dodge",
  "vehicle dodge": his piloting skill plus maneuverability) and each gunner fires his gun
  (gunnery plus fire control); every one of these is an action of the crew member, with his own
  multiple-action penalty, wounds and Character Points. A station nobody holds is manned by
  the craft's ``crew_code`` if it has one, else it cannot be used.
* **crewed by an unnamed crew** (no ``crew``: the 20 TIE fighters of a squadron): the craft
  declares and acts itself, rolling its ``crew_code`` as every station's skill.

An attack with a craft's gun is an ``Attack`` with ``gun`` (the gun's place in ``guns``). The
gun must bear on the target: the target's arc from the craft (set by the GM,
:class:`SetArc`; front until set) must be one of the gun's arcs (a turret bears on every arc).
Scale is read between the platforms: the firing craft (or the character) and the craft (or the
character) hit. A hit on a craft is resisted by its hull, plus its shields when they cover the
arc the shot comes from (2E: the shields station sets the covered arcs, :class:`SetShields`)
or, [RC], when the shot is below the shield number of the shields roll (§8.4); the result is
read on the campaign's damage chart (:func:`rules.craft.craft_damage_result`) and applied with
its 1D table (:func:`rules.craft.apply_damage`). Controls ionized last the rest of the round
and the next [RC §8.5]. When a craft is destroyed, everyone aboard takes the character damage
of a collision at cruising speed ([UPG] collision table; who is hurt "when his vehicle is" is
not in the sources: ambiguity noted in docs).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self

from rules._stored import Reader
from rules.craft import CraftState, CraftStats, effective_code
from rules.dice import DieCode
from rules.encounter.errors import EncounterError
from rules.encounter.parts import _later
from rules.errors import RulesError
from rules.ruleset import RuleSet

__all__ = [
    "ARCS",
    "CraftGun",
    "CraftPart",
    "Drive",
    "Ram",
    "SetArc",
    "SetShields",
    "craft_part_from_stats",
    "parse_arcs",
]

ARCS: tuple[str, ...] = ("front", "left", "right", "back")
CraftKindName = Literal["vehicle", "starship"]
_KINDS: tuple[CraftKindName, ...] = ("vehicle", "starship")
STATIONS = ("pilot", "copilot", "shields", "sensors", "engineer")
_MISSILES = ("missile", "torpedo")


def parse_arcs(text: str | None) -> tuple[str, ...]:
    """A gun's fire arcs from a stat block's arc text: ``front``, ``front/left``, ``turret``
    (every arc). No arc printed (the catalogue prints none): every arc, as a turret."""
    if text is None or not text.strip():
        return ARCS
    words = [w for w in text.replace(",", "/").replace(" ", "/").lower().split("/") if w]
    if any(w in ("turret", "all", "any") for w in words):
        return ARCS
    aliases = {"rear": "back", "forward": "front", "fore": "front", "aft": "back"}
    arcs = tuple(dict.fromkeys(aliases.get(w, w) for w in words))
    unknown = [a for a in arcs if a not in ARCS]
    if unknown:
        raise EncounterError(
            f"a fire arc is front, left, right, back or turret; not {unknown[0][:20]!r}"
        )
    return arcs


@dataclass(frozen=True, slots=True)
class CraftGun:
    """One gun (or linked set) of a craft: what it adds to its gunner's roll, its damage and
    the arcs it bears on. ``ion``: an ion cannon [RC §8.6]; ``missile``: missiles and
    torpedoes [RC §8.7]."""

    name: str
    fire_control: DieCode
    damage: DieCode
    arcs: tuple[str, ...] = ARCS
    ion: bool = False
    missile: bool = False
    tractor: bool = False
    """A tractor beam: its damage code is the beam's strength, rolled against the hull [UPG §10]."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise EncounterError("a craft's gun needs a name")
        if not isinstance(self.fire_control, DieCode) or not isinstance(self.damage, DieCode):
            raise EncounterError("a gun's fire control and damage are DieCodes")
        if not self.arcs or any(a not in ARCS for a in self.arcs):
            raise EncounterError("a gun's arcs are front, left, right and back")

    @property
    def arc_text(self) -> str:
        return "turret" if set(self.arcs) == set(ARCS) else "/".join(self.arcs)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "fire_control": str(self.fire_control),
            "damage": str(self.damage),
            "arcs": list(self.arcs),
            "ion": self.ion,
            "missile": self.missile,
            "tractor": self.tractor,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = tuple(cls.__dataclass_fields__)
        r = Reader(_later(data, {"tractor": False}), "gun", keys, EncounterError)
        return cls(
            r.text("name"),
            r.code("fire_control"),
            r.code("damage"),
            r.texts("arcs"),
            r.flag("ion"),
            r.flag("missile"),
            r.flag("tractor"),
        )


@dataclass(frozen=True, slots=True)
class CraftPart:
    """What makes a combatant a craft. ``crew`` pairs a station (``pilot``, ``copilot``,
    ``shields``, ``sensors``, ``engineer``, ``gunner:<gun>``) with the combatant who holds
    it; ``arcs`` pairs another combatant's id with the arc he is in from this craft;
    ``shield_arcs`` are the arcs its shields cover (2E); ``ionized_round`` the round its
    controls were last ionized (0: never)."""

    kind: CraftKindName
    piloting: str
    gunnery: str
    shields_skill: str
    maneuverability: DieCode
    hull: DieCode
    shields: DieCode | None = None
    guns: tuple[CraftGun, ...] = ()
    crew_code: DieCode | None = None
    crew: tuple[tuple[str, str], ...] = ()
    damage: CraftState = field(default_factory=CraftState)
    arcs: tuple[tuple[str, str], ...] = ()
    shield_arcs: tuple[str, ...] = ()
    ionized_round: int = 0
    craft_id: int | None = None
    """The campaign's craft this part was made from (for the sheet after the fight)."""

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise EncounterError("a craft in an encounter is a vehicle or a starship")
        for name in ("maneuverability", "hull"):
            if not isinstance(getattr(self, name), DieCode):
                raise EncounterError(f"a craft's {name} is a DieCode")
        for name in ("shields", "crew_code"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, DieCode):
                raise EncounterError(f"a craft's {name} is a DieCode or nothing")
        if not all(isinstance(g, CraftGun) for g in self.guns):
            raise EncounterError("a craft's guns are CraftGun values")
        if not isinstance(self.damage, CraftState):
            raise EncounterError("a craft's damage is a CraftState")
        for station, who in self.crew:
            if not _station_ok(station, len(self.guns)):
                raise EncounterError(f"{station[:30]!r} is not a crew station of this craft")
            if not isinstance(who, str) or not who:
                raise EncounterError("a crew station names the combatant who holds it")
        stations = [s for s, _ in self.crew]
        if len(set(stations)) != len(stations):
            raise EncounterError("one combatant per crew station")
        if any(a not in ARCS for _, a in self.arcs) or any(a not in ARCS for a in self.shield_arcs):
            raise EncounterError("arcs are front, left, right and back")
        if (
            isinstance(self.ionized_round, bool)
            or not isinstance(self.ionized_round, int)
            or self.ionized_round < 0
        ):
            raise EncounterError("a craft's ionized round is a whole number of 0 or more")

    # --- who holds what ---------------------------------------------------------------------
    def holder(self, station: str) -> str | None:
        return next((who for s, who in self.crew if s == station), None)

    def stations_of(self, combatant_id: str) -> tuple[str, ...]:
        return tuple(s for s, who in self.crew if who == combatant_id)

    @property
    def crewed(self) -> bool:
        """Crewed by characters of the encounter: the craft has no turn of its own."""
        return bool(self.crew)

    def gunner_of(self, gun: int) -> str | None:
        return self.holder(f"gunner:{gun}")

    def arc_of(self, other: str) -> str:
        return next((a for who, a in self.arcs if who == other), "front")

    # --- codes after damage -----------------------------------------------------------------
    def code(self, stat: str, *, ruleset: RuleSet, gun: int | None = None) -> DieCode:
        """The craft's code for ``stat`` (maneuverability, hull, shields, fire_control or
        damage of ``gun``) as its damage and ionization leave it."""
        base: DieCode | None
        if stat in ("fire_control", "damage"):
            if gun is None or not 0 <= gun < len(self.guns):
                raise EncounterError("this craft has no such gun")
            base = getattr(self.guns[gun], stat)
        else:
            base = getattr(self, stat)
        if base is None:
            return DieCode()
        try:
            return effective_code(base, stat, self.damage, ruleset=ruleset)
        except RulesError as exc:  # pragma: no cover - stats above are all known
            raise EncounterError(str(exc)) from None

    def replace(self, **changes: Any) -> CraftPart:
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "piloting": self.piloting,
            "gunnery": self.gunnery,
            "shields_skill": self.shields_skill,
            "maneuverability": str(self.maneuverability),
            "hull": str(self.hull),
            "shields": None if self.shields is None else str(self.shields),
            "guns": [g.to_json() for g in self.guns],
            "crew_code": None if self.crew_code is None else str(self.crew_code),
            "crew": [list(pair) for pair in self.crew],
            "damage": self.damage.to_json(),
            "arcs": [list(pair) for pair in self.arcs],
            "shield_arcs": list(self.shield_arcs),
            "ionized_round": self.ionized_round,
            "craft_id": self.craft_id,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = tuple(cls.__dataclass_fields__)
        r = Reader(_later(data, {"craft_id": None}), "craft", keys, EncounterError)
        try:
            damage = CraftState.from_json(r.data["damage"])
        except RulesError as exc:
            raise EncounterError(f"craft: damage: {exc}") from None
        craft_id = r.data["craft_id"]
        if craft_id is not None and (isinstance(craft_id, bool) or not isinstance(craft_id, int)):
            raise r.refuse("craft_id", "a whole number or null")
        return cls(
            kind=r.choice("kind", _KINDS),
            piloting=r.text("piloting"),
            gunnery=r.text("gunnery"),
            shields_skill=r.text("shields_skill"),
            maneuverability=r.code("maneuverability"),
            hull=r.code("hull"),
            shields=None if r.data["shields"] is None else r.code("shields"),
            guns=tuple(CraftGun.from_json(g) for g in r.items("guns")),
            crew_code=None if r.data["crew_code"] is None else r.code("crew_code"),
            crew=_pairs(r, "crew"),
            damage=damage,
            arcs=_pairs(r, "arcs"),
            shield_arcs=r.texts("shield_arcs"),
            ionized_round=r.integer("ionized_round", least=0),
            craft_id=craft_id,
        )


def _pairs(r: Reader, key: str) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for item in r.items(key):
        if (
            not isinstance(item, list | tuple)
            or len(item) != 2
            or not all(isinstance(x, str) for x in item)
        ):
            raise r.refuse(key, "a list of [name, name] pairs")
        out.append((item[0], item[1]))
    return tuple(out)


def _station_ok(station: object, guns: int) -> bool:
    if not isinstance(station, str):
        return False
    if station in STATIONS:
        return True
    head, _, index = station.partition(":")
    return head == "gunner" and index.isdecimal() and int(index) < guns


def craft_part_from_stats(
    stats: CraftStats,
    *,
    piloting: str,
    gunnery: str,
    shields_skill: str,
    crew: tuple[tuple[str, str], ...] = (),
    damage: CraftState | None = None,
    craft_id: int | None = None,
) -> CraftPart:
    """A campaign craft's stat block as the encounter keeps it: its vehicle or starship codes,
    each weapon as a gun in the stat block's order (its arc text read by :func:`parse_arcs`;
    a weapon without a damage code, such as a tractor beam, keeps its place and does no
    damage). A capital ship fights as a starship at its own scale (Second Edition damages
    capital ships on the starship chart; the Rules Companion's capital template is the fleet
    action's, :mod:`rules.fleet`)."""
    kind: CraftKindName = "vehicle" if stats.kind == "vehicle" else "starship"
    guns = tuple(
        CraftGun(
            w.name,
            w.fire_control,
            w.damage or DieCode(),
            parse_arcs(w.arc),
            ion=w.kind == "ion",
            missile=w.kind in _MISSILES,
            tractor=w.kind == "tractor",
        )
        for w in stats.weapons
    )
    return CraftPart(
        kind=kind,
        piloting=piloting,
        gunnery=gunnery,
        shields_skill=shields_skill,
        maneuverability=stats.maneuverability or DieCode(),
        hull=stats.hull or DieCode(),
        shields=stats.shields,
        guns=guns,
        crew_code=stats.crew_code,
        crew=crew,
        damage=damage or CraftState(),
        craft_id=craft_id,
    )


# --- the GM's map: arcs and shields ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SetArc:
    """Where ``other`` is seen from ``craft``: front, left, right or back (the GM's map; a
    gun fires only into its arcs)."""

    craft: str
    other: str
    arc: str
    type: ClassVar[str] = "set_arc"

    def __post_init__(self) -> None:
        for name in ("craft", "other"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise EncounterError(f"set_arc names the {name}")
        if self.arc not in ARCS:
            raise EncounterError(f"an arc is one of {', '.join(ARCS)}")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "craft": self.craft, "other": self.other, "arc": self.arc}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(data, "set_arc step", ("type", "craft", "other", "arc"), EncounterError)
        return cls(r.text("craft"), r.text("other"), r.text("arc"))


@dataclass(frozen=True, slots=True)
class SetShields:
    """The arcs a craft's shields cover (2E), set from its shields station or by the GM."""

    craft: str
    arcs: tuple[str, ...] = ()
    type: ClassVar[str] = "set_shields"

    def __post_init__(self) -> None:
        if not isinstance(self.craft, str) or not self.craft:
            raise EncounterError("set_shields names the craft")
        if not isinstance(self.arcs, tuple) or any(a not in ARCS for a in self.arcs):
            raise EncounterError(f"shield arcs are {', '.join(ARCS)}")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "craft": self.craft, "arcs": list(self.arcs)}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(data, "set_shields step", ("type", "craft", "arcs"), EncounterError)
        return cls(r.text("craft"), r.texts("arcs"))


@dataclass(frozen=True, slots=True)
class Ram:
    """[UPG §4.4] ``pilot`` rams his craft into ``target``'s: a separate action, his piloting
    plus maneuverability against the movement ``difficulty`` + 10; both craft then take the
    collision damage for the rammer's ``speed`` (cautious … all-out; [RC] its speed actions)."""

    pilot: str
    target: str
    difficulty: int
    speed: str = "cruising"
    type: ClassVar[str] = "ram"

    def __post_init__(self) -> None:
        for name in ("pilot", "target", "speed"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise EncounterError(f"a ram names the {name}")
        d = self.difficulty
        if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= 1000:
            raise EncounterError("a ram's difficulty is a whole number from 0 to 1000")

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "pilot": self.pilot,
            "target": self.target,
            "difficulty": self.difficulty,
            "speed": self.speed,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = ("type", "pilot", "target", "difficulty", "speed")
        r = Reader(data, "ram step", keys, EncounterError)
        return cls(
            r.text("pilot"), r.text("target"), r.integer("difficulty", least=0), r.text("speed")
        )


@dataclass(frozen=True, slots=True)
class Drive:
    """[UPG] (movement.md §1.3) ``pilot`` moves his craft at ``speed`` through ``terrain``
    (Very Easy … Heroic): the terrain × speed matrix says whether he rolls, at which level and
    whether the move is an action; ``difficulty`` is the GM's number in that level (blank: its
    top). A craft that has lost Moves cannot go faster than its limit."""

    pilot: str
    speed: str
    terrain: str
    difficulty: int | None = None
    type: ClassVar[str] = "drive"

    def __post_init__(self) -> None:
        for name in ("pilot", "speed", "terrain"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise EncounterError(f"a move names the {name}")
        d = self.difficulty
        if d is not None and (isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= 1000):
            raise EncounterError("a move's difficulty is a whole number from 0 to 1000")

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "pilot": self.pilot,
            "speed": self.speed,
            "terrain": self.terrain,
            "difficulty": self.difficulty,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = ("type", "pilot", "speed", "terrain", "difficulty")
        r = Reader(_later(data, {"difficulty": None}), "drive step", keys, EncounterError)
        return cls(
            r.text("pilot"), r.text("speed"), r.text("terrain"), r.optional_integer("difficulty")
        )
