"""The droid builder: a droid built with the Rules Companion's building dice
(droids-and-equipment.md §2, :mod:`rules.droids`) becomes a character like any other.

One page holds the design in progress (a form; nothing is stored until it is saved). Every
input posts the form as the user types and the answer redraws the budget: the building dice by
heading against 65D (a player's droid) or 35D (an NPC droid) and every problem the engine finds
(:func:`rules.droids.check_droid`). A GM builds a player's droid (for any player of the
campaign) or an NPC droid; a player builds his own droid. The R2 and 3PO stat blocks of the
source are templates to start from (R2 as printed: 34D of 35D, 1D unexplained).

Saving (:func:`build_droid`) creates, in one transaction, the character (nature ``droid``, the
model as its species, Move from the speed code by :func:`rules.droids.droid_move`), its skills,
its equipment (gear, and its armour as an armour item so encounters count it), a player's
droid's Force Point through the ledger, and the design as built (``Character.droid_design``,
shown on the sheet). Anything the rules or the campaign refuse changes nothing.

In a campaign whose GM approves new characters, a player's droid is sent to the GM instead
(:func:`send_droid_for_approval`: a submitted ``CreationDraft`` holding the design); the GM's
approval (:func:`characters.approval.approve`) builds it through :func:`build_droid`. A droid
the GM returned opens in the builder again (``?draft=N``) to be changed and sent again."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from campaigns.access import membership_or_404
from campaigns.models import Campaign, Membership
from characters.droid_forms import (
    MAX_ROWS,
    TEMPLATE_CHOICES,
    DroidForm,
    DroidItemFormSet,
    DroidSkillFormSet,
)
from characters.models import ATTRIBUTES, Character, CreationDraft, Currency, Item, Skill
from characters.services import change_balance
from rules import DieCode, RulesError, reference
from rules.droids import (
    BuildingDice,
    DroidCheck,
    DroidDesign,
    DroidItem,
    DroidSkill,
    check_droid,
    droid_move,
    droid_starting_force_points,
    item_building_dice,
    load_droid_templates,
)
from rules.traits import ATTRIBUTE_LABELS

TEMPLATE = "characters/droid_builder.html"
NPC_ONLY_GMS = "Only the campaign's game masters build NPC droids."
OWN_DROID_ONLY = "You build droids for yourself only; a GM builds a droid for another player."
COUNT_NEEDS = "Fill in the six attributes and the armour to count the building dice."
APPROVAL = "in this campaign the GM approves new characters: send the droid to the GM"
DROID_DRAFT_GONE = (
    "this droid is no longer with the GM: it was approved (it is among the campaign's "
    "characters) or discarded"
)


class DroidRefused(Exception):
    """The droid was not built; the message says why, in words for the user. ``status``: 403
    when the user may not do this at all, 400 when the design or the choices are wrong."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


# ---------------------------------------------------------------------------------------------
# The budget in words
# ---------------------------------------------------------------------------------------------
def dice_line(dice: BuildingDice) -> str:
    """``Attributes 20D · Speed 3D · Armour 3D · Skills 25D · Equipment 8D``."""
    parts = (
        ("Attributes", dice.attributes),
        ("Speed", dice.speed),
        ("Armour", dice.armor),
        ("Skills", dice.skills),
        ("Equipment", dice.equipment),
    )
    return " · ".join(f"{label} {n}D" for label, n in parts)


def total_line(dice: BuildingDice) -> str:
    """``59D of 65D, 6D left``, ``65D of 65D, nothing left``, ``69D of 65D, 4D over``."""
    left = dice.unspent
    rest = "nothing left" if left == 0 else f"{left}D left" if left > 0 else f"{-left}D over"
    return f"{dice.total}D of {dice.budget}D, {rest}"


