"""The engine's one error type.

Every exception the rules engine raises on purpose is a :class:`RulesError`: a refusal with a
message for the user ("not enough Character Points: 2 needed, 1 held"). Views and services turn
it into a form error or a 400; anything else escaping the engine is a bug and surfaces as one.
"""


class RulesError(ValueError):
    """A refusal by the rules, with a message that says why. Nothing was changed."""
