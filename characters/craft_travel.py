"""A craft's travel and movement (issue 18): its speeds, the Rules Companion's speed actions,
astrogation and the hyperspace trip, the Star Warriors export and its weapons' ranges.

Every number comes from the engine (rules.craft.travel, rules.craft.stats, rules.movement);
this module only picks the inputs from the craft, its crew and the campaign's rules, and the
two rolls go through the app's one roll, characters.services.roll_and_record (stored as the
crew member's DiceRoll, like a station roll):

* the pilot's [RC] movement roll: his piloting skill (or Mechanical) plus the craft's speed
  code (a vehicle's speed code, a starship's sublight), less 1D per action beyond the first;
* astrogation by the navigator: any crew member the roller controls (the co-pilot first,
  then sensors, then the pilot, then anyone aboard). With the campaign's optional
  uncertainty dice [RC] the GM's dice are rolled here, on the server, and stored as a hidden
  roll: only the GM sees them and whether the jump succeeded (V17).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction

from characters import live
from characters.craft_models import Craft, CrewStation
from characters.craft_services import CraftRefused, StationTrait, station_trait
from characters.models import Character, DiceRoll, Skill
from characters.services import check_roll_inputs, roll_and_record
from rules import DieCode, RulesError, RuleSet
from rules.craft import (
    SWR_LONG_SHOT_OFFSETS,
    SWR_SPEED_FIELDS,
    CraftState,
    CraftStats,
    astrogation_difficulty,
    astrogation_minutes,
    combined_code,
    hyperspace_travel_time,
    lost_moves_status,
    rc_astrogation_difficulty,
    rc_weapon_ranges,
    star_warriors_speed,
    vehicle_kmh,
    weapon_class,
)
from rules.craft.travel import ASTROGATION_MINUTES
from rules.dice import DiceSource, Roll, SystemDice, rollable_pool
from rules.movement import (
    RcLossOfControl,
    rc_declare_movement,
    rc_distance_per_action,
    rc_loss_of_control,
    rc_max_speed_actions,
    rc_movement_difficulty,
    rc_movement_pool,
    rc_partial_range,
    speed_info,
    speeds,
)
from rules.odds import success_chance
from rules.scale import Scale
from rules.tasks import resolve_uncertainty, uncertainty_pool

SITUATIONS = {
    "known_route": "Well-travelled route or pre-calculated coordinates",
    "known_systems": "Between known systems",
    "new_destination": "Never jumped to that system",
    "lost": "The navigator does not know where the ship is",
    "emergency": "Emergency jump (one round, difficulty doubled)",
}
assert set(SITUATIONS) == set(ASTROGATION_MINUTES)


class TravelRefused(CraftRefused):
    """A travel roll or plan the rules refuse; the message says why."""


def craft_state(craft: Craft) -> CraftState | None:
    """The craft's damage (None: undamaged, or a stored state this server cannot read)."""
    if craft.damage is None:
        return None
    try:
        return CraftState.from_json(craft.damage)
    except RulesError:
        return None


# ---------------------------------------------------------------------------------------------
# Speeds
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SpeedRow:
    speed: str  # "all-out", "high", ...
    kmh: Fraction
    allowed: bool


@dataclass(frozen=True)
class Speeds:
    rows: list[SpeedRow]  # fastest first; empty without a km/h listing
    limit: str  # what lost Moves leave ("" when undamaged)
    rc_mover: str  # the [RC] distance scale of its speed code
    per_action: int | None  # metres per successful speed action in its own medium
    per_action_atmosphere: int | None  # a space craft in atmosphere (V14)
    least_full_action: int | None  # the shortest full move action (V15)


def rc_mover(stats: CraftStats) -> str:
    """The [RC] mover whose distances the craft's speed code uses (movement.md §6.3)."""
    if stats.scale >= Scale.CAPITAL:
        return "capital_ship"
    return {
        Scale.STARFIGHTER: "starfighter",
        Scale.WALKER: "walker",
        Scale.SPEEDER: "repulsorlift",
    }.get(stats.scale, "character")


