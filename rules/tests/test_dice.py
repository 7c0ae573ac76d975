"""Die codes and rolling (dice-and-core.md §1–§2, worked examples D-1…D-5, D-40, D-41)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import (
    MAX_EXPLOSIONS,
    DiceError,
    DieCode,
    DieCodeError,
    FixedDice,
    Roll,
    SeededDice,
    SystemDice,
    effective_pool,
    explode,
    roll,
)
from rules.ruleset import RuleSet

codes = st.builds(
    DieCode, st.integers(min_value=-999, max_value=999), st.integers(min_value=-999, max_value=999)
)
# Codes whose sums stay inside the limits a DieCode accepts.
small_codes = st.builds(
    DieCode, st.integers(min_value=-100, max_value=100), st.integers(min_value=-100, max_value=100)
)
pools = st.builds(
    DieCode, st.integers(min_value=0, max_value=12), st.integers(min_value=0, max_value=6)
)

HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")


def wild_one(option: str) -> RuleSet:
    return RuleSet(wild_die_one=option)


class SixesForever:
    """A broken source that only ever shows 6."""

    def d6(self) -> int:
        return 6


# --- parsing ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "dice", "pips"),
    [
        ("4D+2", 4, 2),
        ("4d+2", 4, 2),
        (" 4D + 2 ", 4, 2),
        ("4D", 4, 0),
        ("+2", 0, 2),
        ("-2", 0, -2),
        ("0D+1", 0, 1),
        ("0D", 0, 0),
        ("-1D", -1, 0),
        ("+1D", 1, 0),
        ("+1D+1", 1, 1),
        ("-1D-1", -1, -1),
        ("-1D+1", -1, 1),
        ("3D-6", 3, -6),
        ("4D+6", 4, 6),
        ("999D+999", 999, 999),
    ],
)
def test_die_codes_are_parsed_in_the_spellings_people_type(text, dice, pips):
    assert DieCode.parse(text) == DieCode(dice, pips)


def test_parsing_a_die_code_returns_it_unchanged():
    code = DieCode(3, 1)
    assert DieCode.parse(code) is code


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("4", "has no D"),
        ("4D2", "pips come after a \\+ or -"),
        ("3D 2", "pips come after"),
        ("4DD", "more than one D"),
        ("4x", "contains 'x'"),
        ("4.5D", "contains '.'"),
        ("abc", "contains 'a'"),
        ("D+2", "not a die code"),
        ("4D+2D", "not a die code"),
        ("1000D", "larger than any die code"),
        ("4D+1000", "larger than any die code"),
        ("+1000", "larger than any die code"),
    ],
)
def test_garbage_is_refused_with_a_message_that_says_what_is_wrong(text, message):
    with pytest.raises(DieCodeError, match=message):
        DieCode.parse(text)


@pytest.mark.parametrize("value", [4, None, 4.0])
def test_a_die_code_to_parse_must_be_text(value):
    with pytest.raises(DieCodeError, match="must be text"):
        DieCode.parse(value)


@pytest.mark.parametrize(
    ("dice", "pips", "message"),
    [
        (1.5, 0, "whole number"),
        (True, 0, "whole number"),
        (1, "2", "whole number"),
        (1000, 0, "larger than any"),
        (0, -1000, "larger than any"),
    ],
)
def test_a_die_code_is_made_of_whole_numbers_in_range(dice, pips, message):
    with pytest.raises(DieCodeError, match=message):
        DieCode(dice, pips)


def test_a_bad_die_code_is_a_value_error():
    assert issubclass(DieCodeError, ValueError)


@given(codes)
def test_str_of_a_die_code_parses_back_to_the_same_code(code):
    assert DieCode.parse(str(code)) == code


@given(codes)
def test_signed_form_of_a_die_code_parses_back_to_the_same_code(code):
    assert DieCode.parse(code.signed()) == code


@pytest.mark.parametrize(
    ("code", "text", "signed"),
    [
        (DieCode(4), "4D", "+4D"),
        (DieCode(4, 2), "4D+2", "+4D+2"),
        (DieCode(0, 1), "0D+1", "+1"),
        (DieCode(0, 0), "0D", "+0"),
        (DieCode(-1), "-1D", "-1D"),
        (DieCode(1, -1), "1D-1", "+1D-1"),
        (DieCode(0, -2), "0D-2", "-2"),
    ],
)
def test_die_codes_print_canonically_and_as_modifiers(code, text, signed):
    assert str(code) == text
    assert code.signed() == signed
    assert repr(code) == f"DieCode('{text}')"


def test_a_die_code_formats_like_its_text():
    assert f"{DieCode(4, 2):>6}" == "  4D+2"


@pytest.mark.parametrize(
    ("total", "code"),
    [
        (0, DieCode()),
        (11, DieCode(3, 2)),
        (12, DieCode(4)),
        (-4, DieCode(-1, -1)),
        (1, DieCode(0, 1)),
    ],
)
def test_from_pips_gives_the_canonical_code(total, code):
    assert DieCode.from_pips(total) == code


@pytest.mark.parametrize(
    ("code", "standard"),
    [("4D+2", True), ("0D", True), ("4D+6", False), ("-1D", False), ("3D-1", False)],
)
def test_is_standard_means_printable_on_a_sheet(code, standard):
    assert DieCode.parse(code).is_standard is standard


# --- improvement arithmetic -------------------------------------------------------------------
def test_d4_adding_2d1_to_1d2_improves_to_4d():
    assert DieCode.parse("1D+2") + DieCode.parse("2D+1") == DieCode(4)


def test_d3_improving_3d_one_pip_at_a_time():
    steps = [DieCode(3)]
    for _ in range(3):
        steps.append(steps[-1].plus_pips(1))
    assert [str(s) for s in steps[1:]] == ["3D+1", "3D+2", "4D"]


def test_one_pip_above_3d2_is_4d():
    assert DieCode(3, 2) + DieCode(0, 1) == DieCode(4)
    assert DieCode(3, 2) + "+1" == DieCode(4)


@given(small_codes, small_codes)
def test_improvement_is_commutative(a, b):
    assert a + b == b + a


@given(small_codes, small_codes, small_codes)
def test_improvement_is_associative(a, b, c):
    assert (a + b) + c == a + (b + c)


@given(small_codes, small_codes)
def test_improvement_equals_adding_total_pips(a, b):
    assert a + b == DieCode.from_pips(a.total_pips + b.total_pips)


@given(small_codes, small_codes)
def test_subtracting_undoes_adding(a, b):
    assert (a + b) - b == a.normalized()


@given(small_codes)
def test_normalizing_keeps_the_total_pips(code):
    assert code.normalized().total_pips == code.total_pips
    assert code.normalized() == DieCode.from_pips(code.total_pips)


def test_arithmetic_accepts_text_and_sum_starts_from_zero():
    assert "4D" - DieCode(1) == DieCode(3)
    assert DieCode(4) - "1D+1" == DieCode(2, 2)
    assert "1D" + DieCode(0, 2) == DieCode(1, 2)
    assert sum([DieCode(1, 2), DieCode(2, 1)]) == DieCode(4)


def test_arithmetic_with_other_numbers_is_a_type_error():
    with pytest.raises(TypeError):
        DieCode(4) + 2  # type: ignore[operator]
    with pytest.raises(TypeError):
        DieCode(4) - 1.5  # type: ignore[operator]
    with pytest.raises(TypeError):
        2 - DieCode(4)  # type: ignore[operator]


def test_negation_and_truth():
    assert -DieCode(1, 1) == DieCode(-1, -1)
    assert not DieCode()
    assert DieCode(0, 1)


# --- pool arithmetic --------------------------------------------------------------------------
def test_pool_add_keeps_pips():
    assert DieCode(4, 2).pool_add("+4") == DieCode(4, 6)


def test_d5_in_play_4d_plus_six_pips_rolls_4d6():
    assert DieCode(4).pool_add("+6") == DieCode(4, 6)
    assert effective_pool("4D", bonus="+6", ruleset=RuleSet()) == DieCode(4, 6)


def test_d5_house_rules_normalize_pips_in_play():
    assert effective_pool("4D", bonus="+6", ruleset=HOUSE) == DieCode(6)


def test_d2_force_point_doubles_5d2_to_10d4():
    assert DieCode(5, 2).doubled() == DieCode(10, 4)
    assert effective_pool("5D+2", force_point=True, ruleset=RuleSet()) == DieCode(10, 4)


@given(pools, pools)
def test_pool_add_adds_dice_and_pips_separately(a, b):
    total = a.pool_add(b)
    assert (total.dice, total.pips) == (a.dice + b.dice, a.pips + b.pips)


@given(pools)
def test_doubling_doubles_dice_and_pips(code):
    assert code.doubled() == DieCode(code.dice * 2, code.pips * 2)


@given(pools, st.integers(min_value=0, max_value=20))
def test_penalty_dice_never_take_a_pool_below_0d_and_keep_the_pips(code, n):
    reduced = code.minus_dice(n)
    assert reduced.dice == max(0, code.dice - n)
    assert reduced.pips == code.pips


@pytest.mark.parametrize(
    ("code", "half"),
    [("6D", "3D"), ("5D+1", "2D+2"), ("4D+2", "2D+1"), ("1D", "0D+1"), ("0D", "0D"), ("-2D", "0D")],
)
def test_halving_goes_through_pips_rounding_down(code, half):
    assert DieCode.parse(code).halved() == DieCode.parse(half)


# --- ordering, equality, hashing --------------------------------------------------------------
def test_codes_are_ordered_by_total_pips():
    assert DieCode(3, 2) < DieCode(4) < DieCode(4, 1)
    assert sorted(DieCode.parse(c) for c in ["5D", "2D+2", "4D+1", "3D"]) == [
        DieCode(2, 2),
        DieCode(3),
        DieCode(4, 1),
        DieCode(5),
    ]


def test_equal_pips_with_fewer_dice_sort_first_but_are_not_equal():
    assert DieCode(4, 6) != DieCode(6)
    assert DieCode(4, 6) < DieCode(6)
    assert DieCode(4, 6) <= DieCode(6)
    assert DieCode(6) >= DieCode(4, 6)


@given(small_codes, small_codes)
def test_ordering_follows_total_pips(a, b):
    if a.total_pips < b.total_pips:
        assert a < b
    if a < b:
        assert a.total_pips <= b.total_pips
    assert (a < b) + (a == b) + (a > b) == 1


@given(codes)
def test_equal_codes_hash_equal(code):
    twin = DieCode(code.dice, code.pips)
    assert twin == code
    assert hash(twin) == hash(code)
    assert len({code, twin}) == 1


def test_a_die_code_is_not_equal_to_its_text_and_does_not_order_against_it():
    assert DieCode(4) != "4D"
    with pytest.raises(TypeError):
        _ = DieCode(4) < "5D"  # type: ignore[operator]


def test_a_die_code_is_immutable():
    code = DieCode(4)
    with pytest.raises(AttributeError):
        code.dice = 5  # type: ignore[misc]


# --- random sources ---------------------------------------------------------------------------
def test_fixed_dice_give_their_faces_in_order_and_then_refuse():
    dice = FixedDice([3, 6])
    assert [dice.d6(), dice.d6()] == [3, 6]
    with pytest.raises(RuntimeError, match="ran out"):
        dice.d6()


def test_fixed_dice_refuse_impossible_faces():
    with pytest.raises(DiceError, match="cannot show 7"):
        FixedDice([7]).d6()


def test_seeded_dice_repeat_the_same_faces_for_the_same_seed():
    first, second = SeededDice(42), SeededDice(42)
    faces = [first.d6() for _ in range(20)]
    assert faces == [second.d6() for _ in range(20)]
    assert all(1 <= face <= 6 for face in faces)


def test_system_dice_stay_on_the_die():
    source = SystemDice()
    assert all(1 <= source.d6() <= 6 for _ in range(50))


# --- explode ----------------------------------------------------------------------------------
def test_a_six_is_rolled_again_and_added_for_as_long_as_sixes_come_up():
    assert explode(rng=FixedDice([6, 6, 2])) == ([6, 6, 2], False)


def test_a_broken_source_of_endless_sixes_stops():
    chain, crit = explode(rng=SixesForever())
    assert len(chain) == MAX_EXPLOSIONS + 1
    assert not crit


def test_offer_crit_is_asked_on_each_six():
    asked = []

    def choose(chain):
        asked.append(list(chain))
        return len(chain) == 2

    assert explode(rng=FixedDice([6, 6]), offer_crit=choose) == ([6, 6], True)
    assert asked == [[6], [6, 6]]


# --- rolling without a Wild Die ---------------------------------------------------------------
def test_d1_4d2_showing_4_1_3_1_totals_11():
    result = roll("4D+2", ruleset=RC, rng=FixedDice([4, 1, 3, 1]))
    assert result.total == 11
    assert result.normal == (4, 1, 3, 1)
    assert result.wild == ()


def test_wild_die_false_overrides_the_ruleset():
    assert roll("4D+2", ruleset=RuleSet(), rng=FixedDice([4, 1, 3, 1]), wild_die=False).total == 11


def test_wild_die_true_overrides_a_ruleset_without_one():
    result = roll("2D", ruleset=RC, rng=FixedDice([3, 6, 2]), wild_die=True)
    assert result.wild == (6, 2)
    assert result.total == 11


@given(pools, st.integers(min_value=0, max_value=10_000))
def test_without_a_wild_die_the_total_is_the_dice_plus_pips(code, seed):
    result = roll(code, ruleset=RC, rng=SeededDice(seed))
    assert len(result.normal) == code.dice
    assert all(1 <= d <= 6 for d in result.normal)
    assert result.total == sum(result.normal) + code.pips


# --- the Wild Die -----------------------------------------------------------------------------
def test_the_last_die_is_the_wild_die_and_explodes_on_six():
    result = roll("3D", ruleset=RuleSet(), rng=FixedDice([2, 3, 6, 6, 4]))
    assert result.normal == (2, 3)
    assert result.wild == (6, 6, 4)
    assert result.exploded
    assert result.total == 21


def test_a_one_on_an_extra_wild_die_roll_is_just_one():
    result = roll("3D", ruleset=wild_one("subtract"), rng=FixedDice([4, 2, 6, 1]))
    assert result.total == 13
    assert result.removed == ()
    assert result.complication is None
    assert not result.wild_one


@pytest.mark.parametrize(
    ("option", "total", "removed", "complication", "needs_choice"),
    [
        ("complication", 7, (), "complication", False),
        ("subtract", 2, (1, 4), None, False),
        ("normal", 7, (), None, False),
        ("gm_choice", 7, (), None, True),
    ],
)
def test_wild_die_one_per_option(option, total, removed, complication, needs_choice):
    result = roll("3D", ruleset=wild_one(option), rng=FixedDice([4, 2, 1]))
    assert result.wild_one
    assert result.total == total
    assert result.removed == removed
    assert result.complication == complication
    assert result.needs_gm_choice is needs_choice


def test_a_gm_choice_roll_shows_the_total_if_the_gm_subtracts():
    result = roll("3D", ruleset=wild_one("gm_choice"), rng=FixedDice([4, 2, 1]))
    assert result.total_if_subtracted == 2
    assert result.notes


def test_total_if_subtracted_is_the_total_when_nothing_can_be_taken_away():
    assert roll("3D", ruleset=RuleSet(), rng=FixedDice([4, 2, 5])).total_if_subtracted == 11
    assert (
        roll("3D", ruleset=wild_one("subtract"), rng=FixedDice([4, 2, 1])).total_if_subtracted == 2
    )


def test_a_one_die_pool_whose_wild_die_shows_one_loses_only_the_one():
    result = roll("1D+2", ruleset=wild_one("subtract"), rng=FixedDice([1]))
    assert result.removed == (1,)
    assert result.total == 2


def test_a_subtracted_total_never_goes_below_zero():
    assert roll("2D", ruleset=wild_one("subtract"), rng=FixedDice([6, 1])).total == 0


# --- Character Point dice ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ruleset", "faces", "total", "removed"),
    [
        pytest.param(wild_one("normal"), [3, 5, 2, 4, 6, 3, 1], 24, (), id="D-40-cp-dice-24"),
        pytest.param(RuleSet(), [3, 5, 2, 4, 6, 3, 1], 24, (), id="D-40-cp-dice-default-24"),
        pytest.param(
            wild_one("subtract"), [3, 5, 2, 1, 6, 3, 1], 15, (1, 5), id="D-40-wild-one-remove-15"
        ),
    ],
)
def test_d40_character_point_dice(ruleset, faces, total, removed):
    result = roll("4D", ruleset=ruleset, rng=FixedDice(faces), cp_dice=2)
    assert result.total == total
    assert result.removed == removed
    assert result.cp == ((6, 3), (1,))


def test_a_one_on_a_cp_die_is_just_one():
    result = roll("2D", ruleset=RuleSet(), rng=FixedDice([3, 4, 1]), cp_dice=1)
    assert result.total == 8
    assert result.complication is None
    assert result.removed == ()


def test_cp_dice_explode_and_are_never_the_highest_die_removed():
    result = roll("2D", ruleset=wild_one("subtract"), rng=FixedDice([2, 1, 6, 6, 5]), cp_dice=1)
    assert result.removed == (1, 2)
    assert result.cp == ((6, 6, 5),)
    assert result.total == 17


def test_cp_dice_are_rolled_without_a_wild_die_too():
    assert roll("2D", ruleset=RC, rng=FixedDice([2, 3, 6, 1]), cp_dice=1).total == 12


def test_negative_cp_dice_are_refused():
    with pytest.raises(DiceError, match="Character Point dice cannot be negative"):
        roll("2D", ruleset=RuleSet(), rng=FixedDice([]), cp_dice=-1)


# --- House Wild Die table (D-41) --------------------------------------------------------------
@pytest.mark.parametrize(
    ("table", "total", "total_with_cp", "complication"),
    [
        pytest.param(4, 2, 7, None, id="D-41-table-4-remove"),
        pytest.param(2, 7, 12, "complication", id="D-41-table-2-complication"),
        pytest.param(1, 7, 12, "really bad complication", id="D-41-table-1-really-bad"),
        pytest.param(6, 7, 12, None, id="D-41-table-6-nothing"),
    ],
)
def test_d41_house_wild_die_one_table(table, total, total_with_cp, complication):
    plain = roll("3D", ruleset=HOUSE, rng=FixedDice([4, 2, 1, table]))
    assert plain.total == total
    assert plain.house_table == table
    assert plain.complication == complication
    with_cp = roll("3D", ruleset=HOUSE, rng=FixedDice([4, 2, 1, table, 5]), cp_dice=1)
    assert with_cp.total == total_with_cp
    assert with_cp.cp == ((5,),)


@pytest.mark.parametrize("table", [3, 5])
def test_house_table_three_to_five_removes_the_one_and_the_highest_die(table):
    result = roll("3D", ruleset=HOUSE, rng=FixedDice([4, 2, 1, table]))
    assert result.removed == (1, 4)
    assert result.total == 2


def test_house_table_is_rolled_only_for_a_wild_die_one():
    result = roll("3D", ruleset=HOUSE, rng=FixedDice([4, 2, 3, 5]), cp_dice=1)
    assert result.house_table is None
    assert result.cp == ((5,),)
    assert result.total == 14


def test_house_table_on_a_one_die_pool():
    result = roll("1D", ruleset=HOUSE, rng=FixedDice([1, 3]))
    assert result.removed == (1,)
    assert result.total == 0


def test_d41_house_damage_roll_taking_the_critical_injury():
    result = roll(
        "5D", ruleset=HOUSE, rng=FixedDice([2, 3, 4, 5, 6]), offer_crit=lambda chain: True
    )
    assert result.total == 20
    assert result.critical_injury
    assert result.wild == (6,)


def test_d41_house_damage_roll_exploding_instead_cb22():
    result = roll(
        "5D", ruleset=HOUSE, rng=FixedDice([2, 3, 4, 5, 6, 4]), offer_crit=lambda chain: False
    )
    assert result.total == 24
    assert not result.critical_injury


def test_critical_injuries_are_not_offered_without_the_house_rule():
    result = roll("2D", ruleset=RuleSet(), rng=FixedDice([2, 6, 3]), offer_crit=lambda chain: True)
    assert result.wild == (6, 3)
    assert not result.critical_injury


# --- draw order (§2.6) ------------------------------------------------------------------------
def test_dice_are_drawn_ordinary_then_wild_then_house_table_then_cp():
    result = roll("3D", ruleset=HOUSE, rng=FixedDice([5, 4, 1, 3, 6, 2, 2]), cp_dice=2)
    assert result.normal == (5, 4)
    assert result.wild == (1,)
    assert result.house_table == 3
    assert result.cp == ((6, 2), (2,))
    assert result.total == (5 + 4 + 1) - (1 + 5) + 8 + 2


# --- pools: Force Point, MAP, penalties, 0D ---------------------------------------------------
def test_a_force_point_doubles_the_pool_before_rolling():
    result = roll("2D+1", ruleset=RC, rng=FixedDice([1, 2, 3, 4]), force_point=True)
    assert result.pool == DieCode(4, 2)
    assert result.code == DieCode(2, 1)
    assert result.force_point
    assert result.total == 12


@pytest.mark.parametrize(
    ("actions", "penalty", "pool"),
    [(1, 0, "4D+1"), (2, 0, "3D+1"), (3, 0, "2D+1"), (2, 1, "2D+1"), (6, 0, "0D+1")],
)
def test_each_action_beyond_the_first_and_each_penalty_die_take_1d(actions, penalty, pool):
    assert effective_pool(
        "4D+1", actions=actions, penalty_dice=penalty, ruleset=RuleSet()
    ) == DieCode.parse(pool)


def test_a_rolled_pool_carries_the_multiple_action_penalty():
    result = roll("4D", ruleset=RC, rng=FixedDice([6, 6]), actions=3)
    assert result.pool == DieCode(2)
    assert result.total == 12


def test_bonus_dice_are_added_to_the_pool_before_penalties():
    assert effective_pool("3D", bonus="+1D+2", actions=2, ruleset=RuleSet()) == DieCode(3, 2)


@pytest.mark.parametrize(("actions", "penalty"), [(0, 0), (1, -1)])
def test_impossible_action_counts_and_penalties_are_refused(actions, penalty):
    with pytest.raises(DiceError):
        effective_pool("4D", actions=actions, penalty_dice=penalty, ruleset=RuleSet())


def test_a_0d_pool_rolls_no_dice_and_counts_its_pips():
    result = roll("0D+2", ruleset=RuleSet(), rng=FixedDice([]))
    assert result.total == 2
    assert result.normal == ()
    assert result.wild == ()


def test_a_pool_reduced_to_0d_by_penalties_totals_its_pips():
    assert roll("1D+1", ruleset=RuleSet(), rng=FixedDice([]), actions=2).total == 1


def test_a_negative_total_counts_as_zero():
    assert roll("3D-6", ruleset=RC, rng=FixedDice([1, 2, 1])).total == 0
    assert roll("0D-2", ruleset=RuleSet(), rng=FixedDice([])).total == 0


def test_a_flat_modifier_is_added_to_the_total():
    result = roll("2D", ruleset=RC, rng=FixedDice([3, 4]), modifier=5)
    assert result.total == 12
    assert result.modifier == 5


@given(pools, st.integers(min_value=0, max_value=3), st.integers(min_value=0, max_value=10_000))
def test_a_roll_is_never_negative_and_keeps_every_die(code, cp, seed):
    result = roll(code, ruleset=RuleSet(wild_die_one="subtract"), rng=SeededDice(seed), cp_dice=cp)
    assert result.total >= 0
    kept = sum(result.normal) + sum(result.wild) + sum(sum(c) for c in result.cp)
    assert result.total == max(0, kept + code.pips - sum(result.removed))


@given(pools, st.integers(min_value=0, max_value=10_000))
def test_the_same_seed_rolls_the_same_result(code, seed):
    assert roll(code, ruleset=RuleSet(), rng=SeededDice(seed)) == roll(
        code, ruleset=RuleSet(), rng=SeededDice(seed)
    )


def test_system_dice_roll_real_dice():
    result = roll("3D", ruleset=RuleSet(), rng=SystemDice())
    assert len(result.normal) == 2
    assert result.total >= 2


def test_a_roll_serialises_every_die_to_json():
    result = roll("3D", ruleset=HOUSE, rng=FixedDice([5, 4, 1, 3, 6, 2]), cp_dice=1, modifier=1)
    data = json.loads(json.dumps(result.to_json()))
    assert data["code"] == "3D"
    assert data["normal"] == [5, 4]
    assert data["wild"] == [1]
    assert data["house_table"] == 3
    assert data["cp"] == [[6, 2]]
    assert data["removed"] == [1, 5]
    assert data["total"] == result.total == 13


# ---------------------------------------------------------------------------------------------
# A stored roll: Roll.to_json / Roll.from_json
# ---------------------------------------------------------------------------------------------
rulesets = st.sampled_from(
    [RuleSet(), HOUSE, RC, *(wild_one(o) for o in ("subtract", "normal", "gm_choice"))]
)


@st.composite
def rolls(draw: st.DrawFn) -> Roll:
    """Rolls as the engine makes them, under every Wild Die 1 rule, with CP dice, a Force
    Point, extra actions, modifiers and the House critical-injury offer."""
    keep_crit = draw(st.booleans())
    return roll(
        draw(pools),
        ruleset=draw(rulesets),
        rng=SeededDice(draw(st.integers(min_value=0, max_value=10_000))),
        actions=draw(st.integers(min_value=1, max_value=3)),
        penalty_dice=draw(st.integers(min_value=0, max_value=2)),
        modifier=draw(st.integers(min_value=-5, max_value=5)),
        cp_dice=draw(st.integers(min_value=0, max_value=2)),
        force_point=draw(st.booleans()),
        offer_crit=lambda chain: keep_crit,
    )


@given(rolls())
def test_a_stored_roll_reads_back_as_the_same_roll(result):
    assert Roll.from_json(result.to_json()) == result


@given(rolls())
def test_a_roll_survives_a_trip_through_json_text(result):
    assert Roll.from_json(json.loads(json.dumps(result.to_json()))) == result


def test_a_stored_roll_may_carry_the_apps_own_keys():
    result = roll("3D", ruleset=HOUSE, rng=FixedDice([5, 4, 1, 3, 6, 2]), cp_dice=1)
    stored = {**result.to_json(), "actions": 1, "wound_penalty": 0, "trait": "blaster"}
    assert Roll.from_json(stored) == result


def _stored(**changes):
    data = roll("3D", ruleset=RuleSet(), rng=FixedDice([5, 4, 3])).to_json()
    return {**data, **changes}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("3D", "a stored roll is a JSON object"),
        ({"pool": "3D", "normal": [5, 4], "total": 12}, "has no 'code'"),
        (_stored(code="4X"), "code"),
        (_stored(normal=[5, 7]), "a d6 shows 1 to 6"),
        (_stored(normal=[5, True]), "a d6 shows 1 to 6"),
        (_stored(normal="54"), "'normal' must be a list"),
        (_stored(cp=[5]), "'cp' must be a list of lists"),
        (_stored(total=13), "does not match its dice"),
        (_stored(total=-1), "does not match its dice"),
        (_stored(modifier="2"), "'modifier' must be a whole number"),
        (_stored(critical_injury="no"), "'critical_injury' must be true or false"),
        (_stored(complication=3), "'complication' must be text or null"),
        (_stored(house_table=7), "'house_table' must be a d6 face or null"),
        (_stored(notes=[1]), "'notes' must be a list of text"),
    ],
)
def test_a_damaged_stored_roll_is_refused_with_a_reason(data, message):
    with pytest.raises(DiceError, match=message):
        Roll.from_json(data)
