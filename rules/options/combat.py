"""What the rule options on combat and on injuries and healing mean: words, sources, allowed
values (the fields of :class:`rules.ruleset.RuleSet`).
"""

from functools import partial

from rules.options.option import OFF, Option, option

_combat = partial(option, group="Combat")
_injury = partial(option, group="Injuries and healing")

OPTIONS: dict[str, Option] = {
    # --- Combat (combat.md §10) -----------------------------------------------------------------
    "combat_round": _combat(
        "Combat round",
        "How a round is ordered.",
        source="UPG, RC",
        choices={
            "2e_initiative": ("Initiative, then turns in order", "UPG"),
            "rc_haste": ("Haste segments", "RC"),
        },
    ),
    "initiative_roller": _combat(
        "Who rolls initiative",
        'Whether a side\'s "highest Perception" counts wound penalties (combat.md CA-4).',
        source="WIKI",
        choices={
            "highest_printed": ("Highest Perception as printed", ""),
            "highest_effective": ("Highest Perception after penalties", "SUGGESTED"),
        },
    ),
    "initiative_wild_die": _combat(
        "Wild Die on initiative",
        'The Wild Die on initiative rolls ("all rolls").',
        source="UPG, HOUSE",
        choices={True: ("Yes", "UPG"), False: ("No", "")},
    ),
    "declare_timing": _combat(
        "Declaring actions",
        "When characters say how many actions they take.",
        source="UPG, HOUSE",
        choices={
            "first_turn": ("On the character's first turn", "UPG"),
            "round_start": ("Everyone at the start of the round", "HOUSE"),
        },
    ),
    "draw_weapon_is_action": _combat(
        "Drawing a weapon is an action",
        "Drawing a weapon counts towards the multiple-action penalty (combat.md CA-3).",
        source="WIKI",
        choices={True: ("An action", "WIKI"), False: ("Free", "")},
    ),
    "reaction_mode": _combat(
        "Reactions",
        "What a dodge or parry does to the attacker's difficulty.",
        source="UPG, RC",
        choices={
            "replace": ("The reaction roll becomes the difficulty", "UPG"),
            "rc_choose_higher": ("The higher of the two counts", "RC"),
        },
    ),
    "full_reaction": _combat(
        "Full reactions",
        "A character who spends the round dodging or parrying.",
        source="2E-STD",
        choices={
            "none": ("Not used", ""),
            "add_to_difficulty": ("The roll is added to the difficulty", "2E-STD"),
        },
    ),
    "dodge_covers_melee": _combat(
        "Dodge against melee attacks",
        "Whether dodge also protects against melee and brawling attacks (combat.md CA-7).",
        source="SUGGESTED, RC",
        choices={True: ("Yes", ""), False: ("No: parry them", "RC")},
    ),
    "armed_unarmed_modifiers": _combat(
        "Armed against unarmed",
        "+5 to parry and +10 to attack an unarmed opponent with a weapon.",
        source="HOUSE",
        choices={True: ("Used", "HOUSE"), False: OFF},
    ),
    "reactions_declared_cover_whole_round": _combat(
        "Declared reactions last the round",
        "A reaction declared at the start covers every attack that round.",
        source="HOUSE",
        choices={True: ("For the whole round", "HOUSE"), False: ("React when attacked", "UPG")},
    ),
    "range_difficulty": _combat(
        "Range difficulties",
        "The difficulty of a shot at short, medium and long range.",
        source="WIKI, RC",
        choices={
            "2e_levels": ("Easy, Moderate, Difficult", "WIKI"),
            "rc_numbers": ("3-5, 6-10, 11-15, 16-20", "RC"),
        },
    ),
    "cover_modifiers": _combat(
        "Cover and visibility",
        "What cover, darkness and smoke add to the difficulty.",
        source="2E-STD, RC",
        choices={
            "none": ("Left to the GM", ""),
            "2e_std_dice": ("Second Edition dice (half cover +2D)", "2E-STD"),
            "rc_chart": ("The Rules Companion fire modifiers chart", "RC"),
        },
    ),
    "prone_to_hit_modifier": _combat(
        "Shooting a prone target",
        "Added to the difficulty of hitting a prone target, in pips (the Rules Companion adds 2).",
        source="RC",
        range=(0, 10),
        unit="pips",
    ),
    "called_shots": _combat(
        "Called shots",
        "Aiming at a small part of a target.",
        source="UPG, HOUSE, RC",
        choices={
            "upg": ("Rules Upgrade difficulties", "UPG"),
            "house": ("House Rules: a hit adds damage", "HOUSE"),
            "rc_chart": ("Rules Companion target-size chart", "RC"),
        },
    ),
    "stun_setting": _combat(
        "Stun weapons",
        "What a hit on stun does.",
        source="UPG, HOUSE, RC",
        choices={
            "upg_2d_minutes": ("Unconscious for 2D minutes", "UPG"),
            "house_margin": ("By how much the damage beat Strength", "HOUSE"),
            "rc_chart": ("Rules Companion stun chart", "RC"),
        },
    ),
    "stun_switch_costs_action": _combat(
        "Switching to stun is an action",
        "Setting a weapon to stun or back takes an action (combat.md CA-15).",
        source="HOUSE, RC",
        choices={True: ("An action", "HOUSE"), False: ("Free", "SUGGESTED")},
    ),
    "auto_fire": _combat(
        "Automatic fire",
        "Bursts from automatic weapons.",
        source="HOUSE",
        choices={"none": OFF, "house": ("House Rules automatic fire", "HOUSE")},
    ),
    "suppression_fire": _combat(
        "Suppression fire",
        "Firing to pin an area down.",
        source="HOUSE",
        choices={True: ("Used", "HOUSE"), False: OFF},
    ),
    "scale_mode": _combat(
        "Scale",
        "Characters against vehicles, starfighters and capital ships.",
        source="UPG, HOUSE, RC",
        choices={
            "upg": ("Scale dice", "UPG"),
            "house": ("House Rules scale", "HOUSE"),
            "rc_die_caps": ("Rules Companion die caps", "RC"),
        },
    ),
    "surprise_mode": _combat(
        "Surprise",
        "What surprise gives the side that springs it.",
        source="WIKI, RC",
        choices={
            "first_action": ("A free first action", "WIKI"),
            "rc_free_haste": ("Free haste segments", "RC"),
        },
    ),
    "surprise_granularity": _combat(
        "Who is surprised",
        "When only some targets spot an ambusher (combat.md CA-18).",
        source="WIKI",
        choices={
            "per_target": ("Each target that spotted no one", "SUGGESTED"),
            "any_spotter_alerts_all": ("Nobody, once anyone spots one", ""),
        },
    ),
    "grenade_scatter": _combat(
        "Grenade scatter",
        "Where a missed grenade lands.",
        source="RC",
        choices={"none": ("Left to the GM", ""), "rc": ("Rules Companion scatter", "RC")},
    ),
    "default_weapon_strength": _combat(
        "Body of a weapon without one",
        "The Body code rolled to save a weapon after a severe wound when none is printed (the "
        "House Rules use 2D).",
        source="HOUSE",
        range=(1, 10),
        die_code=True,
    ),
    "wiki_penalty_convention": _combat(
        "Multiple-action penalty",
        "How the 1D per extra action is taken away.",
        source="UPG, WIKI",
        choices={
            "remove_dice": ("Roll fewer dice", "UPG"),
            "subtract_pool": ("Roll a penalty pool and subtract it", "WIKI"),
        },
    ),
    # --- Injuries and healing (injuries-and-healing.md §0.2) ------------------------------------
    "damage_chart": _injury(
        "Damage chart",
        "How damage against Strength becomes a wound.",
        source="UPG, RC",
        choices={
            "2e_margin": ("By how much damage beats Strength", "UPG"),
            "rc_multiples": ("By multiples of Strength", "RC"),
        },
    ),
    "wounded_twice_level": _injury(
        '"Wounded twice"',
        "A second wound is its own level before incapacitated.",
        source="UPG, RC",
        choices={
            True: ("A level of its own", "UPG"),
            False: ("A second wound incapacitates", "RC"),
        },
    ),
    "wound_effects": _injury(
        "Wound effects",
        "What each wound level does.",
        source="UPG, HOUSE",
        choices={
            "2e": ("Second Edition", "UPG"),
            "house": ("House Rules: knock-back, lost rounds", "HOUSE"),
        },
    ),
    "stun_knockout": _injury(
        "Knocked out by stuns",
        "How many stuns knock a character out.",
        source="UPG, RC",
        choices={
            "strength_dice": ("As many as the Strength dice", "UPG"),
            "rc_dex_stamina": ("By Dexterity and stamina dice", "RC"),
        },
    ),
    "escaping_unscathed": _injury(
        "Escaping unscathed",
        "Damage less than half of Strength does nothing.",
        source="RC",
        choices={True: ("Used", "RC"), False: OFF},
    ),
    "house_short_pointblank": _injury(
        "Point-blank shots",
        "The House Rules' extra effect of short and point-blank range.",
        source="HOUSE",
        choices={True: ("Used", "HOUSE"), False: OFF},
    ),
    "critical_injuries": _injury(
        "Critical injuries",
        "A 6 on the Wild Die of a damage roll may be a critical injury.",
        source="HOUSE",
        choices={"none": OFF, "house": ("House Rules critical injuries", "HOUSE")},
    ),
    "mw_stabilise": _injury(
        "Stabilising the mortally wounded",
        "What keeps a mortally wounded character alive.",
        source="UPG, HOUSE",
        choices={
            "upg": ("First aid, then a medpac or bacta within an hour", "UPG"),
            "house": ("As the Rules Upgrade; a medpac holds 30 minutes", "HOUSE"),
        },
    ),
    "medpac_rules": _injury(
        "Medpacs",
        "What a medpac heals.",
        source="2E-STD, HOUSE, RC",
        choices={
            "2e_std": ("Second Edition medpacs", "2E-STD"),
            "house": ("House Rules medpacs", "HOUSE"),
            "rc": ("Rules Companion medpacs", "RC"),
        },
    ),
    "natural_healing": _injury(
        "Natural healing",
        "Healing without treatment.",
        source="UPG",
        choices={
            "2e_re": ("Second Edition R&E healing rolls", "UPG"),
            "rc_custom": ("A First Edition chart the GM enters", "RC"),
        },
    ),
    "bacta_times": _injury(
        "Bacta tank times",
        "How long a bacta tank takes.",
        source="2E-STD, HOUSE",
        choices={
            "2e_std": ("Second Edition times", "2E-STD"),
            "house": ("House Rules times", "HOUSE"),
        },
    ),
    "maiming_for_fp": _injury(
        "Maimed instead of killed",
        "Spend a Force Point to be maimed rather than killed.",
        source="HOUSE",
        choices={True: ("Allowed", "HOUSE"), False: OFF},
    ),
    "severe_wound_gear_check": _injury(
        "Gear damaged by severe wounds",
        "After a severe wound, roll each item's Body to see whether it survives.",
        source="HOUSE",
        choices={True: ("Roll for the gear", "HOUSE"), False: OFF},
    ),
    "death_automation": _injury(
        "A death result",
        "What Datapad does when a roll says a character dies.",
        source="SUGGESTED",
        choices={
            "flag_for_gm": ("Ask the GM", "SUGGESTED"),
            "auto": ("Apply it", ""),
        },
    ),
}
