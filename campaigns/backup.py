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
  (:func:`check_backup` is the first half, for a caller that runs the second in a
  transaction of its own: the site's restore job, :mod:`campaigns.backup_jobs`.)

How the import is fast (``python bench/export.py``): each record is read and checked once, and
what the check made of it (a tuple of its cleaned values) is what is written; the rows are
written without model instances, :data:`WRITE_BATCH` at a time by one ``executemany``
(SQLite) or ``COPY`` (PostgreSQL), with ids taken from the database's sequence beforehand so
that refs resolve at once; the file's text is searched once for what a JSON value may not hold
(:class:`Document`) instead of each value; and the cycle collector rests while the document's
hundreds of thousands of containers are read.
"""

from __future__ import annotations

import datetime as dt
import gc
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, partial
from itertools import batched
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import QuerySet
from django.utils import timezone

from campaigns.backup_values import (
    Problem,
    boolean,
    die_code,
    encodes,
    holds_nul,
    kind_of,
    moment,
    short,
    short_key,
    text_reader,
    whole_number,
)
from campaigns.models import Campaign
from rules import RulesError, RuleSet

__all__ = [
    "FORMAT",
    "VERSION",
    "BackupRefused",
    "Document",
    "JsonRule",
    "Loader",
    "Part",
    "Problem",
    "Progress",
    "Restored",
    "Table",
    "check_backup",
    "export_campaign",
    "read_backup",
    "register",
    "registered",
    "restore_campaign",
]

FORMAT = "datapad-campaign"
VERSION = 1
CHUNK = 1000
"""Rows an export reads per query (``.iterator(chunk_size=...)``)."""
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
    database will hold it, checked with the engine; raises :class:`Problem` (its ``at`` the
    place inside the value).

    ``refs``: the value names records by ref (``loader.resolve``). Their new ids are known only
    while the records are written, so ``into`` then runs a second time, on what it returned
    while checking, with ``loader.restoring`` true: ``resolve`` gives the new ids, and the
    engine need not check again. While checking, ``resolve`` returns the ref itself, so that
    first answer still names refs."""

    out: Callable[[Any, Exporter], Any] = _same
    into: Callable[[Any, Loader], Any] = _same
    refs: bool = False


Check = Callable[["Loader", dict[str, Any], str, int | None], None]
"""A table's own checks of one record, given the loader, its cleaned values (refs checked),
its place and its ref: call ``loader.problem(place, message)`` for what is wrong; may adjust
the values (what it leaves in them is what is written; it runs once, while checking)."""


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

Kept = tuple[int | None, tuple[Any, ...], dict[str, list] | None]
"""A record checked and kept for writing: its ref, its cleaned values in the order of its
table's ``fields``, and its children's kept records by key (None for a table without
children)."""

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: ``stage`` is ``"checking"`` (the file is read and
checked) or ``"writing"`` (the campaign is created); ``done`` of ``total`` records of the
parts (a record counts once, its nested records with it)."""

PROGRESS_EVERY = 2000
"""Records checked between two calls of a :data:`Progress` callback (and one call per
statement written)."""

WRITE_BATCH = 2000
"""Records written per ``executemany`` (their nested records in statements of their own)."""

_MISSING = object()

_PLAIN_FIELDS = (
    models.BooleanField,
    models.CharField,
    models.TextField,
    models.IntegerField,
    models.BigIntegerField,
    models.SmallIntegerField,
    models.PositiveIntegerField,
    models.PositiveBigIntegerField,
    models.PositiveSmallIntegerField,
)
"""Fields whose checked value (a bool, an int, a str) is what the database takes, as it is.
Compared by exact type: a subclass (a die code column) may store something else."""


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off for a while. A document and the records kept from it are
    hundreds of thousands of lists and dicts, which each full collection would walk again
    while they are read (finding no cycle: they have none): a fifth of a large import's
    time. The import runs in one thread (a request, a task, a command)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


class _LeftOut(Exception):
    """A record whose user has no account here, left out (a ``"skip"`` user field)."""


class Loader:
    """One import: :meth:`check` reads every record of the document once, checks it and keeps
    its cleaned values (nothing written); :meth:`restore` writes what was kept, refs now
    resolving to the new ids, :data:`WRITE_BATCH` records to an ``executemany`` or a COPY."""

    def __init__(
        self, document: Any, importer: Any, *, name: str = "", progress: Progress | None = None
    ) -> None:
        self.document = document
        self.plain = isinstance(document, Document) and document.plain
        self.importer = importer
        self.name = name
        self.progress = progress
        self.restoring = False
        self.problems: list[str] = []
        self.more = 0
        self.defined: dict[str, set[int]] = defaultdict(set)
        self.wanted: dict[str, set[int]] = defaultdict(set)
        self.new_ids: dict[str, dict[int, int]] = defaultdict(dict)
        self.absent: dict[str, Counter[tuple]] = defaultdict(Counter)
        self.notes: list[str] = []
        self.counts: dict[str, int] = {}
        self.scratch: dict[str, Any] = {}
        self.campaign: Campaign | None = None
        self.total = 0
        self.checked = False
        self._campaign_values: dict[str, Any] | None = None
        self._kept: dict[str, list[Kept]] = {}
        self._who: dict[str, Who] = {}
        self._plans: dict[tuple[int, bool], tuple[frozenset[str], list]] = {}
        self._inserters: dict[tuple[int, tuple[str, ...]], _Inserter] = {}
        self._sequences: dict[type[models.Model], str] = {}

    # -- helpers for parts --------------------------------------------------------------------
    def problem(self, where: str, message: str) -> None:
        if self.restoring:  # checked already: cannot happen, and must not pass silently
            raise RuntimeError(f"{where}: {message}")
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(f"{where}: {message}")
        else:
            self.more += 1

    def note(self, message: str) -> None:
        """A note for the importing user, given with the restored campaign (a refused file
        has only its problems)."""
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
        if type(username) is str and username in self._who:
            return self._who[username]
        if not isinstance(username, str) or not username or len(username) > 150:
            raise Problem(f"{short(username)} is not a username")
        if "\x00" in username:
            raise Problem("a username cannot hold a NUL character")
        if not encodes(username):
            raise Problem("a username is valid Unicode text")
        pk = get_user_model().objects.filter(username=username).values_list("pk", flat=True).first()
        who = self._who[username] = Who(username, pk)
        return who

    # -- reading values -----------------------------------------------------------------------
    def value(self, table: Table, name: str, raw: Any) -> Any:
        """A field's value as it is checked and kept (:class:`Problem` if it cannot be)."""
        null, reader = self._reader(table, name)
        if raw is None:
            if null:
                return None
            raise Problem("cannot be empty (null)")
        return reader(raw)

    def _reader(self, table: Table, name: str) -> tuple[bool, Callable[[Any], Any]]:
        """Whether the field may be null, and how its value is read and checked."""
        f = table.model_field(name)
        if f.is_relation and f.related_model is get_user_model():
            return f.null, self.user
        if f.is_relation:
            return f.null, partial(self.resolve, table.refs[name])
        if name in table.json or isinstance(f, models.JSONField):
            return f.null, partial(_json, table.json.get(name, JsonRule()), self)
        if name in table.codes:
            return f.null, partial(die_code, f)
        if isinstance(f, models.DateTimeField):
            return f.null, moment
        if isinstance(f, models.BooleanField):
            return f.null, boolean
        if isinstance(f, models.IntegerField):
            # The portable ranges (PostgreSQL's), so a file that loads on SQLite loads anywhere.
            low, high = BaseDatabaseOperations.integer_field_ranges[f.get_internal_type()]
            return f.null, partial(whole_number, low, high)
        if isinstance(f, models.CharField | models.TextField):
            return f.null, text_reader(f)
        raise ImproperlyConfigured(f"backup: no reader for {table.model.__name__}.{name}")

    def _plan(self, table: Table, with_ref: bool) -> tuple[frozenset[str], list]:
        """The keys a record of ``table`` may have, and each field's (name, null, reader)."""
        key = (id(table), with_ref)
        if key not in self._plans:
            allowed = frozenset({*table.fields, *table.children, *(("ref",) if with_ref else ())})
            readers = [(name, *self._reader(table, name)) for name in table.fields]
            self._plans[key] = (allowed, readers)
        return self._plans[key]

    def read(self, space: str | None, table: Table, record: Any, where: str) -> Item | None:
        """One record: its ref, cleaned values and children (None when it is unreadable).
        ``space`` None: a record without a ref (the document's ``campaign``)."""
        if not isinstance(record, dict):
            self.problem(where, f"a record is a JSON object, not {kind_of(record)}")
            return None
        allowed, readers = self._plan(table, bool(space))
        if not allowed.issuperset(record):
            for key in record:
                if key not in allowed:
                    self.problem(
                        f"{where}.{short_key(str(key))}", f"is not a field of version {VERSION}"
                    )
        ref = self._ref(space, record, where) if space else None
        values: dict[str, Any] = {}
        readable = True
        for name, null, reader in readers:
            raw = record.get(name, _MISSING)
            if raw is None and null:
                values[name] = None
                continue
            try:
                if raw is _MISSING:
                    raise Problem("missing")
                if raw is None:
                    raise Problem("cannot be empty (null)")
                values[name] = reader(raw)
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
        ref = record.get("ref", _MISSING)
        if ref is _MISSING:
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
        for group in table.unique:
            key = (group, *(_folded(values.get(n), n in table.folded) for n in group))
            if key in seen:
                names = " and ".join(group)
                self.problem(where, f"the same {names} as {seen[key]}")
            else:
                seen[key] = where

    def _keep(self, table: Table, item: Item) -> Kept:
        ref, values, children = item
        row = tuple([values[name] for name in table.fields])
        if not table.children:
            return (ref, row, None)
        kids = {
            key: [self._keep(child, kid) for kid in children[key]]
            for key, child in table.children.items()
        }
        return (ref, row, kids)

    def _report(self, stage: str, done: int) -> None:
        if self.progress is not None:
            self.progress(stage, done, self.total)

    # -- the two passes -----------------------------------------------------------------------
    def check(self) -> None:
        """Read and check the whole document, keeping each record's cleaned values for
        :meth:`restore`; raise :class:`BackupRefused` with every problem found."""
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
        campaign = self.read(None, CAMPAIGN, document.get("campaign"), "campaign")
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
        self.total = sum(
            len(rows) for p in registered() if isinstance(rows := parts.get(p.name), list)
        )
        done = 0
        self._report("checking", done)
        for part in registered():
            rows = parts.get(part.name, [])
            if not isinstance(rows, list):
                self.problem(f"parts.{part.name}", f"is a list of records, not {kind_of(rows)}")
                continue
            seen: dict[tuple, str] = {}
            kept: list[Kept] = []
            for number, record in enumerate(rows):
                where = f"parts.{part.name}[{number}]"
                item = self.read(part.name, part.table, record, where)
                if item is not None:
                    self._unique(part.table, item[1], seen, where)
                    if not self.problems:  # a refused file keeps nothing
                        kept.append(self._keep(part.table, item))
                done += 1
                if done % PROGRESS_EVERY == 0:
                    self._report("checking", done)
            self._kept[part.name] = kept
            if part.finish is not None:
                part.finish(self)
        if self.problems:
            self._kept = {}
            raise BackupRefused(self.problems, self.more)
        assert campaign is not None
        self._campaign_values = campaign[1]
        self.checked = True
        self._report("checking", self.total)

    def restore(self) -> Restored:
        """Write what :meth:`check` kept, inside the caller's transaction: the campaign, then
        each part in order, :data:`WRITE_BATCH` records (and their nested records) at a time."""
        if not self.checked or self.restoring:
            raise RuntimeError("restore() runs once, after a check() that found no problem")
        self.restoring = True
        with _collector_paused():
            return self._restore()

    def _restore(self) -> Restored:
        values = self._campaign_values or {}
        campaign = Campaign(created_by=self.importer, **values)
        if self.name:
            campaign.name = self.name
        campaign.save()
        Campaign.objects.filter(pk=campaign.pk).update(created_at=values["created_at"])
        campaign.created_at = values["created_at"]
        self.campaign = campaign
        done = 0
        self._report("writing", done)
        for part in registered():
            head: dict[str, Any] = {}
            if part.campaign_field:
                head[part.table.model_field(part.campaign_field).attname] = campaign.pk
            made = 0
            for batch in batched(self._kept.pop(part.name, ()), WRITE_BATCH):
                made += self._insert(
                    part.name, part.table, tuple(head), [(tuple(head.values()), k) for k in batch]
                )
                done += len(batch)
                self._report("writing", done)
            self.counts[part.name] = made
            if part.restored is not None:
                part.restored(self)
        self._absent_notes()
        return Restored(campaign=campaign, counts=self.counts, notes=self.notes)

    # -- writing ------------------------------------------------------------------------------
    def _insert(
        self, space: str, table: Table, head: tuple[str, ...], rows: list[tuple[tuple, Kept]]
    ) -> int:
        """Insert kept records of ``table``, each after the values of the ``head`` columns
        (the campaign's id, or a parent's), then their children; how many were written."""
        key = (id(table), head)
        inserter = self._inserters.get(key)
        if inserter is None:
            inserter = self._inserters[key] = _Inserter(self, table, head)
        # An id for each record; one left out (its user has no account here) leaves a gap.
        ids = self._new_ids(table.model, len(rows))
        extra = inserter.extra
        prepared, written = [], []
        for pk, (head_values, (ref, row, children)) in zip(ids, rows, strict=True):
            try:
                values = inserter.values(row)
            except _LeftOut:
                continue
            prepared.append((pk, *head_values, *values, *extra()))
            written.append((pk, ref, children))
        if not prepared:
            return 0
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                # COPY: one stream for the batch. An executemany would send each row as its
                # own statement, which PostgreSQL parses and plans again (client-side binding).
                # A thread sends what is formatted while the next rows are formatted.
                from psycopg.copy import QueuedLibpqWriter  # PostgreSQL's driver, only here

                raw = cursor.cursor
                with (
                    connection.wrap_database_errors,
                    raw.copy(inserter.copy, writer=QueuedLibpqWriter(raw)) as copy,
                ):
                    for row in prepared:
                        copy.write_row(row)
            else:
                cursor.executemany(inserter.sql, prepared)
        wanted = self.wanted.get(space)
        if wanted:
            found = self.new_ids[space]
            for pk, ref, _ in written:
                if ref in wanted:
                    found[ref] = pk
        for key_, child in table.children.items():
            parent = child.model_field(child.parent).attname
            kids = [((pk,), kid) for pk, _, children in written for kid in children[key_]]
            for batch in batched(kids, WRITE_BATCH):
                self._insert(key_, child, (parent,), list(batch))
        return len(prepared)

    def _new_ids(self, model: type[models.Model], count: int) -> Sequence[int]:
        """``count`` fresh ids for rows of ``model``, taken as the database would take them
        (so rows inserted with them need no RETURNING, and refs resolve at once)."""
        if not count:
            return ()
        meta = model._meta
        quote = connection.ops.quote_name
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                if model not in self._sequences:
                    cursor.execute(
                        "SELECT pg_get_serial_sequence(%s, %s)",
                        [quote(meta.db_table), meta.pk.column],
                    )
                    self._sequences[model] = cursor.fetchone()[0]
                cursor.execute(
                    "SELECT nextval(%s::regclass) FROM generate_series(1, %s)",
                    [self._sequences[model], count],
                )
                return [row[0] for row in cursor.fetchall()]
            if connection.vendor != "sqlite":
                raise ImproperlyConfigured("a restore writes to PostgreSQL or SQLite")
            # This transaction holds SQLite's write lock (it wrote the campaign), so nobody
            # else inserts meanwhile. AUTOINCREMENT never gives an id twice: start after both
            # the highest id and the sequence (which counts rows deleted since); inserting
            # explicit ids moves the sequence on.
            cursor.execute(f"SELECT max({quote(meta.pk.column)}) FROM {quote(meta.db_table)}")
            highest = cursor.fetchone()[0] or 0
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [meta.db_table])
            found = cursor.fetchone()
            start = max(highest, found[0] if found else 0) + 1
            return range(start, start + count)

    def _writer(self, table: Table, name: str) -> Callable[[Any], Any] | None:
        """How a kept value of the field becomes the database's (None: as it is). What the
        field's ``get_db_prep_save`` gives, with the common kinds done directly."""
        f = table.model_field(name)
        ops = connection.ops
        if f.is_relation and f.related_model is get_user_model():
            return partial(self._user_id, table, name, f)
        if f.is_relation:
            return partial(self.resolve, table.refs[name])
        if type(f) in _PLAIN_FIELDS:
            return None
        if type(f) is models.DateTimeField:
            if connection.vendor == "sqlite" and settings.USE_TZ:
                # What adapt_datetimefield_value gives, at half its cost: the time as text,
                # naive in the connection's time zone (UTC).
                zone = connection.timezone
                return lambda value: str(value.astimezone(zone).replace(tzinfo=None))
            return ops.adapt_datetimefield_value
        if type(f) is models.JSONField:  # json.dumps on SQLite, psycopg's Jsonb on PostgreSQL
            write = partial(ops.adapt_json_value, encoder=f.encoder)
        else:
            write = partial(_prep_save, f)
        rule = table.json.get(name)
        if rule is not None and rule.refs:
            return lambda value: write(rule.into(value, self))
        return write

    def _user_id(self, table: Table, name: str, f: models.Field, who: Who) -> int | None:
        """The id of a user named in a record; one with no account here is counted for the
        notes and, by the field's policy, replaced (the importer, or nobody) or the record
        left out (:class:`_LeftOut`)."""
        if who.pk is not None:
            return who.pk
        policy = table.users.get(name) or ("empty" if f.null else "skip")
        self.absent[who.username][(policy, table.model, str(f.verbose_name))] += 1
        if policy == "skip":
            raise _LeftOut
        return self.importer.pk if policy == "importer" else None

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


