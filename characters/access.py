"""Who may see, edit and roll for which character.

* Anyone in the campaign sees its player characters and its non-secret NPCs; a secret NPC is a
  404 for players (they must not learn it exists).
* A player edits and rolls only for the characters they own; the campaign's GMs (GM and
  co-GMs) edit and roll for every character.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404

from campaigns.access import membership_or_404
from campaigns.models import Campaign, Membership
from characters.models import Character

#: Fields of the sheet a player may change on their own character; the rest are the GM's.
PLAYER_EDITABLE_FIELDS = (
    "name",
    "gender",
    "age",
    "height",
    "background",
    "personality",
    "notes",
    "portrait",
)


def visible_characters(membership: Membership):
    characters = Character.objects.filter(campaign=membership.campaign)
    if not membership.is_gm:
        characters = characters.exclude(kind=Character.Kind.NPC, secret=True)
    return characters


def _character_sql() -> str:
    user = get_user_model()
    return (
        f"SELECT c.*, m.{_col(Membership, 'id')} AS viewer_membership_id,"
        f" m.{_col(Membership, 'role')} AS viewer_role,"
        f" p.{_col(Campaign, 'name')} AS campaign_name,"
        f" p.{_col(Campaign, 'rule_options')} AS campaign_rule_options,"
        f" p.{_col(Campaign, 'created_by')} AS campaign_created_by_id,"
        f" u.{_col(user, 'username')} AS owner_name"
        f" FROM {Character._meta.db_table} c"
        f" JOIN {Campaign._meta.db_table} p ON p.id = c.{_col(Character, 'campaign')}"
        f" JOIN {Membership._meta.db_table} m ON m.{_col(Membership, 'campaign')} = p.id"
        f" AND m.{_col(Membership, 'user')} = %s"
        f" LEFT JOIN {user._meta.db_table} u ON u.id = c.{_col(Character, 'owner')}"
        f" WHERE c.id = %s AND c.{_col(Character, 'campaign')} = %s"
    )


def _col(model, name: str) -> str:
    return model._meta.get_field(name).column


_CHARACTER_SQL = _character_sql()
"""The sheet's first query, written out: the character, the campaign fields a sheet uses, the
owner's name and the viewer's membership in one row. It runs on every sheet, roll and edit
request, and as a queryset its compilation cost more than the query (bench/sheet.py)."""
_json_field = Campaign._meta.get_field("rule_options")


def character_or_404(
    user, campaign_id: int, character_id: int, *, control: bool = False
) -> tuple[Membership, Character]:
    """The membership and the character. ``control``: the user must own the character or be a
    GM (to edit it or roll for it), else 403."""
    character = next(
        iter(Character.objects.raw(_CHARACTER_SQL, [user.pk, character_id, campaign_id])), None
    )
    if character is None:
        membership_or_404(user, campaign_id)  # 404 "No such campaign" for outsiders
        raise Http404("No such character")
    character.campaign = Campaign(
        pk=campaign_id,
        name=character.campaign_name,
        rule_options=_json_field.from_db_value(character.campaign_rule_options, None, connection),
        created_by_id=character.campaign_created_by_id,
    )
    if character.owner_id is not None:
        character.owner = get_user_model()(pk=character.owner_id, username=character.owner_name)
    membership = Membership(
        pk=character.viewer_membership_id,
        campaign=character.campaign,
        user=user,
        role=character.viewer_role,
    )
    if character.secret and character.is_npc and not membership.is_gm:
        raise Http404("No such character")  # players never learn a secret NPC exists
    if control and not can_control(membership, character):
        raise PermissionDenied("Only the character's player or a GM can do that.")
    return membership, character


def can_control(membership: Membership, character: Character) -> bool:
    return membership.is_gm or character.owner_id == membership.user_id