@dataclass
class Assessment:
    """What the budget area shows: the engine's check of the design (None while the form
    cannot make one), the entries to fix before the rules can be asked, and notes."""

    check: DroidCheck | None
    entry_errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        found = list(self.check.problems) if self.check is not None else []
        return self.entry_errors + found

    @property
    def dice_line(self) -> str:
        return dice_line(self.check.dice) if self.check is not None else ""

    @property
    def total_line(self) -> str:
        return total_line(self.check.dice) if self.check is not None else ""

    @property
    def over(self) -> bool:
        return self.check is not None and self.check.dice.over_budget


# ---------------------------------------------------------------------------------------------
# From the forms to the engine's design
# ---------------------------------------------------------------------------------------------
def _errors(form, *, live: bool, row_label: str = "") -> list[str]:
    """A form's errors in words, naming the input; while typing, empty required inputs are
    not an error yet."""
    out = []
    for name, problems in form.errors.as_data().items():
        label = form.fields[name].label if name in form.fields else ""
        if row_label and label:
            label = f"{label} {form.row}"
        for problem in problems:
            if live and problem.code == "required":
                continue
            for text in problem.messages:
                out.append(f"{label}: {text}" if label else text)
    return out


def read_design(form, skills, items, *, live: bool) -> tuple[DroidDesign | None, list[str]]:
    """The design the bound forms describe, or None, with the errors of what was typed. Blank
    rows are skipped; rows with errors are left out of the design (their errors listed)."""
    errors = []
    form.is_valid()
    errors += _errors(form, live=live)
    for formset in (skills, items):
        if not formset.is_valid():
            errors += [str(e) for e in formset.non_form_errors()]
        for row in formset.forms:
            errors += _errors(row, live=live, row_label="row")
    data = form.cleaned_data
    needed = ("kind", "speed", "armor", *ATTRIBUTES)
    if any(name in form.errors for name in needed):
        return None, errors or [COUNT_NEEDS]
    codes = {a: data[a] for a in ATTRIBUTES}
    kind = data.get("kind") or "pc"
    try:
        design = DroidDesign(
            name=(data.get("name") or "").strip(),
            player_character=kind == Character.Kind.PC,
            speed=data.get("speed"),
            armor=data.get("armor") or DieCode(),
            skills=tuple(
                DroidSkill(
                    row.cleaned_data["name"],
                    row.cleaned_data["attribute"],
                    row.cleaned_data["code"],
                )
                for row in skills.forms
                if not row.errors and row.cleaned_data.get("name")
            ),
            items=tuple(
                DroidItem(
                    row.cleaned_data["name"],
                    row.cleaned_data["quantity"],
                    row.cleaned_data["features"],
                    bool(row.cleaned_data.get("vision")),
                )
                for row in items.forms
                if not row.errors and row.cleaned_data.get("name")
            ),
            **codes,
        )
    except RulesError as exc:
        return None, [*errors, str(exc)]
    return design, errors


def assess(design: DroidDesign | None, errors: list[str]) -> Assessment:
    if design is None:
        return Assessment(None, errors)
    check = check_droid(design)
    notes = [
        f"Speed code {design.speed_code}: Move {droid_move(design.speed_code)} on the sheet "
        "(the source gives droids a speed code, not a Move; 3D moves like a human, Move 10)."
    ]
    if design.player_character:
        notes.append("A player's droid starts with one Force Point (Rules Companion).")
    return Assessment(check, errors, notes + list(check.warnings))


# ---------------------------------------------------------------------------------------------
# Saving: the service
# ---------------------------------------------------------------------------------------------
def _item_notes(item: DroidItem) -> str:
    parts = [f"built in, {item_building_dice(item)}D"]
    if item.features:
        parts.append(f"{item.features} extra feature{'s' if item.features > 1 else ''}")
    if item.vision:
        parts.append("gives vision")
    return " · ".join(parts)