def _prep_save(f: models.Field, value: Any) -> Any:
    return f.get_db_prep_save(value, connection)


class _Inserter:
    """One table's INSERT for ``executemany`` (SQLite) or COPY (PostgreSQL): the id, the
    ``head`` columns, the file's fields (each through the loader's writer), then the model's
    other columns: ``auto_now`` times are the moment of the import, the others their field's
    default (a column whose default is the database's is left to it)."""

    def __init__(self, loader: Loader, table: Table, head: tuple[str, ...]) -> None:
        meta = table.model._meta
        quote = connection.ops.quote_name
        fields = [table.model_field(name) for name in table.fields]
        columns = [meta.pk.column, *(meta.get_field(h).column for h in head)]
        columns += [f.column for f in fields]
        self.writers = [
            (number, write)
            for number, name in enumerate(table.fields)
            if (write := loader._writer(table, name)) is not None
        ]
        taken = {meta.pk.attname, *head, *(f.attname for f in fields)}
        now = timezone.now()
        fixed: list[tuple[str, Any]] = []
        made: list[tuple[str, Callable[[], Any]]] = []
        for f in meta.concrete_fields:
            if f.attname in taken:
                continue
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                fixed.append((f.column, f.get_db_prep_save(now, connection)))
            elif f.has_default() and callable(f.default):
                made.append((f.column, partial(_default, f)))
            else:
                default = f.get_default()
                if not hasattr(default, "resolve_expression"):  # else db_default: the database's
                    fixed.append((f.column, f.get_db_prep_save(default, connection)))
        columns += [column for column, _ in fixed] + [column for column, _ in made]
        self.fixed = tuple(value for _, value in fixed)
        self.made = tuple(make for _, make in made)
        names = ", ".join(quote(c) for c in columns)
        self.sql = (
            f"INSERT INTO {quote(meta.db_table)} ({names}) "
            f"VALUES ({', '.join(['%s'] * len(columns))})"
        )
        self.copy = f"COPY {quote(meta.db_table)} ({names}) FROM STDIN"

    def values(self, row: tuple[Any, ...]) -> list[Any]:
        """The file's values of a kept record as the database takes them (None stays None:
        SQL's NULL)."""
        values = list(row)
        for number, write in self.writers:
            if values[number] is not None:
                values[number] = write(values[number])
        return values

    def extra(self) -> tuple[Any, ...]:
        """The values of the other columns, for one row."""
        if not self.made:
            return self.fixed
        return (*self.fixed, *(make() for make in self.made))


