from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters.access import can_control, character_or_404, visible_characters
from characters.fields import code_from_pips
from characters.forms import AwardForm, CharacterForm, RollForm
from characters.live import poller_url
from characters.models import ATTRIBUTE_LABELS, ATTRIBUTES, Character, ForcePower, Item, Skill
from characters.services import (
    LedgerError,
    change_balance,
    condition,
    cp_limit,
    lift_skills_with_attributes,
    roll_trait,
    trait_for,
)
from rules.dice import PoolTooSmallError, rollable_pool
from rules.odds import chances_by_level


@login_required
def character_list(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id)
    characters = visible_characters(membership).select_related("owner")
    return render(
        request,
        "characters/character_list.html",
        {"campaign": membership.campaign, "membership": membership, "characters": characters},
    )


def _in_sheet_order(skills):
    """Skills in the order a sheet lists them: by attribute, then alphabetically, each
    specialization straight after the skill it specializes. Yields (id, name, attribute, kind,
    code, base) where ``base`` names the specialized skill only when it is not on the sheet
    (the row is then not indented under another skill)."""
    present = {(attribute, name.casefold()) for _, name, attribute, kind, _, _ in skills}

    def key(row):
        _, name, attribute, kind, _, base = row
        if kind == Skill.Kind.SPECIALIZATION and base:
            return (attribute, base.casefold(), 1, name.casefold())
        return (attribute, name.casefold(), 0, "")

    for pk, name, attribute, kind, code, base in sorted(skills, key=key):
        orphan = (
            kind == Skill.Kind.SPECIALIZATION
            and base
            and (attribute, base.casefold()) not in present
        )
        yield pk, name, attribute, kind if not orphan else "orphan", code, base if orphan else ""


def _skill_rows(skills) -> dict[str, list[dict]]:
    """Each attribute's skills as rows for the sheet's ``#skill-row`` partial, in sheet order.
    Plain dicts: the template engine resolves a dict key on its first try."""
    rows: dict[str, list[dict]] = {}
    for pk, name, attribute, kind, code, base in _in_sheet_order(skills):
        rows.setdefault(attribute, []).append(
            {
                "key": f"skill:{pk}",
                "label": f"(A) {name}" if kind == Skill.Kind.ADVANCED else name,
                "kind": kind,
                "code": str(code),
                "base": base,
            }
        )
    return rows


def _sheet_groups(character: Character, rows: dict[str, list[dict]]) -> list[dict]:
    groups = [
        {
            "key": attribute,
            "label": ATTRIBUTE_LABELS[attribute],
            "code": character.attribute(attribute),
            "skills": rows.get(attribute, ()),
        }
        for attribute in ATTRIBUTES
    ]
    if rows.get("force") or character.force_sensitive:
        groups.append(
            {"key": "force", "label": "The Force", "code": None, "skills": rows.get("force", ())}
        )
    return groups


_SHEET_SQL = (
    f"SELECT id, name, attribute, kind, code, base_skill FROM {Skill._meta.db_table}"
    " WHERE character_id = %s",
    "SELECT name, quantity, damage, ranges, skill, notes, armour_physical, armour_energy"
    f" FROM {Item._meta.db_table} WHERE character_id = %s ORDER BY kind, name, id",
    f"SELECT name, skills FROM {ForcePower._meta.db_table} WHERE character_id = %s ORDER BY name",
)
"""The sheet's three lists as plain SQL. They are the hottest queries of the most-used page,
and for such small single-table reads building and compiling a queryset costs several times
more than running it (bench/sheet.py). Die codes come back as stored: total pips."""


def _code(pips: int | None):
    return None if pips is None else code_from_pips(pips)


def _sheet_lists(character_id: int) -> list[list[tuple]]:
    """Skills (id, name, attribute, kind, code, base skill), items and powers of one
    character."""
    lists = []
    with connection.cursor() as cursor:
        for sql in _SHEET_SQL:
            cursor.execute(sql, [character_id])
            lists.append(cursor.fetchall())
    skills, items, powers = lists
    skills = [(*row[:4], code_from_pips(row[4]), row[5]) for row in skills]
    items = [(*row[:2], _code(row[2]), *row[3:6], _code(row[6]), _code(row[7])) for row in items]
    return [skills, items, powers]


