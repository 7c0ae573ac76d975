"""The character creation wizard: species, attributes, skills, the Force, gear, background and
review, one step a page. What the user saved lives in a ``CreationDraft`` on the server, so a
reload or a later visit loses nothing; every input is checked live against the campaign's
creation rules (``rules.creation.check_creation``) and the final step creates the character,
its skills, items, powers and starting balances in one transaction."""

from collections import Counter
from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from campaigns.models import Membership
from characters.forms_wizard import (
    AttributesForm,
    BackgroundForm,
    ForceForm,
    GearForm,
    SkillFormSet,
    SpeciesForm,
    StartForm,
    force_skill_name,
    parse_item_lines,
    printed_species,
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
from rules import DieCode, DieCodeError, RuleSet, reference
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
@dataclass
class Assessment:
    """What the budget area shows: budgets in words, the problems that block creation, and
    notes that do not."""

    report: CreationReport
    lines: list[str]
    problems: list[str]
    free_form: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def blocking(self) -> list[str]:
        return self.problems


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
    """The draft's species: a listed species with printed statistics brings its own limits and
    Move (never the numbers saved with the draft); any other has what was entered, ``limits``
    None while nothing complete was. ``proposed``: the limits were entered, not printed."""

    name: str
    limits: SpeciesLimits | None
    proposed: bool

    @property
    def move(self) -> int | None:
        return self.limits.move if self.limits is not None else None


def draft_species(data: dict) -> DraftSpecies:
    saved = data.get("species") or {}
    choice = saved.get("choice") or "Human"
    known = printed_species(choice)
    if known is not None:
        return DraftSpecies(known.name, SpeciesLimits.from_reference(known), proposed=False)
    name = str(saved.get("name") or choice)[:60]
    limits = saved.get("limits") or {}
    try:
        entered = SpeciesLimits.of(
            name,
            {a: tuple(limits[a]) for a in ATTRIBUTES},
            int(saved["move"]),
        )
    except (KeyError, TypeError, ValueError, DieCodeError):
        entered = None
    return DraftSpecies(name, entered, proposed=True)


def _codes(raw: dict) -> dict[str, DieCode]:
    codes = {}
    for a in ATTRIBUTES:
        try:
            codes[a] = DieCode.parse(raw[a])
        except (KeyError, DieCodeError):
            continue
    return codes


def assess(
    draft: CreationDraft, ruleset: RuleSet, data: dict, *, gm: bool, final: bool = False
) -> Assessment:
    """Check the draft's data (with any unsaved step merged in) against the creation rules.
    ``gm``: the draft is a game master's, who sets species limits and starting credits freely;
    a player's are held to what the rules let a player choose alone."""
    npc = draft.kind == Character.Kind.NPC
    species = draft_species(data)
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
    cp = report.character_points
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
    problems = essential + ([] if free_form else list(report.problems) + extra)
    notes = list(report.notes)
    if species.proposed and species.limits is not None and not gm:
        notes.append(
            f"The {species.name} limits and Move were entered by the player: the GM should check "
            "them against the species' sourcebook entry."
        )
    if free_form:
        notes.insert(0, "Free-form NPC: the budgets are shown but not enforced.")
    return Assessment(report, lines, problems, free_form, notes)


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
# Views
# ---------------------------------------------------------------------------------------------
def _draft_or_404(user, campaign_id: int, draft_id: int) -> tuple[Membership, CreationDraft]:
    membership = membership_or_404(user, campaign_id)
    draft = get_object_or_404(CreationDraft, pk=draft_id, campaign_id=campaign_id, user=user)
    if draft.kind == Character.Kind.NPC and not membership.is_gm:
        raise PermissionDenied("Only the campaign's game masters can create NPCs.")
    return membership, draft


def _step_url(draft: CreationDraft, step: str) -> str:
    return reverse("characters:wizard_step", args=[draft.campaign_id, draft.pk, step])


@login_required
def start(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id)
    form = StartForm(request.POST or None, membership=membership)
    if request.method == "POST":
        if request.POST.get("kind") == "npc" and not membership.is_gm:
            raise PermissionDenied("Only the campaign's game masters can create NPCs.")
        if form.is_valid():
            kind = form.cleaned_data["kind"]
            npc = kind == Character.Kind.NPC
            owner = None if npc else (form.cleaned_data.get("owner") or request.user.pk)
            draft = CreationDraft.objects.create(
                campaign=membership.campaign,
                user=request.user,
                kind=kind,
                step=STEPS[0],
                data={
                    "start": {
                        "owner": owner,
                        "free_form": npc and form.cleaned_data.get("npc_budget") == "free",
                    }
                },
            )
            return redirect(_step_url(draft, STEPS[0]))
    drafts = CreationDraft.objects.filter(campaign=membership.campaign, user=request.user)
    context = {
        "step": "start",
        "title": "New character",
        "campaign": membership.campaign,
        "membership": membership,
        "form": form,
        "drafts": drafts,
    }
    return render(request, TEMPLATE, context)


@login_required
@require_POST
def discard(request, campaign_id, draft_id):
    membership, draft = _draft_or_404(request.user, campaign_id, draft_id)
    draft.delete()
    messages.info(request, "The draft character was discarded.")
    return redirect(membership.campaign)


@login_required
def step(request, campaign_id, draft_id, step):
    membership, draft = _draft_or_404(request.user, campaign_id, draft_id)
    if step not in STEPS:
        raise Http404("No such step")
    if step == "review":
        return _review(request, membership, draft)
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
            draft.data = data
            draft.step = STEPS[STEPS.index(step) + 1]
            draft.save()
            return redirect(_step_url(draft, draft.step))
    assessment = assess(draft, ruleset, data, gm=membership.is_gm)
    context = _context(request, membership, draft, step, form, assessment)
    if live and step == "species" and post.get("_part") == "species-details":
        # Another species was chosen: its limits and Move, and the budget out of band.
        return render(request, TEMPLATE + "#species-update", context)
    if live:
        return render(request, TEMPLATE + "#budget", context)
    return render(request, TEMPLATE, context)


def _form(step: str, draft: CreationDraft, membership: Membership, post, url: str):
    saved = draft.data.get(step)
    live = {"live_url": url}
    gm = membership.is_gm
    if step == "species":
        initial = SpeciesForm.initial_from(saved or {})
        return SpeciesForm(post, initial=initial, gm=gm, **live)
    if step == "attributes":
        species = draft_species(draft.data)
        return AttributesForm(
            post, initial=saved or {}, limits=species.limits, species=species.name, **live
        )
    if step == "skills":
        rows = saved if saved is not None else [{}]
        return SkillFormSet(post, initial=rows, prefix="skills", **live)
    if step == "force":
        return ForceForm(post, initial=ForceForm.initial_from(saved or {}), **live)
    if step == "gear":
        cap = None if gm else starting_credits(ruleset=membership.campaign.ruleset)
        return GearForm(post, initial=saved, credit_cap=cap, **live)
    npc = draft.kind == Character.Kind.NPC
    house = membership.campaign.ruleset.creation_rules == "house"
    return BackgroundForm(post, initial=saved, npc=npc, house=house, **live)


def _change_skill_rows(request, membership, draft, action, url):
    """Add a blank skill row or remove one, keeping what was typed in the others."""
    rows = skill_rows_from_post(request.POST)
    if action == "add-skill":
        rows.append({})
    else:
        index = action.removeprefix("remove-")
        if index.isdigit() and int(index) < len(rows):
            rows.pop(int(index))
    formset = SkillFormSet(initial=rows, prefix="skills", live_url=url)
    ruleset = membership.campaign.ruleset
    assessment = assess(draft, ruleset, draft.data, gm=membership.is_gm)
    context = _context(request, membership, draft, "skills", formset, assessment)
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
    ruleset = membership.campaign.ruleset
    assessment = assess(draft, ruleset, draft.data, gm=membership.is_gm, final=True)
    owner_problem = _owner_problem(draft)
    if owner_problem:
        assessment.problems.insert(0, owner_problem)
    if request.method == "POST":
        if assessment.blocking:
            messages.error(request, "The character cannot be created yet: fix the problems listed.")
        else:
            try:
                character = _create_character(draft, membership, request.user, assessment)
            except CreationRefused as refusal:
                messages.error(request, f"The character cannot be created yet: {refusal}")
            else:
                if character is None:
                    raise Http404("This draft was already used")
                messages.success(request, f"{character.name} was created.")
                return redirect(character.get_absolute_url())
    context = _context(request, membership, draft, "review", None, assessment)
    context["summary"] = _summary(draft.data)
    return render(request, TEMPLATE, context)


def _owner_problem(draft: CreationDraft) -> str | None:
    if draft.kind == Character.Kind.NPC:
        return None
    owner = (draft.data.get("start") or {}).get("owner")
    if not Membership.objects.filter(campaign_id=draft.campaign_id, user_id=owner).exists():
        return "The chosen player is no longer in the campaign; start a new draft for them"
    return None


def _summary(data: dict) -> dict:
    species = draft_species(data)
    attrs = data.get("attributes") or {}
    force = data.get("force") or {}
    gear = data.get("gear") or {}
    return {
        "species": species.name,
        "move": species.move,
        "attributes": [(ATTRIBUTE_LABELS[a], attrs.get(a, "—")) for a in ATTRIBUTES],
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
    """Create the character from the draft in one transaction and delete the draft; None when
    the draft is gone (a second click on "Create character"). Raises ``CreationRefused``, with
    nothing written, for a draft the checks before should have stopped (skills sharing a
    name), never a database error."""
    data = draft.data
    npc = draft.kind == Character.Kind.NPC
    species = draft_species(data)
    background = data.get("background") or {}
    force = data.get("force") or {}
    sensitive = bool(force.get("sensitive"))
    gear = data.get("gear") or {}
    report = assessment.report
    clash = _skill_name_clash(data.get("skills") or [], force, sensitive)
    if clash:
        raise CreationRefused(clash)
    if species.limits is None:
        raise CreationRefused(f"enter the {species.name} attribute limits and Move first.")
    with transaction.atomic():
        if not CreationDraft.objects.select_for_update().filter(pk=draft.pk).exists():
            return None
        character = Character.objects.create(
            campaign=membership.campaign,
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
        Item.objects.bulk_create(_items(character, gear))
        if sensitive:
            ForcePower.objects.bulk_create(
                ForcePower(
                    character=character,
                    name=force_power(name).name,
                    skills=", ".join(force_power(name).skills),
                )
                for name in dict.fromkeys(force.get("powers") or [])
            )
        starting = [
            (Currency.CP, report.character_points or 0, "Starting Character Points"),
            (Currency.FP, report.force_points or 0, "Starting Force Points"),
            (Currency.DSP, report.dark_side_points or 0, "Dark Side Points taken at creation"),
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


def _items(character, gear) -> list[Item]:
    items = []
    for name in gear.get("weapons") or []:
        try:
            w = reference.weapon_by_name(name)
        except reference.ReferenceDataError:
            continue
        plain = w.damage is not None and not w.adds_strength and not w.blast
        items.append(
            Item(
                character=character,
                kind=Item.Kind.WEAPON,
                name=w.name,
                damage=w.damage if plain else None,
                skill=w.skill,
                ranges=str(w.ranges) if w.ranges else "",
                notes="" if plain else f"Damage {w.damage_text}",
            )
        )
    for name in gear.get("armour") or []:
        try:
            a = reference.armour_by_name(name)
        except reference.ReferenceDataError:
            continue
        notes = f"Dexterity -{a.dexterity_penalty}" if a.dexterity_penalty else ""
        if a.covers:
            notes = "; ".join(filter(None, [notes, "covers " + ", ".join(a.covers)]))
        items.append(
            Item(
                character=character,
                kind=Item.Kind.ARMOUR,
                name=a.name,
                armour_physical=a.physical,
                armour_energy=a.energy,
                notes=notes[:200],
            )
        )
    for item in parse_item_lines(gear.get("items", "")):
        items.append(Item(character=character, kind=Item.Kind.GEAR, **item))
    return items
