"""A droid as built: its values (:class:`DroidDesign`, :class:`DroidSkill`,
:class:`DroidItem`), how they are stored (``to_json``/``from_json``) and the Move its speed code
gives on a sheet (:func:`droid_move`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Self

from rules.dice import DieCode, DieCodeError
from rules.errors import RulesError
from rules.traits import ATTRIBUTES, attribute_key

#: Every droid starts with 1D in each of the six attributes (:data:`rules.traits.ATTRIBUTES`)
#: [RC].
BASE_ATTRIBUTE: Final = DieCode(1)
NO_ARMOR: Final = DieCode()
#: Items that give a droid some form of vision (macrobinoculars need one) [RC].
VISION_WORDS: Final = ("photoreceptor", "video sensor", "visual sensor", "optical sensor")
#: (derived) Metres of Move per speed action: a speed code of 3D, the typical Dexterity of a
#: human (18D over six attributes), gives the human Move 10.
MOVE_PER_SPEED_ACTION: Final = (10, 3)


class DroidError(RulesError):
    """A droid design or droid improvement the [RC] rules do not allow."""


def _attribute(name: str, skill: str | None = None) -> str:
    try:
        return attribute_key(name)
    except RulesError:
        where = f"{skill}: " if skill else ""
        raise DroidError(
            f"{where}{name!r} is not an attribute; choose one of {', '.join(ATTRIBUTES)}"
        ) from None


# ---------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DroidItem:
    """A piece of built-in equipment: ``quantity`` items at 1D each, plus 1D per extra
    ``features`` (a second function or an unusual feature) [RC].

    A set of legs is one method of locomotion (quantity 1); each arm and each video sensor
    counts separately (two arms: quantity 2). ``vision``: the item lets the droid see (for
    macrobinoculars), whatever its name."""

    name: str
    quantity: int = 1
    features: int = 0
    vision: bool = False

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise DroidError("every droid item needs a name")
        if self.quantity < 1:
            raise DroidError(f"{self.name}: a droid carries at least one of an item")
        if self.features < 0:
            raise DroidError(f"{self.name}: extra features cannot be negative")

    @property
    def gives_vision(self) -> bool:
        lowered = self.name.lower()
        return self.vision or any(word in lowered for word in VISION_WORDS)

    @property
    def needs_vision(self) -> bool:
        return "macrobinocular" in self.name.lower()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "quantity": self.quantity,
            "features": self.features,
            "vision": self.vision,
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        d = _mapping(data, "a droid item")
        return cls(
            name=_text(d.get("name"), "an item's name"),
            quantity=_whole(d.get("quantity", 1), "an item's quantity"),
            features=_whole(d.get("features", 0), "an item's extra features"),
            vision=_flag(d.get("vision", False), "an item's vision"),
        )


@dataclass(frozen=True, slots=True)
class DroidSkill:
    """A skill as printed on the sheet: ``code`` is the full code (attribute + dice added)."""

    name: str
    attribute: str
    code: DieCode | str

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise DroidError("every droid skill needs a name")
        object.__setattr__(self, "code", _code(self.code, self.name))
        object.__setattr__(self, "attribute", _attribute(self.attribute, self.name))

    @property
    def die_code(self) -> DieCode:
        """``code`` as a DieCode (it is parsed on creation)."""
        return DieCode.parse(self.code)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "attribute": self.attribute, "code": str(self.code)}

    @classmethod
    def from_json(cls, data: object) -> Self:
        d = _mapping(data, "a droid skill")
        name = _text(d.get("name"), "a skill's name")
        return cls(
            name=name,
            attribute=_text(d.get("attribute"), f"{name}'s attribute"),
            code=_text(d.get("code"), f"{name}'s code"),
        )


@dataclass(frozen=True, slots=True)
class DroidDesign:
    """A droid as built: attributes, skills, equipment, speed code and armor."""

    name: str
    player_character: bool = False
    dexterity: DieCode = BASE_ATTRIBUTE
    knowledge: DieCode = BASE_ATTRIBUTE
    mechanical: DieCode = BASE_ATTRIBUTE
    perception: DieCode = BASE_ATTRIBUTE
    strength: DieCode = BASE_ATTRIBUTE
    technical: DieCode = BASE_ATTRIBUTE
    speed: DieCode | None = None
    """Speed code; ``None`` means "equal to Dexterity" (nothing bought)."""
    armor: DieCode = NO_ARMOR
    skills: tuple[DroidSkill, ...] = ()
    items: tuple[DroidItem, ...] = ()

    def attribute(self, name: str) -> DieCode:
        code: DieCode = getattr(self, _attribute(name))
        return code

    @property
    def speed_code(self) -> DieCode:
        """The speed code in play: the one bought, or Dexterity (implied by [RC] movement)."""
        return self.dexterity if self.speed is None else self.speed

    # --- storing ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict, in the shape of ``rules/data/droids.json``'s entries: codes as
        text, ``speed_code`` null when none was bought."""
        return {
            "name": self.name,
            "player_character": self.player_character,
            "attributes": {a: str(self.attribute(a)) for a in ATTRIBUTES},
            "speed_code": None if self.speed is None else str(self.speed),
            "armor": str(self.armor),
            "skills": [skill.to_json() for skill in self.skills],
            "equipment": [item.to_json() for item in self.items],
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        """The design :meth:`to_json` stored (or a ``droids.json`` entry; other keys are
        ignored); :class:`DroidError` on anything else."""
        d = _mapping(data, "a droid design")
        raw = _mapping(d.get("attributes"), "a droid's attributes")
        attributes = {
            a: _code(_text(raw.get(a), f"the droid's {a}"), a.capitalize()) for a in ATTRIBUTES
        }
        speed = d.get("speed_code")
        return cls(
            name=_string(d.get("name"), "a droid's name"),
            player_character=_flag(d.get("player_character", False), "player_character"),
            speed=None if speed is None else _code(_text(speed, "the speed code"), "speed code"),
            armor=_code(_text(d.get("armor", "0D"), "the armor"), "armor"),
            skills=tuple(DroidSkill.from_json(s) for s in _list(d.get("skills", []), "skills")),
            items=tuple(DroidItem.from_json(i) for i in _list(d.get("equipment", []), "equipment")),
            **attributes,
        )


def droid_move(speed_code: DieCode | str) -> int:
    """(derived) The Move a droid's sheet shows for its speed code. [RC] gives droids a speed
    code, not a Move: a character makes one speed action per die of its base speed code (pips
    rounded up) and covers 10 m with each (movement.md §6.1, §6.3). Scaled so that 3D, a
    human's typical Dexterity, gives the human Move 10: Move = 10 x actions / 3, rounded (1D: 3,
    2D: 7, 3D: 10, 4D: 13). At least 1."""
    code = _code(speed_code, "speed code")
    actions = code.dice + (1 if code.pips > 0 else 0)
    per, of = MOVE_PER_SPEED_ACTION
    return max(1, (2 * per * actions + of) // (2 * of))


# ---------------------------------------------------------------------------------------------
# Reading stored values
# ---------------------------------------------------------------------------------------------
def _mapping(data: object, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise DroidError(f"{what} must be a JSON object")
    return data


def _list(data: object, what: str) -> list[Any]:
    if not isinstance(data, list):
        raise DroidError(f"a droid's {what} must be a list")
    return data


def _string(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise DroidError(f"{what} must be text")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DroidError(f"{what} must be given as text")
    return value


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DroidError(f"{what} must be a whole number")
    return value


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise DroidError(f"{what} must be true or false")
    return value


def _code(value: DieCode | str, what: str) -> DieCode:
    try:
        return DieCode.parse(value)
    except DieCodeError as exc:
        raise DroidError(f"{what}: {exc}") from None
