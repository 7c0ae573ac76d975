"""Malformed input on every URL of the permission matrix, for every visitor: never a 5xx, and
nothing changes in the database unless the input could be valid.

For each URL row of ``tests/permissions.py`` (the wizard's step row once per step) and each
visitor, GET and POST both carry: no fields at all; every field the view's forms know set to one
bad value (text where a number goes, huge and negative numbers, emoji, right-to-left marks, NUL,
10,000 characters, markup); repeated and bracketed fields; escaped bytes that are not UTF-8 (a
lone surrogate, ``%FF``) in the body and the query string; JSON, broken multipart and
non-UTF-8 form bodies; bad HTMX headers; and bad values in the URL itself. Visitors the matrix
turns away at the door get a shorter list. The CSRF check is on, as for a browser.

Nothing may change in the database (row counts and a digest of every column of the project's
tables) after a GET, after any refusal (4xx), after a bad URL, or after input no field accepts
(NUL in every field). A POST answered with success may have changed things: a campaign may well
be called "abc", and logging out or leaving a campaign needs no input at all.

Each request runs in a savepoint rolled back afterwards, and the client's cookies are put back,
so every request meets the same scenario. Run it on PostgreSQL, where lengths are enforced and
NUL is refused (``scripts/test.sh --no-cov tests/test_malformed.py``); SQLite hides both.
"""

from copy import deepcopy
from dataclasses import dataclass, field, fields, replace
from functools import cache
from urllib.parse import quote, urlencode

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm
from django.db import connection, transaction
from django.test import Client
from django.test.client import MULTIPART_CONTENT as MULTIPART
from django.urls import reverse

from campaigns.forms import (
    CampaignForm,
    InvitationForm,
    RoleForm,
    RuleOptionsForm,
    SignupForm,
)
from campaigns.library_forms import FORMS as LIBRARY_FORMS
from characters.calendar_forms import (
    AdvanceForm,
    AdventureForm,
    AwardReasonForm,
    AwardRowForm,
    CalendarForm,
    DecisionForm,
    EndAdventureForm,
    ImproveForm,
    SkillEditForm,
    SkillRemoveForm,
    WithdrawForm,
)
from characters.craft_forms import (
    CatalogueAddForm,
    CrewForm,
    RecordHitForm,
    RepairRequestForm,
    ResolveRepairForm,
    StatBlockForm,
)
from characters.craft_travel_forms import AstrogationForm, SpeedActionsForm
from characters.droid_forms import DroidForm, ItemRowForm
from characters.droid_forms import SkillRowForm as DroidSkillRowForm
from characters.forms import AwardForm, CharacterForm, RollForm
from characters.forms_wizard import (
    MAX_SKILL_ROWS,
    AttributesForm,
    BackgroundForm,
    ForceForm,
    GearForm,
    SkillRowForm,
    SpeciesForm,
    StartForm,
)
from characters.healing_views import BactaForm, DeathDecisionForm, HealingCPForm
from characters.project_views import CraftQuoteForm, ItemQuoteForm
from characters.school_forms import SchoolForm
from characters.trait_views import TraitTickForm
from characters.wizard import STEPS
from encounters.fleet_forms import AddShipForm, NewFleetActionForm
from encounters.forms import AddCharactersForm, QuickStatBlockForm
from rules import RuleSet
from rules.encounter import COMMANDS, OVERRIDE_FIELDS
from tests import test_permissions
from tests.permissions import LOGIN, ROWS, Row, filled

# The permission matrix's scenario (a campaign with a GM, a player, another player, an outsider,
# characters, a secret NPC, an invitation, the player's draft and an encounter in the round),
# shared with that test.
scenario = test_permissions.scenario
VISITORS = test_permissions.VISITORS

FORM = "application/x-www-form-urlencoded"


# ---------------------------------------------------------------------------------------------
# Field names: what each view's forms read
# ---------------------------------------------------------------------------------------------
def _names(form) -> list[str]:
    return list(form.fields if hasattr(form, "fields") else form.base_fields)


