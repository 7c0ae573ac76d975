"""What the rule options on droids, equipment and vehicles, and on movement, chases and falling
mean: words, sources, allowed values (the fields of :class:`rules.ruleset.RuleSet`).
"""

from functools import partial

from rules.options.option import OFF, Option, option

_gear = partial(option, group="Droids, equipment and vehicles")
_move = partial(option, group="Movement, chases and falling")

OPTIONS: dict[str, Option] = {
    # --- Droids, equipment, vehicles (droids-and-equipment.md, vehicles-and-starships.md) -------
    "equipment_improvement": _gear(
        "Improving equipment",
        "What modifications cost.",
        source="UPG, RC",
        choices={
            "upg_percent": ("A share of the item's price", "UPG"),
            "rc_skill_points": ("Skill points and credits", "RC"),
        },
    ),
    "repair_tables": _gear(
        "Repairs",
        "Repair difficulties and costs.",
        source="UPG, HOUSE",
        choices={"upg": ("Rules Upgrade tables", "UPG"), "house": ("House Rules tables", "HOUSE")},
    ),
    "upg_improve_cost": _gear(
        "Reading the improvement tables",
        "Whether each row prices its own step or the total to reach it (ambiguity 26).",
        source="UPG",
        choices={
            "per_step": ("Each row is one step's price", "SUGGESTED"),
            "cumulative_total": ("Each row is the total so far", "UPG"),
        },
    ),
    "rc_weapon_install": _gear(
        "Installing a bought weapon",
        "The fee plus 9 skill points, or either one (ambiguity 25).",
        source="RC",
        choices={
            "fee_and_sp": ("Fee and skill points", "SUGGESTED"),
            "fee_or_sp": ("Fee or skill points", "RC"),
        },
    ),
    "lost_moves_5_repair": _gear(
        "Repairing 5 lost moves",
        "Which rule prices the repair.",
        source="UPG",
        choices={
            "drive_rule": ("The drives rule: Difficult, 35%", "UPG"),
            "upg_table": ("The repair table row: 100%", "UPG"),
        },
    ),
    "lost_moves_5": _gear(
        "5 lost moves",
        "What losing 5 moves means for a vehicle.",
        source="UPG",
        choices={
            "destroyed": ("The vehicle is destroyed", "SUGGESTED"),
            "drive_destroyed": ("Only the drive is destroyed", ""),
        },
    ),
    "speed_level_set": _gear(
        "Speeds",
        "The speed levels of characters and vehicles.",
        source="UPG, HOUSE",
        choices={
            "upg4": ("Cautious, cruising, high, all-out", "UPG"),
            "house5": ("Cautious, normal, fast, high, all-out", "HOUSE"),
        },
    ),
    "collision_table": _gear(
        "Collision damage",
        "Damage by speed when something hits something.",
        source="UPG, HOUSE, RC",
        choices={
            "upg": ("Four rows", "UPG"),
            "house": ("Five rows", "HOUSE"),
            "rc": ("By speed actions", "RC"),
        },
    ),
    "capital_combat": _gear(
        "Fleet actions",
        "Battles between capital ships with the Rules Companion's capital ship combat: crews, "
        "guns, targeting and damage in pips (capital-ships.md).",
        source="RC",
        choices={"none": OFF, "rc": ("Rules Companion capital ship combat", "RC")},
    ),
    # --- Movement, chases and falling (movement.md §7) ------------------------------------------
    "house_high_terrain": _move(
        "High speed in terrain (five speeds)",
        "The terrain roll at High (3x Move) with the House Rules' five speeds.",
        source="HOUSE",
        choices={
            "interpolate": ("One level up everywhere", "SUGGESTED"),
            "as_fast": ("As Fast", ""),
            "as_all_out": ("As All-out", ""),
        },
    ),
    "house_lost_moves_cruising": _move(
        '"Limited to cruising speed" (five speeds)',
        "Which of the five speeds -2 Moves limits a vehicle to (MV-28).",
        source="HOUSE",
        choices={"normal": ("Normal", "SUGGESTED"), "fast": ("Fast", "")},
    ),
    "house_cautious_hard_terrain": _move(
        "Cautious moves in hard terrain (five speeds)",
        "Whether a cautious move in Difficult or worse terrain takes an action (MV-29).",
        source="HOUSE",
        choices={
            "as_upg": ("An action, as in the Rules Upgrade", "SUGGESTED"),
            "free": ("Free", ""),
        },
    ),
    "move_mod_order": _move(
        "Injuries that halve and reduce Move",
        "Which applies first (MV-30).",
        source="HOUSE",
        choices={
            "halve_then_subtract": ("Halve, then subtract", "SUGGESTED"),
            "subtract_then_halve": ("Subtract, then halve", ""),
        },
    ),
    "standstill_is_level": _move(
        "Stopped is a speed",
        "Stopped counts as a speed level below cautious for acceleration (MV-2).",
        source="SUGGESTED",
        choices={True: ("Yes", "SUGGESTED"), False: ("No", "")},
    ),
    "vehicle_rolls_high_speed_easy_terrain": _move(
        "Drivers roll at high speed in easy terrain",
        "Drivers, not only characters on foot, roll at high speed in Very Easy to Moderate "
        "terrain (MV-3).",
        source="SUGGESTED",
        choices={True: ("Yes", "SUGGESTED"), False: ("No", "")},
    ),
    "tumble_damage_rows": _move(
        "Movement failures that hurt",
        "Which failures deal the all-out 1D (MV-6).",
        source="SUGGESTED",
        choices={
            "11_15": ("Minor tumble only (miss by 11-15)", "SUGGESTED"),
            "7_15": ("A fall too (miss by 7-15)", ""),
        },
    ),
    "high_speed_fatigue_failure": _move(
        "A failed high-speed stamina roll",
        "What happens to a character who fails it (MV-8).",
        source="SUGGESTED",
        choices={
            "rest_double": ("Rest twice as long", "SUGGESTED"),
            "gm": ("Left to the GM", ""),
        },
    ),
    "gravity_shift_levels": _move(
        "Gravity and falls",
        'Falling-damage rows added on high-gravity worlds and taken away on low ("a couple").',
        source="WIKI",
        range=(0, 5),
        unit="rows",
    ),
    "rc_loss_of_control_point": _move(
        "Losing control (speed actions)",
        "In which speed action control is lost.",
        source="RC",
        choices={
            "as_example": ("As the printed example", "SUGGESTED"),
            "as_text": ("As the text", "RC"),
        },
    ),
}
