"""Attacks: range and attack difficulty, modifiers, called shots, grenades, reactions and
[HOUSE] automatic and suppression fire (combat.md §2, §4; dice-and-core.md §3).

Difficulty modifiers that the sources give in dice ("+1D") are :class:`~rules.dice.DieCode`
values; flat numbers are pips (``+2`` is ``DieCode(0, 2)``). Difficulty levels are
:class:`rules.difficulty.DifficultyLevel`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Literal, Self

from rules.combat.actions import CombatError, _code, _fields, _int
from rules.dice import DiceSource, DieCode, multiple_action_penalty
from rules.difficulty import DifficultyLevel, add_to_difficulty, number_range
from rules.ruleset import RuleSet

__all__ = [
    "REACTION_SKILLS",
    "AttackKind",
    "CalledShot",
    "RangeBand",
    "RangeDifficulty",
    "WeaponRange",
    "auto_fire_difficulty_modifier",
    "blast_damage",
    "called_shot",
    "concentrated_fire_hits",
    "cover_conditions",
    "full_auto_may_react",
    "full_reaction_penalty",
    "grenade_scatter_dice",
    "house_attack_bonus",
    "house_parry_bonus",
    "is_hit",
    "is_reaction_skill",
    "modified_difficulty",
    "range_difficulty",
    "reacted_difficulty",
    "reaction_roll_kind",
    "reaction_skills",
    "roll_grenade_scatter",
    "situational_modifier",
    "spray_follow_up",
    "stun_switch_actions",
    "suppression_fumble_hits",
    "suppression_successes",
    "target_size_modifier",
    "thrown_damage",
]

NO_DICE = DieCode()


# ---------------------------------------------------------------------------------------------
# Attack difficulty (combat.md §4)
# ---------------------------------------------------------------------------------------------
class RangeBand(StrEnum):
    """Where a target is for a weapon: point-blank, short, medium, long or out of range."""

    point_blank = "point_blank"
    short = "short"
    medium = "medium"
    long = "long"
    out_of_range = "out_of_range"


def _band(value: RangeBand | str) -> RangeBand:
    try:
        return RangeBand(value)
    except ValueError:
        names = ", ".join(b.value for b in RangeBand)
        raise CombatError(f"unknown range band {value!r}; choose one of {names}") from None


_RANGE_TEXT = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*/\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True, slots=True)
class WeaponRange:
    """A character weapon's ranges in metres, written ``3-10/30/120`` [2E-STD]."""

    short_min: int
    short_max: int
    medium: int
    long: int

    def __post_init__(self) -> None:
        for name in ("short_min", "short_max", "medium", "long"):
            _int(getattr(self, name), f"a weapon's {name} range")
        if not 0 <= self.short_min <= self.short_max <= self.medium <= self.long:
            raise CombatError("weapon ranges must grow: short-min ≤ short-max ≤ medium ≤ long")

    def __str__(self) -> str:
        return f"{self.short_min}-{self.short_max}/{self.medium}/{self.long}"

    def to_json(self) -> dict[str, Any]:
        """``{"ranges": "3-10/30/120"}``."""
        return {"ranges": str(self)}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        return cls.parse(_fields(data, "a weapon range", required=("ranges",))["ranges"])

    @classmethod
    def parse(cls, text: str) -> Self:
        if not isinstance(text, str):
            raise CombatError(f"a weapon range is text like 3-10/30/120, not {text!r}")
        m = _RANGE_TEXT.match(text)
        if not m:
            raise CombatError(f"{text!r} is not a weapon range; write it like 3-10/30/120")
        return cls(*(int(g) for g in m.groups()))

    def band(self, distance_m: float) -> RangeBand:
        """Point-blank below the short minimum; short, medium and long up to and including each
        band's top; beyond long the weapon cannot hit (CA-13)."""
        if distance_m < 0:
            raise CombatError("a distance cannot be negative")
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
    """The difficulty level to hit at a range and the span of numbers the GM picks from."""

    level: DifficultyLevel
    low: int
    high: int

    def __post_init__(self) -> None:
        if not isinstance(self.level, DifficultyLevel):
            raise CombatError("a range difficulty's level is a DifficultyLevel")
        if not _int(self.low, "the lowest number") <= _int(self.high, "the highest number"):
            raise CombatError("a range difficulty's lowest number cannot exceed its highest")

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level.to_json(), "low": self.low, "high": self.high}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        fields = _fields(data, "a range difficulty", required=("level", "low", "high"))
        level = DifficultyLevel.from_json(fields["level"])
        return cls(level, fields["low"], fields["high"])


_RANGE_LEVELS = {
    RangeBand.point_blank: DifficultyLevel(0),
    RangeBand.short: DifficultyLevel(1),
    RangeBand.medium: DifficultyLevel(2),
    RangeBand.long: DifficultyLevel(3),
}