def rc_speed_code(stats: CraftStats) -> DieCode | None:
    """The base speed code [RC]: a vehicle's speed code, a starship's sublight."""
    return stats.speed_code if stats.kind == "vehicle" else (stats.sublight or stats.speed_code)


def craft_speeds(stats: CraftStats, state: CraftState | None, *, ruleset: RuleSet) -> Speeds:
    """Km/h at each of the campaign's speeds from the Move listing (V5), what lost Moves leave
    of them (V4), and the [RC] distances of its speed actions (V14, V15)."""
    top = speeds(ruleset=ruleset)[-1]
    limit = ""
    if state is not None and state.moves_lost:
        status = lost_moves_status(state.moves_lost, ruleset=ruleset)
        top = status.top_speed
        if status.destroyed:
            limit = f"{status.total} Moves lost: destroyed"
        elif top is None:
            limit = f"{status.total} Moves lost: the drive is disabled; it cannot move"
        else:
            limit = f"{status.total} Moves lost: limited to {_speed_name(top)} speed"
    rows = []
    if stats.kmh is not None:
        most = speed_info(top, ruleset=ruleset).level if top is not None else 0
        for speed in reversed(speeds(ruleset=ruleset)):
            level = speed_info(speed, ruleset=ruleset).level
            rows.append(
                SpeedRow(
                    _speed_name(speed),
                    vehicle_kmh(stats.kmh, speed, ruleset=ruleset),
                    level <= most,
                )
            )
    mover = rc_mover(stats)
    has_code = rc_speed_code(stats) is not None
    in_space = stats.kind != "vehicle"
    return Speeds(
        rows=rows,
        limit=limit,
        rc_mover=mover,
        per_action=rc_distance_per_action(mover) if has_code else None,
        per_action_atmosphere=(
            rc_distance_per_action(mover, secondary_medium=True) if has_code and in_space else None
        ),
        least_full_action=rc_partial_range(1, mover)[0] if has_code else None,
    )


def _speed_name(speed) -> str:
    return {"all_out": "all-out"}.get(str(speed), str(speed))


# ---------------------------------------------------------------------------------------------
# [RC] speed actions
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MovementPlan:
    """A declared movement and its roll, before the dice: the pool, the difficulty and the
    exact chance, and how far success takes the mover."""

    base_speed_code: DieCode
    max_speed_actions: int
    skill: str
    skill_code: DieCode
    speed_code: DieCode | None  # added to the roll (None: a character on foot)
    speed_actions: int
    overspeed: int
    actions: int  # for the multiple-action penalty: movement actions + the others declared
    pool: DieCode
    difficulty: int
    chance: float
    mover: str
    secondary_medium: bool
    per_action: int
    distance: tuple[int, int]  # metres if the roll succeeds

    @property
    def distance_actions(self) -> int:
        return self.speed_actions + self.overspeed


def plan_movement(
    base_speed_code: DieCode,
    skill: str,
    skill_code: DieCode,
    *,
    speed_code: DieCode | None,
    mover: str,
    speed_actions: int,
    overspeed: int = 0,
    other_actions: int = 0,
    difficulty: int,
    secondary_medium: bool = False,
    regaining_control: bool = False,
    penalty_dice: int = 0,
    ruleset: RuleSet,
) -> MovementPlan:
    """The [RC] movement roll for a declaration (movement.md §6; V11-V13, V16). TravelRefused
    for a declaration the rules refuse (no speed action, more than the base speed code allows,
    a pool below 1D)."""
    if speed_actions < 1:
        raise TravelRefused("declare at least one speed action")
    if other_actions < 0 or speed_actions + overspeed + other_actions > 10:
        raise TravelRefused("at most 10 actions in a round")
    if not 1 <= difficulty <= 100:
        raise TravelRefused("the movement difficulty must be between 1 and 100")
    try:
        declared = rc_declare_movement(base_speed_code, speed_actions, overspeed=overspeed)
        actions = declared.movement_actions + other_actions
        pool = rc_movement_pool(skill_code, actions, ruleset=ruleset, speed_code=speed_code)
        rollable_pool(
            combined_code(skill_code, speed_code),
            actions=actions,
            penalty_dice=penalty_dice,
            ruleset=ruleset,
        )
        per = rc_distance_per_action(mover, secondary_medium=secondary_medium)
        reach = rc_partial_range(
            declared.distance_actions, mover, secondary_medium=secondary_medium
        )
    except RulesError as exc:
        raise TravelRefused(str(exc)) from None
    pool = pool.minus_dice(penalty_dice)
    total_difficulty = rc_movement_difficulty(
        difficulty, overspeed=overspeed, regaining_control=regaining_control
    )
    return MovementPlan(
        base_speed_code=base_speed_code,
        max_speed_actions=rc_max_speed_actions(base_speed_code),
        skill=skill,
        skill_code=skill_code,
        speed_code=speed_code,
        speed_actions=speed_actions,
        overspeed=overspeed,
        actions=actions,
        pool=pool,
        difficulty=total_difficulty,
        chance=success_chance(pool, total_difficulty, ruleset=ruleset),
        mover=mover,
        secondary_medium=secondary_medium,
        per_action=per,
        distance=reach,
    )


