"""The campaign's rule options (dice-and-core.md §0.2): defaults, presets, storage, validation."""

import dataclasses
import json
import types
import typing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.ruleset import PRESET_LABELS, PRESETS, SOURCES, RuleSet, RuleSetError
from rules.time import DAYS_PER_MONTH, days_per_week, weeks_to_days
from rules.traits import attribute_key

HINTS = typing.get_type_hints(RuleSet)
FIELDS = tuple(f.name for f in dataclasses.fields(RuleSet))
NUMBERS = tuple(name for name in FIELDS if HINTS[name] is int)


def strategy_for(hint: typing.Any, name: str) -> st.SearchStrategy:
    """Valid values of one option, from its annotation and its range."""
    if typing.get_origin(hint) is typing.Literal:
        return st.sampled_from(typing.get_args(hint))
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return st.one_of([strategy_for(arm, name) for arm in typing.get_args(hint)])
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        option = RuleSet.option(name)
        return st.integers(min_value=option.minimum, max_value=option.maximum)
    assert hint is str, f"no strategy for {hint!r}"
    return st.sampled_from(["2D", "3D+1", "4D"])


option_sets = st.fixed_dictionaries(
    {}, optional={name: strategy_for(HINTS[name], name) for name in FIELDS}
)


# --- defaults and presets ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("wild_die", True),
        ("wild_die_on_damage", True),
        ("difficulty_scale", "2e"),
        ("combined_actions", "command"),
        ("preparing", "double_time"),
        ("uncertainty_dice", False),
        ("difficulty_dice", "roll"),
        ("critical_injuries", "none"),
    ],
)
def test_the_defaults_are_second_edition_revised_and_expanded(name, value):
    assert getattr(RuleSet(), name) == value


def test_the_2e_preset_is_the_defaults():
    assert RuleSet.preset("2e") == RuleSet()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("wild_die", True),
        ("wild_die_one", "house_table"),
        ("normalize_pips_in_play", True),
        ("difficulty_scale", "2e"),
        ("combined_actions", "command"),
        ("preparing", "double_time"),
        ("uncertainty_dice", False),
        ("critical_injuries", "house"),
    ],
)
def test_the_house_preset_follows_the_house_rules(name, value):
    assert getattr(RuleSet.preset("house"), name) == value


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("wild_die", False),
        ("normalize_pips_in_play", False),
        ("difficulty_scale", "rc"),
        ("combined_actions", "rc_support"),
        ("preparing", "rc_prepare_round"),
        ("uncertainty_dice", False),
        ("rc_optional_haste", True),
    ],
)
def test_the_rc_preset_follows_the_rules_companion(name, value):
    assert getattr(RuleSet.preset("rc"), name) == value


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_names_real_options_with_valid_values(name):
    assert set(PRESETS[name]) <= set(FIELDS)
    ruleset = RuleSet.preset(name)
    assert ruleset.differences() == {
        key: (getattr(RuleSet(), key), value)
        for key, value in PRESETS[name].items()
        if getattr(RuleSet(), key) != value
    }


def test_a_preset_takes_overrides():
    ruleset = RuleSet.preset("rc", uncertainty_dice=True)
    assert ruleset.uncertainty_dice
    assert ruleset.difficulty_scale == "rc"


def test_an_unknown_preset_is_refused_with_the_choices():
    with pytest.raises(RuleSetError, match=r"unknown rule preset 'dnd'.*2e, house, rc"):
        RuleSet.preset("dnd")


def test_a_preset_override_with_a_bad_value_is_refused():
    with pytest.raises(RuleSetError, match="difficulty_scale"):
        RuleSet.preset("house", difficulty_scale="3e")


# --- JSON storage -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_survives_a_json_round_trip(name):
    ruleset = RuleSet.preset(name)
    text = json.dumps(ruleset.to_json())
    assert RuleSet.from_json(text) == ruleset
    assert RuleSet.from_json(json.loads(text)) == ruleset


@given(option_sets)
def test_any_valid_choice_of_options_survives_a_json_round_trip(options):
    ruleset = RuleSet(**options)
    assert RuleSet.from_json(json.dumps(ruleset.to_json())) == ruleset


@given(option_sets)
def test_options_left_out_take_their_defaults(options):
    ruleset = RuleSet.from_json(options)
    defaults = RuleSet()
    for name in FIELDS:
        expected = options.get(name, getattr(defaults, name))
        assert getattr(ruleset, name) == expected


def test_to_json_lists_every_option():
    assert set(RuleSet().to_json()) == set(FIELDS)


