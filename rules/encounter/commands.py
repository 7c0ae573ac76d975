"""The steps a GM or player takes, as small frozen values: a tagged union stored as
``{"type": "attack", ...}`` (:func:`command_from_json`). :func:`rules.encounter.apply` carries
them out."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Self

from rules._stored import Reader
from rules.dice import DieCode
from rules.encounter.state import Combatant, EncounterError
from rules.errors import RulesError

__all__ = [
    "COMMANDS",
    "OVERRIDE_FIELDS",
    "Act",
    "AddCombatant",
    "AddCombatants",
    "Attack",
    "ChooseOrder",
    "Command",
    "DeclareActions",
    "EndEncounter",
    "EndRound",
    "FirstAid",
    "GMOverride",
    "NextSegment",
    "React",
    "RemoveCombatant",
    "ResolveAttack",
    "RollInitiative",
    "command_from_json",
]

OVERRIDE_FIELDS = (
    "wound_level",
    "prone",
    "declared",
    "extra",
    "used",
    "haste",
    "initiative",
    "lost_actions",
    "mortal_rounds",
    "reaction",
    "stabilised",
    "combining",
    "medpacs",
    "medpac_locked",
    "knocked_out",
)
"""What :class:`GMOverride` may set: ``reaction`` sets the standing total of ``skill``."""

MAX_GROUP = 100
"""The most combatants one :class:`AddCombatants` step brings in."""


def _whole(value: object, what: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise EncounterError(f"{what} is a whole number of {least} or more, not {value!r}")
    return value


_KINDS = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "None": lambda v: v is None,
}
_KIND_WORDS = {
    "str": "text",
    "int": "a whole number",
    "float": "a number",
    "bool": "true or false",
    "None": "null",
}


@dataclass(frozen=True, slots=True)
class _Simple:
    """Commands whose fields are text, whole numbers, flags, text lists or null."""

    type: ClassVar[str] = ""
    added: ClassVar[tuple[str, ...]] = ()
    """Fields added after the step was first stored: stored steps without them take the
    defaults."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: Any) -> Self:
        names = tuple(f.name for f in fields(cls))
        if isinstance(data, dict):
            later = {f.name: f.default for f in fields(cls) if f.name in cls.added}
            data = {k: list(v) if isinstance(v, tuple) else v for k, v in later.items()} | data
        r = Reader(data, f"{cls.type} step", ("type", *names), EncounterError)
        if r.data["type"] != cls.type:
            raise r.refuse("type", repr(cls.type))
        values: dict[str, Any] = {}
        for f in fields(cls):
            value = r.data[f.name]
            kinds = str(f.type).split(" | ")
            if "tuple[str, ...]" in kinds:
                values[f.name] = r.texts(f.name)
                continue
            if not any(_KINDS[k](value) for k in kinds):
                raise r.refuse(f.name, " or ".join(_KIND_WORDS[k] for k in kinds))
            values[f.name] = value
        return cls(**values)


@dataclass(frozen=True, slots=True)
class AddCombatant:
    """A combatant joins (at the start or in the middle of the fight)."""

    combatant: Combatant
    type: ClassVar[str] = "add_combatant"

    def __post_init__(self) -> None:
        if not isinstance(self.combatant, Combatant):
            raise EncounterError("add_combatant carries a Combatant")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "combatant": self.combatant.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(data, "add_combatant step", ("type", "combatant"), EncounterError)
        if r.data["type"] != cls.type:
            raise r.refuse("type", repr(cls.type))
        return cls(Combatant.from_json(r.data["combatant"]))


@dataclass(frozen=True, slots=True)
class AddCombatants:
    """A group joins in one step ("Stormtrooper ×8"), each tracked on his own: the same as one
    :class:`AddCombatant` for each, in this order."""

    combatants: tuple[Combatant, ...]
    type: ClassVar[str] = "add_combatants"

    def __post_init__(self) -> None:
        if not isinstance(self.combatants, tuple | list):
            raise EncounterError("add_combatants carries a list of Combatants")
        object.__setattr__(self, "combatants", tuple(self.combatants))
        if not all(isinstance(c, Combatant) for c in self.combatants):
            raise EncounterError("add_combatants carries Combatants")
        if not 1 <= len(self.combatants) <= MAX_GROUP:
            raise EncounterError(f"a group that joins has 1 to {MAX_GROUP} combatants")
        seen: set[str] = set()
        for c in self.combatants:
            if c.id in seen:
                raise EncounterError(f"two combatants of the group share the id {c.id!r}")
            seen.add(c.id)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "combatants": [c.to_json() for c in self.combatants]}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(data, "add_combatants step", ("type", "combatants"), EncounterError)
        if r.data["type"] != cls.type:
            raise r.refuse("type", repr(cls.type))
        return cls(tuple(Combatant.from_json(c) for c in r.items("combatants")))