def _skill_row_names() -> list[str]:
    management = ["TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS", "MAX_NUM_FORMS"]
    rows = [f"0-{n}" for n in SkillRowForm.base_fields] + [
        f"1-{n}" for n in SkillRowForm.base_fields
    ]
    return [f"skills-{n}" for n in management + rows]


def _award_names() -> list[str]:
    management = ["TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS", "MAX_NUM_FORMS"]
    rows = [f"{i}-{n}" for i in (0, 1) for n in AwardRowForm.base_fields]
    return [*_names(AwardReasonForm), *(f"awards-{n}" for n in management + rows)]


def _quote_names(form_class, **kwargs) -> list[str]:
    """An improvement quote's fields under either improvement system (each shows its own)."""
    rc = RuleSet(equipment_improvement="rc_skill_points", rc_weapon_install="fee_or_sp")
    rulesets = (RuleSet(), rc)
    return sorted({n for r in rulesets for n in _names(form_class(ruleset=r, **kwargs))})


def _droid_names() -> list[str]:
    """The droid builder's form, its six attributes, and two rows of skills and of items."""
    management = ["TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS", "MAX_NUM_FORMS"]
    attributes = ["dexterity", "knowledge", "mechanical", "perception", "strength", "technical"]
    names = [*_names(DroidForm), *attributes, "_live", "action"]
    for prefix, form in (("skills", DroidSkillRowForm), ("items", ItemRowForm)):
        rows = [f"{i}-{n}" for i in (0, 1) for n in form.base_fields]
        names += [f"{prefix}-{n}" for n in management + rows]
    return names


def _travel_names(only: str = "") -> list[str]:
    """A craft's travel page: the speed-actions form (prefix move-) and astrogation (astro-),
    both with their optional fields on; the page's GET reads both for its live odds."""
    forms = {
        "move": SpeedActionsForm(starship=True),
        "astro": AstrogationForm(uncertainty=True),
    }
    return [
        f"{prefix}-{n}"
        for prefix, form in forms.items()
        if only in ("", prefix)
        for n in form.fields
    ]


def _step_names() -> list[str]:
    """What a step form may post: every command's fields, the command's ``type`` and the
    encounter version the page holds (``seen``, or ``version`` from the form itself)."""
    own = {f.name for command in COMMANDS.values() for f in fields(command)}
    return ["seen", "version", "type", *sorted(own)]


