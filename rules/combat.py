"""Combat: actions, combined actions, scale, attack difficulty, reactions, armour and the damage
roll against the resistance roll (combat.md, dice-and-core.md §7–§9).

Pure functions over small immutable values; every rule that differs between the sources takes
the campaign's :class:`~rules.ruleset.RuleSet`. Difficulty modifiers that the sources give in
dice ("+1D") are :class:`~rules.dice.DieCode` values; flat numbers are pips (``+2`` is
``DieCode(0, 2)``). The wound ladder, stun and healing are in :mod:`rules.injuries`;
``WoundLevel``, ``apply_wound``, ``wound_penalty`` and ``wound_effects`` are re-exported here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from rules.dice import DiceSource, DieCode
from rules.difficulty import DifficultyLevel, add_to_difficulty, number_range
from rules.injuries import (
    Duration,
    WoundLevel,
    apply_wound,
    wound_effects,
    wound_penalty,
)
from rules.ruleset import RuleSet
from rules.ships import (
    Scale,
    ScaleAdjustment,
    adjusted_modifier,
    die_cap_total,
    scale_adjustment,
    scale_modifier,
)

__all__ = [
    "ActionCount",
    "Actor",
    "Armour",
    "CalledShot",
    "DamageResult",
    "RangeBand",
    "RangeDifficulty",
    "Scale",
    "ScaleAdjustment",
    "WeaponRange",
    "WoundLevel",
    "action_order",
    "adjusted_modifier",
    "apply_wound",
    "auto_fire_difficulty_modifier",
    "blast_damage",
    "called_shot",
    "combined_action_bonus",
    "concentrated_fire_hits",
    "damage_code",
    "damage_result",
    "die_cap_total",
    "full_auto_may_react",
    "full_reaction_penalty",
    "grenade_scatter_dice",
    "house_attack_bonus",
    "house_parry_bonus",
    "initiative_pool",
    "initiative_roller",
    "initiative_winner",
    "is_hit",
    "max_combining",
    "modified_difficulty",
    "multiple_action_penalty",
    "range_difficulty",
    "rc_combined_code",
    "rc_declaration_order",
    "reacted_difficulty",
    "reaction_skills",
    "resistance_code",
    "roll_grenade_scatter",
    "scale_adjustment",
    "scale_modifier",
    "situational_modifier",
    "split_combined_bonus",
    "spray_follow_up",
    "stun_switch_actions",
    "suppression_fumble_hits",
    "suppression_successes",
    "surprised_targets",
    "target_size_modifier",
    "thrown_damage",
    "wound_effects",
    "wound_level",
    "wound_penalty",
]


NO_DICE = DieCode()


# ---------------------------------------------------------------------------------------------
# Multiple actions (dice-and-core.md §7, combat.md §1.3, §2.1)
# ---------------------------------------------------------------------------------------------
def multiple_action_penalty(
    actions: int,
    *,
    free_actions: int = 0,
    full_auto: bool = False,
    ruleset: RuleSet = RuleSet(),
) -> int:
    """Dice off every skill and attribute roll this round: 1D for each action beyond the first
    ([2E-STD], confirmed by [WIKI] and [RC]). ``free_actions``: [RC] surprise haste, which does
    not lower die codes. ``full_auto``: [HOUSE §13] an extra -1D on all actions that round.
    Not applied to damage or to Strength against damage, nor to initiative."""
    if actions < 1:
        raise ValueError("a character takes at least one action in a round")
    if not 0 <= free_actions <= actions:
        raise ValueError("free actions must be between 0 and the number of actions")
    if full_auto and ruleset.auto_fire != "house":
        raise ValueError("this campaign does not use the House automatic-fire rules")
    return max(0, actions - free_actions - 1) + (1 if full_auto else 0)


@dataclass(frozen=True, slots=True)
class ActionCount:
    """A character's actions this round: the declared number, reactions added as extra
    actions, and how many declared actions he has taken. The penalty never goes down (CA-9)."""

    declared: int
    extra: int = 0
    used: int = 0
    free: int = 0

    def __post_init__(self) -> None:
        if self.declared < 1 or self.extra < 0 or not 0 <= self.used <= self.declared:
            raise ValueError("declare at least one action; used actions cannot exceed declared")

    @property
    def total(self) -> int:
        return self.declared + self.extra

    @property
    def remaining(self) -> int:
        return self.declared - self.used

    @property
    def penalty_dice(self) -> int:
        return multiple_action_penalty(self.total, free_actions=self.free)

    def take(self) -> ActionCount:
        """Take the next declared action."""
        if not self.remaining:
            raise ValueError("no declared actions are left this round")
        return ActionCount(self.declared, self.extra, self.used + 1, self.free)

    def react(self, *, use_declared: bool) -> ActionCount:
        """A reaction: spend a remaining declared action, or add an extra action that raises
        the penalty for the rest of the round [UPG] [WIKI]."""
        if use_declared:
            return self.take()
        return ActionCount(self.declared, self.extra + 1, self.used, self.free)

    def lose_remaining(self) -> ActionCount:
        """Wounded: declared actions not yet taken are lost; the penalty stays (CA-9)."""
        return ActionCount(self.declared, self.extra, self.declared, self.free)


# ---------------------------------------------------------------------------------------------
# Combined actions (dice-and-core.md §8)
# ---------------------------------------------------------------------------------------------
def combined_action_bonus(
    combining: int,
    command_margin: int = 0,
    ruleset: RuleSet = RuleSet(),
    *,
    supporter_codes: Sequence[DieCode | str] | None = None,
    actions: int = 1,
    limit: int | None = None,
) -> DieCode:
    """The bonus a combined action gives the character who rolls.

    ``command`` ([UPG] [WIKI] [HOUSE §17]): +1D per three characters combining and +1 per extra
    one (one pip each); a failed command roll (``command_margin`` < 0) takes 1D off the bonus
    per point missed, never below 0D. ``rc_support`` ([RC]): ``combining`` counts the lead and
    ``supporter_codes`` are the others' codes; each supporter adds one pip per full die of his
    code after his multiple-action penalty (``actions`` declared); above ``limit``
    participants the bonus is lost and 3 pips come off per extra character. RC bonuses keep
    their pips (3D+6 is rolled as it stands)."""
    if combining < 0:
        raise ValueError("the number of characters combining cannot be negative")
    if ruleset.combined_actions == "command":
        pips = combining
        if command_margin < 0:
            pips = max(0, pips + 3 * command_margin)
        return DieCode.from_pips(pips)
    if supporter_codes is None:
        raise ValueError("Rules Companion combined actions need the supporters' die codes")
    if len(supporter_codes) != combining - 1:
        raise ValueError("give one die code for every supporter (everyone combining but the lead)")
    if limit is not None and combining > limit:
        return DieCode(0, -3 * (combining - limit))
    penalty = multiple_action_penalty(actions)
    return DieCode(0, sum(DieCode.parse(c).minus_dice(penalty).dice for c in supporter_codes))


def rc_combined_code(
    lead_code: DieCode | str,
    supporter_codes: Sequence[DieCode | str],
    *,
    actions: int = 1,
    limit: int | None = None,
) -> DieCode:
    """[RC] the lead's code, cut by his multiple-action penalty, plus the support pips
    (three troopers at 3D: 3D+6; two combined shots each: 2D+4)."""
    bonus = combined_action_bonus(
        len(supporter_codes) + 1,
        ruleset=RuleSet(combined_actions="rc_support"),
        supporter_codes=supporter_codes,
        actions=actions,
        limit=limit,
    )
    return DieCode.parse(lead_code).minus_dice(multiple_action_penalty(actions)).pool_add(bonus)


def max_combining(code: DieCode | str, *, actions: int = 1, ruleset: RuleSet = RuleSet()) -> int:
    """How many characters may combine. 2E: as many as the leader has command dice (8D+2 → 8;
    the GM may allow more). [RC]: the coordinator's command dice (combined fire) or the highest
    skill dice among the participants (work under time pressure), after his own multiple-action
    penalty (command 4D while also firing → 3)."""
    code = DieCode.parse(code)
    if ruleset.combined_actions == "command":
        return code.dice
    return code.minus_dice(multiple_action_penalty(actions)).dice


def split_combined_bonus(bonus: DieCode | str, to_attack: DieCode | str) -> tuple[DieCode, DieCode]:
    """[UPG] [WIKI] split a combat bonus between the attack and the damage roll:
    +2D+2 with 1D to the attack → (+1D, +1D+2)."""
    bonus, to_attack = DieCode.parse(bonus), DieCode.parse(to_attack)
    if not 0 <= to_attack.total_pips <= bonus.total_pips:
        raise ValueError(f"the attack can take between +0 and all of {bonus.signed()}")
    return to_attack, bonus - to_attack


# Scale (combat.md §6, vehicles-and-starships.md §3) is shared with vehicles: ``Scale``,
# ``scale_modifier``, ``adjusted_modifier``, ``scale_adjustment`` (dice [UPG]/[HOUSE], or [RC] die
# caps) and ``die_cap_total`` come from :mod:`rules.ships` and are re-exported here. A character
# is the ``character`` scale: read his row for his own rolls and his column for rolls against him.


# ---------------------------------------------------------------------------------------------
# Attack difficulty (combat.md §4)
# ---------------------------------------------------------------------------------------------
class RangeBand(StrEnum):
    point_blank = "point_blank"
    short = "short"
    medium = "medium"
    long = "long"
    out_of_range = "out_of_range"


_RANGE_TEXT = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*/\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True, slots=True)
class WeaponRange:
    """A character weapon's ranges in metres, written ``3-10/30/120`` [2E-STD]."""

    short_min: int
    short_max: int
    medium: int
    long: int

    def __post_init__(self) -> None:
        if not 0 <= self.short_min <= self.short_max <= self.medium <= self.long:
            raise ValueError("weapon ranges must grow: short-min ≤ short-max ≤ medium ≤ long")

    @classmethod
    def parse(cls, text: str) -> WeaponRange:
        m = _RANGE_TEXT.match(text)
        if not m:
            raise ValueError(f"{text!r} is not a weapon range; write it like 3-10/30/120")
        return cls(*(int(g) for g in m.groups()))

    def band(self, distance_m: float) -> RangeBand:
        """Point-blank below the short minimum; short, medium and long up to and including each
        band's top; beyond long the weapon cannot hit (CA-13)."""
        if distance_m < 0:
            raise ValueError("a distance cannot be negative")
        if distance_m < self.short_min:
            return RangeBand.point_blank
        for top, band in (
            (self.short_max, RangeBand.short),
            (self.medium, RangeBand.medium),
            (self.long, RangeBand.long),
        ):
            if distance_m <= top:
                return band
        return RangeBand.out_of_range