@dataclass(frozen=True, slots=True)
class RemoveCombatant(_Simple):
    """A combatant leaves the fight."""

    combatant: str
    type: ClassVar[str] = "remove_combatant"


@dataclass(frozen=True, slots=True)
class RollInitiative(_Simple):
    """2E: each side's roller rolls Perception (wound and stun dice off, no CP); ties are
    re-rolled."""

    type: ClassVar[str] = "roll_initiative"


@dataclass(frozen=True, slots=True)
class ChooseOrder(_Simple):
    """The initiative winner's side chooses to act first or last."""

    side: str
    first: bool = True
    type: ClassVar[str] = "choose_order"


@dataclass(frozen=True, slots=True)
class DeclareActions(_Simple):
    """How many actions a combatant takes this round (2E), or [RC] his non-haste actions and
    haste in segment 1."""

    combatant: str
    actions: int
    haste: int = 0
    type: ClassVar[str] = "declare_actions"

    def __post_init__(self) -> None:
        _whole(self.actions, "the number of declared actions", 1)
        _whole(self.haste, "haste")


@dataclass(frozen=True, slots=True)
class Act(_Simple):
    """A declared action that is not an attack: drawing a weapon, moving, another skill."""

    combatant: str
    what: str = "action"
    type: ClassVar[str] = "act"


@dataclass(frozen=True, slots=True)
class Attack(_Simple):
    """An attack announced: it spends the attacker's action and sets the base difficulty (the
    GM's number; a range band or distance only checks it can be hit and names the span). The
    target may then :class:`React`; :class:`ResolveAttack` rolls it. Combined fire (§8):
    ``attack_bonus`` and ``damage_bonus`` are the lead firer's shares of the bonus
    (:func:`rules.combat.split_combined_bonus`).

    ``others`` (group fire): more attackers firing at the same target with their own weapons,
    skills and penalties, each spending an action; the target reacts once and
    :class:`ResolveAttack` rolls the lead's attack, then each of theirs. ``supporters``
    (combined fire, §8): characters combining with the lead, who rolls with the bonus of
    :func:`rules.combat.combined_action_bonus`. 2E (``command``): ``commander`` (by default
    the combining character with the highest command) rolls command against the GM's
    ``command_difficulty`` in this step; ``to_attack`` is how much of the bonus goes on the
    attack (the rest on damage; default all of it). [RC] (``rc_support``): the supporters' pips
    all go on the lead's roll; a ``commander`` coordinating caps how many may combine."""

    attacker: str
    target: str
    skill: str | None = None
    difficulty: int | None = None
    range_band: str | None = None
    distance_m: int | None = None
    conditions: tuple[str, ...] = ()
    called_shot_cm: float | None = None
    cp_dice: int = 0
    force_point: bool = False
    attack_bonus: str | None = None
    damage_bonus: str | None = None
    others: tuple[str, ...] = ()
    supporters: tuple[str, ...] = ()
    to_attack: str | None = None
    commander: str | None = None
    command_difficulty: int | None = None
    type: ClassVar[str] = "attack"
    added: ClassVar[tuple[str, ...]] = (
        "others",
        "supporters",
        "to_attack",
        "commander",
        "command_difficulty",
    )

    def __post_init__(self) -> None:
        for name in ("others", "supporters"):
            value = getattr(self, name)
            if not isinstance(value, tuple | list) or not all(isinstance(x, str) for x in value):
                raise EncounterError(f"{name} is a list of combatant ids")
            object.__setattr__(self, name, tuple(value))
        if self.command_difficulty is not None:
            _whole(self.command_difficulty, "a command difficulty")
        for name in ("attack_bonus", "damage_bonus", "to_attack"):
            code = getattr(self, name)
            if code is not None:
                try:
                    DieCode.parse(code)
                except RulesError as exc:
                    raise EncounterError(f"{name}: {exc}") from None
        if self.difficulty is not None:
            _whole(self.difficulty, "a difficulty number")
        if self.distance_m is not None:
            _whole(self.distance_m, "a distance in metres")
        _whole(self.cp_dice, "Character Point dice")
        if not isinstance(self.force_point, bool):
            raise EncounterError("force_point is true or false")


