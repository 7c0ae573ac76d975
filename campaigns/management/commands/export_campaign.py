from django.core.management.base import BaseCommand, CommandError

from campaigns.backup import export_campaign
from campaigns.models import Campaign


class Command(BaseCommand):
    help = (
        "Write a campaign's backup (everything in it, docs/backup-format.md) to standard "
        "output or --output FILE: manage.py export_campaign ID > file.json"
    )

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int, help="The campaign's id (in its URL).")
        parser.add_argument("-o", "--output", help="Write to this file instead of stdout.")

    def handle(self, *args, campaign_id, output=None, **options):
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise CommandError(f"there is no campaign {campaign_id}")
        if output:
            with open(output, "w", encoding="utf-8") as file:
                for chunk in export_campaign(campaign):
                    file.write(chunk)
            self.stderr.write(f"Wrote the backup of “{campaign.name}” to {output}.")
            return
        for chunk in export_campaign(campaign):
            self.stdout.write(chunk, ending="")
        self.stdout.flush()
