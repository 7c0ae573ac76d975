"""Demo characters for the demo campaign: three PCs (one Force-sensitive) and NPCs, and a few
rolls in the dice log so a new user sees what one looks like. ``load_demo`` loads the whole demo
(``manage.py load_demo``, run by ``make run``): the campaign from ``campaigns.demo``, then these."""

from django.db import transaction

from campaigns.demo import load_demo_campaign
from characters.models import Character, ForcePower, Item, Skill
from characters.services import change_balance, roll_trait
from rules import SeededDice

ATTRS = ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical")

PCS = [
    {
        "owner": "leia",
        "name": "Tala Voss",
        "template": "Rebel Scout",
        "attributes": ("3D+2", "2D+2", "3D+1", "3D+1", "2D+2", "2D+1"),
        "skills": [
            ("blaster", "dexterity", "5D+1", "skill", ""),
            ("blaster pistol", "dexterity", "6D+1", "specialization", "blaster"),
            ("dodge", "dexterity", "4D+2", "skill", ""),
            ("survival", "knowledge", "4D", "skill", ""),
            ("repulsorlift operation", "mechanical", "4D+1", "skill", ""),
            ("search", "perception", "4D+2", "skill", ""),
            ("sneak", "perception", "4D", "skill", ""),
            ("climbing/jumping", "strength", "3D+1", "skill", ""),
        ],
        "items": [
            ("weapon", "Blaster pistol", "4D", "blaster", "3-10/30/120"),
            ("gear", "Macrobinoculars", None, "", ""),
            ("gear", "Medpac", None, "", ""),
        ],
        "cp": 5,
        "fp": 1,
        "credits": 1000,
    },
    {
        "owner": "han",
        "name": "Rook Daran",
        "template": "Smuggler",
        "attributes": ("3D+1", "2D+1", "3D+2", "3D", "3D", "2D+2"),
        "skills": [
            ("blaster", "dexterity", "4D+1", "skill", ""),
            ("dodge", "dexterity", "4D+1", "skill", ""),
            ("streetwise", "knowledge", "3D+2", "skill", ""),
            ("space transports", "mechanical", "5D+2", "skill", ""),
            ("starship gunnery", "mechanical", "4D+2", "skill", ""),
            ("astrogation", "mechanical", "4D+1", "skill", ""),
            ("con", "perception", "4D", "skill", ""),
            ("space transports repair", "technical", "3D+2", "skill", ""),
        ],
        "items": [
            ("weapon", "Heavy blaster pistol", "5D", "blaster", "3-7/25/50"),
            ("gear", "Comlink", None, "", ""),
        ],
        "cp": 5,
        "fp": 1,
        "credits": 2000,
    },
    {
        "owner": "leia",
        "name": "Kell Arden",
        "template": "Young Jedi",
        "force_sensitive": True,
        "attributes": ("3D+1", "2D+1", "2D+2", "3D+2", "3D", "3D"),
        "skills": [
            ("lightsaber", "dexterity", "4D+1", "skill", ""),
            ("dodge", "dexterity", "4D", "skill", ""),
            ("scholar", "knowledge", "3D", "skill", ""),
            ("persuasion", "perception", "4D+2", "skill", ""),
            ("stamina", "strength", "3D+2", "skill", ""),
            ("control", "force", "1D+1", "force", ""),
            ("sense", "force", "1D", "force", ""),
        ],
        "items": [("weapon", "Lightsaber", "5D", "lightsaber", "melee")],
        "powers": [("Absorb/dissipate energy", "control"), ("Life detection", "sense")],
        "cp": 5,
        "fp": 2,
        "credits": 250,
    },
]

