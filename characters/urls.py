from django.urls import include, path

from characters import live, log, views, wizard

app_name = "characters"

#: Under /campaigns/<id>/characters/.
character_patterns = [
    path("", views.character_list, name="list"),
    path("<id:character_id>/", views.sheet, name="sheet"),
    path("<id:character_id>/edit/", views.edit, name="edit"),
    path("<id:character_id>/roll/", views.roll_panel, name="roll"),
    path("<id:character_id>/ledger/", views.ledger, name="ledger"),
    path("<id:character_id>/award/", views.award, name="award"),
    path("<id:character_id>/delete/", views.delete, name="delete"),
    # The creation wizard: state lives in a CreationDraft on the server.
    path("new/", wizard.start, name="wizard_start"),
    path("new/<id:draft_id>/discard/", wizard.discard, name="wizard_discard"),
    path("new/<id:draft_id>/<str:step>/", wizard.step, name="wizard_step"),
]

#: Mounted at /campaigns/<id>/ by config/urls.py: the characters, and the campaign's dice log.
urlpatterns = [
    path("characters/", include(character_patterns)),
    path("rolls/", log.dice_log, name="dice_log"),
    path("live/", live.live, name="live"),
]
