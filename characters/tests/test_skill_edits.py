"""The GM adds, changes and removes skills and specializations on a sheet; each edit is
audited (SkillEdit), none is an advancement; players cannot edit skills."""

from __future__ import annotations

import pytest

from characters.models import Advancement, LedgerEntry, Skill, SkillEdit
from characters.skill_edits import NotAllowed, SkillEditError, gm_remove_skill, gm_set_skill
from characters.tests.advancement_fixtures import campaign_for, character_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet():
    campaign = campaign_for("2e")
    character = character_with(campaign, cp=10, skills=[("blaster", "4D+2")])
    return campaign.created_by, character


def _skills(character):
    return sorted(
        Skill.objects.filter(character=character).values_list(
            "name", "code", "attribute", "kind", "base_skill"
        )
    )


def _edits(character):
    return list(
        SkillEdit.objects.filter(character=character)
        .order_by("pk")
        .values_list("action", "skill_name", "before", "after")
    )


def test_the_gm_adds_a_specialization(sheet):
    gm, character = sheet
    gm_set_skill(
        character,
        actor=gm,
        name="blaster: heavy blaster pistol",
        code="5D+1",
        attribute="dexterity",
        kind="specialization",
        base_skill="blaster",
    )
    spec = Skill.objects.get(character=character, kind="specialization")
    assert (str(spec.code), spec.base_skill) == ("5D+1", "blaster")
    assert _edits(character) == [("add", "blaster: heavy blaster pistol", "", "5D+1")]
    edit = SkillEdit.objects.get()
    assert edit.actor == gm


def test_the_gm_changes_a_skill_and_the_change_is_audited(sheet):
    gm, character = sheet
    skill = character.skills.get()
    gm_set_skill(
        character,
        actor=gm,
        name="Blaster",
        code="3D",
        attribute="dexterity",
        kind="skill",
        skill=skill,
    )
    skill.refresh_from_db()
    assert (skill.name, str(skill.code)) == ("Blaster", "3D")
    assert _edits(character) == [("change", "Blaster", "4D+2", "3D")]
    assert "renamed from blaster" in SkillEdit.objects.get().detail


def test_an_edit_that_changes_nothing_records_nothing(sheet):
    gm, character = sheet
    skill = character.skills.get()
    gm_set_skill(
        character,
        actor=gm,
        name="blaster",
        code="4D+2",
        attribute="dexterity",
        kind="skill",
        skill=skill,
    )
    assert _edits(character) == []


def test_the_gm_removes_a_skill(sheet):
    gm, character = sheet
    gm_remove_skill(character.skills.get(), actor=gm)
    assert _skills(character) == []
    assert _edits(character) == [("remove", "blaster", "4D+2", "")]


def test_a_gm_edit_is_not_an_advancement(sheet):
    gm, character = sheet
    gm_set_skill(character, actor=gm, name="dodge", code="4D", attribute="dexterity", kind="skill")
    character.refresh_from_db()
    assert character.character_points == 10
    assert not Advancement.objects.exists()
    assert LedgerEntry.objects.filter(character=character).count() == 1  # the starting points


def test_a_player_cannot_add_change_or_remove_a_skill(sheet):
    _, character = sheet
    player = character.owner
    before = _skills(character)
    with pytest.raises(NotAllowed):
        gm_set_skill(
            character, actor=player, name="dodge", code="9D", attribute="dexterity", kind="skill"
        )
    with pytest.raises(NotAllowed):
        gm_set_skill(
            character,
            actor=player,
            name="blaster",
            code="9D",
            attribute="dexterity",
            kind="skill",
            skill=character.skills.get(),
        )
    with pytest.raises(NotAllowed):
        gm_remove_skill(character.skills.get(), actor=player)
    assert _skills(character) == before
    assert _edits(character) == []


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "x" * 81}, "too long"),
        ({"name": "dod\x00ge"}, "NUL"),
        ({"name": "  "}, "name the skill"),
        ({"name": "BLASTER"}, "already has"),
        ({"code": "4D+3"}, "3 pips"),
        ({"code": "0D"}, "at least 0D\\+1"),
        ({"code": "banana"}, "a die code uses only digits"),
        ({"code": 12}, "like 4D\\+2"),
        ({"attribute": "luck"}, "attribute"),
        ({"kind": "talent"}, "kind of skill"),
        ({"kind": "force"}, "Force skill"),
        ({"base_skill": "blaster"}, "only a specialization"),
        ({"kind": "specialization", "base_skill": "b\x00"}, "NUL"),
    ],
)
def test_bad_skill_edits_get_a_clear_message_and_change_nothing(sheet, fields, message):
    gm, character = sheet
    before = _skills(character)
    values = {
        "name": "dodge",
        "code": "4D",
        "attribute": "dexterity",
        "kind": "skill",
        **fields,
    }
    with pytest.raises(SkillEditError, match=message):
        gm_set_skill(character, actor=gm, **values)
    assert _skills(character) == before
    assert _edits(character) == []
