from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache


@never_cache
def healthz(request):
    """Health of this web process for load balancers and compose: the database answers.

    503 only when the database is down, since then no page works. The broker (Redis, when one
    is configured) is reported apart: pages still work without it, so a broker outage leaves
    every replica in service (status "degraded", 200) instead of pulling them all."""
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as exc:
        checks["database"] = f"error: {exc.__class__.__name__}"
    if settings.REDIS_URL:
        try:
            import redis

            redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2
            ).ping()
            checks["broker"] = "ok"
        except Exception as exc:
            checks["broker"] = f"error: {exc.__class__.__name__}"
    if checks["database"] != "ok":
        status = "unhealthy"
    elif all(value == "ok" for value in checks.values()):
        status = "ok"
    else:
        status = "degraded"
    return JsonResponse(
        {"status": status, "checks": checks}, status=503 if status == "unhealthy" else 200
    )


class HealthCheckMiddleware:
    """Answer /healthz before host validation, so container and load-balancer probes that
    address the process by IP (not by an ALLOWED_HOSTS name) still get an answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path == "/healthz":
            return healthz(request)
        return self.get_response(request)