def plan_craft_movement(
    craft: Craft, character: Character, *, penalty_dice: int = 0, ruleset: RuleSet, **declared
) -> MovementPlan:
    """The pilot's movement roll in this craft: his piloting skill plus its speed code."""
    stats = craft.stat_block
    code = rc_speed_code(stats)
    if code is None:
        raise TravelRefused(
            f"{craft.name} has no speed code for the Rules Companion's speed actions"
        )
    pilot = _pilot_trait(craft, character)
    secondary = bool(declared.pop("atmosphere", False)) and stats.kind != "vehicle"
    return plan_movement(
        code,
        pilot.skill,
        pilot.skill_code,
        speed_code=code,
        mover=rc_mover(stats),
        secondary_medium=secondary,
        penalty_dice=penalty_dice,
        ruleset=ruleset,
        **declared,
    )


def plan_on_foot(character: Character, *, ruleset: RuleSet, **declared) -> MovementPlan:
    """A character under his own power on land: Dexterity is the base speed code, dodge the
    roll, no speed code added (V12)."""
    dodge = Skill.objects.filter(character=character, name__iexact="dodge").only("code").first()
    code = dodge.code if dodge is not None else character.dexterity
    return plan_movement(
        character.dexterity,
        "dodge",
        code,
        speed_code=None,
        mover="character",
        ruleset=ruleset,
        **declared,
    )


def _pilot_trait(craft: Craft, character: Character) -> StationTrait:
    station = CrewStation(craft=craft, role="pilot")
    return station_trait(station, character)


@dataclass(frozen=True)
class MovementOutcome:
    roll: DiceRoll
    succeeded: bool
    distance: tuple[int, int] | None  # metres covered on a success
    lost: RcLossOfControl | None  # where control went on a failure


def movement_outcome(plan: MovementPlan, roll: DiceRoll, *, ruleset: RuleSet) -> MovementOutcome:
    """Success: the declared distance; failure: one speed action not taken per 3 points
    missed, and where control was lost (``rc_loss_of_control_point``, ambiguity 19; V13)."""
    if roll.total >= plan.difficulty:
        return MovementOutcome(roll, True, plan.distance, None)
    lost = rc_loss_of_control(
        plan.difficulty - roll.total, plan.distance_actions, plan.per_action, ruleset=ruleset
    )
    return MovementOutcome(roll, False, None, lost)


