"""Who may see and change what in a campaign.

Every campaign-scoped view starts with :func:`membership_or_404`: a user who does not belong to
the campaign gets a 404 (its existence is not revealed); a member lacking the role gets a 403.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns.models import Membership


def membership_or_404(user, campaign_id: int, *, role: str = "member") -> Membership:
    """The user's membership of the campaign, or 404 when they are not in it.

    ``role``: ``"member"`` (anyone in the campaign), ``"gm"`` (GM or co-GM) or ``"owner"``
    (the game master alone); a member without it gets PermissionDenied (403)."""
    membership = (
        Membership.objects.select_related("campaign")
        .filter(campaign_id=campaign_id, user=user)
        .first()
    )
    if membership is None:
        raise Http404("No such campaign")
    if role == "gm" and not membership.is_gm:
        raise PermissionDenied("Only the campaign's game masters can do that.")
    if role == "owner" and membership.role != Membership.Role.GM:
        raise PermissionDenied("Only the campaign's game master can do that.")
    return membership
