"""Joining through an invitation link: what a logged-out visitor sees, and removals that stick
until the game master allows the person back."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Membership, Removal
from campaigns.tests.factories import InvitationFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def _remove(client, membership):
    campaign = membership.campaign
    client.force_login(campaign.created_by)
    response = client.post(reverse("campaigns:member_remove", args=[campaign.pk, membership.pk]))
    assert response.status_code == 302
    return campaign


# --- a logged-out visitor -----------------------------------------------------------------------
def test_a_logged_out_visitor_sees_which_campaign_invites_them_and_who_invites(client):
    invitation = InvitationFactory(campaign__name="Shadows over Tatooine")
    response = client.get(invitation.get_absolute_url())
    assert response.status_code == 200
    assert "Shadows over Tatooine" in response.text
    assert invitation.created_by.username in response.text


def test_a_logged_out_visitor_gets_log_in_and_sign_up_links_that_come_back(client):
    invitation = InvitationFactory()
    response = client.get(invitation.get_absolute_url())
    back = invitation.get_absolute_url()
    assert f'href="{reverse("login")}?next={back}"' in response.text
    assert f'href="{reverse("signup")}?next={back}"' in response.text


def test_a_logged_out_visitor_cannot_join_by_posting(client):
    invitation = InvitationFactory()
    response = client.post(invitation.get_absolute_url())
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert not Membership.objects.filter(role=Membership.Role.PLAYER).exists()
    invitation.refresh_from_db()
    assert invitation.uses == 0


@pytest.mark.parametrize("state", ["unknown", "expired", "revoked"])
def test_an_invalid_link_tells_a_logged_out_visitor_nothing_about_the_campaign(client, state):
    invitation = InvitationFactory(campaign__name="Shadows over Tatooine")
    url = invitation.get_absolute_url()
    if state == "unknown":
        url = reverse("campaigns:join", args=["no-such-token"])
    elif state == "expired":
        invitation.expires_at = timezone.now() - timedelta(minutes=1)
        invitation.save()
    else:
        invitation.revoked_at = timezone.now()
        invitation.save()
    response = client.get(url)
    assert response.status_code in (404, 410)
    assert "Shadows over Tatooine" not in response.text
    assert invitation.created_by.username not in response.text


# --- removals ------------------------------------------------------------------------------------
def test_a_removed_player_cannot_walk_back_in_through_a_still_valid_link(client):
    invitation = InvitationFactory()
    member = MembershipFactory(campaign=invitation.campaign)
    campaign = _remove(client, member)
    client.force_login(member.user)
    response = client.post(invitation.get_absolute_url())
    assert response.status_code == 403
    assert "removed" in response.text
    assert not Membership.objects.filter(campaign=campaign, user=member.user).exists()
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_a_removed_player_opening_the_link_is_told_why_instead_of_offered_to_join(client):
    invitation = InvitationFactory()
    member = MembershipFactory(campaign=invitation.campaign)
    _remove(client, member)
    client.force_login(member.user)
    response = client.get(invitation.get_absolute_url())
    assert response.status_code == 403
    assert "Join as a player" not in response.text
    assert "game master" in response.text


def test_the_gm_sees_removed_people_with_a_button_to_allow_them_back(client):
    member = MembershipFactory(user__username="greedo")
    campaign = _remove(client, member)
    text = client.get(campaign.get_absolute_url()).text
    assert "greedo" in text
    assert "Allow back" in text


def test_after_the_gm_allows_a_removed_player_back_they_join_normally(client):
    invitation = InvitationFactory()
    member = MembershipFactory(campaign=invitation.campaign)
    campaign = _remove(client, member)
    removal = Removal.objects.get(campaign=campaign, user=member.user)
    response = client.post(reverse("campaigns:removal_allow", args=[campaign.pk, removal.pk]))
    assert response.status_code == 302
    client.force_login(member.user)
    response = client.post(invitation.get_absolute_url())
    assert response.url == campaign.get_absolute_url()
    assert Membership.objects.get(campaign=campaign, user=member.user).role == "player"


def test_only_the_game_master_allows_a_removed_player_back(client):
    invitation = InvitationFactory()
    member = MembershipFactory(campaign=invitation.campaign)
    co_gm = MembershipFactory(campaign=invitation.campaign, role=Membership.Role.CO_GM)
    campaign = _remove(client, member)
    removal = Removal.objects.get()
    client.force_login(co_gm.user)
    response = client.post(reverse("campaigns:removal_allow", args=[campaign.pk, removal.pk]))
    assert response.status_code == 403
    assert Removal.objects.filter(pk=removal.pk).exists()


def test_a_removal_of_another_campaign_cannot_be_lifted(client):
    member = MembershipFactory()
    _remove(client, member)
    removal = Removal.objects.get()
    other = MembershipFactory(role=Membership.Role.GM)
    client.force_login(other.user)
    response = client.post(reverse("campaigns:removal_allow", args=[other.campaign.pk, removal.pk]))
    assert response.status_code == 404
    assert Removal.objects.filter(pk=removal.pk).exists()


def test_a_player_who_leaves_on_their_own_may_come_back(client):
    invitation = InvitationFactory()
    member = MembershipFactory(campaign=invitation.campaign)
    client.force_login(member.user)
    client.post(reverse("campaigns:leave", args=[invitation.campaign.pk]))
    client.post(invitation.get_absolute_url())
    assert Membership.objects.filter(campaign=invitation.campaign, user=member.user).exists()


def test_removing_someone_twice_records_one_removal(client):
    member = MembershipFactory()
    campaign = _remove(client, member)
    MembershipFactory(campaign=campaign, user=member.user)  # e.g. added back by the admin
    _remove(client, Membership.objects.get(campaign=campaign, user=member.user))
    assert Removal.objects.filter(campaign=campaign, user=member.user).count() == 1


def test_a_removal_in_one_campaign_does_not_bar_joining_another(client):
    member = MembershipFactory()
    _remove(client, member)
    elsewhere = InvitationFactory()
    client.force_login(member.user)
    client.post(elsewhere.get_absolute_url())
    assert Membership.objects.filter(campaign=elsewhere.campaign, user=member.user).exists()


def test_a_new_user_is_not_affected_by_removals(client):
    invitation = InvitationFactory()
    _remove(client, MembershipFactory(campaign=invitation.campaign))
    newcomer = UserFactory()
    client.force_login(newcomer)
    client.post(invitation.get_absolute_url())
    assert Membership.objects.filter(campaign=invitation.campaign, user=newcomer).exists()
