"""The six attributes, named once for the engine and the apps."""

from typing import Final

ATTRIBUTES: Final = ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical")
"""The attributes in sheet order, as the engine and the database name them."""

ATTRIBUTE_LABELS: Final = {a: a.capitalize() for a in ATTRIBUTES}
"""How a sheet writes each attribute: ``Dexterity``."""


def attribute_key(name: str) -> str:
    """``"Dexterity"`` or ``"dexterity"`` → ``"dexterity"``; a RulesError for anything else."""
    from rules.errors import RulesError

    key = name.strip().casefold()
    if key not in ATTRIBUTES:
        raise RulesError(f"{name!r} is not an attribute")
    return key


ROLL_KINDS: Final = (
    "skill",
    "specialization",
    "attribute",
    "attack",
    "melee_attack",
    "brawling_attack",
    "talent",
    "dodge",
    "vehicle_dodge",
    "parry",
    "melee_parry",
    "brawling_parry",
    "lightsaber_parry",
    "reaction",
    "resist_force_power",
    "damage",
    "resist_damage",
    "initiative",
    "gear_survival",
)
"""The kinds of roll the Character Point limits tell apart (``rules.advancement.max_cp_per_roll``):
a plain skill or attribute use, a specialization, an attack, a dodge or parry, a damage roll..."""