@dataclass(frozen=True, slots=True)
class RangeDifficulty:
    level: DifficultyLevel
    low: int
    high: int


_RANGE_LEVELS = {
    RangeBand.point_blank: DifficultyLevel(0),
    RangeBand.short: DifficultyLevel(1),
    RangeBand.medium: DifficultyLevel(2),
    RangeBand.long: DifficultyLevel(3),
}


def range_difficulty(band: RangeBand | str, ruleset: RuleSet = RuleSet()) -> RangeDifficulty:
    """The base difficulty to hit at a range ([WIKI]: point-blank Very Easy, short Easy, medium
    Moderate, long Difficult; [RC] Combat Difficulty Scale 3–5 / 6–10 / 11–15 / 16–20). The GM
    picks a number inside the span (CA-28)."""
    band = RangeBand(band)
    if band is RangeBand.out_of_range:
        raise ValueError("the target is beyond the weapon's long range and cannot be hit")
    level = _RANGE_LEVELS[band]
    scale = "rc" if ruleset.range_difficulty == "rc_numbers" else "2e"
    return RangeDifficulty(level, *number_range(level, RuleSet(difficulty_scale=scale)))


def modified_difficulty(
    base: int,
    *modifiers: DieCode | str,
    rng: DiceSource | None = None,
    ruleset: RuleSet = RuleSet(),
) -> int:
    """A difficulty number after each modifier in turn (cover, called shot, prone …), added by
    :func:`rules.difficulty.add_to_difficulty`: pips as they stand, dice rolled by the GM side
    (no Wild Die) or 3 each with ``difficulty_dice = "fixed"`` (CA-12)."""
    for mod in modifiers:
        base = add_to_difficulty(base, mod, rng, ruleset).number
    return base


