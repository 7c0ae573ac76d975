"""Every URL × anonymous, outsider, player and GM gets the expected status."""

import uuid
from types import SimpleNamespace

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from campaigns.models import LibraryEntry, Membership, RestoreJob
from campaigns.tests.factories import (
    CampaignFactory,
    InvitationFactory,
    MembershipFactory,
    UserFactory,
)
from characters.craft_damage import request_repair
from characters.craft_models import Craft
from characters.craft_services import catalogue, create_craft
from characters.models import CreationDraft, TimeAdvance
from characters.tests.factories import CharacterFactory, ItemFactory, NPCFactory
from encounters import views as encounter_views
from encounters.combatants import combatant_for_character
from encounters.fleet_models import FleetAction
from encounters.models import Encounter
from encounters.services import apply_step, start_encounter
from encounters.tests.helpers import fighter
from rules.combat import ActionCount
from rules.craft import CraftState
from rules.dice import FixedDice, SeededDice
from rules.encounter import EncounterState
from rules.library import check_entry
from tests.permissions import COMLINK, HX, LOGIN, ROWS, filled

VISITORS = ("anonymous", "outsider", "player", "gm")


def _encounter(campaign, character):
    """A fight in the round: the player's character (with a blaster) against a stormtrooper,
    both having declared; the stormtrooper has taken cover (one step: version 1)."""
    ItemFactory(character=character, name="blaster pistol", damage="4D")
    pc = combatant_for_character(character, side="rebels", ruleset=campaign.ruleset)
    npc = fighter("sb-stormtrooper-1", "empire", name="Stormtrooper 1")
    state = EncounterState(
        combatants=(pc.replace(actions=ActionCount(2)), npc.replace(actions=ActionCount(2))),
        phase="round",
        side_order=("rebels", "empire"),
        order=(pc.id, npc.id),
        initiative_winner="rebels",
    )
    gm = campaign.created_by
    encounter = start_encounter(campaign, "Ambush at the docks", gm, state=state)
    take_cover = {"type": "act", "combatant": npc.id, "what": "takes cover"}
    apply_step(encounter.pk, take_cover, expected_version=0, actor=gm, rng=FixedDice([]))
    return encounter


