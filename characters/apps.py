from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"

    def ready(self):
        # The live channel's receivers (membership and character changes bump a campaign's
        # version) must be connected wherever models change, web process or worker; and the
        # characters' parts of a campaign backup, after the campaign's own (campaigns.backup).
        from campaigns.backup import register
        from characters import live  # noqa: F401
        from characters.backup import PARTS
        from characters.craft_backup import PARTS as CRAFT_PARTS
        from characters.project_backup import PARTS as PROJECT_PARTS
        from characters.school_backup import PARTS as SCHOOL_PARTS

        register(*PARTS)
        register(*CRAFT_PARTS)
        register(*PROJECT_PARTS)
        register(*SCHOOL_PARTS)
