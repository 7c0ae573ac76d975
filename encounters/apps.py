from django.apps import AppConfig


class EncountersConfig(AppConfig):
    name = "encounters"
    verbose_name = "Encounters (combat rounds; arrives with the encounter issue)"

    def ready(self):
        # Backups: the encounters' part, after the campaign's and the characters' parts.
        from campaigns.backup import register
        from encounters.backup import PARTS
        from encounters.fleet_backup import PARTS as FLEET_PARTS

        register(*PARTS)
        register(*FLEET_PARTS)
