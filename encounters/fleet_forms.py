"""The fleet-action forms: a new battle, a ship joining it, and the step forms' fields read
into the engine's command JSON (:func:`step_data`; the engine checks what they mean)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict

from rules.craft import ADVANCED_TARGETING, FACINGS, OFFICERS
from rules.fleet import COMMANDS, FleetError

AIMS = [(key, key.replace("_", " ")) for key in ADVANCED_TARGETING]


class NewFleetActionForm(forms.Form):
    name = forms.CharField(max_length=120, strip=True)


class AddShipForm(forms.Form):
    craft = forms.TypedChoiceField(coerce=int, label="Capital ship")
    side = forms.CharField(max_length=40, strip=True, initial="Rebel")
    crew = forms.CharField(
        max_length=8, label="Crew code", initial="4D", help_text="Average crews: 3D+1 to 5D."
    )
    command = forms.CharField(
        max_length=8, required=False, label="Captain's command", help_text="Blank: the crew code."
    )

    def __init__(self, *args: Any, craft: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["craft"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(c.pk, c.name) for c in craft]


def _number(post: QueryDict, key: str, *, default: int | None = None) -> int | None:
    raw = (post.get(key) or "").strip()
    if raw == "":
        return default
    if not raw.isdecimal() or len(raw) > 6:
        raise FleetError(f"{key.replace('_', ' ')} must be a whole number from 0 to 999999")
    return int(raw)


def _needed(post: QueryDict, key: str) -> int:
    value = _number(post, key)
    if value is None:
        raise FleetError(f"give the {key.replace('_', ' ')}")
    return value


def step_data(post: QueryDict) -> dict[str, Any]:
    """The step a form posted, as the engine's JSON (``{"type": "fire", ...}``). Numbers that
    are not numbers are refused here with the field's name; batteries are numbered from 1 on
    the page and from 0 in the engine."""
    kind = post.get("type", "")
    if kind not in COMMANDS:
        raise FleetError("choose a step")
    ship = post.get("ship", "")
    if kind == "fire":
        coordinate = []
        if post.get("coordinate_ship"):
            coordinate.append(
                [
                    post.get("coordinate_ship", ""),
                    _needed(post, "coordinate_battery") - 1,
                    _needed(post, "coordinate_guns"),
                ]
            )
        target_battery = _number(post, "target_battery")
        aim = post.get("aim") or "hull"
        counter = aim in ("weapon_beam", "weapon_missile")
        return {
            "type": kind,
            "ship": ship,
            "battery": _needed(post, "battery") - 1,
            "guns": _needed(post, "guns"),
            "target": post.get("target", ""),
            "aim": aim,
            "vital_locations": _number(post, "vital_locations", default=0),
            "target_battery": target_battery - 1 if counter and target_battery else None,
            "target_guns": _number(post, "target_guns") if counter else None,
            "coordinate": coordinate,
            "facing": post.get("facing") or None,
        }
    if kind == "orders":
        officers = [o for o in post.getlist("officers") if o] or list(OFFICERS)
        return {
            "type": kind,
            "ship": ship,
            "haste_orders": _number(post, "haste_orders", default=0),
            "coordinations": _number(post, "coordinations", default=0),
            "bonuses": _number(post, "bonuses", default=0),
            "officers": officers,
        }
    if kind in ("evade", "shields", "remove_ship"):
        return {"type": kind, "ship": ship}
    if kind == "reroute":
        return {
            "type": kind,
            "ship": ship,
            "donor": post.get("donor", ""),
            "receiver": post.get("receiver", ""),
            "difficulty": _number(post, "difficulty"),
        }
    if kind == "facing":
        return {
            "type": kind,
            "ship": ship,
            "facing": post.get("facing", ""),
            "reserved_actions": _number(post, "reserved_actions", default=0),
        }
    if kind == "ram":
        return {
            "type": kind,
            "ship": ship,
            "target": post.get("target", ""),
            "speed_actions": _number(post, "speed_actions", default=1),
            "target_speed_actions": _number(post, "target_speed_actions", default=0),
        }
    if kind == "adjust":
        return {
            "type": kind,
            "ship": ship,
            "row": post.get("row", ""),
            "pips": _needed(post, "pips"),
        }
    if kind == "end_round":
        return {"type": kind}
    raise FleetError("ships join the battle through the ship form")


__all__ = ["AIMS", "FACINGS", "AddShipForm", "NewFleetActionForm", "step_data"]