_COVER_2E = {
    # [2E-STD, not in sources] cover and visibility, dice added to the difficulty
    "poor_light": 1,
    "twilight": 1,
    "light_smoke": 1,
    "fog": 1,
    "moonlit_night": 2,
    "thick_smoke": 2,
    "complete_darkness": 4,
    "very_thick_smoke": 4,
    "quarter_cover": 1,
    "half_cover": 2,
    "three_quarters_cover": 4,
}
_COVER_RC = {
    # [RC] Optional Fire Modifiers Chart (reconstructed from the OCR, CA-25)
    "light_cover": 1,
    "medium_cover": 2,
    "heavy_cover": 5,
    "aperture_adjacent": 1,
    "door": 2,
    "window": 3,
    "slit": 4,
}


def situational_modifier(condition: str, ruleset: RuleSet = RuleSet()) -> DieCode:
    """What a condition adds to the difficulty: ``prone`` (``prone_to_hit_modifier``, [RC] +2),
    the 2E cover and visibility dice (``cover_modifiers = "2e_std_dice"``: ``half_cover`` +2D,
    ``complete_darkness`` +4D …) or the [RC] chart numbers (``medium_cover`` +2, ``window`` +3
    …). ``full_cover``: the target cannot be hit directly."""
    if condition == "prone":
        return DieCode(0, ruleset.prone_to_hit_modifier)
    if condition == "full_cover":
        raise ValueError("a target completely behind cover cannot be hit directly")
    if condition not in _COVER_2E and condition not in _COVER_RC:
        known = ", ".join(["prone", *_COVER_2E, *_COVER_RC])
        raise ValueError(f"unknown combat condition {condition!r}; known: {known}")
    if ruleset.cover_modifiers == "none":
        return DieCode()
    if ruleset.cover_modifiers == "rc_chart":
        if condition not in _COVER_RC:
            raise ValueError(f"{condition!r} is not on the Rules Companion fire modifiers chart")
        return DieCode(0, _COVER_RC[condition])
    if condition not in _COVER_2E:
        raise ValueError(f"{condition!r} is a Rules Companion chart row, not a 2E modifier")
    return DieCode(_COVER_2E[condition])