@cache
def fields_by_url() -> dict[str, list[str]]:
    """Every field name each URL's forms read (forms built with their optional fields on)."""
    wizard_steps = {
        "species": _names(SpeciesForm()),
        "attributes": _names(AttributesForm()),
        "skills": _skill_row_names(),
        "force": _names(ForceForm()),
        "gear": _names(GearForm()),
        "background": _names(BackgroundForm(npc=True, house=True)),
        "review": [],
    }
    return {
        "signup": [*_names(SignupForm()), "next"],
        "login": ["username", "password", "next"],
        "logout": ["next"],
        "password_change": _names(PasswordChangeForm(user=None)),
        "password_reset": ["email"],
        "password_reset_confirm": _names(SetPasswordForm(user=None)),
        "campaigns:create": _names(CampaignForm),
        "campaigns:edit": _names(CampaignForm),
        "campaigns:rules": _names(RuleOptionsForm(ruleset=RuleSet())),
        "campaigns:invitation_create": _names(InvitationForm),
        "campaigns:member_role": _names(RoleForm),
        "characters:dice_log": ["before"],
        "characters:sheet": ["part"],
        "characters:edit": _names(CharacterForm),
        "characters:roll": _names(RollForm),
        "characters:award": _names(AwardForm),
        "characters:delete": ["confirm_name"],
        "characters:wizard_start": _names(StartForm),
        "characters:improve": [*_names(ImproveForm), "confirm", "preview"],
        "characters:advancements": ["sheet"],
        "characters:withdraw": _names(WithdrawForm),
        "characters:healing_bacta": _names(BactaForm),
        "characters:healing_cp": _names(HealingCPForm),
        "characters:healing_decide": _names(DeathDecisionForm),
        "characters:skills": _names(SkillEditForm),
        "characters:skill_remove": _names(SkillRemoveForm),
        "characters:calendar_settings": _names(CalendarForm),
        "characters:adventure_start": _names(AdventureForm),
        "characters:adventure_end": _names(EndAdventureForm),
        "characters:awards": _award_names(),
        "characters:advance": [*_names(AdvanceForm), "advance", "seen"],
        "characters:approvals": _names(DecisionForm),
        "characters:trait_uses": _names(TraitTickForm),
        "campaigns:library_add": sorted(LIBRARY_FORMS["gear"].base_fields),
        "campaigns:library_edit": sorted(LIBRARY_FORMS["gear"].base_fields),
        "campaigns:library_import": ["file", "replace"],
        "campaigns:restore": ["file", "name", "key"],
        "campaigns:restore_job": ["seen"],
        "campaigns:library_delete": ["confirm"],
        "characters:draft_submit": ["note"],
        "characters:draft_return": ["reason"],
        "characters:import_character": ["file", "text", "owner"],
        "characters:droid_builder": _droid_names(),
        "characters:craft_list": ["q", "kind"],
        "characters:craft_add": _names(CatalogueAddForm()),
        "characters:craft_new": _names(StatBlockForm()),
        "characters:craft_crew": _names(CrewForm()),
        "characters:craft_delete": ["confirm_name"],
        "characters:craft_roll": _names(RollForm),
        "characters:craft_edit": _names(StatBlockForm()),
        "characters:craft_hit": _names(RecordHitForm(rc=True)),
        "characters:craft_clear": ["entry"],
        "characters:craft_undo": [],
        "characters:craft_repair": _names(RepairRequestForm(gm=True)),
        "characters:craft_repair_resolve": _names(ResolveRepairForm),
        "characters:craft_repair_cancel": [],
        "characters:item_quote": [*_quote_names(ItemQuoteForm, items=[]), "skill"],
        "characters:craft_quote": [*_quote_names(CraftQuoteForm, weapons=()), "skill", "worker"],
        "characters:project_change": ["action"],
        "characters:school_new": _names(SchoolForm),
        "characters:school_edit": _names(SchoolForm),
        "characters:school_open": ["open"],
        "characters:school_enrol": ["character", "payment", "pay"],
        "characters:school_withdraw": [],
        "characters:craft_travel": _travel_names(),
        "characters:craft_travel_move": _travel_names("move"),
        "characters:craft_long_run": ["speed", "minutes"],
        "characters:craft_travel_astrogate": _travel_names("astro"),
        "encounters:list": ["name"],
        "encounters:step": _step_names(),
        "encounters:undo": ["seen", "version"],
        "encounters:end": ["seen", "version"],
        "encounters:add": [
            "which",
            "block",
            *(f"pc-{n}" for n in _names(AddCharactersForm)),
            *(f"sb-{n}" for n in _names(QuickStatBlockForm)),
        ],
        "encounters:live": ["v"],
        "encounters:fleet_list": _names(NewFleetActionForm),
        "encounters:fleet_ship": ["version", *_names(AddShipForm(craft=[]))],
        "encounters:fleet_undo": ["version"],
        "encounters:fleet_live": ["v"],
        "encounters:fleet_step": FLEET_STEP_FIELDS,
        **{f"characters:wizard_step:{s}": [*names, "_live"] for s, names in wizard_steps.items()},
    }


FLEET_STEP_FIELDS = [
    *("version", "type", "ship", "battery", "guns", "target", "aim", "vital_locations"),
    *("target_battery", "target_guns", "coordinate_ship", "coordinate_battery"),
    *("coordinate_guns", "facing", "haste_orders", "coordinations", "bonuses", "officers"),
    *("donor", "receiver", "difficulty", "reserved_actions", "speed_actions"),
    *("target_speed_actions", "row", "pips"),
]
"""What the fleet action's step forms send (encounters/fleet_forms.step_data)."""


@cache
def all_field_names() -> list[str]:
    return sorted({n for names in fields_by_url().values() for n in names})


