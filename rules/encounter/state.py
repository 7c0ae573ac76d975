"""What an encounter stores between steps: the combatants (codes, weapon, armour, scale, wound
and stun state, the round's declared and used actions, standing reactions, stance) and the
encounter itself (round, Rules Companion segment, phase, side order, the attack waiting for a
reaction). Everything is frozen and round-trips through ``to_json``/``from_json``; stored data
that does not fit is refused with :class:`EncounterError`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Self

from rules._stored import Reader
from rules.combat import ActionCount, Armour, AttackKind, WeaponRange
from rules.dice import DieCode
from rules.errors import RulesError
from rules.injuries import WoundLevel, WoundState
from rules.reference.skill_table import skill as reference_skill
from rules.scale import Scale

__all__ = [
    "ATTACK_KINDS",
    "PHASES",
    "Combatant",
    "EncounterError",
    "EncounterState",
    "PendingAttack",
    "Reaction",
    "Weapon",
]

NO_DICE = DieCode()
ATTACK_KINDS: tuple[AttackKind, ...] = ("ranged", "melee", "brawling", "vehicle", "starship")
Phase = Literal["initiative", "order", "round", "ended"]
PHASES: tuple[Phase, ...] = ("initiative", "order", "round", "ended")
"""``initiative``: the round waits for the initiative roll (2E); ``order``: the winner chooses
to act first or last; ``round``: declaring and acting (the Rules Companion round is always
here, with its segment); ``ended``: no more steps."""

_ATTRIBUTES = ("perception", "dexterity", "strength")


class EncounterError(RulesError):
    """A step the encounter refuses (no actions left, a reaction to nothing, an unknown
    combatant, a step on an ended encounter) or stored encounter data that is damaged."""


def _codes(reader: Reader, key: str) -> tuple[tuple[str, DieCode], ...]:
    value = reader.data[key]
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise reader.refuse(key, "an object of skill names to die codes")
    sub = Reader(value, f"{reader.what}'s {key}", tuple(value), EncounterError)
    return tuple((name, sub.code(name)) for name in value)


def _later(data: Any, added: dict[str, Any]) -> Any:
    """Stored data with the keys added after it was first stored filled in with their
    defaults (older encounters keep loading)."""
    return {**added, **data} if isinstance(data, dict) else data


def _nested[T](reader: Reader, key: str, load: Callable[[Any], T], what: str) -> T:
    try:
        result = load(reader.data[key])
    except RulesError as exc:
        raise EncounterError(f"{reader.what}: {what}: {exc}") from None
    return result


@dataclass(frozen=True, slots=True)
class Weapon:
    """The weapon a combatant uses: its damage code (``STR+1D`` for melee), the skill it is
    fired or swung with, the kind of attack, its ranges (ranged weapons), whether it is set
    on stun and whether it does energy (blaster) or physical damage (for armour)."""

    name: str
    damage: str
    skill: str
    kind: AttackKind = "ranged"
    ranges: WeaponRange | None = None
    stun: bool = False
    energy: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not isinstance(self.skill, str) or not self.skill:
            raise EncounterError("a weapon has a name and the skill it is used with")
        if self.kind not in ATTACK_KINDS:
            raise EncounterError(f"a weapon's kind is one of {', '.join(ATTACK_KINDS)}")
        if not isinstance(self.damage, str) or not self.damage.strip():
            raise EncounterError("a weapon has a damage code such as 4D or STR+1D")
        if self.ranges is not None and not isinstance(self.ranges, WeaponRange):
            raise EncounterError("a weapon's ranges are a WeaponRange")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "damage": self.damage,
            "skill": self.skill,
            "kind": self.kind,
            "ranges": self.ranges.to_json() if self.ranges else None,
            "stun": self.stun,
            "energy": self.energy,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = ("name", "damage", "skill", "kind", "ranges", "stun", "energy")
        r = Reader(data, "weapon", keys, EncounterError)
        ranges = None
        if r.data["ranges"] is not None:
            ranges = _nested(r, "ranges", WeaponRange.from_json, "ranges")
        return cls(
            r.text("name"),
            r.text("damage"),
            r.text("skill"),
            r.choice("kind", ATTACK_KINDS),
            ranges,
            r.flag("stun"),
            r.flag("energy"),
        )


@dataclass(frozen=True, slots=True)
class Reaction:
    """A reaction total standing for the rest of the round (one per skill, CA-8): it replaces
    the attacker's difficulty (2E), is added to it (``full``) or is the higher of the two
    ([RC] combat reaction); [RC] it counts only against attacks with no more haste."""

    skill: str
    total: int
    full: bool = False
    haste: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.skill, str) or not self.skill:
            raise EncounterError("a reaction names its skill")
        for name in ("total", "haste"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise EncounterError(f"a reaction's {name} is a whole number of 0 or more")
        if not isinstance(self.full, bool):
            raise EncounterError("a reaction's full flag is true or false")

    def to_json(self) -> dict[str, Any]:
        return {"skill": self.skill, "total": self.total, "full": self.full, "haste": self.haste}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(data, "reaction", ("skill", "total", "full", "haste"), EncounterError)
        return cls(r.text("skill"), r.integer("total"), r.flag("full"), r.integer("haste"))


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
        )
        for ok, what in checks:
            if not ok:
                raise EncounterError(f"a combatant's {what} has the wrong type")
        flags = ("npc", "prone", "lost_actions", "lose_next_round", "knocked_out")
        for name in (*flags, "combining", "stabilised", "medpac_locked"):
            if not isinstance(getattr(self, name), bool):
                raise EncounterError(f"a combatant's {name} flag is true or false")
        for name in ("haste", "mortal_rounds", "medpacs"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise EncounterError(f"a combatant's {name} is a whole number of 0 or more")

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
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = tuple(cls.__dataclass_fields__)
        added = {"combining": False, "stabilised": False, "medpacs": 0, "medpac_locked": False}
        r = Reader(_later(data, added), "combatant", keys, EncounterError)
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
        )


@dataclass(frozen=True, slots=True)
class PendingAttack:
    """An attack announced and waiting for its roll: the target may react now, before the
    attack roll [UPG]. ``base`` is the difficulty before reactions and modifiers."""

    attacker: str
    target: str
    skill: str
    kind: AttackKind
    base: int
    conditions: tuple[str, ...] = ()
    called_shot_cm: float | None = None
    cp_dice: int = 0
    force_point: bool = False
    range_band: str | None = None
    attack_bonus: DieCode = NO_DICE
    damage_bonus: DieCode = NO_DICE
    """Combined fire: the shares of the combined-action bonus put on the attack and on the
    damage (§8, D-32)."""
    others: tuple[str, ...] = ()
    """Group fire: more attackers firing at the same target with their own attacks, resolved
    after the lead's, in this order."""
    supporters: tuple[str, ...] = ()
    """Combined fire: the characters combining with the lead firer (§8)."""
    combined_bonus: DieCode = NO_DICE
    """Combined fire: the whole combined-action bonus (``attack_bonus`` + ``damage_bonus``)."""

    def __post_init__(self) -> None:
        codes = (self.attack_bonus, self.damage_bonus, self.combined_bonus)
        if not all(isinstance(code, DieCode) for code in codes):
            raise EncounterError("an attack's combined-fire bonuses are DieCodes")
        for name in ("others", "supporters"):
            value = getattr(self, name)
            if not isinstance(value, tuple) or not all(isinstance(x, str) for x in value):
                raise EncounterError(f"an attack's {name} are combatant ids")
        if isinstance(self.base, bool) or not isinstance(self.base, int) or self.base < 0:
            raise EncounterError("an attack's difficulty is a whole number of 0 or more")
        if self.kind not in ATTACK_KINDS:
            raise EncounterError(f"an attack's kind is one of {', '.join(ATTACK_KINDS)}")
        if not all(isinstance(c, str) for c in self.conditions):
            raise EncounterError("an attack's conditions are names such as half_cover")

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "target": self.target,
            "skill": self.skill,
            "kind": self.kind,
            "base": self.base,
            "conditions": list(self.conditions),
            "called_shot_cm": self.called_shot_cm,
            "cp_dice": self.cp_dice,
            "force_point": self.force_point,
            "range_band": self.range_band,
            "attack_bonus": str(self.attack_bonus),
            "damage_bonus": str(self.damage_bonus),
            "others": list(self.others),
            "supporters": list(self.supporters),
            "combined_bonus": str(self.combined_bonus),
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        added = {"others": [], "supporters": [], "combined_bonus": "0D"}
        keys = tuple(cls.__dataclass_fields__)
        r = Reader(_later(data, added), "pending attack", keys, EncounterError)
        size = r.data["called_shot_cm"]
        if size is not None and (isinstance(size, bool) or not isinstance(size, int | float)):
            raise r.refuse("called_shot_cm", "a size in centimetres or null")
        band = r.data["range_band"]
        return cls(
            r.text("attacker"),
            r.text("target"),
            r.text("skill"),
            r.choice("kind", ATTACK_KINDS),
            r.integer("base", least=0),
            r.texts("conditions"),
            size,
            r.integer("cp_dice", least=0),
            r.flag("force_point"),
            None if band is None else r.text("range_band"),
            r.code("attack_bonus"),
            r.code("damage_bonus"),
            r.texts("others"),
            r.texts("supporters"),
            r.code("combined_bonus"),
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

    def __post_init__(self) -> None:
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
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(data, "encounter", tuple(cls.__dataclass_fields__), EncounterError)
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
        )
