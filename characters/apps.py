from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"

    def ready(self):
        # The live channel's receivers (membership and character changes bump a campaign's
        # version) must be connected wherever models change, web process or worker.
        from characters import live  # noqa: F401
