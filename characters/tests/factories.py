import factory

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.models import Character, Item, Skill


class CharacterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Character

    campaign = factory.SubFactory(CampaignFactory)
    owner = factory.LazyAttribute(lambda c: MembershipFactory(campaign=c.campaign).user)
    name = factory.Sequence(lambda n: f"Character {n}")
    dexterity = "3D+1"
    knowledge = "2D+1"
    mechanical = "3D"
    perception = "3D+2"
    strength = "3D"
    technical = "2D+2"


class NPCFactory(CharacterFactory):
    kind = Character.Kind.NPC
    owner = None


class SkillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Skill

    character = factory.SubFactory(CharacterFactory)
    name = factory.Sequence(lambda n: f"skill {n}")
    attribute = "dexterity"
    code = "4D+1"


class ItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Item

    character = factory.SubFactory(CharacterFactory)
    name = factory.Sequence(lambda n: f"item {n}")
    kind = Item.Kind.WEAPON
    damage = "4D"
    skill = "blaster"
    ranges = "3-10/30/120"
