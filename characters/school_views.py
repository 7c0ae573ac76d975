"""The campaign's Schools page ([HOUSE] schools, issue 19): the GM defines, edits, closes and
reopens schools; a player sees the open ones (length, price, bonuses, who may attend) and enrols
one of his own characters, paying the price from his Character Points or owing it; everyone
sees their characters' enrolments ("finishes on day N") and may withdraw them. The writes are
:mod:`characters.schools`'s.

Each form posts with HTMX and gets the page's body back (``#schools``): a refusal comes back
as a 400 with the reason in place (at the form that was refused), nothing changed. Without
JavaScript the same URLs redirect to the page (or render it with the refusal, 400).
The sheet loads :func:`character_school` ("At school: …, finishes day N")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters import schools as service
from characters.access import character_or_404
from characters.models import Character
from characters.school_forms import EnrolForm, SchoolForm
from characters.school_models import Enrolment, School
from rules.advancement.schools import MAX_SCHOOL_DEBT, schools_in_use
from rules.time import days_per_week

TEMPLATE = "characters/schools.html"
ENROLMENTS_SHOWN = 50


def _students(membership) -> list[Character]:
    """Who the viewer may enrol: a player his own player characters, the GM everyone."""
    rows = Character.objects.filter(campaign_id=membership.campaign_id).order_by("name", "pk")
    if not membership.is_gm:
        rows = rows.filter(owner_id=membership.user_id, kind=Character.Kind.PC)
    return list(rows.only("pk", "name", "character_points", "cp_owed", "kind", "owner_id"))


def _context(request, membership, **extra) -> dict:
    campaign = membership.campaign
    ruleset = campaign.ruleset
    week = days_per_week(ruleset=ruleset)
    rows = School.objects.filter(campaign=campaign)
    if not membership.is_gm:
        rows = rows.filter(open=True)
    students = _students(membership)
    attending = {
        e.character_id
        for e in Enrolment.objects.filter(
            character__in=students, status=Enrolment.Status.ATTENDING
        ).only("character_id")
    }
    free = [c for c in students if c.pk not in attending]
    forms = extra.pop("enrol_forms", {})
    schools = []
    for school in rows:
        school.days = school.weeks * week
        school.bonus_words = service.bonus_words(school.bonuses)
        if school.open and free:
            school.enrol_form = forms.get(school.pk) or EnrolForm(school=school, characters=free)
        schools.append(school)
    enrolments = Enrolment.objects.filter(school__campaign=campaign).select_related(
        "school", "character"
    )
    if not membership.is_gm:
        enrolments = enrolments.filter(character__in=students)
    enrolments = list(enrolments.order_by("-pk")[:ENROLMENTS_SHOWN])
    for enrolment in enrolments:
        enrolment.finishes = service.finish_day(enrolment)
    return {
        "campaign": campaign,
        "membership": membership,
        "house": schools_in_use(ruleset=ruleset),
        "week": week,
        "schools": schools,
        "enrolments": enrolments,
        "students": students,
        "max_debt": MAX_SCHOOL_DEBT,
        "school_form": SchoolForm() if membership.is_gm else None,
        **extra,
    }


def _page(request, membership, status=200, **extra):
    template = f"{TEMPLATE}#schools-body" if request.htmx else TEMPLATE
    return render(request, template, _context(request, membership, **extra), status=status)


def _done(request, membership, message: str):
    if request.htmx:
        return _page(request, membership, notice=message)
    messages.success(request, message)
    return redirect("characters:schools", membership.campaign_id)


@login_required
def schools(request, campaign_id):
    """The Schools page: every member."""
    membership = membership_or_404(request.user, campaign_id)
    return _page(request, membership)


def _school_args(form) -> dict:
    data = form.cleaned_data
    return {
        "name": data["name"],
        "instructor": data["instructor"],
        "weeks": data["weeks"],
        "cp_cost": data["cp_cost"],
        "bonuses": data["bonuses"],
        "restrictions": data["restrictions"],
        "open": data["open"],
    }


@login_required
@require_POST
def school_new(request, campaign_id):
    """The GM defines a school."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    form = SchoolForm(request.POST)
    if form.is_valid():
        try:
            school = service.save_school(campaign_id, actor=request.user, **_school_args(form))
        except service.SchoolError as exc:
            form.add_error(None, str(exc))
        else:
            return _done(request, membership, f"{school.name} is defined.")
    return _page(request, membership, status=400, school_form=form)