def target_size_modifier(size_cm: float) -> int:
    """[RC] target size (personal combat): under 1 cm +15, 1–10 cm +10, 11–50 cm +5,
    51–99 cm +2, 1–3 m 0, 3–9 m -3, 10–99 m -5, 100 m or more -10 (a boundary belongs to the
    smaller row, CA-13)."""
    if size_cm <= 0:
        raise ValueError("a target's size must be positive")
    rows = (
        (size_cm < 1, 15),
        (size_cm <= 10, 10),
        (size_cm <= 50, 5),
        (size_cm < 100, 2),
        (size_cm <= 300, 0),
        (size_cm < 1000, -3),
        (size_cm < 10000, -5),
    )
    return next((mod for applies, mod in rows if applies), -10)


@dataclass(frozen=True, slots=True)
class CalledShot:
    difficulty: DieCode
    damage_bonus: DieCode = NO_DICE


def called_shot(target_size_cm: float, ruleset: RuleSet = RuleSet()) -> CalledShot:
    """A called shot at a small target. [UPG]: 10–50 cm +1D, 1–10 cm +4D, under 1 cm +8D to the
    difficulty (exactly 10 cm: +1D). [HOUSE §11] (``called_shots = "house"``): a hit also adds
    +1D / +2D / +3D damage. [RC] (``rc_chart``): the target-size modifier."""
    if target_size_cm <= 0:
        raise ValueError("a target's size must be positive")
    if ruleset.called_shots == "rc_chart":
        return CalledShot(DieCode(0, target_size_modifier(target_size_cm)))
    if target_size_cm > 50:
        raise ValueError("a called shot is for a target 50 cm long or smaller")
    row = 0 if target_size_cm >= 10 else 1 if target_size_cm >= 1 else 2
    damage = DieCode(row + 1) if ruleset.called_shots == "house" else DieCode()
    return CalledShot(DieCode((1, 4, 8)[row]), damage)


def stun_switch_actions(ruleset: RuleSet = RuleSet()) -> int:
    """Actions it takes to set a blaster to stun: none in the baseline (not stated, CA-15),
    one in [HOUSE §14] and [RC] (so a shot that round is at -1D)."""
    return 1 if ruleset.stun_switch_costs_action else 0


# ---------------------------------------------------------------------------------------------
# Grenades and thrown weapons (combat.md §4.3, §4.8)
# ---------------------------------------------------------------------------------------------
def grenade_scatter_dice(band: RangeBand | str, ruleset: RuleSet = RuleSet()) -> int:
    """[RC] a missed grenade scatters 1D m at short range (and point-blank), 2D at medium, 3D at
    long; no scatter without ``grenade_scatter = "rc"`` (CA-24)."""
    band = RangeBand(band)
    if band is RangeBand.out_of_range:
        raise ValueError("a grenade cannot be thrown beyond long range")
    if ruleset.grenade_scatter == "none":
        return 0
    return {RangeBand.long: 3, RangeBand.medium: 2}.get(band, 1)


def roll_grenade_scatter(
    band: RangeBand | str, rng: DiceSource, ruleset: RuleSet = RuleSet()
) -> int:
    """Metres a missed grenade lands from its target (plain dice; direction is the GM's)."""
    return sum(rng.d6() for _ in range(grenade_scatter_dice(band, ruleset)))


def blast_damage(distance_m: float, bands: Sequence[tuple[float, DieCode | str]]) -> DieCode | None:
    """[2E-STD] the damage of the first blast-radius band, ``(radius_m, damage)`` from the
    centre out, that reaches the target; None outside the blast."""
    if distance_m < 0:
        raise ValueError("a distance cannot be negative")
    radii = [r for r, _ in bands]
    if radii != sorted(radii):
        raise ValueError("list blast bands from the centre outwards")
    for radius, damage in bands:
        if distance_m <= radius:
            return DieCode.parse(damage)
    return None


def thrown_damage(strength: DieCode | str, band: RangeBand | str) -> DieCode:
    """[RC adventure] rocks thrown "as grenades": Strength damage, -1D at long range."""
    band = RangeBand(band)
    if band is RangeBand.out_of_range:
        raise ValueError("nothing can be thrown beyond long range")
    strength = DieCode.parse(strength)
    return strength.minus_dice(1) if band is RangeBand.long else strength


