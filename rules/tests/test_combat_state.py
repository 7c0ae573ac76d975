"""Combat values an encounter stores (declared actions, damage results, range difficulties,
called shots, armour, weapon ranges), reaction skills, the one multiple-action penalty and the
public surface of rules.combat."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules.combat
import rules.dice
import rules.scale
from rules import RulesError
from rules.combat import (
    REACTION_SKILLS,
    ActionCount,
    Armour,
    CalledShot,
    CombatError,
    DamageResult,
    RangeDifficulty,
    WeaponRange,
    damage_result,
    initiative_roller,
    is_reaction_skill,
    multiple_action_penalty,
    range_difficulty,
    reaction_roll_kind,
)
from rules.dice import DieCode, effective_pool, rollable_pool
from rules.difficulty import DifficultyLevel
from rules.injuries import Duration, WoundLevel
from rules.ruleset import RuleSet

STD = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")
D = DieCode.parse


# --- One multiple-action penalty -------------------------------------------------------------
def test_the_sheet_and_the_encounter_share_one_multiple_action_penalty():
    assert rules.combat.multiple_action_penalty is rules.dice.multiple_action_penalty


def test_the_sheets_pool_takes_the_multiple_action_penalty():
    for actions in range(1, 5):
        penalty = multiple_action_penalty(actions, ruleset=STD)
        assert effective_pool("6D", actions=actions, ruleset=STD) == D("6D").minus_dice(penalty)


def test_a_pool_too_small_says_what_the_actions_took():
    with pytest.raises(RulesError, match="3 actions take 2D"):
        rollable_pool("2D", actions=3, ruleset=STD)


def test_a_full_auto_round_costs_one_die_more_in_a_house_campaign():
    count = ActionCount(2, full_auto=True)
    assert count.penalty_dice(ruleset=HOUSE) == 2
    with pytest.raises(RulesError, match="House automatic-fire"):
        count.penalty_dice(ruleset=STD)


def test_rc_surprise_haste_is_free():
    assert ActionCount(3, free=2).penalty_dice(ruleset=RC) == 0


# --- Reaction skills -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("dodge", "dodge"),
        ("Dodge", "dodge"),
        ("  melee   parry ", "parry"),
        ("Brawling Parry", "parry"),
        ("vehicle dodge", "dodge"),
        ("starship dodge", "dodge"),
        ("blaster", None),
        ("lightsaber", None),
        ("melee combat", None),
    ],
)
def test_reaction_skills_and_their_roll_kind(name, kind):
    assert reaction_roll_kind(name) == kind
    assert is_reaction_skill(name) is (kind is not None)


def test_the_reaction_skills_are_the_five_the_sheet_knew():
    assert set(REACTION_SKILLS) == {
        "dodge",
        "melee parry",
        "brawling parry",
        "vehicle dodge",
        "starship dodge",
    }


def test_the_reaction_skill_table_cannot_be_changed_by_a_caller():
    with pytest.raises(TypeError):
        REACTION_SKILLS["blaster"] = "dodge"  # type: ignore[index]


def test_a_reaction_skill_name_must_be_text():
    with pytest.raises(CombatError):
        is_reaction_skill(3)  # type: ignore[arg-type]


# --- Refusals are combat errors --------------------------------------------------------------
def test_an_unknown_range_band_is_a_combat_error():
    with pytest.raises(CombatError, match="unknown range band"):
        range_difficulty("across the room", ruleset=STD)


def test_an_unknown_band_on_the_house_range_floor_is_a_combat_error():
    with pytest.raises(CombatError, match="unknown range band"):
        damage_result(10, 5, ruleset=HOUSE, range_band="arm's length")


def test_an_unknown_wound_level_at_initiative_is_a_combat_error():
    with pytest.raises(CombatError, match="unknown wound level"):
        initiative_roller([("P1", "3D", "bruised")], ruleset=STD)


def test_a_weapon_range_is_text():
    with pytest.raises(CombatError):
        WeaponRange.parse(None)  # type: ignore[arg-type]


def test_a_combat_error_is_a_rules_error():
    assert issubclass(CombatError, RulesError)


# --- Stored forms ----------------------------------------------------------------------------
codes = st.builds(DieCode, st.integers(0, 12), st.integers(0, 2))
durations = st.builds(Duration, st.integers(1, 20), st.sampled_from(["rounds", "minutes"]))


@st.composite
def action_counts(draw: st.DrawFn) -> ActionCount:
    declared = draw(st.integers(1, 8))
    extra = draw(st.integers(0, 3))
    return ActionCount(
        declared,
        extra,
        draw(st.integers(0, declared)),
        draw(st.integers(0, declared + extra)),
        draw(st.booleans()),
    )


@st.composite
def weapon_ranges(draw: st.DrawFn) -> WeaponRange:
    a, b, c, d = sorted(draw(st.lists(st.integers(0, 1000), min_size=4, max_size=4)))
    return WeaponRange(a, b, c, d)


@st.composite
def range_difficulties(draw: st.DrawFn) -> RangeDifficulty:
    low = draw(st.integers(1, 40))
    return RangeDifficulty(
        DifficultyLevel(draw(st.integers(0, 8))), low, low + draw(st.integers(0, 9))
    )


damage_results = st.builds(
    DamageResult,
    st.sampled_from(list(WoundLevel)),
    st.integers(-40, 40),
    st.integers(0, 3),
    st.none() | durations,
    st.booleans(),
)
called_shots = st.builds(CalledShot, codes, codes)
armours = st.builds(Armour, codes, codes, codes)


@pytest.mark.parametrize(
    "strategy",
    [action_counts(), damage_results, range_difficulties(), called_shots, armours, weapon_ranges()],
)
def test_stored_forms_round_trip(strategy):
    @given(strategy)
    def round_trip(value):
        data = value.to_json()
        assert type(value).from_json(data) == value
        assert type(value).from_json(json.loads(json.dumps(data))) == value

    round_trip()


@pytest.mark.parametrize(
    ("cls", "data"),
    [
        (ActionCount, {"declared": 0}),
        (ActionCount, {"declared": 2, "used": 3}),
        (ActionCount, {"declared": 2, "free": 5}),
        (ActionCount, {"declared": "2"}),
        (ActionCount, {"declared": 2, "full_auto": "yes"}),
        (ActionCount, [2]),
        (DamageResult, {"level": "bruised", "margin": 3}),
        (DamageResult, {"level": "wounded", "margin": 3, "stun_points": -1}),
        (DamageResult, {"level": "wounded"}),
        (DamageResult, {"level": "none", "margin": 0, "unconscious_for": {"dice": 0, "unit": "x"}}),
        (RangeDifficulty, {"level": {"level": "Moderate"}, "low": 15, "high": 11}),
        (RangeDifficulty, {"level": "Moderate", "low": 11, "high": 15}),
        (CalledShot, {"difficulty": 4, "damage_bonus": "0D"}),
        (CalledShot, {"difficulty": "lots", "damage_bonus": "0D"}),
        (Armour, {"energy": "2D", "colour": "white"}),
        (WeaponRange, {"ranges": "10/20"}),
        (WeaponRange, {"ranges": "30-10/50/100"}),
    ],
)
def test_bad_stored_data_is_refused_with_a_rules_error(cls, data):
    with pytest.raises(RulesError):
        cls.from_json(data)


def test_a_stored_damage_result_reads_back_as_the_same_hit():
    hit = damage_result(16, 12, ruleset=HOUSE, stun_weapon=True)
    assert DamageResult.from_json(hit.to_json()) == hit
    assert hit.to_json()["unconscious_for"] == {"dice": 4, "unit": "rounds"}


# --- The public surface ----------------------------------------------------------------------
def _public_callables(module):
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isfunction(obj):
            yield name, obj
        elif inspect.isclass(obj):
            for attr, fn in vars(obj).items():
                if attr[0] != "_" and isinstance(fn, (classmethod, staticmethod)):
                    fn = fn.__func__
                if attr[0] != "_" and inspect.isfunction(fn):
                    yield f"{name}.{attr}", fn


@pytest.mark.parametrize("module", [rules.combat, rules.scale])
def test_options_and_dice_are_required_keywords(module):
    for name, fn in _public_callables(module):
        for param in inspect.signature(fn).parameters.values():
            if param.name in ("ruleset", "rng"):
                assert param.kind is param.KEYWORD_ONLY, (name, param.name)
                assert param.default is param.empty, (name, param.name)


def test_combat_does_not_import_the_craft_rules():
    code = (
        "import sys, rules.combat; "
        "print(sorted(m for m in sys.modules if 'ship' in m or 'craft' in m))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == "[]"
