"""Every URL × anonymous, outsider, player and GM gets the expected status."""

from types import SimpleNamespace

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from campaigns.models import Membership
from campaigns.tests.factories import (
    CampaignFactory,
    InvitationFactory,
    MembershipFactory,
    UserFactory,
)
from characters.models import CreationDraft
from characters.tests.factories import CharacterFactory, NPCFactory
from tests.permissions import LOGIN, ROWS

VISITORS = ("anonymous", "outsider", "player", "gm")


@pytest.fixture
def scenario(db):
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    other = MembershipFactory(campaign=campaign)
    invitation = InvitationFactory(campaign=campaign)
    outsider = UserFactory()
    character = CharacterFactory(campaign=campaign, owner=player)
    others_character = CharacterFactory(campaign=campaign, owner=other.user)
    secret_npc = NPCFactory(campaign=campaign, secret=True)
    draft = CreationDraft.objects.create(campaign=campaign, user=player)
    return SimpleNamespace(
        draft=draft.pk,
        draft_step="species",
        character=character.pk,
        others_character=others_character.pk,
        secret_npc=secret_npc.pk,
        campaign=campaign.pk,
        invitation=invitation.pk,
        token=invitation.token,
        other_member=other.pk,
        users={
            "anonymous": None,
            "outsider": outsider,
            "player": player,
            "gm": campaign.created_by,
        },
        uidb64=urlsafe_base64_encode(force_bytes(outsider.pk)),
        token_for_reset=default_token_generator.make_token(outsider),
    )


def _names(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin":
                continue
            ns = f"{prefix}{p.namespace}:" if p.namespace else prefix
            yield from _names(p.url_patterns, ns)
        elif isinstance(p, URLPattern) and p.name:
            yield prefix + p.name


def test_every_url_is_in_the_matrix():
    assert set(_names(get_resolver().url_patterns)) == {row.name for row in ROWS}


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.name)
def test_permission_matrix(client, scenario, row, visitor):
    user = scenario.users[visitor]
    if user is not None:
        client.force_login(user)
    args = []
    for name in row.args:
        value = getattr(scenario, name)
        if name == "token" and row.name == "password_reset_confirm":
            value = scenario.token_for_reset
        args.append(value)
    url = reverse(row.name, args=args)
    response = getattr(client, row.method)(url, row.data)
    expected = getattr(row, visitor)
    if expected == LOGIN:
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))
    else:
        assert response.status_code == expected, f"{visitor} {row.method.upper()} {url}"


def test_outsider_cannot_learn_a_campaign_exists(client, scenario):
    client.force_login(scenario.users["outsider"])
    response = client.get(reverse("campaigns:detail", args=[scenario.campaign]))
    assert response.status_code == 404
    assert Membership.objects.filter(user=scenario.users["outsider"]).count() == 0
