from django.urls import path

from campaigns import views

app_name = "campaigns"

urlpatterns = [
    path("new/", views.campaign_create, name="create"),
    path("<id:campaign_id>/", views.campaign_detail, name="detail"),
    path("<id:campaign_id>/edit/", views.campaign_edit, name="edit"),
    path("<id:campaign_id>/rules/", views.campaign_rules, name="rules"),
    path("<id:campaign_id>/leave/", views.campaign_leave, name="leave"),
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
]