# ---------------------------------------------------------------------------------------------
# Reactions (combat.md §2)
# ---------------------------------------------------------------------------------------------
AttackKind = Literal["ranged", "melee", "brawling", "vehicle", "starship"]


def reaction_skills(
    attack: AttackKind,
    *,
    armed: bool = False,
    lightsaber: bool = False,
    ruleset: RuleSet = RuleSet(),
) -> tuple[str, ...]:
    """The reaction skills that answer an attack (CA-7; [RC]: a dodge does not stop melee):
    ranged → dodge; melee → melee parry (lightsaber if wielding one); brawling → brawling parry
    (melee parry with a weapon in hand); vehicle or starship weapons → vehicle or starship
    dodge. ``dodge_covers_melee`` lets a dodge answer melee and brawling too."""
    skills: dict[str, tuple[str, ...]] = {
        "ranged": ("dodge",),
        "melee": ("melee parry",),
        "brawling": ("brawling parry", "melee parry") if armed else ("brawling parry",),
        "vehicle": ("vehicle dodge",),
        "starship": ("starship dodge",),
    }
    if attack not in skills:
        raise ValueError(f"unknown attack kind {attack!r}; choose {', '.join(skills)}")
    out = skills[attack]
    if lightsaber and attack in ("melee", "brawling"):
        out += ("lightsaber",)
    if ruleset.dodge_covers_melee and attack in ("melee", "brawling"):
        out += ("dodge",)
    return out


def reacted_difficulty(
    base: int,
    reaction_total: int | None,
    ruleset: RuleSet = RuleSet(),
    *,
    full: bool = False,
    reaction_haste: int = 0,
    attack_haste: int = 0,
) -> int:
    """The difficulty an attacker must reach after the target's reaction.

    2E ([UPG] [WIKI]): the reaction total replaces the difficulty, even when lower. A full
    reaction ([2E-STD]; [RC] full dodge) adds the reaction total to the difficulty. [RC] combat
    reaction (``rc_choose_higher``): the defender keeps the higher of the two; an [RC] reaction
    with less haste than the attack does not count."""
    if reaction_total is None:
        return base
    rc = ruleset.reaction_mode == "rc_choose_higher"
    if rc and reaction_haste < attack_haste:
        return base
    if full:
        if ruleset.full_reaction == "none":
            raise ValueError("this campaign has no full reactions")
        return base + reaction_total
    return max(base, reaction_total) if rc else reaction_total


def full_reaction_penalty(actions: int) -> int:
    """[RC] a full dodge's required speed action gives back its own 1D: the dodge is rolled at
    the multiple-action penalty less 1D (CA-23); other movement rolls take the full penalty."""
    return max(0, multiple_action_penalty(actions) - 1)


def house_parry_bonus(
    *, defender_armed: bool, attacker_armed: bool, ruleset: RuleSet = RuleSet()
) -> int:
    """[HOUSE §19] +5 to a melee parry made with a weapon in hand against an unarmed attacker."""
    on = ruleset.armed_unarmed_modifiers and defender_armed and not attacker_armed
    return 5 if on else 0


def house_attack_bonus(
    *, attacker_armed: bool, defender_armed: bool, ruleset: RuleSet = RuleSet()
) -> int:
    """[HOUSE §19] +10 to an armed attacker's roll against a defender using brawling parry."""
    on = ruleset.armed_unarmed_modifiers and attacker_armed and not defender_armed
    return 10 if on else 0


def is_hit(attack_total: int, difficulty: int) -> bool:
    """[UPG] [WIKI] the Rule of Thumb: tie or beat the difficulty to hit."""
    return attack_total >= difficulty


# ---------------------------------------------------------------------------------------------
# Damage and resistance (combat.md §5)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Armour:
    """[2E-STD] armour dice added to Strength against damage, by kind of attack, and the
    Dexterity penalty for wearing it."""

    physical: DieCode = NO_DICE
    energy: DieCode = NO_DICE
    dexterity_penalty: DieCode = NO_DICE

    @classmethod
    def uniform(cls, code: DieCode | str) -> Armour:
        """The same protection against every attack ([HOUSE] "+2D armour", [RC] "+1D armor")."""
        code = DieCode.parse(code)
        return cls(code, code)


def resistance_code(
    strength: DieCode | str,
    armour: Armour | DieCode | str | None = None,
    *,
    attack: Literal["physical", "energy"] = "energy",
    scale_bonus: DieCode | str | None = None,
    penalty_dice: int = 0,
) -> DieCode:
    """The Strength roll against damage: Strength plus armour ([HOUSE §10] "if allowed") plus
    the scale modifier where the target is the higher scale. No wound, stun or multiple-action
    penalty ([WIKI], CA-11); ``penalty_dice`` only for explicit effects such as the [HOUSE]
    critical "Internal Bruising" (-2D)."""
    code = DieCode.parse(strength)
    if isinstance(armour, Armour):
        code = code.pool_add(armour.energy if attack == "energy" else armour.physical)
    elif armour is not None:
        code = code.pool_add(armour)
    if scale_bonus is not None:
        code = code.pool_add(scale_bonus)
    if penalty_dice < 0:
        raise ValueError("penalty dice cannot be negative")
    return code.minus_dice(penalty_dice)


