"""The character creation wizard: species, attributes, skills, the Force, gear, background and
review, one step a page. What the user saved lives in a ``CreationDraft`` on the server, so a
reload or a later visit loses nothing; every input is checked live against the campaign's
creation rules (``rules.creation.check_creation``) and the final step creates the character,
its skills, items, powers and starting balances in one transaction.

The species, templates, weapons and armour on offer are the campaign library's
(``campaigns.library``: the sources' entries and the GM's own), resolved when the draft is
checked, so a GM's later edit of a species applies to drafts in progress.

What the rules do not allow is either fixed, sent to the GM for approval (``characters.approval``,
which creates the character with :func:`create_from_draft`, like the review's "Create"), or, for
a game master's own draft, created anyway after a confirmation. Problems no approval can fix
(no name, no species limits, skills sharing a name, the player gone) always block."""

from collections import Counter
from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_POST

from campaigns import library
from campaigns.access import membership_or_404
from campaigns.models import Membership
from characters.forms_wizard import (
    CUSTOM_SPECIES,
    AttributesForm,
    BackgroundForm,
    ForceForm,
    GearForm,
    SkillFormSet,
    SpeciesForm,
    StartForm,
    damage_text,
    entry_limits,
    force_skill_name,
    parse_item_lines,
    ranges_text,
    reference_skill,
    skill_rows_from_post,
)
from characters.models import (
    ATTRIBUTE_LABELS,
    ATTRIBUTES,
    Character,
    CreationDraft,
    Currency,
    ForcePower,
    Item,
    Skill,
)
from characters.services import change_balance
from rules import DieCode, DieCodeError, RulesError, RuleSet, reference
from rules.creation import (
    CreationReport,
    SkillPick,
    SpeciesLimits,
    check_creation,
    proposed_species_problems,
    starting_credits,
)
from rules.force import FORCE_SKILLS, force_power

STEPS = ("species", "attributes", "skills", "force", "gear", "background", "review")
TITLES = {
    "species": "Species",
    "attributes": "Attributes",
    "skills": "Skills",
    "force": "The Force",
    "gear": "Gear",
    "background": "Background",
    "review": "Review",
}
TEMPLATE = "characters/wizard.html"


# ---------------------------------------------------------------------------------------------
# Checking a draft against the creation rules
# ---------------------------------------------------------------------------------------------
Status = CreationDraft.Status


@dataclass
class Assessment:
    """What the budget area shows: budgets in words, the problems that block a direct
    creation, and notes that do not. ``essential``: the problems nothing overrides (no name,
    no species limits, skills sharing a name, the player gone); the others (budgets, limits,
    credits, imported balances) are the rules', which the GM's approval overrides."""

    report: CreationReport
    lines: list[str]
    problems: list[str]
    free_form: bool = False
    notes: list[str] = field(default_factory=list)
    essential: list[str] = field(default_factory=list)

    @property
    def blocking(self) -> list[str]:
        return self.problems

    @property
    def rule_problems(self) -> list[str]:
        return [p for p in self.problems if p not in self.essential]


def left_text(pips: int) -> str:
    """``2 pips left``, ``1D+1 left``, ``1 pip over``, ``nothing left``."""
    if pips == 0:
        return "nothing left"
    amount = abs(pips)
    words = (
        f"{amount} pip{'s' if amount > 1 else ''}" if amount < 3 else str(DieCode.from_pips(amount))
    )
    return f"{words} {'left' if pips > 0 else 'over'}"


@dataclass(frozen=True)
class DraftSpecies:
    """The draft's species: a library species with numbers brings its own limits and Move
    (never the numbers saved with the draft, so a GM's later edit applies); any other has what
    was entered, ``limits`` None while nothing complete was. ``proposed``: the limits were
    entered, not the library's. ``entry``: the library's entry, None for a custom species."""

    name: str
    limits: SpeciesLimits | None
    proposed: bool
    entry: library.Entry | None = None

    @property
    def move(self) -> int | None:
        return self.limits.move if self.limits is not None else None

    @property
    def custom(self) -> bool:
        return self.entry is None


def library_species(campaign, choice) -> library.Entry | None:
    """The campaign library's species of this choice (any case), None for a custom one."""
    if not isinstance(choice, str) or not choice.strip() or choice == CUSTOM_SPECIES:
        return None
    return library.find(campaign, "species", choice.strip()[:100])


