"""URL converters."""

from django.urls import register_converter


class IdConverter:
    """A database id in a URL: digits, at most 18 of them, so any id a 64-bit column can hold
    matches and anything longer is a 404 before it reaches a query (SQLite overflows on it)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
