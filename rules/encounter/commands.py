"""The steps a GM or player takes, as small frozen values: a tagged union stored as
``{"type": "attack", ...}`` (:func:`command_from_json`). :func:`rules.encounter.apply` carries
them out."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Self

from rules._stored import Reader
from rules.dice import DieCode
from rules.encounter.blasts import Detonate, Throw
from rules.encounter.craft import Drive, Ram, SetArc, SetShields
from rules.encounter.firing import FIRE_MODES, Suppress
from rules.encounter.state import MAX_NOTES, RANGE_BANDS, Combatant, EncounterError
from rules.errors import RulesError

__all__ = [
    "COMMANDS",
    "OVERRIDE_FIELDS",
    "Act",
    "AddCombatant",
    "AddCombatants",
    "Aim",
    "Attack",
    "ChooseOrder",
    "Command",
    "DeclareActions",
    "DeclareAll",
    "EndEncounter",
    "EndRound",
    "FirstAid",
    "GMOverride",
    "NextSegment",
    "React",
    "RemoveCombatant",
    "ResolveAttack",
    "RollInitiative",
    "SetPosition",
    "Surprise",
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


def _flag(value: object, what: str) -> None:
    if not isinstance(value, bool):
        raise EncounterError(f"{what} is true or false")


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
    haste in segment 1. [RC] ``full_reaction``: the skill of a full reaction declared with
    them (§9.4; ``actions`` are then his movement actions, at least the speed action it needs;
    :mod:`rules.encounter.declare`)."""

    combatant: str
    actions: int
    haste: int = 0
    full_reaction: str | None = None
    type: ClassVar[str] = "declare_actions"
    added: ClassVar[tuple[str, ...]] = ("full_reaction",)

    def __post_init__(self) -> None:
        _whole(self.actions, "the number of declared actions", 1)
        _whole(self.haste, "haste")
        _name(self.full_reaction, "full_reaction")


def _name(value: object, what: str) -> None:
    if value is not None and (not isinstance(value, str) or not value.strip() or "\x00" in value):
        raise EncounterError(f"{what} is a name without NUL characters, or null")


@dataclass(frozen=True, slots=True)
class DeclareAll(_Simple):
    """The GM declares for many at once ("every trooper declares 1"): each listed combatant who
    has not declared and can act declares ``actions`` ([RC] and ``haste``), one declare event
    each; those already declared, out of the fight or surprised are skipped."""

    combatants: tuple[str, ...]
    actions: int
    haste: int = 0
    type: ClassVar[str] = "declare_all"

    def __post_init__(self) -> None:
        people = self.combatants
        if not isinstance(people, tuple | list) or not all(isinstance(x, str) for x in people):
            raise EncounterError("combatants is a list of combatant ids")
        object.__setattr__(self, "combatants", tuple(people))
        if not people or len(set(people)) != len(people):
            raise EncounterError("name each combatant who declares once")
        _whole(self.actions, "the number of declared actions", 1)
        _whole(self.haste, "haste")


@dataclass(frozen=True, slots=True)
class SetPosition(_Simple):
    """The GM places a combatant (:mod:`rules.encounter.position`): his range band and/or
    distance in metres from the other side, his cover (a condition of
    :func:`rules.combat.cover_conditions` or ``full_cover``) and notes, each replacing what was
    stored (None clears it). An attack naming no range or no conditions takes them."""

    combatant: str
    range_band: str | None = None
    distance_m: int | None = None
    cover: str | None = None
    notes: str = ""
    type: ClassVar[str] = "set_position"

    def __post_init__(self) -> None:
        if self.range_band is not None and self.range_band not in RANGE_BANDS:
            raise EncounterError(
                f"the range band is one of {', '.join(RANGE_BANDS)}; "
                f"not {str(self.range_band)[:40]!r}"
            )
        if self.distance_m is not None:
            _whole(self.distance_m, "a distance in metres")
        _name(self.cover, "cover")
        if not isinstance(self.notes, str) or "\x00" in self.notes:
            raise EncounterError("notes are text without NUL characters")
        if len(self.notes) > MAX_NOTES:
            raise EncounterError(
                f"notes are at most {MAX_NOTES} characters; these have {len(self.notes)}"
            )


@dataclass(frozen=True, slots=True)
class Surprise(_Simple):
    """``side`` springs a surprise at the start of the fight (combat.md §7, §9.2; who spotted
    whom is the GM's call, CA-18; :mod:`rules.encounter.surprise`). 2E: ``side`` acts first in
    round 1, and ``surprised`` (by default everyone on the other sides) can neither declare,
    act nor react until each of ``side`` has taken his first action. [RC]: each of ``side``
    has two free haste actions this round."""

    side: str
    surprised: tuple[str, ...] = ()
    type: ClassVar[str] = "surprise"

    def __post_init__(self) -> None:
        people = self.surprised
        if not isinstance(people, tuple | list) or not all(isinstance(x, str) for x in people):
            raise EncounterError("surprised is a list of combatant ids")
        object.__setattr__(self, "surprised", tuple(people))
        if len(set(people)) != len(people):
            raise EncounterError("a surprised combatant is listed twice")
        _name(self.side, "the side that springs the surprise")


