"""The campaign's library: the sources' built-in entries beside the campaign's own, and the
writes that change the campaign's (each one transaction).

Read: :func:`entries` (what a page or the wizard lists for a kind) and :func:`find` (one by
name, any case). A campaign entry shadows the built-in of the same kind and name, so "copy and
edit" a built-in means saving a campaign entry of its name. Write: :func:`save_entry`,
:func:`delete_entry`, :func:`copy_builtin`, :func:`import_document`; :func:`export_document`
writes the shareable file. A refusal is a :class:`LibraryRefused` with a message for the GM;
nothing was changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models.functions import Lower

from campaigns.models import Campaign, LibraryEntry
from rules.library import (
    KINDS,
    LibraryError,
    builtin_entries,
    check_entry,
    library_document,
    parse_library_document,
)

KIND_NAMES = {
    "species": "species",
    "template": "template",
    "weapon": "weapon",
    "armour": "armour",
    "gear": "piece of gear",
}
"""How a message names one entry of each kind ("a species called …")."""


class LibraryRefused(Exception):
    """A library change refused, with a message for the user; nothing was changed. ``where``
    names the place in the entry or file when the refusal is about one field."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Entry:
    """One entry as the library lists it: a built-in one (``pk`` None) or the campaign's."""

    kind: str
    name: str
    data: dict[str, Any]
    builtin: bool
    pk: int | None
    source: str
    copied_from: str = field(default="")


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise LibraryRefused(f"{kind!r} is not a kind of library entry ({', '.join(KINDS)}).")


def _builtin(kind: str, data: dict[str, Any]) -> Entry:
    return Entry(kind, data["name"], data, True, None, data.get("source", ""))


def _own(row: LibraryEntry) -> Entry:
    return Entry(row.kind, row.name, row.data, False, row.pk, row.source, row.copied_from)


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------
def entries(campaign: Campaign, kind: str) -> list[Entry]:
    """The built-in entries of ``kind`` and the campaign's, a campaign entry replacing the
    built-in of the same name (any case), sorted by name. One query."""
    _check_kind(kind)
    by_name = {e["name"].casefold(): _builtin(kind, e) for e in builtin_entries(kind)}
    for row in LibraryEntry.objects.filter(campaign=campaign, kind=kind):
        by_name[row.name.casefold()] = _own(row)
    return sorted(by_name.values(), key=lambda e: (e.name.casefold(), e.name))


def all_entries(campaign: Campaign) -> dict[str, list[Entry]]:
    """:func:`entries` for every kind, keyed by kind, in one query."""
    rows: dict[str, list[LibraryEntry]] = {kind: [] for kind in KINDS}
    for row in LibraryEntry.objects.filter(campaign=campaign):
        rows.setdefault(row.kind, []).append(row)
    listing = {}
    for kind in KINDS:
        by_name = {e["name"].casefold(): _builtin(kind, e) for e in builtin_entries(kind)}
        for row in rows[kind]:
            by_name[row.name.casefold()] = _own(row)
        listing[kind] = sorted(by_name.values(), key=lambda e: (e.name.casefold(), e.name))
    return listing


def find(campaign: Campaign, kind: str, name: str) -> Entry | None:
    """The entry of ``kind`` called ``name`` (any case): the campaign's, else the built-in
    one, else None."""
    _check_kind(kind)
    if not isinstance(name, str) or not name.strip() or "\x00" in name:
        return None  # PostgreSQL refuses NUL in a query; no entry has one in its name
    wanted = " ".join(name.split())
    row = _own_row(campaign, kind, wanted)
    if row is not None:
        return _own(row)
    for data in builtin_entries(kind):
        if data["name"].casefold() == wanted.casefold():
            return _builtin(kind, data)
    return None


def builtin(kind: str, name: str) -> Entry | None:
    """The built-in entry of ``kind`` called ``name`` (any case), or None."""
    _check_kind(kind)
    for data in builtin_entries(kind):
        if data["name"].casefold() == " ".join(str(name).split()).casefold():
            return _builtin(kind, data)
    return None


def _own_row(campaign: Campaign, kind: str, name: str, *, lock: bool = False):
    rows = LibraryEntry.objects.alias(lower_name=Lower("name")).filter(
        campaign=campaign, kind=kind, lower_name=name.lower()
    )
    if lock:
        rows = rows.select_for_update()
    return rows.first()


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------
def _checked(kind: str, data: object) -> dict[str, Any]:
    _check_kind(kind)
    try:
        checked = check_entry(kind, data)
    except LibraryError as exc:
        raise LibraryRefused(str(exc), exc.where) from None
    for column in ("name", "source"):
        limit = LibraryEntry._meta.get_field(column).max_length
        if len(checked[column]) > limit:  # check_entry's limits are the columns' own
            raise LibraryRefused(f"{column}: at most {limit} characters", column)
    return checked


def _clash(kind: str, name: str) -> LibraryRefused:
    return LibraryRefused(
        f"The library already has a {KIND_NAMES[kind]} called “{name}”: choose another name "
        "or edit that one.",
        "name",
    )


