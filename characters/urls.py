from django.urls import include, path

from characters import (
    advancement_views,
    approval_views,
    calendar_views,
    craft_long_run,
    craft_travel_views,
    craft_views,
    droid_builder,
    healing_views,
    import_views,
    live,
    log,
    project_views,
    repair_views,
    report_views,
    school_views,
    trait_views,
    views,
    wizard,
)

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
    path("<id:character_id>/healing/", healing_views.healing, name="healing"),
    path("<id:character_id>/healing/bacta/", healing_views.bacta, name="healing_bacta"),
    path("<id:character_id>/healing/cp/", healing_views.healing_cp, name="healing_cp"),
    path("<id:character_id>/healing/decide/", healing_views.decide_death, name="healing_decide"),
    path("<id:character_id>/school/", school_views.character_school, name="character_school"),
    path("<id:character_id>/healing/medpac/", healing_views.medpac, name="healing_medpac"),
    path("<id:character_id>/healing/activity/", healing_views.activity, name="healing_activity"),
    path(
        "<id:character_id>/healing/accelerate/",
        healing_views.accelerate,
        name="healing_accelerate",
    ),
    # A droid's repair as a downtime job (issue 19).
    path("<id:character_id>/repair/", repair_views.droid_repair, name="droid_repair"),
    path(
        "<id:character_id>/repair/start/",
        repair_views.droid_repair_start,
        name="droid_repair_start",
    ),
    path(
        "<id:character_id>/repair/<id:job_id>/cancel/",
        repair_views.droid_repair_cancel,
        name="droid_repair_cancel",
    ),
    path(
        "<id:character_id>/repair/<id:job_id>/resume/",
        repair_views.droid_repair_resume,
        name="droid_repair_resume",
    ),
    path("<id:character_id>/improve/", advancement_views.improve, name="improve"),
    path("<id:character_id>/advancements/", advancement_views.advancements, name="advancements"),
    path("<id:character_id>/advancements/withdraw/", advancement_views.withdraw, name="withdraw"),
    path("<id:character_id>/skills/", advancement_views.skills, name="skills"),
    path("<id:character_id>/skills/remove/", advancement_views.skill_remove, name="skill_remove"),
    # Plan an improvement of a weapon or armour: the quote, nothing spent.
    path("<id:character_id>/gear/improve/", project_views.item_quote, name="item_quote"),
    # The creation wizard: state lives in a CreationDraft on the server.
    path("new/", wizard.start, name="wizard_start"),
    path("new/<id:draft_id>/discard/", wizard.discard, name="wizard_discard"),
    # The GM's approval of new characters: the player sends or withdraws, the GM decides.
    path("new/<id:draft_id>/submit/", approval_views.submit, name="draft_submit"),
    path("new/<id:draft_id>/withdraw/", approval_views.withdraw, name="draft_withdraw"),
    path("drafts/", approval_views.queue, name="draft_queue"),
    path("drafts/<id:draft_id>/", approval_views.review, name="draft_review"),
    path("drafts/<id:draft_id>/approve/", approval_views.approve, name="draft_approve"),
    path("drafts/<id:draft_id>/return/", approval_views.return_draft, name="draft_return"),
    path("new/<id:draft_id>/<str:step>/", wizard.step, name="wizard_step"),
    # A character from another D6 tool's file, opened as a draft on the wizard's review.
    path("import/", import_views.import_character, name="import_character"),
    # The droid builder: a droid built with building dice, saved as a character at once.
    path("droids/new/", droid_builder.builder, name="droid_builder"),
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
    # One report per advance: every past advance, each with its report (filtered per player).
    path("calendar/advances/", report_views.advances, name="advances"),
    path(
        "calendar/advances/<id:advance_id>/",
        report_views.advance_report,
        name="advance_report",
    ),
    path("calendar/traits/", trait_views.trait_uses, name="trait_uses"),
    path("advancements/", advancement_views.approvals, name="approvals"),
    # [HOUSE] schools (issue 19): the GM's schools, enrolling (paid or owed), withdrawing.
    path("schools/", school_views.schools, name="schools"),
    path("schools/new/", school_views.school_new, name="school_new"),
    path("schools/<id:school_id>/edit/", school_views.school_edit, name="school_edit"),
    path("schools/<id:school_id>/open/", school_views.school_open, name="school_open"),
    path("schools/<id:school_id>/enrol/", school_views.school_enrol, name="school_enrol"),
    path(
        "schools/enrolments/<id:enrolment_id>/withdraw/",
        school_views.school_withdraw,
        name="school_withdraw",
    ),
    # Ships and vehicles (issue 18): the list, the GM's additions, the ship sheet and its crew.
    path("craft/", craft_views.craft_list, name="craft_list"),
    path("craft/add/", craft_views.craft_add, name="craft_add"),
    path("craft/new/", craft_views.craft_new, name="craft_new"),
    path("craft/<id:craft_id>/", craft_views.craft_sheet, name="craft_sheet"),
    path("craft/<id:craft_id>/crew/", craft_views.craft_crew, name="craft_crew"),
    path("craft/<id:craft_id>/delete/", craft_views.craft_delete, name="craft_delete"),
    # Damage and repairs (the GM records a hit; repairs asked for, then rolled).
    path("craft/<id:craft_id>/edit/", craft_views.craft_edit, name="craft_edit"),
    path("craft/<id:craft_id>/hit/", craft_views.craft_hit, name="craft_hit"),
    path("craft/<id:craft_id>/damage/clear/", craft_views.craft_clear, name="craft_clear"),
    path("craft/<id:craft_id>/damage/undo/", craft_views.craft_undo, name="craft_undo"),
    path("craft/<id:craft_id>/repairs/", craft_views.craft_repair_request, name="craft_repair"),
    path(
        "craft/<id:craft_id>/repairs/<id:repair_id>/resolve/",
        craft_views.craft_repair_resolve,
        name="craft_repair_resolve",
    ),
    path(
        "craft/<id:craft_id>/repairs/<id:repair_id>/cancel/",
        craft_views.craft_repair_cancel,
        name="craft_repair_cancel",
    ),
    # A repair worked in downtime (issue 19): start, stop (asks first), resume.
    path(
        "craft/<id:craft_id>/repairs/<id:repair_id>/job/",
        repair_views.craft_repair_job,
        name="craft_repair_job",
    ),
    path(
        "craft/<id:craft_id>/repairs/<id:repair_id>/job/cancel/",
        repair_views.craft_repair_job_cancel,
        name="craft_repair_job_cancel",
    ),
    path(
        "craft/<id:craft_id>/repairs/<id:repair_id>/job/resume/",
        repair_views.craft_repair_job_resume,
        name="craft_repair_job_resume",
    ),
    path("craft/<id:craft_id>/improve/", project_views.craft_quote, name="craft_quote"),
    path("projects/<id:project_id>/change/", project_views.project_change, name="project_change"),
    path(
        "craft/<id:craft_id>/stations/<id:station_id>/roll/",
        craft_views.craft_roll,
        name="craft_roll",
    ),
    # A craft's travel and movement: speeds, [RC] speed actions, astrogation, ranges.
    path("craft/<id:craft_id>/travel/", craft_travel_views.craft_travel, name="craft_travel"),
    path("craft/<id:craft_id>/travel/run/", craft_long_run.craft_long_run, name="craft_long_run"),
    path(
        "craft/<id:craft_id>/travel/move/",
        craft_travel_views.craft_travel_move,
        name="craft_travel_move",
    ),
    path(
        "craft/<id:craft_id>/travel/astrogate/",
        craft_travel_views.craft_travel_astrogate,
        name="craft_travel_astrogate",
    ),
]