@pytest.fixture
def scenario(db, monkeypatch):
    monkeypatch.setattr(encounter_views, "dice", lambda: SeededDice(15))
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    other = MembershipFactory(campaign=campaign)
    invitation = InvitationFactory(campaign=campaign)
    outsider = UserFactory()
    character = CharacterFactory(campaign=campaign, owner=player)
    others_character = CharacterFactory(campaign=campaign, owner=other.user)
    secret_npc = NPCFactory(campaign=campaign, secret=True)
    draft = CreationDraft.objects.create(campaign=campaign, user=player)
    library_entry = LibraryEntry.objects.create(
        campaign=campaign, kind="gear", name="Comlink", data=check_entry("gear", COMLINK)
    )
    encounter = _encounter(campaign, character)
    restore_job = RestoreJob.objects.create(user=campaign.created_by, key=uuid.uuid4())
    # Ships (issue 18): a party corvette piloted by the player's character, and another
    # player's own corvette piloted by that player's character.
    corvette = catalogue()["Corellian Corvette"]
    craft = create_craft(campaign, corvette, party=True)
    pilot_station = craft.stations.get(role="pilot")
    craft.stations.filter(pk=pilot_station.pk).update(character=character)
    others_craft = create_craft(campaign, corvette, owner_character=others_character)
    others_pilot_station = others_craft.stations.get(role="pilot")
    others_craft.stations.filter(pk=others_pilot_station.pk).update(character=others_character)
    # Damage and repairs: the party corvette lost a maneuverability die and a shield die; the
    # player's character holds its engineer station; the GM asked for the maneuverability repair.
    craft.stations.filter(role="engineer").update(character=character)
    hurt = CraftState(damage="lightly", maneuverability_lost=1, shield_dice_lost=1)
    Craft.objects.filter(pk=craft.pk).update(damage=hurt.to_json(), value=0)
    repair = request_repair(
        campaign.memberships.get(user=campaign.created_by),
        Craft.objects.get(pk=craft.pk),
        "maneuverability",
        payer=None,
    )
    elsewhere = CampaignFactory()  # another campaign, with its own GM and encounter
    foreign_encounter = start_encounter(elsewhere, "Elsewhere", elsewhere.created_by)
    fleet, foreign_fleet = (  # fleet actions begun under the [RC] capital ship combat option
        FleetAction.objects.create(
            campaign=c,
            name="Fleet",
            state={"round": 1, "ships": []},
            initial_state={"round": 1, "ships": []},
            rule_options={"capital_combat": "rc"},
        )
        for c in (campaign, elsewhere)
    )
    # An advance of time of each campaign (its report holds a line about the player's character).
    time_advance, foreign_time_advance = (
        TimeAdvance.objects.create(
            campaign=c, from_day=0, to_day=5, day_reached=5, seed=1, status="done", report=lines
        )
        for c, lines in (
            (campaign, [{"day": 3, "character_id": character.pk, "character": character.name}]),
            (elsewhere, []),
        )
    )
    return SimpleNamespace(
        time_advance=time_advance.pk,
        foreign_time_advance=foreign_time_advance.pk,
        fleet=fleet.pk,
        foreign_fleet=foreign_fleet.pk,
        draft=draft.pk,
        library_entry=library_entry.pk,
        library_kind="gear",
        restore_job=restore_job.pk,
        draft_step="species",
        character=character.pk,
        others_character=others_character.pk,
        secret_npc=secret_npc.pk,
        encounter=encounter.pk,
        foreign_encounter=foreign_encounter.pk,
        campaign=campaign.pk,
        invitation=invitation.pk,
        token=invitation.token,
        other_member=other.pk,
        craft=craft.pk,
        pilot_station=pilot_station.pk,
        others_craft=others_craft.pk,
        others_pilot_station=others_pilot_station.pk,
        repair=repair.pk,
        users={
            "anonymous": None,
            "outsider": outsider,
            "player": player,
            "gm": campaign.created_by,
        },
        uidb64=urlsafe_base64_encode(force_bytes(outsider.pk)),
        token_for_reset=default_token_generator.make_token(outsider),
    )


def _names(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin":
                continue
            ns = f"{prefix}{p.namespace}:" if p.namespace else prefix
            yield from _names(p.url_patterns, ns)
        elif isinstance(p, URLPattern) and p.name:
            yield prefix + p.name


def test_every_url_is_in_the_matrix():
    assert set(_names(get_resolver().url_patterns)) == {row.name for row in ROWS}


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.name)
def test_permission_matrix(client, scenario, row, visitor):
    user = scenario.users[visitor]
    if user is not None:
        client.force_login(user)
    args = []
    for name in row.args:
        value = getattr(scenario, name)
        if name == "token" and row.name == "password_reset_confirm":
            value = scenario.token_for_reset
        args.append(value)
    url = reverse(row.name, args=args)
    response = getattr(client, row.method)(url, filled(row.data, scenario), headers=row.headers)
    expected = getattr(row, visitor)
    if expected == LOGIN:
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))
    else:
        assert response.status_code == expected, (
            f"{visitor} {row.method.upper()} {url}: {response.content[:300]!r}"
        )


def test_outsider_cannot_learn_a_campaign_exists(client, scenario):
    client.force_login(scenario.users["outsider"])
    response = client.get(reverse("campaigns:detail", args=[scenario.campaign]))
    assert response.status_code == 404
    assert Membership.objects.filter(user=scenario.users["outsider"]).count() == 0


def test_a_player_is_told_why_a_gms_step_is_refused_and_nothing_changes(client, scenario):
    client.force_login(scenario.users["player"])
    url = reverse("encounters:step", args=[scenario.campaign, scenario.encounter])
    before = Encounter.objects.values_list("version", "state").get(pk=scenario.encounter)
    response = client.post(url, {"seen": 1, "type": "end_round"}, headers=HX)
    assert response.status_code == 400
    assert "only the GM can do that" in response.content.decode()
    assert Encounter.objects.values_list("version", "state").get(pk=scenario.encounter) == before
