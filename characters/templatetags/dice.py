"""Template filters for rolls and odds."""

from django import template

register = template.Library()

EXACT = 1e-9
"""Chances within this of 0 or 1 are exactly 0 or 1: the odds are exact up to float rounding."""


@register.filter
def percent(chance: float) -> str:
    """A chance as a whole percentage that never rounds to a certainty it is not: exactly 0
    and 1 are "0%" and "100%", anything else below 1% is "<1%" and above 99% is ">99%"."""
    if chance <= EXACT:
        return "0%"
    if chance >= 1 - EXACT:
        return "100%"
    if chance < 0.01:
        return "<1%"
    if chance > 0.99:
        return ">99%"
    return f"{round(chance * 100)}%"