def test_no_stored_options_means_the_defaults():
    assert RuleSet.from_json(None) == RuleSet()
    assert RuleSet.from_json({}) == RuleSet()
    assert RuleSet.from_json("{}") == RuleSet()


def test_an_unknown_key_is_refused_with_its_name():
    with pytest.raises(RuleSetError, match=r"unknown rule option.*wild_dice"):
        RuleSet.from_json({"wild_dice": True})


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"wild_die_one": "explode"}, "wild_die_one"),
        ({"difficulty_scale": "3e"}, "difficulty_scale"),
        ({"wild_die": "yes"}, "wild_die"),
        ({"uncertainty_dice": 1}, "uncertainty_dice"),
        ({"cp_on_damage": 2.5}, "cp_on_damage"),
        ({"cp_on_damage": True}, "cp_on_damage"),
        ({"days_per_week": True}, "days_per_week"),
        ({"days_per_week": 6}, "days_per_week"),
        ({"default_weapon_strength": 2}, "default_weapon_strength"),
        ({"difficulty_dice": "three"}, "difficulty_dice"),
    ],
)
def test_a_bad_value_is_refused_with_the_key_named(data, key):
    with pytest.raises(RuleSetError, match=key):
        RuleSet.from_json(data)


def test_text_that_is_not_json_is_refused():
    with pytest.raises(RuleSetError, match="not valid JSON"):
        RuleSet.from_json("{wild_die: true")


@pytest.mark.parametrize("data", ["[1, 2]", "true", 42])
def test_options_must_be_a_json_object(data):
    with pytest.raises(RuleSetError, match="JSON object"):
        RuleSet.from_json(data)


def test_a_rule_option_error_is_a_value_error():
    assert issubclass(RuleSetError, ValueError)


# --- replace, immutability, differences, choices ----------------------------------------------
def test_replace_returns_a_changed_copy_and_leaves_the_original():
    base = RuleSet()
    changed = base.replace(wild_die=False, difficulty_scale="rc")
    assert (changed.wild_die, changed.difficulty_scale) == (False, "rc")
    assert (base.wild_die, base.difficulty_scale) == (True, "2e")


def test_replace_refuses_unknown_options_by_name():
    with pytest.raises(RuleSetError, match=r"unknown rule option.*wild_dice"):
        RuleSet().replace(wild_dice=False)


def test_replace_refuses_bad_values_by_name():
    with pytest.raises(RuleSetError, match="preparing"):
        RuleSet().replace(preparing="forever")


def test_a_ruleset_is_immutable():
    ruleset = RuleSet()
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.wild_die = False  # type: ignore[misc]


def test_equal_rulesets_are_equal_and_hash_alike():
    assert RuleSet.preset("rc") == RuleSet.preset("rc")
    assert hash(RuleSet.preset("rc")) == hash(RuleSet.preset("rc"))
    assert len({RuleSet(), RuleSet.preset("2e"), RuleSet.preset("house")}) == 2


def test_the_defaults_differ_from_nothing():
    assert RuleSet().differences() == {}


def test_differences_list_each_changed_option_as_other_then_ours():
    ruleset = RuleSet(wild_die=False, uncertainty_dice=True)
    assert ruleset.differences() == {"wild_die": (True, False), "uncertainty_dice": (False, True)}


def test_differences_can_compare_with_another_ruleset():
    rc = RuleSet.preset("rc")
    assert rc.replace(uncertainty_dice=True).differences(rc) == {"uncertainty_dice": (False, True)}


def test_choices_name_the_allowed_values():
    assert RuleSet.choices("difficulty_scale") == ("2e", "rc")
    assert RuleSet.choices("difficulty_dice") == ("roll", "fixed")
    assert RuleSet.choices("wild_die") == (False, True)
    assert RuleSet.choices("cp_on_damage") is None


@pytest.mark.parametrize("name", FIELDS)
def test_every_default_is_one_of_its_choices(name):
    choices = RuleSet.choices(name)
    if choices is not None:
        assert getattr(RuleSet(), name) in choices


# --- ranges, words and sources (every option explains itself) ---------------------------------
@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("cp_on_damage", -1),
        ("cp_on_damage", 99999),
        ("cp_on_resist_damage", -2),
        ("cp_on_resist_damage", 99999),
        ("house_extra_cp", -100),
        ("house_extra_cp", 99999),
        ("prone_to_hit_modifier", 99999),
        ("gravity_shift_levels", -1),
        ("gravity_shift_levels", 99999),
    ],
)
def test_a_number_outside_the_rules_range_is_refused_with_the_key_named(name, value):
    with pytest.raises(RuleSetError, match=f"{name}.* or more and at most ") as info:
        RuleSet.from_json({name: value})
    assert info.value.option == name


