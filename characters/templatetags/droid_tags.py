"""A droid's sheet: what its building record (``Character.droid_design``) says."""

from django import template

from characters.droid_builder import dice_line
from rules import RulesError
from rules.droids import DroidDesign, check_droid

register = template.Library()


@register.filter
def droid_building(character) -> dict | None:
    """For a droid: its building dice (``64D of 65D``), by heading, its speed code and armour
    as built; None for an organic character or a droid without a record (``error`` says why
    a record cannot be read)."""
    if not character.is_droid or character.droid_design is None:
        return None
    try:
        design = DroidDesign.from_json(character.droid_design)
    except RulesError as exc:
        return {"error": f"its building record cannot be read ({exc})"}
    dice = check_droid(design).dice
    return {
        "total": f"{dice.total}D of {dice.budget}D",
        "line": dice_line(dice),
        "speed": design.speed_code,
        "armor": design.armor if design.armor.total_pips > 0 else None,
    }
