"""The GM's approval of new characters (issue 17): a player sends a draft, it is read-only and no
character exists until the GM approves it (the same creation as the wizard's) or returns it with
a reason; refusals change nothing and say why; nobody sees another player's draft."""

import html
import threading

import pytest
from django.db import connection, connections
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import approval, wizard
from characters.models import Character, CreationDraft, Currency, LedgerEntry
from characters.tests.test_wizard import (
    GOOD_ATTRIBUTES,
    begin,
    fill_all,
    live,
    save,
    step_url,
)
from conftest import needs_services

pytestmark = pytest.mark.django_db
Status = CreationDraft.Status
OVER_BUDGET = {**GOOD_ATTRIBUTES, "strength": "3D+1"}  # 19D of 18D


@pytest.fixture
def campaign():
    return CampaignFactory(approve_characters=True)


@pytest.fixture
def gm(campaign):
    return campaign.created_by


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


def submit_url(draft):
    return reverse("characters:draft_submit", args=[draft.campaign_id, draft.pk])


def withdraw_url(draft):
    return reverse("characters:draft_withdraw", args=[draft.campaign_id, draft.pk])


def queue_url(campaign):
    return reverse("characters:draft_queue", args=[campaign.pk])


def review_url(draft):
    return reverse("characters:draft_review", args=[draft.campaign_id, draft.pk])


def approve_url(draft):
    return reverse("characters:draft_approve", args=[draft.campaign_id, draft.pk])


def return_url(draft):
    return reverse("characters:draft_return", args=[draft.campaign_id, draft.pk])


def text(response) -> str:
    """The page as a reader sees it (entities unescaped)."""
    return html.unescape(response.content.decode())


def submitted(client, campaign, player, *, note="", **fill):
    draft = begin(client, campaign, player)
    fill_all(client, draft, **fill)
    response = client.post(submit_url(draft), {"note": note})
    assert response.status_code == 302, text(response)[:2000]
    draft.refresh_from_db()
    assert draft.status == Status.SUBMITTED
    return draft


