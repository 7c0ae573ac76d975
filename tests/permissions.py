"""The permission matrix: every URL of the project, for each kind of visitor.

A row is (URL name, method, how to build its arguments from the scenario, and the expected
status for anonymous, outsider, player and GM). Later issues add rows for their URLs;
``test_every_url_is_in_the_matrix`` fails until they do.

Expected values: an int status, or "login" for a redirect to the log-in page. A text value of
``data`` may name scenario attributes in braces (``"pc-{character}"``): see :func:`filled`.
"""

from dataclasses import dataclass, field

LOGIN = "login"
HX = {"HX-Request": "true"}
"""The header HTMX sends: the encounter's steps answer it with the pieces that changed."""


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
    headers: dict = field(default_factory=dict)


def filled(data: dict, scenario) -> dict:
    """The row's data with ``{name}`` in its texts replaced by the scenario's attribute (ids
    known only once the scenario exists, such as a combatant's ``pc-<character pk>``)."""
    names = vars(scenario)
    return {k: v.format_map(names) if isinstance(v, str) else v for k, v in data.items()}


# The scenario's encounter is at version 1 (one step taken: the stormtrooper took cover), in
# the round, the player's character "pc-{character}" and the NPC "sb-stormtrooper-1" having
# declared their actions.
ENCOUNTER = ("campaign", "encounter")
OWN_ATTACK = {
    # What the player's attack form sends: a target and a range band (the GM's numbers, the
    # difficulty and the bonuses, left empty: the band's standard difficulty applies).
    "seen": 1,
    "type": "attack",
    "attacker": "pc-{character}",
    "target": "sb-stormtrooper-1",
    "range_band": "short",
    "cp_dice": 0,
    "difficulty": "",
    "attack_bonus": "",
    "damage_bonus": "",
}
GMS_NUMBERS = [{"difficulty": 1}, {"attack_bonus": "30D"}, {"damage_bonus": "30D"}]
"""What only the GM sets on an attack. A player posting them (difficulty 1, +30D) must be
refused: a polished app does not let a player set his own odds."""
STAT_BLOCK = {
    "which": "statblock",
    "sb-name": "Stormtrooper",
    "sb-count": 2,
    "sb-side": "empire",
    "sb-perception": "2D",
    "sb-dexterity": "2D",
    "sb-strength": "2D",
    "sb-skills": "blaster 4D, dodge 3D",
    "sb-weapon_name": "blaster rifle",
    "sb-weapon_damage": "5D",
    "sb-weapon_skill": "blaster",
    "sb-weapon_ranges": "3-30/100/300",
    "sb-armour": "+1D",
    "sb-scale": "character",
}

CRAFT_ADD = {"catalogue": "Corellian Corvette", "name": "Tantive", "owner": "party"}
CRAFT = {
    "name": "Stellar Envoy",
    "kind": "starship",
    "scale": "starfighter",
    "maneuverability": "1D",
    "hull": "4D",
    "shields": "1D",
    "weapons": "Laser cannon | 2D | 4D | turret | 1-3/12/25 | 1",
}
CREW = {"station": "{pilot_station}", "character": "{character}"}
CRAFT_ROLL = {"actions": 1, "modifier": 0, "cp": 0}

DROID = {
    "kind": "pc",
    "name": "R5-K6",
    "model": "R5 astromech",
    **dict.fromkeys(
        ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical"), "1D"
    ),
    "speed": "",
    "armor": "0D",
    "skills-TOTAL_FORMS": 1,
    "skills-INITIAL_FORMS": 0,
    "skills-0-name": "starship repair",
    "skills-0-attribute": "technical",
    "skills-0-code": "4D",
    "items-TOTAL_FORMS": 1,
    "items-INITIAL_FORMS": 0,
    "items-0-name": "video sensor",
    "items-0-quantity": 1,
    "items-0-features": 0,
    "items-0-vision": "on",
}
"""A droid the builder accepts: a player's droid (the player's own; a GM's own when no player
is chosen), 4D of its 65D spent."""
IMPROVE = {"what": "attribute:dexterity", "teacher": "on", "extra_cp": 0}
"""A quote (no "confirm"): the scenario's characters hold no CP to pay for anything."""
AWARD = {
    "reason": "End of the Tocarra Job",
    "awards-TOTAL_FORMS": 1,
    "awards-INITIAL_FORMS": 1,
    "awards-0-character": "{character}",
    "awards-0-cp": 2,
}
"""The end of an adventure: 2 CP for the player's character."""