# ---------------------------------------------------------------------------------------------
# Targets: one per URL (and wizard step), with the valid data the matrix sends
# ---------------------------------------------------------------------------------------------
@dataclass
class Target:
    name: str
    args: tuple[str, ...]
    step: str | None = None
    data: dict = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.name}:{self.step}" if self.step else self.name

    @property
    def id(self) -> str:
        return "-".join([self.name, *self.args] + ([self.step] if self.step else []))

    def fields(self) -> list[str]:
        own = fields_by_url().get(self.key, [])
        return list(dict.fromkeys([*self.data, *own]))

    def refuses(self, visitor: str) -> bool:
        """The visitor is turned away at the door on every method the matrix lists."""
        return all(getattr(r, visitor) in (LOGIN, 403, 404, 405) for r in self.rows)


def _targets() -> list[Target]:
    targets: dict[tuple, Target] = {}
    for row in ROWS:
        steps = STEPS if row.name == "characters:wizard_step" else (None,)
        for step in steps:
            target = targets.setdefault(
                (row.name, row.args, step), Target(row.name, row.args, step)
            )
            target.data.update(row.data)
            target.rows.append(row)
    return list(targets.values())


TARGETS = _targets()

# POSTs that act whatever extra or bad fields come with them, because they need no input:
# logging out, leaving a campaign, revoking an invitation, removing a member, letting a removed
# player back in, discarding a draft and joining through an invitation. They are still checked
# for refusals (4xx) and where the URL itself is wrong (a huge or unknown id, a bad token).
ACTS_WITHOUT_INPUT = {
    "logout",
    "campaigns:leave",
    "campaigns:invitation_revoke",
    "campaigns:member_remove",
    "campaigns:removal_allow",
    "characters:wizard_discard",
    "characters:craft_clear",  # no entry: clears all the damage
    "characters:craft_undo",
    "characters:craft_repair_resolve",  # no number: the top of the quoted level
    "characters:craft_repair_cancel",
    "campaigns:join",
}


# ---------------------------------------------------------------------------------------------
# Payloads
# ---------------------------------------------------------------------------------------------
HUGE = str(10**30)
NUL = "a\x00b"
LONG = "x" * 10_000
JUNK = [
    "",
    "abc",
    HUGE,
    "-" + HUGE,
    "🎲💥🧑\u200d🚀 \u202eevil\u202c \u05e9\u05dc\u05d5\u05dd",
    NUL,
    LONG,
    "<script>alert(1)</script>{{ 7|add:7 }}",
]
"""Bad values, each sent in every field at once."""
GET_JUNK = [HUGE, NUL, LONG, "🎲\u202e"]
"""Fewer for GET: pages read little from the query string."""
DOOR_JUNK = [HUGE, NUL, LONG]
"""The few sent to a visitor the matrix turns away at the door."""
ONE_FIELD_JUNK = ["-" + HUGE, NUL, LONG]
"""Put one at a time into the matrix's valid data."""


def _kept_valid() -> dict[str, list[dict]]:
    """Fields kept valid while every other field gets each bad value, for views that read
    nothing else until these are right: a step needs the page's version (the scenario's
    encounter is at version 1), a known ``type`` and (to get past "who?") real combatants; a
    GM's override a settable field; adding combatants says ``which`` form, and a quick stat
    block needs a name and a side before its parsers run. ``{name}``: see ``filled``."""
    people = {
        "combatant": "pc-{character}",
        "attacker": "pc-{character}",
        "healer": "pc-{character}",
        "target": "sb-stormtrooper-1",
        "patient": "sb-stormtrooper-1",
    }
    step = [{"seen": "1", "type": kind} for kind in COMMANDS]
    step += [{"seen": "1", "type": kind, **people} for kind in COMMANDS]
    npc = "sb-stormtrooper-1"
    step += [
        {"seen": "1", "type": "gm_override", "combatant": npc, "field": name, "skill": "dodge"}
        for name in OVERRIDE_FIELDS
    ]
    named = {"sb-name": "Stormtrooper", "sb-side": "empire", "sb-count": "2"}
    add = [
        {"which": "characters"},
        {"which": "characters", "pc-side": "rebels"},
        {"which": "statblock"},
        {"which": "statblock", **named, "sb-scale": "character"},
    ]
    # Advancement: past the choice of what to improve (the scenario's character has no skill
    # on the sheet), to the quote; the awards' rows need their management form and a character.
    improve = [{"what": "new_skill:"}, {"what": "new_specialization:"}, {"what": "move:Move"}]
    awards = [
        {"awards-TOTAL_FORMS": "1", "awards-INITIAL_FORMS": "1", "awards-0-character": who}
        for who in ("{character}", "{others_character}")
    ]
    skills = [{"attribute": "perception", "kind": "skill"}, {"kind": "specialization"}]
    return {
        "encounters:step": step,
        "encounters:add": add,
        "characters:improve": improve,
        "characters:awards": awards,
        "characters:skills": skills,
    }


