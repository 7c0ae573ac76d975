"""The GM's approval of new characters.

A player sends a finished draft to the GM (``submit``, with a note asking for what differs from
the campaign's creation rules): it is then read-only to him and no character exists, so nothing
can be rolled with it. He may take it back to change it (``withdraw``). The GM sees what differs
(:func:`differences`), then approves it (``approve``: the character is created by the same code
as the wizard's "Create character", owned by the draft's chosen player, the GM signing the
starting balances) or returns it with a reason (``return_draft``), which the player sees on
every step until he sends it again.

A player's droid takes the same road: the droid builder sends its design in a draft
(:func:`characters.droid_builder.send_droid_for_approval`), the GM reviews its building dice
(:func:`droid_review`) and approves it (built by :func:`characters.droid_builder.build_droid`)
or returns it; a returned droid opens in the builder again.

In a campaign with ``approve_characters`` every player's new character goes this way; in any
campaign a player may send a draft the rules refuse (over a budget, outside the species limits,
imported balances) and let the GM's approval override them. Problems no approval fixes (no name,
no species limits, skills sharing a name, the player gone) block both.

Each change locks the draft's row and checks its state first, so two GM tabs approving give one
character and an approval racing a withdrawal lets exactly one win; the loser gets
:class:`ApprovalRefused` with a message saying what happened, and nothing changes.
"""

from __future__ import annotations

import re

from django.db import transaction
from django.utils import timezone

from campaigns import library
from campaigns.models import Membership
from characters.droid_builder import (
    DroidRefused,
    build_droid,
    dice_line,
    droid_draft_design,
    total_line,
)
from characters.models import ATTRIBUTE_LABELS, Character, CreationDraft
from characters.wizard import (
    BALANCE_WORDS,
    ONLY_THE_GM,
    CreationRefused,
    DraftSpecies,
    check_draft,
    create_from_draft,
    draft_species,
    imported_balances,
    locked_draft,
    rules_balances,
)
from rules import DieCode, DieCodeError
from rules.creation import starting_credits
from rules.droids import check_droid

Status = CreationDraft.Status
MAX_TEXT = 300  # the note and the reason, as the model's columns hold them


class ApprovalRefused(Exception):
    """The step cannot be taken; the message says why, in words for the user. Nothing changed."""


def _name(draft: CreationDraft) -> str:
    return (draft.data.get("background") or {}).get("name") or "This character"


def _locked(draft: CreationDraft, gone: str) -> CreationDraft:
    found = locked_draft(draft.pk)
    if found is None:
        raise ApprovalRefused(gone)
    return found


def _is_gm(campaign_id: int, user) -> bool:
    return Membership.objects.filter(
        campaign_id=campaign_id,
        user_id=getattr(user, "pk", None),
        role__in=[Membership.Role.GM, Membership.Role.CO_GM],
    ).exists()


def _text(value: str, what: str) -> str:
    text = (value or "").strip()
    if "\x00" in text:
        raise ApprovalRefused(f"{what} holds a character that is not text (NUL); retype it.")
    if len(text) > MAX_TEXT:
        raise ApprovalRefused(f"{what} is {len(text)} characters long; keep it to {MAX_TEXT}.")
    return text


def submit(draft: CreationDraft, *, actor, note: str = "") -> CreationDraft:
    """The player sends his draft to the GM with a note saying what he asks for: required when
    the creation rules refuse something in it, optional otherwise."""
    note = _text(note, "The note to the GM")
    with transaction.atomic():
        locked = _locked(draft, "This draft no longer exists: it was approved or discarded.")
        if locked.user_id != getattr(actor, "pk", None):
            raise ApprovalRefused("Only the player who made this draft can send it to the GM.")
        if locked.kind != Character.Kind.PC:
            raise ApprovalRefused("Only a player character goes to the GM for approval.")
        if locked.status == Status.SUBMITTED:
            raise ApprovalRefused(f"{_name(locked)} is already awaiting the GM's approval.")
        if is_droid(locked):  # sent again unchanged: the droid rules, not the wizard's
            problems = droid_review(locked)["problems"]
            if problems:
                raise ApprovalRefused(f"{_name(locked)} cannot be sent yet: {problems[0]}.")
            return _mark_submitted(locked, note)
        assessment = check_draft(locked, gm=False)
        essential = assessment.essential
        if essential:
            raise ApprovalRefused(
                f"{_name(locked)} cannot be sent yet: {essential[0]}"
                + ("" if len(essential) == 1 else f" (and {len(essential) - 1} more)")
                + "."
            )
        if assessment.rule_problems and not note:
            raise ApprovalRefused(
                f"the creation rules refuse {len(assessment.rule_problems)} thing"
                f"{'s' if len(assessment.rule_problems) > 1 else ''} in {_name(locked)} "
                f"({_plain(assessment.rule_problems[0])}): fix "
                f"{'them' if len(assessment.rule_problems) > 1 else 'it'}, or say in the note "
                "what you ask the GM to accept."
            )
        return _mark_submitted(locked, note)