_STR_DAMAGE = re.compile(r"^\s*STR\s*(?P<mod>[+-].*)?$", re.IGNORECASE)


def damage_code(
    weapon_damage: DieCode | str,
    *,
    strength: DieCode | str | None = None,
    bonuses: Iterable[DieCode | str] = (),
) -> DieCode:
    """The damage roll: the weapon's code, or ``STR+1D`` style melee damage (brawling is plain
    ``STR``) [2E-STD] [RC], plus bonuses (combined-action share, scale, [HOUSE] called shot).
    The multiple-action penalty never applies to damage [WIKI]."""
    if isinstance(weapon_damage, str) and (m := _STR_DAMAGE.match(weapon_damage)):
        if strength is None:
            raise ValueError(f"{weapon_damage!r} needs the wielder's Strength")
        base = DieCode.parse(strength).pool_add(m["mod"] or DieCode())
        base = DieCode(max(0, base.dice), base.pips)
    else:
        base = DieCode.parse(weapon_damage)
    for bonus in bonuses:
        base = base.pool_add(bonus)
    return base


@dataclass(frozen=True, slots=True)
class DamageResult:
    """What one hit does: the wound level it inflicts (``stunned`` for a stun), the stun points
    it gives, and a knock-out for stun weapons. ``needs_gm``: a [HOUSE §10] short or point-blank
    hit whose Strength roll beat the damage roll; the GM lowers the result by hand (CA-14)."""

    level: WoundLevel
    margin: int
    stun_points: int = 0
    unconscious_for: Duration | None = None
    needs_gm: bool = False


_CHART_2E = (  # [2E-STD, not in sources] Character Damage Chart: lowest margin of each band
    (16, WoundLevel.killed),
    (13, WoundLevel.mortally_wounded),
    (9, WoundLevel.incapacitated),
    (4, WoundLevel.wounded),
    (0, WoundLevel.stunned),
)
_RC_NORMAL = (WoundLevel.wounded, WoundLevel.incapacitated, WoundLevel.mortally_wounded)


def _chart_2e(margin: int) -> WoundLevel:
    for low, level in _CHART_2E:
        if margin >= low:
            return level
    return WoundLevel.none


def _rc_multiple(damage: int, resistance: int) -> int:
    """0 below SR, 1 at SR or more, 2 at 2×SR, 3 at 3×SR ([RC] Damage Summary)."""
    return sum(damage >= k * resistance for k in (1, 2, 3))


def damage_result(
    damage_total: int,
    resistance_total: int,
    ruleset: RuleSet = RuleSet(),
    *,
    stun_weapon: bool = False,
    range_band: RangeBand | str | None = None,
) -> DamageResult:
    """Damage roll against resistance roll, read on the campaign's chart.

    ``2e_margin`` ([2E-STD]): margin below 0 no effect, 0–3 stunned, 4–8 wounded, 9–12
    incapacitated, 13–15 mortally wounded, 16+ killed. ``rc_multiples`` ([RC]): 2×DR < SR
    escapes unscathed (``escaping_unscathed``), DR < SR stun (-1D), DR ≥ SR wound, ≥ 2×SR
    incapacitate, ≥ 3×SR mortal wound; never killed.

    ``stun_weapon``: [UPG] worse than stunned → unconscious 2D minutes; [HOUSE §14] above
    stunned → unconscious for (margin)D rounds (IH-7); [RC] Stun Damage Summary: 1 Stun, 2 Stun,
    unconscious at 3×SR (2D minutes, IH-6). A stun weapon never changes the wound level.

    ``range_band`` ([HOUSE §10], ``house_short_pointblank``; energy weapons): a short-range hit
    is at least wounded twice (-2D), a point-blank hit at least mortally wounded (-3D), unless
    the Strength roll beats the damage roll (then ``needs_gm``)."""
    if damage_total < 0 or resistance_total < 0:
        raise ValueError("damage and resistance totals cannot be negative")
    margin = damage_total - resistance_total
    rc = ruleset.damage_chart == "rc_multiples"
    if stun_weapon:
        return _stun_weapon_result(damage_total, resistance_total, ruleset)
    if rc:
        step = _rc_multiple(damage_total, resistance_total)
        if step:
            level = _RC_NORMAL[step - 1]
        elif ruleset.escaping_unscathed and 2 * damage_total < resistance_total:
            level = WoundLevel.none
        else:
            level = WoundLevel.stunned
    else:
        level = _chart_2e(margin)
    result = DamageResult(level, margin, 1 if level is WoundLevel.stunned else 0)
    if range_band is not None and ruleset.house_short_pointblank:
        result = _house_range_floor(result, RangeBand(range_band))
    return result


