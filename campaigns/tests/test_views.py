from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Invitation, Membership
from campaigns.tests.factories import (
    PASSWORD,
    CampaignFactory,
    InvitationFactory,
    MembershipFactory,
    UserFactory,
)
from rules import RuleSet

pytestmark = pytest.mark.django_db


@pytest.fixture
def user_client(client):
    user = UserFactory()
    client.force_login(user)
    client.user = user
    return client


def test_signup_logs_the_new_user_in_and_follows_next(client):
    response = client.post(
        reverse("signup") + "?next=/campaigns/new/",
        {
            "username": "rey",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "/campaigns/new/",
        },
    )
    assert response.status_code == 302
    assert response.url == "/campaigns/new/"
    assert client.get(reverse("home")).context["user"].username == "rey"


def test_signup_ignores_a_next_pointing_off_site(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "rey",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )
    assert response.url == reverse("home")


def test_signup_with_mismatched_passwords_shows_an_error_and_creates_nobody(client):
    response = client.post(
        reverse("signup"), {"username": "rey", "password1": PASSWORD, "password2": "other"}
    )
    assert response.status_code == 200
    assert "didn’t match" in response.text or "didn't match" in response.text
    assert not Membership.objects.exists()


def test_creating_a_campaign_makes_the_creator_its_gm(user_client):
    response = user_client.post(reverse("campaigns:create"), {"name": "Outer Rim"})
    campaign = Campaign.objects.get()
    assert response.url == campaign.get_absolute_url()
    assert campaign.memberships.get().role == Membership.Role.GM
    assert campaign.ruleset == RuleSet()


def test_a_blank_campaign_name_is_refused_with_a_message(user_client):
    response = user_client.post(reverse("campaigns:create"), {"name": "   "})
    assert response.status_code == 200
    assert "Give the campaign a name" in response.text or "This field is required" in response.text
    assert not Campaign.objects.exists()


def test_home_lists_only_my_campaigns(user_client):
    mine = MembershipFactory(user=user_client.user).campaign
    other = CampaignFactory()
    text = user_client.get(reverse("home")).text
    assert mine.name in text
    assert other.name not in text


def test_home_without_campaigns_says_what_to_do(user_client):
    assert "not in any campaign yet" in user_client.get(reverse("home")).text


def test_gm_creates_an_invitation_link(client):
    campaign = CampaignFactory()
    client.force_login(campaign.created_by)
    response = client.post(reverse("campaigns:invitation_create", args=[campaign.pk]), {"days": 3})
    assert response.status_code == 302
    invitation = campaign.invitations.get()
    assert timedelta(days=2, hours=23) < invitation.expires_at - timezone.now() <= timedelta(days=3)


def test_an_invitation_lifetime_out_of_range_is_refused(client):
    campaign = CampaignFactory()
    client.force_login(campaign.created_by)
    client.post(reverse("campaigns:invitation_create", args=[campaign.pk]), {"days": 365})
    assert not campaign.invitations.exists()


def test_opening_an_invitation_asks_before_joining(user_client):
    invitation = InvitationFactory()
    response = user_client.get(invitation.get_absolute_url())
    assert response.status_code == 200
    assert "Join as a player" in response.text
    assert not Membership.objects.filter(user=user_client.user).exists()


def test_joining_through_an_invitation_makes_a_player(user_client):
    invitation = InvitationFactory()
    response = user_client.post(invitation.get_absolute_url())
    assert response.url == invitation.campaign.get_absolute_url()
    membership = Membership.objects.get(user=user_client.user)
    assert membership.role == Membership.Role.PLAYER
    invitation.refresh_from_db()
    assert invitation.uses == 1


def test_joining_twice_changes_nothing(user_client):
    invitation = InvitationFactory()
    user_client.post(invitation.get_absolute_url())
    response = user_client.post(invitation.get_absolute_url(), follow=True)
    assert "already in" in response.text
    assert Membership.objects.filter(user=user_client.user).count() == 1
    invitation.refresh_from_db()
    assert invitation.uses == 1


def test_an_expired_invitation_explains_and_changes_nothing(user_client):
    invitation = InvitationFactory(expires_at=timezone.now() - timedelta(minutes=1))
    response = user_client.post(invitation.get_absolute_url())
    assert response.status_code == 410
    assert "expired" in response.text
    assert not Membership.objects.filter(user=user_client.user).exists()


def test_a_revoked_invitation_explains_and_changes_nothing(user_client):
    invitation = InvitationFactory(revoked_at=timezone.now())
    response = user_client.post(invitation.get_absolute_url())
    assert response.status_code == 410
    assert "revoked" in response.text
    assert not Membership.objects.filter(user=user_client.user).exists()


def test_an_unknown_invitation_is_a_clear_404(user_client):
    response = user_client.get(reverse("campaigns:join", args=["no-such-token"]))
    assert response.status_code == 404
    assert "Unknown invitation" in response.text


def test_gm_revokes_an_invitation(client):
    invitation = InvitationFactory()
    client.force_login(invitation.campaign.created_by)
    client.post(
        reverse("campaigns:invitation_revoke", args=[invitation.campaign.pk, invitation.pk])
    )
    invitation.refresh_from_db()
    assert invitation.is_revoked