def _mark_submitted(locked: CreationDraft, note: str) -> CreationDraft:
    locked.status = Status.SUBMITTED
    locked.submitted_at = timezone.now()
    locked.exception_note = note
    locked.review_reason = ""
    locked.save(
        update_fields=["status", "submitted_at", "exception_note", "review_reason", "updated_at"]
    )
    return locked


def withdraw(draft: CreationDraft, *, actor) -> CreationDraft:
    """The player takes his draft back from the GM to change it."""
    with transaction.atomic():
        locked = _locked(
            draft,
            "This draft no longer exists: the GM approved it (it is among your characters) "
            "or it was discarded.",
        )
        if locked.user_id != getattr(actor, "pk", None):
            raise ApprovalRefused("Only the player who sent this draft can withdraw it.")
        if locked.status == Status.RETURNED:
            raise ApprovalRefused(
                f"The GM already returned {_name(locked)} to you: see the reason, change it "
                "and send it again."
            )
        if locked.status != Status.SUBMITTED:
            raise ApprovalRefused(f"{_name(locked)} is not waiting for the GM.")
        locked.status = Status.EDITING
        locked.save(update_fields=["status", "updated_at"])
    return locked


def _waiting(locked: CreationDraft, actor, verb: str) -> None:
    """The GM may decide on this draft now: he is a GM of its campaign and it waits for him."""
    done = f"{verb}d" if verb.endswith("e") else f"{verb}ed"  # approved, returned
    if not _is_gm(locked.campaign_id, actor):
        raise ApprovalRefused(f"Only the campaign's game masters can {verb} a new character.")
    if locked.status == Status.EDITING and locked.submitted_at is None:
        raise ApprovalRefused(f"{_name(locked)} has not been sent to the GM; nothing was {done}.")
    if locked.status == Status.EDITING:
        raise ApprovalRefused(
            f"{_name(locked)} was withdrawn by its player to be changed; nothing was {done}."
        )
    if locked.status == Status.RETURNED:
        raise ApprovalRefused(
            f"{_name(locked)} was already returned to its player; nothing was {done}."
        )


GONE = "This draft no longer exists: it was already approved (see the characters) or discarded."


def approve(draft: CreationDraft, *, actor, add_species: bool = False) -> Character:
    """The GM approves the submitted draft: the character is created as the wizard creates it
    (its owner the draft's chosen player, ``actor`` signing the starting balances), whatever
    differs from the creation rules; the draft is gone. ``add_species``: the species limits the
    player proposed (:func:`proposed_species`) join the campaign's library in the same
    transaction, so the next character of that species has them."""
    with transaction.atomic():
        locked = _locked(draft, GONE)
        _waiting(locked, actor, "approve")
        if is_droid(locked):
            return _approve_droid(locked, actor)
        assessment = check_draft(locked, gm=False)
        if assessment.essential:
            raise ApprovalRefused(
                f"{_name(locked)} cannot be created: {assessment.essential[0]}. Return it to "
                "the player with the reason."
            )
        if add_species:
            _add_proposed_species(locked, actor)
        try:
            return create_from_draft(
                locked, campaign=locked.campaign, actor=actor, report=assessment.report
            )
        except CreationRefused as refusal:
            raise ApprovalRefused(f"{_name(locked)} cannot be created: {refusal}") from None


def is_droid(draft: CreationDraft) -> bool:
    """A droid sent from the droid builder (its design in the draft), not a wizard's draft."""
    return isinstance(draft.data, dict) and isinstance(draft.data.get("droid"), dict)


def _approve_droid(locked: CreationDraft, actor) -> Character:
    """A droid is built as the builder builds it (:func:`build_droid`), for the player who sent
    it, the GM signing its starting Force Point; the draft is gone."""
    try:
        design, model = droid_draft_design(locked) or (None, "")
        if design is None:
            raise DroidRefused("it holds no droid design")
        character = build_droid(
            locked.campaign, actor, design, owner_id=locked.user_id, model=model
        )
    except DroidRefused as refusal:
        reason = refusal.message.rstrip(".")
        raise ApprovalRefused(
            f"{_name(locked)} cannot be built: {reason}. Return it to the player with the reason."
        ) from None
    locked.delete()
    return character


def droid_review(draft: CreationDraft) -> dict:
    """What the GM reviews of a droid: its building dice against the budget, the problems the
    engine finds (none when the builder sent it), its attributes, skills and equipment."""
    try:
        found = droid_draft_design(draft)
    except DroidRefused as refusal:
        return {"problems": [refusal.message], "design": None}
    if found is None:
        return {"problems": ["it holds no droid design"], "design": None}
    design, model = found
    check = check_droid(design)
    return {
        "design": design,
        "model": model or "Droid",
        "dice": dice_line(check.dice),
        "total": total_line(check.dice),
        "problems": list(check.problems),
        "attributes": [(ATTRIBUTE_LABELS[a], design.attribute(a)) for a in ATTRIBUTE_LABELS],
    }


