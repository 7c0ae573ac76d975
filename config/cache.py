"""Pages behind log-in are never stored by a shared cache; a Redis cache that is down does not
take the site down."""

import logging

from django.core.cache.backends.redis import RedisCache
from django.utils.cache import has_vary_header, patch_cache_control
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

REDIS_DOWN = (RedisConnectionError, RedisTimeoutError)


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


class ResilientRedisCache(RedisCache):
    """Django's Redis cache, which answers as an empty cache while Redis is unreachable instead
    of raising: the cache only holds what can be rebuilt (live-update versions, cached roles,
    a backup's progress), so a Redis that is down must not take every page down with it. Each
    failure is logged; reads give their default, writes are dropped, ``incr`` raises
    ``ValueError`` as for a missing key. Jobs still need Redis as the broker: an advance or a
    backup refuses with its own message (characters.downtime, campaigns.backup_jobs)."""

    def _call(self, name: str, default, *args, **kwargs):
        try:
            return getattr(super(), name)(*args, **kwargs)
        except REDIS_DOWN as exc:
            logger.warning("cache %s skipped: Redis is unreachable (%s)", name, exc)
            return default

    def add(self, *args, **kwargs):
        return self._call("add", False, *args, **kwargs)

    def get(self, key, default=None, version=None):
        return self._call("get", default, key, default, version)

    def set(self, *args, **kwargs):
        return self._call("set", None, *args, **kwargs)

    def touch(self, *args, **kwargs):
        return self._call("touch", False, *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self._call("delete", False, *args, **kwargs)

    def get_many(self, *args, **kwargs):
        return self._call("get_many", {}, *args, **kwargs)

    def has_key(self, *args, **kwargs):
        return self._call("has_key", False, *args, **kwargs)

    def incr(self, key, delta=1, version=None):
        try:
            return super().incr(key, delta, version)
        except REDIS_DOWN as exc:
            logger.warning("cache incr skipped: Redis is unreachable (%s)", exc)
            raise ValueError(f"Key '{key}' not found: the cache is unreachable") from None

    def set_many(self, *args, **kwargs):
        return self._call("set_many", [], *args, **kwargs)

    def delete_many(self, *args, **kwargs):
        return self._call("delete_many", None, *args, **kwargs)

    def clear(self):
        return self._call("clear", False)
