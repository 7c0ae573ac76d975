"""A campaign's backup restores as a new campaign that exports to the same file: the demo
campaign with one of everything (tests/backups.py) is exported, imported, exported again, and
the two files are equal apart from the moment of export. The comparison is strict enough to
fail on a dropped skill or a changed roll, and the new campaign's records point at each other,
never at the old campaign's."""

import gc
import json

import pytest
from django.contrib.auth import get_user_model

from campaigns.backup import (
    BackupRefused,
    export_campaign,
    read_backup,
    registered,
    restore_campaign,
)
from campaigns.models import Campaign, Membership
from characters.craft_damage import request_repair
from characters.craft_models import Craft, RepairRequest
from characters.models import (
    Advancement,
    Character,
    DiceRoll,
    LedgerEntry,
    Skill,
    TimeAdvance,
    TraitUse,
)
from characters.repair_jobs import repairs_due, start_craft_repair, start_droid_repair
from characters.repair_models import DroidRepair
from encounters.combatants import character_id_of, craft_id_of
from encounters.models import Encounter
from tests.backups import differences, export_text, normalised, rich_campaign

pytestmark = pytest.mark.django_db


def user(name):
    return get_user_model().objects.get(username=name)


def restored(text, importer="gm", **options):
    return restore_campaign(read_backup(text), importer=user(importer), **options)


class _Ones:
    """Dice that always show 1: every repair roll fails."""

    def d6(self):
        return 1


def _repair_jobs(campaign):
    """A craft repair under way in downtime with a day of rolls, and a droid repair under way
    (issue 19, characters.repair_jobs)."""
    gm = campaign.created_by
    ship = Craft.objects.get(campaign=campaign, name="Corellian Corvette")
    tala = Character.objects.get(campaign=campaign, name="Tala Voss")
    request = request_repair(campaign.memberships.get(user=gm), ship, "maneuverability", payer=tala)
    start_craft_repair(campaign.pk, request.pk, actor=gm, pace="rushed")
    day = Campaign.objects.get(pk=campaign.pk).game_day + 1
    repairs_due(campaign.pk, day, seed=1, rng_for=lambda seed, key: _Ones())
    droid = Character.objects.get(campaign=campaign, name="R2-Q5")
    Character.objects.filter(pk=droid.pk).update(wound_level="wounded")
    start_droid_repair(
        campaign.pk, droid.pk, actor=gm, engineer_id=tala.pk, cost="100", payer_id=tala.pk
    )


@pytest.fixture
def original():
    campaign = rich_campaign()
    _repair_jobs(campaign)
    return campaign


def test_export_import_export_gives_the_same_file(original):
    first = export_text(original)
    copy = restored(first).campaign
    second = export_text(copy)
    assert copy.pk != original.pk
    assert differences(normalised(first), normalised(second)) == []


def test_the_round_trip_campaign_has_a_record_in_every_part(original):
    """Otherwise the round trip would prove nothing for the part left empty."""
    parts = json.loads(export_text(original))["parts"]
    assert {p.name for p in registered()} == set(parts)
    assert [name for name, records in parts.items() if not records] == []
    characters = parts["characters"]
    assert any(c["skills"] and c["items"] for c in characters)
    assert any(c["powers"] for c in characters)
    assert any(c["healing"] and c["healing_events"] for c in characters)
    assert any(c["criticals"] for c in characters)
    assert any(e["steps"] for e in parts["encounters"])
    assert any(entry["roll"] for entry in parts["ledger"])
    assert any(school["enrolments"] for school in parts["schools"])


def test_a_dropped_skill_makes_the_files_differ(original):
    first = export_text(original)
    copy = restored(first).campaign
    Skill.objects.filter(character__campaign=copy, name="sneak").first().delete()
    found = differences(normalised(first), normalised(export_text(copy)))
    assert any(".skills" in place for place in found), found


def test_a_changed_roll_total_makes_the_files_differ(original):
    first = export_text(original)
    copy = restored(first).campaign
    roll = DiceRoll.objects.filter(campaign=copy).order_by("pk").first()
    DiceRoll.objects.filter(pk=roll.pk).update(total=roll.total + 1)
    found = differences(normalised(first), normalised(export_text(copy)))
    assert found == [f".parts.rolls[0].total: {roll.total + 1} != {roll.total}"] or any(
        "rolls[0].total" in place for place in found
    ), found