def roll_movement(
    station: CrewStation,
    actor,
    plan: MovementPlan,
    *,
    ruleset: RuleSet,
    rng: DiceSource | None = None,
) -> MovementOutcome:
    """The pilot's movement roll (his piloting skill + the speed code, the multiple-action
    penalty and his wounds), stored as his roll, and what it did."""
    craft = station.craft
    with transaction.atomic():
        pilot = _locked_holder(station)
        trait = _pilot_trait(craft, pilot)
        record = _roll(
            pilot,
            actor,
            combined_code(trait.skill_code, plan.speed_code),
            label=_label(craft, f"{plan.distance_actions} speed actions"),
            ruleset=ruleset,
            actions=plan.actions,
            difficulty=plan.difficulty,
            rng=rng,
            details={
                "travel": "movement",
                "craft": craft.pk,
                "station": station.role,
                "skill": trait.skill,
                "speed_code": str(plan.speed_code),
                "speed_actions": plan.speed_actions,
                "overspeed": plan.overspeed,
            },
        )
    return movement_outcome(plan, record, ruleset=ruleset)


def _locked_holder(station: CrewStation) -> Character:
    if station.character_id is None:
        raise TravelRefused("nobody holds that station")
    return Character.objects.select_for_update().get(pk=station.character_id)


def _roll(character: Character, actor, code: DieCode, **kwargs) -> DiceRoll:
    """One roll through the app's shared roll (characters.services.roll_and_record): the
    checks (can act, actions, difficulty), the wound penalty, the stored DiceRoll."""
    try:
        check_roll_inputs(kwargs.get("actions", 1), 0, kwargs.get("difficulty"))
        return roll_and_record(character, actor, code, **kwargs)
    except RulesError as exc:
        raise TravelRefused(str(exc)) from None
    except TravelRefused:
        raise
    except ValueError as exc:
        raise TravelRefused(str(exc)) from None


def _label(craft: Craft, what: str) -> str:
    room = DiceRoll._meta.get_field("label").max_length - len(what) - 2
    name = craft.name if len(craft.name) <= room else craft.name[: room - 1] + "…"
    return f"{name}: {what}"


# ---------------------------------------------------------------------------------------------
# Astrogation
# ---------------------------------------------------------------------------------------------
def navigator_stations(craft: Craft, stations, membership) -> list[CrewStation]:
    """Crew members who may astrogate, the co-pilot first, then sensors, the pilot and the
    others; only those the member rolls for (his characters; the GM: all)."""
    order = {"copilot": 0, "sensors": 1, "pilot": 2}
    held = [s for s in stations if s.character_id is not None]
    if not membership.is_gm:
        held = [s for s in held if s.character.owner_id == membership.user_id]
    seen, chosen = set(), []
    for station in sorted(held, key=lambda s: (order.get(s.role, 3), s.pk)):
        if station.character_id not in seen:
            seen.add(station.character_id)
            chosen.append(station)
    return chosen


def astrogation_skill(character: Character) -> tuple[DieCode, bool]:
    """The astrogation skill's code, or Mechanical (True) without the skill."""
    skill = Skill.objects.filter(character=character, name__iexact="astrogation").only("code")
    found = skill.first()
    return (found.code, False) if found else (character.attribute("mechanical"), True)


@dataclass(frozen=True)
class AstrogationPlan:
    difficulty: int
    minutes: Fraction | None  # calculation time [UPG]; None: "a few hours", the GM says
    trip_hours: Fraction | None  # hyperspace travel time with this hyperdrive
    uncertainty: int  # the GM's uncertainty dice (0: none)
    skill_code: DieCode
    pool: DieCode  # what the navigator rolls (the uncertainty dice added)
    chance: float | None  # exact odds; None with uncertainty dice (the GM's dice hide it)
    no_nav_computer: bool


