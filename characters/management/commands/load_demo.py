from django.core.management.base import BaseCommand

from campaigns.demo import DEMO_PASSWORD, DEMO_USERS
from characters.demo import load_demo


class Command(BaseCommand):
    help = "Load the demo campaign, its characters and rolls (safe to run again); print logins."

    def handle(self, *args, **options):
        campaign = load_demo()
        self.stdout.write(self.style.SUCCESS(f"Demo campaign: {campaign.name}"))
        self.stdout.write("Demo logins (username / password):")
        for username, role in DEMO_USERS:
            self.stdout.write(f"  {username:<6} / {DEMO_PASSWORD}   ({role.label})")
