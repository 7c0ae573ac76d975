"""The campaign's rule options: one immutable object naming every choice where the sources differ.

Second Edition Revised & Expanded with the Rules Upgrade is the default. The House Rules and
the Rules Companion (which asks to be adopted as a whole) are available as presets, and any
single option can be overridden. Every rule function takes a ``RuleSet``.

Each option says, next to its default, what it is in words, where it comes from (the source
tags of the rules digests: [UPG], [WIKI], [2E-STD], [HOUSE], [RC]), the words for each of its
values and, for numbers, the range the rules allow (:class:`Option`, in :mod:`rules.options`,
read with :meth:`RuleSet.option`). ``RuleSet(...)`` and ``RuleSet.from_json`` reject unknown
keys, values outside those lists and numbers outside those ranges with a message that names
the key.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from rules.errors import RulesError
from rules.options import OPTIONS, SOURCES, Option

__all__ = [
    "PRESETS",
    "PRESET_LABELS",
    "SOURCES",
    "Option",
    "RuleSet",
    "RuleSetError",
]


class RuleSetError(RulesError):
    """A rule-option document that cannot be used: unknown key or value out of range.

    ``option`` names the offending option when there is one (forms attach the message to it)."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The campaign's choice for every rule option; the defaults are Second Edition R&E with the
    Rules Upgrade. What each option means is :meth:`RuleSet.option` (:mod:`rules.options`)."""

    # --- Dice and core (dice-and-core.md §0.2, §2) -------------------------------------------
    wild_die: bool = True
    wild_die_one: Literal["complication", "subtract", "normal", "gm_choice", "house_table"] = (
        "complication"
    )
    wild_die_on_damage: bool = True
    normalize_pips_in_play: bool = False
    difficulty_scale: Literal["2e", "rc"] = "2e"
    combined_actions: Literal["command", "rc_support"] = "command"
    preparing: Literal["double_time", "rc_prepare_round"] = "double_time"
    uncertainty_dice: bool = False
    rc_optional_haste: bool = False
    difficulty_dice: Literal["roll", "fixed"] = "roll"

    # --- Character creation, points and advancement (characters-and-advancement.md) ----------
    creation_rules: Literal["2e_std", "house", "rc_templates"] = "2e_std"
    advancement_table: Literal["upg", "house", "rc_skill_points"] = "upg"
    cp_spend_limits: Literal["upg", "house", "none"] = "upg"
    cp_on_damage: int = 0
    cp_on_resist_damage: int = 2
    attribute_improve_roll: bool = True
    one_pip_per_skill_between_adventures: bool = True
    attribute_raise_lifts_skills: bool = False
    days_per_week: Literal[7, 5] = 7
    house_extra_cp: int = 0
    house_cp_melee_brawling: Literal["parry", "attack"] = "parry"

    # --- The Force (force.md) -------------------------------------------------------------------
    dsp_check: Literal["lt", "le"] = "lt"
    dsp_check_wild_die: bool = False
    force_power_learning: Literal["upg", "house", "rc_mastery"] = "upg"
    calling_on_dark_side: bool = False
    lure_of_dark_side: bool = True

    # --- Combat (combat.md §10) -----------------------------------------------------------------
    combat_round: Literal["2e_initiative", "rc_haste"] = "2e_initiative"
    initiative_roller: Literal["highest_printed", "highest_effective"] = "highest_effective"
    initiative_wild_die: bool = True
    declare_timing: Literal["first_turn", "round_start"] = "first_turn"
    draw_weapon_is_action: bool = True
    reaction_mode: Literal["replace", "rc_choose_higher"] = "replace"
    full_reaction: Literal["none", "add_to_difficulty"] = "add_to_difficulty"
    dodge_covers_melee: bool = False
    armed_unarmed_modifiers: bool = False
    reactions_declared_cover_whole_round: bool = False
    range_difficulty: Literal["2e_levels", "rc_numbers"] = "2e_levels"
    cover_modifiers: Literal["none", "2e_std_dice", "rc_chart"] = "2e_std_dice"
    prone_to_hit_modifier: int = 0
    called_shots: Literal["upg", "house", "rc_chart"] = "upg"
    stun_setting: Literal["upg_2d_minutes", "house_margin", "rc_chart"] = "upg_2d_minutes"
    stun_switch_costs_action: bool = False
    auto_fire: Literal["none", "house"] = "none"
    suppression_fire: bool = False
    scale_mode: Literal["upg", "house", "rc_die_caps"] = "upg"
    surprise_mode: Literal["first_action", "rc_free_haste"] = "first_action"
    surprise_granularity: Literal["per_target", "any_spotter_alerts_all"] = "per_target"
    grenade_scatter: Literal["none", "rc"] = "none"
    default_weapon_strength: str | None = None
    wiki_penalty_convention: Literal["remove_dice", "subtract_pool"] = "remove_dice"

    # --- Injuries and healing (injuries-and-healing.md §0.2) ------------------------------------
    damage_chart: Literal["2e_margin", "rc_multiples"] = "2e_margin"
    wounded_twice_level: bool = True
    wound_effects: Literal["2e", "house"] = "2e"
    stun_knockout: Literal["strength_dice", "rc_dex_stamina"] = "strength_dice"
    escaping_unscathed: bool = False
    house_short_pointblank: bool = False
    critical_injuries: Literal["none", "house"] = "none"
    mw_stabilise: Literal["upg", "house"] = "upg"
    medpac_rules: Literal["2e_std", "house", "rc"] = "2e_std"
    natural_healing: Literal["2e_re", "rc_custom"] = "2e_re"
    bacta_times: Literal["2e_std", "house"] = "2e_std"
    maiming_for_fp: bool = False
    severe_wound_gear_check: bool = False
    death_automation: Literal["flag_for_gm", "auto"] = "flag_for_gm"

    # --- Droids, equipment, vehicles (droids-and-equipment.md, vehicles-and-starships.md) -------
    equipment_improvement: Literal["upg_percent", "rc_skill_points"] = "upg_percent"
    repair_tables: Literal["upg", "house"] = "upg"
    upg_improve_cost: Literal["per_step", "cumulative_total"] = "per_step"
    rc_weapon_install: Literal["fee_and_sp", "fee_or_sp"] = "fee_and_sp"
    lost_moves_5_repair: Literal["drive_rule", "upg_table"] = "drive_rule"
    lost_moves_5: Literal["destroyed", "drive_destroyed"] = "destroyed"
    speed_level_set: Literal["upg4", "house5"] = "upg4"
    collision_table: Literal["upg", "house", "rc"] = "upg"
    capital_combat: Literal["none", "rc"] = "none"

    # --- Movement, chases and falling (movement.md §7) ------------------------------------------
    house_high_terrain: Literal["interpolate", "as_fast", "as_all_out"] = "interpolate"
    house_lost_moves_cruising: Literal["normal", "fast"] = "normal"
    house_cautious_hard_terrain: Literal["as_upg", "free"] = "as_upg"
    move_mod_order: Literal["halve_then_subtract", "subtract_then_halve"] = "halve_then_subtract"
    standstill_is_level: bool = True
    vehicle_rolls_high_speed_easy_terrain: bool = True
    tumble_damage_rows: Literal["11_15", "7_15"] = "11_15"
    high_speed_fatigue_failure: Literal["rest_double", "gm"] = "rest_double"
    gravity_shift_levels: int = 2
    rc_loss_of_control_point: Literal["as_example", "as_text"] = "as_example"

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            _check_value(field.name, _HINTS[field.name], value)
            _check_range(field.name, _OPTIONS[field.name], value)

    # --- Construction and storage ---------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides: Any) -> RuleSet:
        """A named bundle (``"2e"``, ``"house"``, ``"rc"``), optionally with overrides."""
        try:
            base = PRESETS[name]
        except KeyError:
            raise RuleSetError(
                f"unknown rule preset {name!r}; choose one of {', '.join(PRESETS)}"
            ) from None
        unknown = set(overrides) - _FIELD_NAMES
        if unknown:
            raise RuleSetError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return cls(**{**base, **overrides})

    def replace(self, **changes: Any) -> RuleSet:
        unknown = set(changes) - _FIELD_NAMES
        if unknown:
            raise RuleSetError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """Every option as a plain JSON-serialisable dict."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any] | str | None) -> RuleSet:
        """Build from a dict (or its JSON text). Missing keys take the defaults; unknown keys and
        invalid values raise ``RuleSetError``."""
        if data is None:
            return cls()
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                raise RuleSetError(f"rule options are not valid JSON: {exc.msg}") from None
        if not isinstance(data, dict):
            raise RuleSetError("rule options must be a JSON object")
        unknown = set(data) - _FIELD_NAMES
        if unknown:
            raise RuleSetError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return cls(**data)

    def differences(self, other: RuleSet | None = None) -> dict[str, tuple[Any, Any]]:
        """Options that differ from ``other`` (the defaults): {name: (other's, ours)}."""
        other = other or RuleSet()
        return {
            f.name: (getattr(other, f.name), getattr(self, f.name))
            for f in dataclasses.fields(self)
            if getattr(other, f.name) != getattr(self, f.name)
        }

    def matching_preset(self) -> str | None:
        """The preset these options are exactly (``"2e"``, ``"house"``, ``"rc"``), or None
        for a custom set."""
        for name in PRESETS:
            if RuleSet.preset(name) == self:
                return name
        return None

    @classmethod
    def option(cls, name: str) -> Option:
        """What the option means, its source, the words for its values and its range."""
        try:
            return _OPTIONS[name]
        except KeyError:
            raise RuleSetError(f"unknown rule option: {name}", name) from None

    @classmethod
    def options(cls) -> Iterator[tuple[str, Option]]:
        """Every option in order, with what it means."""
        yield from _OPTIONS.items()

    @classmethod
    def choices(cls, name: str) -> tuple[Any, ...] | None:
        """The allowed values of a Literal option (None for free bools/ints/strings)."""
        hint = _HINTS[name]
        if typing.get_origin(hint) is Literal:
            return typing.get_args(hint)
        if hint is bool:
            return (False, True)
        return None


