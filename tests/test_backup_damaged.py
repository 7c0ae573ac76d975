"""A damaged backup is refused whole: the problem is named with its place in the file, and the
database is left exactly as it was (every table counted before and after). Run on PostgreSQL
too (scripts/test.sh): its columns' lengths and NUL refusal are the ones that matter."""

import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from campaigns.backup import BackupRefused, read_backup, restore_campaign
from tests.backups import export_text, rich_campaign

pytestmark = pytest.mark.django_db


def every_row() -> dict[str, int]:
    """Rows of every model of the project's apps and of the users (not the log-in log)."""
    models = [
        m
        for a in ("campaigns", "characters", "encounters", "auth")
        for m in apps.get_app_config(a).get_models()
    ]
    return {m._meta.label: m._default_manager.count() for m in models}


@pytest.fixture
def document():
    return json.loads(export_text(rich_campaign()))


def character(doc, name="Tala Voss"):
    return next(c for c in doc["parts"]["characters"] if c["name"] == name)


def refused(doc) -> list[str]:
    """The problems the restore names; asserts that nothing was written."""
    before = every_row()
    gm = get_user_model().objects.get(username="gm")
    with pytest.raises(BackupRefused) as caught:
        restore_campaign(doc, importer=gm)
    assert every_row() == before
    return caught.value.lines()


def set_version(doc):
    doc["version"] = 2


def bad_skill_code(doc):
    character(doc)["skills"][2]["code"] = "9D+7"


def no_owner(doc):
    del character(doc)["owner"]


def bad_roll_ref(doc):
    spend = next(e for e in doc["parts"]["ledger"] if e["roll"])
    spend["roll"] = 999


def long_name(doc):
    character(doc)["name"] = "T" * 101


def unknown_combatant(doc):
    doc["parts"]["encounters"][0]["state"]["combatants"][0]["id"] = "pc-99"


def balance_off(doc):
    character(doc)["character_points"] += 1


def roll_total_off(doc):
    doc["parts"]["rolls"][0]["total"] += 1


def nul_in_text(doc):
    character(doc)["notes"] = "a\x00b"


def nul_in_json(doc):
    doc["parts"]["rolls"][0]["dice"]["notes"] = ["a\x00b"]


def lone_surrogate(doc):
    character(doc)["name"] = "Tala \ud800"


def nan_in_json(doc):
    doc["parts"]["stat_blocks"][0]["block"]["count"] = float("nan")


def year_one_in_the_east(doc):
    doc["parts"]["rolls"][0]["created_at"] = "0001-01-01T00:00:00+05:00"


def bad_wound(doc):
    character(doc)["wound_level"] = "bruised"


def bad_rule_option(doc):
    doc["campaign"]["rule_options"] = {"wild_die": "sometimes"}


def same_skill_twice(doc):
    skills = character(doc)["skills"]
    skills[1]["name"] = skills[0]["name"]


def unknown_part(doc):
    doc["parts"]["ships"] = []


def unknown_field(doc):
    character(doc)["hit_points"] = 3


def bad_library_entry(doc):
    doc["parts"]["library"][0]["data"]["attributes"]["strength"]["max"] = "99D"


def huge_move(doc):
    character(doc)["move"] = 99_999


def bad_step(doc):
    doc["parts"]["encounters"][0]["steps"][0]["command"]["type"] = "teleport"


def bad_trait_skill(doc):
    roll = next(r for r in doc["parts"]["rolls"] if r["dice"]["trait"].startswith("skill:"))
    roll["dice"]["trait"] = "skill:999"


def droid(doc):
    return next(c for c in doc["parts"]["characters"] if c["nature"] == "droid")


def droid_skill_too_high(doc):
    droid(doc)["droid_design"]["skills"][0]["code"] = "14D"


def design_on_an_organic(doc):
    character(doc)["droid_design"] = droid(doc)["droid_design"]