@dataclass(frozen=True, slots=True)
class React(_Simple):
    """The target of the announced attack reacts before the attack roll: ``extra`` adds an
    action (the penalty rises for the rest of the round), otherwise a remaining declared
    action is used; ``full`` adds the roll to the difficulty (the only action of his round).
    [RC] in segment 2 a combat reaction is declared for the round at ``haste``."""

    combatant: str
    skill: str = "dodge"
    extra: bool = True
    full: bool = False
    haste: int = 0
    cp_dice: int = 0
    type: ClassVar[str] = "react"

    def __post_init__(self) -> None:
        _whole(self.haste, "haste")
        _whole(self.cp_dice, "Character Point dice")


@dataclass(frozen=True, slots=True)
class ResolveAttack(_Simple):
    """Roll the announced attack end to end: attack, and on a hit damage against Strength
    (armour, scale), the wound or stun and its effects."""

    damage_cp: int = 0
    type: ClassVar[str] = "resolve_attack"

    def __post_init__(self) -> None:
        _whole(self.damage_cp, "Character Point dice on damage")


@dataclass(frozen=True, slots=True)
class FirstAid(_Simple):
    """First aid in the fight (injuries-and-healing.md §3.2, §6): the healer spends an action
    and rolls first aid against the GM's ``difficulty`` number, which must lie in the level the
    rules give (the engine says which when it is missing). With a medpac (used up either way):
    the medpac table heals one level or cures a stun; without: revive the unconscious or
    stabilise the mortally wounded."""

    healer: str
    patient: str
    medpac: bool = True
    cp_dice: int = 0
    difficulty: int | None = None
    type: ClassVar[str] = "first_aid"

    def __post_init__(self) -> None:
        if not isinstance(self.medpac, bool):
            raise EncounterError("medpac is true or false")
        _whole(self.cp_dice, "Character Point dice")
        if self.difficulty is not None:
            _whole(self.difficulty, "a difficulty number")


@dataclass(frozen=True, slots=True)
class NextSegment(_Simple):
    """[RC] move to the next segment of the round (1 → 2 → 3)."""

    type: ClassVar[str] = "next_segment"


@dataclass(frozen=True, slots=True)
class EndRound(_Simple):
    """End the round: death rolls for the mortally wounded, stuns expire, declarations and
    reactions reset; the next round starts."""

    type: ClassVar[str] = "end_round"


@dataclass(frozen=True, slots=True)
class EndEncounter(_Simple):
    """The fight is over; every later step is refused."""

    type: ClassVar[str] = "end_encounter"


@dataclass(frozen=True, slots=True)
class GMOverride(_Simple):
    """The GM sets a number by hand (:data:`OVERRIDE_FIELDS`)."""

    combatant: str
    field: str
    value: int | str | bool
    skill: str | None = None
    type: ClassVar[str] = "gm_override"

    def __post_init__(self) -> None:
        if self.field not in OVERRIDE_FIELDS:
            raise EncounterError(f"the GM can set {', '.join(OVERRIDE_FIELDS)}; not {self.field!r}")


Command = (
    AddCombatant
    | AddCombatants
    | RemoveCombatant
    | RollInitiative
    | ChooseOrder
    | DeclareActions
    | Act
    | Attack
    | React
    | ResolveAttack
    | NextSegment
    | EndRound
    | EndEncounter
    | GMOverride
    | FirstAid
)

COMMANDS: dict[str, type[Command]] = {
    c.type: c
    for c in (
        AddCombatant,
        AddCombatants,
        RemoveCombatant,
        RollInitiative,
        ChooseOrder,
        DeclareActions,
        Act,
        Attack,
        React,
        ResolveAttack,
        NextSegment,
        EndRound,
        EndEncounter,
        GMOverride,
        FirstAid,
    )
}


def command_from_json(data: Any) -> Command:
    """The command stored by its ``to_json`` (``{"type": "attack", ...}``)."""
    if not isinstance(data, dict) or data.get("type") not in COMMANDS:
        kind = data.get("type") if isinstance(data, dict) else type(data).__name__
        raise EncounterError(f"unknown encounter step {kind!r}; known: {', '.join(COMMANDS)}")
    return COMMANDS[data["type"]].from_json(data)
