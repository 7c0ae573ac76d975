"""For benchmarks: count the database queries of each request into an ``X-DB-Queries`` header.
On only when ``DATAPAD_QUERY_COUNT`` is set (bench/live.py sets it for its gunicorn)."""

from django.db import connections


class QueryCountMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        count = 0

        def counter(execute, sql, params, many, context):
            nonlocal count
            count += 1
            return execute(sql, params, many, context)

        with connections["default"].execute_wrapper(counter):
            response = self.get_response(request)
        response["X-DB-Queries"] = str(count)
        return response
