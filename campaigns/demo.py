"""The demo campaign that ``make run`` loads: a GM, two players and one campaign.

Idempotent: running it again keeps what exists (and resets the demo passwords). Its characters
and rolls are the characters app's (``characters.demo.load_demo`` loads everything)."""

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.models import Campaign, Invitation, Membership

DEMO_PASSWORD = "datapad-demo"
DEMO_USERS = [
    ("gm", Membership.Role.GM),
    ("leia", Membership.Role.PLAYER),
    ("han", Membership.Role.PLAYER),
]
DEMO_CAMPAIGN = "Shadows over Tatooine"


@transaction.atomic
def load_demo_campaign() -> tuple[Campaign, dict]:
    """The demo campaign and its users by username."""
    User = get_user_model()
    users = {}
    for username, _ in DEMO_USERS:
        user, _ = User.objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.com"}
        )
        user.set_password(DEMO_PASSWORD)
        user.save()
        users[username] = user
    campaign, created = Campaign.objects.get_or_create(
        name=DEMO_CAMPAIGN,
        created_by=users["gm"],
        defaults={
            "description": "A demo campaign: the Rebel cell on Tatooine must get the stolen "
            "plans off-world before the Empire's garrison closes Mos Eisley."
        },
    )
    for username, role in DEMO_USERS:
        Membership.objects.get_or_create(
            campaign=campaign, user=users[username], defaults={"role": role}
        )
    if created:
        Invitation.objects.create(campaign=campaign, created_by=users["gm"])
    return campaign, users
