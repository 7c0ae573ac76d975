from django.urls import path

from campaigns import views

app_name = "campaigns"

urlpatterns = [
    path("new/", views.campaign_create, name="create"),
    path("<int:campaign_id>/", views.campaign_detail, name="detail"),
    path("<int:campaign_id>/edit/", views.campaign_edit, name="edit"),
    path("<int:campaign_id>/rules/", views.campaign_rules, name="rules"),
    path("<int:campaign_id>/leave/", views.campaign_leave, name="leave"),
    path("<int:campaign_id>/invitations/", views.invitation_create, name="invitation_create"),
    path(
        "<int:campaign_id>/invitations/<int:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path("<int:campaign_id>/members/<int:member_id>/role/", views.member_role, name="member_role"),
    path(
        "<int:campaign_id>/members/<int:member_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("<int:campaign_id>/rolls/", views.dice_log, name="dice_log"),
    path("join/<str:token>/", views.join, name="join"),
]