DAMAGES = [
    (set_version, "version: the file is version 2 of the format; this server reads version 1"),
    (bad_skill_code, "parts.characters[0].skills[2].code: '9D+7' is not a die code"),
    (no_owner, "parts.characters[0].owner: missing"),
    (bad_roll_ref, "roll: ref 999 names no record of parts.rolls"),
    (long_name, "parts.characters[0].name: is 101 characters long; at most 100"),
    (unknown_combatant, "parts.encounters[0].state.combatants[0].id: 'pc-99' names no character"),
    (balance_off, "parts.characters[0].character_points: 19 but its ledger ends at 18"),
    (roll_total_off, "parts.rolls[0].total:"),
    (nul_in_text, "parts.characters[0].notes: holds a NUL character"),
    (nul_in_json, "parts.rolls[0].dice: text in it holds a NUL character"),
    (lone_surrogate, "parts.characters[0].name: is not valid Unicode text"),
    (nan_in_json, "parts.stat_blocks[0].block: holds a number JSON cannot hold"),
    (year_one_in_the_east, "parts.rolls[0].created_at: '0001-01-01T00:00:00+05:00' is out of"),
    (bad_wound, "parts.characters[0].wound_level: 'bruised' is not one of"),
    (droid_skill_too_high, ".droid_design: not a droid design this server can read"),
    (design_on_an_organic, "parts.characters[0].droid_design: only a droid has a droid design"),
    (bad_rule_option, "campaign.rule_options: not rule options this server knows"),
    (
        same_skill_twice,
        "parts.characters[0].skills[1]: the same name as parts.characters[0].skills[0]",
    ),
    (unknown_part, "parts.ships: this server has no such part"),
    (unknown_field, "parts.characters[0].hit_points: is not a field of version 1"),
    (bad_library_entry, "parts.library[0].data.attributes.strength.max"),
    (huge_move, "parts.characters[0].move: 99999 is outside 0…32767"),
    (bad_step, "parts.encounters[0].steps[0].command: not a step this server can read"),
    (bad_trait_skill, "parts.rolls[0].dice.trait: 'skill:999'"),
]


@pytest.mark.parametrize(("damage", "message"), DAMAGES, ids=[d.__name__ for d, _ in DAMAGES])
def test_a_damaged_file_is_refused_naming_the_place_and_nothing_changes(document, damage, message):
    damage(document)
    problems = refused(document)
    assert any(p.startswith(message) or message in p for p in problems), problems


def test_every_problem_is_listed_at_once(document):
    bad_skill_code(document)
    long_name(document)
    bad_roll_ref(document)
    problems = refused(document)
    assert len(problems) == 3, problems


def nul_in_a_json_key(doc):
    doc["parts"]["stat_blocks"][0]["block"]["a\x00b"] = 1


def surrogate_in_json(doc):
    doc["parts"]["rolls"][0]["dice"]["notes"] = ["\udc80"]


def infinite_in_json(doc):
    doc["parts"]["stat_blocks"][0]["block"]["count"] = 123456789


FROM_TEXT = [
    (nul_in_json, "parts.rolls[0].dice: text in it holds a NUL character"),
    (nul_in_a_json_key, "parts.stat_blocks[0].block: text in it holds a NUL character"),
    (surrogate_in_json, "parts.rolls[0].dice: text in it is not valid Unicode"),
    (infinite_in_json, "parts.stat_blocks[0].block: holds a number JSON cannot hold"),
]


@pytest.mark.parametrize(("damage", "message"), FROM_TEXT, ids=[d.__name__ for d, _ in FROM_TEXT])
def test_a_file_whose_text_hides_a_bad_json_value_is_refused_naming_the_place(
    document, damage, message
):
    """What a JSON column may not hold (PostgreSQL's JSON has no NUL, no lone surrogate, no
    infinity), written in the file's text as escapes (``\\u0000``, ``\\udc80``) or as a
    number too large for a float (``1e999``): read from the file, it is found all the same."""
    damage(document)
    text = json.dumps(document).replace("123456789", "1e999")
    problems = refused(read_backup(text.encode()))
    assert any(p.startswith(message) for p in problems), problems


def test_a_file_that_is_not_json_is_refused():
    with pytest.raises(BackupRefused, match="not JSON"):
        read_backup(b'{"format": "datapad-campaign", "version": 1, "parts": {')


def test_a_file_with_nan_is_refused():
    with pytest.raises(BackupRefused, match="NaN is not a JSON number"):
        read_backup(b'{"format": "datapad-campaign", "version": NaN}')


def test_a_file_of_another_kind_is_refused(document):
    document["format"] = "datapad-library"
    assert refused(document) == [
        "format: 'datapad-library' is not a Datapad campaign backup "
        '(that says "format": "datapad-campaign")'
    ]


def test_the_command_refuses_a_damaged_file_and_exits_non_zero(document, tmp_path, capsys):
    bad_skill_code(document)
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    before = every_row()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_campaign", str(path), "--owner", "gm")
    assert "parts.characters[0].skills[2].code: '9D+7' is not a die code" in capsys.readouterr().err
    assert every_row() == before