def plan_astrogation(
    stats: CraftStats,
    state: CraftState | None,
    skill_code: DieCode,
    *,
    situation: str,
    difficulty: int,
    listed_hours: int | None = None,
    planned_hours: int | None = None,
    uncertainty: int = 0,
    penalty_dice: int = 0,
    ruleset: RuleSet,
) -> AstrogationPlan:
    """The astrogation roll: [UPG] calculation time and the hyperdrive's damage; [RC] ±1 per
    hour saved or added against the listed duration; hyperspace travel time = the trip's hours
    × the hyperdrive multiplier (an assumption, ambiguity 12); [RC] uncertainty dice (V17)."""
    if not stats.hyperdrive:
        raise TravelRefused(f"{stats.name} has no hyperdrive")
    if not 1 <= difficulty <= 100:
        raise TravelRefused("the astrogation difficulty must be between 1 and 100")
    hyperdrive = state.hyperdrive if state is not None else "ok"
    try:
        base = difficulty
        if listed_hours is not None:
            base = rc_astrogation_difficulty(
                difficulty, listed_hours, planned_hours or listed_hours
            )
        elif planned_hours is not None:
            raise TravelRefused("give the listed duration to plan a shorter or longer trip")
        final = astrogation_difficulty(
            max(base, 0), emergency=situation == "emergency", hyperdrive=hyperdrive
        )
        minutes = astrogation_minutes(situation, hyperdrive)  # type: ignore[arg-type]
        hours = planned_hours or listed_hours
        trip = hyperspace_travel_time(hours, stats.hyperdrive) if hours else None
        pool = (
            uncertainty_pool(skill_code, uncertainty, ruleset=ruleset)
            if uncertainty
            else skill_code
        )
        rolled = rollable_pool(pool, penalty_dice=penalty_dice, ruleset=ruleset)
    except RulesError as exc:
        raise TravelRefused(str(exc)) from None
    return AstrogationPlan(
        difficulty=final,
        minutes=minutes,
        trip_hours=trip,
        uncertainty=uncertainty,
        skill_code=skill_code,
        pool=rolled,
        chance=None if uncertainty else success_chance(rolled, max(final, 1), ruleset=ruleset),
        no_nav_computer=stats.nav_computer is False,
    )


@dataclass(frozen=True)
class AstrogationOutcome:
    roll: DiceRoll  # the navigator's roll, seen by everyone
    gm_roll: DiceRoll | None  # the GM's uncertainty dice (hidden)
    effective_total: int
    succeeded: bool


def roll_astrogation(
    station: CrewStation,
    actor,
    plan: AstrogationPlan,
    *,
    ruleset: RuleSet,
    rng: DiceSource | None = None,
) -> AstrogationOutcome:
    """The navigator's roll (roll_and_record) and, with uncertainty dice, the GM's hidden dice,
    in one transaction. The navigator's roll carries the difficulty only without uncertainty
    dice: with them, only the GM's hidden roll says how the jump went."""
    craft = station.craft
    dice = rng or SystemDice()
    with transaction.atomic():
        navigator = _locked_holder(station)
        code, _ = astrogation_skill(navigator)
        extra = DieCode(plan.uncertainty) if plan.uncertainty else None
        record = _roll(
            navigator,
            actor,
            combined_code(code, extra),
            label=_label(craft, "astrogation"),
            ruleset=ruleset,
            difficulty=None if plan.uncertainty else max(plan.difficulty, 1),
            rng=dice,
            details={
                "travel": "astrogation",
                "craft": craft.pk,
                "station": station.role,
                "skill": "astrogation",
                "uncertainty": plan.uncertainty,
            },
        )
        if not plan.uncertainty:
            return AstrogationOutcome(record, None, record.total, record.total >= plan.difficulty)
        try:
            hidden = resolve_uncertainty(record.total, plan.uncertainty, ruleset=ruleset, rng=dice)
        except RulesError as exc:
            raise TravelRefused(str(exc)) from None
        succeeded = hidden.effective_total >= plan.difficulty
        verdict = "success" if succeeded else "failure"
        gm_dice = Roll(
            code=DieCode(plan.uncertainty),
            pool=DieCode(plan.uncertainty),
            normal=hidden.gm_dice,
            total=hidden.gm_total,
        )
        gm_roll = DiceRoll.objects.create(
            campaign_id=record.campaign_id,
            character_id=record.character_id,
            actor=actor,
            label=_label(
                craft,
                f"GM's uncertainty dice: {record.total} − {hidden.gm_total} = "
                f"{hidden.effective_total} vs {plan.difficulty}, {verdict}",
            ),
            code=str(gm_dice.code),
            pool=str(gm_dice.pool),
            dice={
                **gm_dice.to_json(),
                "travel": "uncertainty",
                "craft": craft.pk,
                "of_roll": record.pk,
                "difficulty": plan.difficulty,
                "effective_total": hidden.effective_total,
            },
            total=hidden.gm_total,
            hidden=True,
        )
        live.bump(record.campaign_id, public=False)
    return AstrogationOutcome(record, gm_roll, hidden.effective_total, succeeded)