def build_droid(
    campaign: Campaign,
    actor: Any,
    design: DroidDesign,
    *,
    owner_id: int | None,
    model: str = "",
    secret: bool = False,
) -> Character:
    """Create the droid ``design`` describes as a character of ``campaign``, in one
    transaction: the character (nature droid), its skills, its equipment, its armour, a
    player's droid's starting Force Point through the ledger, and the design as built.

    ``design.player_character``: a player's droid, owned by ``owner_id`` (a member of the
    campaign); otherwise an NPC droid (``secret``: hidden from the players). ``actor``: a GM
    of the campaign builds any droid; a player only his own player's droid, and not in a
    campaign whose GM approves new characters. Raises :class:`DroidRefused` with the reason,
    nothing written, when the rules or the campaign refuse it."""
    name = design.name.strip()
    model = (model or "").strip()
    with transaction.atomic():
        gm, check = _checked(campaign, actor, design, owner_id)
        if design.player_character and not gm and campaign.approve_characters:
            raise DroidRefused(f"The droid was not built: {APPROVAL}.", status=403)
        npc = not design.player_character
        character = Character.objects.create(
            campaign=campaign,
            owner_id=None if npc else owner_id,
            kind=Character.Kind.NPC if npc else Character.Kind.PC,
            nature=Character.Nature.DROID,
            secret=npc and secret,
            name=name,
            species=model or "Droid",
            move=droid_move(design.speed_code),
            force_sensitive=False,
            droid_design=design.to_json(),
            **{a: design.attribute(a) for a in ATTRIBUTES},
        )
        Skill.objects.bulk_create(
            Skill(
                character=character,
                name=s.name.strip(),
                attribute=s.attribute,
                kind=_skill_kind(s.name),
                code=s.die_code,
            )
            for s in design.skills
        )
        items = [
            Item(
                character=character,
                kind=Item.Kind.GEAR,
                name=i.name.strip(),
                quantity=i.quantity,
                notes=_item_notes(i),
            )
            for i in design.items
        ]
        if design.armor.total_pips > 0:
            items.append(
                Item(
                    character=character,
                    kind=Item.Kind.ARMOUR,
                    name="Armour plating",
                    armour_physical=design.armor,
                    armour_energy=design.armor,
                    notes=f"built in, {check.dice.armor}D",
                )
            )
        Item.objects.bulk_create(items)
        points = droid_starting_force_points(design.player_character)
        if points:
            change_balance(
                character,
                Currency.FP,
                points,
                "Starting Force Point: every player's droid begins with one (Rules Companion)",
                actor,
            )
    return character


def _checked(
    campaign: Campaign, actor: Any, design: DroidDesign, owner_id: int | None
) -> tuple[bool, DroidCheck]:
    """Whether ``actor`` is a GM, and the engine's check of ``design``, after everything the
    campaign and the rules refuse (:class:`DroidRefused`): who may build it, for whom, its
    name, and every problem :func:`rules.droids.check_droid` finds."""
    membership = Membership.objects.filter(campaign=campaign, user_id=actor.pk).first()
    if membership is None:
        raise DroidRefused("You are not in this campaign.", status=403)
    gm = membership.is_gm
    if design.player_character:
        if owner_id is None:
            raise DroidRefused("Choose the player who plays this droid.")
        if not gm and owner_id != actor.pk:
            raise DroidRefused(OWN_DROID_ONLY, status=403)
        if not Membership.objects.filter(campaign=campaign, user_id=owner_id).exists():
            raise DroidRefused("That player is not in this campaign.")
    elif not gm:
        raise DroidRefused(NPC_ONLY_GMS, status=403)
    if not design.name.strip():
        raise DroidRefused("Name the droid.")
    check = check_droid(design)
    if check.problems:
        raise DroidRefused("Fix these first: " + "; ".join(check.problems) + ".")
    return gm, check


# ---------------------------------------------------------------------------------------------
# The GM's approval
# ---------------------------------------------------------------------------------------------
def droid_draft_design(draft: CreationDraft) -> tuple[DroidDesign, str] | None:
    """The design and model a droid draft holds; None for a wizard's draft. A stored design
    the engine cannot read is a :class:`DroidRefused` with the reason."""
    stored = draft.data.get("droid") if isinstance(draft.data, dict) else None
    if not isinstance(stored, dict):
        return None
    try:
        design = DroidDesign.from_json(stored.get("design"))
    except RulesError as exc:
        raise DroidRefused(f"The droid's stored design cannot be read: {exc}.") from None
    model = stored.get("model")
    return design, model if isinstance(model, str) else ""


