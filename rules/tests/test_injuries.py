"""Injuries and healing: worked examples from injuries-and-healing.md §12 (H-1…H-72)."""

import pytest

from rules.dice import DieCode, FixedDice, roll
from rules.difficulty import DIFFICULT, EASY, HEROIC, MODERATE, VERY_DIFFICULT, VERY_EASY
from rules.equipment import gear_must_roll
from rules.injuries import (
    ACCELERATE_HEALING_BONUS,
    Duration,
    Stun,
    WoundLevel,
    apply_wound,
    bacta_difficulty,
    bacta_failure_level,
    bacta_time,
    critical_attribute,
    critical_deadline_passed,
    critical_heal_shift,
    critical_injury,
    critical_table_for,
    death_roll_dice,
    dies_on_death_roll,
    first_aid_difficulty,
    house_wound_dice,
    maim_instead_of_death,
    medpac_difficulty,
    medpac_locks_out,
    medpac_success_level,
    mortal_outcome,
    natural_healing_interval,
    natural_healing_result,
    next_natural_healing_roll,
    rc_medpac_number,
    roll_death,
    stabilisation_deadline,
    stun_penalty,
    stun_state,
    worsen,
    wound_effects,
    wound_penalty,
)
from rules.ruleset import RuleSet
from rules.time import weeks_to_days

STD = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")
D = DieCode.parse
L = WoundLevel
NONE, STUNNED, W, W2, INC, MW, KILLED = WoundLevel


# --- The wound ladder ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "current", "result", "after"),
    [
        ("H-2 H-17 wounded again", W, W, W2),
        ("H-3 H-17 wounded twice, wounded again", W2, W, INC),
        ("H-18 incapacitated + wounded", INC, W, MW),
        ("H-18 incapacitated + incapacitated", INC, INC, MW),
        ("H-18 mortally wounded + incapacitated", MW, INC, KILLED),
        ("H-18 mortally wounded + mortally wounded", MW, MW, KILLED),
        ("H-19 wounded + incapacitated", W, INC, INC),
        ("H-19 wounded + mortal", W, MW, MW),
        ("H-19 wounded twice + incapacitated", W2, INC, INC),
        ("H-19 incapacitated + mortal", INC, MW, MW),
        ("H-19 mortally wounded + wounded", MW, W, MW),
        ("H-19 wounded twice + mortal", W2, MW, MW),
        ("H-19 any + killed", W, KILLED, KILLED),
        ("H-19 healthy + stunned", NONE, STUNNED, NONE),
        ("H-19 wounded twice + stunned", W2, STUNNED, W2),
        ("H-19 incapacitated + stunned", INC, STUNNED, INC),
        ("H-19 mortally wounded + stunned", MW, STUNNED, MW),
        ("healthy + wounded", NONE, W, W),
        ("no effect", W, NONE, W),
        ("killed stays killed", KILLED, W, KILLED),
    ],
)
def test_2e_wound_ladder(example, current, result, after):
    assert apply_wound(current, result, ruleset=STD) == after


@pytest.mark.parametrize(
    ("example", "current", "result", "after"),
    [
        ("H-17 RC wounded + wound", W, W, INC),
        ("H-65 RC drop pod", W, W, INC),
        ("H-21 RC suit: incapacitated + wound", INC, W, MW),
    ],
)
def test_rc_wound_ladder_has_no_wounded_twice(example, current, result, after):
    assert apply_wound(current, result, ruleset=RC) == after


def test_h21_a_punctured_utility_suit_adds_a_wound_on_the_2e_ladder():
    assert apply_wound(apply_wound(W, W, ruleset=STD), W, ruleset=STD) == INC


def test_h65_a_wounded_rebel_failing_the_drop_pod_roll_in_2e_is_wounded_twice():
    assert apply_wound(W, W, ruleset=STD) == W2


def test_the_ladder_accepts_plain_text():
    assert apply_wound("wounded", "wounded", ruleset=STD) == W2


def test_stunned_is_not_a_wound_level_and_rc_has_no_wounded_twice():
    with pytest.raises(ValueError, match="not a wound level"):
        apply_wound(STUNNED, W, ruleset=STD)
    with pytest.raises(ValueError, match="no 'wounded twice'"):
        apply_wound(W2, W, ruleset=RC)
    with pytest.raises(ValueError, match="not a wound level"):
        worsen(STUNNED, 1, ruleset=STD)