def _check_value(name: str, hint: Any, value: Any) -> None:
    origin = typing.get_origin(hint)
    if origin is Literal:
        allowed = typing.get_args(hint)
        # bool is an int: never let True stand in for 1 (or 7 for "7").
        if isinstance(value, bool) or value not in allowed:
            raise RuleSetError(
                f"rule option {name!r} must be one of {', '.join(map(repr, allowed))}; "
                f"got {value!r}",
                name,
            )
        return
    if origin in (typing.Union, types.UnionType):
        for arm in typing.get_args(hint):
            try:
                _check_value(name, arm, value)
            except RuleSetError:
                continue
            return
        raise RuleSetError(f"rule option {name!r} has an invalid value {value!r}", name)
    if hint is type(None):
        if value is not None:
            raise RuleSetError(f"rule option {name!r} must be null", name)
        return
    if hint is bool:
        if not isinstance(value, bool):
            raise RuleSetError(f"rule option {name!r} must be true or false; got {value!r}", name)
        return
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleSetError(f"rule option {name!r} must be a whole number; got {value!r}", name)
        return
    if hint is str:
        if not isinstance(value, str):
            raise RuleSetError(f"rule option {name!r} must be text; got {value!r}", name)
        return
    raise RuleSetError(f"rule option {name!r}: unsupported type {hint!r}")  # pragma: no cover


