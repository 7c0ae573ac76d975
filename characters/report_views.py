"""One report per advance (issue 19): what finished, what failed and every roll with its dice,
grouped by character, for each member to read.

An advance's report is the list of lines its handlers returned, day by day
(:attr:`TimeAdvance.report`). A line about a character carries his ``character_id``; a GM
reads every line, a player only the lines about the characters he owns and the lines about the
whole campaign (no ``character_id``). The calendar shows the latest advance's report; the
advances page lists every advance of the campaign, newest first, each with its own report page
(a summary per character at the top: finished, failed, rolls).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from campaigns.access import membership_or_404
from characters.models import Character, TimeAdvance

ADVANCES_PER_PAGE = 20

FINISHED = frozenset({"improved", "done", "finished", "completed", "repaired", "healed"})
"""A line's ``outcome`` that counts as finished (a training, a project step, a school...)."""
FAILED = frozenset({"not_improved", "failed"})
"""A line's ``outcome`` that counts as failed."""


# --- Reading a report ------------------------------------------------------------------------
def visible_characters(membership) -> set[int] | None:
    """The characters whose lines the member reads: None (every one) for a GM, else the ids of
    the characters he owns in the campaign."""
    if membership.is_gm:
        return None
    return set(
        Character.objects.filter(
            campaign_id=membership.campaign_id, owner_id=membership.user_id
        ).values_list("pk", flat=True)
    )


def _character_id(line: Mapping[str, Any]) -> int | None:
    value = line.get("character_id")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _is_roll(data: object) -> bool:
    """A stored roll (``Roll.to_json``): its dice and total."""
    return isinstance(data, dict) and ("normal" in data or "wild" in data)


def _roll_view(data: object) -> dict | None:
    """A stored roll as ``includes/roll_dice.html`` reads it."""
    if not _is_roll(data):
        return None
    assert isinstance(data, dict)
    return {"dice": data, "total": data.get("total")}


def _dice_rolls(roll: dict | None) -> list[dict]:
    """Every roll of a line of another kind (a school, a repair...), as the template shows it:
    the line's roll itself, or each of its ``rolls`` (a repair's day), else its character's
    and the GM's."""
    if roll is None:
        return []
    if _is_roll(roll):
        return [_roll_view(roll)]  # type: ignore[list-item]
    many = roll.get("rolls")
    if isinstance(many, list) and many:
        return [view for view in map(_roll_view, many) if view is not None]
    return [
        view for view in map(_roll_view, (roll.get("character"), roll.get("gamemaster"))) if view
    ]


def _rolls_in(line: Mapping[str, Any], roll: dict | None) -> int:
    """How many dice rolls the line reports."""
    if roll is not None:
        if _is_roll(roll):
            return 1
        if isinstance(roll.get("rolls"), list):  # a repair's day: every roll it made
            return len(roll["rolls"])
        shown = sum(1 for key in ("character", "gamemaster") if _is_roll(roll.get(key)))
        if shown:
            return shown
        # An attribute roll stored without its replayed dice: both totals, both rolls.
        return sum(1 for key in ("character_roll", "gamemaster_roll") if roll.get(key) is not None)
    if line.get("kind") == "project":  # a project's roll is in its words: "…, 12 against 15"
        return sum(1 for w in line.get("words") or [] if isinstance(w, str) and " against " in w)
    return 0


def _result(line: Mapping[str, Any], words: list[str]) -> str:
    """ "finished", "failed" or "" (neither: a healing day that changed nothing, CP posted)."""
    outcome = line.get("outcome")
    if outcome in FINISHED:
        return "finished"
    if outcome in FAILED:
        return "failed"
    if line.get("kind") == "healing":
        if line.get("to") == "Healthy" and line.get("from") != "Healthy":
            return "finished"
        if "failed" in words:
            return "failed"
    return ""


def _layout(line: Mapping[str, Any]) -> str:
    """Which of the template's line layouts shows the line."""
    kind = line.get("kind")
    if kind in ("pending_cp", "healing"):
        return str(kind)
    if "advancement" in line or kind == "project":
        return "training"  # a training or a project step: target, from → to, improved or not
    return "other"  # a school, a repair, any later kind: its words and rolls


