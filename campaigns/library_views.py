"""The campaign library's pages: every member reads it; the campaign's game masters add, copy,
edit and delete entries and import a library file. Writes go through :mod:`campaigns.library`."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods

from campaigns import library
from campaigns.access import membership_or_404
from campaigns.library_forms import FORCE_SENSITIVITY_LABELS, FORMS, LibraryImportForm
from campaigns.models import LibraryEntry
from rules.equipment import availability_fee, black_market_price_range, license_check_difficulty
from rules.library import KIND_LABELS, KINDS
from rules.traits import ATTRIBUTES

ABBREVIATIONS = {
    "dexterity": "Dex",
    "knowledge": "Kno",
    "mechanical": "Mec",
    "perception": "Per",
    "strength": "Str",
    "technical": "Tec",
}
EMPTY = {
    "species": "No species yet.",
    "template": "No templates yet. A template gives a new character its attributes, skills, "
    "gear and credits in one go (“Smuggler”, “Young Jedi”).",
    "weapon": "No weapons yet.",
    "armour": "No armour yet.",
    "gear": "No gear yet: medpacs, comlinks, breath masks… add what your players buy.",
}
ADD_LABELS = {
    "species": "Add a species",
    "template": "Add a template",
    "weapon": "Add a weapon",
    "armour": "Add armour",
    "gear": "Add gear",
}


def _library_url(campaign_id: int, kind: str = "") -> str:
    url = reverse("campaigns:library", args=[campaign_id])
    return f"{url}#{kind}" if kind else url


def _facts(entry: library.Entry) -> list[tuple[str, str]]:
    """The numbers a GM looks for in a listing, as (label, value) pairs."""
    d = entry.data
    if entry.kind == "species":
        if not d.get("attributes"):
            return []
        facts = [
            (ABBREVIATIONS[a], f"{d['attributes'][a]['min']}–{d['attributes'][a]['max']}")
            for a in ATTRIBUTES
        ]
        move = d.get("move")
        if move:
            extra = f" (max {move['max']})" if move["max"] != move["normal"] else ""
            facts.append(("Move", f"{move['normal']}{extra}"))
        if d.get("force_sensitivity") == "forbidden":
            facts.append(("Force-sensitive", "never"))
        return facts
    if entry.kind == "weapon":
        return _weapon_facts(d)
    if entry.kind == "armour":
        facts = [("Physical", f"+{d['physical']}"), ("Energy", f"+{d['energy']}")]
        if d["dexterity_penalty"] != "0D":
            facts.append(("Dexterity", f"−{d['dexterity_penalty']}"))
        if d.get("covers"):
            facts.append(("Covers", ", ".join(d["covers"])))
        return facts + _cost(d)
    if entry.kind == "template":
        facts = [("Species", d.get("species") or "player’s choice")]
        facts += [(ABBREVIATIONS[a], d["attributes"][a]) for a in ATTRIBUTES]
        facts.append(("Skills", str(len(d.get("skills") or []))))
        if (d.get("force") or {}).get("sensitive"):
            facts.append(("Force", "sensitive"))
        facts.append(("Credits", f"{d.get('credits', 0):,}"))
        return facts
    return _cost(d)


def _weapon_facts(d: dict) -> list[tuple[str, str]]:
    if d.get("blast"):
        damage = "/".join(b["damage"] for b in d["blast"])
    elif d.get("damage") is None:
        damage = "—"
    elif d.get("adds_strength"):
        damage = "STR" if d["damage"] == "0D" else f"STR+{d['damage']}"
    else:
        damage = d["damage"]
    facts = [("Skill", d["skill"]), ("Damage", damage)]
    ranges = d.get("ranges")
    if ranges:
        short = ranges["short"]
        facts.append(("Ranges", f"{short[0]}-{short[1]}/{ranges['medium']}/{ranges['long']}"))
    if d.get("scale") and d["scale"] != "character":
        facts.append(("Scale", d["scale"].replace("_", " ")))
    return facts + _cost(d)


def _sensitivity(entry: library.Entry) -> str:
    """A species' Force sensitivity in words, unless it is the usual "may be"."""
    value = entry.data.get("force_sensitivity")
    return FORCE_SENSITIVITY_LABELS[value] if value and value != "allowed" else ""


def _cost(d: dict) -> list[tuple[str, str]]:
    facts = []
    if d.get("cost") is not None:
        facts.append(("Cost", f"{d['cost']:,} cr"))
    if d.get("availability"):
        facts.append(("Availability", d["availability"]))
        facts += availability_facts(d["availability"], d.get("cost"))
    return facts


def availability_facts(code: str, cost: int | None) -> list[tuple[str, str]]:
    """[RC] what buying an item of availability P (permit) or R (restricted licence) adds to
    its price, and [HOUSE] its black-market range (droids-and-equipment.md §3.9, E17, E18).
    Codes are read by their letter ("2, R" is R); other codes have no rule in the sources."""
    letters = {part.strip().upper() for part in code.replace(",", " ").split()}
    key = next((k for k in ("R", "P") if k in letters), None)
    if key is None or cost is None:
        return []
    fee = availability_fee(key, cost)
    words = f"about {fee.standard:,} cr ({fee.low:,}–{fee.high:,})"
    facts = [("Licence" if key == "R" else "Permit fee", words)]
    if fee.background_check:
        levels = [license_check_difficulty(r) for r in ("unknown", "infamous", "famous")]
        facts.append(
            (
                "Background check",
                f"{levels[0]} ({levels[1]} with a touch of infamy, {levels[2]} if famous)",
            )
        )
    low, high = black_market_price_range(cost)
    facts.append(("Black market", f"{low:,}–{high:,} cr"))
    return facts