def test_wound_levels_print_in_the_games_words():
    assert (str(MW), MW.name, MW.label, MW.rank) == (
        "mortally_wounded",
        "mortally_wounded",
        "Mortally wounded",
        5,
    )


# --- Effects of each level -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("level", "penalty"), [(NONE, 0), (STUNNED, 1), (W, 1), (W2, 2), (INC, 0), (MW, 0), (KILLED, 0)]
)
def test_wound_penalty(level, penalty):
    assert wound_penalty(level, ruleset=STD) == penalty


def test_wound_penalty_refuses_wounded_twice_on_the_rc_ladder():
    with pytest.raises(ValueError, match="no 'wounded twice'"):
        wound_penalty(W2, ruleset=RC)


def test_cb8_house_wound_knocks_back_and_a_second_wound_costs_the_next_round():
    house_wound = wound_effects(W, ruleset=HOUSE)
    assert (house_wound.knockback_m, house_wound.falls_prone) == ((1, 1), False)
    assert house_wound.loses_rest_of_round
    assert wound_effects(W2, ruleset=HOUSE).loses_next_round
    assert not wound_effects(W2, ruleset=STD).loses_next_round


def test_h48_incapacitated_is_unconscious_for_10d_minutes():
    effects = wound_effects(INC, ruleset=STD)
    assert (effects.conscious, effects.can_act) == (False, False)
    assert effects.unconscious_for == Duration(10, "minutes")
    assert wound_effects(INC, ruleset=HOUSE).knockback_m == (1, 3)


def test_mortally_wounded_makes_death_rolls_and_killed_is_final():
    assert wound_effects(MW, ruleset=STD).death_rolls
    assert not wound_effects(KILLED, ruleset=STD).can_act
    assert wound_effects(STUNNED, ruleset=STD).can_act


# --- Stun ------------------------------------------------------------------------------------
def test_h20_a_wounded_character_stunned_in_round_4():
    stuns = [Stun(4)]
    penalties = [wound_penalty(W, ruleset=STD) + stun_penalty(stuns, r) for r in (4, 5, 6)]
    assert penalties == [2, 2, 1]
    assert wound_penalty(W, ruleset=STD) + stun_penalty(stuns, 5) + 1 == 3


def test_h22_three_stuns_knock_out_strength_3d_plus_2():
    stuns = [Stun(1), Stun(2), Stun(3)]
    round_1 = stun_state(stuns[:1], 1, ruleset=STD, strength="3D+2")
    round_2 = stun_state(stuns[:2], 2, ruleset=STD, strength="3D+2")
    round_3 = stun_state(stuns, 3, ruleset=STD, strength="3D+2")
    assert (round_1.penalty_dice, round_2.penalty_dice) == (1, 2)
    assert not round_2.knocked_out
    assert round_3.knocked_out and round_3.knockout_for == Duration(2, "minutes")


@pytest.mark.parametrize(
    ("example", "second_round", "rested_through", "knocked_out"),
    [
        ("H-23 second stun at minute 20", 240, None, True),
        ("H-23 second stun at minute 31", 372, None, False),
        ("H-23 a minute of rest between them", 240, 12, False),
    ],
)
def test_h23_stuns_affect_for_30_minutes_unless_he_rests(
    example, second_round, rested_through, knocked_out
):
    state = stun_state(
        [Stun(0), Stun(second_round)],
        second_round,
        ruleset=STD,
        strength="2D",
        rested_through=rested_through,
    )
    assert state.knocked_out is knocked_out


def test_h24_strength_1d_is_knocked_out_by_one_stun():
    assert stun_state([Stun(0)], 0, ruleset=STD, strength="1D").knocked_out


def test_h25_stun_knockout_lasts_2_to_12_minutes_and_easy_first_aid_revives():
    assert str(Duration(2, "minutes")) == "2D minutes"
    assert Duration(2, "minutes").roll(rng=FixedDice([1, 1])) == 2
    assert Duration(2, "minutes").roll(rng=FixedDice([6, 6])) == 12
    assert first_aid_difficulty("revive_stunned") == EASY


