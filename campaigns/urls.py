from django.urls import path

from campaigns import backup_views, library_views, views

app_name = "campaigns"

urlpatterns = [
    path("new/", views.campaign_create, name="create"),
    path("restore/", backup_views.backup_restore, name="restore"),
    path("restore/<id:job_id>/", backup_views.restore_job, name="restore_job"),
    path("<id:campaign_id>/", views.campaign_detail, name="detail"),
    path("<id:campaign_id>/edit/", views.campaign_edit, name="edit"),
    path("<id:campaign_id>/rules/", views.campaign_rules, name="rules"),
    path("<id:campaign_id>/leave/", views.campaign_leave, name="leave"),
    path("<id:campaign_id>/backup/", backup_views.backup_download, name="backup"),
    path("<id:campaign_id>/invitations/", views.invitation_create, name="invitation_create"),
    path(
        "<id:campaign_id>/invitations/<id:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path("<id:campaign_id>/members/<id:member_id>/role/", views.member_role, name="member_role"),
    path(
        "<id:campaign_id>/members/<id:member_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path(
        "<id:campaign_id>/removals/<id:removal_id>/allow/",
        views.removal_allow,
        name="removal_allow",
    ),
    path("join/<str:token>/", views.join, name="join"),
    # The campaign's library: species, templates, weapons, armour and gear.
    path("<id:campaign_id>/library/", library_views.library_page, name="library"),
    path("<id:campaign_id>/library/export/", library_views.library_export, name="library_export"),
    path("<id:campaign_id>/library/import/", library_views.library_import, name="library_import"),
    path("<id:campaign_id>/library/<str:kind>/new/", library_views.entry_add, name="library_add"),
    path(
        "<id:campaign_id>/library/entries/<id:entry_id>/",
        library_views.entry_edit,
        name="library_edit",
    ),
    path(
        "<id:campaign_id>/library/entries/<id:entry_id>/delete/",
        library_views.entry_delete,
        name="library_delete",
    ),
]
