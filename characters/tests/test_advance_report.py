"""One report per advance (characters/report_views.py): every past advance listed, each with
its report grouped by character, what finished, what failed and every roll with its dice; a
player reads only his own characters' lines (and the campaign's), the GM every line."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaigns.tests.factories import MembershipFactory
from characters.advancement import request_advancement
from characters.models import Skill, TimeAdvance
from characters.services import change_balance
from characters.tests.advancement_fixtures import campaign_for, character_with
from characters.tests.factories import NPCFactory
from rules import RuleSet
from rules.dice import DieCode, SeededDice, roll

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode()).strip()


def a_roll(code: str, seed: int) -> dict:
    return roll(DieCode.parse(code), ruleset=RuleSet(), rng=SeededDice(seed)).to_json()


@pytest.fixture
def table():
    """A GM, Kira's player and Tomas's player, a secret NPC, and an advance from day 35 to 45
    whose report holds a line of every kind."""
    campaign = campaign_for("2e", game_day=45, era="8 BBY")
    kira = character_with(campaign, cp=0, name="Kira")
    tomas = character_with(campaign, cp=0, name="Tomas")
    vex = NPCFactory(campaign=campaign, name="Inquisitor Vex", secret=True)
    strength = a_roll("3D", 7)
    report = [
        {  # a training that rose, with its attribute roll and both dice
            "day": 38,
            "advancement": 1,
            "character_id": kira.pk,
            "character": "Kira",
            "kind": "attribute",
            "target": "knowledge",
            "from": "2D+1",
            "to": "2D+2",
            "outcome": "improved",
            "cp_back": 0,
            "words": ["the new code beat the species maximum"],
            "roll": {
                "character_roll": 9,
                "gamemaster_roll": 7,
                "new_code": "2D+2",
                "species_maximum": "3D",
                "faces": [4, 3, 2, 2, 1, 4],
                "character": a_roll("2D+2", 1),
                "gamemaster": a_roll("3D", 2),
            },
        },
        {  # a healing roll, later in the advance: the report shows it after the training
            "day": 44,
            "character_id": kira.pk,
            "character": "Kira",
            "kind": "healing",
            "healing": "natural",
            "what": "Natural healing roll",
            "healing_day": 43,
            "from": "Wounded",
            "to": "Healthy",
            "total": strength["total"],
            "words": ["Strength 3D rolled"],
            "roll": {"character": strength, "strength": strength},
        },
        {  # a project step that failed, its roll in its words
            "day": 36,
            "project": 4,
            "character_id": kira.pk,
            "character": "Kira",
            "kind": "project",
            "target": "Blaster pistol damage",
            "from": "4D",
            "to": "4D",
            "outcome": "not_improved",
            "cp_back": 0,
            "words": ["step 1: Moderate roll, 9 against 15", "failed", "dice 3, 4, 2"],
        },
        {  # Tomas: a school finished (another helper's handler, the same shape)
            "day": 40,
            "character_id": tomas.pk,
            "character": "Tomas",
            "kind": "school",
            "target": "Pilot school",
            "outcome": "finished",
            "words": ["space transports 4D → 4D+2"],
        },
        {  # Tomas: a repair roll that failed
            "day": 41,
            "character_id": tomas.pk,
            "character": "Tomas",
            "kind": "repair",
            "target": "Hyperdrive",
            "outcome": "failed",
            "words": ["starship repair rolled 8 against 15"],
            "roll": a_roll("3D", 3),
        },
        {  # the secret NPC's training
            "day": 39,
            "advancement": 2,
            "character_id": vex.pk,
            "character": "Inquisitor Vex",
            "kind": "skill",
            "target": "lightsaber",
            "from": "5D",
            "to": "5D+1",
            "outcome": "improved",
            "cp_back": 0,
            "words": [],
            "roll": None,
        },
        {  # a line about the whole campaign: no character
            "day": 42,
            "kind": "news",
            "target": "The Empire blockades Tocarra",
            "words": ["every port closes"],
        },
    ]
    advance = TimeAdvance.objects.create(
        campaign=campaign,
        from_day=35,
        to_day=45,
        day_reached=45,
        status=TimeAdvance.Status.DONE,
        seed=1,
        report=report,
        requested_by=campaign.created_by,
    )
    return campaign, advance, kira, tomas, vex


def report_url(campaign, advance_id) -> str:
    return reverse("characters:advance_report", args=[campaign.pk, advance_id])


def advances_url(campaign) -> str:
    return reverse("characters:advances", args=[campaign.pk])


def test_the_gm_reads_every_characters_lines_grouped_with_a_summary(client, table):
    campaign, advance, *_ = table
    client.force_login(campaign.created_by)
    page = text(client.get(report_url(campaign, advance.pk)))
    headings = re.findall(r'class="report-character-h">([^<]+?) <span', page)
    assert headings == ["The campaign", "Inquisitor Vex", "Kira", "Tomas"]
    assert "lightsaber 5D → 5D+1" in page
    assert "Pilot school" in page and "Hyperdrive" in page
    assert "The Empire blockades Tocarra" in page
    # The summary at the top: Kira finished the training and healed, failed the project step,
    # rolled twice for the attribute, once to heal, once on the project.
    kira = table[2]
    summary = f'<a href="#report-{kira.pk}">Kira</a><span class="small">'
    assert f"{summary}finished: 2, failed: 1, rolls: 4" in page
    assert 'Tomas</a><span class="small">finished: 1, failed: 1, rolls: 1' in page


def test_a_player_reads_only_his_characters_lines_and_the_campaigns(client, table):
    campaign, advance, kira, *_ = table
    client.force_login(kira.owner)
    page = text(client.get(report_url(campaign, advance.pk)))
    headings = re.findall(r'class="report-character-h">([^<]+?) <span', page)
    assert headings == ["The campaign", "Kira"]
    assert "Knowledge 2D+1 → 2D+2" in page and "Natural healing roll" in page
    assert page.count('class="die') >= 8  # 2D+2, 3D (the attribute roll) and 3D (healing)
    for hidden in ("Tomas", "Pilot school", "Hyperdrive", "Inquisitor Vex", "lightsaber"):
        assert hidden not in page


def test_the_other_player_reads_only_tomass_lines(client, table):
    campaign, advance, _, tomas, _ = table
    client.force_login(tomas.owner)
    page = text(client.get(report_url(campaign, advance.pk)))
    headings = re.findall(r'class="report-character-h">([^<]+?) <span', page)
    assert headings == ["The campaign", "Tomas"]
    assert "Hyperdrive" in page and "Kira" not in page and "Inquisitor Vex" not in page
    assert '<span class="pill revoked">failed</span>' in page


def test_a_characters_lines_come_in_day_order(client, table):
    campaign, advance, kira, *_ = table
    client.force_login(kira.owner)
    page = text(client.get(report_url(campaign, advance.pk)))
    days = [int(d) for d in re.findall(r"<strong>Day (\d+)</strong>", page)]
    assert days == [42, 36, 38, 44]  # the campaign's line, then Kira's in day order


def test_a_member_without_characters_reads_only_the_campaigns_lines(client, table):
    campaign, advance, *_ = table
    watcher = MembershipFactory(campaign=campaign).user
    client.force_login(watcher)
    page = text(client.get(report_url(campaign, advance.pk)))
    assert "The Empire blockades Tocarra" in page
    assert "Kira" not in page and "Tomas" not in page


def test_the_calendar_shows_the_latest_report_filtered_the_same_way(client, table):
    campaign, advance, kira, *_ = table
    client.force_login(kira.owner)
    page = text(client.get(reverse("characters:calendar", args=[campaign.pk])))
    assert "Knowledge 2D+1 → 2D+2" in page
    assert "Hyperdrive" not in page and "Inquisitor Vex" not in page
    assert f'href="{report_url(campaign, advance.pk)}"' in page


def test_the_list_shows_every_advance_newest_first_with_who_and_a_link(client, table):
    campaign, advance, kira, *_ = table
    later = TimeAdvance.objects.create(
        campaign=campaign,
        from_day=45,
        to_day=50,
        day_reached=47,
        status=TimeAdvance.Status.FAILED,
        error="boom",
        seed=2,
        requested_by=campaign.created_by,
    )
    client.force_login(kira.owner)
    page = text(client.get(advances_url(campaign)))
    assert page.index("Day 45 to day 50") < page.index("Day 35 to day 45")
    assert "stopped after day 47" in page
    assert campaign.created_by.username in page
    assert f'href="{report_url(campaign, later.pk)}"' in page
    assert f'href="{report_url(campaign, advance.pk)}"' in page


def test_the_list_has_pages_and_a_bad_page_number_shows_a_page(client, table):
    campaign, *_ = table
    TimeAdvance.objects.bulk_create(
        TimeAdvance(
            campaign=campaign, from_day=d, to_day=d + 1, day_reached=d + 1, seed=d, status="done"
        )
        for d in range(100, 125)
    )
    client.force_login(campaign.created_by)
    first = text(client.get(advances_url(campaign)))
    assert first.count('class="advance-row"') == 20 and "Page 1 of 2" in first
    second = text(client.get(advances_url(campaign), {"page": 2}))
    assert second.count('class="advance-row"') == 6
    for bad in ("x", "-1", "٣", "99999999999999999999"):
        assert client.get(advances_url(campaign), {"page": bad}).status_code == 200


def test_no_advance_yet_says_where_time_is_advanced(client):
    campaign = campaign_for("2e")
    client.force_login(campaign.created_by)
    page = text(client.get(advances_url(campaign)))
    assert "No advance yet: the GM advances time from the" in page


def test_a_player_with_nothing_in_the_advance_is_told_so(client, table):
    campaign, advance, kira, *_ = table
    advance.report = [line for line in advance.report if line.get("character_id") != kira.pk]
    advance.report = [line for line in advance.report if "character_id" in line]
    advance.save()
    client.force_login(kira.owner)
    assert "Nothing fell due for your characters." in text(
        client.get(report_url(campaign, advance.pk))
    )


def test_another_campaigns_advance_is_a_404_even_to_its_own_gm(client, table):
    campaign, advance, *_ = table
    elsewhere = campaign_for("2e")
    foreign = TimeAdvance.objects.create(
        campaign=elsewhere, from_day=0, to_day=5, day_reached=5, seed=3
    )
    MembershipFactory(campaign=campaign, user=elsewhere.created_by)  # a player here
    client.force_login(elsewhere.created_by)
    assert client.get(report_url(campaign, foreign.pk)).status_code == 404
    assert client.get(report_url(elsewhere, advance.pk)).status_code == 404


def test_an_outsider_gets_a_404(client, table):
    campaign, advance, *_ = table
    outsider = campaign_for("2e").created_by
    client.force_login(outsider)
    assert client.get(report_url(campaign, advance.pk)).status_code == 404
    assert client.get(advances_url(campaign)).status_code == 404


@pytest.mark.parametrize("bad", ["abc", "-1", "1.5", "٣", "9" * 19, "0x1"])
def test_a_malformed_advance_id_is_a_404(client, table, bad):
    campaign, *_ = table
    client.force_login(campaign.created_by)
    url = f"{advances_url(campaign)}{bad}/"
    assert client.get(url).status_code == 404


def test_a_missing_advance_id_is_a_404(client, table):
    campaign, advance, *_ = table
    client.force_login(campaign.created_by)
    assert client.get(report_url(campaign, advance.pk + 1000)).status_code == 404


def test_malformed_report_lines_are_skipped_not_a_500(client, table):
    campaign, advance, kira, *_ = table
    advance.report = [
        "not a line",
        {"character_id": "7", "character": "Spoofed", "kind": "skill", "words": "not a list"},
        {"day": "x", "character_id": kira.pk, "character": "Kira", "kind": "odd", "roll": [1]},
    ]
    advance.save()
    client.force_login(kira.owner)
    response = client.get(report_url(campaign, advance.pk))
    assert response.status_code == 200
    assert "Spoofed" not in text(response) and "Kira" in text(response)


def test_a_real_advance_reports_each_players_trainings_to_him_alone(client, eager):
    campaign = campaign_for("2e", game_day=35)
    gm = campaign.created_by
    kira = character_with(campaign, cp=10, name="Kira", skills=[("dodge", "3D")])
    tomas = character_with(campaign, cp=10, name="Tomas", skills=[("sneak", "2D")])
    vex = NPCFactory(campaign=campaign, name="Inquisitor Vex", secret=True)
    change_balance(vex, "cp", 10, "seed", gm)
    Skill.objects.create(character=vex, name="lightsaber", code="5D", attribute="dexterity")
    for who, skill in ((kira, "dodge"), (tomas, "sneak"), (vex, "lightsaber")):
        request_advancement(who, "skill", skill, actor=gm)
    client.force_login(gm)
    client.post(reverse("characters:advance", args=[campaign.pk]), {"days": 10, "from_day": 35})
    advance = TimeAdvance.objects.get(campaign=campaign)
    assert advance.status == "done"
    url = report_url(campaign, advance.pk)
    everything = text(client.get(url))
    assert all(s in everything for s in ("dodge 3D → 3D+1", "sneak 2D → 2D+1", "lightsaber"))
    client.force_login(kira.owner)
    mine = text(client.get(url))
    assert "dodge 3D → 3D+1" in mine and "sneak" not in mine and "lightsaber" not in mine
    client.force_login(tomas.owner)
    his = text(client.get(url))
    assert "sneak 2D → 2D+1" in his and "dodge" not in his and "lightsaber" not in his


def test_the_list_page_does_not_load_the_reports(client, table, django_assert_max_num_queries):
    campaign, *_ = table
    client.force_login(campaign.created_by)
    with django_assert_max_num_queries(8):
        client.get(advances_url(campaign))


def test_a_repair_day_shows_every_roll_it_made_with_its_dice(client, table):
    campaign, advance, _, tomas, _ = table
    first, second = a_roll("4D", 5), a_roll("4D", 6)
    advance.report = [
        {
            "day": 37,
            "character_id": tomas.pk,
            "character": "Tomas",
            "kind": "repair",
            "target": "R2's repair",
            "outcome": "repaired",
            "words": ["two rolls"],
            "roll": {"character": second, "rolls": [first, second]},
        }
    ]
    advance.save()
    client.force_login(tomas.owner)
    page = text(client.get(report_url(campaign, advance.pk)))
    assert "finished: 1, failed: 0, rolls: 2" in page
    assert f"Roll 1: <strong>{first['total']}</strong>" in page
    assert f"Roll 2: <strong>{second['total']}</strong>" in page
    assert page.count('class="die') >= 8