def draft_species(data: dict, campaign) -> DraftSpecies:
    saved = data.get("species") or {}
    choice = saved.get("choice") or "Human"
    entry = library_species(campaign, choice)
    known = entry_limits(entry)
    if known is not None:
        return DraftSpecies(entry.name, known, proposed=False, entry=entry)
    name = str(saved.get("name") or (entry.name if entry is not None else choice))[:60]
    limits = saved.get("limits") or {}
    try:
        entered = SpeciesLimits.of(
            name,
            {a: tuple(limits[a]) for a in ATTRIBUTES},
            int(saved["move"]),
        )
    except (KeyError, TypeError, ValueError, DieCodeError):
        entered = None
    return DraftSpecies(name, entered, proposed=True, entry=entry)


def _codes(raw: dict) -> dict[str, DieCode]:
    codes = {}
    for a in ATTRIBUTES:
        try:
            codes[a] = DieCode.parse(raw[a])
        except (KeyError, DieCodeError):
            continue
    return codes


BALANCE_WORDS = (
    ("cp", "Character Points"),
    ("fp", "Force Points"),
    ("dsp", "Dark Side Points"),
)


def imported_balances(data: dict) -> dict[str, int] | None:
    """The balances an imported character brings (``data["balances"]``: CP, FP, DSP, whole
    numbers of 0 or more), None when the draft has none."""
    raw = data.get("balances")
    if not isinstance(raw, dict):
        return None
    balances = {}
    for key, _ in BALANCE_WORDS:
        value = raw.get(key)
        balances[key] = value if isinstance(value, int) and not isinstance(value, bool) else 0
        balances[key] = max(0, min(balances[key], 10_000))
    return balances


def rules_balances(report: CreationReport) -> dict[str, int]:
    """The starting CP, FP and DSP the creation rules give this character."""
    return {
        "cp": report.character_points or 0,
        "fp": report.force_points or 0,
        "dsp": report.dark_side_points or 0,
    }


def starting_balances(data: dict, report: CreationReport) -> dict[str, int]:
    """What the character starts with: the imported balances when the draft has them (the
    GM's approval or a GM's own creation keeps them), the rules' otherwise."""
    return imported_balances(data) or rules_balances(report)


ONLY_THE_GM = "; only the GM can accept them"


def balance_problem(data: dict, report: CreationReport) -> str | None:
    imported = imported_balances(data)
    if imported is None:
        return None
    ruled = rules_balances(report)
    differing = [
        f"{imported[key]} {words.removesuffix('s') if imported[key] == 1 else words} "
        f"(the rules give {ruled[key]})"
        for key, words in BALANCE_WORDS
        if imported[key] != ruled[key]
    ]
    if not differing:
        return None
    return f"Imported balances: {', '.join(differing)}{ONLY_THE_GM}"


def assess(
    draft: CreationDraft, ruleset: RuleSet, data: dict, *, gm: bool, final: bool = False
) -> Assessment:
    """Check the draft's data (with any unsaved step merged in) against the creation rules.
    ``gm``: the draft is a game master's, who sets species limits and starting credits freely;
    a player's are held to what the rules let a player choose alone."""
    npc = draft.kind == Character.Kind.NPC
    species = draft_species(data, draft.campaign)
    free_form = npc and bool((data.get("start") or {}).get("free_form"))
    attrs = _codes(data.get("attributes") or {})
    force = data.get("force") or {}
    sensitive = bool(force.get("sensitive"))
    picks = [
        SkillPick(
            name=row["name"],
            code=row["code"],
            attribute=row.get("attribute") or None,
            specialization_of=row.get("specialization_of") or None,
            advanced=bool(row.get("advanced")),
        )
        for row in data.get("skills") or []
    ]
    force_codes = {s: force[s] for s in FORCE_SKILLS if sensitive and force.get(s)}
    extra = [] if gm else _player_problems(species, data.get("gear") or {}, ruleset)
    background = data.get("background") or {}
    report = check_creation(
        attrs,
        picks,
        species.limits or SpeciesLimits.not_entered(species.name),
        ruleset=ruleset,
        npc=npc,
        force_sensitive=sensitive,
        force_skills=force_codes,
        force_powers=force.get("powers") or [] if sensitive else [],
        dark_side_points=background.get("dark_side_points") or 0,
        background_cp=background.get("background_cp") or 0,
    )
    lines = [
        f"Attributes: {report.attribute_dice_used} of {report.attribute_dice_budget} used"
        f" — {left_text(report.attribute_dice_left.total_pips)}",
        f"Skills: {report.skill_dice_used} of {report.skill_dice_budget} used"
        f" — {left_text(report.skill_dice_left.total_pips)}",
    ]
    if report.specialization_dice_left:
        lines.append(
            f"Specializations: {report.specialization_dice_left} left from the traded skill die"
        )
    imported = imported_balances(data)
    cp = report.character_points
    if imported is not None:
        lines.append(
            f"Imported: Character Points {imported['cp']}; Force Points {imported['fp']}; "
            f"Dark Side Points {imported['dsp']}"
        )
    else:
        lines.append(
            ("Character Points: set by the GM" if cp is None else f"Character Points: {cp}")
            + f"; Force Points: {report.force_points}"
        )
    essential = _skill_name_problems(data.get("skills") or [])
    if species.limits is None:
        essential.append(f"Enter the {species.name} attribute limits and Move (Species step)")
    if len(attrs) < len(ATTRIBUTES) and free_form:
        essential.append("Give all six attributes a code (Attributes step)")
    if final and not (background.get("name") or "").strip():
        essential.append("Give the character a name (Background step)")
    rules = [] if free_form else list(report.problems) + extra
    balances = balance_problem(data, report)
    if balances:
        rules.append(balances)
    notes = list(report.notes)
    if species.proposed and species.limits is not None and not gm:
        notes.append(
            f"The {species.name} limits and Move were entered by the player: the GM should check "
            "them against the species' sourcebook entry."
        )
    if free_form:
        notes.insert(0, "Free-form NPC: the budgets are shown but not enforced.")
    return Assessment(report, lines, essential + rules, free_form, notes, essential)


