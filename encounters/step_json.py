"""A step as it arrives at a step service (the encounter's, the fleet action's): JSON text or
data, refused with a reason when it is not UTF-8, too long, not JSON, or holds a NUL character
(PostgreSQL's jsonb refuses it)."""

from __future__ import annotations

import json
from typing import Any

from rules.errors import RulesError

__all__ = ["has_nul", "parse_step"]


def parse_step(
    command_json: str | bytes | dict[str, Any], *, error: type[RulesError], max_chars: int
) -> Any:
    """The step as JSON data: a dict as it is, or JSON text parsed (bad JSON is refused with
    ``error``)."""
    if isinstance(command_json, bytes | bytearray):
        try:
            command_json = command_json.decode("utf-8")
        except UnicodeDecodeError:
            raise error("the step is not UTF-8 text") from None
    if isinstance(command_json, str):
        if len(command_json) > max_chars:
            raise error(f"the step is longer than {max_chars} characters")
        try:
            return json.loads(command_json)
        except (ValueError, RecursionError) as exc:
            raise error(f"the step is not valid JSON ({exc})") from None
    return command_json


def has_nul(data: Any, depth: int = 0) -> bool:
    """Whether any text in the step holds a NUL character."""
    if isinstance(data, str):
        return "\x00" in data
    if depth > 20:
        return False
    if isinstance(data, dict):
        return any(has_nul(k, depth + 1) or has_nul(v, depth + 1) for k, v in data.items())
    if isinstance(data, list | tuple):
        return any(has_nul(v, depth + 1) for v in data)
    return False
