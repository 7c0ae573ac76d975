"""A player's droid in a campaign whose GM approves new characters (issue 18): the builder
sends it to the GM like the wizard's characters; the GM reviews its building dice and approves
it (built by build_droid, for that player) or returns it with a reason, and the returned droid
opens in the builder again. Bad input is refused with the reason and sends nothing."""

import html

import pytest
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.droid_builder import DroidRefused, build_droid
from characters.models import Character, CreationDraft, LedgerEntry
from characters.tests.test_droid_builder import builder_url, droid_post
from rules.droids import DroidDesign

pytestmark = pytest.mark.django_db
Status = CreationDraft.Status


@pytest.fixture
def table():
    campaign = CampaignFactory(name="Outer Rim Run", approve_characters=True)
    player = MembershipFactory(campaign=campaign).user
    return campaign, campaign.created_by, player


def send(client, campaign, player, **design) -> CreationDraft:
    client.force_login(player)
    data = droid_post(name="Q-7", attributes={"technical": "3D"}, **design)
    response = client.post(builder_url(campaign), data)
    assert response.status_code == 302
    return CreationDraft.objects.get(campaign=campaign, user=player)


def review_url(campaign, draft, what="draft_review") -> str:
    return reverse(f"characters:{what}", args=[campaign.pk, draft.pk])


def test_the_builder_says_saving_sends_the_droid_to_the_gm(client, table):
    campaign, _, player = table
    client.force_login(player)
    page = client.get(builder_url(campaign)).content.decode()
    assert "saving sends the droid to the GM" in page
    assert "Send the droid to the GM" in page


def test_a_players_droid_is_sent_to_the_gm_and_nothing_is_built(client, table):
    campaign, _, player = table
    draft = send(client, campaign, player)
    assert draft.status == Status.SUBMITTED
    assert not Character.objects.filter(name="Q-7").exists()
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert f"{builder_url(campaign)}?draft={draft.pk}" in page  # "with the GM" on his page


def test_the_gm_sees_the_droid_in_the_queue_and_its_building_dice(client, table):
    campaign, gm, player = table
    draft = send(client, campaign, player)
    client.force_login(gm)
    queue = client.get(reverse("characters:draft_queue", args=[campaign.pk])).content.decode()
    assert "Q-7" in queue
    page = html.unescape(client.get(review_url(campaign, draft)).content.decode())
    assert "10D of 65D, 55D left" in page
    assert "It keeps to the droid rules" in page


def test_the_gms_approval_builds_the_droid_for_the_player_through_build_droid(client, table):
    campaign, gm, player = table
    draft = send(client, campaign, player)
    client.force_login(gm)
    response = client.post(review_url(campaign, draft, "draft_approve"))
    droid = Character.objects.get(name="Q-7")
    assert response.status_code == 302 and response.url == droid.get_absolute_url()
    assert (droid.nature, droid.kind, droid.owner, droid.force_points) == ("droid", "pc", player, 1)
    assert droid.technical.dice == 3
    assert LedgerEntry.objects.get(character=droid).actor == gm
    assert not CreationDraft.objects.filter(pk=draft.pk).exists()


def test_a_returned_droid_opens_in_the_builder_with_the_reason_and_is_sent_again(client, table):
    campaign, gm, player = table
    draft = send(client, campaign, player)
    client.force_login(gm)
    client.post(review_url(campaign, draft, "draft_return"), {"reason": "Less Technical."})
    client.force_login(player)
    page = html.unescape(client.get(f"{builder_url(campaign)}?draft={draft.pk}").text)
    assert "The GM returned Q-7: Less Technical." in page
    assert 'value="Q-7"' in page and 'value="3D"' in page
    data = droid_post(name="Q-7", attributes={"technical": "2D"}, draft=str(draft.pk))
    assert client.post(builder_url(campaign), data).status_code == 302
    draft.refresh_from_db()
    assert draft.status == Status.SUBMITTED and draft.review_reason == ""
    assert draft.data["droid"]["design"]["attributes"]["technical"] == "2D"
    assert CreationDraft.objects.filter(campaign=campaign).count() == 1


# --- refusals ---------------------------------------------------------------------------------
def test_a_droid_awaiting_the_gm_cannot_be_changed(client, table):
    campaign, _, player = table
    draft = send(client, campaign, player)
    data = droid_post(name="Q-7", attributes={"technical": "2D"}, draft=str(draft.pk))
    response = client.post(builder_url(campaign), data)
    assert response.status_code == 409
    assert "already awaiting the GM's approval" in html.unescape(response.content.decode())
    draft.refresh_from_db()
    assert draft.data["droid"]["design"]["attributes"]["technical"] == "3D"


def test_another_players_droid_draft_is_not_found(client, table):
    campaign, _, player = table
    draft = send(client, campaign, player)
    other = MembershipFactory(campaign=campaign).user
    client.force_login(other)
    assert client.get(f"{builder_url(campaign)}?draft={draft.pk}").status_code == 404
    data = droid_post(name="Q-7", draft=str(draft.pk))
    assert client.post(builder_url(campaign), data).status_code == 404


def test_a_design_the_rules_refuse_is_not_sent(client, table):
    campaign, _, player = table
    client.force_login(player)
    data = droid_post(name="Q-7", skills=[("sense", "perception", "2D")])
    response = client.post(builder_url(campaign), data)
    assert response.status_code == 400
    assert "droids may never have Force skills" in html.unescape(response.content.decode())
    assert not CreationDraft.objects.exists()


def test_build_droid_still_refuses_a_player_in_an_approval_campaign(table):
    campaign, _, player = table
    with pytest.raises(DroidRefused, match="send the droid to the GM"):
        build_droid(campaign, player, DroidDesign("Q-7", player_character=True), owner_id=player.pk)
    assert not Character.objects.exists()


def test_a_gm_still_builds_a_droid_at_once_in_an_approval_campaign(client, table):
    campaign, gm, player = table
    client.force_login(gm)
    assert client.post(builder_url(campaign), droid_post(owner=player.pk)).status_code == 302
    assert Character.objects.get(name="K-9X").owner == player
    assert not CreationDraft.objects.exists()


def test_a_withdrawn_droid_sent_again_from_the_review_keeps_its_design(client, table):
    campaign, _, player = table
    draft = send(client, campaign, player)
    client.post(reverse("characters:draft_withdraw", args=[campaign.pk, draft.pk]))
    client.post(reverse("characters:draft_submit", args=[campaign.pk, draft.pk]), {"note": ""})
    draft.refresh_from_db()
    assert draft.status == Status.SUBMITTED
    assert draft.data["droid"]["design"]["attributes"]["technical"] == "3D"
