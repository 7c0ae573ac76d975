from django.urls import include, path

from characters import advancement_views, calendar_views, live, log, trait_views, views, wizard

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
    # Advancement from the sheet, and the GM's skill edits.
    path("<id:character_id>/improve/", advancement_views.improve, name="improve"),
    path("<id:character_id>/advancements/", advancement_views.advancements, name="advancements"),
    path("<id:character_id>/advancements/withdraw/", advancement_views.withdraw, name="withdraw"),
    path("<id:character_id>/skills/", advancement_views.skills, name="skills"),
    path("<id:character_id>/skills/remove/", advancement_views.skill_remove, name="skill_remove"),
    # The creation wizard: state lives in a CreationDraft on the server.
    path("new/", wizard.start, name="wizard_start"),
    path("new/<id:draft_id>/discard/", wizard.discard, name="wizard_discard"),
    path("new/<id:draft_id>/<str:step>/", wizard.step, name="wizard_step"),
]

#: Mounted at /campaigns/<id>/ by config/urls.py: the characters, the campaign's dice log and
#: its calendar.
urlpatterns = [
    path("characters/", include(character_patterns)),
    path("rolls/", log.dice_log, name="dice_log"),
    path("live/", live.live, name="live"),
    # The calendar: the date, adventures, awards, advancing time; the GM's approvals.
    path("calendar/", calendar_views.calendar, name="calendar"),
    path("calendar/settings/", calendar_views.calendar_settings, name="calendar_settings"),
    path("calendar/adventures/", calendar_views.adventure_start, name="adventure_start"),
    path("calendar/adventures/end/", calendar_views.adventure_end, name="adventure_end"),
    path("calendar/awards/", calendar_views.awards, name="awards"),
    path("calendar/advance/", calendar_views.advance, name="advance"),
    path("calendar/traits/", trait_views.trait_uses, name="trait_uses"),
    path("advancements/", advancement_views.approvals, name="approvals"),
]
