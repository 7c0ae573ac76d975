from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from campaigns.models import Invitation

STALE_AFTER = timedelta(days=30)


@shared_task
def purge_stale_invitations() -> int:
    """Delete invitations that expired or were revoked more than 30 days ago (run daily by
    beat). Returns how many were deleted."""
    cutoff = timezone.now() - STALE_AFTER
    deleted, _ = Invitation.objects.filter(
        Q(expires_at__lt=cutoff) | Q(revoked_at__lt=cutoff)
    ).delete()
    return deleted
