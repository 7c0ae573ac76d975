"""The campaign page's pieces about new characters and their approval, supplied by this app
(``campaigns`` imports no other app): the GM's link to the drafts awaiting approval, with their
number, and a player's own drafts sent to the GM (awaiting, or returned with the reason)."""

from django import template

from characters.models import CreationDraft

register = template.Library()
Status = CreationDraft.Status


@register.inclusion_tag("characters/draft_review_link.html")
def drafts_awaiting_link(membership):
    """GM: "Characters awaiting approval (N)", a link to the queue."""
    count = 0
    if membership.is_gm:
        count = CreationDraft.objects.filter(
            campaign_id=membership.campaign_id, status=Status.SUBMITTED
        ).count()
    return {"membership": membership, "campaign": membership.campaign, "count": count}


@register.inclusion_tag("characters/draft_review_campaign.html")
def my_sent_drafts(membership):
    """The member's own drafts that went to the GM: awaiting approval, or returned."""
    drafts = CreationDraft.objects.filter(
        campaign_id=membership.campaign_id,
        user_id=membership.user_id,
        status__in=[Status.SUBMITTED, Status.RETURNED],
    ).order_by("-updated_at", "-pk")
    return {"membership": membership, "campaign": membership.campaign, "drafts": list(drafts)}
