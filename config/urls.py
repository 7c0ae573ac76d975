from django.contrib import admin
from django.urls import include, path

from campaigns import views as campaign_views
from config.views import healthz

urlpatterns = [
    path("", campaign_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/signup/", campaign_views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("campaigns/", include("campaigns.urls")),
    path("campaigns/<int:campaign_id>/characters/", include("characters.urls")),
    path("admin/", admin.site.urls),
]
