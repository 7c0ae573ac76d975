"""Datapad settings: one module, driven by environment variables.

With no environment at all this is the embedded mode of ``make run``: SQLite, Celery tasks run
eagerly in the web process, e-mail printed on the console. Set ``DATABASE_URL`` for
PostgreSQL (psycopg 3) and ``REDIS_URL`` for a Redis broker, result backend and cache.
``DJANGO_ENV=production`` refuses to start without ``SECRET_KEY`` and ``ALLOWED_HOSTS`` and
turns on every ``check --deploy`` setting.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from config.network import DEFAULT_TRUSTED_PROXIES, parse_trusted_proxies

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
DJANGO_ENV = env.str("DJANGO_ENV", default="development")
PRODUCTION = DJANGO_ENV == "production"
if DJANGO_ENV not in ("development", "production", "test"):
    raise ImproperlyConfigured("DJANGO_ENV must be development, test or production")

# --- Security ---
if PRODUCTION:
    try:
        SECRET_KEY = env.str("SECRET_KEY")
        ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
    except ImproperlyConfigured as exc:
        raise ImproperlyConfigured(
            f"Production needs SECRET_KEY and ALLOWED_HOSTS in the environment ({exc})"
        ) from None
    if len(SECRET_KEY) < 50 or SECRET_KEY.startswith("django-insecure"):
        raise ImproperlyConfigured("SECRET_KEY must be a random string of at least 50 characters")
    # ALLOWED_HOSTS="" parses to []: every page would answer 400 while /healthz says 200.
    ALLOWED_HOSTS = [host.strip() for host in ALLOWED_HOSTS if host.strip()]
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS is empty: name the host(s) Datapad is served as, "
            "e.g. ALLOWED_HOSTS=datapad.example.org"
        )
    DEBUG = False
else:
    # A fixed key is fine for the embedded mode: it never leaves this machine.
    SECRET_KEY = env.str("SECRET_KEY", default="django-insecure-embedded-datapad-key-for-local-use")
    DEBUG = env.bool("DEBUG", default=DJANGO_ENV == "development")
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])

CSRF_FAILURE_VIEW = "config.errors.csrf_failure"
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# No SECURE_PROXY_SSL_HEADER: Django would believe X-Forwarded-Proto from anyone. gunicorn
# reads it only from FORWARDED_ALLOW_IPS (the TLS proxy) and sets wsgi.url_scheme, which
# Django uses.
# The client's address behind that proxy (log-in lockouts): see config/network.py.
try:
    TRUSTED_PROXIES = parse_trusted_proxies(
        env.list("TRUSTED_PROXIES", default=DEFAULT_TRUSTED_PROXIES)
    )
except ValueError as exc:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES: {exc}") from None
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = PRODUCTION
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=PRODUCTION)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = PRODUCTION
SECURE_HSTS_PRELOAD = PRODUCTION
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy in every environment, so the tests and `make run` see what production
# enforces: scripts and styles only from our static files (htmx included), no inline code.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# --- Applications ---
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "campaigns",
    "characters",
    "encounters",
]

MIDDLEWARE = [
    "config.views.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Pages and fragments go out compressed (HTML shrinks ~5x). CSRF tokens are masked per
    # response, which is Django's answer to BREACH; nothing else secret is reflected.
    "django.middleware.gzip.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "config.cache.PrivateCacheMiddleware",
    "config.logging.RequestLogMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "config.errors.UnreadableBodyMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

if env.bool("DATAPAD_QUERY_COUNT", default=False):  # bench/live.py: queries per request
    MIDDLEWARE.insert(0, "config.querycount.QueryCountMiddleware")

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Data ---
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
# Persistent connections wherever PostgreSQL serves (a new connection costs more than a poll);
# the test suite opens and drops its own databases, so it keeps none.
_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")
DATABASES["default"]["CONN_MAX_AGE"] = env.int(
    "CONN_MAX_AGE", default=60 if _POSTGRES and DJANGO_ENV != "test" else 0
)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a lock rather than failing at once; SQLite is the single-user embedded mode.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {
            # Answers as an empty cache while Redis is down (config.cache), within a second.
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Sessions live in the database, so any web replica can serve any request.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# --- Celery ---
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task a killed worker held is redelivered after this many seconds (Redis's default is an
# hour). A long advance of time may run twice meanwhile; each day's row lock makes that safe.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600)
}
CELERY_BEAT_SCHEDULE = {
    "purge-stale-invitations": {
        "task": "campaigns.tasks.purge_stale_invitations",
        "schedule": 24 * 3600,
    },
}

# --- Accounts ---
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=1.0)
# Lock the (username, client address) pair: a stranger's wrong passwords lock out only that
# stranger, and the client address is the one the proxy saw, not the proxy's own.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.network.client_ip"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

_MAIL_BACKEND = env.str(
    "EMAIL_BACKEND",
    default="django.core.mail.backends.smtp.EmailBackend"
    if PRODUCTION
    else "django.core.mail.backends.console.EmailBackend",
)
MAILERS = {"default": {"BACKEND": _MAIL_BACKEND}}
if _MAIL_BACKEND.endswith("smtp.EmailBackend"):
    MAILERS["default"]["OPTIONS"] = {
        "host": env.str("EMAIL_HOST", default="localhost"),
        "port": env.int("EMAIL_PORT", default=25),
        "username": env.str("EMAIL_HOST_USER", default=""),
        "password": env.str("EMAIL_HOST_PASSWORD", default=""),
        "use_tls": env.bool("EMAIL_USE_TLS", default=False),
    }
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Datapad <datapad@localhost>")

# --- Internationalisation and static files ---
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "media")

# --- Logging: one JSON line per request on stdout ---
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.logging.JsonFormatter"}},
    "handlers": {"stdout": {"class": "logging.StreamHandler", "formatter": "json"}},
    "loggers": {
        "datapad.request": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
        "django": {"handlers": ["stdout"], "level": env.str("DJANGO_LOG_LEVEL", default="WARNING")},
        "axes": {"handlers": ["stdout"], "level": "WARNING", "propagate": False},
    },
}
REQUEST_LOGGING = env.bool("REQUEST_LOGGING", default=True)
