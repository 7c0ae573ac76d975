"""What the rule options on dice and difficulties, characters and advancement, and the Force
mean: words, sources, allowed values (the fields of :class:`rules.ruleset.RuleSet`).
"""

from functools import partial

from rules.options.option import OFF, Option, option

_dice = partial(option, group="Dice and difficulties")
_chars = partial(option, group="Characters, points and advancement")
_force = partial(option, group="The Force")

OPTIONS: dict[str, Option] = {
    # --- Dice and core (dice-and-core.md §0.2, §2) -------------------------------------------
    "wild_die": _dice(
        "Wild Die",
        "One die of every pool is the Wild Die: a 6 is rolled again and added, a first 1 may "
        "bring trouble.",
        source="UPG",
        choices={True: ("Roll a Wild Die", "UPG"), False: ("No Wild Die: add the dice", "RC")},
    ),
    "wild_die_one": _dice(
        "A Wild Die 1",
        "What a first Wild Die roll of 1 does.",
        source="UPG, HOUSE",
        choices={
            "complication": ("A story complication; the dice count normally", "UPG"),
            "subtract": ("Take away the 1 and the highest other die", "UPG"),
            "normal": ("Counts like any die", "UPG"),
            "gm_choice": ("The GM decides at the table", "UPG"),
            "house_table": ("Roll on the House 1D complication table", "HOUSE"),
        },
    ),
    "wild_die_on_damage": _dice(
        "Wild Die on damage rolls",
        '"The Wild Die rule applies to all rolls, including damage rolls."',
        source="UPG",
        choices={True: ("Yes, on every roll", "UPG"), False: ("Not on damage rolls", "")},
    ),
    "normalize_pips_in_play": _dice(
        "Carry pips into dice in play",
        "When modifiers add pips in play, every 3 pips become 1D; otherwise a pool keeps its "
        "pips (a character can roll 4D+6).",
        source="HOUSE, RC",
        choices={
            True: ("Three pips make a die", "HOUSE"),
            False: ("Pools keep their pips", "RC"),
        },
    ),
    "difficulty_scale": _dice(
        "Difficulty numbers",
        "The numbers behind Very Easy to Heroic.",
        source="WIKI, RC",
        choices={
            "2e": ("Second Edition: Very Easy 1-5 up to Heroic 31+", "WIKI"),
            "rc": ("Rules Companion: Very Easy 3-5 up to Very Difficult 21-30", "RC"),
        },
    ),
    "combined_actions": _dice(
        "Combined actions",
        "How characters working together add to one roll.",
        source="UPG, RC",
        choices={
            "command": ("A leader commands the group (command skill)", "UPG"),
            "rc_support": ("Each supporter adds a pip per full die", "RC"),
        },
    ),
    "preparing": _dice(
        "Preparing",
        "What taking extra care before an action does.",
        source="WIKI, RC",
        choices={
            "double_time": ("Take twice the time for +1D", "WIKI"),
            "rc_prepare_round": ("Spend a round preparing", "RC"),
        },
    ),
    "uncertainty_dice": _dice(
        "Uncertainty dice",
        "The Rules Companion's optional dice that hide how well a roll went.",
        source="RC",
        choices={True: ("Used", "RC"), False: OFF},
    ),
    "rc_optional_haste": _dice(
        "Optional haste rules",
        "A character may lower the haste of some of their own actions to order them.",
        source="RC",
        choices={True: ("Used", "RC"), False: OFF},
    ),
    "difficulty_dice": _dice(
        'Dice added to a difficulty ("+1D")',
        "No source says how dice are added to a difficulty number (dice-and-core.md A17).",
        source="SUGGESTED",
        choices={
            "roll": ("The GM rolls them (no Wild Die)", "SUGGESTED"),
            "fixed": ("A fixed 3 per die", "SUGGESTED"),
        },
    ),
    # --- Character creation, points and advancement (characters-and-advancement.md) ----------
    "creation_rules": _chars(
        "Character creation",
        "The budgets and limits a new character is built with.",
        source="2E-STD, HOUSE, RC",
        choices={
            "2e_std": ("Second Edition: attribute and skill dice", "2E-STD"),
            "house": ("House Rules on top of Second Edition", "HOUSE"),
            "rc_templates": ("Rules Companion templates", "RC"),
        },
    ),
    "advancement_table": _chars(
        "Improving skills and attributes",
        "What advancement costs.",
        source="UPG, HOUSE, RC",
        choices={
            "upg": ("Rules Upgrade Character Point costs", "UPG"),
            "house": ("House Rules costs", "HOUSE"),
            "rc_skill_points": ("Rules Companion skill points", "RC"),
        },
    ),
    "cp_spend_limits": _chars(
        "Character Points per roll",
        "The most Character Points one roll may take.",
        source="UPG, HOUSE",
        choices={
            "upg": ("2 a roll; 5 on specializations, dodges and parries", "UPG"),
            "house": ("House Rules limits (5 on Talents, too)", "HOUSE"),
            "none": ("No limit", "RC"),
        },
    ),
    "cp_on_damage": _chars(
        "Character Points on a damage roll",
        "The most Character Points a damage roll may take (characters-and-advancement.md "
        "A-C16; the House Rules allow 2).",
        source="SUGGESTED, HOUSE",
        range=(0, 5),
        unit="CP",
    ),
    "cp_on_resist_damage": _chars(
        "Character Points on resisting damage",
        "The most Character Points a Strength roll against damage may take (A-C16; the House "
        "Rules allow 5).",
        source="SUGGESTED, HOUSE",
        range=(0, 5),
        unit="CP",
    ),
    "attribute_improve_roll": _chars(
        "Roll to raise an attribute",
        "Raising an attribute takes a roll against the species maximum.",
        source="UPG",
        choices={True: ("A roll is needed", "UPG"), False: ("No roll", "HOUSE")},
    ),
    "one_pip_per_skill_between_adventures": _chars(
        "One pip per skill between adventures",
        "A skill rises by at most one pip between adventures.",
        source="UPG",
        choices={True: ("At most one pip", "UPG"), False: ("No limit", "")},
    ),
    "attribute_raise_lifts_skills": _chars(
        "Skills rise with their attribute",
        "When an attribute rises, its skills (not advanced skills) rise with it.",
        source="HOUSE",
        choices={True: ("Skills rise too", "HOUSE"), False: ("Skills stay", "SUGGESTED")},
    ),
    "days_per_week": _chars(
        "Days in a week",
        "For training, healing and downtime: a week and a month in days.",
        source="2E-STD, HOUSE",
        choices={
            7: ("7-day weeks", "2E-STD"),
            5: ("5-day weeks, 35-day months", "HOUSE"),
        },
    ),
    "house_extra_cp": _chars(
        "Extra Character Points at creation",
        "Character Points a new character gets on top of the usual ones (the House Rules give 20).",
        source="HOUSE",
        range=(0, 50),
        unit="CP",
    ),
    "house_cp_melee_brawling": _chars(
        "House 5-CP limit in melee and brawling",
        'Which "Melee Combat or Brawling Combat attempts" may take 5 Character Points '
        "(characters-and-advancement.md A-C15).",
        source="HOUSE",
        choices={
            "parry": ("Parries", "SUGGESTED"),
            "attack": ("Attacks", "HOUSE"),
        },
    ),
    # --- The Force (force.md) -------------------------------------------------------------------
    "dsp_check": _force(
        "Consumed by the Dark Side",
        "The 1D roll against a character's Dark Side Points.",
        source="2E-STD, RC",
        choices={
            "lt": ("Consumed when the roll is less than the points", "2E-STD"),
            "le": ("Consumed when the roll is at most the points", "RC"),
        },
    ),
    "dsp_check_wild_die": _force(
        "Wild Die on the Dark Side roll",
        "Whether the 1D against Dark Side Points is a Wild Die (force.md A-F6).",
        source="SUGGESTED",
        choices={True: ("A Wild Die", ""), False: ("A plain die", "SUGGESTED")},
    ),
    "force_power_learning": _force(
        "Learning Force powers",
        "How powers are gained, and whether powers not yet learned may be used.",
        source="UPG, HOUSE, RC",
        choices={
            "upg": ("One power per Force skill pip or 5 Character Points", "UPG"),
            "house": ("As the Rules Upgrade, plus learning through the Force", "HOUSE"),
            "rc_mastery": ("Power totals and mastery", "RC"),
        },
    ),
    "calling_on_dark_side": _force(
        "Calling on the Dark Side",
        "A Perception or control roll for a Force Point that brings a Dark Side Point "
        "(force.md A-F17).",
        source="RC",
        choices={True: ("Allowed", "RC"), False: ("Not allowed", "SUGGESTED")},
    ),
    "lure_of_dark_side": _force(
        "Lure of the Dark Side",
        "+1D per Dark Side Point on Force skill rolls.",
        source="UPG",
        choices={True: ("+1D per Dark Side Point", "UPG"), False: ("No bonus", "RC")},
    ),
}