def save_entry(
    campaign: Campaign,
    kind: str,
    data: object,
    *,
    actor,
    entry: LibraryEntry | None = None,
    copied_from: str = "",
) -> LibraryEntry:
    """Add a campaign entry of ``kind`` (or change ``entry``, the campaign's own) from
    ``data``, checked by :func:`rules.library.check_entry`. Refused (:class:`LibraryRefused`)
    when the data is wrong or another campaign entry of the kind has the name (any case). A
    name that a built-in entry has is allowed: the campaign's entry shadows it."""
    checked = _checked(kind, data)
    try:
        with transaction.atomic():
            if entry is not None:
                entry = (
                    LibraryEntry.objects.select_for_update()
                    .filter(pk=entry.pk, campaign=campaign, kind=kind)
                    .first()
                )
                if entry is None:
                    raise LibraryRefused("That library entry no longer exists.")
            other = _own_row(campaign, kind, checked["name"], lock=True)
            if other is not None and (entry is None or other.pk != entry.pk):
                raise _clash(kind, other.name)
            if entry is None:
                entry = LibraryEntry(
                    campaign=campaign, kind=kind, created_by=actor, copied_from=copied_from
                )
            entry.name = checked["name"]
            entry.source = checked["source"]
            entry.data = checked
            entry.save()
    except IntegrityError:  # the same name saved at the same moment by another request
        raise _clash(kind, checked["name"]) from None
    return entry


def delete_entry(campaign: Campaign, entry: LibraryEntry | int, *, actor) -> Entry:
    """Remove one of the campaign's entries (a built-in one it shadowed shows again). Returns
    what was removed. Characters keep what they were made with: entries are copied into them."""
    pk = entry.pk if isinstance(entry, LibraryEntry) else entry
    with transaction.atomic():
        row = LibraryEntry.objects.select_for_update().filter(pk=pk, campaign=campaign).first()
        if row is None:
            raise LibraryRefused("That library entry no longer exists.")
        removed = _own(row)
        row.delete()
    return removed


def copy_builtin(campaign: Campaign, kind: str, name: str, *, actor) -> LibraryEntry:
    """The campaign's own copy of the built-in entry ``name`` (which it then shadows)."""
    source = builtin(kind, name)
    if source is None:
        raise LibraryRefused(f"There is no built-in {KIND_NAMES.get(kind, kind)} called “{name}”.")
    if _own_row(campaign, kind, source.name) is not None:
        raise LibraryRefused(
            f"The campaign already has its own {source.name}: edit that one.", "name"
        )
    return save_entry(campaign, kind, source.data, actor=actor, copied_from=source.name)


@dataclass
class ImportReport:
    """What an import did, by entry name: added, replaced, unchanged (the library's entry is
    the same already) and skipped (the library has a different one of that name)."""

    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        text = f"{len(self.added)} added, {len(self.replaced)} replaced"
        if self.unchanged:
            text += f", {len(self.unchanged)} already in the library as they are"
        text += f", {len(self.skipped)} skipped"
        if self.skipped:
            text += " (the library already had them: tick “replace existing” to overwrite)"
        return text + "."


def import_document(
    campaign: Campaign, doc: object, *, actor, replace: bool = False
) -> ImportReport:
    """Add a library file's entries to the campaign, all or nothing. The whole file is checked
    first (a :class:`LibraryRefused` naming the place, ``entries[3].attributes.strength.max``).
    An entry whose kind and name (any case) the campaign already has is skipped, or with
    ``replace`` overwrites the campaign's one (an identical one is left as it is). Built-in
    entries are shadowed, never changed."""
    try:
        parsed = parse_library_document(doc)
    except LibraryError as exc:
        raise LibraryRefused(str(exc), exc.where) from None
    for i, (_kind, data) in enumerate(parsed):
        for column in ("name", "source"):
            limit = LibraryEntry._meta.get_field(column).max_length
            if len(data[column]) > limit:
                raise LibraryRefused(
                    f"entries[{i}].{column}: at most {limit} characters", f"entries[{i}].{column}"
                )
    report = ImportReport()
    try:
        with transaction.atomic():
            existing = {
                (row.kind, row.name.lower()): row
                for row in LibraryEntry.objects.select_for_update().filter(campaign=campaign)
            }
            new = []
            for kind, data in parsed:
                row = existing.get((kind, data["name"].lower()))
                if row is None:
                    new.append(
                        LibraryEntry(
                            campaign=campaign,
                            kind=kind,
                            name=data["name"],
                            source=data["source"],
                            data=data,
                            created_by=actor,
                        )
                    )
                    report.added.append(data["name"])
                elif row.data == data and row.name == data["name"]:
                    report.unchanged.append(data["name"])
                elif replace:
                    row.name, row.source, row.data = data["name"], data["source"], data
                    row.save(update_fields=["name", "source", "data", "updated_at"])
                    report.replaced.append(data["name"])
                else:
                    report.skipped.append(data["name"])
            LibraryEntry.objects.bulk_create(new)
    except IntegrityError:  # names that differ in Python's lower() but not the database's
        raise LibraryRefused(
            "Two entries of this file name the same entry of the library: nothing was imported."
        ) from None
    return report


def export_document(campaign: Campaign) -> dict[str, Any]:
    """The campaign's own entries (not the built-in ones every Datapad ships) as the shareable
    library file, by kind and name."""
    order = {kind: i for i, kind in enumerate(KINDS)}
    rows = sorted(
        LibraryEntry.objects.filter(campaign=campaign),
        key=lambda r: (order.get(r.kind, len(order)), r.name.casefold(), r.pk),
    )
    return library_document((row.kind, row.data) for row in rows)
