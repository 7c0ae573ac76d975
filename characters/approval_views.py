"""The approval of new characters, in pages (the rules are :mod:`characters.approval`'s).

* ``submit`` / ``withdraw``: the player sends his draft to the GM from the review (with a note)
  or takes it back to change it.
* ``queue``: GM: the drafts awaiting approval, and those returned, waiting for their player.
* ``review``: GM: one draft, what differs from the creation rules, and Approve or "Return with
  a reason".
* ``approve`` / ``return_draft``: the GM's decisions.

Every refusal changes nothing and says why: a message on the page the user came from (an alert
in place for an HTMX request). A player never sees another's draft (404).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters import approval
from characters.models import CreationDraft
from characters.wizard import check_draft, review_context

Status = CreationDraft.Status


class NoteForm(forms.Form):
    note = forms.CharField(
        label="Note to the GM",
        required=False,
        max_length=approval.MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": approval.MAX_TEXT}),
        help_text="What you ask the GM to accept (a species, a budget, imported points), "
        f"at most {approval.MAX_TEXT} characters.",
    )


class ReturnForm(forms.Form):
    reason = forms.CharField(
        label="Reason",
        max_length=approval.MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": approval.MAX_TEXT}),
        help_text=f"What the player should change, at most {approval.MAX_TEXT} characters.",
        error_messages={"required": "Give the player a reason: what to change."},
    )


def _review_url(campaign_id: int, draft_id: int) -> str:
    return reverse("characters:wizard_step", args=[campaign_id, draft_id, "review"])


def _refused(request, message: str, back: str, status: int = 409):
    """A refused step: an alert in place for HTMX, otherwise the message on the page it came
    from."""
    if request.htmx:
        return render(
            request, "includes/alert.html", {"message": message, "back": back}, status=status
        )
    messages.error(request, message)
    return redirect(back)


def _own_draft(request, campaign_id: int, draft_id: int) -> CreationDraft | None:
    """The user's own draft; None when no draft of that number exists any more (the GM
    approved it, or it was discarded: the player is told so); 404 for anyone else's."""
    membership_or_404(request.user, campaign_id)
    draft = CreationDraft.objects.filter(pk=draft_id, campaign_id=campaign_id).first()
    if draft is not None and draft.user_id != request.user.pk:
        raise Http404("No such draft")
    return draft


GONE_FOR_PLAYER = (
    "this draft no longer exists: the GM approved it (it is among the campaign's characters) "
    "or it was discarded."
)


def _campaign_url(campaign_id: int) -> str:
    return reverse("campaigns:detail", args=[campaign_id])


# --- The player -----------------------------------------------------------------------------
@login_required
@require_POST
def submit(request, campaign_id, draft_id):
    draft = _own_draft(request, campaign_id, draft_id)
    if draft is None:
        return _refused(request, f"Not sent: {GONE_FOR_PLAYER}", _campaign_url(campaign_id))
    back = _review_url(campaign_id, draft_id)
    form = NoteForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(e for errs in form.errors.values() for e in errs)
        return _refused(request, f"Not sent: {errors}", back, status=400)
    try:
        approval.submit(draft, actor=request.user, note=form.cleaned_data["note"])
    except approval.ApprovalRefused as refusal:
        return _refused(request, f"Not sent: {refusal}", back)
    messages.success(
        request,
        "Sent to the GM for approval. It stays as it is until the GM decides; withdraw it to "
        "change something.",
    )
    return redirect(back)


@login_required
@require_POST
def withdraw(request, campaign_id, draft_id):
    draft = _own_draft(request, campaign_id, draft_id)
    if draft is None:
        return _refused(request, f"Not withdrawn: {GONE_FOR_PLAYER}", _campaign_url(campaign_id))
    back = _review_url(campaign_id, draft_id)
    try:
        approval.withdraw(draft, actor=request.user)
    except approval.ApprovalRefused as refusal:
        return _refused(request, f"Not withdrawn: {refusal}", back)
    messages.success(request, "Withdrawn from the GM: you can change it and send it again.")
    return redirect(back)


# --- The GM ---------------------------------------------------------------------------------
def _gm(request, campaign_id: int):
    """The GM's membership; a player is told nothing exists here (404), like another's draft."""
    membership = membership_or_404(request.user, campaign_id)
    if not membership.is_gm:
        raise Http404("No such page")
    return membership


def _player_name(draft: CreationDraft, names: dict[int, str]) -> str:
    owner = (draft.data.get("start") or {}).get("owner")
    name = names.get(owner) if isinstance(owner, int) else None
    return name or "a player no longer in the campaign"