def send_droid_for_approval(
    campaign: Campaign,
    actor: Any,
    design: DroidDesign,
    *,
    model: str = "",
    draft_id: int | None = None,
) -> CreationDraft:
    """A player's droid sent to the GM, in a campaign whose GM approves new characters: the
    design, checked as :func:`build_droid` checks it, kept in a submitted ``CreationDraft``
    (the same queue as the wizard's characters; nothing is built until the GM approves).
    ``draft_id``: a droid the GM returned (or its player withdrew), sent again with the
    changes. Raises :class:`DroidRefused` with the reason; nothing changed."""
    if not design.player_character:
        raise DroidRefused(NPC_ONLY_GMS, status=403)
    name = design.name.strip()
    model = (model or "").strip()
    data = {
        "droid": {"design": design.to_json(), "model": model},
        "background": {"name": name},
        "species": {"name": model or "Droid"},
        "start": {"owner": actor.pk},
    }
    with transaction.atomic():
        _checked(campaign, actor, design, actor.pk)
        if draft_id is None:
            draft = CreationDraft(campaign=campaign, user=actor, kind=Character.Kind.PC)
        else:
            draft = (
                CreationDraft.objects.select_for_update()
                .filter(pk=draft_id, campaign=campaign, user_id=actor.pk)
                .first()
            )
            if draft is None or not isinstance(draft.data.get("droid"), dict):
                raise DroidRefused(f"Not sent: {DROID_DRAFT_GONE}.")
            if draft.status == CreationDraft.Status.SUBMITTED:
                raise DroidRefused(f"{name} is already awaiting the GM's approval.", status=409)
        draft.step = "review"
        draft.data = data
        draft.status = CreationDraft.Status.SUBMITTED
        draft.submitted_at = timezone.now()
        draft.review_reason = ""
        draft.save()
    return draft


def _skill_kind(name: str) -> str:
    try:
        advanced = reference.skill(name).advanced
    except reference.ReferenceDataError:
        advanced = False
    return Skill.Kind.ADVANCED if advanced else Skill.Kind.SKILL


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------
def _template_initial(key: str) -> tuple[dict, list[dict], list[dict]]:
    template = load_droid_templates().get(key)
    if template is None:
        return {}, [{}], [{}]
    return _design_initial(template, model=template.name)


def _design_initial(
    template: DroidDesign, *, model: str, name: str = ""
) -> tuple[dict, list[dict], list[dict]]:
    """The builder's form filled in with ``template`` (a source template, or a droid sent to
    the GM and returned)."""
    initial = {a: str(template.attribute(a)) for a in ATTRIBUTES}
    if name:
        initial["name"] = name
    initial.update(
        model=model,
        speed=str(template.speed) if template.speed is not None else "",
        armor=str(template.armor),
        kind="pc" if template.player_character else "npc",
    )
    skills = [
        {"name": s.name, "attribute": s.attribute, "code": str(s.code)} for s in template.skills
    ]
    items = [
        {"name": i.name, "quantity": i.quantity, "features": i.features, "vision": i.vision}
        for i in template.items
    ]
    return initial, skills or [{}], items or [{}]


def _who_refusal(membership: Membership, post) -> str | None:
    """A player asking for what only a GM may do (an NPC droid, another player's droid)."""
    if membership.is_gm:
        return None
    if post.get("kind", "pc") != "pc":
        return NPC_ONLY_GMS
    owner = post.get("owner")
    if owner not in (None, "", str(membership.user_id)):
        return OWN_DROID_ONLY
    return None