@pytest.mark.parametrize("name", NUMBERS)
def test_every_number_option_has_a_range_that_holds_its_default_and_presets(name):
    option = RuleSet.option(name)
    assert option.minimum is not None and option.maximum is not None
    for preset in PRESETS:
        assert option.minimum <= getattr(RuleSet.preset(preset), name) <= option.maximum


@pytest.mark.parametrize("name", NUMBERS)
def test_the_ends_of_a_range_are_allowed(name):
    option = RuleSet.option(name)
    assert getattr(RuleSet(**{name: option.minimum}), name) == option.minimum
    assert getattr(RuleSet(**{name: option.maximum}), name) == option.maximum


@pytest.mark.parametrize("value", ["99999", "0D", "0D+2", "11D", "-1D", "4D+7", "two dice"])
def test_a_weapon_body_that_is_no_die_code_in_range_is_refused(value):
    with pytest.raises(RuleSetError, match="default_weapon_strength"):
        RuleSet(default_weapon_strength=value)


def test_a_weapon_body_die_code_or_none_is_allowed():
    assert RuleSet(default_weapon_strength="3D+1").default_weapon_strength == "3D+1"
    assert RuleSet(default_weapon_strength=None).default_weapon_strength is None


def test_a_bad_value_names_its_option_for_forms():
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_json({"wild_die_one": "explode"})
    assert info.value.option == "wild_die_one"


@pytest.mark.parametrize("name", FIELDS)
def test_every_option_says_in_words_what_it_is_and_where_it_comes_from(name):
    option = RuleSet.option(name)
    assert option.label and option.help and option.group
    assert option.source
    assert {tag.strip() for tag in option.source.split(",")} <= set(SOURCES)


@pytest.mark.parametrize("name", FIELDS)
def test_every_choice_has_words_and_a_known_source(name):
    option = RuleSet.option(name)
    choices = RuleSet.choices(name)
    if choices is None:
        return
    assert set(option.choices) == set(choices)
    for value in choices:
        assert option.words(value) and option.words(value) != str(value)
        assert option.source_of(value) in {"", *SOURCES}


def test_choice_words_are_what_a_player_reads():
    option = RuleSet.option("creation_rules")
    assert option.words("2e_std") == "Second Edition: attribute and skill dice"
    assert option.source_of("2e_std") == "2E-STD"
    assert option.source_of("rc_templates") == "RC"


def test_words_tell_true_from_one_and_numbers_carry_their_unit():
    assert RuleSet.option("wild_die").words(True) == "Roll a Wild Die"
    assert RuleSet.option("days_per_week").words(7) == "7-day weeks"
    assert RuleSet.option("cp_on_damage").words(2) == "2 CP"
    assert RuleSet.option("cp_on_damage").range_text == "0 to 5 CP"
    assert RuleSet.option("default_weapon_strength").words(None) == "none"


def test_an_unknown_option_is_refused():
    with pytest.raises(RuleSetError, match="no_such"):
        RuleSet.option("no_such")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_preset_is_recognised_as_itself(name):
    assert RuleSet.preset(name).matching_preset() == name
    assert PRESET_LABELS[name]


def test_a_changed_preset_is_custom():
    assert RuleSet.preset("house", days_per_week=7).matching_preset() is None
    assert RuleSet().matching_preset() == "2e"


def test_options_are_listed_in_order():
    assert [name for name, _ in RuleSet.options()] == list(FIELDS)


def test_option_words_cover_every_kind_of_value():
    assert RuleSet.option("wild_die").range_text == ""
    assert RuleSet.option("default_weapon_strength").range_text == (
        "a die code from 1D to 10D, or blank for none"
    )
    assert RuleSet.option("default_weapon_strength").words("2D") == "2D"
    assert RuleSet.option("gravity_shift_levels").words(3) == "3 rows"
    assert RuleSet.option("wild_die").source_of(True) == "UPG"
    assert RuleSet.option("cp_on_damage").source_of(2) == ""


def test_a_campaign_week_and_month_follow_its_calendar():
    house = RuleSet.preset("house")
    assert days_per_week(ruleset=RuleSet()) == 7
    assert weeks_to_days(2, ruleset=house) == 10
    assert DAYS_PER_MONTH == 35
    assert attribute_key(" Dexterity ") == "dexterity"
    with pytest.raises(RulesError, match="not an attribute"):
        attribute_key("Luck")