def report_lines(advance: TimeAdvance | None, membership) -> list[dict]:
    """The advance's lines the member may read, in day order, each ready for the template:
    its words, its rolls with their dice, whether it finished or failed something."""
    if advance is None:
        return []
    allowed = visible_characters(membership)
    lines = []
    for line in advance.report or []:
        if not isinstance(line, dict):
            continue
        who = _character_id(line)
        if allowed is not None and who is not None and who not in allowed:
            continue
        if allowed is not None and who is None and line.get("character_id") is not None:
            continue  # a character id that is not an id: nobody's line to show a player
        roll = line.get("roll") if isinstance(line.get("roll"), dict) else None
        words = line.get("words") if isinstance(line.get("words"), list) else []
        words = [w for w in words if isinstance(w, str)]
        lines.append(
            {
                **line,
                "character_id": who,
                "words": words,
                "character_roll": _roll_view(roll.get("character")) if roll else None,
                "gamemaster_roll": _roll_view(roll.get("gamemaster")) if roll else None,
                "attribute_roll": roll if line.get("kind") == "attribute" else None,
                "dice_rolls": _dice_rolls(roll),
                "rolls": _rolls_in(line, roll),
                "result": _result(line, words),
                "layout": _layout(line),
            }
        )
    lines.sort(key=lambda line: line["day"] if isinstance(line.get("day"), int) else 0)
    return lines


def report_groups(lines: list[dict]) -> list[dict]:
    """The lines grouped by character (a group each, by name; the campaign's own lines first),
    each group with its lines in day order and its counts: finished, failed, rolls."""
    groups: dict[int | None, dict] = {}
    for line in lines:
        who = line["character_id"]
        group = groups.get(who)
        if group is None:
            name = str(line.get("character") or "") if who is not None else ""
            group = groups[who] = {
                "character_id": who,
                "name": name or ("The campaign" if who is None else f"Character {who}"),
                "anchor": f"report-{who}" if who is not None else "report-campaign",
                "lines": [],
                "finished": 0,
                "failed": 0,
                "rolls": 0,
            }
        group["lines"].append(line)
        group["rolls"] += line["rolls"]
        if line["result"]:
            group[line["result"]] += 1
    return sorted(
        groups.values(),
        key=lambda g: (g["character_id"] is not None, g["name"].casefold(), g["character_id"] or 0),
    )


def report_context(advance: TimeAdvance | None, membership) -> dict:
    """What ``characters/_advance_report.html`` needs."""
    return {"report_groups": report_groups(report_lines(advance, membership))}


# --- Pages -----------------------------------------------------------------------------------
@login_required
def advances(request, campaign_id):
    """Every advance of the campaign, newest first, a page at a time, each linking to its
    report. Every member sees the list; the reports are filtered per member."""
    membership = membership_or_404(request.user, campaign_id)
    rows = (
        TimeAdvance.objects.filter(campaign_id=campaign_id)
        .defer("report")
        .select_related("requested_by")
        .order_by("-created_at", "-pk")
    )
    page = Paginator(rows, ADVANCES_PER_PAGE).get_page(request.GET.get("page"))
    context = {"campaign": membership.campaign, "membership": membership, "page": page}
    return render(request, "characters/advances.html", context)


@login_required
def advance_report(request, campaign_id, advance_id):
    """One advance's report: the summary per character, then each character's lines with
    every roll and its dice; a player reads only his own characters' lines."""
    membership = membership_or_404(request.user, campaign_id)
    advance = (
        TimeAdvance.objects.filter(pk=advance_id, campaign_id=campaign_id)
        .select_related("requested_by")
        .first()
    )
    if advance is None:
        raise Http404("No such advance")
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "advance": advance,
        "under_way": advance.status in (TimeAdvance.Status.QUEUED, TimeAdvance.Status.RUNNING),
        **report_context(advance, membership),
    }
    return render(request, "characters/advance_report.html", context)