def range_difficulty(band: RangeBand | str, *, ruleset: RuleSet) -> RangeDifficulty:
    """The base difficulty to hit at a range ([WIKI]: point-blank Very Easy, short Easy, medium
    Moderate, long Difficult; [RC] Combat Difficulty Scale 3–5 / 6–10 / 11–15 / 16–20). The GM
    picks a number inside the span (CA-28)."""
    band = _band(band)
    if band is RangeBand.out_of_range:
        raise CombatError("the target is beyond the weapon's long range and cannot be hit")
    level = _RANGE_LEVELS[band]
    scale = "rc" if ruleset.range_difficulty == "rc_numbers" else "2e"
    numbers = number_range(level, ruleset=ruleset.replace(difficulty_scale=scale))
    return RangeDifficulty(level, *numbers)


def modified_difficulty(
    base: int,
    *modifiers: DieCode | str,
    ruleset: RuleSet,
    rng: DiceSource,
) -> int:
    """A difficulty number after each modifier in turn (cover, called shot, prone …), added by
    :func:`rules.difficulty.add_to_difficulty`: pips as they stand, dice rolled by the GM side
    (no Wild Die) or 3 each with ``difficulty_dice = "fixed"`` (CA-12)."""
    for mod in modifiers:
        base = add_to_difficulty(base, mod, ruleset=ruleset, rng=rng).number
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


def cover_conditions(*, ruleset: RuleSet) -> tuple[str, ...]:
    """The cover and visibility conditions :func:`situational_modifier` knows under the
    campaign's ``cover_modifiers`` option (none when it is ``none``), for a GM's menu."""
    if ruleset.cover_modifiers == "none":
        return ()
    return tuple(_COVER_RC if ruleset.cover_modifiers == "rc_chart" else _COVER_2E)


def situational_modifier(condition: str, *, ruleset: RuleSet) -> DieCode:
    """What a condition adds to the difficulty: ``prone`` (``prone_to_hit_modifier``, [RC] +2),
    the 2E cover and visibility dice (``cover_modifiers = "2e_std_dice"``: ``half_cover`` +2D,
    ``complete_darkness`` +4D …) or the [RC] chart numbers (``medium_cover`` +2, ``window`` +3
    …). ``full_cover``: the target cannot be hit directly."""
    if condition == "prone":
        return DieCode(0, ruleset.prone_to_hit_modifier)
    if condition == "full_cover":
        raise CombatError("a target completely behind cover cannot be hit directly")
    if condition not in _COVER_2E and condition not in _COVER_RC:
        known = ", ".join(["prone", *_COVER_2E, *_COVER_RC])
        raise CombatError(f"unknown combat condition {condition!r}; known: {known}")
    if ruleset.cover_modifiers == "none":
        return DieCode()
    if ruleset.cover_modifiers == "rc_chart":
        if condition not in _COVER_RC:
            raise CombatError(f"{condition!r} is not on the Rules Companion fire modifiers chart")
        return DieCode(0, _COVER_RC[condition])
    if condition not in _COVER_2E:
        raise CombatError(f"{condition!r} is a Rules Companion chart row, not a 2E modifier")
    return DieCode(_COVER_2E[condition])


def target_size_modifier(size_cm: float) -> int:
    """[RC] target size (personal combat): under 1 cm +15, 1–10 cm +10, 11–50 cm +5,
    51–99 cm +2, 1–3 m 0, 3–9 m -3, 10–99 m -5, 100 m or more -10 (a boundary belongs to the
    smaller row, CA-13)."""
    if size_cm <= 0:
        raise CombatError("a target's size must be positive")
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
    """What a called shot adds: to the difficulty, and ([HOUSE §11]) to the damage."""

    difficulty: DieCode
    damage_bonus: DieCode = NO_DICE

    def to_json(self) -> dict[str, Any]:
        return {"difficulty": str(self.difficulty), "damage_bonus": str(self.damage_bonus)}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        fields = _fields(data, "a called shot", required=("difficulty", "damage_bonus"))
        return cls(
            _code(fields["difficulty"], "a called shot's difficulty"),
            _code(fields["damage_bonus"], "a called shot's damage bonus"),
        )


def called_shot(target_size_cm: float, *, ruleset: RuleSet) -> CalledShot:
    """A called shot at a small target. [UPG]: 10–50 cm +1D, 1–10 cm +4D, under 1 cm +8D to the
    difficulty (exactly 10 cm: +1D). [HOUSE §11] (``called_shots = "house"``): a hit also adds
    +1D / +2D / +3D damage. [RC] (``rc_chart``): the target-size modifier."""
    if target_size_cm <= 0:
        raise CombatError("a target's size must be positive")
    if ruleset.called_shots == "rc_chart":
        return CalledShot(DieCode(0, target_size_modifier(target_size_cm)))
    if target_size_cm > 50:
        raise CombatError("a called shot is for a target 50 cm long or smaller")
    row = 0 if target_size_cm >= 10 else 1 if target_size_cm >= 1 else 2
    damage = DieCode(row + 1) if ruleset.called_shots == "house" else DieCode()
    return CalledShot(DieCode((1, 4, 8)[row]), damage)


