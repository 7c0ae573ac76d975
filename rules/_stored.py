"""Reading values back from storage: the checks every ``from_json`` needs, in one place.

A :class:`Reader` wraps one stored object (a JSON dict) and reads its fields with the type
they must have; anything unexpected (not a dict, a missing or unknown field, a wrong type) is
refused with the topic's own ``RulesError`` subclass and a message naming the field.
"""

from __future__ import annotations

from rules.dice import DieCode, DieCodeError
from rules.difficulty import DifficultyError, DifficultyLevel
from rules.errors import RulesError


class Reader:
    """Typed reads from one stored object, each refusal naming the object and the field."""

    def __init__(
        self, data: object, what: str, keys: tuple[str, ...], error: type[RulesError]
    ) -> None:
        self.error = error
        self.what = what
        if not isinstance(data, dict):
            raise error(f"a stored {what} is an object, not {type(data).__name__}")
        missing = [key for key in keys if key not in data]
        unknown = sorted(str(key) for key in data if key not in keys)
        if missing or unknown:
            raise error(
                f"a stored {what} has the fields {', '.join(keys)}"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; unknown {', '.join(unknown)}" if unknown else "")
            )
        self.data: dict[str, object] = data

    def refuse(self, key: str, expected: str) -> RulesError:
        return self.error(f"{self.what}: {key} must be {expected}, not {self.data[key]!r}")

    def integer(self, key: str, *, least: int | None = None) -> int:
        value = self.data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.refuse(key, "a whole number")
        if least is not None and value < least:
            raise self.refuse(key, f"{least} or more")
        return value

    def optional_integer(self, key: str) -> int | None:
        return None if self.data[key] is None else self.integer(key)

    def text(self, key: str) -> str:
        value = self.data[key]
        if not isinstance(value, str):
            raise self.refuse(key, "text")
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.data[key]
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.refuse(key, "a list of texts")
        return tuple(value)

    def flag(self, key: str) -> bool:
        value = self.data[key]
        if not isinstance(value, bool):
            raise self.refuse(key, "true or false")
        return value

    def choice[T: str](self, key: str, choices: tuple[T, ...]) -> T:
        value = self.data[key]
        for choice in choices:
            if value == choice:
                return choice
        raise self.refuse(key, "one of " + ", ".join(choices))

    def items(self, key: str) -> list[object]:
        value = self.data[key]
        if not isinstance(value, list):
            raise self.refuse(key, "a list")
        return value

    def level(self, key: str) -> DifficultyLevel | None:
        """A difficulty level stored by ``DifficultyLevel.to_json`` (or null)."""
        value = self.data[key]
        if value is None:
            return None
        try:
            return DifficultyLevel.from_json(value)
        except DifficultyError as exc:
            raise self.error(f"{self.what}: {key}: {exc}") from None

    def code(self, key: str) -> DieCode:
        value = self.data[key]
        if not isinstance(value, str):
            raise self.refuse(key, "a die code such as 4D+1")
        try:
            return DieCode.parse(value)
        except DieCodeError as exc:
            raise self.error(f"{self.what}: {key}: {exc}") from None
