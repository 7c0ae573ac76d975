"""Template filters for improvements: what one is, in the words the ledger uses."""

from django import template

from characters.advancement import _what

register = template.Library()


@register.filter
def improvement(item) -> str:
    """An improvement (a request, or a quote) in words: "blaster 4D+1 → 4D+2", "Dexterity
    3D+1 → 3D+2", "Force-sensitivity", "the Force power Telekinesis"."""
    current = "" if item.current is None else str(item.current)
    new = "" if item.new is None else str(item.new)
    return _what(item.kind, item.target, current, new)
