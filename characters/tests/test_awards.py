"""The end of an adventure: the GM awards CP, FP and DSP to several characters at once, each
with a reason, through the ledger in one transaction; the House kill bonus and CP slot cap."""

from __future__ import annotations

import pytest

from campaigns.tests.factories import MembershipFactory
from characters.advancement import Award, NotAllowed, award_all
from characters.models import LedgerEntry
from characters.tests.advancement_fixtures import campaign_for, character_with, snapshot
from rules.advancement import AdvancementError

pytestmark = pytest.mark.django_db


def _party(preset="2e", cp=0):
    campaign = campaign_for(preset)
    return campaign, [character_with(campaign, cp=cp) for _ in range(3)]


def test_three_characters_are_awarded_at_once_each_with_its_reason():
    campaign, (kira, tomas, vell) = _party()
    lines = award_all(
        campaign,
        [
            Award(kira.pk, "Escape from Kessel", cp=5, fp=1),
            Award(tomas.pk, "Escape from Kessel", cp=4),
            {"character_id": vell.pk, "reason": "Fell to anger", "cp": 3, "dsp": 1},
        ],
        actor=campaign.created_by,
    )
    for c in (kira, tomas, vell):
        c.refresh_from_db()
    assert [
        (c.character_points, c.force_points, c.dark_side_points) for c in (kira, tomas, vell)
    ] == [
        (5, 1, 0),
        (4, 0, 0),
        (3, 0, 1),
    ]
    assert [(line["character_id"], line["currency"], line["delta"]) for line in lines] == [
        (kira.pk, "cp", 5),
        (kira.pk, "fp", 1),
        (tomas.pk, "cp", 4),
        (vell.pk, "cp", 3),
        (vell.pk, "dsp", 1),
    ]
    entry = LedgerEntry.objects.get(character=vell, currency="dsp")
    assert (entry.reason, entry.actor) == ("Fell to anger", campaign.created_by)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"cp": -3}, "whole number"),
        ({"fp": True}, "whole number"),
        ({"cp": 10**6}, "whole number"),
        ({"reason": ""}, "reason"),
        ({"reason": "x" * 200}, "too long"),
        ({"reason": "a\x00b"}, "NUL"),
        ({"kill_bonus": 2}, "House rule"),
        ({"character_id": "1"}, "names a character"),
        ({"colour": "red"}, "unknown award field"),
    ],
)
def test_one_bad_award_changes_nobody(bad, message):
    campaign, party = _party()
    before = snapshot(*party)
    awards = [{"character_id": c.pk, "reason": "Kessel", "cp": 2} for c in party]
    awards[2] = {**awards[2], **bad}
    with pytest.raises(AdvancementError, match=message):
        award_all(campaign, awards, actor=campaign.created_by)
    assert snapshot(*party) == before


def test_a_character_of_another_campaign_changes_nobody():
    campaign, party = _party()
    _, (stranger, *_) = _party()
    before = snapshot(*party, stranger)
    with pytest.raises(AdvancementError, match="belong to this campaign"):
        award_all(
            campaign,
            [Award(c.pk, "Kessel", cp=2) for c in (*party, stranger)],
            actor=campaign.created_by,
        )
    assert snapshot(*party, stranger) == before


def test_a_character_twice_or_nothing_to_award_is_refused():
    campaign, (kira, *_) = _party()
    with pytest.raises(AdvancementError, match="only once"):
        award_all(
            campaign,
            [Award(kira.pk, "a", cp=1), Award(kira.pk, "b", cp=1)],
            actor=campaign.created_by,
        )
    with pytest.raises(AdvancementError, match="nothing to award"):
        award_all(campaign, [Award(kira.pk, "a")], actor=campaign.created_by)
    assert not LedgerEntry.objects.filter(character=kira).exists()


def test_only_the_gm_awards():
    campaign, party = _party()
    player = MembershipFactory(campaign=campaign).user
    before = snapshot(*party)
    with pytest.raises(NotAllowed):
        award_all(campaign, [Award(party[0].pk, "Me", cp=50)], actor=party[0].owner)
    with pytest.raises(NotAllowed):
        award_all(campaign, [Award(party[0].pk, "Me", cp=50)], actor=player)
    assert snapshot(*party) == before


def test_house_kill_bonus_is_its_own_ledger_line():
    campaign, (kira, *_) = _party("house")
    award_all(
        campaign,
        [Award(kira.pk, "Defeated Moff Jerjerrod", cp=3, kill_bonus=2)],
        actor=campaign.created_by,
    )
    assert sorted(LedgerEntry.objects.filter(character=kira).values_list("delta", "reason")) == [
        (2, "Kill bonus: Defeated Moff Jerjerrod"),
        (3, "Defeated Moff Jerjerrod"),
    ]


@pytest.mark.parametrize(
    ("joined", "full_might", "cap"), [(False, False, 20), (True, False, 30), (False, True, None)]
)
def test_house_cp_slot_cap_is_noted_but_never_refuses_points_earned_in_play(
    joined, full_might, cap
):
    campaign, (kira, *_) = _party("house", cp=18)
    (line,) = award_all(
        campaign,
        [Award(kira.pk, "Kessel", cp=15)],
        actor=campaign.created_by,
        joined_group=joined,
        full_might=full_might,
    )
    # [HOUSE] the 15 CP wait in the pending slot; the note counts them with the 18 held.
    assert (line["currency"], line["balance_after"]) == ("pcp", 15)
    assert bool(line["note"]) is (cap is not None)
    if cap:
        assert f"above the {cap} CP slot cap" in line["note"]


def test_no_slot_cap_outside_the_house_rules():
    campaign, (kira, *_) = _party("2e", cp=18)
    (line,) = award_all(campaign, [Award(kira.pk, "Kessel", cp=15)], actor=campaign.created_by)
    assert line["note"] == ""