def check_draft(draft: CreationDraft, *, gm: bool) -> Assessment:
    """The whole draft checked as the review (and the GM's approval) sees it: a name needed,
    and the chosen player still in the campaign."""
    assessment = assess(draft, draft.campaign.ruleset, draft.data, gm=gm, final=True)
    owner_problem = _owner_problem(draft)
    if owner_problem:
        assessment.problems.insert(0, owner_problem)
        assessment.essential.insert(0, owner_problem)
    return assessment


def needs_approval(membership: Membership, draft: CreationDraft) -> bool:
    """In a campaign whose new characters need the GM's approval, a player's new PC goes
    through it (a GM creates directly: he is the one who approves)."""
    return (
        membership.campaign.approve_characters
        and draft.kind == Character.Kind.PC
        and not membership.is_gm
    )


def _skill_name_problems(rows: list[dict]) -> list[str]:
    """A skill named like a Force skill, named by its row: the sheet keeps one skill a name."""
    return [
        f"Skill {i}, {row['name']}: {row['name']} is the name of a Force skill; give this skill "
        "another name (Skills step)"
        for i, row in enumerate(rows, start=1)
        if force_skill_name(row.get("name") or "")
    ]


def _player_problems(species: DraftSpecies, gear: dict, ruleset: RuleSet) -> list[str]:
    """What only a game master may give a character: species limits beyond a player's proposal
    and starting credits above the ruleset's start."""
    problems = []
    if species.proposed and species.limits is not None:
        problems += [f"{p} (Species step)" for p in proposed_species_problems(species.limits)]
    credits, cap = gear.get("credits") or 0, starting_credits(ruleset=ruleset)
    if credits > cap:
        problems.append(
            f"Starting credits {credits:,}: a player's character starts with at most {cap:,}; "
            "the GM can award more through the ledger (Gear step)"
        )
    return problems


# ---------------------------------------------------------------------------------------------
# Templates: a library template fills a new draft
# ---------------------------------------------------------------------------------------------
def template_data(campaign, template: dict) -> dict:
    """A new draft's steps from a library template (``rules.library`` "template" entry): the
    species (the library's, or a custom one of that name), attributes, skills, the Force, gear,
    credits and background. The player goes through every step and can change everything; the
    budgets are checked as for any draft."""
    species_name = str(template.get("species") or "Human")
    entry = library_species(campaign, species_name)
    if entry is not None:
        species = {"choice": entry.name, "name": entry.name, "limits": {}, "move": None}
        known = entry_limits(entry)
        if known is not None:
            species["limits"] = {a: [str(lo), str(hi)] for a, lo, hi in known.limits}
            species["move"] = known.move
    else:
        species = {"choice": CUSTOM_SPECIES, "name": species_name[:60], "limits": {}, "move": None}
    force = template.get("force") or {}
    gear = template.get("gear") or {}
    data = {
        "species": species,
        "attributes": {a: str(c) for a, c in (template.get("attributes") or {}).items()},
        "skills": [_template_skill(row) for row in template.get("skills") or []],
        "force": {
            "sensitive": bool(force.get("sensitive")),
            **{s: str(force[s]) for s in FORCE_SKILLS if force.get(s)},
            "powers": [p for p in force.get("powers") or [] if _known_power(p)],
        },
        "gear": {
            "weapons": list(gear.get("weapons") or []),
            "armour": list(gear.get("armour") or []),
            "items": str(gear.get("items") or ""),
            "credits": int(template.get("credits") or 0),
        },
        "background": {
            "name": "",
            "background": str(template.get("background") or ""),
            "personality": str(template.get("personality") or ""),
        },
    }
    return data