def test_h26_h27_cb42_rc_stuns_add_up():
    assert stun_penalty([Stun(1, 1)], 1) == 1
    assert stun_penalty([Stun(1, 2)], 1) == 2
    assert stun_penalty([Stun(1), Stun(1), Stun(1)], 1) == 3


def test_h28_cb42_stuns_over_two_rounds():
    stuns = [Stun(6), Stun(6), Stun(7, 2)]
    assert stun_penalty(stuns[:2], 7) == 2
    assert [stun_penalty(stuns, r) for r in (7, 8, 9)] == [4, 2, 0]


@pytest.mark.parametrize(
    ("example", "stuns", "immobile"),
    [
        ("H-29 CB-43 three stun points", [Stun(1), Stun(1, 2)], True),
        ("H-29 CB-43 two stun points", [Stun(1, 2)], False),
    ],
)
def test_h29_rc_stuns_taken_in_one_round_immobilise(example, stuns, immobile):
    state = stun_state(stuns, 1, strength="3D", dexterity="3D+2", stamina="5D", ruleset=RC)
    assert state.immobile is immobile
    assert not state.knocked_out


@pytest.mark.parametrize(
    ("example", "stamina", "points", "out"),
    [
        ("H-30 stamina 3D", "3D", 3, True),
        ("CB-43 stamina 4D", "4D", 4, True),
        ("stamina 4D, 3 points", "4D", 3, False),
    ],
)
def test_h30_rc_active_stuns_reaching_stamina_knock_out(example, stamina, points, out):
    stuns = [Stun(1, points - 1), Stun(2)] if points > 1 else [Stun(2)]
    assert stun_state(stuns, 2, strength="2D", stamina=stamina, ruleset=RC).knocked_out is out


def test_rc_without_stamina_uses_strength_dice():
    assert stun_state([Stun(1, 2)], 1, strength="2D+2", ruleset=RC).knocked_out


def test_a_stun_has_at_least_one_point():
    with pytest.raises(ValueError, match="at least one point"):
        Stun(1, 0)


# --- Mortal wounds ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "total", "rounds", "dies"),
    [
        ("H-31 n 1 roll 2", 2, 1, False),
        ("H-31 n 2 roll 2", 2, 2, False),
        ("H-31 n 3 roll 2", 2, 3, True),
        ("H-31 n 5 roll 4", 4, 5, True),
        ("H-31 n 5 roll 5", 5, 5, False),
        ("H-32 1D n 2 roll 1", 1, 2, True),
        ("H-32 1D n 2 roll 2", 2, 2, False),
        ("H-32 1D n 7 roll 6", 6, 7, True),
    ],
)
def test_death_rolls(example, total, rounds, dies):
    assert dies_on_death_roll(total, rounds) is dies


def test_h32_the_end_is_nigh_rolls_one_die():
    assert (death_roll_dice(), death_roll_dice(end_is_nigh=True)) == (2, 1)
    assert roll_death(2, rng=FixedDice([1]), end_is_nigh=True) == (1, True)
    assert roll_death(3, rng=FixedDice([1, 1])) == (2, True)


def test_death_rolls_start_at_the_end_of_the_round_of_wounding():
    with pytest.raises(ValueError, match="n = 1"):
        dies_on_death_roll(5, 0)


def test_h33_stabilised_then_treated_within_the_hour():
    assert first_aid_difficulty("stabilise_mortally_wounded") == MODERATE
    assert mortal_outcome(0, 45, ruleset=STD, treated_at_minute=45) == "treated"
    assert mortal_outcome(0, 30, ruleset=STD) == "waiting"
    assert mortal_outcome(0, 60, ruleset=STD) == "dies"


def test_h34_a_house_medpac_holds_a_mortal_wound_for_30_minutes():
    assert stabilisation_deadline(0, last_medpac_minute=10, ruleset=HOUSE) == 40
    assert mortal_outcome(0, 40, last_medpac_minute=10, ruleset=HOUSE) == "dies"
    assert stabilisation_deadline(0, ruleset=STD, last_medpac_minute=10) == 60


def test_h35_six_weeks_of_stasis():
    assert weeks_to_days(6, ruleset=HOUSE) == 30
    assert weeks_to_days(6, ruleset=STD) == 42


