from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator
from django.urls import include, path

from campaigns import views as campaign_views
from config import converters  # noqa: F401  (registers <id:…>)
from config.views import healthz


class LoginForm(AuthenticationForm):
    """Django's log-in form sets the username's length limit only on the widget, so a longer
    name reached ``authenticate()`` and django-axes, whose attempt log refuses it (a 500 on
    PostgreSQL). No account has such a name: refuse it as a form error before anything runs."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))


urlpatterns = [
    path("", campaign_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/signup/", campaign_views.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("campaigns/", include("campaigns.urls")),
    # The characters of a campaign (.../characters/) and its dice log (.../rolls/).
    path("campaigns/<id:campaign_id>/", include("characters.urls")),
    # A campaign's encounters: the GM's dashboard and the players' view of each fight.
    path("campaigns/<id:campaign_id>/encounters/", include("encounters.urls")),
    path("admin/", admin.site.urls),
]

# Uploaded portraits: served by Django in development only (static() is empty unless DEBUG);
# in production the proxy serves the media volume.
urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