def _stun_weapon_result(damage: int, resistance: int, ruleset: RuleSet) -> DamageResult:
    margin = damage - resistance
    if ruleset.stun_setting == "rc_chart":
        step = _rc_multiple(damage, resistance)
        if step == 3:
            return DamageResult(WoundLevel.none, margin, 0, Duration(2, "minutes"))
        return DamageResult(WoundLevel.stunned if step else WoundLevel.none, margin, step)
    level = _chart_2e(margin)
    if level.rank <= WoundLevel.stunned.rank:
        return DamageResult(level, margin, 1 if level is WoundLevel.stunned else 0)
    if ruleset.stun_setting == "house_margin":
        return DamageResult(WoundLevel.none, margin, 0, Duration(margin, "rounds"))
    return DamageResult(WoundLevel.none, margin, 0, Duration(2, "minutes"))


def _house_range_floor(result: DamageResult, band: RangeBand) -> DamageResult:
    floor = {
        RangeBand.short: WoundLevel.wounded_twice,
        RangeBand.point_blank: WoundLevel.mortally_wounded,
    }.get(band)
    if floor is None:
        return result
    if result.margin < 0:
        return DamageResult(result.level, result.margin, needs_gm=True)
    if floor.rank > result.level.rank:
        return DamageResult(floor, result.margin)
    return result


def wound_level(
    damage_total: int, resistance_total: int, ruleset: RuleSet = RuleSet()
) -> WoundLevel:
    """The level an unhurt character gets from an ordinary weapon's damage total against his
    resistance total (see :func:`damage_result` for the charts)."""
    return damage_result(damage_total, resistance_total, ruleset).level


# ---------------------------------------------------------------------------------------------
# [HOUSE §13, §16] automatic and suppression fire
# ---------------------------------------------------------------------------------------------
def _need_house_auto(ruleset: RuleSet) -> None:
    if ruleset.auto_fire != "house":
        raise ValueError("this campaign does not use the House automatic-fire rules")


def auto_fire_difficulty_modifier(
    *, auto_specialization: bool, ruleset: RuleSet = RuleSet()
) -> int:
    """+2 to hit with burst or full-auto fire unless an auto specialization is used."""
    _need_house_auto(ruleset)
    return 0 if auto_specialization else 2


def full_auto_may_react(reactions_taken: int, ruleset: RuleSet = RuleSet()) -> bool:
    """A character firing full auto may make only one reaction that round."""
    _need_house_auto(ruleset)
    return reactions_taken < 1


def concentrated_fire_hits(
    shots: int, roll_total: int, difficulty: int, ruleset: RuleSet = RuleSet()
) -> int:
    """Full auto concentrated on one target: one Blaster roll under the combined-action rule
    (CA-16): all ``shots`` hit on a success, otherwise three fewer per point missed. Each shot
    that hits adds one pip of damage (``DieCode.from_pips(hits)``)."""
    _need_house_auto(ruleset)
    if shots < 1:
        raise ValueError("a burst has at least one shot")
    return shots if roll_total >= difficulty else max(0, shots - 3 * (difficulty - roll_total))


def spray_follow_up(
    lateral_m: float, range_offset_m: float = 0, ruleset: RuleSet = RuleSet()
) -> tuple[int, int]:
    """Spraying fire after a hit: ``(shots wasted, difficulty levels easier)`` for the next
    target. Less than 1 m from the one hit: none wasted, one level easier. Further to the side
    but within ±10 m of its range: one shot wasted per metre (or part) of traverse."""
    _need_house_auto(ruleset)
    if lateral_m < 0:
        raise ValueError("a distance cannot be negative")
    if lateral_m < 1:
        return 0, 1
    if abs(range_offset_m) > 10:
        raise ValueError("a target more than 10 m nearer or further needs a new burst")
    return math.ceil(lateral_m), 0


def _need_suppression(ruleset: RuleSet) -> None:
    if not ruleset.suppression_fire:
        raise ValueError("this campaign does not use the House suppression-fire rule")


def suppression_successes(
    rolls: Iterable[int], difficulty: int, ruleset: RuleSet = RuleSet()
) -> int:
    """Successful suppressive shots (rolled at Difficult): each adds +1 to the difficulty of
    opponents returning fire in that action phase."""
    _need_suppression(ruleset)
    return sum(r >= difficulty for r in rolls)