def test_first_aid_tasks_are_named():
    assert first_aid_difficulty("revive_incapacitated") == MODERATE
    with pytest.raises(ValueError, match="unknown first aid task"):
        first_aid_difficulty("sing")


# --- House critical injuries -----------------------------------------------------------------
def test_h36_the_wild_die_six_offers_the_same_choice_again():
    offers = []

    def offer(chain):
        offers.append(list(chain))
        return len(offers) == 2

    result = roll("3D", ruleset=HOUSE, rng=FixedDice([2, 3, 6, 6]), offer_crit=offer)
    assert offers == [[6], [6, 6]]
    assert (result.total, result.critical_injury) == (17, True)


@pytest.mark.parametrize(
    ("example", "level", "roll_total", "name"),
    [
        ("H-37", STUNNED, 1, "Slowed Down"),
        ("H-37", STUNNED, 2, "Sudden Jolt"),
        ("H-37", STUNNED, 3, "Sudden Jolt"),
        ("H-37", STUNNED, 4, "Distracted"),
        ("H-37", STUNNED, 5, "Off Balance"),
        ("H-37", STUNNED, 6, "Stinger"),
        ("H-38", W, 2, "Head Ringer"),
        ("H-38", W, 3, "Head Ringer"),
        ("H-38", W, 4, "Fearsome Wound"),
        ("H-38", W2, 5, "Fearsome Wound"),
        ("H-38", W, 6, "Agonizing Wound"),
        ("H-38", W, 7, "Agonizing Wound"),
        ("H-38", W, 8, "Dazed"),
        ("H-38", W, 9, "Dazed"),
        ("H-38", W, 10, "Hamstring"),
        ("H-38", W, 11, "Overpowered"),
        ("H-38", W, 12, "Winded"),
        ("H-39", INC, 1, "Crippled"),
        ("H-39", INC, 2, "Crippled"),
        ("H-39", INC, 3, "Deafness"),
        ("H-39", INC, 4, "Horrific Injury"),
        ("H-39", INC, 5, "Temporarily Lame"),
        ("H-39", INC, 6, "Blinded"),
        ("H-40", MW, 1, "Maimed"),
        ("H-40", MW, 2, "Gruesome Injury"),
        ("H-40", MW, 3, "Paralysis"),
        ("H-40", MW, 4, "Internal Bruising/Bleeding"),
        ("H-40", MW, 5, "Internal Bruising/Bleeding"),
        ("H-40", MW, 6, "The end is Nigh"),
    ],
)
def test_critical_injury_tables(example, level, roll_total, name):
    assert critical_injury(level, roll_total).name == name


@pytest.mark.parametrize(
    ("level", "table"),
    [
        (STUNNED, (STUNNED, 1)),
        (W, (W, 2)),
        (W2, (W, 2)),
        (INC, (INC, 1)),
        (MW, (MW, 1)),
        (NONE, None),
        (KILLED, None),
    ],
)
def test_which_critical_table_a_hit_uses(level, table):
    assert critical_table_for(level) == table


def test_h71_a_stunned_result_on_a_wounded_character_uses_the_stunned_table():
    assert apply_wound(W, STUNNED, ruleset=STD) == W
    assert critical_table_for(STUNNED) == (STUNNED, 1)


def test_critical_rolls_out_of_range_are_refused():
    with pytest.raises(ValueError, match="cannot be rolled"):
        critical_injury(W, 1)
    with pytest.raises(ValueError, match="no critical injury table"):
        critical_injury(NONE, 3)


@pytest.mark.parametrize(
    ("roll_total", "attribute"),
    [
        (2, "Knowledge"),
        (3, "Knowledge"),
        (4, "Perception"),
        (5, "Perception"),
        (6, "Mechanical"),
        (7, "Mechanical"),
        (8, "Technical"),
        (9, "Technical"),
        (10, "Dexterity"),
        (11, "Dexterity"),
        (12, "Strength"),
    ],
)
def test_h41_attribute_table(roll_total, attribute):
    assert critical_attribute(roll_total) == attribute


def test_h41_the_attribute_table_is_rolled_on_2d():
    with pytest.raises(ValueError, match="2D"):
        critical_attribute(1)


