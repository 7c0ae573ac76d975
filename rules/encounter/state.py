"""What an encounter stores between steps: the combatants (codes, weapon, armour, scale, wound
and stun state, the round's declared and used actions, standing reactions, stance) and the
encounter itself (round, Rules Companion segment, phase, side order, the attack waiting for a
reaction). Everything is frozen and round-trips through ``to_json``/``from_json``; stored data
that does not fit is refused with :class:`EncounterError`. The smaller values they hold
(:class:`Weapon`, :class:`Reaction`, :class:`PendingAttack`) are in
:mod:`rules.encounter.parts` and importable from here too."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal, Self

from rules._stored import Reader
from rules.combat import ActionCount, Armour
from rules.dice import DieCode
from rules.encounter.blasts import PendingBlast
from rules.encounter.craft import CraftPart
from rules.encounter.criticals import CriticalTaken, criticals_from_json
from rules.encounter.errors import EncounterError
from rules.encounter.firing import FireState
from rules.encounter.parts import (
    AIM_BONUS,
    ATTACK_KINDS,
    NO_DICE,
    PendingAttack,
    Reaction,
    Weapon,
    _later,
    _nested,
)
from rules.errors import RulesError
from rules.injuries import WoundLevel, WoundState
from rules.reference.skill_table import skill as reference_skill
from rules.scale import Scale

__all__ = [
    "AIM_BONUS",
    "ATTACK_KINDS",
    "NO_DICE",
    "PHASES",
    "Combatant",
    "EncounterError",
    "EncounterState",
    "PendingAttack",
    "Reaction",
    "Weapon",
]

Phase = Literal["initiative", "order", "round", "ended"]
PHASES: tuple[Phase, ...] = ("initiative", "order", "round", "ended")
"""``initiative``: the round waits for the initiative roll (2E); ``order``: the winner chooses
to act first or last; ``round``: declaring and acting (the Rules Companion round is always
here, with its segment); ``ended``: no more steps."""

_ATTRIBUTES = ("perception", "dexterity", "strength")
RANGE_BANDS = ("point_blank", "short", "medium", "long")
MAX_NOTES = 200
_PLACE: dict[str, Any] = {"range_band": None, "distance_m": None, "cover": None, "notes": ""}
_PLACE |= {"aim_target": None, "aim_round": 0, "surprised": False, "full_reaction": None}


def _codes(reader: Reader, key: str) -> tuple[tuple[str, DieCode], ...]:
    value = reader.data[key]
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise reader.refuse(key, "an object of skill names to die codes")
    sub = Reader(value, f"{reader.what}'s {key}", tuple(value), EncounterError)
    return tuple((name, sub.code(name)) for name in value)


def _check_place(c: Combatant) -> None:
    """Position, aim, surprise and [RC] full reaction (cover is checked against the campaign's
    options when the GM sets it)."""
    if c.range_band not in (None, *RANGE_BANDS):
        raise EncounterError(f"a combatant's range band is one of {', '.join(RANGE_BANDS)}")
    distance = 0 if c.distance_m is None else c.distance_m
    for name, value in (("distance_m", distance), ("aim_round", c.aim_round)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise EncounterError(f"a combatant's {name} is a whole number of 0 or more")
    for text in (c.cover, c.aim_target, c.full_reaction, c.notes or "-"):
        if text is not None and (not isinstance(text, str) or not text or "\x00" in text):
            raise EncounterError("a combatant's cover, aim, full reaction and notes are text")
    if len(c.notes) > MAX_NOTES:
        raise EncounterError(f"a combatant's notes are at most {MAX_NOTES} characters")
    if not isinstance(c.surprised, bool):
        raise EncounterError("a combatant's surprised flag is true or false")
    if (c.aim_target is None) != (c.aim_round == 0):
        raise EncounterError("a combatant's aim names its target and the round he aimed in")


@dataclass(frozen=True, slots=True)
class Combatant:
    """One fighter: who he is and on which side, the codes combat rolls use, weapon, armour,
    scale and wound state, and what he has done this round."""

    id: str
    name: str
    side: str
    perception: DieCode
    dexterity: DieCode
    strength: DieCode
    skills: tuple[tuple[str, DieCode], ...] = ()
    weapon: Weapon | None = None
    armour: Armour = field(default_factory=Armour)
    scale: Scale = Scale.CHARACTER
    npc: bool = False
    wounds: WoundState = field(default_factory=WoundState)
    actions: ActionCount | None = None
    """The round's declared, extra and used actions; None until he declares."""
    haste: int = 0
    """[RC] haste actions declared in segment 1 (all his actions resolve at this haste)."""
    reactions: tuple[Reaction, ...] = ()
    prone: bool = False
    lost_actions: bool = False
    """Wounded (or worse) this round: no more actions, no new reactions (§3, CA-10)."""
    lose_next_round: bool = False
    """[HOUSE §2] a second wound also costs the next round."""
    knocked_out: bool = False
    """Unconscious from a stun weapon or accumulated stuns (out of the fight until the GM
    clears it)."""
    initiative: int | None = None
    """His side's initiative roll this round, if he rolled it."""
    mortal_rounds: int = 0
    """Rounds he has been mortally wounded (the round of wounding counts as 1, IH-10)."""
    combining: bool = False
    """In a combined action this round: apart from it he may only react (dice-and-core.md
    §8.1)."""
    stabilised: bool = False
    """Mortally wounded but stabilised by a Moderate first aid total [UPG]: no more death
    rolls; a medpac or bacta tank within the hour saves him (IH-11)."""
    medpacs: int = 0
    """Medpacs used on him in this encounter (each raises the next one's difficulty, §6)."""
    medpac_locked: bool = False
    """A medpac on him missed by more than 10: no more medpacs for 24 hours [2E-STD]."""
    criticals: tuple[CriticalTaken, ...] = ()
    """[HOUSE] critical injuries taken in this fight (:mod:`rules.encounter.house`)."""
    range_band: str | None = None
    """Where he stands from the other side, his cover and the GM's notes (position.py)."""
    distance_m: int | None = None
    cover: str | None = None
    notes: str = ""
    aim_target: str | None = None
    """Aimed at in round ``aim_round``: +1D on his next attack at him next round (aim.py)."""
    aim_round: int = 0
    surprised: bool = False
    """2E: caught by the surprise of round 1 (surprise.py)."""
    full_reaction: str | None = None
    """[RC] the full reaction (skill) declared in segment 1 this round (declare.py)."""
    force_point_round: int = 0
    """The round he spent a Force Point in (0: none yet): every skill and attribute roll of his
    in that round is doubled, and no second one that round (:mod:`rules.encounter.points`)."""
    cp_round: int = 0
    """The last round he spent Character Points in (0: none yet): [UPG] not in the round of a
    Force Point, unless the campaign allows both."""
    craft: CraftPart | None = None
    """A vehicle or starship: its codes, guns, crew and damage (:mod:`rules.encounter.craft`)."""

    def __post_init__(self) -> None:
        for name in ("id", "name", "side"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise EncounterError(f"a combatant needs a {name}")
        for name in ("perception", "dexterity", "strength"):
            if not isinstance(getattr(self, name), DieCode):
                raise EncounterError(f"a combatant's {name} is a DieCode")
        if not all(
            isinstance(s, tuple) and len(s) == 2 and isinstance(s[1], DieCode) for s in self.skills
        ):
            raise EncounterError("a combatant's skills are (name, DieCode) pairs")
        object.__setattr__(
            self, "skills", tuple((" ".join(n.lower().split()), c) for n, c in self.skills)
        )
        object.__setattr__(self, "scale", Scale.parse(self.scale))
        checks = (
            (self.weapon is None or isinstance(self.weapon, Weapon), "weapon"),
            (isinstance(self.armour, Armour), "armour"),
            (isinstance(self.wounds, WoundState), "wound state"),
            (self.actions is None or isinstance(self.actions, ActionCount), "actions"),
            (all(isinstance(r, Reaction) for r in self.reactions), "reactions"),
            (all(isinstance(k, CriticalTaken) for k in self.criticals), "critical injuries"),
            (self.craft is None or isinstance(self.craft, CraftPart), "craft"),
        )
        for ok, what in checks:
            if not ok:
                raise EncounterError(f"a combatant's {what} has the wrong type")
        flags = ("npc", "prone", "lost_actions", "lose_next_round", "knocked_out")
        for name in (*flags, "combining", "stabilised", "medpac_locked"):
            if not isinstance(getattr(self, name), bool):
                raise EncounterError(f"a combatant's {name} flag is true or false")
        for name in ("haste", "mortal_rounds", "medpacs", "force_point_round", "cp_round"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise EncounterError(f"a combatant's {name} is a whole number of 0 or more")
        _check_place(self)

    def code(self, skill: str) -> DieCode:
        """The code he rolls for a skill or attribute: the listed skill, the attribute itself,
        or, for a skill he does not list, its governing attribute (the skill table:
        Dexterity for dodge, blaster and the parries, Strength for brawling)."""
        key = " ".join(skill.lower().split())
        for name, code in self.skills:
            if name == key:
                return code
        attribute = key
        if key not in _ATTRIBUTES:
            try:
                attribute = str(reference_skill(key).attribute)
            except RulesError:
                raise EncounterError(f"{self.name} has no {skill!r} and it is no skill") from None
        if attribute not in _ATTRIBUTES:
            for name, code in self.skills:  # an attribute kept among his skills (Mechanical)
                if name == attribute:
                    return code
            raise EncounterError(f"list {self.name}'s {skill} code (its attribute is not kept)")
        result: DieCode = getattr(self, attribute)
        return result

    def reaction(self, skill: str) -> Reaction | None:
        return next((r for r in self.reactions if r.skill == skill), None)

    @property
    def out_of_fight(self) -> bool:
        """Incapacitated, mortally wounded or killed: he takes no part any more (§3)."""
        return self.knocked_out or self.wounds.level.rank >= WoundLevel.incapacitated.rank

    def replace(self, **changes: Any) -> Combatant:
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "side": self.side,
            "perception": str(self.perception),
            "dexterity": str(self.dexterity),
            "strength": str(self.strength),
            "skills": {name: str(code) for name, code in self.skills},
            "weapon": self.weapon.to_json() if self.weapon else None,
            "armour": self.armour.to_json(),
            "scale": self.scale.key,
            "npc": self.npc,
            "wounds": self.wounds.to_json(),
            "actions": self.actions.to_json() if self.actions else None,
            "haste": self.haste,
            "reactions": [r.to_json() for r in self.reactions],
            "prone": self.prone,
            "lost_actions": self.lost_actions,
            "lose_next_round": self.lose_next_round,
            "knocked_out": self.knocked_out,
            "initiative": self.initiative,
            "mortal_rounds": self.mortal_rounds,
            "combining": self.combining,
            "stabilised": self.stabilised,
            "medpacs": self.medpacs,
            "medpac_locked": self.medpac_locked,
            **{key: getattr(self, key) for key in _PLACE},
            "criticals": [k.to_json() for k in self.criticals],
            "force_point_round": self.force_point_round,
            "cp_round": self.cp_round,
            "craft": self.craft.to_json() if self.craft else None,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = tuple(cls.__dataclass_fields__)
        added: dict[str, Any] = {"combining": False, "stabilised": False, "medpacs": 0}
        added |= _PLACE
        added |= {"medpac_locked": False, "criticals": [], "force_point_round": 0, "cp_round": 0}
        added |= {"craft": None}
        r = Reader(_later(data, added), "combatant", keys, EncounterError)
        place: dict[str, Any] = {key: r.data[key] for key in _PLACE}
        scale = r.text("scale")
        try:
            parsed_scale = Scale.parse(scale)
        except RulesError as exc:
            raise EncounterError(f"combatant: scale: {exc}") from None
        return cls(
            id=r.text("id"),
            name=r.text("name"),
            side=r.text("side"),
            perception=r.code("perception"),
            dexterity=r.code("dexterity"),
            strength=r.code("strength"),
            skills=_codes(r, "skills"),
            weapon=None if r.data["weapon"] is None else Weapon.from_json(r.data["weapon"]),
            armour=_nested(r, "armour", Armour.from_json, "armour"),
            scale=parsed_scale,
            npc=r.flag("npc"),
            wounds=_nested(r, "wounds", WoundState.from_json, "wounds"),
            actions=None
            if r.data["actions"] is None
            else _nested(r, "actions", ActionCount.from_json, "actions"),
            haste=r.integer("haste", least=0),
            reactions=tuple(Reaction.from_json(x) for x in r.items("reactions")),
            prone=r.flag("prone"),
            lost_actions=r.flag("lost_actions"),
            lose_next_round=r.flag("lose_next_round"),
            knocked_out=r.flag("knocked_out"),
            initiative=r.optional_integer("initiative"),
            mortal_rounds=r.integer("mortal_rounds", least=0),
            combining=r.flag("combining"),
            stabilised=r.flag("stabilised"),
            medpacs=r.integer("medpacs", least=0),
            medpac_locked=r.flag("medpac_locked"),
            **place,
            criticals=_nested(r, "criticals", criticals_from_json, "critical injuries"),
            force_point_round=r.integer("force_point_round", least=0),
            cp_round=r.integer("cp_round", least=0),
            craft=None if r.data["craft"] is None else CraftPart.from_json(r.data["craft"]),
        )


@dataclass(frozen=True, slots=True)
class EncounterState:
    """The whole encounter between steps. ``segment`` is the Rules Companion segment (1–3; 0
    in the 2E round). ``side_order`` lists the sides in acting order once the initiative
    winner has chosen; ``order`` the combatants in that order, highest Perception first."""

    round: int = 1
    segment: int = 0
    phase: Phase = "initiative"
    combatants: tuple[Combatant, ...] = ()
    side_order: tuple[str, ...] = ()
    order: tuple[str, ...] = ()
    initiative_winner: str | None = None
    pending: PendingAttack | None = None
    surprise: str | None = None
    """The side that sprang a surprise, for round 1 (:mod:`rules.encounter.surprise`)."""
    blast: PendingBlast | None = None
    """A thrown explosive waiting to go off (:mod:`rules.encounter.blast`)."""
    fire: FireState = field(default_factory=FireState)
    """[HOUSE] automatic and suppression fire this round (:mod:`rules.encounter.auto`)."""

    def __post_init__(self) -> None:
        if self.blast is not None and not isinstance(self.blast, PendingBlast):
            raise EncounterError("a thrown explosive is a PendingBlast")
        if not isinstance(self.fire, FireState):
            raise EncounterError("an encounter's fire is a FireState")
        if self.surprise is not None and (not isinstance(self.surprise, str) or not self.surprise):
            raise EncounterError("an encounter's surprise names the side that sprang it")
        for name in ("round", "segment"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise EncounterError(f"an encounter's {name} is a whole number of 0 or more")
        if self.round < 1 or self.segment > 3:
            raise EncounterError("rounds start at 1; the Rules Companion has segments 1 to 3")
        if self.phase not in PHASES:
            raise EncounterError(f"an encounter's phase is one of {', '.join(PHASES)}")
        if not all(isinstance(c, Combatant) for c in self.combatants):
            raise EncounterError("an encounter's combatants are Combatant values")
        ids = [c.id for c in self.combatants]
        if len(set(ids)) != len(ids):
            raise EncounterError("two combatants share an id")
        if not set(self.order) <= set(ids):
            raise EncounterError("the initiative order names a combatant not in the encounter")
        if self.pending is not None:
            if not isinstance(self.pending, PendingAttack):
                raise EncounterError("a pending attack is a PendingAttack")
            p = self.pending
            if {p.attacker, p.target, *p.others, *p.supporters} - set(ids):
                raise EncounterError("the pending attack names a combatant not in the encounter")

    @classmethod
    def new(cls, *, rc_round: bool = False) -> EncounterState:
        """An empty encounter at round 1: waiting for initiative (2E) or in segment 1 of the
        Rules Companion round."""
        if rc_round:
            return cls(segment=1, phase="round")
        return cls()

    def combatant(self, combatant_id: str) -> Combatant:
        for c in self.combatants:
            if c.id == combatant_id:
                return c
        raise EncounterError(f"there is no combatant {combatant_id!r} in this encounter")

    def with_combatant(self, updated: Combatant) -> EncounterState:
        """The state with one combatant replaced (matched by id)."""
        self.combatant(updated.id)
        people = tuple(updated if c.id == updated.id else c for c in self.combatants)
        return dataclasses.replace(self, combatants=people)

    def replace(self, **changes: Any) -> EncounterState:
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "segment": self.segment,
            "phase": self.phase,
            "combatants": [c.to_json() for c in self.combatants],
            "side_order": list(self.side_order),
            "order": list(self.order),
            "initiative_winner": self.initiative_winner,
            "pending": self.pending.to_json() if self.pending else None,
            "surprise": self.surprise,
            "blast": self.blast.to_json() if self.blast else None,
            "fire": self.fire.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = tuple(cls.__dataclass_fields__)
        added = {"surprise": None, "blast": None, "fire": FireState().to_json()}
        r = Reader(_later(data, added), "encounter", keys, EncounterError)
        winner = r.data["initiative_winner"]
        return cls(
            round=r.integer("round", least=1),
            segment=r.integer("segment", least=0),
            phase=r.choice("phase", PHASES),
            combatants=tuple(Combatant.from_json(c) for c in r.items("combatants")),
            side_order=r.texts("side_order"),
            order=r.texts("order"),
            initiative_winner=None if winner is None else r.text("initiative_winner"),
            pending=None
            if r.data["pending"] is None
            else PendingAttack.from_json(r.data["pending"]),
            surprise=None if r.data["surprise"] is None else r.text("surprise"),
            blast=None if r.data["blast"] is None else PendingBlast.from_json(r.data["blast"]),
            fire=FireState.from_json(r.data["fire"]),
        )
