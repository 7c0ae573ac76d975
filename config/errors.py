"""The error pages, as views that cannot fail themselves.

Django's own handlers run the CSRF check first (``requires_csrf_token``), and that check reads
``request.POST``. When the body is what could not be read (a form body declared in a charset
other than UTF-8 raises ``BadRequest`` and, unlike other unreadable bodies, is not marked as
read), the 400 handler raises again, then the 500 handler does, and the client gets a bare
500. These views read nothing of the request's body or query string; the 500 page is rendered
without the request at all, so a broken database or session cannot break it too."""

from django.core.exceptions import BadRequest
from django.http import HttpResponseServerError
from django.shortcuts import render
from django.template import loader

ALERT = "includes/alert.html"
"""What an HTMX request gets instead of a page: the message alone, to show in place."""


def _htmx(request) -> bool:
    # The header itself: request.htmx may not be set yet when an early middleware refuses.
    return request.headers.get("HX-Request") == "true"


def _refuse(request, page: str, message: str, status: int, context=None):
    if _htmx(request):
        return render(request, ALERT, {"message": message}, status=status)
    return render(request, page, {"message": message, **(context or {})}, status=status)


def bad_request(request, exception=None):
    return _refuse(request, "400.html", "That request could not be read; nothing changed.", 400)


def permission_denied(request, exception=None):
    # The reason is one of our own messages ("Only the campaign's game masters can do that."),
    # escaped like any other text in the template.
    reason = str(exception or "") or "You are not allowed to do that."
    return _refuse(request, "403.html", reason, 403, {"reason": str(exception or "")})


def page_not_found(request, exception=None):
    return _refuse(request, "404.html", "That is not here (any more); reload the page.", 404)


def csrf_failure(request, reason=""):
    """A form posted with a stale or missing CSRF token, usually after the session ended."""
    message = "This page is out of date (you may have logged out); reload it and try again."
    return _refuse(request, "403.html", message, 403, {"reason": message})


def server_error(request):
    return HttpResponseServerError(loader.render_to_string("500.html"))


class UnreadableBodyMiddleware:
    """Answer a POST whose form body cannot be decoded with a 400, before anything else reads
    it. Without this, with DEBUG on (``make run``), Django's technical 400 page re-reads
    ``request.POST``, fails again and the client gets a bare 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST":
            try:
                request.POST  # noqa: B018  (parse now, while a failure can still be a 400)
            except BadRequest:
                return bad_request(request)
        return self.get_response(request)