NPCS = [
    {
        "name": "Stormtrooper squad leader",
        "template": "Stormtrooper",
        "attributes": ("2D", "2D", "2D", "2D", "2D", "2D"),
        "skills": [
            ("blaster", "dexterity", "4D", "skill", ""),
            ("dodge", "dexterity", "3D", "skill", ""),
            ("brawling", "strength", "3D", "skill", ""),
        ],
        "items": [("weapon", "Blaster rifle", "5D", "blaster", "3-30/100/300")],
        "secret": False,
    },
    {
        "name": "Inquisitor Vael",
        "template": "Dark Jedi",
        "force_sensitive": True,
        "attributes": ("3D+2", "3D", "2D+2", "4D", "3D", "2D"),
        "skills": [
            ("lightsaber", "dexterity", "6D", "skill", ""),
            ("intimidation", "perception", "6D", "skill", ""),
            ("control", "force", "4D", "force", ""),
            ("alter", "force", "3D+2", "force", ""),
        ],
        "items": [("weapon", "Lightsaber", "5D", "lightsaber", "melee")],
        "secret": True,
    },
]


def _build(campaign, spec, owner=None, kind=Character.Kind.PC) -> Character:
    character = Character.objects.create(
        campaign=campaign,
        owner=owner,
        kind=kind,
        name=spec["name"],
        template=spec["template"],
        force_sensitive=spec.get("force_sensitive", False),
        secret=spec.get("secret", False),
        **dict(zip(ATTRS, spec["attributes"], strict=True)),
    )
    Skill.objects.bulk_create(
        Skill(character=character, name=n, attribute=a, code=c, kind=k, base_skill=b)
        for n, a, c, k, b in spec["skills"]
    )
    Item.objects.bulk_create(
        Item(character=character, kind=k, name=n, damage=d, skill=s, ranges=r)
        for k, n, d, s, r in spec["items"]
    )
    ForcePower.objects.bulk_create(
        ForcePower(character=character, name=n, skills=s) for n, s in spec.get("powers", ())
    )
    for currency, key in (("cp", "cp"), ("fp", "fp"), ("credits", "credits")):
        if spec.get(key):
            change_balance(character, currency, spec[key], "Starting points (demo)")
    return character


@transaction.atomic
def load_demo_characters(campaign, users) -> None:
    if campaign.characters.exists():
        return
    for spec in PCS:
        _build(campaign, spec, owner=users[spec["owner"]])
    for spec in NPCS:
        _build(campaign, spec, kind=Character.Kind.NPC)


#: The demo's rolls, made through the real roll service: (character, roller, trait, options).
#: The roller is the character's player, or the GM for NPCs.
ROLLS = [
    ("Stormtrooper squad leader", "gm", "blaster", {"difficulty": 10, "note": "at Tala"}),
    ("Tala Voss", None, "dodge", {"note": "reacting"}),
    ("Tala Voss", None, "blaster pistol", {"cp": 1, "difficulty": 15, "note": "the squad leader"}),
    ("Rook Daran", None, "space transports", {"difficulty": 20, "note": "out of Mos Eisley"}),
    ("Kell Arden", None, "sense", {"note": "life detection"}),
    ("Inquisitor Vael", "gm", "control", {"hidden": True}),
]
#: Chosen so the log shows a Wild Die that explodes (and no 1 on it): rules.dice.SeededDice
#: rolls the same dice for the same seed, and the tests check the log still shows one.
ROLL_SEED = 28


@transaction.atomic
def load_demo_rolls(campaign, users, *, seed: int = ROLL_SEED) -> None:
    """Roll the demo's few rolls once (nothing if the campaign has any roll already)."""
    if campaign.rolls.exists():
        return
    rng = SeededDice(seed)
    ruleset = campaign.ruleset
    characters = {c.name: c for c in campaign.characters.select_related("owner")}
    for name, roller, skill_name, options in ROLLS:
        character = characters[name]
        skill = character.skills.get(name=skill_name)
        actor = users[roller] if roller else character.owner
        roll_trait(character, actor, f"skill:{skill.pk}", ruleset=ruleset, rng=rng, **options)


@transaction.atomic
def load_demo():
    """The demo campaign, its characters and its rolls. Idempotent: a second run adds nothing
    (and resets the demo passwords). Returns the campaign."""
    campaign, users = load_demo_campaign()
    load_demo_characters(campaign, users)
    load_demo_rolls(campaign, users)
    return campaign
