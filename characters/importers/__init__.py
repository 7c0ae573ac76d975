"""Importers of characters from the tools D6 players already use, into the creation wizard's
draft data (``characters.wizard``): the player checks the result on the wizard's review before
it becomes a character.

* :func:`read_document`: the uploaded or pasted text as JSON, refused when too big (checked
  before parsing), not UTF-8 text or not JSON.
* :func:`detect`: which format a document is (``"1bln21"``, ``"foundry-opend6"``) or None.
* :func:`import_character`: the draft data (species, attributes, skills, the Force, gear,
  background, imported ``balances``) and, in words, what could not be mapped.

Every refusal is an :class:`ImportRefused` whose message says what is wrong; nothing else
escapes (a file is never trusted: see ``characters.importers.common``).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from characters.importers import foundry_od6s, onebln21
from characters.importers.common import DraftBuilder

logger = logging.getLogger(__name__)

MAX_BYTES = 1_000_000
"""The largest file accepted: a character is a few kilobytes (a portrait inside one, more)."""

FORMATS = {onebln21.FORMAT: onebln21, foundry_od6s.FORMAT: foundry_od6s}
LABELS = {name: module.LABEL for name, module in FORMATS.items()}


class ImportRefused(Exception):
    """A file that cannot be imported, with a message for the user; nothing was created.
    ``internal``: the importer itself failed on this file (a bug, logged), not the file."""

    def __init__(self, message: str, *, internal: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.internal = internal

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class ImportResult:
    """``data``: the wizard's draft data (without ``start`` and ``import``, which the upload
    adds); ``unmapped``: what the file holds that the draft does not, in words."""

    data: dict
    format: str
    unmapped: list[str] = field(default_factory=list)


def read_document(raw: bytes | str) -> object:
    """The JSON document in an upload or a paste. Refused: over :data:`MAX_BYTES` (checked
    before anything is parsed), not UTF-8, not JSON, nested too deeply."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > MAX_BYTES:
        raise ImportRefused(
            f"The file is {size / 1_000_000:.1f} MB; a character file is at most "
            f"{MAX_BYTES // 1_000_000} MB."
        )
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportRefused(
                "The file is not text (UTF-8): export the character as JSON."
            ) from None
    if not raw.strip():
        raise ImportRefused("The file is empty.")
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise ImportRefused("The file's JSON is nested too deeply to be a character.") from None
    except ValueError as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if hasattr(exc, "lineno") else ""
        raise ImportRefused(f"The file is not JSON{where}: export the character as JSON.") from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def detect(doc: object) -> str | None:
    """The format of this document (a key of :data:`FORMATS`), or None."""
    for name, module in FORMATS.items():
        if module.matches(doc):
            return name
    return None


def import_character(doc: object, *, campaign) -> ImportResult:
    """The draft data for a character in one of the :data:`FORMATS`; refuses anything else."""
    fmt = detect(doc)
    if fmt is None:
        for module in FORMATS.values():
            reason = module.refusal(doc)
            if reason:
                raise ImportRefused(reason)
        if not isinstance(doc, dict):
            raise ImportRefused(
                f"The file holds a JSON {_kind(doc)}, not a character: "
                f"import a character exported by {_formats()}."
            )
        raise ImportRefused(f"The file is not a character exported by {_formats()}.")
    draft = DraftBuilder(campaign)
    try:
        FORMATS[fmt].convert(doc, draft)
        data = draft.data()
    except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError, RecursionError):
        # The converters read every value through common's defensive readers; reaching this is
        # an importer bug. Say so to the user rather than answer a server error.
        logger.exception("The %s importer failed on a file", fmt)
        raise ImportRefused(
            f"This file from {LABELS[fmt]} could not be read: it holds something the importer "
            "does not understand.",
            internal=True,
        ) from None
    return ImportResult(data=_cleaned(data), format=fmt, unmapped=list(draft.unmapped))


def _cleaned(value):
    """Every text in the draft data storable (no NUL, no unpaired surrogate)."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8").replace("\x00", "")
    if isinstance(value, dict):
        return {k: _cleaned(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cleaned(v) for v in value]
    return value


def _kind(doc: object) -> str:
    if isinstance(doc, list):
        return "list"
    if isinstance(doc, str):
        return "text"
    if isinstance(doc, bool) or doc is None:
        return "value"
    return "number"


def _formats() -> str:
    return " or ".join(LABELS.values())