def _check_range(name: str, option: Option, value: Any) -> None:
    """Numbers within the option's range; die codes parse and lie within it."""
    if option.minimum is None or option.maximum is None or value is None:
        return
    lo, hi = option.minimum, option.maximum
    if option.die_code:
        from rules.dice import DieCode, DieCodeError  # rules.dice imports this module

        try:
            code = DieCode.parse(value)
        except DieCodeError as exc:
            raise RuleSetError(f"rule option {name!r}: {exc}", name) from None
        if not code.is_standard or not lo * 3 <= code.total_pips <= hi * 3:
            raise RuleSetError(
                f"rule option {name!r} must be a die code from {lo}D to {hi}D; got {value!r}",
                name,
            )
        return
    if not lo <= value <= hi:
        raise RuleSetError(
            f"rule option {name!r} must be {lo} or more and at most {hi}; got {value!r}",
            name,
        )


_HINTS = typing.get_type_hints(RuleSet)
_FIELD_NAMES = frozenset(f.name for f in dataclasses.fields(RuleSet))
if set(OPTIONS) != _FIELD_NAMES:  # pragma: no cover - a new option needs both halves
    raise RuntimeError(f"options without a RuleSet field or words: {set(OPTIONS) ^ _FIELD_NAMES}")
_OPTIONS: dict[str, Option] = {f.name: OPTIONS[f.name] for f in dataclasses.fields(RuleSet)}