def test_the_restored_records_point_at_the_new_campaign(original):
    copy = restored(export_text(original)).campaign
    mine = set(Character.objects.filter(campaign=copy).values_list("pk", flat=True))
    assert len(mine) == original.characters.count()
    # Fights name the new characters.
    encounter = Encounter.objects.get(campaign=copy, name="Ambush at the docks")
    ids = [character_id_of(c["id"]) for c in encounter.state["combatants"]]
    assert {i for i in ids if i is not None} <= mine and len([i for i in ids if i]) == 2
    for step in encounter.steps.all():
        named = json.dumps([step.command, step.events, step.touched])
        for pk in set(Character.objects.exclude(campaign=copy).values_list("pk", flat=True)):
            assert f'"pc-{pk}"' not in named and f'"npc-{pk}"' not in named
    # The ledger's rolls, the advancement's skill, the rolls' skills, the advance's report.
    spends = LedgerEntry.objects.filter(character__campaign=copy, roll__isnull=False)
    assert spends.exists()
    assert {e.roll.campaign_id for e in spends} == {copy.pk}
    advancement = Advancement.objects.get(character__campaign=copy)
    assert advancement.skill.character.campaign_id == copy.pk
    skills = {
        f"skill:{pk}"
        for pk in Skill.objects.filter(character__campaign=copy).values_list("pk", flat=True)
    }
    # (A craft's damage table and repair rolls are no character's trait: no "trait".)
    traits = {r.dice.get("trait") for r in DiceRoll.objects.filter(campaign=copy)}
    assert {t for t in traits if t and t.startswith("skill:")} <= skills
    repair = RepairRequest.objects.get(craft__campaign=copy, status="failed")
    assert repair.roll.campaign_id == copy.pk and repair.engineer.campaign_id == copy.pk
    report = TimeAdvance.objects.get(campaign=copy).report
    assert {line["character_id"] for line in report} <= mine
    assert {line["advancement"] for line in report if "advancement" in line} == {advancement.pk}
    assert TraitUse.objects.filter(character__campaign=copy, adventure__campaign=copy).count() == 2


def test_repair_jobs_come_back_under_way_with_their_rolls(original):
    """A craft repair and a droid repair worked in downtime (issue 19)."""
    copy = restored(export_text(original)).campaign
    job = RepairRequest.objects.get(craft__campaign=copy, status="working")
    before = RepairRequest.objects.get(craft__campaign=original, status="working")
    assert (job.pace, job.seed, job.started_day, job.worked_through_day, job.rolls) == (
        before.pace,
        before.seed,
        before.started_day,
        before.worked_through_day,
        before.rolls,
    )
    assert len(job.rolls) == 2 and job.engineer.campaign_id == copy.pk
    droid_job = DroidRepair.objects.get(campaign=copy)
    assert droid_job.droid.campaign_id == copy.pk and droid_job.droid.name == "R2-Q5"
    assert (droid_job.status, droid_job.cost, droid_job.payer.campaign_id) == (
        "working",
        100,
        copy.pk,
    )


def test_rolls_and_ledger_entries_keep_their_times(original):
    copy = restored(export_text(original)).campaign

    def times(campaign):
        rolls = DiceRoll.objects.filter(campaign=campaign).order_by("pk")
        ledger = LedgerEntry.objects.filter(character__campaign=campaign).order_by("pk")
        return [r.created_at for r in rolls], [e.created_at for e in ledger]

    assert times(copy) == times(original)


def test_a_user_with_no_account_here_is_reported_and_their_character_given_to_the_importer(
    original,
):
    text = export_text(original).replace('"han"', '"nobody-here"')
    result = restored(text)
    copy = result.campaign
    assert not Membership.objects.filter(campaign=copy, user__username="nobody-here").exists()
    assert Character.objects.get(campaign=copy, name="Rook Daran").owner == user("gm")
    assert [n for n in result.notes if "'nobody-here' has no account here" in n], result.notes
    note = next(n for n in result.notes if "nobody-here" in n)
    assert "1 membership left out" in note
    assert "1 character given to you" in note
    assert "draft" in note  # his draft has no user to belong to: left out


def test_the_importing_user_becomes_game_master(original):
    copy = restored(export_text(original), importer="leia").campaign
    roles = dict(Membership.objects.filter(campaign=copy).values_list("user__username", "role"))
    assert roles["leia"] == "gm"
    assert roles["gm"] == "gm"
    assert copy.created_by == user("leia")


def test_an_importing_user_not_in_the_file_joins_as_game_master(original):
    get_user_model().objects.create_user("wedge", password="a-long-test-password-42")
    copy = restored(export_text(original), importer="wedge", name="Wedge's copy").campaign
    assert copy.name == "Wedge's copy"
    assert Membership.objects.get(campaign=copy, user__username="wedge").role == "gm"


def test_a_dogfight_names_the_restored_craft_and_crew(original):
    copy = restored(export_text(original)).campaign
    fight = Encounter.objects.get(campaign=copy, name="Dogfight")
    craft = {c.pk: c.name for c in Craft.objects.filter(campaign=copy)}
    people = set(Character.objects.filter(campaign=copy).values_list("pk", flat=True))
    ships = [c for c in fight.state["combatants"] if c["craft"]]
    assert [s["name"] for s in ships] == [
        "Silver Bolt",
        "TIE/rc starfighter",
        "TIE/rc starfighter 2",
    ]
    freighter, tie, copy_tie = ships
    assert craft_id_of(freighter["id"]) in craft and freighter["craft"]["craft_id"] in craft
    assert (
        tie["craft"]["craft_id"] == craft_id_of(tie["id"]) and copy_tie["craft"]["craft_id"] is None
    )
    assert copy_tie["id"] == f"{tie['id']}-2"
    ((station, pilot),) = freighter["craft"]["crew"]
    assert station == "pilot" and character_id_of(pilot) in people
    assert freighter["craft"]["arcs"] == [[copy_tie["id"], "back"]]
    assert fight.current_state().combatant(freighter["id"]).craft.crew == (("pilot", pilot),)


