"""Pages behind log-in are never stored by a shared cache."""

from django.utils.cache import has_vary_header, patch_cache_control


class PrivateCacheMiddleware:
    """``Cache-Control: private`` on every response to a logged-in user and on every response
    that varies on the cookie (the session, or the CSRF token every page carries). What a view
    already set (``no-cache``, ``no-store``, ``max-age``) is kept; only ``public`` gives way.

    Sits outside the session and CSRF middleware, so it sees the ``Vary: Cookie`` they add."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if has_vary_header(response, "Cookie") or (user is not None and user.is_authenticated):
            patch_cache_control(response, private=True)
        return response
