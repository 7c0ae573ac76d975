"""A player the game master removes loses their characters' sheets until allowed back, and
finds them again, still theirs, when they rejoin. (Moved from campaigns/tests/test_join.py:
campaigns imports no other app.)"""

import pytest
from django.urls import reverse

from campaigns.models import Membership, Removal
from campaigns.tests.factories import InvitationFactory, MembershipFactory
from characters.tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db


def _remove(client, membership):
    campaign = membership.campaign
    client.force_login(campaign.created_by)
    response = client.post(reverse("campaigns:member_remove", args=[campaign.pk, membership.pk]))
    assert response.status_code == 302
    return campaign


def test_a_removed_player_cannot_reach_their_old_character(client):
    invitation = InvitationFactory()
    member = MembershipFactory(campaign=invitation.campaign)
    character = CharacterFactory(campaign=invitation.campaign, owner=member.user)
    _remove(client, member)
    client.force_login(member.user)
    client.post(invitation.get_absolute_url())
    assert client.get(character.get_absolute_url()).status_code == 404
    character.refresh_from_db()
    assert character.owner == member.user  # still theirs if the GM allows them back


def test_a_player_the_gm_allows_back_finds_their_character_again(client):
    invitation = InvitationFactory()
    member = MembershipFactory(campaign=invitation.campaign)
    character = CharacterFactory(campaign=invitation.campaign, owner=member.user)
    campaign = _remove(client, member)
    removal = Removal.objects.get(campaign=campaign, user=member.user)
    response = client.post(reverse("campaigns:removal_allow", args=[campaign.pk, removal.pk]))
    assert response.status_code == 302
    client.force_login(member.user)
    response = client.post(invitation.get_absolute_url())
    assert response.url == campaign.get_absolute_url()
    assert Membership.objects.get(campaign=campaign, user=member.user).role == "player"
    assert client.get(character.get_absolute_url()).status_code == 200
