"""Set-up shared by the advancement tests: a campaign under a preset, a character holding
Character Points, adventures, and a snapshot of everything an advancement may change."""

from __future__ import annotations

from campaigns.models import Adventure, Campaign
from campaigns.tests.factories import CampaignFactory
from characters.models import Advancement, Character, ForcePower, LedgerEntry, Skill, TraitUse
from characters.services import change_balance
from characters.tests.factories import CharacterFactory, SkillFactory
from rules import RuleSet

PRESETS = {"2e": RuleSet(), "house": RuleSet.preset("house"), "rc": RuleSet.preset("rc")}


def campaign_for(preset: str = "2e", **fields) -> Campaign:
    campaign = CampaignFactory(**fields)
    campaign.set_ruleset(PRESETS[preset])
    campaign.save()
    return campaign


def character_with(campaign: Campaign, cp: int = 100, skills=(), **fields) -> Character:
    """A player character holding ``cp`` Character Points, with ``skills``: (name, code) or
    (name, code, attribute, kind, base_skill)."""
    character = CharacterFactory(campaign=campaign, **fields)
    if cp:
        change_balance(character, "cp", cp, "Starting points")
    for row in skills:
        name, code, attribute, kind, base = (*row, "dexterity", "skill", "")[:5]
        SkillFactory(
            character=character,
            name=name,
            code=code,
            attribute=attribute,
            kind=kind,
            base_skill=base,
        )
    character.refresh_from_db()
    return character


def ended_adventure(campaign: Campaign, start: int = 0, end: int = 5) -> Adventure:
    return Adventure.objects.create(
        campaign=campaign, name="The Tocarra Job", start_day=start, end_day=end
    )


def used_in(adventure: Adventure, character: Character, *traits: str) -> None:
    for trait in traits:
        TraitUse.objects.create(adventure=adventure, character=character, trait=trait)


def snapshot(*characters: Character) -> dict:
    """What an advancement can change, for each character: balances, the ledger, the
    requests, the skills, attributes, Move, Force-sensitivity and powers."""
    state = {}
    for character in characters:
        c = Character.objects.get(pk=character.pk)
        state[c.pk] = {
            "balances": (c.character_points, c.force_points, c.dark_side_points),
            "sheet": (
                str(c.dexterity),
                str(c.knowledge),
                str(c.mechanical),
                str(c.perception),
                str(c.strength),
                str(c.technical),
                c.move,
                c.force_sensitive,
            ),
            "ledger": list(
                LedgerEntry.objects.filter(character=c)
                .order_by("pk")
                .values_list("currency", "delta", "balance_after", "reason")
            ),
            "requests": list(
                Advancement.objects.filter(character=c)
                .order_by("pk")
                .values_list(
                    "pk",
                    "kind",
                    "target",
                    "status",
                    "current",
                    "new",
                    "cp_cost",
                    "start_day",
                    "due_day",
                    "completed_day",
                    "roll",
                    "training",
                )
            ),
            "skills": sorted(
                (s.name, str(s.code), s.kind, s.base_skill)
                for s in Skill.objects.filter(character=c)
            ),
            "powers": sorted(ForcePower.objects.filter(character=c).values_list("name", flat=True)),
        }
    return state