@login_required
def library_page(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    listing = library.all_entries(campaign)
    sections = [
        {
            "kind": kind,
            "label": KIND_LABELS[kind],
            "add_label": ADD_LABELS[kind],
            "empty": EMPTY[kind],
            "rows": [
                {"entry": e, "facts": _facts(e), "sensitivity": _sensitivity(e)}
                for e in listing[kind]
            ],
        }
        for kind in KINDS
    ]
    context = {
        "campaign": campaign,
        "membership": membership,
        "sections": sections,
        "own_count": sum(1 for kind in KINDS for e in listing[kind] if not e.builtin),
    }
    return render(request, "campaigns/library.html", context)


def _form(kind, campaign, data=None, *, initial=None):
    form_class = FORMS[kind]
    kwargs = {}
    if kind == "template":
        kwargs = {
            "species": [e.name for e in library.entries(campaign, "species")],
            "weapons": [e.name for e in library.entries(campaign, "weapon")],
            "armour": [e.name for e in library.entries(campaign, "armour")],
        }
    return form_class(data, initial=initial, **kwargs)


def _save(request, membership, form, kind, *, entry=None, copied_from=""):
    """Save a valid form's entry; a refusal (a name taken) becomes a form error."""
    try:
        saved = library.save_entry(
            membership.campaign,
            kind,
            form.entry,
            actor=request.user,
            entry=entry,
            copied_from=copied_from,
        )
    except library.LibraryRefused as exc:
        field = form.field_for(exc.where) if exc.where else None
        form.add_error(field, exc.message)
        return None
    return saved


@login_required
@require_http_methods(["GET", "POST"])
def entry_add(request, campaign_id, kind):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    campaign = membership.campaign
    if kind not in KINDS:
        raise Http404("No such kind of library entry")
    copy_of = request.POST.get("copy_of") or request.GET.get("copy") or ""
    original = library.builtin(kind, copy_of) if copy_of else None
    if copy_of and original is None:
        raise Http404("No such built-in entry")
    initial = FORMS[kind].initial_from(original.data) if original else None
    form = _form(
        kind, campaign, request.POST if request.method == "POST" else None, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        copied_from = original.name if original else ""
        saved = _save(request, membership, form, kind, copied_from=copied_from)
        if saved is not None:
            messages.success(request, f"“{saved.name}” added to the library.")
            return redirect(_library_url(campaign.pk, kind))
    return _form_page(request, campaign, kind, form, original=original)


@login_required
@require_http_methods(["GET", "POST"])
def entry_edit(request, campaign_id, entry_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    campaign = membership.campaign
    entry = get_object_or_404(LibraryEntry, pk=entry_id, campaign=campaign)
    kind = entry.kind
    initial = FORMS[kind].initial_from(entry.data)
    form = _form(
        kind, campaign, request.POST if request.method == "POST" else None, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        saved = _save(request, membership, form, kind, entry=entry)
        if saved is not None:
            messages.success(request, f"“{saved.name}” saved.")
            return redirect(_library_url(campaign.pk, kind))
    return _form_page(request, campaign, kind, form, entry=entry)


def _form_page(request, campaign, kind, form, **extra):
    """The add or edit form, with a 400 while it holds errors."""
    context = {
        "campaign": campaign,
        "form": form,
        "kind": kind,
        "kind_label": KIND_LABELS[kind],
        "kind_name": library.KIND_NAMES[kind],
        **extra,
    }
    status = 400 if form.errors else 200
    return render(request, "campaigns/library_form.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def entry_delete(request, campaign_id, entry_id):
    """A confirmation page (GET) and the deletion (POST from that page, which sends
    ``confirm=delete``; without it the page is shown again): no JavaScript needed."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    campaign = membership.campaign
    entry = get_object_or_404(LibraryEntry, pk=entry_id, campaign=campaign)
    shadowed = library.builtin(entry.kind, entry.name)
    if request.method == "POST" and request.POST.get("confirm") != "delete":
        context = {"campaign": campaign, "entry": entry, "shadowed": shadowed, "unconfirmed": True}
        return render(request, "campaigns/library_delete.html", context, status=400)
    if request.method == "POST":
        try:
            removed = library.delete_entry(campaign, entry, actor=request.user)
        except library.LibraryRefused as exc:
            messages.error(request, exc.message)
        else:
            text = f"“{removed.name}” removed from the library."
            if shadowed is not None:
                text += " The built-in entry of that name shows again."
            messages.success(request, text)
        return redirect(_library_url(campaign.pk, entry.kind))
    context = {"campaign": campaign, "entry": entry, "shadowed": shadowed}
    return render(request, "campaigns/library_delete.html", context)


@login_required
def library_export(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    document = library.export_document(campaign)
    body = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"{slugify(campaign.name) or 'campaign'}-library.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def library_import(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    campaign = membership.campaign
    posted = request.method == "POST"
    form = LibraryImportForm(request.POST if posted else None, request.FILES if posted else None)
    if request.method == "POST" and form.is_valid():
        try:
            report = library.import_document(
                campaign,
                form.cleaned_data["file"],
                actor=request.user,
                replace=form.cleaned_data["replace"],
            )
        except library.LibraryRefused as exc:
            form.add_error("file", f"Nothing was imported. {exc.message}")
        else:
            messages.success(request, f"Library file imported: {report}")
            return redirect(_library_url(campaign.pk))
    context = {"campaign": campaign, "form": form}
    return render(
        request, "campaigns/library_import.html", context, status=400 if form.errors else 200
    )