@login_required
def queue(request, campaign_id):
    membership = _gm(request, campaign_id)
    campaign = membership.campaign
    drafts = list(
        CreationDraft.objects.filter(
            campaign_id=campaign_id, status__in=[Status.SUBMITTED, Status.RETURNED]
        )
        .select_related("user", "reviewed_by")
        .order_by("submitted_at", "pk")
    )
    names = dict(campaign.memberships.values_list("user_id", "user__username"))
    rows = [
        {
            "draft": d,
            "name": (d.data.get("background") or {}).get("name") or "Unnamed character",
            "player": _player_name(d, names),
            "species": (d.data.get("species") or {}).get("name")
            or (d.data.get("species") or {}).get("choice")
            or "",
        }
        for d in drafts
    ]
    context = {
        "campaign": campaign,
        "membership": membership,
        "waiting": [r for r in rows if r["draft"].status == Status.SUBMITTED],
        "returned": [r for r in rows if r["draft"].status == Status.RETURNED],
    }
    return render(request, "characters/draft_review_queue.html", context)


def _review_page(request, membership, draft, *, return_form=None, status=200):
    names = dict(membership.campaign.memberships.values_list("user_id", "user__username"))
    if approval.is_droid(draft):  # a droid from the builder: its building dice, not the wizard's
        context = {
            "campaign": membership.campaign,
            "membership": membership,
            "draft": draft,
            "name": (draft.data.get("background") or {}).get("name") or "Unnamed droid",
            "player": _player_name(draft, names),
            "droid": approval.droid_review(draft),
            "return_form": return_form or ReturnForm(),
        }
        return render(request, "characters/draft_review_droid.html", context, status=status)
    assessment = check_draft(draft, gm=False)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "draft": draft,
        "name": (draft.data.get("background") or {}).get("name") or "Unnamed character",
        "player": _player_name(draft, names),
        "differences": approval.differences(draft),
        "comparison": approval.comparison(draft),
        "species_to_add": approval.proposed_species(draft),
        "return_form": return_form or ReturnForm(),
        **review_context(draft, assessment),
    }
    return render(request, "characters/draft_review.html", context, status=status)


def _campaign_draft(campaign_id: int, draft_id: int) -> CreationDraft | None:
    return (
        CreationDraft.objects.filter(pk=draft_id, campaign_id=campaign_id)
        .select_related("campaign", "user", "reviewed_by")
        .first()
    )


@login_required
def review(request, campaign_id, draft_id):
    membership = _gm(request, campaign_id)
    draft = _campaign_draft(campaign_id, draft_id)
    if draft is None or _never_sent(draft):
        raise Http404("No such draft")
    return _review_page(request, membership, draft)


def _queue_url(campaign_id: int) -> str:
    return reverse("characters:draft_queue", args=[campaign_id])


def _decision_draft(request, campaign_id, draft_id):
    """The draft a GM's decision is about; gone (approved in another tab, discarded) is a
    refusal with a message, not an error."""
    membership = _gm(request, campaign_id)
    draft = _campaign_draft(campaign_id, draft_id)
    if draft is not None and _never_sent(draft):
        raise Http404("No such draft")
    return membership, draft


def _never_sent(draft: CreationDraft) -> bool:
    """A draft its player never sent to the GM is his alone: the GM is shown nothing."""
    return draft.status == Status.EDITING and draft.submitted_at is None


@login_required
@require_POST
def approve(request, campaign_id, draft_id):
    _, draft = _decision_draft(request, campaign_id, draft_id)
    back = _queue_url(campaign_id)
    if draft is None:
        return _refused(request, f"Not approved: {approval.GONE}", back)
    try:
        character = approval.approve(
            draft, actor=request.user, add_species=request.POST.get("add_species") == "on"
        )
    except approval.ApprovalRefused as refusal:
        here = reverse("characters:draft_review", args=[campaign_id, draft_id])
        return _refused(request, f"Not approved: {refusal}", here)
    messages.success(request, f"{character.name} was approved and created.")
    return redirect(character.get_absolute_url())


@login_required
@require_POST
def return_draft(request, campaign_id, draft_id):
    membership, draft = _decision_draft(request, campaign_id, draft_id)
    back = _queue_url(campaign_id)
    if draft is None:
        return _refused(request, f"Not returned: {approval.GONE}", back)
    form = ReturnForm(request.POST)
    if not form.is_valid():
        return _review_page(request, membership, draft, return_form=form, status=400)
    try:
        approval.return_draft(draft, actor=request.user, reason=form.cleaned_data["reason"])
    except approval.ApprovalRefused as refusal:
        here = reverse("characters:draft_review", args=[campaign_id, draft_id])
        return _refused(request, f"Not returned: {refusal}", here)
    name = (draft.data.get("background") or {}).get("name") or "The character"
    messages.success(request, f"{name} was returned to its player with your reason.")
    return redirect(back)
