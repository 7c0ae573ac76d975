import factory
from django.contrib.auth import get_user_model

from campaigns.models import Campaign, Invitation, Membership

PASSWORD = "a-long-test-password-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Campaign {n}")
    created_by = factory.SubFactory(UserFactory)

    @factory.post_generation
    def gm_membership(obj, create, extracted, **kwargs):
        if create:
            Membership.objects.create(campaign=obj, user=obj.created_by, role=Membership.Role.GM)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.PLAYER


class InvitationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Invitation

    campaign = factory.SubFactory(CampaignFactory)
    created_by = factory.LazyAttribute(lambda i: i.campaign.created_by)
