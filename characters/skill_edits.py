"""The GM's hand edits of the skills on a sheet: add, change or remove any skill or
specialization. An audited change (:class:`characters.models.SkillEdit`), not an advancement:
no Character Points, no training. Players cannot make them."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from characters import live
from characters.advancement import NotAllowed, _clean_name, _public, _require_gm
from characters.fields import parse_sheet_code
from characters.models import Character, Skill, SkillEdit
from rules import DieCode, RulesError
from rules.traits import ATTRIBUTES

__all__ = ["NotAllowed", "SkillEditError", "gm_remove_skill", "gm_set_skill"]

_ATTRIBUTES = (*ATTRIBUTES, "force")


class SkillEditError(RulesError):
    """A skill edit that cannot be made, with the reason. Nothing was changed."""


def _code(value: object) -> DieCode:
    if not isinstance(value, (str, DieCode)):
        raise SkillEditError("write the skill's code like 4D+2")
    try:
        code = parse_sheet_code(value)
    except ValidationError as exc:
        raise SkillEditError(" ".join(exc.messages)) from None
    if code.total_pips < 1:
        raise SkillEditError("a skill's code is at least 0D+1; remove the skill instead")
    return code


def _checked(
    name: object, code: object, attribute: object, kind: object, base_skill: object
) -> tuple[str, DieCode, str, str, str]:
    try:
        name = _clean_name(name, "the skill")
        base = "" if base_skill in (None, "") else _clean_name(base_skill, "the base skill")
    except RulesError as exc:
        raise SkillEditError(str(exc)) from None
    if attribute not in _ATTRIBUTES:
        raise SkillEditError(f"choose the skill's attribute: {', '.join(_ATTRIBUTES)}")
    if kind not in Skill.Kind.values:
        raise SkillEditError(f"choose the kind of skill: {', '.join(Skill.Kind.values)}")
    if (kind == Skill.Kind.FORCE) != (attribute == "force"):
        raise SkillEditError("a Force skill, and only a Force skill, goes under the Force")
    if base and kind != Skill.Kind.SPECIALIZATION:
        raise SkillEditError("only a specialization names the skill it specializes")
    return name, _code(code), str(attribute), str(kind), base


def gm_set_skill(
    character: Character,
    *,
    actor: Any,
    name: str,
    code: DieCode | str,
    attribute: str,
    kind: str,
    base_skill: str | None = None,
    skill: Skill | None = None,
) -> Skill:
    """Add a skill (``skill`` None) or change ``skill`` on the sheet: its name, code,
    attribute, kind and base skill. Only a GM of the campaign; recorded as a SkillEdit. A
    change that changes nothing records nothing."""
    name, new_code, attribute, kind, base = _checked(name, code, attribute, kind, base_skill)
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=character.pk)
        _require_gm(locked.campaign_id, actor, "edit skills on a sheet")
        same_name = Skill.objects.filter(character=locked, name__iexact=name)
        if skill is not None:
            same_name = same_name.exclude(pk=skill.pk)
        if same_name.exists():
            raise SkillEditError(f"{locked.name} already has a skill called {name}")
        if skill is None:
            row = Skill.objects.create(
                character=locked,
                name=name,
                code=new_code,
                attribute=attribute,
                kind=kind,
                base_skill=base,
            )
            SkillEdit.objects.create(
                character=locked,
                actor=actor,
                action=SkillEdit.Action.ADD,
                skill_name=name,
                after=str(new_code),
                detail=_describe(row),
            )
        else:
            row = Skill.objects.select_for_update().filter(pk=skill.pk, character=locked).first()
            if row is None:
                raise SkillEditError(f"that skill is not on {locked.name}'s sheet")
            before_code, before = row.code, _describe(row)
            old_name = row.name
            row.name, row.code, row.attribute, row.kind, row.base_skill = (
                name,
                new_code,
                attribute,
                kind,
                base,
            )
            after = _describe(row)
            if (old_name, before_code, before) == (name, new_code, after):
                return row
            row.save()
            detail = after if before == after else f"{before} → {after}"
            if old_name != name:
                detail = f"renamed from {old_name}; {detail}"
            SkillEdit.objects.create(
                character=locked,
                actor=actor,
                action=SkillEdit.Action.CHANGE,
                skill_name=name,
                before=str(before_code),
                after=str(new_code),
                detail=detail[: SkillEdit._meta.get_field("detail").max_length],
            )
        live.bump(locked.campaign_id, public=_public(locked))
    return row


def gm_remove_skill(skill: Skill, *, actor: Any) -> None:
    """Remove a skill or specialization from its sheet; only a GM; recorded as a SkillEdit."""
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=skill.character_id)
        _require_gm(locked.campaign_id, actor, "remove skills from a sheet")
        row = Skill.objects.select_for_update().filter(pk=skill.pk, character=locked).first()
        if row is None:
            raise SkillEditError(f"that skill is no longer on {locked.name}'s sheet")
        SkillEdit.objects.create(
            character=locked,
            actor=actor,
            action=SkillEdit.Action.REMOVE,
            skill_name=row.name,
            before=str(row.code),
            detail=_describe(row),
        )
        row.delete()
        live.bump(locked.campaign_id, public=_public(locked))


def _describe(skill: Skill) -> str:
    """The kind, attribute and base skill, in words (the name and code have their columns)."""
    words = f"{Skill.Kind(skill.kind).label.lower()} under {skill.attribute}"
    return f"{words}, of {skill.base_skill}" if skill.base_skill else words