def test_a_character_deleted_since_a_fight_stays_in_it_without_a_sheet(original):
    trooper = original.characters.get(name="Stormtrooper squad leader")
    trooper.delete()
    text = export_text(original)
    state = json.loads(text)["parts"]["encounters"][0]["state"]
    assert "npc-gone-1" in [c["id"] for c in state["combatants"]]
    copy = restored(text).campaign
    encounter = Encounter.objects.get(campaign=copy, name="Ambush at the docks")
    assert "npc-gone-1" in [c["id"] for c in encounter.state["combatants"]]
    assert differences(normalised(text), normalised(export_text(copy))) == []


def test_an_advance_under_way_is_restored_stopped(original):
    TimeAdvance.objects.create(
        campaign=original, from_day=4, to_day=10, day_reached=6, seed=1, status="running"
    )
    result = restored(export_text(original))
    advance = TimeAdvance.objects.get(campaign=result.campaign, to_day=10)
    assert advance.status == "failed"
    assert "advance again" in advance.error
    assert any("stopped at day 6" in n for n in result.notes)


def test_the_export_streams_a_long_dice_log_in_many_chunks(original):
    tala = original.characters.get(name="Tala Voss")
    roll = DiceRoll.objects.filter(character=tala).first()
    data = {f.attname: getattr(roll, f.attname) for f in DiceRoll._meta.concrete_fields}
    del data["id"]
    DiceRoll.objects.bulk_create([DiceRoll(**data) for _ in range(450)])
    chunks = export_campaign(Campaign.objects.get(pk=original.pk), records_per_chunk=100)
    sizes = [len(c) for c in chunks]
    assert len(sizes) > 10
    assert max(sizes) < sum(sizes) / 4


def test_the_import_reports_its_progress_checking_then_writing(original):
    text = export_text(original)
    total = sum(len(records) for records in json.loads(text)["parts"].values())
    seen = []

    restore_campaign(read_backup(text), importer=user("gm"), progress=lambda *at: seen.append(at))

    assert seen[0] == ("checking", 0, total)
    assert seen[-1] == ("writing", total, total)
    stages = [stage for stage, _, _ in seen]
    assert stages == sorted(stages)  # every "checking" before the first "writing"
    for stage in ("checking", "writing"):
        done = [n for s, n, _ in seen if s == stage]
        assert done == sorted(done) and done[-1] == total


def test_restored_records_never_take_the_id_of_a_deleted_one(original):
    """The import gives its rows their ids itself (the sequence's next, or on SQLite the next
    after both the highest id and the AUTOINCREMENT counter): a roll deleted from the end of
    the log does not lend its id to a restored one, which a stored ``skill:<id>`` or a page's
    cached id could otherwise mistake for it. Rows made afterwards get fresh ids too."""
    text = export_text(original)
    last = DiceRoll.objects.order_by("-pk").first()
    data = {f.attname: getattr(last, f.attname) for f in DiceRoll._meta.concrete_fields}
    del data["id"]
    extra = DiceRoll.objects.create(**data)
    gone = extra.pk
    extra.delete()
    skill = Skill.objects.order_by("-pk").first()
    skill_gone = Skill.objects.create(character=skill.character, name="deleted skill", code="2D").pk
    Skill.objects.filter(pk=skill_gone).delete()

    copy = restored(text).campaign

    assert DiceRoll.objects.filter(campaign=copy).order_by("pk").first().pk > gone
    assert Skill.objects.filter(character__campaign=copy).order_by("pk").first().pk > skill_gone
    later = DiceRoll.objects.create(**data)
    assert later.pk > DiceRoll.objects.filter(campaign=copy).order_by("-pk").first().pk


def test_the_cycle_collector_is_on_again_after_an_import(original):
    text = export_text(original)
    restored(text)
    assert gc.isenabled()
    with pytest.raises(BackupRefused):
        restored(text.replace('"version": 1', '"version": 2'))
    assert gc.isenabled()


def test_text_with_tabs_newlines_backslashes_and_a_literal_null_marker_comes_back_the_same(
    original,
):
    """PostgreSQL's restore streams rows with COPY, whose text format gives tabs, newlines,
    backslashes and ``\\N`` (its NULL) a meaning: they must arrive as they left."""
    awkward = 'Line one\n\tTabbed \\N is not null, a back\\slash, \\t, a quote " and 🎲'
    tala = original.characters.get(name="Tala Voss")
    tala.notes = awkward
    tala.save(update_fields=["notes"])
    DiceRoll.objects.filter(character=tala).update(label=awkward[:120].replace("\n", " "))
    first = export_text(original)

    copy = restored(first).campaign

    assert copy.characters.get(name="Tala Voss").notes == awkward
    assert differences(normalised(first), normalised(export_text(copy))) == []