def proposed_species(draft: CreationDraft) -> DraftSpecies | None:
    """The species whose limits the player proposed and the library lacks with numbers (a
    custom species, or a built-in the sources give no numbers for): the GM may add it to the
    library when approving. None when the draft's species comes from the library."""
    species = draft_species(draft.data, draft.campaign)
    if not species.proposed or species.limits is None:
        return None
    if species.entry is not None and not species.entry.builtin:
        return None
    return species


def _add_proposed_species(draft: CreationDraft, actor) -> None:
    species = proposed_species(draft)
    if species is None:
        raise ApprovalRefused(
            "Not added to the library: this character's species already comes from it."
        )
    entry = {
        "name": species.name,
        "source": f"Proposed by {draft.user.username}, approved by {actor.username}"[:120],
        "attributes": {a: {"min": str(lo), "max": str(hi)} for a, lo, hi in species.limits.limits},
        "move": {"normal": species.limits.move, "max": species.limits.move},
    }
    try:
        library.save_entry(
            draft.campaign,
            "species",
            entry,
            actor=actor,
            copied_from=species.entry.name if species.entry is not None else "",
        )
    except library.LibraryRefused as refusal:
        raise ApprovalRefused(f"Not added to the library: {refusal}") from None


def return_draft(draft: CreationDraft, *, actor, reason: str) -> CreationDraft:
    """The GM returns the submitted draft to its player with a reason (required)."""
    reason = _text(reason, "The reason")
    if not reason:
        raise ApprovalRefused("Give the player a reason: what to change before sending it again.")
    with transaction.atomic():
        locked = _locked(draft, GONE)
        _waiting(locked, actor, "return")
        locked.status = Status.RETURNED
        locked.review_reason = reason
        locked.reviewed_by = actor
        locked.save(update_fields=["status", "review_reason", "reviewed_by", "updated_at"])
    return locked


# ---------------------------------------------------------------------------------------------
# What the GM sees
# ---------------------------------------------------------------------------------------------
_STEP = re.compile(r" \((?:[A-Z][a-z]+|The Force) step\)$")


def _plain(problem: str) -> str:
    """A wizard problem without the step it points the player to."""
    return _STEP.sub("", problem)


def differences(draft: CreationDraft) -> list[str]:
    """What in the draft differs from the campaign's creation rules, in words, for the GM's
    review: budgets over or under, attributes outside the species' limits, credits over a
    player's cap, imported balances other than the rules' starting ones, and a species whose
    limits the player proposed (custom, or a library species without numbers). Empty when it
    keeps to the rules."""
    assessment = check_draft(draft, gm=False)
    found = [_plain(p).removesuffix(ONLY_THE_GM) for p in assessment.rule_problems]
    species = draft_species(draft.data, draft.campaign)
    if species.proposed and species.limits is not None:
        rows = ", ".join(f"{ATTRIBUTE_LABELS[a]} {lo}–{hi}" for a, lo, hi in species.limits.limits)
        what = "a custom species" if species.custom else "not in the library with numbers"
        found.append(
            f"Species {species.name} ({what}): limits proposed by the player — {rows}; "
            f"Move {species.limits.move}"
        )
    return found


def comparison(draft: CreationDraft) -> dict:
    """The GM's side-by-side: budgets used against allowed, each attribute against the
    species' limits, credits against a player's cap, balances against the rules' start."""
    assessment = check_draft(draft, gm=False)
    report = assessment.report
    species = draft_species(draft.data, draft.campaign)
    attributes = draft.data.get("attributes") or {}
    rows = []
    for a, label in ATTRIBUTE_LABELS.items():
        code = attributes.get(a, "—")
        if species.limits is None:
            rows.append({"label": label, "code": code, "limits": "not entered", "ok": None})
            continue
        lo, hi = species.limits.range_of(a)
        try:
            ok = lo <= DieCode.parse(code) <= hi
        except DieCodeError:  # not entered (or broken): not within the limits
            ok = False
        rows.append({"label": label, "code": code, "limits": f"{lo} to {hi}", "ok": ok})
    credits = (draft.data.get("gear") or {}).get("credits") or 0
    cap = starting_credits(ruleset=draft.campaign.ruleset)
    imported = imported_balances(draft.data)
    ruled = rules_balances(report)
    return {
        "budgets": [
            {
                "label": "Attribute dice",
                "used": str(report.attribute_dice_used),
                "allowed": str(report.attribute_dice_budget),
                "ok": report.attribute_dice_left.total_pips == 0,
            },
            {
                "label": "Skill dice",
                "used": str(report.skill_dice_used),
                "allowed": str(report.skill_dice_budget),
                "ok": report.skill_dice_left.total_pips >= 0,
            },
            {
                "label": "Starting credits",
                "used": f"{credits:,}",
                "allowed": f"at most {cap:,}",
                "ok": credits <= cap,
            },
            *(
                {
                    "label": words,
                    "used": str(imported[key]) + " (imported)" if imported else str(ruled[key]),
                    "allowed": str(ruled[key]),
                    "ok": imported is None or imported[key] == ruled[key],
                }
                for key, words in BALANCE_WORDS
            ),
        ],
        "attributes": rows,
        "essential": assessment.essential,
    }
