"""Defects found play-testing issue 17 (library, approval, importers) as a GM and two players;
each test failed before its fix."""

import html

import pytest
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.models import CreationDraft
from characters.tests.test_approval import return_url, submitted
from characters.tests.test_wizard import begin, fill_all, step_url

pytestmark = pytest.mark.django_db
Status = CreationDraft.Status


@pytest.fixture
def campaign():
    return CampaignFactory(approve_characters=True)


def test_returning_a_draft_already_returned_says_nothing_was_returned(client, campaign):
    """A GM's second tab returning a draft the first already returned was told "nothing was
    returnd"."""
    player = MembershipFactory(campaign=campaign).user
    draft = submitted(client, campaign, player)
    client.force_login(campaign.created_by)
    client.post(return_url(draft), {"reason": "Take 1D off blaster."})

    response = client.post(return_url(draft), {"reason": "And a second reason."}, follow=True)

    page = html.unescape(response.content.decode())
    assert "nothing was returned." in page
    assert "returnd" not in page
    draft.refresh_from_db()
    assert draft.review_reason == "Take 1D off blaster."


def test_a_draft_that_cannot_be_sent_yet_offers_no_send_button_but_says_why(client, campaign):
    """With no name yet, the review still offered "Send to the GM for approval" and a note box:
    the player typed a note, pressed it, and got a refusal that threw the note away."""
    player = MembershipFactory(campaign=campaign).user
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    draft.refresh_from_db()
    del draft.data["background"]  # the player went to the review before the Background step
    draft.save()

    response = client.get(step_url(draft, "review"))

    page = html.unescape(response.content.decode())
    assert reverse("characters:draft_submit", args=[campaign.pk, draft.pk]) not in page
    assert "It cannot be sent yet: Give the character a name (Background step)." in page