# ---------------------------------------------------------------------------------------------
# The player sends it; it is read-only and nothing exists to roll with
# ---------------------------------------------------------------------------------------------
def test_in_an_approval_campaign_the_review_offers_sending_not_creating(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    page = text(client.get(step_url(draft, "review")))
    assert "Send to the GM for approval" in page
    assert "Create character" not in page


def test_in_an_approval_campaign_a_player_cannot_create_directly(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    response = client.post(step_url(draft, "review"))
    assert "the GM approves new characters" in text(response)
    assert not Character.objects.exists()
    draft.refresh_from_db()
    assert draft.status == Status.EDITING


def test_a_submitted_draft_waits_read_only_with_the_note_and_no_character(client, campaign, player):
    draft = submitted(client, campaign, player, note="Please accept my Corellian accent.")
    page = text(client.get(step_url(draft, "review")))
    assert "Awaiting the GM's approval" in page
    assert "Please accept my Corellian accent." in page
    assert "Withdraw" in page
    assert "Create character" not in page
    assert "Change attributes" not in page
    assert not Character.objects.exists()  # nothing to roll with
    assert draft.submitted_at is not None


def test_a_step_of_a_submitted_draft_shows_the_review_instead(client, campaign, player):
    draft = submitted(client, campaign, player)
    response = client.get(step_url(draft, "attributes"))
    assert response.status_code == 302
    assert response.url == step_url(draft, "review")


def test_saving_a_step_of_a_submitted_draft_is_refused_and_changes_nothing(
    client, campaign, player
):
    draft = submitted(client, campaign, player)
    before = dict(draft.data)
    response = client.post(step_url(draft, "attributes"), {**GOOD_ATTRIBUTES, "dexterity": "2D"})
    assert response.status_code == 302
    follow = text(client.get(response.url))
    assert "Not saved: it is awaiting the GM's approval" in follow
    draft.refresh_from_db()
    assert draft.data == before
    assert draft.status == Status.SUBMITTED


def test_a_live_check_on_a_submitted_draft_is_answered_in_place(client, campaign, player):
    draft = submitted(client, campaign, player)
    response = live(client, draft, "attributes", GOOD_ATTRIBUTES)
    assert response.status_code == 409
    assert 'role="alert"' in text(response)
    assert "awaiting the GM" in text(response)


def test_adding_a_skill_row_to_a_submitted_draft_is_refused(client, campaign, player):
    draft = submitted(client, campaign, player)
    response = client.post(
        step_url(draft, "skills"), {"action": "add-skill"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409


def test_discarding_a_submitted_draft_is_refused(client, campaign, player):
    draft = submitted(client, campaign, player)
    response = client.post(reverse("characters:wizard_discard", args=[campaign.pk, draft.pk]))
    assert response.status_code == 302
    assert CreationDraft.objects.filter(pk=draft.pk).exists()
    assert "withdraw it from the GM" in text(client.get(response.url))


def test_withdrawing_puts_it_back_to_editing(client, campaign, player):
    draft = submitted(client, campaign, player)
    response = client.post(withdraw_url(draft))
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.status == Status.EDITING
    save(client, draft, "attributes", {**GOOD_ATTRIBUTES, "dexterity": "3D+2", "knowledge": "3D+1"})
    draft.refresh_from_db()
    assert draft.data["attributes"]["dexterity"] == "3D+2"


def test_sending_twice_is_refused(client, campaign, player):
    draft = submitted(client, campaign, player)
    response = client.post(submit_url(draft), {"note": ""})
    follow = text(client.get(response.url))
    assert "already awaiting the GM" in follow


def test_a_note_longer_than_300_characters_is_refused(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    response = client.post(submit_url(draft), {"note": "x" * 301})
    assert response.status_code == 302
    assert "at most 300" in text(client.get(response.url))
    draft.refresh_from_db()
    assert draft.status == Status.EDITING


def test_what_the_rules_refuse_is_sent_only_with_a_note(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft, attributes=OVER_BUDGET)
    response = client.post(submit_url(draft), {"note": "  "})
    follow = text(client.get(response.url))
    assert "Not sent: the creation rules refuse 1 thing in Kessa Vel" in follow
    assert "say in the note what you ask the GM to accept" in follow
    draft.refresh_from_db()
    assert draft.status == Status.EDITING

    client.post(submit_url(draft), {"note": "One pip more of Strength"})
    draft.refresh_from_db()
    assert (draft.status, draft.exception_note) == (Status.SUBMITTED, "One pip more of Strength")


def test_a_note_with_a_nul_byte_is_refused_and_changes_nothing(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    response = client.post(submit_url(draft), {"note": "a\x00b"})
    assert response.status_code == 302
    assert "Not sent" in text(client.get(response.url))
    with pytest.raises(approval.ApprovalRefused, match="NUL"):
        approval.submit(draft, actor=player, note="a\x00b")
    draft.refresh_from_db()
    assert (draft.status, draft.exception_note) == (Status.EDITING, "")


def test_a_reason_with_a_nul_byte_is_refused(client, campaign, player, gm):
    draft = submitted(client, campaign, player)
    client.force_login(gm)
    response = client.post(return_url(draft), {"reason": "a\x00b"})
    assert response.status_code == 400
    with pytest.raises(approval.ApprovalRefused, match="NUL"):
        approval.return_draft(draft, actor=gm, reason="a\x00b")
    draft.refresh_from_db()
    assert (draft.status, draft.review_reason) == (Status.SUBMITTED, "")


def test_a_draft_without_a_name_cannot_be_sent(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft, name="Kessa")
    draft.refresh_from_db()
    draft.data["background"]["name"] = ""
    draft.save()
    response = client.post(submit_url(draft), {"note": ""})
    assert "Give the character a name" in text(client.get(response.url))
    draft.refresh_from_db()
    assert draft.status == Status.EDITING


def test_the_campaign_page_shows_the_player_his_drafts_with_the_gm(client, campaign, player):
    submitted(client, campaign, player)
    page = text(client.get(campaign.get_absolute_url()))
    assert "Your new characters with the GM" in page
    assert "Kessa Vel" in page
    assert "Awaiting the GM's approval" in page


# ---------------------------------------------------------------------------------------------
# The GM's queue and review
# ---------------------------------------------------------------------------------------------
def test_the_gm_sees_how_many_characters_await_approval(client, campaign, player, gm):
    submitted(client, campaign, player)
    client.force_login(gm)
    page = text(client.get(campaign.get_absolute_url()))
    assert "Characters awaiting approval (1)" in page
    queue = text(client.get(queue_url(campaign)))
    assert "Kessa Vel" in queue
    assert player.username in queue


def test_the_campaign_page_counts_with_few_queries(
    client, campaign, player, gm, django_assert_max_num_queries
):
    draft = submitted(client, campaign, player)
    for _ in range(2):
        draft.pk = None
        draft.save()
    client.force_login(gm)
    client.get(campaign.get_absolute_url())  # warm up
    with django_assert_max_num_queries(25):
        assert "Characters awaiting approval (3)" in text(client.get(campaign.get_absolute_url()))


def test_the_gm_review_lists_what_differs(client, player, gm):
    campaign = CampaignFactory(approve_characters=False)
    MembershipFactory(campaign=campaign, user=player)
    draft = submitted(
        client, campaign, player, attributes=OVER_BUDGET, note="One pip more, please."
    )
    client.force_login(campaign.created_by)
    page = text(client.get(review_url(draft)))
    assert "What differs from the creation rules" in page
    assert "19D" in page and "18D" in page
    assert "One pip more, please." in page
    assert "Approve" in page and "Return with a reason" in page


def test_differences_name_the_budget_credits_balances_and_a_proposed_species(
    client, campaign, player
):
    draft = begin(client, campaign, player)
    fill_all(client, draft, attributes=OVER_BUDGET)
    draft.refresh_from_db()
    draft.data["species"] = {
        "choice": "custom",
        "name": "Sarrian",
        "limits": {a: ["1D", "4D"] for a in GOOD_ATTRIBUTES},
        "move": 9,
    }
    draft.data["gear"]["credits"] = 5000
    draft.data["balances"] = {"cp": 12, "fp": 1, "dsp": 0}
    draft.save()

    found = approval.differences(draft)

    assert any("19D" in d and "18D" in d for d in found), found
    assert any("Starting credits 5,000" in d for d in found), found
    assert any("12 Character Points (the rules give 5)" in d for d in found), found
    assert any("Sarrian (a custom species)" in d and "Move 9" in d for d in found), found
    assert not any("step)" in d for d in found), found


def test_a_draft_that_keeps_to_the_rules_has_no_differences(client, campaign, player):
    draft = submitted(client, campaign, player)
    assert approval.differences(draft) == []


def test_approving_creates_the_character_for_the_player_signed_by_the_gm(
    client, campaign, player, gm
):
    draft = submitted(client, campaign, player)
    client.force_login(gm)
    response = client.post(approve_url(draft))
    character = Character.objects.get()
    assert response.status_code == 302
    assert response.url == character.get_absolute_url()
    assert character.owner == player
    assert character.name == "Kessa Vel"
    assert character.skills.count() == 5
    assert (character.character_points, character.force_points, character.credits) == (5, 1, 500)
    assert set(LedgerEntry.objects.values_list("actor", flat=True)) == {gm.pk}
    assert not CreationDraft.objects.exists()


def test_the_gm_may_approve_what_the_rules_refuse(client, player):
    campaign = CampaignFactory()  # no approval needed: the player asks for an exception
    MembershipFactory(campaign=campaign, user=player)
    draft = begin(client, campaign, player)
    fill_all(client, draft, attributes=OVER_BUDGET)
    refused = client.post(step_url(draft, "review"))
    assert "send it to the GM for approval" in text(refused)
    page = text(client.get(step_url(draft, "review")))
    assert "Ask the GM to accept it" in page
    client.post(submit_url(draft), {"note": "A pip of Strength more"})

    client.force_login(campaign.created_by)
    client.post(approve_url(draft))

    character = Character.objects.get()
    assert str(character.strength) == "3D+1"


def test_approving_a_draft_whose_player_left_is_refused(client, campaign, player, gm):
    draft = submitted(client, campaign, player)
    campaign.memberships.filter(user=player).delete()
    client.force_login(gm)
    response = client.post(approve_url(draft))
    follow = text(client.get(response.url))
    assert "no longer in the campaign" in follow
    assert not Character.objects.exists()
    assert CreationDraft.objects.get().status == Status.SUBMITTED


def test_returning_needs_a_reason(client, campaign, player, gm):
    draft = submitted(client, campaign, player)
    client.force_login(gm)
    response = client.post(return_url(draft), {"reason": "  "})
    assert response.status_code == 400
    assert "Give the player a reason" in text(response)
    draft.refresh_from_db()
    assert draft.status == Status.SUBMITTED


def test_a_reason_longer_than_300_characters_is_refused(client, campaign, player, gm):
    draft = submitted(client, campaign, player)
    client.force_login(gm)
    response = client.post(return_url(draft), {"reason": "x" * 301})
    assert response.status_code == 400
    draft.refresh_from_db()
    assert (draft.status, draft.review_reason) == (Status.SUBMITTED, "")


def test_a_returned_draft_shows_the_reason_on_every_step_until_sent_again(
    client, campaign, player, gm
):
    draft = submitted(client, campaign, player)
    client.force_login(gm)
    client.post(return_url(draft), {"reason": "Take blaster down to 5D, please."})
    draft.refresh_from_db()
    assert (draft.status, draft.reviewed_by) == (Status.RETURNED, gm)

    client.force_login(player)
    for step in ("species", "attributes", "skills", "force", "gear", "background", "review"):
        assert "Take blaster down to 5D, please." in text(client.get(step_url(draft, step)))
    assert "Take blaster down to 5D, please." in text(client.get(campaign.get_absolute_url()))
    save(client, draft, "attributes", GOOD_ATTRIBUTES)  # editable again
    client.post(submit_url(draft), {"note": "Done."})

    draft.refresh_from_db()
    assert (draft.status, draft.review_reason, draft.exception_note) == (
        Status.SUBMITTED,
        "",
        "Done.",
    )
    assert "Take blaster down" not in text(client.get(step_url(draft, "review")))


# ---------------------------------------------------------------------------------------------
# Races and stale pages: one wins, the other is told
# ---------------------------------------------------------------------------------------------
def test_approving_twice_creates_one_character_and_says_so(client, campaign, player, gm):
    draft = submitted(client, campaign, player)
    client.force_login(gm)
    client.post(approve_url(draft))
    second = client.post(approve_url(draft))
    assert second.status_code == 302
    assert "already approved" in text(client.get(second.url))
    assert Character.objects.count() == 1


def test_approving_a_withdrawn_draft_is_refused_with_a_message(client, campaign, player, gm):
    draft = submitted(client, campaign, player)
    client.post(withdraw_url(draft))
    client.force_login(gm)
    response = client.post(approve_url(draft))
    assert "withdrawn by its player" in text(client.get(response.url))
    assert not Character.objects.exists()


def test_a_refused_approval_over_htmx_is_an_alert_in_place(client, campaign, player, gm):
    draft = submitted(client, campaign, player)
    client.post(withdraw_url(draft))
    client.force_login(gm)
    response = client.post(approve_url(draft), HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert 'role="alert"' in text(response)
    assert "withdrawn by its player" in text(response)


def test_withdrawing_an_approved_draft_says_it_was_approved(client, campaign, player, gm):
    draft = submitted(client, campaign, player)
    approval.approve(draft, actor=gm)
    client.force_login(player)
    response = client.post(withdraw_url(draft))
    assert response.status_code == 302
    assert "the GM approved it" in text(client.get(response.url))
    assert Character.objects.count() == 1


def test_withdrawing_a_returned_draft_points_to_the_reason(client, campaign, player, gm):
    draft = submitted(client, campaign, player)
    approval.return_draft(draft, actor=gm, reason="Fix it")
    with pytest.raises(approval.ApprovalRefused, match="already returned"):
        approval.withdraw(draft, actor=player)


def test_returning_an_approved_draft_is_refused(client, campaign, player, gm):
    draft = submitted(client, campaign, player)
    approval.approve(draft, actor=gm)
    with pytest.raises(approval.ApprovalRefused, match="already approved"):
        approval.return_draft(draft, actor=gm, reason="Too late")


# ---------------------------------------------------------------------------------------------
# Who may do what
# ---------------------------------------------------------------------------------------------
def test_a_player_cannot_see_the_queue_or_a_review(client, campaign, player):
    draft = submitted(client, campaign, player)
    assert client.get(queue_url(campaign)).status_code == 404
    assert client.get(review_url(draft)).status_code == 404


def test_a_player_cannot_approve_or_return(client, campaign, player):
    draft = submitted(client, campaign, player)
    assert client.post(approve_url(draft)).status_code == 404
    assert client.post(return_url(draft), {"reason": "no"}).status_code == 404
    assert not Character.objects.exists()


def test_the_service_refuses_a_player_approving(client, campaign, player):
    draft = submitted(client, campaign, player)
    with pytest.raises(approval.ApprovalRefused, match="game masters"):
        approval.approve(draft, actor=player)
    assert not Character.objects.exists()


def test_another_player_cannot_send_withdraw_or_see_a_draft(client, campaign, player):
    draft = submitted(client, campaign, player)
    other = MembershipFactory(campaign=campaign).user
    client.force_login(other)
    assert client.post(withdraw_url(draft)).status_code == 404
    assert client.post(submit_url(draft), {"note": ""}).status_code == 404
    assert client.get(step_url(draft, "review")).status_code == 404
    draft.refresh_from_db()
    assert draft.status == Status.SUBMITTED


def test_a_gm_of_another_campaign_cannot_approve(client, campaign, player):
    draft = submitted(client, campaign, player)
    stranger = CampaignFactory().created_by
    client.force_login(stranger)
    assert client.post(approve_url(draft)).status_code == 404
    assert not Character.objects.exists()


def test_a_gm_never_sees_a_draft_not_yet_sent(client, campaign, player, gm):
    draft = begin(client, campaign, player)
    client.force_login(gm)
    assert client.get(review_url(draft)).status_code == 404


# ---------------------------------------------------------------------------------------------
# The GM's own drafts: "Create anyway" after a confirmation
# ---------------------------------------------------------------------------------------------
def test_a_gm_creates_his_own_over_budget_draft_only_after_confirming(client, campaign, gm):
    draft = begin(client, campaign, gm, kind="pc", owner=str(gm.pk))
    fill_all(client, draft, attributes=OVER_BUDGET)
    page = text(client.get(step_url(draft, "review")))
    assert "Create anyway" in page
    assert "Send to the GM" not in page

    unconfirmed = client.post(step_url(draft, "review"), {"action": "create-anyway"})
    assert "tick the box" in text(unconfirmed)
    assert not Character.objects.exists()

    client.post(step_url(draft, "review"), {"action": "create-anyway", "confirm": "1"})
    assert str(Character.objects.get().strength) == "3D+1"


def test_a_player_cannot_create_anyway(client, player):
    campaign = CampaignFactory()
    MembershipFactory(campaign=campaign, user=player)
    draft = begin(client, campaign, player)
    fill_all(client, draft, attributes=OVER_BUDGET)
    client.post(step_url(draft, "review"), {"action": "create-anyway", "confirm": "1"})
    assert not Character.objects.exists()


def test_a_gm_creates_directly_in_an_approval_campaign(client, campaign, gm, player):
    draft = begin(client, campaign, gm, kind="pc", owner=str(player.pk))
    fill_all(client, draft)
    client.post(step_url(draft, "review"))
    assert Character.objects.get().owner == player


def test_the_campaign_form_sets_approval(client):
    campaign = CampaignFactory()
    client.force_login(campaign.created_by)
    url = reverse("campaigns:edit", args=[campaign.pk])
    assert "New characters need the GM" in text(client.get(url))
    client.post(url, {"name": campaign.name, "approve_characters": "on"})
    campaign.refresh_from_db()
    assert campaign.approve_characters


def test_imported_balances_are_kept_when_the_gm_approves(client, campaign, player, gm):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    draft.refresh_from_db()
    draft.data["balances"] = {"cp": 12, "fp": 2, "dsp": 1}
    draft.save()
    client.post(submit_url(draft), {"note": "Imported from my old sheet"})
    approval.approve(draft, actor=gm)
    character = Character.objects.get()
    assert (character.character_points, character.force_points) == (12, 2)
    assert character.dark_side_points == 1
    reasons = set(LedgerEntry.objects.values_list("currency", "reason"))
    assert (Currency.CP, "Imported Character Points") in reasons


# ---------------------------------------------------------------------------------------------
# Real races, on PostgreSQL: threads on separate connections
# ---------------------------------------------------------------------------------------------
def _race(*calls):
    """Run the calls at the same moment, each on its own connection; their outcomes in order
    ("ok" or the refusal's message)."""
    start = threading.Barrier(len(calls))
    outcomes: list[str | None] = [None] * len(calls)

    def run(i, call):
        try:
            start.wait()
            try:
                call()
                outcomes[i] = "ok"
            except approval.ApprovalRefused as refusal:
                outcomes[i] = str(refusal)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
@needs_services()
def test_two_gms_approving_at_once_make_one_character(client):
    assert connection.vendor == "postgresql"
    campaign = CampaignFactory(approve_characters=True)
    player = MembershipFactory(campaign=campaign).user
    co_gm = MembershipFactory(campaign=campaign, role="co_gm").user
    draft = submitted(client, campaign, player)

    # Each side holds the draft as its page read it; the services lock and re-read the row.
    mine, theirs = (CreationDraft.objects.get(pk=draft.pk) for _ in range(2))
    outcomes = _race(
        lambda: approval.approve(mine, actor=campaign.created_by),
        lambda: approval.approve(theirs, actor=co_gm),
    )

    assert sorted(o == "ok" for o in outcomes) == [False, True], outcomes
    assert any("already approved" in o for o in outcomes if o != "ok"), outcomes
    assert Character.objects.count() == 1
    assert LedgerEntry.objects.filter(currency=Currency.CP).count() == 1
    assert not CreationDraft.objects.exists()


@pytest.mark.django_db(transaction=True)
@needs_services()
@pytest.mark.parametrize("attempt", range(3))
def test_approve_and_withdraw_at_once_one_wins_and_the_other_is_told(client, attempt):
    assert connection.vendor == "postgresql"
    campaign = CampaignFactory(approve_characters=True)
    player = MembershipFactory(campaign=campaign).user
    draft = submitted(client, campaign, player)

    # Each side holds the draft as its page read it (fetched inside a thread, the GM's commit
    # could come first and the fetch itself fail); the services lock and re-read the row.
    gms, players = (CreationDraft.objects.get(pk=draft.pk) for _ in range(2))
    approved, withdrawn = _race(
        lambda: approval.approve(gms, actor=campaign.created_by),
        lambda: approval.withdraw(players, actor=player),
    )

    if approved == "ok":
        assert "no longer exists" in withdrawn
        assert Character.objects.count() == 1
        assert not CreationDraft.objects.exists()
    else:
        assert withdrawn == "ok"
        assert "withdrawn by its player" in approved
        assert not Character.objects.exists()
        assert CreationDraft.objects.get().status == Status.EDITING


@pytest.mark.django_db(transaction=True)
@needs_services()
def test_saving_a_step_while_sending_never_unsends_the_draft(client):
    """A step saved in another tab at the moment the draft is sent: either the step was saved
    first (and is sent with it) or it is refused; the draft stays sent either way."""
    assert connection.vendor == "postgresql"
    campaign = CampaignFactory(approve_characters=True)
    player = MembershipFactory(campaign=campaign).user
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    saved: list[bool] = []

    def save_step():
        saved.append(wizard._save_step(draft, "force", {"sensitive": False, "powers": []}))

    outcomes = _race(
        lambda: approval.submit(CreationDraft.objects.get(pk=draft.pk), actor=player),
        save_step,
    )

    assert outcomes[0] == "ok"
    draft.refresh_from_db()
    assert draft.status == Status.SUBMITTED


# ---------------------------------------------------------------------------------------------
# A species the player proposed joins the library when the GM says so
# ---------------------------------------------------------------------------------------------
def _with_proposed_species(draft, name="Sarrian"):
    draft.data["species"] = {
        "choice": "custom",
        "name": name,
        "limits": {a: ["1D", "4D"] for a in GOOD_ATTRIBUTES},
        "move": 9,
    }
    draft.save()
    return draft


def test_approving_can_add_the_proposed_species_to_the_library(client, campaign, player, gm):
    from campaigns import library

    draft = _with_proposed_species(submitted(client, campaign, player))
    client.force_login(gm)
    page = text(client.get(review_url(draft)))
    assert "Also add the Sarrian limits and Move" in page

    response = client.post(approve_url(draft), {"add_species": "on"})

    assert response.status_code == 302
    entry = library.find(campaign, "species", "sarrian")
    assert entry is not None and not entry.builtin
    assert entry.data["attributes"]["strength"] == {"min": "1D", "max": "4D"}
    assert entry.data["move"] == {"normal": 9, "max": 9}
    assert Character.objects.get().species == "Sarrian"


def test_approving_without_the_box_leaves_the_library_alone(client, campaign, player, gm):
    from campaigns.models import LibraryEntry

    draft = _with_proposed_species(submitted(client, campaign, player))
    client.force_login(gm)
    client.post(approve_url(draft))
    assert Character.objects.count() == 1
    assert not LibraryEntry.objects.exists()


def test_adding_a_species_that_comes_from_the_library_refuses_the_approval_whole(
    client, campaign, player, gm
):
    from campaigns import library

    library.save_entry(
        campaign,
        "species",
        {
            "name": "Sarrian",
            "attributes": {a: {"min": "2D", "max": "4D"} for a in GOOD_ATTRIBUTES},
            "move": {"normal": 10, "max": 12},
        },
        actor=gm,
    )
    draft = submitted(client, campaign, player)
    # The draft names the library's species: its numbers apply, nothing was proposed.
    draft.data["species"] = {"choice": "Sarrian"}
    draft.save()
    client.force_login(gm)
    assert "Also add" not in text(client.get(review_url(draft)))
    response = client.post(approve_url(draft), {"add_species": "on"})
    assert response.status_code == 302
    assert not Character.objects.exists()  # refused: nothing was proposed to add
    draft.refresh_from_db()
    assert draft.status == Status.SUBMITTED