def test_h42_critical_deadlines():
    assert critical_injury(INC, 3).deadline == Duration(2, "days")
    assert not critical_deadline_passed(5, 6, treated_at=4)
    assert critical_deadline_passed(5, 5)
    assert critical_injury(MW, 3).deadline == Duration(1, "days")
    assert critical_deadline_passed(2, 2)
    assert critical_deadline_passed(36, 36)
    assert not critical_deadline_passed(36, 35)


def test_h43_critical_injuries_make_healing_harder():
    assert medpac_difficulty(W, ruleset=STD, critical_shift=critical_heal_shift(W)) == MODERATE
    assert bacta_difficulty(medicine=True, critical_shift=critical_heal_shift(INC)) == EASY
    assert bacta_difficulty(medicine=True, critical_shift=critical_heal_shift(MW)) == MODERATE
    assert critical_heal_shift(STUNNED) == 0
    assert critical_heal_shift(W2) == 1
    with pytest.raises(ValueError, match="no 'killed' critical"):
        critical_heal_shift(KILLED)


# --- Medpacs ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "level", "difficulty", "after"),
    [
        ("H-44 stunned", STUNNED, VERY_EASY, NONE),
        ("H-44 wounded", W, EASY, NONE),
        ("H-44 wounded twice", W2, EASY, W),
        ("H-44 incapacitated", INC, MODERATE, W2),
        ("H-44 mortally wounded", MW, DIFFICULT, INC),
    ],
)
def test_h44_2e_medpacs(example, level, difficulty, after):
    assert medpac_difficulty(level, ruleset=STD) == difficulty
    assert medpac_success_level(level, ruleset=STD) == after


def test_h45_each_further_medpac_that_day_is_one_level_harder():
    assert [medpac_difficulty(W2, ruleset=STD, earlier_uses=n) for n in range(3)] == [
        EASY,
        MODERATE,
        DIFFICULT,
    ]


def test_h46_missing_by_more_than_10_locks_out_medpacs_for_a_day():
    assert medpac_locks_out(4, 15, ruleset=STD)
    assert not medpac_locks_out(5, 15, ruleset=STD)
    assert not medpac_locks_out(4, 15, ruleset=RC)


def test_h47_house_medpacs():
    assert medpac_difficulty(W, ruleset=HOUSE) == EASY
    assert medpac_difficulty(W, ruleset=HOUSE, earlier_uses=1) == MODERATE
    assert medpac_difficulty(W, ruleset=HOUSE, earlier_uses=2, pack_uses=1) == VERY_DIFFICULT
    with pytest.raises(ValueError, match="more than twice"):
        medpac_difficulty(W, ruleset=HOUSE, earlier_uses=3, pack_uses=2)
    assert medpac_difficulty(W, ruleset=HOUSE, earlier_uses=1, fastflesh=True) == EASY


def test_h48_a_house_medpac_only_wakes_the_incapacitated():
    assert medpac_success_level(INC, ruleset=HOUSE) == INC
    assert medpac_success_level(INC, ruleset=HOUSE, fastflesh=True) == W2
    assert medpac_success_level(MW, ruleset=HOUSE) == MW
    assert medpac_success_level(W, ruleset=HOUSE) == NONE


def test_without_wounded_twice_a_medpac_lifts_incapacitated_to_wounded():
    assert medpac_success_level(INC, ruleset=RC) == W


def test_medpac_rules_refuse_what_their_source_does_not_have():
    with pytest.raises(ValueError, match="difficulty numbers"):
        medpac_difficulty(W, ruleset=RC)
    with pytest.raises(ValueError, match="used up"):
        medpac_difficulty(W, ruleset=STD, pack_uses=1)
    with pytest.raises(ValueError, match="does nothing"):
        medpac_difficulty(NONE, ruleset=STD)
    with pytest.raises(ValueError, match="does nothing"):
        medpac_success_level(KILLED, ruleset=STD)
    with pytest.raises(ValueError, match="negative"):
        medpac_difficulty(W, ruleset=STD, earlier_uses=-1)


@pytest.mark.parametrize(
    ("example", "level", "base"),
    [
        ("H-49 blaster bolt", W, 6),
        ("H-49 thermal detonator", W, 9),
        ("H-49 incapacitated", INC, 11),
        ("H-49 mortal", MW, 20),
    ],
)
def test_h49_rc_medpac_numbers(example, level, base):
    assert rc_medpac_number(level, base) == base