def _template_skill(row: dict) -> dict:
    """A template's skill as a wizard row: a listed skill's name, attribute and (A) from the
    skill list, as the Skills step would store it."""
    name = str(row.get("name") or "")
    spec_of = str(row.get("specialization_of") or "")
    attribute = str(row.get("attribute") or "")
    advanced = bool(row.get("advanced"))
    known = reference_skill(name)
    if known is not None and not spec_of:
        name, attribute, advanced = known.name, known.attribute, known.advanced
    elif spec_of:
        base = reference_skill(spec_of)
        if base is not None and not base.is_force_skill:
            spec_of = base.name
            attribute = attribute or base.attribute
    return {
        "name": name,
        "attribute": attribute,
        "specialization_of": spec_of,
        "advanced": advanced,
        "code": str(row.get("code") or ""),
    }


def _known_power(name) -> bool:
    try:
        force_power(name)
    except (RulesError, AttributeError):
        return False
    return True


# ---------------------------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------------------------
def _draft_or_404(user, campaign_id: int, draft_id: int) -> tuple[Membership, CreationDraft]:
    membership = membership_or_404(user, campaign_id)
    draft = get_object_or_404(
        CreationDraft.objects.select_related("campaign", "reviewed_by"),
        pk=draft_id,
        campaign_id=campaign_id,
        user=user,
    )
    if draft.kind == Character.Kind.NPC and not membership.is_gm:
        raise PermissionDenied("Only the campaign's game masters can create NPCs.")
    return membership, draft


def _step_url(draft: CreationDraft, step: str) -> str:
    return reverse("characters:wizard_step", args=[draft.campaign_id, draft.pk, step])


def _import_url(campaign_id: int) -> str | None:
    """The importer's page, once it exists (another part of the app provides it)."""
    try:
        return reverse("characters:import_character", args=[campaign_id])
    except NoReverseMatch:
        return None


def locked_draft(draft_id: int) -> CreationDraft | None:
    """The draft's row, locked until the transaction ends; None when it is gone."""
    return (
        CreationDraft.objects.select_for_update()
        .select_related("campaign")
        .filter(pk=draft_id)
        .first()
    )


AWAITING = (
    "it is awaiting the GM's approval: withdraw it from the GM (on the Review step) to change it"
)


