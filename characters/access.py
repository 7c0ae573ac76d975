"""Who may see, edit and roll for which character.

* Anyone in the campaign sees its player characters and its non-secret NPCs; a secret NPC is a
  404 for players (they must not learn it exists).
* A player edits and rolls only for the characters they own; the campaign's GMs (GM and
  co-GMs) edit and roll for every character.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import Http404

from campaigns.access import membership_or_404
from campaigns.models import Membership
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


def character_or_404(
    user, campaign_id: int, character_id: int, *, control: bool = False
) -> tuple[Membership, Character]:
    """The membership and the character. ``control``: the user must own the character or be a
    GM (to edit it or roll for it), else 403."""
    # One query for the character, its campaign and owner, and the user's membership.
    character = (
        Character.objects.select_related("campaign", "owner")
        .filter(pk=character_id, campaign_id=campaign_id, campaign__memberships__user=user)
        .annotate(
            viewer_membership_id=F("campaign__memberships__pk"),
            viewer_role=F("campaign__memberships__role"),
        )[:1]
    )
    character = next(iter(character), None)
    if character is None:
        membership_or_404(user, campaign_id)  # 404 "No such campaign" for outsiders
        raise Http404("No such character")
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