KEPT_VALID = _kept_valid()


def _reads_junk(kept: dict, fields_read: list[str]) -> bool:
    """True when a field this step (or form) reads is left to the bad value and is no mere
    checkbox (NUL in a checkbox is just "off")."""
    command = COMMANDS.get(kept.get("type", ""))
    if command is None:
        return any(n not in kept for n in fields_read)
    return any(f.name not in kept and str(f.type) != "bool" for f in fields(command))


RAW_JUNK = "%ED%A0%80", "%FF%FE", "%00", "%C0%AF"
"""Escaped bytes: a lone surrogate, bytes that are not UTF-8, NUL, an overlong "/"."""

HX_HEADERS = [
    {},
    {
        "HX-Request": "true",
        "HX-Target": "\u202e\x7f<script>" + "t" * 500,
        "HX-Current-URL": "javascript:alert(1)//%ED%A0%80" + "u" * 2000,
        "HX-Trigger": "🎲",
        "HX-Trigger-Name": "\x00",
        "HX-Prompt": "x" * 1000,
        "HX-Boosted": "maybe",
        "HX-History-Restore-Request": "true",
    },
    {"HX-Request": "banana", "HX-Target": "", "HX-Current-URL": "::::"},
]
"""Each request carries one of these in turn."""


@dataclass
class Payload:
    label: str
    data: dict | None = None
    raw: str | bytes | None = None
    content_type: str = FORM
    must_refuse: bool = False
    """True: whatever the status, nothing may change (bad for every kind of field: NUL is
    refused by every text, number, choice and die-code field). Otherwise nothing may change
    when the answer is a refusal (4xx); valid-looking text (a campaign named "abc") may save."""


