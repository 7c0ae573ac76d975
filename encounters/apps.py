from django.apps import AppConfig


class EncountersConfig(AppConfig):
    name = "encounters"
    verbose_name = "Encounters (combat rounds; arrives with the encounter issue)"
