"""Structured request logging: one JSON object per request on stdout."""

import json
import logging
import time

from django.conf import settings

logger = logging.getLogger("datapad.request")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        payload = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        payload.update(getattr(record, "fields", {}))
        if record.exc_info:
            payload["exception"] = self.formatException(record.exc_info)
        return json.dumps(payload, default=str)


class RequestLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        if settings.REQUEST_LOGGING and request.path != "/healthz":
            user = getattr(request, "user", None)
            logger.info(
                "request",
                extra={
                    "fields": {
                        "method": request.method,
                        "path": request.path,
                        "status": response.status_code,
                        "ms": round((time.perf_counter() - started) * 1000, 1),
                        "user": user.pk if user is not None and user.is_authenticated else None,
                        "htmx": bool(request.headers.get("HX-Request")),
                    }
                },
            )
        return response
