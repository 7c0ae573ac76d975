"""The schools part of a campaign backup (characters.school_backup): a school and its enrolment
travel (tests/test_backup_round_trip.py proves the round trip with the rich campaign's); a
damaged school or enrolment is refused, naming its place, and nothing is written."""

import json

import pytest

from tests.backups import export_text, rich_campaign
from tests.test_backup_damaged import refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def document():
    return json.loads(export_text(rich_campaign()))


def enrolment(doc):
    return doc["parts"]["schools"][0]["enrolments"][0]


def test_the_rich_campaigns_school_and_student_are_in_the_file(document):
    (school,) = document["parts"]["schools"]
    assert school["name"] == "NCO Leadership I"
    assert school["bonuses"][0] == ["perception", "command", 2]
    student = enrolment(document)
    assert (student["status"], student["cp_owed"], student["state"]["days_needed"]) == (
        "attending",
        5,
        21,  # 3 weeks of 7 days: the campaign uses the House costs, not the House calendar
    )
    rook = next(c for c in document["parts"]["characters"] if c["name"] == "Rook Daran")
    assert rook["cp_owed"] == 3  # owed 5; 2 of the 3 CP awarded after repaid it


def _bad_bonus(doc):
    doc["parts"]["schools"][0]["bonuses"][0] = ["luck", "gambling", 1]


def _zero_weeks(doc):
    doc["parts"]["schools"][0]["weeks"] = 0


def _bad_state(doc):
    enrolment(doc)["state"] = {"days_needed": 2, "days_done": 3}


def _two_schools_at_once(doc):
    school = doc["parts"]["schools"][0]
    second = json.loads(json.dumps(school))
    second["ref"] = school["ref"] + 1
    second["name"] = "Pilot School"
    for e in second["enrolments"]:
        e["ref"] = e["ref"] + 100
    doc["parts"]["schools"].append(second)


def _attending_but_finished(doc):
    enrolment(doc)["finished_day"] = 3


def _unknown_student(doc):
    enrolment(doc)["character"] = 999


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (_bad_bonus, "parts.schools[0].bonuses: not a list of [attribute, skill, pips]"),
        (_zero_weeks, "parts.schools[0].weeks: a school lasts at least a week"),
        (_bad_state, "parts.schools[0].enrolments[0].state: not a school enrolment"),
        (_two_schools_at_once, "parts.schools[1].enrolments[0].status: the character is already"),
        (_attending_but_finished, "parts.schools[0].enrolments[0].finished_day: null while"),
        (_unknown_student, "parts.schools[0].enrolments[0].character: ref 999"),
    ],
    ids=lambda v: getattr(v, "__name__", "")[1:],
)
def test_a_damaged_school_is_refused_naming_the_place(document, damage, message):
    damage(document)
    problems = refused(document)
    assert any(p.startswith(message) or message in p for p in problems), problems