def test_an_invitation_of_another_campaign_cannot_be_revoked(client):
    mine = CampaignFactory()
    foreign = InvitationFactory()
    client.force_login(mine.created_by)
    response = client.post(reverse("campaigns:invitation_revoke", args=[mine.pk, foreign.pk]))
    assert response.status_code == 404
    foreign.refresh_from_db()
    assert not foreign.is_revoked


def test_gm_promotes_a_player_to_co_gm_who_can_then_edit(client):
    campaign = CampaignFactory()
    member = MembershipFactory(campaign=campaign)
    client.force_login(campaign.created_by)
    client.post(reverse("campaigns:member_role", args=[campaign.pk, member.pk]), {"role": "co_gm"})
    member.refresh_from_db()
    assert member.role == Membership.Role.CO_GM
    client.force_login(member.user)
    assert client.get(reverse("campaigns:edit", args=[campaign.pk])).status_code == 200
    # but a co-GM cannot change roles
    response = client.post(
        reverse("campaigns:member_role", args=[campaign.pk, member.pk]), {"role": "player"}
    )
    assert response.status_code == 403


def test_an_unknown_role_is_refused(client):
    campaign = CampaignFactory()
    member = MembershipFactory(campaign=campaign)
    client.force_login(campaign.created_by)
    client.post(reverse("campaigns:member_role", args=[campaign.pk, member.pk]), {"role": "gm"})
    member.refresh_from_db()
    assert member.role == Membership.Role.PLAYER


def test_the_gm_cannot_be_removed_or_leave(client):
    campaign = CampaignFactory()
    gm = campaign.memberships.get()
    client.force_login(campaign.created_by)
    client.post(reverse("campaigns:member_remove", args=[campaign.pk, gm.pk]))
    client.post(reverse("campaigns:leave", args=[campaign.pk]))
    assert campaign.memberships.filter(pk=gm.pk).exists()


def test_a_player_leaves_a_campaign(client):
    member = MembershipFactory()
    client.force_login(member.user)
    client.post(reverse("campaigns:leave", args=[member.campaign.pk]))
    assert not Membership.objects.filter(pk=member.pk).exists()


def test_gm_switches_the_campaign_to_the_house_rules_preset(client):
    campaign = CampaignFactory()
    client.force_login(campaign.created_by)
    client.get(reverse("campaigns:rules", args=[campaign.pk])).context["form"]
    data = {"preset": "house"}
    client.post(reverse("campaigns:rules", args=[campaign.pk]), data)
    campaign.refresh_from_db()
    assert campaign.ruleset == RuleSet.preset("house")
    assert campaign.rule_options["wild_die_one"] == "house_table"


def test_gm_changes_one_rule_option_and_only_the_difference_is_stored(client):
    campaign = CampaignFactory()
    client.force_login(campaign.created_by)
    form = client.get(reverse("campaigns:rules", args=[campaign.pk])).context["form"]
    data = {
        name: field.initial
        for name, field in form.fields.items()
        if field.initial is not None and field.initial is not False
    }
    data["wild_die_one"] = "subtract"
    response = client.post(reverse("campaigns:rules", args=[campaign.pk]), data)
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.rule_options == {"wild_die_one": "subtract"}


def test_an_invalid_rule_option_value_is_a_form_error(client):
    campaign = CampaignFactory()
    client.force_login(campaign.created_by)
    response = client.post(
        reverse("campaigns:rules", args=[campaign.pk]), {"wild_die_one": "explode_twice"}
    )
    assert response.status_code == 400
    assert response.context["form"].errors
    campaign.refresh_from_db()
    assert campaign.rule_options == {}


def test_failed_logins_are_throttled(client, settings):
    settings.AXES_FAILURE_LIMIT = 3
    user = UserFactory()
    for _ in range(3):
        client.post(reverse("login"), {"username": user.username, "password": "wrong"})
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.text


def test_a_correct_login_works(client):
    user = UserFactory()
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302


def test_password_reset_sends_an_email(client, mailoutbox):
    user = UserFactory()
    client.post(reverse("password_reset"), {"email": user.email})
    assert len(mailoutbox) == 1
    assert "/accounts/reset/" in mailoutbox[0].body


def test_healthz_reports_the_database(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json()["checks"]["database"] == "ok"


def test_demo_loader_is_idempotent():
    from campaigns.demo import load_demo_campaign

    load_demo_campaign()
    load_demo_campaign()
    campaign = Campaign.objects.get()
    assert campaign.memberships.count() == 3
    assert campaign.memberships.filter(role=Membership.Role.GM).count() == 1
    assert Invitation.objects.count() == 1


@pytest.mark.django_db
def test_editing_the_campaign_never_writes_back_an_old_game_date(client):
    """The edit form holds the campaign as it was read; a time advance may move the date while
    the GM types. Saving the name must not put the old date back."""
    from campaigns.models import Campaign

    campaign = CampaignFactory(name="Before")
    client.force_login(campaign.created_by)
    url = reverse("campaigns:edit", args=[campaign.pk])
    original_save = Campaign.save

    def advance_meanwhile(self, *args, **kwargs):
        Campaign.objects.filter(pk=self.pk).update(game_day=30)  # the job, between read and save
        return original_save(self, *args, **kwargs)

    Campaign.save = advance_meanwhile
    try:
        response = client.post(url, {"name": "After", "description": ""})
    finally:
        Campaign.save = original_save
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.name, campaign.game_day) == ("After", 30)
