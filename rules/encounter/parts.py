"""The values a combatant and the encounter store besides the combatant himself: his
:class:`Weapon`, a :class:`Reaction` total standing for the round, and the
:class:`PendingAttack` announced and waiting for its roll. Each is frozen and round-trips
through ``to_json``/``from_json``; stored data that does not fit is refused with
:class:`~rules.encounter.errors.EncounterError`. :mod:`rules.encounter.state` re-exports them
(``from rules.encounter.state import Weapon`` keeps working).

A value module the encounter's state stores: it imports nothing else of the encounter but its
error and the helpers below, which the state's own values share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self

from rules._stored import Reader
from rules.combat import AttackKind, WeaponRange
from rules.dice import DieCode
from rules.encounter.errors import EncounterError
from rules.errors import RulesError

__all__ = ["AIM_BONUS", "ATTACK_KINDS", "NO_DICE", "PendingAttack", "Reaction", "Weapon"]

NO_DICE = DieCode()
ATTACK_KINDS: tuple[AttackKind, ...] = ("ranged", "melee", "brawling", "vehicle", "starship")
AIM_BONUS = DieCode(1)
"""Aiming (preparing) for a round: +1D on the shot (dice-and-core.md §6)."""


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
    burst: int = 0
    """[HOUSE §13] shots in a full-auto burst (the GM's number); 0: no bursts or full auto."""

    def __post_init__(self) -> None:
        if isinstance(self.burst, bool) or not isinstance(self.burst, int) or self.burst < 0:
            raise EncounterError("a weapon's burst is a whole number of shots, 0 or more")
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
            "burst": self.burst,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = ("name", "damage", "skill", "kind", "ranges", "stun", "energy", "burst")
        r = Reader(_later(data, {"burst": 0}), "weapon", keys, EncounterError)
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
            r.integer("burst", least=0),
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
    aimed: tuple[str, ...] = ()
    """The attackers (lead, group firers) who aimed at the target last round (+1D each)."""
    gun: int | None = None
    """The gun of the attacker's craft fired (its place in the craft's guns), or None."""
    speed_actions: int = 0
    """[RC §8.7] The target ship's speed actions (a missile's difficulty +1D each)."""

    def aim_bonus(self, attacker: str) -> DieCode:
        """What aiming adds to ``attacker``'s roll in this attack (0D when he did not aim)."""
        return AIM_BONUS if attacker in self.aimed else NO_DICE

    def __post_init__(self) -> None:
        if self.gun is not None and (
            isinstance(self.gun, bool) or not isinstance(self.gun, int) or self.gun < 0
        ):
            raise EncounterError("an attack's gun is the number of a craft's gun")
        if not isinstance(self.aimed, tuple) or not all(isinstance(x, str) for x in self.aimed):
            raise EncounterError("an attack's aimed are combatant ids")
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
            "aimed": list(self.aimed),
            "gun": self.gun,
            "speed_actions": self.speed_actions,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        added: dict[str, Any] = {"others": [], "supporters": [], "combined_bonus": "0D"}
        added |= {"aimed": [], "gun": None, "speed_actions": 0}
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
            aimed=r.texts("aimed"),
            gun=r.optional_integer("gun"),
            speed_actions=r.integer("speed_actions", least=0),
        )