def _rows_action(action: str) -> tuple[str, str, int | None] | None:
    """``add-skill`` → (``skills``, ``add``, None); ``remove-item-2`` → (``items``, ``remove``,
    2); None for anything else."""
    for prefix, which in (("skill", "skills"), ("item", "items")):
        if action == f"add-{prefix}":
            return which, "add", None
        start = f"remove-{prefix}-"
        if action.startswith(start) and action[len(start) :].isdecimal():
            return which, "remove", int(action[len(start) :])
    return None


@login_required
def builder(request, campaign_id):
    """GET: a blank design, or a template's (``?template=r2``). POST: ``_live`` redraws the
    budget; ``action`` ``add-skill``/``remove-skill-N`` (and items) redraws the rows; anything
    else saves the droid, or shows the page again with the reason (nothing saved)."""
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    url = reverse("characters:droid_builder", args=[campaign_id])
    post = request.POST if request.method == "POST" else None
    refusal, status = "", 200
    if post is not None:
        who = _who_refusal(membership, post)
        if who:
            return _refuse(request, membership, who, 403)
    key = request.GET.get("template", "") if post is None else ""
    chosen = key if key in dict(TEMPLATE_CHOICES) else ""
    initial, skill_rows, item_rows = _template_initial(chosen)
    draft = _own_droid_draft(request, campaign_id, post)
    if draft is not None and post is None and not chosen:
        design, model = draft.droid  # type: ignore[attr-defined]
        initial, skill_rows, item_rows = _design_initial(design, model=model, name=design.name)
    if not membership.is_gm:
        initial["kind"] = "pc"  # a player builds his own droid, whatever the template was
    form = DroidForm(post, initial=initial, membership=membership, live_url=url)
    skills = DroidSkillFormSet(post, initial=skill_rows, prefix="skills", live_url=url)
    items = DroidItemFormSet(post, initial=item_rows, prefix="items", live_url=url)
    live = bool(post and post.get("_live"))
    action = (post.get("action") or "") if post is not None else ""
    rows = _rows_action(action) if post is not None else None
    focus = None
    if rows is not None:  # the same form again, one row more or less
        which, what, index = rows
        post, focus = _changed_rows(post, skills if which == "skills" else items, what, index)
        form = DroidForm(post, initial=initial, membership=membership, live_url=url)
        skills = DroidSkillFormSet(post, initial=skill_rows, prefix="skills", live_url=url)
        items = DroidItemFormSet(post, initial=item_rows, prefix="items", live_url=url)
        changed = skills if which == "skills" else items
        if focus is not None and 0 <= focus < len(changed.forms):
            changed.forms[focus].fields["name"].widget.attrs["autofocus"] = True
    design, errors = (None, [])
    if post is not None:
        design, errors = read_design(form, skills, items, live=live or rows is not None)
    assessment = assess(design, errors)
    if post is not None and not live and rows is None:
        if design is None or errors:
            refusal, status = "check the entries marked below.", 400
        else:
            try:
                if campaign.approve_characters and not membership.is_gm:
                    sent = send_droid_for_approval(
                        campaign,
                        request.user,
                        design,
                        model=form.cleaned_data.get("model", ""),
                        draft_id=draft.pk if draft is not None else None,
                    )
                    messages.success(request, SENT.format(name=sent.data["background"]["name"]))
                    return redirect(campaign.get_absolute_url())
                character = build_droid(
                    campaign,
                    request.user,
                    design,
                    owner_id=_owner(form, membership),
                    model=form.cleaned_data.get("model", ""),
                    secret=bool(form.cleaned_data.get("secret")),
                )
            except DroidRefused as exc:
                refusal, status = exc.message, exc.status
            else:
                messages.success(request, f"{character.name} was built.")
                return redirect(character.get_absolute_url())
    if post is None:
        assessment = assess(_initial_design(initial, skill_rows, item_rows), [])
    context = {
        "campaign": campaign,
        "membership": membership,
        "form": form,
        "skills": skills,
        "items": items,
        "assessment": assessment,
        "refusal": refusal,
        "live": live or rows is not None,
        "url": url,
        "templates": TEMPLATE_CHOICES,
        "chosen": chosen,
        "approval": campaign.approve_characters and not membership.is_gm,
        "draft": draft,
        "skill_list": [s.name for s in reference.skills()],
        "attribute_labels": ATTRIBUTE_LABELS,
    }
    if rows is not None:
        if request.htmx:
            return render(request, f"{TEMPLATE}#{rows[0][:-1]}-rows", context)
    elif live:
        return render(request, f"{TEMPLATE}#budget", context)
    return render(request, TEMPLATE, context, status=status)