def stun_switch_actions(*, ruleset: RuleSet) -> int:
    """Actions it takes to set a blaster to stun: none in the baseline (not stated, CA-15),
    one in [HOUSE §14] and [RC] (so a shot that round is at -1D)."""
    return 1 if ruleset.stun_switch_costs_action else 0


# ---------------------------------------------------------------------------------------------
# Grenades and thrown weapons (combat.md §4.3, §4.8)
# ---------------------------------------------------------------------------------------------
def grenade_scatter_dice(band: RangeBand | str, *, ruleset: RuleSet) -> int:
    """[RC] a missed grenade scatters 1D m at short range (and point-blank), 2D at medium, 3D at
    long; no scatter without ``grenade_scatter = "rc"`` (CA-24)."""
    band = _band(band)
    if band is RangeBand.out_of_range:
        raise CombatError("a grenade cannot be thrown beyond long range")
    if ruleset.grenade_scatter == "none":
        return 0
    return {RangeBand.long: 3, RangeBand.medium: 2}.get(band, 1)


def roll_grenade_scatter(band: RangeBand | str, *, ruleset: RuleSet, rng: DiceSource) -> int:
    """Metres a missed grenade lands from its target (plain dice; direction is the GM's)."""
    return sum(rng.d6() for _ in range(grenade_scatter_dice(band, ruleset=ruleset)))


def blast_damage(distance_m: float, bands: Sequence[tuple[float, DieCode | str]]) -> DieCode | None:
    """[2E-STD] the damage of the first blast-radius band, ``(radius_m, damage)`` from the
    centre out, that reaches the target; None outside the blast."""
    if distance_m < 0:
        raise CombatError("a distance cannot be negative")
    radii = [r for r, _ in bands]
    if radii != sorted(radii):
        raise CombatError("list blast bands from the centre outwards")
    for radius, damage in bands:
        if distance_m <= radius:
            return DieCode.parse(damage)
    return None


def thrown_damage(strength: DieCode | str, band: RangeBand | str) -> DieCode:
    """[RC adventure] rocks thrown "as grenades": Strength damage, -1D at long range."""
    band = _band(band)
    if band is RangeBand.out_of_range:
        raise CombatError("nothing can be thrown beyond long range")
    strength = DieCode.parse(strength)
    return strength.minus_dice(1) if band is RangeBand.long else strength


# ---------------------------------------------------------------------------------------------
# Reactions (combat.md §2)
# ---------------------------------------------------------------------------------------------
AttackKind = Literal["ranged", "melee", "brawling", "vehicle", "starship"]

REACTION_SKILLS: Mapping[str, Literal["dodge", "parry"]] = MappingProxyType(
    {
        "dodge": "dodge",
        "melee parry": "parry",
        "brawling parry": "parry",
        "vehicle dodge": "dodge",
        "starship dodge": "dodge",
    }
)
"""The skills a character rolls only as a reaction, by the kind of roll they are for the
Character Point limit (:func:`rules.advancement.max_cp_per_roll`): ``dodge`` or ``parry``
([UPG] "The game's reaction skills are dodge, melee parry, brawling parry, and lightsaber";
lightsaber is also an attack skill, so a roll of it counts as a skill roll unless it is made
as a parry; the piloting skills' dodges are rolled as vehicle and starship dodge)."""


def is_reaction_skill(name: str) -> bool:
    """True for a skill rolled only as a reaction (:data:`REACTION_SKILLS`), whatever the case
    and surrounding spaces: ``is_reaction_skill("Melee Parry")``."""
    return reaction_roll_kind(name) is not None


def reaction_roll_kind(name: str) -> Literal["dodge", "parry"] | None:
    """``dodge`` or ``parry`` for a reaction skill (:data:`REACTION_SKILLS`), None for any other
    skill: the kind of roll for the Character Point limit."""
    if not isinstance(name, str):
        raise CombatError(f"a skill name is text, not {name!r}")
    return REACTION_SKILLS.get(" ".join(name.lower().split()))