#: The presets in words.
PRESET_LABELS: dict[str, str] = {
    "2e": "Second Edition R&E with the Rules Upgrade (the default)",
    "house": "House Rules",
    "rc": "Rules Companion (First Edition, as a whole)",
}

#: Named bundles. "2e" is Second Edition R&E with the Rules Upgrade (the defaults).
PRESETS: dict[str, dict[str, Any]] = {
    "2e": {},
    "house": {
        "wild_die_one": "house_table",
        "normalize_pips_in_play": True,
        "creation_rules": "house",
        "advancement_table": "house",
        "cp_spend_limits": "house",
        "cp_on_damage": 2,
        "cp_on_resist_damage": 5,
        "attribute_improve_roll": False,
        "attribute_raise_lifts_skills": True,
        "days_per_week": 5,
        "house_extra_cp": 20,
        "force_power_learning": "house",
        "declare_timing": "round_start",
        "armed_unarmed_modifiers": True,
        "reactions_declared_cover_whole_round": True,
        "called_shots": "house",
        "stun_setting": "house_margin",
        "stun_switch_costs_action": True,
        "auto_fire": "house",
        "suppression_fire": True,
        "scale_mode": "house",
        "default_weapon_strength": "2D",
        "wound_effects": "house",
        "house_short_pointblank": True,
        "critical_injuries": "house",
        "mw_stabilise": "house",
        "medpac_rules": "house",
        "bacta_times": "house",
        "maiming_for_fp": True,
        "severe_wound_gear_check": True,
        "repair_tables": "house",
        "speed_level_set": "house5",
        "collision_table": "house",
    },
    "rc": {
        "wild_die": False,
        "difficulty_scale": "rc",
        "combined_actions": "rc_support",
        "preparing": "rc_prepare_round",
        "rc_optional_haste": True,
        "creation_rules": "rc_templates",
        "advancement_table": "rc_skill_points",
        "cp_spend_limits": "none",
        "attribute_improve_roll": False,
        "dsp_check": "le",
        "force_power_learning": "rc_mastery",
        "calling_on_dark_side": True,
        "lure_of_dark_side": False,
        "combat_round": "rc_haste",
        "reaction_mode": "rc_choose_higher",
        "range_difficulty": "rc_numbers",
        "cover_modifiers": "rc_chart",
        "prone_to_hit_modifier": 2,
        "called_shots": "rc_chart",
        "stun_setting": "rc_chart",
        "stun_switch_costs_action": True,
        "scale_mode": "rc_die_caps",
        "surprise_mode": "rc_free_haste",
        "grenade_scatter": "rc",
        "damage_chart": "rc_multiples",
        "wounded_twice_level": False,
        "stun_knockout": "rc_dex_stamina",
        "escaping_unscathed": True,
        "medpac_rules": "rc",
        "equipment_improvement": "rc_skill_points",
        "collision_table": "rc",
        "capital_combat": "rc",
    },
}