def _default(f: models.Field) -> Any:
    return f.get_db_prep_save(f.get_default(), connection)


class Document(dict):
    """A backup document as :func:`read_backup` read it from a file. ``plain`` says what the
    file's text showed: no escape that could hide a NUL character (``\\u0000``) or a lone
    surrogate (``\\ud800``…``\\udfff``), and no number too large for a float. Then no value
    in it holds one, and the import need not look for them in each JSON value (it still does
    in a plain ``dict``, or when ``plain`` is False). A caller that changes the document
    after reading it passes ``dict(document)`` instead."""

    plain: bool = False


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def read_backup(data: bytes | str) -> Any:
    """The document in a file's bytes (a :class:`Document` when it is a JSON object);
    :class:`BackupRefused` when it is not JSON."""
    if len(data) > MAX_FILE_BYTES:
        raise BackupRefused([f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB"])
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise BackupRefused([f"the file is not UTF-8 text ({exc.reason})"]) from None
    infinite: list[str] = []
    try:
        with _collector_paused():
            document = json.loads(
                data, parse_constant=_no_constant, parse_float=partial(_float, infinite)
            )
    except RecursionError:
        raise BackupRefused(["the file is not JSON (nested too deep)"]) from None
    except ValueError as exc:
        raise BackupRefused([f"the file is not JSON ({exc})"]) from None
    if not isinstance(document, dict):
        return document
    document = Document(document)
    document.plain = (
        not infinite and "\\u0000" not in data and _SURROGATE_ESCAPE.search(data) is None
    )
    return document


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _float(infinite: list[str], text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999: refused where it is, with its place
        infinite.append(text)
    return value


def check_backup(
    document: Any, *, importer: Any, name: str = "", progress: Progress | None = None
) -> Loader:
    """Check a whole backup document before anything is written, as ``importer`` would
    restore it (``name``: a new name for the campaign): :class:`BackupRefused` names every
    problem's place. Returns the loader whose :meth:`Loader.restore` writes it (inside a
    transaction of the caller's). ``progress`` is told how far the check and the writing
    are (:data:`Progress`)."""
    if name:
        name = " ".join(name.split())
        limit = Campaign._meta.get_field("name").max_length
        if "\x00" in name or len(name) > limit:
            raise BackupRefused([f"name: a campaign's name has at most {limit} characters"])
    loader = Loader(document, importer, name=name, progress=progress)
    with _collector_paused():
        loader.check()
    return loader


def restore_campaign(
    document: Any, *, importer: Any, name: str = "", progress: Progress | None = None
) -> Restored:
    """A new campaign from a backup document, made by ``importer`` (who becomes its game
    master): the whole document is checked first (:class:`BackupRefused`: nothing written),
    then everything is created in one transaction. Users are found by username; those with
    no account here are reported in the notes (their memberships left out, the player
    characters they owned given to the importer)."""
    loader = check_backup(document, importer=importer, name=name, progress=progress)
    with transaction.atomic():
        return loader.restore()


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


_STRICT_JSON = json.JSONEncoder(allow_nan=False)


def _json(rule: JsonRule, loader: Loader, raw: Any) -> Any:
    """A JSON column's value: what PostgreSQL's JSON can hold (unless the file's text showed
    it already: :class:`Document`), then read by its rule."""
    if not loader.plain:
        try:
            text = _STRICT_JSON.encode(raw)
        except (ValueError, TypeError):  # NaN or infinity (PostgreSQL's JSON has neither)
            raise Problem("holds a number JSON cannot hold (NaN or infinity)") from None
        # json.dumps writes a NUL as the escape \u0000: only then is the value searched.
        if "\\u0000" in text and holds_nul(raw):
            raise Problem("text in it holds a NUL character")
        if "\\ud" in text and not encodes(json.dumps(raw, ensure_ascii=False)):
            raise Problem("text in it is not valid Unicode (a lone surrogate)")
    return rule.into(raw, loader)


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