def reaction_skills(
    attack: AttackKind,
    *,
    armed: bool = False,
    lightsaber: bool = False,
    ruleset: RuleSet,
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
        raise CombatError(f"unknown attack kind {attack!r}; choose {', '.join(skills)}")
    out = skills[attack]
    if lightsaber and attack in ("melee", "brawling"):
        out += ("lightsaber",)
    if ruleset.dodge_covers_melee and attack in ("melee", "brawling"):
        out += ("dodge",)
    return out


def reacted_difficulty(
    base: int,
    reaction_total: int | None,
    *,
    ruleset: RuleSet,
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
            raise CombatError("this campaign has no full reactions")
        return base + reaction_total
    return max(base, reaction_total) if rc else reaction_total


def full_reaction_penalty(actions: int, *, ruleset: RuleSet) -> int:
    """[RC] a full dodge's required speed action gives back its own 1D: the dodge is rolled at
    the multiple-action penalty less 1D (CA-23); other movement rolls take the full penalty."""
    return max(0, multiple_action_penalty(actions, ruleset=ruleset) - 1)


def house_parry_bonus(*, defender_armed: bool, attacker_armed: bool, ruleset: RuleSet) -> int:
    """[HOUSE §19] +5 to a melee parry made with a weapon in hand against an unarmed attacker."""
    on = ruleset.armed_unarmed_modifiers and defender_armed and not attacker_armed
    return 5 if on else 0


def house_attack_bonus(*, attacker_armed: bool, defender_armed: bool, ruleset: RuleSet) -> int:
    """[HOUSE §19] +10 to an armed attacker's roll against a defender using brawling parry."""
    on = ruleset.armed_unarmed_modifiers and attacker_armed and not defender_armed
    return 10 if on else 0


def is_hit(attack_total: int, difficulty: int) -> bool:
    """[UPG] [WIKI] the Rule of Thumb: tie or beat the difficulty to hit."""
    return attack_total >= difficulty


# ---------------------------------------------------------------------------------------------
# [HOUSE §13, §16] automatic and suppression fire
# ---------------------------------------------------------------------------------------------
def _need_house_auto(ruleset: RuleSet) -> None:
    if ruleset.auto_fire != "house":
        raise CombatError("this campaign does not use the House automatic-fire rules")


def auto_fire_difficulty_modifier(*, auto_specialization: bool, ruleset: RuleSet) -> int:
    """+2 to hit with burst or full-auto fire unless an auto specialization is used."""
    _need_house_auto(ruleset)
    return 0 if auto_specialization else 2


def full_auto_may_react(reactions_taken: int, *, ruleset: RuleSet) -> bool:
    """A character firing full auto may make only one reaction that round."""
    _need_house_auto(ruleset)
    return reactions_taken < 1


def concentrated_fire_hits(
    shots: int, roll_total: int, difficulty: int, *, ruleset: RuleSet
) -> int:
    """Full auto concentrated on one target: one Blaster roll under the combined-action rule
    (CA-16): all ``shots`` hit on a success, otherwise three fewer per point missed. Each shot
    that hits adds one pip of damage (``DieCode.from_pips(hits)``)."""
    _need_house_auto(ruleset)
    if shots < 1:
        raise CombatError("a burst has at least one shot")
    return shots if roll_total >= difficulty else max(0, shots - 3 * (difficulty - roll_total))


def spray_follow_up(
    lateral_m: float, range_offset_m: float = 0, *, ruleset: RuleSet
) -> tuple[int, int]:
    """Spraying fire after a hit: ``(shots wasted, difficulty levels easier)`` for the next
    target. Less than 1 m from the one hit: none wasted, one level easier. Further to the side
    but within ±10 m of its range: one shot wasted per metre (or part) of traverse."""
    _need_house_auto(ruleset)
    if lateral_m < 0:
        raise CombatError("a distance cannot be negative")
    if lateral_m < 1:
        return 0, 1
    if abs(range_offset_m) > 10:
        raise CombatError("a target more than 10 m nearer or further needs a new burst")
    return math.ceil(lateral_m), 0


def _need_suppression(ruleset: RuleSet) -> None:
    if not ruleset.suppression_fire:
        raise CombatError("this campaign does not use the House suppression-fire rule")


def suppression_successes(rolls: Iterable[int], difficulty: int, *, ruleset: RuleSet) -> int:
    """Successful suppressive shots (rolled at Difficult): each adds +1 to the difficulty of
    opponents returning fire in that action phase."""
    _need_suppression(ruleset)
    return sum(r >= difficulty for r in rolls)


def suppression_fumble_hits(
    rolls: Iterable[int], fumblers: int, *, ruleset: RuleSet
) -> list[int | None]:
    """The to-hit roll that hits each opponent who fumbled his return fire: the highest first,
    then down the list; fumbles beyond the suppressing shots are ordinary fumbles (None)."""
    _need_suppression(ruleset)
    ordered = sorted(rolls, reverse=True)
    return [ordered[i] if i < len(ordered) else None for i in range(fumblers)]
