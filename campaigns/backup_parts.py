"""The campaign's own parts of a backup (:mod:`campaigns.backup`, the format in
``docs/backup-format.md``): members, removals, adventures and library entries, registered
first by ``CampaignsConfig.ready()``. Invitations are not exported: their tokens are secrets,
and a link to the old server means nothing on a new one."""

from __future__ import annotations

from typing import Any

from campaigns.backup import Loader, Part, Table
from campaigns.models import Adventure, LibraryEntry, Membership, Removal


def _ensure_game_master(loader: Loader) -> None:
    """The importing user runs the new campaign: their membership from the file becomes
    game master's, or one is added."""
    campaign, importer = loader.campaign, loader.importer
    membership = Membership.objects.filter(campaign=campaign, user=importer).first()
    if membership is None:
        Membership.objects.create(campaign=campaign, user=importer, role=Membership.Role.GM)
    elif membership.role != Membership.Role.GM:
        loader.note(
            f"You were {membership.get_role_display().lower()} in the file; you are a game "
            "master of the restored campaign."
        )
        membership.role = Membership.Role.GM
        membership.save(update_fields=["role"])


def _one_running_adventure(loader: Loader, values: dict[str, Any], where: str, ref) -> None:
    end, start = values["end_day"], values["start_day"]
    if end is None:
        if "running" in loader.scratch.setdefault("adventures", {}):
            first = loader.scratch["adventures"]["running"]
            loader.problem(f"{where}.end_day", f"only one adventure runs at a time ({first} runs)")
        else:
            loader.scratch["adventures"]["running"] = where
    elif end < start:
        loader.problem(f"{where}.end_day", f"day {end} is before its start, day {start}")


def _library_entry(loader: Loader, values: dict[str, Any], where: str, ref) -> None:
    try:
        from rules.library import LibraryError, check_entry
    except ImportError:  # pragma: no cover - the library arrives with issue 17
        if not isinstance(values["data"], dict):
            loader.problem(f"{where}.data", "a library entry is a JSON object")
        return
    try:
        values["data"] = check_entry(values["kind"], values["data"])
    except LibraryError as exc:
        place = f"{where}.data" + (f".{exc.where}" if exc.where else "")
        loader.problem(place, exc.detail)
        return
    if values["data"].get("name") != values["name"]:
        loader.problem(
            f"{where}.name", f"{values['name']!r} is not the entry's data.name {values['data']}"
        )


PARTS = (
    Part(
        "members",
        Table(
            Membership,
            ("user", "role", "joined_at"),
            unique=(("user",),),
            users={"user": "skip"},
        ),
        rows=lambda campaign: campaign.memberships.all(),
        restored=_ensure_game_master,
    ),
    Part(
        "removals",
        Table(
            Removal,
            ("user", "removed_by", "removed_at"),
            unique=(("user",),),
            users={"user": "skip"},
        ),
        rows=lambda campaign: campaign.removals.all(),
    ),
    Part(
        "adventures",
        Table(
            Adventure,
            ("name", "start_day", "end_day", "created_at"),
            check=_one_running_adventure,
        ),
        rows=lambda campaign: campaign.adventures.all(),
    ),
    Part(
        "library",
        Table(
            LibraryEntry,
            ("kind", "name", "data", "source", "copied_from", "created_by", "created_at"),
            unique=(("kind", "name"),),
            folded=("name",),
            check=_library_entry,
        ),
        rows=lambda campaign: campaign.library.all(),
    ),
)
"""The campaign's own parts, registered first by ``CampaignsConfig.ready()``."""