def _item_rows(items) -> list[dict]:
    """The equipment table's rows for the sheet's ``#item-row`` partial."""
    rows = []
    for name, quantity, damage, ranges, skill, notes, physical, energy in items:
        if damage is not None:
            protection = str(damage)
        else:
            parts = [f"+{physical} physical" if physical is not None else ""]
            parts.append(f"+{energy} energy" if energy is not None else "")
            protection = " ".join(filter(None, parts))
        rows.append(
            {
                "name": f"{name} ×{quantity}" if quantity > 1 else name,
                "protection": protection,
                "ranges": ranges,
                "notes": " · ".join(filter(None, (skill, notes))),
            }
        )
    return rows


@login_required
def sheet(request, campaign_id, character_id):
    membership, character = character_or_404(request.user, campaign_id, character_id)
    controls = can_control(membership, character)
    skills, items, powers = _sheet_lists(character.pk)
    stamina = next((row[4] for row in skills if row[1].casefold() == "stamina"), None)
    wounds = condition(character, ruleset=membership.campaign.ruleset, stamina=stamina)
    roller = controls and not wounds.cannot_act
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "character": character,
        "groups": _sheet_groups(character, _skill_rows(skills)),
        "items": _item_rows(items),
        "powers": [{"name": name, "skills": skills} for name, skills in powers],
        "can_control": controls,
        "roller": roller,
        "wounds": wounds,
        "roll_url": reverse("characters:roll", args=[campaign_id, character_id]),
        **_recent_rolls(membership, character),
    }
    return render(request, "characters/sheet.html", context)


def _recent_rolls(membership, character) -> dict:
    """The live poller that fills the strip of the campaign's latest rolls and keeps it and
    the sheet's balances and wounds up to date. It starts at version 0, which no campaign has,
    and polls as the page loads: the strip comes with that first answer, so the sheet itself
    spends no query on it (bench/sheet.py)."""
    held = {"strip": 0, "sheet": character.pk}
    url = poller_url(membership, version=0, digest="-", **held)
    return {"strip_rolls": None, "poller_url": url, "poll_now": True}


def _roll_context(membership, character, trait, form, **extra):
    """What the roll panel shows: the pool after penalties and the exact odds per difficulty
    level for the settings in ``form`` (its defaults while it is unbound or invalid), or why
    the pool cannot be rolled."""
    ruleset = membership.campaign.ruleset
    values = form.cleaned_data if form.is_bound and form.is_valid() else {}
    actions = values.get("actions") or 1
    cp = values.get("cp") or 0
    modifier = values.get("modifier") or 0
    force_point = bool(values.get("force_point"))
    penalty = condition(character, ruleset=ruleset).penalty_dice
    try:
        pool = rollable_pool(
            trait.code,
            actions=actions,
            penalty_dice=penalty,
            force_point=force_point,
            ruleset=ruleset,
        )
    except PoolTooSmallError as exc:
        pool, odds, pool_error = None, [], str(exc)
    else:
        odds = chances_by_level(pool, ruleset=ruleset, cp_dice=cp, modifier=modifier)
        pool_error = ""
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "character": character,
        "trait": trait,
        "form": form,
        "pool": pool,
        "pool_error": pool_error,
        "wound_penalty": penalty,
        "odds": odds,
        "cp_limit": cp_limit(trait, ruleset),
        **extra,
    }


def _roll_panel_response(request, context, status=200):
    """The roll panel: the fragment for HTMX (the sheet's dialog), the page without it."""
    template = "characters/sheet.html#roll-panel" if request.htmx else "characters/roll.html"
    return render(request, template, context, status=status)


