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