def seen_by(outcome: AstrogationOutcome, membership) -> AstrogationOutcome:
    """What a member sees of an astrogation: the GM all of it; a player his own roll, never
    the GM's uncertainty dice nor whether the jump succeeded with them."""
    if membership.is_gm or outcome.gm_roll is None:
        return outcome
    roll = outcome.roll
    return AstrogationOutcome(roll, None, roll.total, bool(roll.succeeded))


def latest_astrogation(craft: Craft, membership) -> AstrogationOutcome | None:
    """The craft's last astrogation roll the member may see, with the GM's hidden dice for
    the GM only."""
    rolls = DiceRoll.objects.filter(
        campaign_id=craft.campaign_id, dice__travel="astrogation", dice__craft=craft.pk
    )
    if not membership.is_gm:
        rolls = rolls.filter(hidden=False)
    roll = rolls.order_by("-created_at", "-pk").first()
    if roll is None:
        return None
    gm_roll = None
    if membership.is_gm and roll.dice.get("uncertainty"):
        gm_roll = DiceRoll.objects.filter(
            campaign_id=craft.campaign_id, dice__travel="uncertainty", dice__of_roll=roll.pk
        ).first()
    if gm_roll is not None:  # the GM's eyes only
        effective = gm_roll.dice["effective_total"]
        return AstrogationOutcome(roll, gm_roll, effective, effective >= gm_roll.dice["difficulty"])
    return AstrogationOutcome(roll, None, roll.total, bool(roll.succeeded))


# ---------------------------------------------------------------------------------------------
# Star Warriors export [RC] and weapon ranges [RC]
# ---------------------------------------------------------------------------------------------
def star_warriors(craft: Craft) -> list[tuple[str, int | None]] | None:
    """The Star Warriors speed block of its sublight (V18), plus the Long Shot's offsets, the
    only ones the source keeps (V19). None without a sublight code the chart covers."""
    stats = craft.stat_block
    if stats.sublight is None:
        return None
    long_shot = "long shot" in (craft.catalogue_name or stats.name).casefold()
    offsets = SWR_LONG_SHOT_OFFSETS if long_shot else (0,) * len(SWR_SPEED_FIELDS)
    try:
        values = star_warriors_speed(stats.sublight, offsets)
    except RulesError:
        return None
    return [(name.replace("_", " ").capitalize(), values[name]) for name in SWR_SPEED_FIELDS]


@dataclass(frozen=True)
class WeaponRange:
    name: str
    damage: DieCode | None
    mount: str
    weapon_class: str
    bands: object | None  # rules.craft.RangeBands; None: not in the chart
    why_not: str


def _mount(stats: CraftStats) -> str:
    if stats.scale >= Scale.CAPITAL:
        return "capital"
    if stats.scale == Scale.STARFIGHTER:
        return "starfighter"
    return "speeder"


def weapon_ranges(stats: CraftStats) -> list[WeaponRange]:
    """Each weapon's [RC] ranges: speeder-mounted weapons by their damage class (V21),
    starfighter and capital ship weapons by their kind; stated when the chart has none."""
    mount = _mount(stats)
    rows = []
    for weapon in stats.weapons:
        key = weapon.damage if mount == "speeder" else weapon.kind
        if key is None:
            rows.append(WeaponRange(weapon.name, weapon.damage, mount, "", None, "no damage code"))
            continue
        try:
            bands = rc_weapon_ranges(mount, key)
        except RulesError as exc:
            rows.append(WeaponRange(weapon.name, weapon.damage, mount, "", None, str(exc)))
            continue
        label = key if isinstance(key, str) else weapon_class(key)
        rows.append(WeaponRange(weapon.name, weapon.damage, mount, label, bands, ""))
    return rows
