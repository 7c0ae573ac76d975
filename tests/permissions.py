"""The permission matrix: every URL of the project, for each kind of visitor.

A row is (URL name, method, how to build its arguments from the scenario, and the expected
status for anonymous, outsider, player and GM). Later issues add rows for their URLs;
``test_every_url_is_in_the_matrix`` fails until they do.

Expected values: an int status, or "login" for a redirect to the log-in page.
"""

from dataclasses import dataclass, field

LOGIN = "login"


@dataclass(frozen=True)
class Row:
    name: str
    method: str = "get"
    args: tuple[str, ...] = ()  # names of scenario attributes, in URL order
    anonymous: int | str = LOGIN
    outsider: int | str = 404
    player: int | str = 200
    gm: int | str = 200
    data: dict = field(default_factory=dict)


ROWS: list[Row] = [
    # Public and account pages
    Row("home", anonymous=200, outsider=200),
    Row("healthz", anonymous=200, outsider=200),
    Row("signup", anonymous=200, outsider=302, player=302, gm=302),
    Row("login", anonymous=200, outsider=200),
    Row("logout", "post", anonymous=302, outsider=302, player=302, gm=302),
    Row("password_change", outsider=200),
    Row("password_change_done", outsider=200),
    Row("password_reset", anonymous=200, outsider=200),
    Row("password_reset_done", anonymous=200, outsider=200),
    Row(
        "password_reset_confirm",
        args=("uidb64", "token"),
        anonymous=302,
        outsider=200,
        player=302,
        gm=302,
    ),
    Row("password_reset_complete", anonymous=200, outsider=200),
    # Campaigns
    Row("campaigns:create", outsider=200),
    Row("campaigns:detail", args=("campaign",)),
    Row("campaigns:edit", args=("campaign",), player=403),
    Row("campaigns:rules", args=("campaign",), player=403),
    Row("campaigns:leave", "post", args=("campaign",), player=302, gm=302),
    Row(
        "campaigns:invitation_create",
        "post",
        args=("campaign",),
        player=403,
        gm=302,
        data={"days": 7},
    ),
    Row("campaigns:invitation_revoke", "post", args=("campaign", "invitation"), player=403, gm=302),
    Row(
        "campaigns:member_role",
        "post",
        args=("campaign", "other_member"),
        player=403,
        gm=302,
        data={"role": "co_gm"},
    ),
    Row("campaigns:member_remove", "post", args=("campaign", "other_member"), player=403, gm=302),
    # The scenario has no removal: the GM gets the 404 of an unknown removal (the real lifting
    # is tested in campaigns/tests/test_join.py).
    Row("campaigns:removal_allow", "post", args=("campaign", "other_member"), player=403, gm=404),
    # Characters: "character" belongs to the player; "others_character" to another player.
    Row("characters:list", args=("campaign",)),
    Row("characters:dice_log", args=("campaign",)),
    Row("characters:live", args=("campaign",)),
    Row("characters:sheet", args=("campaign", "character")),
    Row("characters:sheet", args=("campaign", "secret_npc"), player=404),
    Row("characters:edit", args=("campaign", "character")),
    Row("characters:edit", args=("campaign", "others_character"), player=403),
    Row("characters:roll", args=("campaign", "character"), data={"trait": "attr:dexterity"}),
    Row(
        "characters:roll",
        "post",
        args=("campaign", "others_character"),
        player=403,
        gm=302,
        data={"trait": "attr:dexterity", "actions": 1, "modifier": 0, "cp": 0},
    ),
    Row(
        "characters:roll",
        "post",
        args=("campaign", "character"),
        player=302,
        gm=302,
        data={"trait": "attr:dexterity", "actions": 1, "modifier": 0, "cp": 0},
    ),
    Row("characters:ledger", args=("campaign", "character")),
    Row("characters:ledger", args=("campaign", "others_character"), player=403),
    Row(
        "characters:award",
        "post",
        args=("campaign", "character"),
        player=403,
        gm=302,
        data={"currency": "cp", "delta": 1, "reason": "test"},
    ),
    Row("characters:delete", args=("campaign", "character")),
    Row("characters:delete", args=("campaign", "others_character"), player=403),
    # The creation wizard: "draft" is the player's own draft; nobody else may see it.
    Row("characters:wizard_start", args=("campaign",)),
    Row(
        "characters:wizard_start",
        "post",
        args=("campaign",),
        player=302,
        gm=302,
        data={"kind": "pc"},
    ),
    Row("characters:wizard_step", args=("campaign", "draft", "draft_step"), gm=404),
    Row("characters:wizard_discard", "post", args=("campaign", "draft"), player=302, gm=404),
    # The join link is meant for outsiders; members are sent to the campaign.
    # Anonymous visitors see which campaign invites them, with log-in and sign-up links.
    Row("campaigns:join", args=("token",), anonymous=200, outsider=200, player=302, gm=302),
]