def payloads(target: Target, method: str, full: bool, scenario=None) -> list[Payload]:
    names = target.fields()
    out = [Payload("no fields", {})]
    for value in JUNK if full and method == "post" else GET_JUNK if full else DOOR_JUNK:
        out.append(Payload(f"every field {value[:12]!r}", dict.fromkeys(names, value)))
        out[-1].must_refuse = value == NUL
    raw = "&".join(f"{quote(n)}={RAW_JUNK[i % len(RAW_JUNK)]}" for i, n in enumerate(names))
    out.append(Payload("escaped bytes", raw=f"{raw}&%FF%FE=%ED%A0%80".lstrip("&")))
    if not full:
        return out
    out.append(Payload("every known field 'abc'", dict.fromkeys(all_field_names(), "abc")))
    odd = {n: ["abc", "🎲", HUGE] for n in names} | {f"{n}[x]": "1" for n in names}
    out.append(Payload("repeated and bracketed fields", odd))
    if method == "post":
        json = '{"trait": [1], "actions": {"a": 1}}'
        out.append(Payload("JSON body", raw=json, content_type="application/json"))
        out.append(Payload("broken multipart", raw=b"--x\r\n\xff\r\n", content_type=MULTIPART))
        for charset in ("latin-1", "utf-16"):
            body = "&".join(f"{n}=\xff" for n in names).encode("latin-1")
            out.append(Payload(charset, raw=body, content_type=f"{FORM}; charset={charset}"))
        extra = {"extra_🎲": LONG, "__class__": "1", "pk": "-1", "owner": HUGE}
        out.append(Payload("valid data and extra fields", {**target.data, **extra}))
        for name in target.data:
            for value in ONE_FIELD_JUNK:
                out.append(Payload(f"{name}={value[:12]!r}", {**target.data, name: value}))
    if target.step == "skills":
        bad_rows = {"skills-TOTAL_FORMS": HUGE, "skills-INITIAL_FORMS": "-1", "skills-0-name": NUL}
        for n in ("add-skill", "remove-0", "remove-999", "remove--1", f"remove-{HUGE}", "remove-"):
            out.append(Payload(f"action {n}", {"action": n, **bad_rows}, must_refuse=True))
        too_many = {"skills-TOTAL_FORMS": str(MAX_SKILL_ROWS + 1), "skills-INITIAL_FORMS": "0"}
        out.append(Payload("too many skill rows", too_many))
    for kept in KEPT_VALID.get(target.name, []) if method == "post" else []:
        kept = filled(kept, scenario)
        label = " ".join(f"{k}={v}" for k, v in kept.items() if k in ("type", "which", "field"))
        for value in JUNK:
            refuse = value == NUL and _reads_junk(kept, names)
            data = {**dict.fromkeys(names, value), **kept}
            out.append(Payload(f"{label}, the rest {value[:12]!r}", data, must_refuse=refuse))
    if target.step:
        live = {**dict.fromkeys(names, LONG), "_live": "1"}
        out.append(Payload("live check", live, must_refuse=True))
    return out


def url_variants(target: Target, scenario, full: bool) -> list[tuple[str, str]]:
    """The target's URL, and the same URL with one argument replaced by a bad value."""
    values = [_arg(scenario, target, name) for name in target.args]
    sentinels = [f"987654{i}321" for i in range(len(values))]
    template = reverse(target.name, args=sentinels)
    urls = [("valid", _fill(template, sentinels, values))]
    for i, value in enumerate(values):
        if value.isdigit():
            # SQLite's driver cannot take an integer over 64 bits at all (reported); PostgreSQL
            # gets Django's overflow check.
            bad = [HUGE] if connection.vendor == "postgresql" else []
        else:
            bad = ["%00", "%ED%A0%80", "x" * 3000] if full else ["%00"]
        for b in bad:
            where = f"argument {i} = {b[:12]!r}"
            urls.append((where, _fill(template, sentinels, [*values[:i], b, *values[i + 1 :]])))
    return urls


def _arg(scenario, target: Target, name: str) -> str:
    if name == "draft_step":
        return target.step
    if name == "token" and target.name == "password_reset_confirm":
        return scenario.token_for_reset
    return str(getattr(scenario, name))


def _fill(template: str, sentinels: list[str], values: list[str]) -> str:
    for sentinel, value in zip(sentinels, values, strict=True):
        template = template.replace(sentinel, value, 1)
    return template


# ---------------------------------------------------------------------------------------------
# The database, as a digest per table
# ---------------------------------------------------------------------------------------------
@cache
def watched_models() -> list:
    """Every table of the project's apps, and the users: campaigns, memberships, invitations,
    characters with their balances, skills, items, powers, ledger entries, dice rolls, drafts..."""
    labels = ("campaigns", "characters", "encounters")
    return [get_user_model()] + [m for a in labels for m in apps.get_app_config(a).get_models()]


def _columns(model) -> list[str]:
    return [f.column for f in model._meta.concrete_fields if f.column != "last_login"]


@cache
def _digest_sql() -> str:
    """One query: each table's row count and an md5 of all its columns but ``last_login``."""
    qn = connection.ops.quote_name
    parts = []
    for model in watched_models():
        row = ", ".join(f"t.{qn(c)}" for c in _columns(model))
        order = qn(model._meta.pk.column)
        parts.append(
            f"SELECT '{model._meta.label}', count(*), "
            f"md5(coalesce(string_agg(ROW({row})::text, ',' ORDER BY t.{order}), '')) "
            f"FROM {qn(model._meta.db_table)} t"
        )
    return " UNION ALL ".join(parts)


