from django.urls import path

from characters import views, wizard

app_name = "characters"

urlpatterns = [
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
