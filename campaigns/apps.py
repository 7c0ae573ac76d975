from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"

    def ready(self):
        # Backups: the campaign's own parts first; characters and encounters add theirs.
        from campaigns.backup import register
        from campaigns.backup_parts import PARTS

        register(*PARTS)