@login_required
def start(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    templates = library.entries(campaign, "template")
    form = StartForm(request.POST or None, membership=membership, templates=templates)
    if request.method == "POST":
        if request.POST.get("kind") == "npc" and not membership.is_gm:
            raise PermissionDenied("Only the campaign's game masters can create NPCs.")
        if form.is_valid():
            kind = form.cleaned_data["kind"]
            npc = kind == Character.Kind.NPC
            owner = None if npc else (form.cleaned_data.get("owner") or request.user.pk)
            data = {}
            chosen = form.cleaned_data.get("template")
            template = next((t for t in templates if t.name == chosen), None) if chosen else None
            if template is not None:
                data = template_data(campaign, template.data)
            data["start"] = {
                "owner": owner,
                "free_form": npc and form.cleaned_data.get("npc_budget") == "free",
            }
            if template is not None:
                data["start"]["template"] = template.name
            draft = CreationDraft.objects.create(
                campaign=campaign, user=request.user, kind=kind, step=STEPS[0], data=data
            )
            if template is not None:
                messages.info(
                    request,
                    f"Filled in from the template {template.name}: check each step and change "
                    "what you like.",
                )
            return redirect(_step_url(draft, STEPS[0]))
    drafts = CreationDraft.objects.filter(campaign=campaign, user=request.user)
    context = {
        "step": "start",
        "title": "New character",
        "campaign": campaign,
        "membership": membership,
        "form": form,
        "drafts": drafts,
        "import_url": _import_url(campaign.pk),
    }
    return render(request, TEMPLATE, context)


@login_required
@require_POST
def discard(request, campaign_id, draft_id):
    membership, draft = _draft_or_404(request.user, campaign_id, draft_id)
    with transaction.atomic():
        locked = locked_draft(draft.pk)
        if locked is None:
            raise Http404("No such draft")
        if locked.status == Status.SUBMITTED:
            messages.error(request, f"The draft was not discarded: {AWAITING}.")
            return redirect(_step_url(draft, "review"))
        locked.delete()
    messages.info(request, "The draft character was discarded.")
    return redirect(membership.campaign)


def _refused_while_submitted(request, draft):
    """A change to a draft that waits for the GM: refused, nothing changed (HTMX: an alert in
    place of the part the request meant to redraw)."""
    message = f"Not saved: {AWAITING}."
    if request.htmx:
        context = {"message": message, "back": _step_url(draft, "review")}
        return render(request, "includes/alert.html", context, status=409)
    messages.error(request, message)
    return redirect(_step_url(draft, "review"))


@login_required
def step(request, campaign_id, draft_id, step):
    membership, draft = _draft_or_404(request.user, campaign_id, draft_id)
    if step not in STEPS:
        raise Http404("No such step")
    if step == "review":
        return _review(request, membership, draft)
    if draft.status == Status.SUBMITTED:
        if request.method == "POST":
            return _refused_while_submitted(request, draft)
        return redirect(_step_url(draft, "review"))  # read-only: the review shows it all
    ruleset = membership.campaign.ruleset
    post = request.POST if request.method == "POST" else None
    live = bool(post and post.get("_live"))
    action = post.get("action", "") if post else ""
    url = _step_url(draft, step)
    form = _form(step, draft, membership, post, url)
    data = dict(draft.data)
    if step == "skills" and (action == "add-skill" or action.startswith("remove-")):
        return _change_skill_rows(request, membership, draft, action, url)
    if post is not None:
        valid = form.is_valid()
        data[step] = form.to_data()
        if valid and not live:
            if not _save_step(draft, step, data[step]):
                return _refused_while_submitted(request, draft)
            return redirect(_step_url(draft, draft.step))
    assessment = assess(draft, ruleset, data, gm=membership.is_gm)
    context = _context(request, membership, draft, step, form, assessment)
    if live and step == "species" and post.get("_part") == "species-details":
        # Another species was chosen: its limits and Move, and the budget out of band.
        return render(request, TEMPLATE + "#species-update", context)
    if live:
        return render(request, TEMPLATE + "#budget", context)
    return render(request, TEMPLATE, context)


def _save_step(draft: CreationDraft, step: str, value) -> bool:
    """Store one step into the draft's row, locked, unless the draft was sent to the GM
    meanwhile (False: nothing changed). Only that step's key changes, so two tabs saving two
    steps keep both."""
    with transaction.atomic():
        locked = locked_draft(draft.pk)
        if locked is None:
            raise Http404("No such draft")
        if locked.status == Status.SUBMITTED:
            return False
        locked.data = {**locked.data, step: value}
        locked.step = STEPS[STEPS.index(step) + 1]
        locked.save(update_fields=["data", "step", "updated_at"])
    draft.data, draft.step = locked.data, locked.step
    return True


def _form(step: str, draft: CreationDraft, membership: Membership, post, url: str):
    saved = draft.data.get(step)
    live = {"live_url": url}
    gm = membership.is_gm
    campaign = membership.campaign
    if step == "species":
        entries = library.entries(campaign, "species")
        initial = SpeciesForm.initial_from(saved or {}, entries)
        return SpeciesForm(post, initial=initial, gm=gm, entries=entries, **live)
    if step == "attributes":
        species = draft_species(draft.data, campaign)
        return AttributesForm(
            post, initial=saved or {}, limits=species.limits, species=species.name, **live
        )
    if step == "skills":
        rows = saved if saved is not None else [{}]
        return SkillFormSet(post, initial=rows, prefix="skills", **live)
    if step == "force":
        return ForceForm(post, initial=ForceForm.initial_from(saved or {}), **live)
    if step == "gear":
        cap = None if gm else starting_credits(ruleset=campaign.ruleset)
        return GearForm(
            post,
            initial=saved,
            credit_cap=cap,
            weapons=library.entries(campaign, "weapon"),
            armour=library.entries(campaign, "armour"),
            **live,
        )
    npc = draft.kind == Character.Kind.NPC
    house = campaign.ruleset.creation_rules == "house"
    return BackgroundForm(post, initial=saved, npc=npc, house=house, **live)


def _change_skill_rows(request, membership, draft, action, url):
    """Add a blank skill row or remove one, keeping what was typed in the others."""
    rows = skill_rows_from_post(request.POST)
    if action == "add-skill":
        rows.append({})
        focus = len(rows) - 1
    else:
        index = action.removeprefix("remove-")
        focus = len(rows)
        if index.isdecimal() and int(index) < len(rows):
            rows.pop(int(index))
            focus = min(int(index), len(rows) - 1)
    formset = SkillFormSet(initial=rows, prefix="skills", live_url=url)
    # The redrawn rows replace the button that was pressed: focus goes to the new row's name
    # (or, after a removal, the row now in that place, else "Add skill"), never the page body.
    if 0 <= focus < len(formset.forms):
        formset.forms[focus].fields["name"].widget.attrs["autofocus"] = True
    ruleset = membership.campaign.ruleset
    assessment = assess(draft, ruleset, draft.data, gm=membership.is_gm)
    context = _context(request, membership, draft, "skills", formset, assessment)
    context["focus_add_skill"] = not 0 <= focus < len(formset.forms)
    if request.htmx:
        return render(request, TEMPLATE + "#skill-rows", context)
    return render(request, TEMPLATE, context)


def _field_errors(form, live: bool) -> list[str]:
    """Every error of a bound form in words, naming the input; while typing, empty required
    inputs are not yet an error."""
    if not form.is_bound:
        return []
    forms = form.forms if hasattr(form, "forms") else [form]
    errors = []
    if hasattr(form, "non_form_errors"):
        errors += list(form.non_form_errors())
    for f in forms:
        for name, problems in f.errors.as_data().items():
            label = f.fields[name].label if name in f.fields else ""
            if hasattr(f, "row") and label:
                label = f"{label} {f.row}"
            for problem in problems:
                if live and problem.code == "required":
                    continue
                for text in problem.messages:
                    errors.append(f"{label}: {text}" if label else text)
    return errors


def _context(request, membership, draft, step, form, assessment, **extra):
    live = bool(request.method == "POST" and request.POST.get("_live"))
    steps = [
        {"key": s, "title": TITLES[s], "url": _step_url(draft, s), "saved": s in draft.data}
        for s in STEPS
    ]
    index = STEPS.index(step)
    context = {
        "step": step,
        "title": TITLES[step],
        "steps": steps,
        "previous_url": _step_url(draft, STEPS[index - 1]) if index else None,
        "campaign": membership.campaign,
        "membership": membership,
        "draft": draft,
        "draft_name": (draft.data.get("background") or {}).get("name") or "Unnamed character",
        "form": form,
        "assessment": assessment,
        "field_errors": _field_errors(form, live) if form is not None else [],
        "live": live,
        "step_url": _step_url(draft, step),
        **extra,
    }
    if step == "skills":
        context["skill_groups"] = _skill_groups()
    return context


def _skill_groups():
    groups = {a: [] for a in ATTRIBUTES}
    for s in reference.skills():
        groups[s.attribute].append(s)
    return [{"label": ATTRIBUTE_LABELS[a], "skills": groups[a]} for a in ATTRIBUTES]


# ---------------------------------------------------------------------------------------------
# Review and creation
# ---------------------------------------------------------------------------------------------
def _review(request, membership, draft):
    if request.method == "POST":
        anyway = request.POST.get("action") == "create-anyway"
        try:
            character = _create(
                draft, membership, request.user, anyway=anyway, confirmed="confirm" in request.POST
            )
        except CreationRefused as refusal:
            messages.error(request, f"The character cannot be created yet: {refusal}")
            draft = CreationDraft.objects.filter(pk=draft.pk).select_related("campaign").first()
            if draft is None:
                raise Http404("This draft was already used") from None
        else:
            if character is None:
                raise Http404("This draft was already used")
            messages.success(request, f"{character.name} was created.")
            return redirect(character.get_absolute_url())
    assessment = check_draft(draft, gm=membership.is_gm)
    context = _context(request, membership, draft, "review", None, assessment)
    context.update(review_context(draft, assessment))
    context["approval"] = needs_approval(membership, draft)
    context["editable"] = draft.status != Status.SUBMITTED
    return render(request, TEMPLATE, context)


def review_context(draft: CreationDraft, assessment: Assessment) -> dict:
    """What the review (the player's, and the GM's approval page) shows about a draft."""
    ruled = rules_balances(assessment.report)
    imported = imported_balances(draft.data)
    return {
        "summary": _summary(draft.data, draft.campaign),
        "balances": [
            {"label": words, "rules": ruled[key], "imported": imported[key] if imported else None}
            for key, words in BALANCE_WORDS
        ],
        "imported": imported is not None,
    }


def _create(draft, membership, actor, *, anyway: bool, confirmed: bool) -> Character | None:
    """The review's "Create character" (or, for a GM, "Create anyway"): the draft's row is
    locked and checked again, then the character is created; None when the draft is gone.
    Raises ``CreationRefused`` (nothing written) when the rules or the draft's state stop it."""
    with transaction.atomic():
        locked = locked_draft(draft.pk)
        if locked is None:
            return None
        if locked.status == Status.SUBMITTED:
            raise CreationRefused(f"{AWAITING}.")
        if needs_approval(membership, locked):
            raise CreationRefused(
                "in this campaign the GM approves new characters: send it to the GM."
            )
        assessment = check_draft(locked, gm=membership.is_gm)
        if assessment.essential:
            raise CreationRefused("fix the problems listed.")
        if assessment.problems:
            if not membership.is_gm:
                raise CreationRefused(
                    "fix the problems listed, or send it to the GM for approval with a note."
                )
            if not anyway:
                raise CreationRefused("fix the problems listed, or create it anyway.")
            if not confirmed:
                raise CreationRefused(
                    "tick the box to confirm it is created with the differences listed."
                )
        return create_from_draft(
            locked, campaign=membership.campaign, actor=actor, report=assessment.report
        )


def _owner_problem(draft: CreationDraft) -> str | None:
    if draft.kind == Character.Kind.NPC:
        return None
    owner = (draft.data.get("start") or {}).get("owner")
    if not isinstance(owner, int) or isinstance(owner, bool):
        return "The draft names no player; start a new draft for them"
    if not Membership.objects.filter(campaign_id=draft.campaign_id, user_id=owner).exists():
        return "The chosen player is no longer in the campaign; start a new draft for them"
    return None


def _summary(data: dict, campaign) -> dict:
    species = draft_species(data, campaign)
    attrs = data.get("attributes") or {}
    force = data.get("force") or {}
    gear = data.get("gear") or {}
    limits = species.limits
    return {
        "species": species.name,
        "species_custom": species.custom,
        "species_proposed": species.proposed,
        "special_abilities": (species.entry.data.get("special_abilities") or "")
        if species.entry is not None
        else "",
        "move": species.move,
        "attributes": [
            (
                ATTRIBUTE_LABELS[a],
                attrs.get(a, "—"),
                " to ".join(str(c) for c in limits.range_of(a)) if limits else "—",
            )
            for a in ATTRIBUTES
        ],
        "skills": data.get("skills") or [],
        "force": force if force.get("sensitive") else None,
        "force_skills": [(s.capitalize(), force.get(s)) for s in FORCE_SKILLS if force.get(s)],
        "weapons": gear.get("weapons") or [],
        "armour": gear.get("armour") or [],
        "items": parse_item_lines(gear.get("items", "")),
        "credits": gear.get("credits") or 0,
        "background": data.get("background") or {},
    }


class CreationRefused(Exception):
    """The draft cannot become a character; the message says why, in words for the user."""


def _create_character(draft, membership, actor, assessment: Assessment) -> Character | None:
    """Create the character from the draft (its row locked) with the assessment's starting
    points; None when the draft is gone. See :func:`create_from_draft`."""
    with transaction.atomic():
        locked = locked_draft(draft.pk)
        if locked is None:
            return None
        return create_from_draft(
            locked, campaign=membership.campaign, actor=actor, report=assessment.report
        )


def create_from_draft(draft, *, campaign, actor, report: CreationReport) -> Character:
    """Create the character from a draft whose row the caller holds locked (inside its
    transaction) and delete the draft: the wizard's "Create character" and the GM's approval
    both come here. The owner is the draft's chosen player; ``actor`` signs the starting
    balances in the ledger; the balances are the imported ones when the draft has them, the
    rules' (``report``) otherwise. Raises ``CreationRefused``, with nothing written, for a
    draft the checks before should have stopped (skills sharing a name, no species limits),
    never a database error."""
    data = draft.data
    npc = draft.kind == Character.Kind.NPC
    species = draft_species(data, campaign)
    background = data.get("background") or {}
    force = data.get("force") or {}
    sensitive = bool(force.get("sensitive"))
    gear = data.get("gear") or {}
    clash = _skill_name_clash(data.get("skills") or [], force, sensitive)
    if clash:
        raise CreationRefused(clash)
    if species.limits is None:
        raise CreationRefused(f"enter the {species.name} attribute limits and Move first.")
    with transaction.atomic():
        character = Character.objects.create(
            campaign=campaign,
            owner_id=None if npc else data["start"]["owner"],
            kind=draft.kind,
            secret=npc and bool(background.get("secret")),
            name=background["name"],
            species=species.name[:60],
            gender=background.get("gender", ""),
            age=background.get("age", ""),
            height=background.get("height", ""),
            background=background.get("background", ""),
            personality=background.get("personality", ""),
            move=species.limits.move,
            force_sensitive=sensitive,
            **_codes(data.get("attributes") or {}),
        )
        Skill.objects.bulk_create(_skills(character, data.get("skills") or [], force, sensitive))
        Item.objects.bulk_create(_items(character, gear, campaign))
        if sensitive:
            ForcePower.objects.bulk_create(
                ForcePower(
                    character=character,
                    name=force_power(name).name,
                    skills=", ".join(force_power(name).skills),
                )
                for name in dict.fromkeys(force.get("powers") or [])
            )
        balances = starting_balances(data, report)
        imported = imported_balances(data) is not None
        starting = [
            (
                Currency.CP,
                balances["cp"],
                "Imported Character Points" if imported else "Starting Character Points",
            ),
            (
                Currency.FP,
                balances["fp"],
                "Imported Force Points" if imported else "Starting Force Points",
            ),
            (
                Currency.DSP,
                balances["dsp"],
                "Imported Dark Side Points" if imported else "Dark Side Points taken at creation",
            ),
            (Currency.CREDITS, gear.get("credits") or 0, "Starting credits"),
        ]
        for currency, amount, reason in starting:
            if amount:
                change_balance(character, currency, amount, reason, actor)
        draft.delete()
    return character


def _skill_name_clash(rows, force, sensitive) -> str | None:
    """Two skills of the character-to-be that would share a name (in any case), in words."""
    names = [row["name"] for row in rows]
    if sensitive:
        names += [name for name in FORCE_SKILLS if force.get(name)]
    counts = Counter(name.casefold() for name in names)
    for name in names:
        if counts[name.casefold()] > 1:
            return f"two skills would both be called {name}; rename one on the Skills step."
    return None


def _skills(character, rows, force, sensitive) -> list[Skill]:
    attribute_of = {row["name"]: row.get("attribute") for row in rows}
    skills = []
    for row in rows:
        if row.get("specialization_of"):
            kind = Skill.Kind.SPECIALIZATION
        elif row.get("advanced"):
            kind = Skill.Kind.ADVANCED
        else:
            kind = Skill.Kind.SKILL
        attribute = row.get("attribute") or attribute_of.get(row.get("specialization_of"))
        skills.append(
            Skill(
                character=character,
                name=row["name"],
                attribute=attribute or "dexterity",
                kind=kind,
                base_skill=row.get("specialization_of") or "",
                code=DieCode.parse(row["code"]),
            )
        )
    if sensitive:
        for name in FORCE_SKILLS:
            if force.get(name):
                skills.append(
                    Skill(
                        character=character,
                        name=name,
                        attribute="force",
                        kind=Skill.Kind.FORCE,
                        code=DieCode.parse(force[name]),
                    )
                )
    return skills


def _by_name(campaign, kind: str) -> dict[str, library.Entry]:
    return {e.name.casefold(): e for e in library.entries(campaign, kind)}


def _items(character, gear, campaign) -> list[Item]:
    """The character's items: weapons and armour from the campaign library's entries (their
    damage, skill, ranges and armour codes), a name the library no longer lists as a bare item
    of its kind, and the other equipment one item a line."""
    items = []
    weapons = _by_name(campaign, "weapon") if gear.get("weapons") else {}
    for name in gear.get("weapons") or []:
        entry = weapons.get(str(name).casefold())
        if entry is None:
            items.append(Item(character=character, kind=Item.Kind.WEAPON, name=str(name)[:100]))
            continue
        items.append(weapon_item(character, entry))
    armour = _by_name(campaign, "armour") if gear.get("armour") else {}
    for name in gear.get("armour") or []:
        entry = armour.get(str(name).casefold())
        if entry is None:
            items.append(Item(character=character, kind=Item.Kind.ARMOUR, name=str(name)[:100]))
            continue
        items.append(armour_item(character, entry))
    for item in parse_item_lines(gear.get("items", "")):
        items.append(Item(character=character, kind=Item.Kind.GEAR, **item))
    return items


def _code_or_none(text) -> DieCode | None:
    try:
        return DieCode.parse(text) if text else None
    except (DieCodeError, TypeError):
        return None


def weapon_item(character, entry: library.Entry) -> Item:
    """A weapon from its library entry: a plain damage code is the item's damage; ``STR+``
    damage (or none) goes into the notes as printed."""
    d = entry.data
    damage = _code_or_none(d.get("damage"))
    plain = damage is not None and not d.get("adds_strength")
    return Item(
        character=character,
        kind=Item.Kind.WEAPON,
        name=entry.name[:100],
        damage=damage if plain else None,
        skill=str(d.get("skill") or "")[:80],
        ranges=ranges_text(d)[:40],
        notes="" if plain else f"Damage {damage_text(d)}"[:200],
    )


def armour_item(character, entry: library.Entry) -> Item:
    d = entry.data
    penalty = _code_or_none(d.get("dexterity_penalty"))
    notes = f"Dexterity -{penalty}" if penalty else ""
    if d.get("covers"):
        notes = "; ".join(filter(None, [notes, "covers " + ", ".join(d["covers"])]))
    return Item(
        character=character,
        kind=Item.Kind.ARMOUR,
        name=entry.name[:100],
        armour_physical=_code_or_none(d.get("physical")),
        armour_energy=_code_or_none(d.get("energy")),
        notes=notes[:200],
    )