def test_h49_the_wounded_scale_tops_out_at_10():
    with pytest.raises(ValueError, match="6-10"):
        rc_medpac_number(W, 11)
    with pytest.raises(ValueError, match="no medpac number"):
        rc_medpac_number(W2, 6)
    with pytest.raises(ValueError, match="negative"):
        rc_medpac_number(W, 6, earlier_today=-1)


def test_h50_rc_each_further_medpac_that_day_adds_3():
    assert [rc_medpac_number(W, 6, earlier_today=n) for n in range(3)] == [6, 9, 12]


def test_h51_rc_accelerate_healing():
    numbers = [rc_medpac_number(W, 6, earlier_today=n, accelerate_healing=True) for n in range(3)]
    assert numbers == [6, 6, 12]
    assert ACCELERATE_HEALING_BONUS == 2


# --- Natural healing -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "level", "total", "after"),
    [
        ("H-52", W, 4, W2),
        ("H-52", W, 5, W),
        ("H-52", W, 6, W),
        ("H-52", W, 7, NONE),
        ("H-53", W2, 4, INC),
        ("H-53", W2, 5, W2),
        ("H-53", W2, 6, W2),
        ("H-53", W2, 7, W),
        ("H-54", INC, 6, MW),
        ("H-54", INC, 7, INC),
        ("H-54", INC, 8, INC),
        ("H-54", INC, 9, W2),
        ("H-54 R&E example", INC, 10, W2),
        ("H-55", MW, 6, KILLED),
        ("H-55", MW, 7, MW),
        ("H-55", MW, 8, MW),
        ("H-55", MW, 9, INC),
    ],
)
def test_natural_healing_chart(example, level, total, after):
    assert natural_healing_result(level, total, ruleset=STD) == after


def test_h69_without_wounded_twice_the_chart_skips_it():
    assert natural_healing_result(W, 4, ruleset=RC) == INC
    assert natural_healing_result(INC, 9, ruleset=RC) == W


@pytest.mark.parametrize(
    ("example", "level", "ruleset", "rest", "easy"),
    [
        ("H-52 wounded", W, STD, 3, 6),
        ("H-53 wounded twice", W2, STD, 3, 6),
        ("H-54 incapacitated", INC, STD, 14, 28),
        ("H-70 House incapacitated", INC, HOUSE, 10, 20),
        ("H-55 mortally wounded", MW, STD, 35, 70),
    ],
)
def test_natural_healing_intervals(example, level, ruleset, rest, easy):
    assert natural_healing_interval(level, ruleset=ruleset) == rest
    assert natural_healing_interval(level, ruleset=ruleset, easy=True) == easy


def test_h68_a_mortal_result_on_day_14_next_rolls_on_day_49():
    after = natural_healing_result(INC, 6, ruleset=STD)
    assert after == MW and 14 + natural_healing_interval(after, ruleset=STD) == 49


def test_healthy_characters_make_no_healing_roll():
    with pytest.raises(ValueError, match="no natural-healing roll"):
        natural_healing_interval(NONE, ruleset=STD)


def test_h56_a_wound_healed_over_four_rolls():
    level, start, history = W, 0, []
    for total in (6, 3, 8, 7):
        due = next_natural_healing_roll(level, start, "3D", {}, ruleset=STD).day
        level, start = natural_healing_result(level, total, ruleset=STD), due
        history.append((due, level))
    assert history == [(3, W), (6, W2), (9, W), (12, NONE)]


@pytest.mark.parametrize(
    ("example", "activity", "day", "pool"),
    [
        ("H-57 active from day 1", {1: "active", 2: "active", 3: "active"}, 3, "2D"),
        ("H-57 taking it easy", dict.fromkeys(range(1, 7), "easy"), 6, "4D"),
        ("H-57 one active day spoils the period", {1: "rest", 2: "rest", 3: "active"}, 3, "2D"),
        ("resting", {}, 3, "3D"),
    ],
)
def test_h57_activity_sets_when_and_how_he_rolls(example, activity, day, pool):
    due = next_natural_healing_roll(W, 0, "3D", activity, ruleset=STD)
    assert (due.day, due.pool) == (day, D(pool))


