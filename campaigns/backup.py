"""Campaign backups: one campaign and everything in it as one JSON document (the format is
``docs/backup-format.md``), written as a stream and read back as a new campaign.

What goes in comes from the apps: each describes its records as a :class:`Part` (a
:class:`Table` of one model, with nested child tables) and registers it with :func:`register`
from its ``AppConfig.ready()``, in the order the file holds them (a part may refer only to the
parts before it). This app registers the campaign's own parts first (members, removals,
adventures, library entries: :mod:`campaigns.backup_parts`); ``characters`` and ``encounters``
register theirs. campaigns imports no other app: their parts arrive through the registry.
Reading single values is :mod:`campaigns.backup_values`; the views are
:mod:`campaigns.backup_views`, the commands ``export_campaign`` and ``import_campaign``.

* :func:`export_campaign` yields the document as text chunks, reading each table with
  ``.iterator()`` inside one read transaction (a consistent snapshot), so memory does not
  grow with the number of rolls. Records refer to each other by ``ref`` (1, 2, … per kind of
  record, in the order written), users by username: never database ids.
* :func:`read_backup` parses a file; :func:`restore_campaign` checks the whole document first
  (every field against its column: type, length, choices, die codes, refs that resolve, the
  engine's JSON states) and refuses it with :class:`BackupRefused`, naming every problem's
  place (``parts.characters[3].skills[2].code: '9D+7' is not a die code``), before writing
  anything; then creates the campaign and everything in it in one transaction.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, partial
from itertools import batched
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import QuerySet
from django.utils import timezone

from campaigns.backup_values import (
    Problem,
    as_is,
    boolean,
    die_code,
    encodes,
    holds_nul,
    kind_of,
    moment,
    short,
    short_key,
    text_value,
    whole_number,
)
from campaigns.models import Campaign
from rules import RulesError, RuleSet

__all__ = [
    "FORMAT",
    "VERSION",
    "BackupRefused",
    "JsonRule",
    "Loader",
    "Part",
    "Problem",
    "Restored",
    "Table",
    "export_campaign",
    "read_backup",
    "register",
    "registered",
    "restore_campaign",
]

FORMAT = "datapad-campaign"
VERSION = 1
CHUNK = 1000
"""Rows read per query (``.iterator(chunk_size=...)``) and created per ``bulk_create``."""
MAX_PROBLEMS = 100
"""Problems listed at most; beyond them only their number is given."""
MAX_FILE_BYTES = 200 * 1024 * 1024
"""The largest file :func:`read_backup` accepts (a campaign of 100,000 rolls is some 50 MB)."""

ENGINE_ERRORS = (RulesError, ValueError, TypeError, KeyError, AttributeError, RecursionError)
"""What the engine's ``from_json`` readers may raise on damaged data (RulesError on purpose;
the others would be engine bugs, but a file is untrusted input: it is refused, not a 500)."""


# ---------------------------------------------------------------------------------------------
# Problems
# ---------------------------------------------------------------------------------------------
class BackupRefused(Exception):
    """The file was refused and nothing was written. ``problems`` name each place; ``more``
    counts the problems beyond :data:`MAX_PROBLEMS`."""

    def __init__(self, problems: list[str], more: int = 0) -> None:
        self.problems = list(problems)
        self.more = more
        super().__init__("; ".join(self.lines()))

    def lines(self) -> list[str]:
        more = [f"… and {self.more} more problem{'s' if self.more != 1 else ''}"]
        return self.problems + (more if self.more else [])


# ---------------------------------------------------------------------------------------------
# Describing the records: tables and parts
# ---------------------------------------------------------------------------------------------
def _same(value: Any, _: Any) -> Any:
    return value


@dataclass(frozen=True)
class JsonRule:
    """How a JSON column travels. ``out(value, exporter)``: the value as the file holds it
    (database ids embedded in it turned into refs); ``into(value, loader)``: the value as the
    database will hold it (refs back to the new ids through ``loader.resolve``), checked with
    the engine; raises :class:`Problem` (its ``at`` the place inside the value)."""

    out: Callable[[Any, Exporter], Any] = _same
    into: Callable[[Any, Loader], Any] = _same


Check = Callable[["Loader", dict[str, Any], str, int | None], None]
"""A table's own checks of one record, given the loader, its cleaned values (refs resolved),
its place and its ref: call ``loader.problem(place, message)`` for what is wrong; may adjust
the values (it runs again, on the same values, when the record is written)."""


@dataclass(frozen=True)
class Table:
    """One model's records in the file: ``fields`` (model field names, in the file's order)
    plus ``ref``. Foreign keys to users travel as usernames; others as the ref of the record
    in the part named in ``refs``; ``codes`` are die code columns (``"4D+1"``); ``json`` the
    JSON columns' rules; ``children`` nested tables (key → table whose ``parent`` is its
    foreign key to this model); ``unique`` groups of fields no two records (of the part, or of
    the parent for children) may share, ``folded`` those of them compared case-blind."""

    model: type[models.Model]
    fields: tuple[str, ...]
    refs: Mapping[str, str] = field(default_factory=dict)
    codes: tuple[str, ...] = ()
    json: Mapping[str, JsonRule] = field(default_factory=dict)
    children: Mapping[str, Table] = field(default_factory=dict)
    parent: str = ""
    unique: tuple[tuple[str, ...], ...] = ()
    folded: tuple[str, ...] = ()
    check: Check | None = None
    users: Mapping[str, str] = field(default_factory=dict)
    """What to do when a user named in a field has no account here: ``"importer"`` (the
    importing user takes their place) or ``"skip"`` (the record is left out). By default a
    field that may be empty is left empty, and a record whose required user is missing is
    left out; each case is reported."""
    remember: Callable[[Exporter], Container[int]] | None = None
    """Export: the ids whose refs later parts look up (None: all of them). Rolls remember
    only those the ledger points at, so memory does not grow with the number of rolls."""

    def model_field(self, name: str) -> models.Field:
        return _model_field(self.model, name)


@cache
def _model_field(model: type[models.Model], name: str) -> models.Field:
    return model._meta.get_field(name)  # type: ignore[return-value]


@dataclass(frozen=True)
class Part:
    """A top-level list of the file, ``parts.<name>``: the campaign's rows of ``table``.
    ``finish(loader)`` runs once the whole part was checked (checks across records);
    ``restored(loader)`` once it was written."""

    name: str
    table: Table
    rows: Callable[[Campaign], QuerySet]
    campaign_field: str | None = "campaign"
    finish: Callable[[Loader], None] | None = None
    restored: Callable[[Loader], None] | None = None


_PARTS: dict[str, Part] = {}


def register(*parts: Part) -> None:
    """Add parts to every backup, after those registered before (an app's ``ready()``)."""
    for part in parts:
        known = _PARTS.get(part.name)
        if known is not None and known != part:
            raise ImproperlyConfigured(f"two backup parts are named {part.name!r}")
        spaces = {p.name for p in _PARTS.values()} | {
            k for p in _PARTS.values() for k in p.table.children
        }
        if known is None and ({part.name, *part.table.children} & spaces):
            raise ImproperlyConfigured(f"backup part {part.name!r}: a name is taken")
        _PARTS[part.name] = part


def registered() -> tuple[Part, ...]:
    return tuple(_PARTS.values())


# ---------------------------------------------------------------------------------------------
# Export: a stream of text
# ---------------------------------------------------------------------------------------------
@contextmanager
def _snapshot() -> Iterator[None]:
    """One transaction for the whole export, so every part sees the same moment (a roll made
    meanwhile is in both the dice log and the ledger, or in neither). On PostgreSQL it is a
    REPEATABLE READ, READ ONLY snapshot, which blocks nobody."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _when(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).isoformat()


def _swap_args(out: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``out(value, exporter)`` as ``f(exporter, value)``, for ``partial(f, exporter)``."""
    return lambda exporter, value: out(value, exporter)


class Exporter:
    """The state of one export: the refs given so far and the usernames read."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.refs: dict[str, dict[int, int]] = defaultdict(dict)
        self.counts: Counter[str] = Counter()
        self.gone: dict[tuple[str, int], str] = {}
        self._usernames: dict[int, str | None] = {}
        self._keep: dict[str, Container[int] | None] = {}
        self._written: dict[int, list] = {}

    def ref(self, space: str, pk: int | None) -> int | None:
        """The ref of a record written earlier (None: not in the file, e.g. deleted)."""
        return None if pk is None else self.refs[space].get(pk)

    def username(self, pk: int) -> str | None:
        if pk not in self._usernames:
            self._usernames[pk] = (
                get_user_model().objects.filter(pk=pk).values_list("username", flat=True).first()
            )
        return self._usernames[pk]

    def gone_id(self, space: str, pk: int, prefix: str) -> str:
        """A stand-in for an id of a record no longer in the campaign (a deleted character
        still named in a fight): ``<prefix>-gone-<n>``, the same for the same record."""
        key = (space, pk)
        if key not in self.gone:
            self.gone[key] = f"{prefix}-gone-{len(self.gone) + 1}"
        return self.gone[key]

    # -- records ------------------------------------------------------------------------------
    def _writers(self, table: Table) -> list[tuple[str, str, Callable[[Any], Any] | None]]:
        """For each field: its name, its column, and how its value is written (None: as is)."""
        if id(table) not in self._written:
            user_model = get_user_model()
            writers = []
            for name in table.fields:
                f = table.model_field(name)
                write: Callable[[Any], Any] | None = None
                if f.is_relation and f.related_model is user_model:
                    write = self.username
                elif f.is_relation:
                    write = partial(self.ref, table.refs[name])
                elif name in table.json:
                    write = partial(_swap_args(table.json[name].out), self)
                elif name in table.codes:
                    write = str
                elif isinstance(f, models.DateTimeField):
                    write = _when
                writers.append((name, f.attname, write))
            self._written[id(table)] = writers
        return self._written[id(table)]

    def record(self, table: Table, row: dict[str, Any]) -> dict[str, Any]:
        record = {}
        for name, column, write in self._writers(table):
            value = row[column]
            record[name] = value if write is None or value is None else write(value)
        return record

    def records(self, space: str, table: Table, rows: QuerySet) -> Iterator[dict[str, Any]]:
        """The records of ``rows`` in id order, each with its ref and nested children, read
        ``CHUNK`` rows (and their children) at a time."""
        keep = table.remember(self) if table.remember is not None else None
        columns = [table.model_field(n).attname for n in table.fields]
        stream = rows.order_by("pk").values("pk", *columns).iterator(chunk_size=CHUNK)
        for batch in batched(stream, CHUNK):
            kids = {key: self._children(child, batch) for key, child in table.children.items()}
            for row in batch:
                self.counts[space] += 1
                ref = self.counts[space]
                if keep is None or row["pk"] in keep:
                    self.refs[space][row["pk"]] = ref
                record = {"ref": ref, **self.record(table, row)}
                for key, child in table.children.items():
                    record[key] = [
                        self._child(key, child, kid) for kid in kids[key].get(row["pk"], ())
                    ]
                yield record

    def _children(self, child: Table, batch: tuple[dict[str, Any], ...]) -> dict[int, list]:
        parent = child.model_field(child.parent).attname
        columns = [child.model_field(n).attname for n in child.fields]
        grouped: dict[int, list] = defaultdict(list)
        rows = child.model._default_manager.filter(**{f"{parent}__in": [r["pk"] for r in batch]})
        for row in rows.order_by(parent, "pk").values("pk", parent, *columns):
            grouped[row[parent]].append(row)
        return grouped

    def _child(self, space: str, child: Table, row: dict[str, Any]) -> dict[str, Any]:
        self.counts[space] += 1
        ref = self.counts[space]
        if space not in self._keep:
            self._keep[space] = child.remember(self) if child.remember is not None else None
        keep = self._keep[space]
        if keep is None or row["pk"] in keep:
            self.refs[space][row["pk"]] = ref
        return {"ref": ref, **self.record(child, row)}


def export_campaign(campaign: Campaign, *, records_per_chunk: int = 200) -> Iterator[str]:
    """The campaign as a backup document, in text chunks (a generator: nothing is read before
    the first chunk is asked for). Each part's records are written one per line."""
    with _snapshot():
        campaign = Campaign.objects.get(pk=campaign.pk)
        exporter = Exporter(campaign)
        head = {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": _when(timezone.now()),
            "campaign": exporter.record(CAMPAIGN, _campaign_row(campaign)),
        }
        yield json.dumps(head, ensure_ascii=False)[:-1] + ', "parts": {'
        for number, part in enumerate(registered()):
            yield f"{',' if number else ''}\n{json.dumps(part.name)}: ["
            written = 0
            for batch in batched(
                exporter.records(part.name, part.table, part.rows(campaign)), records_per_chunk
            ):
                lines = ",\n".join(json.dumps(r, ensure_ascii=False) for r in batch)
                yield f"{',' if written else ''}\n{lines}"
                written += len(batch)
            yield "\n]" if written else "]"
        yield "\n}}\n"


def _campaign_row(campaign: Campaign) -> dict[str, Any]:
    return {
        CAMPAIGN.model_field(n).attname: getattr(campaign, CAMPAIGN.model_field(n).attname)
        for n in CAMPAIGN.fields
    }


# ---------------------------------------------------------------------------------------------
# Import: check everything, then write everything
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Who:
    """A user named in the file: the username, and the id here (None: no such account)."""

    username: str
    pk: int | None


@dataclass
class Restored:
    """What :func:`restore_campaign` made: the new campaign, how many records of each part,
    and notes for the importing user (users with no account here, what was given to them)."""

    campaign: Campaign
    counts: dict[str, int]
    notes: list[str]


Item = tuple[int | None, dict[str, Any], dict[str, list]]
"""A record read: its ref, its cleaned values, its children's items by key."""


class Loader:
    """One import: first :meth:`check` (nothing written; problems collected), then
    :meth:`restore` (the same reading again, refs now resolving to the new ids)."""

    def __init__(self, document: Any, importer: Any, *, name: str = "") -> None:
        self.document = document
        self.importer = importer
        self.name = name
        self.restoring = False
        self.problems: list[str] = []
        self.more = 0
        self.defined: dict[str, set[int]] = defaultdict(set)
        self.wanted: dict[str, set[int]] = defaultdict(set)
        self.new_ids: dict[str, dict[int, int]] = defaultdict(dict)
        self.users: dict[str, int | None] = {}
        self.absent: dict[str, Counter[tuple]] = defaultdict(Counter)
        self.notes: list[str] = []
        self.counts: dict[str, int] = {}
        self.scratch: dict[str, Any] = {}
        self.campaign: Campaign | None = None
        self._readers: dict[tuple[int, str], tuple[bool, Callable[[Any], Any]]] = {}

    # -- helpers for parts --------------------------------------------------------------------
    def problem(self, where: str, message: str) -> None:
        if self.restoring:  # checked already: cannot happen, and must not pass silently
            raise RuntimeError(f"{where}: {message}")
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(f"{where}: {message}")
        else:
            self.more += 1

    def note(self, message: str) -> None:
        if self.restoring:
            self.notes.append(message)

    def resolve(self, space: str, ref: Any) -> int:
        """The id a ref of ``space`` stands for: while checking, the ref itself (after making
        sure a record of the file has it); while restoring, the new record's id."""
        if isinstance(ref, bool) or not isinstance(ref, int):
            raise Problem(f"{ref!r} is not a ref (a whole number)")
        if self.restoring:
            try:
                return self.new_ids[space][ref]
            except KeyError:  # a record left out (its user is not here) cannot be named
                raise RuntimeError(f"{_space_path(space)} ref {ref} was not restored") from None
        if ref not in self.defined[space]:
            raise Problem(f"ref {ref} names no record of {_space_path(space)} written before it")
        self.wanted[space].add(ref)
        return ref

    def user(self, username: Any) -> Who:
        if not isinstance(username, str) or not username or len(username) > 150:
            raise Problem(f"{short(username)} is not a username")
        if "\x00" in username:
            raise Problem("a username cannot hold a NUL character")
        if not encodes(username):
            raise Problem("a username is valid Unicode text")
        if username not in self.users:
            self.users[username] = (
                get_user_model()
                .objects.filter(username=username)
                .values_list("pk", flat=True)
                .first()
            )
        return Who(username, self.users[username])

    # -- reading values -----------------------------------------------------------------------
    def value(self, table: Table, name: str, raw: Any) -> Any:
        """A field's value as the database will hold it (:class:`Problem` if it cannot)."""
        key = (id(table), name)
        reader = self._readers.get(key)
        if reader is None:
            reader = self._readers[key] = self._reader(table, name)
        if raw is None:
            if reader[0]:
                return None
            raise Problem("cannot be empty (null)")
        return reader[1](raw)

    def _reader(self, table: Table, name: str) -> tuple[bool, Callable[[Any], Any]]:
        """Whether the field may be null, and how its value is read. Restoring, the values
        were checked already: only what changes them is done (refs, users, codes, times)."""
        f = table.model_field(name)
        strict = not self.restoring
        if f.is_relation and f.related_model is get_user_model():
            return f.null, self.user
        if f.is_relation:
            return f.null, partial(self.resolve, table.refs[name])
        if name in table.json or isinstance(f, models.JSONField):
            rule = table.json.get(name, JsonRule())
            return f.null, partial(_json, rule.into, self, strict)
        if name in table.codes:
            return f.null, partial(die_code, f)
        if isinstance(f, models.DateTimeField):
            return f.null, moment
        if not strict:
            return f.null, as_is
        if isinstance(f, models.BooleanField):
            return f.null, boolean
        if isinstance(f, models.IntegerField):
            # The portable ranges (PostgreSQL's), so a file that loads on SQLite loads anywhere.
            low, high = BaseDatabaseOperations.integer_field_ranges[f.get_internal_type()]
            return f.null, partial(whole_number, low, high)
        if isinstance(f, models.CharField | models.TextField):
            return f.null, partial(text_value, f)
        raise ImproperlyConfigured(f"backup: no reader for {table.model.__name__}.{name}")

    def read(
        self,
        space: str | None,
        table: Table,
        record: Any,
        where: str,
        extra: dict[str, Any] | None = None,
    ) -> Item | None:
        """One record: its ref, cleaned values and children (None when it is unreadable).
        ``space`` None: a record without a ref (the document's ``campaign``)."""
        if not isinstance(record, dict):
            self.problem(where, f"a record is a JSON object, not {kind_of(record)}")
            return None
        allowed = {*table.fields, *table.children} | ({"ref"} if space else set())
        for key in record:
            if key not in allowed:
                self.problem(f"{where}.{short_key(key)}", f"is not a field of version {VERSION}")
        ref = self._ref(space, record, where) if space else None
        values: dict[str, Any] = dict(extra or {})
        readable = True
        for name in table.fields:
            if name not in record:
                self.problem(f"{where}.{name}", "missing")
                readable = False
                continue
            try:
                values[name] = self.value(table, name, record[name])
            except Problem as problem:
                self.problem(f"{where}.{name}{problem.at}", problem.message)
                readable = False
        if readable and table.check is not None:
            table.check(self, values, where, ref)
        children: dict[str, list] = {}
        for key, child in table.children.items():
            rows = record.get(key, [])
            if not isinstance(rows, list):
                self.problem(f"{where}.{key}", f"is a list of records, not {kind_of(rows)}")
                rows = []
            seen: dict[tuple, str] = {}
            items = []
            for number, row in enumerate(rows):
                item = self.read(key, child, row, f"{where}.{key}[{number}]")
                if item is not None:
                    self._unique(child, item[1], seen, f"{where}.{key}[{number}]")
                    items.append(item)
            children[key] = items
        return (ref, values, children) if readable else None

    def _ref(self, space: str, record: dict[str, Any], where: str) -> int | None:
        ref = record.get("ref")
        if self.restoring:
            return ref
        if "ref" not in record:
            self.problem(f"{where}.ref", "missing")
        elif isinstance(ref, bool) or not isinstance(ref, int) or ref < 1:
            self.problem(f"{where}.ref", f"{short(ref)} is not a ref (a whole number, 1 or more)")
        elif ref in self.defined[space]:
            self.problem(f"{where}.ref", f"ref {ref} is used by two records of {space}")
        else:
            self.defined[space].add(ref)
            return ref
        return None

    def _unique(self, table: Table, values: dict[str, Any], seen: dict, where: str) -> None:
        if self.restoring:
            return
        for group in table.unique:
            key = (group, *(_folded(values.get(n), n in table.folded) for n in group))
            if key in seen:
                names = " and ".join(group)
                self.problem(where, f"the same {names} as {seen[key]}")
            else:
                seen[key] = where

    # -- the two passes -----------------------------------------------------------------------
    def check(self) -> None:
        """Read the whole document; raise :class:`BackupRefused` with every problem found."""
        document = self.document
        if not isinstance(document, dict):
            raise BackupRefused([f"the file holds {kind_of(document)}, not a Datapad backup"])
        if document.get("format") != FORMAT:
            raise BackupRefused(
                [
                    f"format: {short(document.get('format'))} is not a Datapad campaign "
                    f'backup (that says "format": "{FORMAT}")'
                ]
            )
        version = document.get("version")
        if isinstance(version, bool) or version != VERSION:
            raise BackupRefused(
                [
                    f"version: the file is version {short(version)} of the format; this "
                    f"server reads version {VERSION}"
                ]
            )
        for key in document:
            if key not in ("format", "version", "exported_at", "campaign", "parts"):
                self.problem(short_key(key), f"is not part of version {VERSION} of the format")
        try:
            moment(document.get("exported_at"))
        except Problem as problem:
            self.problem("exported_at", problem.message)
        self.read(None, CAMPAIGN, document.get("campaign"), "campaign")
        parts = document.get("parts")
        if not isinstance(parts, dict):
            self.problem("parts", f"is an object of parts, not {kind_of(parts)}")
            parts = {}
        known = {p.name for p in registered()}
        for name in parts:
            if name not in known:
                self.problem(
                    f"parts.{short_key(name)}",
                    "this server has no such part (importing would lose it)",
                )
        for part in registered():
            rows = parts.get(part.name, [])
            if not isinstance(rows, list):
                self.problem(f"parts.{part.name}", f"is a list of records, not {kind_of(rows)}")
                continue
            seen: dict[tuple, str] = {}
            for number, record in enumerate(rows):
                where = f"parts.{part.name}[{number}]"
                item = self.read(part.name, part.table, record, where)
                if item is not None:
                    self._unique(part.table, item[1], seen, where)
            if part.finish is not None:
                part.finish(self)
        if self.problems:
            raise BackupRefused(self.problems, self.more)

    def restore(self) -> Campaign:
        """Write the checked document (inside the caller's transaction)."""
        self.restoring = True
        self.scratch = {}  # the checks run again, as they ran while checking
        self._readers = {}
        parts = self.document.get("parts") or {}
        item = self.read(None, CAMPAIGN, self.document["campaign"], "campaign")
        assert item is not None
        values = item[1]
        campaign = Campaign(created_by=self.importer, **values)
        if self.name:
            campaign.name = self.name
        campaign.save()
        Campaign.objects.filter(pk=campaign.pk).update(created_at=values["created_at"])
        self.campaign = campaign
        for part in registered():
            extra = {part.campaign_field: campaign} if part.campaign_field else {}
            made = 0
            rows = parts.get(part.name, [])
            for batch in batched(enumerate(rows), CHUNK):
                items = []
                for number, record in batch:
                    where = f"parts.{part.name}[{number}]"
                    read = self.read(part.name, part.table, record, where, extra)
                    assert read is not None
                    items.append(read)
                made += self._create(part.name, part.table, items)
            self.counts[part.name] = made
            if part.restored is not None:
                part.restored(self)
        self._absent_notes()
        return campaign

    def _create(self, space: str, table: Table, items: list[Item]) -> int:
        objects, kept = [], []
        for ref, values, children in items:
            instance = self._instance(table, values)
            if instance is not None:
                objects.append(instance)
                kept.append((ref, values, children))
        table.model._default_manager.bulk_create(objects, batch_size=CHUNK)
        self._after_create(space, table, objects, [(ref, values) for ref, values, _ in kept])
        for key, child in table.children.items():
            parent = child.model_field(child.parent).attname
            kids, read = [], []
            for instance, (_, _, children) in zip(objects, kept, strict=True):
                for ref, values, _ in children.get(key, ()):
                    kid = self._instance(child, {**values, parent: instance.pk})
                    if kid is not None:
                        kids.append(kid)
                        read.append((ref, values))
            child.model._default_manager.bulk_create(kids, batch_size=CHUNK)
            self._after_create(key, child, kids, read)
        return len(objects)

    def _after_create(
        self, space: str, table: Table, objects: list, read: list[tuple[Any, dict]]
    ) -> None:
        wanted = self.wanted.get(space, set())
        for instance, (ref, _) in zip(objects, read, strict=True):
            if ref in wanted:
                self.new_ids[space][ref] = instance.pk
        # Creation stamps "now" on auto_now_add columns: put the file's times back.
        stamped = [
            n
            for n in table.fields
            if getattr(table.model_field(n), "auto_now_add", False)
            and any(values.get(n) is not None for _, values in read)
        ]
        if stamped and objects:
            for instance, (_, values) in zip(objects, read, strict=True):
                for name in stamped:
                    setattr(instance, name, values[name])
            table.model._default_manager.bulk_update(objects, stamped, batch_size=CHUNK)

    def _instance(self, table: Table, values: dict[str, Any]) -> models.Model | None:
        """The model instance for a record, users resolved (None: left out for a user who
        has no account here)."""
        kwargs: dict[str, Any] = {}
        for name, value in values.items():
            f = table.model_field(name)  # a name or, for a child's parent, an attname
            if isinstance(value, models.Model):
                kwargs[f.name] = value
                continue
            if isinstance(value, Who):
                if value.pk is None:
                    policy = table.users.get(name) or ("empty" if f.null else "skip")
                    self.absent[value.username][(policy, table.model, str(f.verbose_name))] += 1
                    if policy == "skip":
                        return None
                    value = self.importer.pk if policy == "importer" else None
                else:
                    value = value.pk
            kwargs[f.attname] = value
        return table.model(**kwargs)

    def _absent_notes(self) -> None:
        for username, costs in sorted(self.absent.items()):
            said = []
            for (policy, model, field_name), count in costs.items():
                meta = model._meta
                things = f"{count} {meta.verbose_name if count == 1 else meta.verbose_name_plural}"
                if policy == "skip":
                    said.append(f"{things} left out")
                elif policy == "importer":
                    said.append(f"{things} given to you (their {field_name})")
                else:
                    said.append(f"{things} kept without their {field_name}")
            self.notes.append(f"{username!r} has no account here: {'; '.join(said)}.")


def read_backup(data: bytes | str) -> Any:
    """The document in a file's bytes; :class:`BackupRefused` when it is not JSON."""
    if len(data) > MAX_FILE_BYTES:
        raise BackupRefused([f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB"])
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise BackupRefused([f"the file is not UTF-8 text ({exc.reason})"]) from None
    try:
        return json.loads(data, parse_constant=_no_constant)
    except RecursionError:
        raise BackupRefused(["the file is not JSON (nested too deep)"]) from None
    except ValueError as exc:
        raise BackupRefused([f"the file is not JSON ({exc})"]) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def restore_campaign(document: Any, *, importer: Any, name: str = "") -> Restored:
    """A new campaign from a backup document, made by ``importer`` (who becomes its game
    master): the whole document is checked first (:class:`BackupRefused`: nothing written),
    then everything is created in one transaction. Users are found by username; those with
    no account here are reported in the notes (their memberships left out, the player
    characters they owned given to the importer)."""
    if name:
        name = " ".join(name.split())
        limit = Campaign._meta.get_field("name").max_length
        if "\x00" in name or len(name) > limit:
            raise BackupRefused([f"name: a campaign's name has at most {limit} characters"])
    loader = Loader(document, importer, name=name)
    loader.check()
    with transaction.atomic():
        campaign = loader.restore()
    return Restored(campaign=campaign, counts=loader.counts, notes=loader.notes)


# ---------------------------------------------------------------------------------------------
# Helpers of the import
# ---------------------------------------------------------------------------------------------
def _space_path(space: str) -> str:
    """Where the records of a kind are in the file: ``parts.rolls``, or for nested records
    ``parts.characters[].skills``."""
    for part in registered():
        if space in part.table.children:
            return f"parts.{part.name}[].{space}"
    return f"parts.{space}"


def _folded(value: Any, fold: bool) -> Any:
    if isinstance(value, Who):
        return value.username
    return value.lower() if fold and isinstance(value, str) else value


def _json(into: Callable[[Any, Loader], Any], loader: Loader, strict: bool, raw: Any) -> Any:
    if strict:
        try:
            text = json.dumps(raw, allow_nan=False)
        except (ValueError, TypeError):  # NaN or infinity (PostgreSQL's JSON has neither)
            raise Problem("holds a number JSON cannot hold (NaN or infinity)") from None
        # json.dumps writes a NUL as the escape \u0000: only then is the value searched.
        if "\\u0000" in text and holds_nul(raw):
            raise Problem("text in it holds a NUL character")
        if "\\ud" in text and not encodes(json.dumps(raw, ensure_ascii=False)):
            raise Problem("text in it is not valid Unicode (a lone surrogate)")
    return into(raw, loader)


# ---------------------------------------------------------------------------------------------
# The document's campaign object
# ---------------------------------------------------------------------------------------------
def _rule_options(value: Any, loader: Loader) -> Any:
    try:
        RuleSet.from_json(value)
    except ENGINE_ERRORS as exc:
        raise Problem(f"not rule options this server knows ({exc})") from None
    return value


RULE_OPTIONS = JsonRule(into=_rule_options)

CAMPAIGN = Table(
    Campaign,
    (
        "name",
        "description",
        "rule_options",
        "game_day",
        "era",
        "approve_advancement",
        "approve_characters",
        "created_at",
    ),
    json={"rule_options": RULE_OPTIONS},
)
"""The document's ``campaign`` object (no ref: there is one)."""