COMLINK = {"name": "Comlink", "cost": 25, "description": "Personal communicator."}
"""The scenario's one library entry (gear): the GM edits it with this data."""
MEDPAC = {"name": "Medpac", "cost": 100, "availability": "1"}
"""A new piece of gear for the library."""


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
    # Backups: only a GM downloads one; anyone logged in may restore one as a new campaign
    # (posted without a file: the form's error, 400, nothing created).
    Row("campaigns:backup", args=("campaign",), player=403),
    Row("campaigns:restore", outsider=200),
    Row("campaigns:restore", "post", outsider=400, player=400, gm=400),
    # A restore job (the scenario's GM uploaded it): only its uploader sees it.
    Row("campaigns:restore_job", args=("restore_job",), outsider=404, player=404),
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
    # The campaign's library (issue 17): every member reads and exports it; only a GM adds,
    # edits, deletes (after a confirmation page) and imports. The scenario's library holds one
    # gear entry, "library_entry"; an import without a file is refused with the reason.
    Row("campaigns:library", args=("campaign",)),
    Row("campaigns:library_export", args=("campaign",)),
    Row("campaigns:library_import", args=("campaign",), player=403),
    Row("campaigns:library_import", "post", args=("campaign",), player=403, gm=400),
    Row("campaigns:library_add", args=("campaign", "library_kind"), player=403),
    Row(
        "campaigns:library_add",
        "post",
        args=("campaign", "library_kind"),
        player=403,
        gm=302,
        data=MEDPAC,
    ),
    Row("campaigns:library_edit", args=("campaign", "library_entry"), player=403),
    Row(
        "campaigns:library_edit",
        "post",
        args=("campaign", "library_entry"),
        player=403,
        gm=302,
        data=COMLINK,
    ),
    Row("campaigns:library_delete", args=("campaign", "library_entry"), player=403),
    Row(
        "campaigns:library_delete",
        "post",
        args=("campaign", "library_entry"),
        player=403,
        gm=302,
        data={"confirm": "delete"},
    ),
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
    # The GM's approval of new characters (issue 17): the player sends or withdraws his own
    # draft (the scenario's is incomplete and not sent: both refused with a message, 302);
    # only a GM sees the queue; a draft never sent is its player's alone (404 even to the GM).
    Row("characters:draft_submit", "post", args=("campaign", "draft"), player=302, gm=404),
    Row("characters:draft_withdraw", "post", args=("campaign", "draft"), player=302, gm=404),
    Row("characters:draft_queue", args=("campaign",), player=404),
    Row("characters:draft_review", args=("campaign", "draft"), player=404, gm=404),
    Row("characters:draft_approve", "post", args=("campaign", "draft"), player=404, gm=404),
    Row(
        "characters:draft_return",
        "post",
        args=("campaign", "draft"),
        player=404,
        gm=404,
        data={"reason": "Fix the skills"},
    ),
    # Importing a character from another D6 tool's file (issue 17): any member; an empty POST
    # is refused with a message (400), a character's JSON opens a draft on the review (302).
    Row("characters:import_character", args=("campaign",)),
    Row("characters:import_character", "post", args=("campaign",), player=400, gm=400),
    Row(
        "characters:import_character",
        "post",
        args=("campaign",),
        player=302,
        gm=302,
        # braces doubled: row data is filled with str.format
        data={"text": '{{"info": {{"name": "Imported"}}, "attrs": {{}}}}'},
    ),
    # Ships and vehicles (issue 18): everyone in the campaign reads them; only the GM adds
    # craft (from the catalogue or his own stat block). A player crews a party craft's station
    # with his own character (302) but not another player's craft (403, with the reason); he
    # rolls for his own crew member, not for another player's.
    Row("characters:craft_list", args=("campaign",)),
    Row("characters:craft_add", "post", args=("campaign",), player=403, gm=302, data=CRAFT_ADD),
    Row("characters:craft_new", args=("campaign",), player=403),
    Row("characters:craft_new", "post", args=("campaign",), player=403, gm=302, data=CRAFT),
    Row("characters:craft_sheet", args=("campaign", "craft")),
    Row("characters:craft_crew", "post", args=("campaign", "craft"), player=302, gm=302, data=CREW),
    Row(
        "characters:craft_crew",
        "post",
        args=("campaign", "others_craft"),
        player=403,
        gm=302,
        data={"station": "{others_pilot_station}", "character": "{character}"},
    ),
    Row("characters:craft_delete", args=("campaign", "others_craft"), player=403),
    Row(
        "characters:craft_delete",
        "post",
        args=("campaign", "others_craft"),
        player=403,
        gm=302,
        data={"confirm_name": "Corellian Corvette"},
    ),
    Row("characters:craft_roll", args=("campaign", "craft", "pilot_station")),
    Row(
        "characters:craft_roll",
        "post",
        args=("campaign", "craft", "pilot_station"),
        data=CRAFT_ROLL,
    ),
    Row(
        "characters:craft_roll",
        args=("campaign", "others_craft", "others_pilot_station"),
        player=403,
    ),
    # Damage and repairs of a craft (issue 18): the GM edits the stat block, records a hit and
    # clears damage; a player asks for a repair of the party craft (not of another player's:
    # 403); the engineer's player (the scenario's character) or the GM rolls it; whoever asked
    # (the GM) or the GM cancels it.
    Row("characters:craft_edit", args=("campaign", "craft"), player=403),
    Row(
        "characters:craft_edit", "post", args=("campaign", "craft"), player=403, gm=302, data=CRAFT
    ),
    Row(
        "characters:craft_hit",
        "post",
        args=("campaign", "craft"),
        player=403,
        gm=302,
        data={"damage_roll": 12, "resist_roll": 6},
    ),
    Row("characters:craft_clear", "post", args=("campaign", "craft"), player=403, gm=302),
    # No hit recorded in the scenario: nothing to undo (400, with the reason).
    Row("characters:craft_undo", "post", args=("campaign", "craft"), player=403, gm=400),
    Row(
        "characters:craft_repair",
        "post",
        args=("campaign", "craft"),
        player=302,
        gm=302,
        data={"entry": "shields", "hired": 1, "payer": ""},
    ),
    Row(
        "characters:craft_repair",
        "post",
        args=("campaign", "others_craft"),
        player=403,
        gm=400,
        data={"entry": "shields", "hired": 1, "payer": ""},
    ),
    Row(
        "characters:craft_repair_resolve",
        "post",
        args=("campaign", "craft", "repair"),
        player=302,
        gm=302,
    ),
    Row(
        "characters:craft_repair_cancel",
        "post",
        args=("campaign", "craft", "repair"),
        player=403,
        gm=302,
    ),
    # A repair worked in downtime (issue 19): the party's open repair, the player's character at
    # the engineer station; the owner or a party member (the player) or the GM starts it. The
    # scenario's repair is open, not under way: stopping or resuming it is refused (400).
    Row(
        "characters:craft_repair_job",
        "post",
        args=("campaign", "craft", "repair"),
        player=302,
        gm=302,
        data={"pace": "normal"},
    ),
    Row(
        "characters:craft_repair_job",
        "post",
        args=("campaign", "others_craft", "repair"),
        player=404,
        gm=404,
        data={"pace": "normal"},
    ),
    Row(
        "characters:craft_repair_job_cancel",
        args=("campaign", "craft", "repair"),
        player=400,
        gm=400,
    ),
    Row(
        "characters:craft_repair_job_cancel",
        "post",
        args=("campaign", "craft", "repair"),
        player=400,
        gm=400,
    ),
    Row(
        "characters:craft_repair_job_resume",
        "post",
        args=("campaign", "craft", "repair"),
        player=400,
        gm=400,
    ),
    # A craft's travel and movement (issue 18): everyone reads it; the pilot's movement roll
    # and a navigator's astrogation by that character's player or the GM (another player: 403).
    Row("characters:craft_travel", args=("campaign", "craft")),
    # A long run's body strength rolls (V25): the GM's.
    Row(
        "characters:craft_long_run",
        "post",
        args=("campaign", "craft"),
        player=403,
        gm=302,
        data={"speed": "all_out", "minutes": 10},
    ),
    Row(
        "characters:craft_travel_move",
        "post",
        args=("campaign", "craft"),
        data={"move-speed_actions": 1, "move-difficulty": 10},
    ),
    Row(
        "characters:craft_travel_move",
        "post",
        args=("campaign", "others_craft"),
        player=403,
        data={"move-speed_actions": 1, "move-difficulty": 10},
    ),
    Row(
        "characters:craft_travel_astrogate",
        "post",
        args=("campaign", "craft"),
        data={
            "astro-navigator": "{pilot_station}",
            "astro-situation": "known_systems",
            "astro-difficulty": 15,
        },
    ),
    # Plan an improvement (issue 18): the quote for a character's weapon or armour (its player
    # or a GM) and for a craft's code (a GM, its owner's player, any player for a party craft).
    # GET only: a quote commits nothing; a refused quote is a 400 with the reason.
    Row("characters:item_quote", args=("campaign", "character")),
    Row("characters:item_quote", args=("campaign", "others_character"), player=403),
    Row("characters:craft_quote", args=("campaign", "craft")),
    Row("characters:craft_quote", args=("campaign", "others_craft"), player=403),
    Row(
        "characters:craft_quote",
        args=("campaign", "craft"),
        player=400,
        gm=400,
        data={"stat": "move", "target": "99"},
    ),
    # Starting the quoted improvement as a downtime project (issue 19): a POST to the same
    # page. The scenario's characters carry no weapon and the move quote is refused, so each
    # start is a 400 with the reason (another player's character: 403). The scenario has no
    # project: pausing one is a 404 for members.
    Row(
        "characters:item_quote",
        "post",
        args=("campaign", "character"),
        player=400,
        gm=400,
        data={"stat": "damage", "item": "1", "target": "5D", "skill": "4D"},
    ),
    Row(
        "characters:item_quote",
        "post",
        args=("campaign", "others_character"),
        player=403,
        gm=400,
        data={"stat": "damage", "item": "1", "target": "5D", "skill": "4D"},
    ),
    Row(
        "characters:craft_quote",
        "post",
        args=("campaign", "craft"),
        player=400,
        gm=400,
        data={"stat": "move", "target": "99", "skill": "4D", "worker": "{character}"},
    ),
    Row(
        "characters:project_change",
        "post",
        args=("campaign", "character"),
        player=404,
        gm=404,
        data={"action": "pause"},
    ),
    # The droid builder (issue 18): any member opens it; a player builds his own droid (302 to
    # its sheet), a GM any; only a GM builds an NPC droid (a player: 403, with the reason).
    Row("characters:droid_builder", args=("campaign",)),
    Row("characters:droid_builder", "post", args=("campaign",), player=302, gm=302, data=DROID),
    Row(
        "characters:droid_builder",
        "post",
        args=("campaign",),
        player=403,
        gm=302,
        data={**DROID, "kind": "npc"},
    ),
    # Advancement from the sheet (issue 16): the player improves his own character, the GM any;
    # the scenario has no request, so withdrawing "{character}" is a 404. A POST without
    # "confirm" only shows the quote. Only a GM edits skills (the scenario's character has
    # none: removing one is a 404).
    # Healing between adventures (issue 19): every member sees the panel; the player (or a GM)
    # puts his own character in a bacta tank and sets his CP per healing roll. The scenario's
    # characters are unhurt, so bacta is refused with the reason (400); only a GM decides a
    # flagged death (there is none: 400).
    # A droid's repair panel (issue 19): every member who sees the sheet sees it; the
    # scenario's characters are not droids, so a start is refused with the reason (400), on
    # another player's character 403 for the player; there is no droid repair to stop (404).
    Row("characters:droid_repair", args=("campaign", "character")),
    Row("characters:droid_repair", args=("campaign", "character"), headers=HX),
    Row("characters:droid_repair", args=("campaign", "secret_npc"), player=404),
    Row(
        "characters:droid_repair_start",
        "post",
        args=("campaign", "character"),
        player=400,
        gm=400,
        data={"engineer": "{character}", "pace": "normal"},
    ),
    Row(
        "characters:droid_repair_start",
        "post",
        args=("campaign", "others_character"),
        player=403,
        gm=400,
        data={"pace": "normal"},
    ),
    Row(
        "characters:droid_repair_cancel",
        args=("campaign", "character", "repair"),
        player=404,
        gm=404,
    ),
    Row(
        "characters:droid_repair_cancel",
        "post",
        args=("campaign", "others_character", "repair"),
        player=403,
        gm=404,
    ),
    Row(
        "characters:droid_repair_resume",
        "post",
        args=("campaign", "character", "repair"),
        player=404,
        gm=404,
    ),
    Row("characters:healing", args=("campaign", "character")),
    Row("characters:healing", args=("campaign", "others_character")),
    Row("characters:healing", args=("campaign", "character"), headers=HX),
    Row(
        "characters:healing_bacta",
        "post",
        args=("campaign", "character"),
        player=400,
        gm=400,
        data={"code": "4D", "medicine": "on"},
    ),
    Row(
        "characters:healing_bacta",
        "post",
        args=("campaign", "others_character"),
        player=403,
        gm=400,
        data={"code": "4D"},
    ),
    Row(
        "characters:healing_cp",
        "post",
        args=("campaign", "character"),
        player=302,
        gm=302,
        data={"cp": 1},
    ),
    Row(
        "characters:healing_cp",
        "post",
        args=("campaign", "others_character"),
        player=403,
        gm=302,
        data={"cp": 1},
    ),
    Row(
        "characters:healing_decide",
        "post",
        args=("campaign", "character"),
        player=403,
        gm=400,
        data={"decision": "confirm"},
    ),
    # Medpacs, activity and [RC] Accelerate Healing between fights (issue 19): the unhurt
    # scenario characters have nothing a medpac heals (400, with the reason); the activity is
    # his player's or a GM's; only a GM marks Accelerate Healing (a 2E campaign: 400).
    Row(
        "characters:healing_medpac",
        "post",
        args=("campaign", "character"),
        player=400,
        gm=400,
        data={"aider": "{character}"},
    ),
    Row(
        "characters:healing_medpac",
        "post",
        args=("campaign", "others_character"),
        player=400,  # his own medic may treat a companion: unhurt, nothing to heal
        gm=400,
        data={"aider": "{character}"},
    ),
    Row(
        "characters:healing_activity",
        "post",
        args=("campaign", "character"),
        player=302,
        gm=302,
        data={"activity": "easy"},
    ),
    Row(
        "characters:healing_activity",
        "post",
        args=("campaign", "others_character"),
        player=403,
        gm=302,
        data={"activity": "easy"},
    ),
    Row(
        "characters:healing_accelerate",
        "post",
        args=("campaign", "character"),
        player=403,
        gm=400,
    ),
    # [HOUSE] schools (issue 19): every member sees the page and a sheet's "At school" line;
    # only a GM defines, edits, closes (a player: 403). The scenario's campaign is not under
    # the House Rules, so the GM's new school is refused with the reason (400); it has no
    # school or enrolment, so the rest are 404s for members (the campaign's id stands in).
    Row("characters:schools", args=("campaign",)),
    Row("characters:schools", args=("campaign",), headers=HX),
    Row(
        "characters:school_new",
        "post",
        args=("campaign",),
        player=403,
        gm=400,
        data={"name": "NCO", "weeks": 3, "cp_cost": 5, "bonuses": "Perception: command +2"},
    ),
    Row("characters:school_edit", args=("campaign", "campaign"), player=403, gm=404),
    Row(
        "characters:school_edit",
        "post",
        args=("campaign", "campaign"),
        player=403,
        gm=404,
        data={"name": "NCO", "weeks": 3, "cp_cost": 5, "bonuses": "Perception: command +2"},
    ),
    Row(
        "characters:school_open",
        "post",
        args=("campaign", "campaign"),
        player=403,
        gm=404,
        data={"open": "0"},
    ),
    Row(
        "characters:school_enrol",
        "post",
        args=("campaign", "campaign"),
        player=404,
        gm=404,
        data={"character": "{character}", "payment": "owe"},
    ),
    Row("characters:school_withdraw", "post", args=("campaign", "campaign"), player=404, gm=404),
    Row("characters:character_school", args=("campaign", "character")),
    Row("characters:character_school", args=("campaign", "others_character"), headers=HX),
    Row("characters:improve", args=("campaign", "character")),
    Row("characters:improve", args=("campaign", "others_character"), player=403),
    Row("characters:improve", "post", args=("campaign", "character"), data=IMPROVE),
    Row(
        "characters:improve",
        "post",
        args=("campaign", "others_character"),
        player=403,
        gm=400,  # the GM may ask, but the character holds no CP: refused, with the reason
        data={**IMPROVE, "confirm": "attribute:30:210"},
    ),
    Row("characters:advancements", args=("campaign", "character")),
    Row("characters:advancements", args=("campaign", "others_character"), player=403),
    Row("characters:advancements", args=("campaign", "character"), headers=HX),
    Row(
        "characters:withdraw",
        "post",
        args=("campaign", "character"),
        player=404,
        gm=404,
        data={"advancement": "{character}"},
    ),
    Row(
        "characters:withdraw",
        "post",
        args=("campaign", "others_character"),
        player=403,
        gm=404,
        data={"advancement": "{character}"},
    ),
    Row("characters:skills", args=("campaign", "character"), player=403),
    Row(
        "characters:skills",
        "post",
        args=("campaign", "character"),
        player=403,
        gm=302,
        data={"name": "sneak", "code": "3D+1", "attribute": "perception", "kind": "skill"},
    ),
    Row(
        "characters:skill_remove",
        args=("campaign", "character"),
        player=403,
        gm=404,
        data={"skill": "{character}"},
    ),
    Row(
        "characters:skill_remove",
        "post",
        args=("campaign", "character"),
        player=403,
        gm=404,
        data={"skill": "{character}"},
    ),
    # The calendar: every member sees it (and an advance's progress, by HTMX); only a GM acts.
    # The scenario has no adventure (ending one is refused, 400) and no request to decide.
    Row("characters:calendar", args=("campaign",)),
    Row(
        "characters:calendar_settings",
        "post",
        args=("campaign",),
        player=403,
        gm=302,
        data={"era": "8 BBY", "approve_advancement": "on"},
    ),
    Row(
        "characters:adventure_start",
        "post",
        args=("campaign",),
        player=403,
        gm=302,
        data={"name": "The Tocarra Job"},
    ),
    Row(
        "characters:adventure_end",
        "post",
        args=("campaign",),
        player=403,
        gm=400,
        data={"adventure": "{campaign}"},
    ),
    Row("characters:awards", args=("campaign",), player=403),
    Row("characters:awards", "post", args=("campaign",), player=403, gm=302, data=AWARD),
    Row("characters:advance", args=("campaign",)),
    Row("characters:advance", args=("campaign",), headers=HX),
    Row(
        "characters:advance",
        "post",
        args=("campaign",),
        player=403,
        gm=302,
        data={"days": 5, "from_day": 0},
    ),
    # Every advance of time and each one's report: any member (a player reads only his own
    # characters' lines: characters/tests/test_advance_report.py); another campaign's is a 404.
    Row("characters:advances", args=("campaign",)),
    Row("characters:advance_report", args=("campaign", "time_advance")),
    Row(
        "characters:advance_report",
        args=("campaign", "foreign_time_advance"),
        player=404,
        gm=404,
    ),
    # The GM ticks skills used in the adventure; the scenario has none (a tick is refused, 400).
    Row("characters:trait_uses", args=("campaign",), player=403),
    Row(
        "characters:trait_uses",
        "post",
        args=("campaign",),
        player=403,
        gm=400,
        data={"adventure": 1, "character": "{character}", "trait": "dexterity", "used": "1"},
    ),
    Row("characters:approvals", args=("campaign",), player=403),
    Row(
        "characters:approvals",
        "post",
        args=("campaign",),
        player=403,
        gm=404,
        data={"advancement": "{character}", "decision": "refuse", "reason": "No teacher"},
    ),
    # The join link is meant for outsiders; members are sent to the campaign.
    # Anonymous visitors see which campaign invites them, with log-in and sign-up links.
    Row("campaigns:join", args=("token",), anonymous=200, outsider=200, player=302, gm=302),
    # Encounters: every member sees the fight (a player without NPCs' numbers); only a GM
    # starts one, adds combatants, undoes and ends it. Steps by HTMX (the pages' forms) are
    # answered with the changed pieces, a rules refusal with 400 and its reason; without
    # HTMX (no JavaScript) with a redirect to the page and the message.
    Row("encounters:list", args=("campaign",)),
    Row(
        "encounters:list",
        "post",
        args=("campaign",),
        player=403,
        gm=302,
        data={"name": "Ambush at the docks"},
    ),
    Row("encounters:page", args=ENCOUNTER),
    Row("encounters:log", args=ENCOUNTER),
    Row("encounters:live", args=ENCOUNTER, data={"v": 0}),
    Row("encounters:live", args=ENCOUNTER, player=204, gm=204, data={"v": 1}),
    # Steps: the player may not take a GM's step, act for the NPC or set the GM's numbers on
    # his attack; he attacks as his own character. (The fuzz merges these rows' data, the last
    # row's winning: keep the valid attack last.)
    Row(
        "encounters:step",
        "post",
        args=ENCOUNTER,
        player=400,
        data={"seen": 1, "type": "end_round"},
        headers=HX,
    ),
    Row(
        "encounters:step",
        "post",
        args=ENCOUNTER,
        player=400,
        data={"seen": 1, "type": "act", "combatant": "sb-stormtrooper-1", "what": "fires"},
        headers=HX,
    ),
    *[
        Row(
            "encounters:step",
            "post",
            args=ENCOUNTER,
            player=400,
            data={**OWN_ATTACK, **numbers},
            headers=HX,
        )
        for numbers in GMS_NUMBERS
    ],
    Row("encounters:step", "post", args=ENCOUNTER, player=302, gm=302, data=OWN_ATTACK),
    Row("encounters:step", "post", args=ENCOUNTER, data=OWN_ATTACK, headers=HX),
    Row("encounters:undo", "post", args=ENCOUNTER, player=403, data={"seen": 1}, headers=HX),
    Row("encounters:end", "post", args=ENCOUNTER, player=403, gm=302, data={"seen": 1}),
    Row("encounters:add", args=ENCOUNTER, player=403),
    Row(
        "encounters:add",
        "post",
        args=ENCOUNTER,
        player=403,
        gm=302,
        data={"which": "characters", "pc-characters": "{others_character}", "pc-side": "rebels"},
    ),
    Row("encounters:add", "post", args=ENCOUNTER, player=403, gm=302, data=STAT_BLOCK),
    # Another campaign's encounter, asked for under this campaign: nobody learns it exists
    # (a player asking for a GM's page is refused for his role first, whatever the id).
    *[
        Row(name, method, args=("campaign", "foreign_encounter"), player=player, gm=404, data=data)
        for name, method, player, data in [
            ("encounters:page", "get", 404, {}),
            ("encounters:log", "get", 404, {}),
            ("encounters:live", "get", 404, {"v": 0}),
            ("encounters:step", "post", 404, {"seen": 0, "type": "end_round"}),
            ("encounters:undo", "post", 403, {"seen": 0}),
            ("encounters:end", "post", 403, {"seen": 0}),
            ("encounters:add", "get", 403, {}),
            ("encounters:add", "post", 403, {"which": "statblock", "sb-name": "X", "sb-side": "y"}),
        ]
    ],
    # Fleet actions ([RC] capital ship combat, issue 18): the scenario's fleet action is at
    # version 0 with no ships; the scenario's campaign itself has the option off.
    Row("encounters:fleet_list", args=("campaign",)),
    Row(
        "encounters:fleet_list", "post", args=("campaign",), player=403, gm=400, data={"name": "X"}
    ),
    Row("encounters:fleet_page", args=("campaign", "fleet")),
    Row("encounters:fleet_live", args=("campaign", "fleet"), player=204, gm=204, data={"v": 0}),
    Row("encounters:fleet_live", args=("campaign", "fleet"), data={"v": 3}),
    Row(
        "encounters:fleet_step",
        "post",
        args=("campaign", "fleet"),
        player=403,
        gm=302,
        data={"version": 0, "type": "end_round"},
    ),
    Row(
        "encounters:fleet_ship",
        "post",
        args=("campaign", "fleet"),
        player=403,
        gm=302,
        data={"version": 0, "craft": "{craft}", "side": "Rebel", "crew": "4D"},
    ),
    Row(
        "encounters:fleet_undo",
        "post",
        args=("campaign", "fleet"),
        player=403,
        gm=400,
        data={"version": 0},
    ),
    *[
        Row(name, method, args=("campaign", "foreign_fleet"), player=player, gm=404, data=data)
        for name, method, player, data in [
            ("encounters:fleet_page", "get", 404, {}),
            ("encounters:fleet_live", "get", 404, {"v": 0}),
            ("encounters:fleet_step", "post", 403, {"version": 0, "type": "end_round"}),
            ("encounters:fleet_ship", "post", 403, {"version": 0, "craft": "{craft}"}),
            ("encounters:fleet_undo", "post", 403, {"version": 0}),
        ]
    ],
]