def suppression_fumble_hits(
    rolls: Iterable[int], fumblers: int, ruleset: RuleSet = RuleSet()
) -> list[int | None]:
    """The to-hit roll that hits each opponent who fumbled his return fire: the highest first,
    then down the list; fumbles beyond the suppressing shots are ordinary fumbles (None)."""
    _need_suppression(ruleset)
    ordered = sorted(rolls, reverse=True)
    return [ordered[i] if i < len(ordered) else None for i in range(fumblers)]


# ---------------------------------------------------------------------------------------------
# Initiative, order of actions, surprise (combat.md §1, §7, §9.1)
# ---------------------------------------------------------------------------------------------
def initiative_pool(
    perception: DieCode | str,
    *,
    wound: WoundLevel = WoundLevel.none,
    stun_dice: int = 0,
    slowed_down: bool = False,
    cp_dice: int = 0,
    ruleset: RuleSet = RuleSet(),
) -> DieCode:
    """The initiative roll: Perception less wound and stun dice ([WIKI]; not an action, so no
    multiple-action penalty), -1D more for the [HOUSE] critical "Slowed Down". No Character
    Points may be spent on it [WIKI]."""
    if cp_dice:
        raise ValueError("Character Points cannot be spent on the initiative roll")
    extra = wound_penalty(wound, ruleset) + stun_dice + (1 if slowed_down else 0)
    return DieCode.parse(perception).minus_dice(extra)


def initiative_roller(
    side: Iterable[tuple[str, DieCode | str, WoundLevel]], ruleset: RuleSet = RuleSet()
) -> str:
    """Who rolls for a side: the highest Perception, printed or after wound penalties
    (``initiative_roller``, CA-4); ties go to the higher printed code, then the first listed."""
    members = [(n, DieCode.parse(p), WoundLevel(w)) for n, p, w in side]
    if not members:
        raise ValueError("a side needs at least one character")

    def key(m: tuple[str, DieCode, WoundLevel]) -> tuple[DieCode, ...]:
        effective = initiative_pool(m[1], wound=m[2], ruleset=ruleset)
        if ruleset.initiative_roller == "highest_printed":
            return (m[1],)
        return (effective, m[1])

    return max(members, key=key)[0]


def initiative_winner(roll_a: int, roll_b: int) -> Literal["a", "b"] | None:
    """The side whose roller rolled higher chooses to act first or last; a tie is re-rolled
    (None) [WIKI]."""
    if roll_a == roll_b:
        return None
    return "a" if roll_a > roll_b else "b"


@dataclass(frozen=True, slots=True)
class Actor:
    name: str
    perception: DieCode
    actions: int
    winded: bool = False


def action_order(
    first_side: Iterable[Actor], second_side: Iterable[Actor], *, whole_pose: bool = False
) -> list[tuple[str, int]]:
    """[UPG] the order of actions: every character's first action (the first side, then the
    second, each by Perception, highest first), then every second action, and so on;
    characters without more actions are skipped. [HOUSE] "Winded" characters go last in each
    pass. ``whole_pose``: each character takes all his actions at once (to replay the [WIKI])."""
    seq = [
        a
        for side in (first_side, second_side)
        for a in sorted(side, key=lambda a: a.perception, reverse=True)
    ]
    seq = [a for a in seq if not a.winded] + [a for a in seq if a.winded]
    if whole_pose:
        return [(a.name, n) for a in seq for n in range(1, a.actions + 1)]
    passes = max((a.actions for a in seq), default=0)
    return [(a.name, n) for n in range(1, passes + 1) for a in seq if a.actions >= n]


def rc_declaration_order(
    actors: Iterable[tuple[str, DieCode | str, bool]], segment: Literal[1, 2]
) -> list[str]:
    """[RC] segment 1: lowest Dexterity declares first; segment 2 (combat reactions): highest
    first. On a tie the NPC (``True``) declares first in both."""
    if segment not in (1, 2):
        raise ValueError("the Rules Companion declares in segment 1 or 2")
    sign = 1 if segment == 1 else -1
    ordered = sorted(
        actors, key=lambda a: (sign * DieCode.parse(a[1]).total_pips, 0 if a[2] else 1)
    )
    return [name for name, _, _ in ordered]


def surprised_targets(
    sneak_rolls: Mapping[str, int],
    search_rolls: Mapping[str, int],
    ruleset: RuleSet = RuleSet(),
) -> frozenset[str]:
    """[WIKI] a target spots an ambusher by rolling equal to or higher than his sneak roll and
    is then not surprised. ``per_target``: the others are surprised; ``any_spotter_alerts_all``:
    nobody is once anyone spots one (CA-18)."""
    if not sneak_rolls:
        raise ValueError("an ambush needs at least one ambusher")
    lowest_sneak = min(sneak_rolls.values())
    unspotted = frozenset(t for t, roll in search_rolls.items() if roll < lowest_sneak)
    if ruleset.surprise_granularity == "any_spotter_alerts_all" and unspotted != set(search_rolls):
        return frozenset()
    return unspotted