@login_required
def school_edit(request, campaign_id, school_id):
    """The GM edits a school (its page; later enrolments take the changes)."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    school = School.objects.filter(pk=school_id, campaign_id=campaign_id).first()
    if school is None:
        raise Http404("No such school")
    status = 200
    if request.method == "POST":
        form = SchoolForm(request.POST)
        if form.is_valid():
            try:
                service.save_school(
                    campaign_id, actor=request.user, school_id=school.pk, **_school_args(form)
                )
            except service.SchoolError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"{form.cleaned_data['name']} is saved.")
                return redirect("characters:schools", campaign_id)
        status = 400
    else:
        form = SchoolForm(initial=SchoolForm.initial_for(school))
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "school": school,
        "form": form,
    }
    return render(request, "characters/school_edit.html", context, status=status)


@login_required
@require_POST
def school_open(request, campaign_id, school_id):
    """The GM closes a school to new students, or reopens it (``open``: 1 or 0)."""
    membership = membership_or_404(request.user, campaign_id, role="gm")
    if not School.objects.filter(pk=school_id, campaign_id=campaign_id).exists():
        raise Http404("No such school")
    wanted = request.POST.get("open", "")
    if wanted not in ("0", "1"):
        return _page(
            request, membership, status=400, refusal="Choose to open (1) or close (0) the school."
        )
    try:
        school = service.set_school_open(
            campaign_id, school_id, actor=request.user, open=wanted == "1"
        )
    except service.SchoolError as exc:
        return _page(request, membership, status=400, refusal=str(exc))
    words = "open to new students" if school.open else "closed to new students"
    return _done(request, membership, f"{school.name} is {words}.")


@login_required
@require_POST
def school_enrol(request, campaign_id, school_id):
    """Enrol a character: a player one of his own, the GM anyone."""
    membership = membership_or_404(request.user, campaign_id)
    school = School.objects.filter(pk=school_id, campaign_id=campaign_id).first()
    if school is None or not (school.open or membership.is_gm):
        raise Http404("No such school")
    students = _students(membership)
    if not students:
        raise PermissionDenied("You have no character to enrol.")
    form = EnrolForm(request.POST, school=school, characters=students)
    refusal = ""
    if form.is_valid():
        try:
            enrolment = service.enrol_character(
                campaign_id,
                school.pk,
                form.cleaned_data["character"],
                actor=request.user,
                pay=form.paid(),
            )
        except service.SchoolError as exc:
            refusal = str(exc)
        else:
            owed = f", owing {enrolment.cp_owed} CP" if enrolment.cp_owed else ""
            return _done(
                request,
                membership,
                f"{enrolment.character.name} is at {school.name}{owed}: it finishes on day "
                f"{service.finish_day(enrolment)}.",
            )
    else:
        refusal = "Check the form: " + " ".join(
            str(e) for errors in form.errors.values() for e in errors
        )
    return _page(
        request,
        membership,
        status=400,
        refused_school=school.pk,
        refusal=refusal,
        enrol_forms={school.pk: form},
    )


@login_required
@require_POST
def school_withdraw(request, campaign_id, enrolment_id):
    """Take a character out of his school: his player or the GM."""
    membership = membership_or_404(request.user, campaign_id)
    enrolment = (
        Enrolment.objects.select_related("character")
        .filter(pk=enrolment_id, school__campaign_id=campaign_id)
        .first()
    )
    if enrolment is None:
        raise Http404("No such enrolment")
    if not membership.is_gm and enrolment.character.owner_id != membership.user_id:
        raise PermissionDenied("Only the character's player or the GM can withdraw him.")
    try:
        enrolment = service.withdraw(campaign_id, enrolment.pk, actor=request.user)
    except service.SchoolError as exc:
        return _page(request, membership, status=400, refusal=str(exc))
    return _done(
        request,
        membership,
        f"{enrolment.character.name} left {enrolment.school.name} on day {enrolment.finished_day}.",
    )


@login_required
def character_school(request, campaign_id, character_id):
    """The sheet's line: the school the character attends and its finish day (HTMX), or a
    page of its own without JavaScript. Every member who sees the sheet."""
    membership, character = character_or_404(request.user, campaign_id, character_id)
    context = {
        "campaign": membership.campaign,
        "character": character,
        "enrolment": service.character_enrolment(character.pk),
    }
    template = "characters/school_sheet.html"
    if request.htmx:
        template += "#school-line"
    return render(request, template, context)