@login_required
def roll_panel(request, campaign_id, character_id):
    """GET: the roll panel for one trait with the exact odds (re-rendered as the player changes
    actions, CP or modifier). POST: roll, store the roll and debit the points; the panel comes
    back with the result above the same settings, so "Roll again" repeats them as shown."""
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    key = request.POST.get("trait") or request.GET.get("trait", "")
    try:
        trait = trait_for(character, key)
    except ValueError as exc:
        template = "includes/alert.html" if request.htmx else "refusal.html"
        context = {"message": str(exc), "back": character.get_absolute_url()}
        return render(request, template, context, status=400)
    ruleset = membership.campaign.ruleset
    limit = cp_limit(trait, ruleset)
    if request.method == "POST":
        data = request.POST
    else:
        data = request.GET if "actions" in request.GET else None
    form = RollForm(
        data,
        cp_limit=limit,
        allow_hidden=membership.is_gm,
        hidden_by_default=character.is_npc and character.secret,
    )
    if request.method != "POST":
        return _roll_panel_response(request, _roll_context(membership, character, trait, form))

    if form.is_valid():
        values = form.cleaned_data
        try:
            record = roll_trait(
                character,
                request.user,
                key,
                ruleset=ruleset,
                actions=values["actions"],
                modifier=values["modifier"],
                cp=values["cp"],
                force_point=values["force_point"],
                difficulty=values["difficulty"],
                hidden=values.get("hidden", False),
                note=values["note"],
            )
        except ValueError as exc:
            form.add_error(None, str(exc))
        else:
            character.refresh_from_db()
            if not request.htmx:
                messages.success(request, f"{record.label}: {record.total}")
                return redirect(character)
            context = _roll_context(membership, character, trait, form, roll=record)
            response = _roll_panel_response(request, context)
            response["HX-Trigger"] = "roll-made"
            return response
    context = _roll_context(membership, character, trait, form)
    return _roll_panel_response(request, context, status=400)


@login_required
def edit(request, campaign_id, character_id):
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    before = {a: character.attribute(a) for a in ATTRIBUTES}
    form = CharacterForm(
        request.POST or None, request.FILES or None, instance=character, gm=membership.is_gm
    )
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            form.save()
            lifted = lift_skills_with_attributes(
                character, before, ruleset=membership.campaign.ruleset
            )
        messages.success(request, f"{character.name} saved.")
        for line in lifted:
            messages.info(request, line)
        return redirect(character)
    return render(
        request,
        "characters/edit.html",
        {"campaign": membership.campaign, "character": character, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
def ledger(request, campaign_id, character_id):
    membership, character = character_or_404(request.user, campaign_id, character_id)
    if not can_control(membership, character):
        raise PermissionDenied("Only the character's player or a GM can see the ledger.")
    entries = character.ledger.select_related("actor", "roll")[:200]
    return render(
        request,
        "characters/ledger.html",
        {
            "campaign": membership.campaign,
            "membership": membership,
            "character": character,
            "entries": entries,
            "award_form": AwardForm() if membership.is_gm else None,
        },
    )


@login_required
@require_POST
def award(request, campaign_id, character_id):
    """GM: award or take away Character Points, Force Points, Dark Side Points or credits."""
    membership_or_404(request.user, campaign_id, role="gm")
    _, character = character_or_404(request.user, campaign_id, character_id)
    form = AwardForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(e for errs in form.errors.values() for e in errs)
        messages.error(request, f"Nothing changed: {errors}")
        return redirect("characters:ledger", campaign_id, character_id)
    try:
        change_balance(
            character,
            form.cleaned_data["currency"],
            form.cleaned_data["delta"],
            form.cleaned_data["reason"],
            request.user,
        )
    except LedgerError as exc:
        messages.error(request, f"Nothing changed: {exc}.")
    else:
        messages.success(request, "Balance changed and recorded in the ledger.")
    return redirect("characters:ledger", campaign_id, character_id)


@login_required
def delete(request, campaign_id, character_id):
    membership, character = character_or_404(request.user, campaign_id, character_id, control=True)
    if request.method == "POST":
        if request.POST.get("confirm_name", "").strip() != character.name:
            messages.error(request, "Type the character's name exactly to delete it.")
            return redirect("characters:delete", campaign_id, character_id)
        with transaction.atomic():
            name = character.name
            character.delete()
        messages.success(request, f"{name} was deleted.")
        return redirect(reverse("characters:list", args=[campaign_id]))
    return render(
        request,
        "characters/delete.html",
        {"campaign": membership.campaign, "character": character},
    )