@dataclass(frozen=True, slots=True)
class Aim(_Simple):
    """The combatant spends his round aiming at ``target`` (his only action; [RC] declared in
    segment 1): +1D on his next attack at him, next round (dice-and-core.md §6;
    :mod:`rules.encounter.aim`)."""

    combatant: str
    target: str
    type: ClassVar[str] = "aim"


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
    fire_mode: str = "single"
    """[HOUSE §13] ``single``, ``burst`` or ``full_auto``, ``shots`` in it (default the
    weapon's burst): :mod:`rules.encounter.auto`."""
    shots: int | None = None
    gun: int | None = None
    """A gun of the attacker's craft (its place in its guns): :mod:`rules.encounter.craft`."""
    speed_actions: int = 0
    """[RC §8.7] The speed actions the target ship is taking: a missile's difficulty +1D each."""
    type: ClassVar[str] = "attack"
    added: ClassVar[tuple[str, ...]] = (
        "gun",
        "speed_actions",
        "others",
        "supporters",
        "to_attack",
        "commander",
        "command_difficulty",
        "fire_mode",
        "shots",
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
        _flag(self.force_point, "force_point")
        if self.fire_mode not in FIRE_MODES:
            raise EncounterError(f"the fire mode is one of {', '.join(FIRE_MODES)}")
        if self.shots is not None:
            _whole(self.shots, "the shots fired", 1)
        if self.gun is not None:
            _whole(self.gun, "a gun number")
        _whole(self.speed_actions, "the target's speed actions")
        if self.speed_actions and self.gun is None:
            raise EncounterError("the target's speed actions count against a craft's missiles")


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
    force_point: bool = False
    """Spend a Force Point: this roll and all his others this round are doubled."""
    type: ClassVar[str] = "react"
    added: ClassVar[tuple[str, ...]] = ("force_point",)

    def __post_init__(self) -> None:
        _whole(self.haste, "haste")
        _whole(self.cp_dice, "Character Point dice")
        _flag(self.force_point, "force_point")


@dataclass(frozen=True, slots=True)
class ResolveAttack(_Simple):
    """Roll the announced attack end to end: attack, and on a hit damage against Strength
    (armour, scale), the wound or stun and its effects. [HOUSE] ``critical``: the attacker's
    choice on a damage roll's Wild Die 6, a critical injury (true) or the usual re-roll (false;
    :mod:`rules.encounter.house`). Stored steps without it were rolled before the choice
    existed and load as false."""

    damage_cp: int = 0
    critical: bool = True
    type: ClassVar[str] = "resolve_attack"
    added: ClassVar[tuple[str, ...]] = ("critical",)

    def __post_init__(self) -> None:
        _whole(self.damage_cp, "Character Point dice on damage")
        if not isinstance(self.critical, bool):
            raise EncounterError("critical is true or false")

    @classmethod
    def from_json(cls, data: Any) -> Self:
        if isinstance(data, dict) and "critical" not in data:
            data = {**data, "critical": False}  # stored before the choice: every 6 exploded
        return super(ResolveAttack, cls).from_json(data)


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
    force_point: bool = False
    """Spend a Force Point: this roll and all the healer's others this round are doubled."""
    type: ClassVar[str] = "first_aid"
    added: ClassVar[tuple[str, ...]] = ("force_point",)

    def __post_init__(self) -> None:
        _flag(self.medpac, "medpac")
        _flag(self.force_point, "force_point")
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
    | DeclareAll
    | SetPosition
    | Surprise
    | Aim
    | Throw
    | Detonate
    | Suppress
    | SetArc
    | SetShields
    | Ram
    | Drive
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
        DeclareAll,
        SetPosition,
        Surprise,
        Aim,
        Throw,
        Detonate,
        Suppress,
        SetArc,
        SetShields,
        Ram,
        Drive,
    )
}


def command_from_json(data: Any) -> Command:
    """The command stored by its ``to_json`` (``{"type": "attack", ...}``)."""
    if not isinstance(data, dict) or data.get("type") not in COMMANDS:
        kind = data.get("type") if isinstance(data, dict) else type(data).__name__
        raise EncounterError(f"unknown encounter step {kind!r}; known: {', '.join(COMMANDS)}")
    return COMMANDS[data["type"]].from_json(data)
