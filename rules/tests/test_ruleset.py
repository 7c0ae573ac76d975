"""The campaign's rule options (dice-and-core.md §0.2): defaults, presets, storage, validation."""

import dataclasses
import json
import types
import typing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.ruleset import PRESETS, RuleSet, RuleSetError

HINTS = typing.get_type_hints(RuleSet)
FIELDS = tuple(f.name for f in dataclasses.fields(RuleSet))


def strategy_for(hint: typing.Any) -> st.SearchStrategy:
    """Valid values of one option, from its annotation."""
    if typing.get_origin(hint) is typing.Literal:
        return st.sampled_from(typing.get_args(hint))
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return st.one_of([strategy_for(arm) for arm in typing.get_args(hint)])
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(min_value=0, max_value=10)
    assert hint is str, f"no strategy for {hint!r}"
    return st.sampled_from(["2D", "3D+1", "4D"])


option_sets = st.fixed_dictionaries(
    {}, optional={name: strategy_for(HINTS[name]) for name in FIELDS}
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
    for name in FIELDS:
        expected = options.get(name, getattr(RuleSet(), name))
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