def test_activity_can_be_a_function_and_must_be_known():
    assert next_natural_healing_roll(W, 0, "3D", lambda day: "rest", ruleset=STD).day == 3
    with pytest.raises(ValueError, match="rest, active or easy"):
        next_natural_healing_roll(W, 0, "3D", lambda day: "dancing", ruleset=STD)
    with pytest.raises(ValueError, match="within 2 days"):
        next_natural_healing_roll(W, 0, "3D", {}, ruleset=STD, horizon_days=2)


def test_h59_accelerate_healing_gives_two_rolls_at_plus_2():
    first = natural_healing_result(W2, 5 + ACCELERATE_HEALING_BONUS, ruleset=STD)
    assert first == W
    assert natural_healing_result(first, 5 + ACCELERATE_HEALING_BONUS, ruleset=STD) == NONE
    assert natural_healing_result(W2, 5, ruleset=STD) == W2


# --- Bacta -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "level", "dice", "hours_or_days"),
    [
        ("H-60 wounded", W, [4], (Duration(1, "hours"), 4)),
        ("H-60 wounded twice", W2, [3, 4], (Duration(2, "hours"), 7)),
        ("H-60 incapacitated", INC, [2, 3, 4, 5], (Duration(4, "hours"), 14)),
        ("H-60 mortally wounded", MW, [4, 5], (Duration(2, "days"), 9)),
    ],
)
def test_h60_house_bacta_times(example, level, dice, hours_or_days):
    duration, amount = hours_or_days
    assert bacta_time(level, ruleset=HOUSE) == duration
    assert bacta_time(level, ruleset=HOUSE).roll(rng=FixedDice(dice)) == amount
    assert bacta_difficulty(medicine=True) == VERY_EASY


def test_h60_2e_bacta_heals_a_mortal_wound_in_1d_days():
    assert bacta_time(MW, ruleset=STD) == Duration(1, "days")
    assert bacta_time(MW, ruleset=STD).roll(rng=FixedDice([3])) == 3


def test_bacta_has_nothing_to_heal_on_a_healthy_patient():
    with pytest.raises(ValueError, match="nothing to heal"):
        bacta_time(NONE, ruleset=STD)


@pytest.mark.parametrize(
    ("example", "level", "after"),
    [
        ("H-61 wounded", W, INC),
        ("H-61 wounded twice", W2, MW),
        ("H-61 incapacitated", INC, KILLED),
        ("H-61 mortally wounded", MW, KILLED),
    ],
)
def test_h61_untrained_bacta_failure_worsens_two_levels(example, level, after):
    assert bacta_difficulty(medicine=False) == HEROIC
    assert bacta_failure_level(level, ruleset=STD, medicine=False) == after
    assert bacta_failure_level(level, ruleset=STD, medicine=True) == level


def test_without_wounded_twice_two_levels_skip_it():
    assert bacta_failure_level(W, medicine=False, ruleset=RC) == MW


# --- Other House rules -----------------------------------------------------------------------
def test_h62_maiming_instead_of_death_costs_a_force_point():
    assert maim_instead_of_death(1, ruleset=HOUSE) == (MW, 0)
    with pytest.raises(ValueError, match="Force Point"):
        maim_instead_of_death(0, ruleset=HOUSE)
    with pytest.raises(ValueError, match="maiming"):
        maim_instead_of_death(1, ruleset=STD)


@pytest.mark.parametrize(
    ("level", "dice"),
    [(NONE, 0), (STUNNED, 0), (W, 1), (W2, 2), (INC, 2), (MW, 3), (KILLED, 3)],
)
def test_house_wound_dice_labels(level, dice):
    assert house_wound_dice(level) == dice


def test_h63_a_severe_area_hit_checks_the_gear():
    assert gear_must_roll(house_wound_dice(MW), area_effect=True, ruleset=HOUSE)
    assert not gear_must_roll(house_wound_dice(MW), area_effect=False, ruleset=HOUSE)
    assert not gear_must_roll(house_wound_dice(INC), area_effect=True, ruleset=HOUSE)


# --- Durations ------------------------------------------------------------------------------
def test_durations_need_dice_and_long_ones_are_not_counted_in_rounds():
    with pytest.raises(ValueError, match="at least 1D"):
        Duration(0, "rounds")
    with pytest.raises(ValueError, match="too long"):
        Duration(1, "hours").roll_rounds(rng=FixedDice([3]))