def snapshot() -> dict[str, object]:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_digest_sql())
            return {label: (count, digest) for label, count, digest in cursor.fetchall()}
    # Elsewhere (a quick SQLite run), the same through the ORM.
    return {
        m._meta.label: list(m.objects.order_by("pk").values_list(*_columns(m)))
        for m in watched_models()
    }


# ---------------------------------------------------------------------------------------------
# The test
# ---------------------------------------------------------------------------------------------
def send(client: Client, method: str, url: str, payload: Payload, headers: dict, multipart: bool):
    if payload.raw is not None:
        if method == "get":
            raw = payload.raw if isinstance(payload.raw, str) else payload.raw.decode("latin-1")
            return client.get(f"{url}?{raw}", headers=headers)
        return client.generic(
            "POST", url, payload.raw, content_type=payload.content_type, headers=headers
        )
    if method == "get":
        return client.get(url, payload.data, headers=headers)
    if multipart:
        return client.post(url, payload.data, headers=headers)
    body = urlencode(payload.data, doseq=True)
    return client.post(url, body, content_type=FORM, headers=headers)


CSRF_SECRET = "s" * 32

KNOWN_5XX: dict[tuple[str, str], str] = {}
"""(target id, visitor) → the bug behind a 5xx found outside this test's files, marked
xfail(strict=True) so the case turns into a failure (to remove from here) once it is fixed."""


def _cases():
    for target in TARGETS:
        for visitor in VISITORS:
            reason = KNOWN_5XX.get((target.id, visitor))
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            yield pytest.param(target, visitor, marks=marks, id=f"{target.id}-{visitor}")


@pytest.mark.parametrize(("target", "visitor"), list(_cases()))
def test_malformed_input_is_never_a_server_error_and_changes_nothing(scenario, target, visitor):
    # The CSRF check on, with the cookie and header a browser sends: it reads the body first.
    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    user = scenario.users[visitor]
    if user is not None:
        client.force_login(user)
    client.cookies["csrftoken"] = CSRF_SECRET
    cookies = deepcopy(client.cookies)
    full = not target.refuses(visitor)
    target = replace(target, data=filled(target.data, scenario))
    before = snapshot()
    failures, n = [], 0
    for where, url in url_variants(target, scenario, full):
        for method in ("get", "post"):
            if where == "valid":
                items = payloads(target, method, full, scenario)
            else:  # a bad URL: the matrix's own data must be refused
                items = [Payload("matrix data", target.data, must_refuse=True)]
            for payload in items:
                n += 1
                headers = {**HX_HEADERS[n % len(HX_HEADERS)], "X-CSRFToken": CSRF_SECRET}
                with transaction.atomic():
                    try:
                        response = send(client, method, url, payload, headers, n % 2 == 0)
                        status, detail = response.status_code, ""
                    except Exception as exc:  # escaped even the 500 handler: the server's 500
                        status, detail = 500, f" ({exc.__class__.__name__} escaped: {exc})"
                    changed = []
                    if status < 500 and _must_not_change(target, method, where, payload, status):
                        after = snapshot()
                        changed = [table for table in before if after[table] != before[table]]
                    transaction.set_rollback(True)  # the next request meets the same scenario
                client.cookies = deepcopy(cookies)
                if status >= 500 or changed:
                    what = f"{status}{detail}" if status >= 500 else "changed " + ", ".join(changed)
                    failures.append(
                        f"{method.upper()} {url[:100]} [{where}; {payload.label}; "
                        f"HX headers {n % len(HX_HEADERS)}]: {what}"
                    )
    assert not failures, f"{len(failures)} of {n} requests:\n" + "\n".join(failures[:40])


def _must_not_change(target: Target, method: str, where: str, payload: Payload, status: int):
    if method == "get" or status >= 400 or where != "valid":
        return True  # GET never changes anything, nor does a refusal or a bad URL
    if target.name in ACTS_WITHOUT_INPUT:
        return False
    return payload.must_refuse
