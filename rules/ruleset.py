"""The campaign's rule options: one immutable object naming every choice where the sources differ.

Second Edition Revised & Expanded with the Rules Upgrade is the default. The House Rules and
the Rules Companion (which asks to be adopted as a whole) are available as presets, and any
single option can be overridden. Every rule function takes a ``RuleSet``.

Each field's annotation lists its allowed values; ``RuleSet.from_json`` rejects unknown keys
and values outside those lists with a message that names the key.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["PRESETS", "RuleSet", "RuleSetError"]


class RuleSetError(ValueError):
    """A rule-option document that cannot be used: unknown key or value out of range."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    # --- Dice and core (dice-and-core.md §0.2, §2) -------------------------------------------
    wild_die: bool = True
    """Roll one die of every pool as the Wild Die ([RC] has none)."""
    wild_die_one: Literal["complication", "subtract", "normal", "gm_choice", "house_table"] = (
        "complication"
    )
    """What a first Wild Die roll of 1 does: a story complication with the dice added normally;
    subtract the 1 and the highest other die; count normally ([UPG] option); leave it to the GM
    at the table; or the House Rules' 1D complication table."""
    wild_die_on_damage: bool = True
    """[UPG] "The Wild Die rule applies to all rolls, including damage rolls"."""
    normalize_pips_in_play: bool = False
    """Carry three pips into a die when modifiers are added in play ([HOUSE]); by default
    pools keep their pips ([RC]: "a character can roll 4D+6")."""
    difficulty_scale: Literal["2e", "rc"] = "2e"
    combined_actions: Literal["command", "rc_support"] = "command"
    preparing: Literal["double_time", "rc_prepare_round"] = "double_time"
    uncertainty_dice: bool = False
    rc_optional_haste: bool = False
    difficulty_dice: Literal["roll", "fixed"] = "roll"
    """How "+1D" is added to a difficulty number (dice-and-core.md A17): the GM side rolls the
    dice (no Wild Die), or a fixed 3 per die."""

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
    """Extra Character Points granted at creation ([HOUSE]: 20)."""
    house_cp_melee_brawling: Literal["parry", "attack"] = "parry"
    """[HOUSE] which "Melee Combat or Brawling Combat attempts" get the 5-CP limit (A-C15)."""

    # --- The Force (force.md) -------------------------------------------------------------------
    dsp_check: Literal["lt", "le"] = "lt"
    dsp_check_wild_die: bool = False
    force_power_learning: Literal["upg", "house", "rc_mastery"] = "upg"
    """How powers are gained and whether unlearned ones may be used: [UPG] one per skill pip or
    5 CP; [HOUSE] as UPG plus learning through the Force; [RC] power totals and mastery."""
    calling_on_dark_side: bool = False
    """[RC] Perception/Control roll for a Force Point and a Dark Side Point (force.md A-F17)."""
    lure_of_dark_side: bool = True
    """[UPG] +1D per Dark Side Point on Force skill rolls (not in the RC)."""

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
    """Who is surprised when only some targets spot an ambusher (combat.md CA-18): each target
    that spots none ([WIKI] reading, all presets), or nobody once anyone spots one."""
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
    """[UPG] improvement tables: each row prices its own one-step modification, or the total
    cost of reaching that level (droids-and-equipment.md ambiguity 26)."""
    rc_weapon_install: Literal["fee_and_sp", "fee_or_sp"] = "fee_and_sp"
    """[RC] installing a purchased weapon: fee plus 9 skill points, or either (ambiguity 25)."""
    lost_moves_5_repair: Literal["drive_rule", "upg_table"] = "drive_rule"
    """Repairing 5 lost moves: the Drives rule (Difficult, 35%) or 001's table row (100%)."""
    lost_moves_5: Literal["destroyed", "drive_destroyed"] = "destroyed"
    speed_level_set: Literal["upg4", "house5"] = "upg4"
    """Vehicle and character speeds: [UPG] cautious/cruising/high/all-out, or the [HOUSE] five
    (cautious/normal/fast/high/all-out)."""
    collision_table: Literal["upg", "house", "rc"] = "upg"
    """Collision damage by speed: [UPG] four rows, [HOUSE] five rows, [RC] by speed actions."""

    # --- Movement, chases and falling (movement.md §7) ------------------------------------------
    house_high_terrain: Literal["interpolate", "as_fast", "as_all_out"] = "interpolate"
    """[HOUSE] High (3x Move) terrain roll: one level up everywhere, or as Fast, or as All-Out."""
    house_lost_moves_cruising: Literal["normal", "fast"] = "normal"
    """[HOUSE] five speeds: which speed "-2 Moves: limited to cruising speed" means (MV-28)."""
    house_cautious_hard_terrain: Literal["as_upg", "free"] = "as_upg"
    """[HOUSE] cautious move in Difficult+ terrain: an action as in [UPG], or free (MV-29)."""
    move_mod_order: Literal["halve_then_subtract", "subtract_then_halve"] = "halve_then_subtract"
    """[HOUSE] injuries that halve and reduce Move: which applies first (MV-30)."""
    standstill_is_level: bool = True
    """Stopped is a speed level below cautious for acceleration (MV-2)."""
    vehicle_rolls_high_speed_easy_terrain: bool = True
    """Drivers, not only characters on foot, roll at high speed in Very Easy-Moderate (MV-3)."""
    tumble_damage_rows: Literal["11_15", "7_15"] = "11_15"
    """Movement failures that deal the all-out 1D: Minor Tumble only, or Fall too (MV-6)."""
    high_speed_fatigue_failure: Literal["rest_double", "gm"] = "rest_double"
    """A failed high-speed stamina roll: rest twice as long, or left to the GM (MV-8)."""
    gravity_shift_levels: int = 2
    """Falling-damage rows added on high-gravity worlds and removed on low ([WIKI] "a couple")."""
    rc_loss_of_control_point: Literal["as_example", "as_text"] = "as_example"
    """[RC] the speed action in which control is lost: as the printed example, or the text."""

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            _check_value(field.name, _HINTS[field.name], getattr(self, field.name))

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
                f"got {value!r}"
            )
        return
    if origin in (typing.Union, types.UnionType):
        for arm in typing.get_args(hint):
            try:
                _check_value(name, arm, value)
            except RuleSetError:
                continue
            return
        raise RuleSetError(f"rule option {name!r} has an invalid value {value!r}")
    if hint is type(None):
        if value is not None:
            raise RuleSetError(f"rule option {name!r} must be null")
        return
    if hint is bool:
        if not isinstance(value, bool):
            raise RuleSetError(f"rule option {name!r} must be true or false; got {value!r}")
        return
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleSetError(f"rule option {name!r} must be a whole number; got {value!r}")
        return
    if hint is str:
        if not isinstance(value, str):
            raise RuleSetError(f"rule option {name!r} must be text; got {value!r}")
        return
    raise RuleSetError(f"rule option {name!r}: unsupported type {hint!r}")  # pragma: no cover


_HINTS = typing.get_type_hints(RuleSet)
_FIELD_NAMES = frozenset(f.name for f in dataclasses.fields(RuleSet))

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
    },
}