SENT = (
    "{name} was sent to the GM for approval: it is built once the GM approves it, and you can "
    "change it if the GM returns it."
)


def _own_droid_draft(request, campaign_id: int, post) -> CreationDraft | None:
    """The user's own droid sent to the GM that the page edits (``?draft=N`` on the page,
    ``draft`` in the form); None without one. Anyone else's, or a wizard's draft: 404."""
    raw = (post.get("draft") if post is not None else request.GET.get("draft")) or ""
    if not raw:
        return None
    if not raw.isdecimal() or len(raw) > 12:
        raise Http404("No such droid draft")
    draft = CreationDraft.objects.filter(
        pk=int(raw), campaign_id=campaign_id, user_id=request.user.pk
    ).first()
    try:
        found = droid_draft_design(draft) if draft is not None else None
    except DroidRefused:
        found = None  # a damaged record: nothing to edit here
    if found is None:
        raise Http404("No such droid draft")
    draft.droid = found  # type: ignore[attr-defined]
    return draft


def _owner(form: DroidForm, membership: Membership) -> int:
    """A player's droid is his; a GM's is the player chosen, else the GM's own."""
    if not membership.is_gm:
        return membership.user_id
    return form.cleaned_data.get("owner") or membership.user_id


def _changed_rows(post, formset, what: str, index: int | None):
    """The posted data with a blank row added to ``formset`` (or row ``index`` removed),
    every other row as typed; and the row to focus (the new one, or the one now in that
    place)."""
    prefix = formset.prefix
    data = formset.raw_rows()
    if what == "add":
        if len(data) < MAX_ROWS:
            data.append({})
        focus = len(data) - 1
    else:
        if index is not None and index < len(data):
            data.pop(index)
        focus = min(index or 0, len(data) - 1)
    changed = {k: v for k, v in post.items() if not k.startswith(f"{prefix}-")}
    changed[f"{prefix}-TOTAL_FORMS"] = str(len(data))
    changed[f"{prefix}-INITIAL_FORMS"] = "0"
    for i, row in enumerate(data):
        for name, value in row.items():
            if value not in (None, False, ""):
                changed[f"{prefix}-{i}-{name}"] = "on" if value is True else str(value)
    return changed, focus


def _initial_design(initial: dict, skill_rows: list[dict], item_rows: list[dict]) -> DroidDesign:
    """The design a fresh page starts with (a blank droid, or the template's)."""
    return DroidDesign(
        name="",
        player_character=initial.get("kind", "pc") == "pc",
        speed=DieCode.parse(initial["speed"]) if initial.get("speed") else None,
        armor=DieCode.parse(initial.get("armor") or "0D"),
        skills=tuple(DroidSkill(r["name"], r["attribute"], r["code"]) for r in skill_rows if r),
        items=tuple(
            DroidItem(r["name"], r["quantity"], r["features"], r["vision"]) for r in item_rows if r
        ),
        **{a: DieCode.parse(initial.get(a) or "1D") for a in ATTRIBUTES},
    )


def _refuse(request, membership, message: str, status: int):
    """A request the user may not make at all: an alert (HTMX) or the refusal page."""
    back = reverse("characters:droid_builder", args=[membership.campaign_id])
    template = "includes/alert.html" if request.htmx else "refusal.html"
    return render(request, template, {"message": message, "back": back}, status=status)
