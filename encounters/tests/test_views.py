"""The encounter pages as a GM and a player use them: every step is an HTMX POST answered with
the pieces that changed; a refused step says why in place and changes nothing; a player acts
only for his own combatant and never sees an NPC's numbers. Dice are fixed, never luck."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Membership
from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.models import Character, LedgerEntry
from characters.tests.factories import CharacterFactory
from encounters import views
from encounters.models import Encounter
from encounters.services import start_encounter
from encounters.tests.helpers import TK1, fighter
from rules.dice import DieCode, FixedDice
from rules.encounter import EncounterState

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
D = DieCode.parse


@pytest.fixture
def table(client):
    """A campaign with a GM and a player whose character Kira fights a stormtrooper; the
    rebels have won the initiative."""
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    kira = CharacterFactory(campaign=campaign, owner=player, name="Kira", character_points=5)
    skills = (("blaster", D("4D")), ("dodge", D("3D")), ("first aid", D("4D+2")))
    pc = fighter(
        f"pc-{kira.pk}", "rebels", name="Kira", perception=D("4D"), npc=False, skills=skills
    )
    state = EncounterState(combatants=(pc, TK1), phase="order", initiative_winner="rebels")
    encounter = start_encounter(campaign, "Docks", campaign.created_by, state=state)
    return campaign, encounter, player, kira, pc.id


def _login(client, user):
    client.force_login(user)


def _step(client, encounter, **fields):
    url = reverse("encounters:step", args=[encounter.campaign_id, encounter.pk])
    fields.setdefault("seen", Encounter.objects.get(pk=encounter.pk).version)
    return client.post(url, fields, **HX)


def _fixed(monkeypatch, faces):
    monkeypatch.setattr(views, "dice", lambda: FixedDice(list(faces)))


def _to_round(client, encounter, pc_id):
    assert (
        _step(client, encounter, type="choose_order", side="rebels", first="on").status_code == 200
    )
    assert (
        _step(client, encounter, type="declare_actions", combatant=pc_id, actions=2).status_code
        == 200
    )
    assert (
        _step(client, encounter, type="declare_actions", combatant="tk1", actions=1).status_code
        == 200
    )


def test_the_gm_sees_every_number_and_a_player_none_of_an_npcs(client, table):
    campaign, encounter, player, _kira, pc_id = table
    url = reverse("encounters:page", args=[campaign.pk, encounter.pk])
    _login(client, campaign.created_by)
    gm_page = client.get(url).content.decode()
    assert "blaster 4D" in gm_page and "Roll initiative" not in gm_page  # the order is next
    assert "rebels act first" in gm_page
    client.logout()
    _login(client, player)
    page = client.get(url).content.decode()
    assert 'id="you-' + pc_id + '"' in page
    row = page[page.index('id="row-tk1"') :]
    row = row[: row.index("</li>")]
    assert "4D" not in row and "blaster rifle" in row  # the weapon is seen, not its codes
    assert "rebels act first<" not in page and "Undo last step" not in page  # no GM buttons


def test_a_step_answers_only_the_changed_rows_out_of_band(client, table):
    campaign, encounter, _player, _kira, pc_id = table
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    response = _step(client, encounter, type="act", combatant="tk1", what="takes cover")
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="row-tk1"' in body and f'id="row-{pc_id}"' not in body
    assert 'id="enc-status" class="card status-card" aria-label="Round" hx-swap-oob="true"' in body
    assert "takes cover" in body


def test_a_refused_step_says_why_in_place_and_changes_nothing(client, table):
    campaign, encounter, _player, _kira, pc_id = table
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    _step(client, encounter, type="act", combatant="tk1")
    before = Encounter.objects.get(pk=encounter.pk)
    response = _step(client, encounter, type="attack", attacker="tk1", target=pc_id, difficulty=10)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert "no actions left" in response.content.decode()
    after = Encounter.objects.get(pk=encounter.pk)
    assert (after.version, after.state) == (before.version, before.state)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"type": "react", "combatant": "tk1", "skill": "dodge"}, "no attack on"),
        (
            {"type": "attack", "attacker": "tk1", "target": "x", "difficulty": "abc"},
            "not a whole number",
        ),
        ({"type": "frobnicate"}, "unknown encounter step"),
        ({"type": "act", "combatant": "tk1", "what": "a\x00b"}, "cannot contain NUL"),
        (
            {"type": "attack", "attacker": "tk1", "target": "{pc}", "range_band": "-1" * 40},
            "the range is one of",
        ),
        (
            {"type": "declare_actions", "combatant": "tk1", "actions": "99999999"},
            "not a whole number",
        ),
    ],
)
def test_bad_input_is_refused_with_a_reason(client, table, fields, words):
    campaign, encounter, _player, _kira, pc_id = table
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    version = Encounter.objects.get(pk=encounter.pk).version
    fields = {k: v.replace("{pc}", pc_id) if isinstance(v, str) else v for k, v in fields.items()}
    response = _step(client, encounter, **fields)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert Encounter.objects.get(pk=encounter.pk).version == version


def test_a_player_acts_for_his_own_combatant_only(client, table):
    campaign, encounter, player, _kira, pc_id = table
    _login(client, campaign.created_by)
    _step(client, encounter, type="choose_order", side="rebels", first="on")
    client.logout()
    _login(client, player)
    refused = _step(client, encounter, type="declare_actions", combatant="tk1", actions=3)
    assert refused.status_code == 400 and "your own character" in refused.content.decode()
    gm_only = _step(client, encounter, type="end_round")
    assert gm_only.status_code == 400 and "only the GM" in gm_only.content.decode()
    assert (
        _step(client, encounter, type="declare_actions", combatant=pc_id, actions=2).status_code
        == 200
    )


def test_a_stale_tab_gets_the_new_state_and_a_message(client, table):
    campaign, encounter, _player, _kira, _pc_id = table
    _login(client, campaign.created_by)
    _step(client, encounter, type="choose_order", side="rebels", first="on")
    response = _step(client, encounter, type="declare_actions", combatant="tk1", actions=1, seen=0)
    body = response.content.decode()
    assert response.status_code == 409
    assert "Someone else moved the encounter on" in body
    assert 'id="enc-rows"' in body  # the whole table as it is now
    assert Encounter.objects.get(pk=encounter.pk).version == 1


def test_the_player_dodges_with_his_odds_shown_and_cp_comes_off_his_sheet(
    client, table, monkeypatch
):
    campaign, encounter, player, kira, pc_id = table
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    _step(client, encounter, type="attack", attacker="tk1", target=pc_id, difficulty=10)
    client.logout()
    _login(client, player)
    page = client.get(reverse("encounters:page", args=[campaign.pk, encounter.pk])).content.decode()
    assert "You are under attack" in page and "chance to beat the base difficulty 10" in page
    # Dodge 3D with three actions now (-2D): 1D rolled as the Wild Die (4), 1 CP die (3).
    _fixed(monkeypatch, [4, 3])
    response = _step(client, encounter, type="react", combatant=pc_id, skill="dodge", cp_dice=1)
    assert response.status_code == 200, response.content.decode()
    assert Character.objects.get(pk=kira.pk).character_points == 4
    entry = LedgerEntry.objects.get(character=kira)
    assert entry.delta == -1 and "reaction" in entry.reason


def test_spending_more_cp_than_the_sheet_holds_is_refused_and_nothing_changes(client, table):
    campaign, encounter, _player, kira, pc_id = table
    Character.objects.filter(pk=kira.pk).update(character_points=0)
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    _step(client, encounter, type="attack", attacker="tk1", target=pc_id, difficulty=10)
    version = Encounter.objects.get(pk=encounter.pk).version
    response = _step(client, encounter, type="react", combatant=pc_id, skill="dodge", cp_dice=1)
    assert (
        response.status_code == 400 and "not enough Character Points" in response.content.decode()
    )
    assert Encounter.objects.get(pk=encounter.pk).version == version


def test_undo_refunds_the_points_the_step_spent(client, table, monkeypatch):
    campaign, encounter, _player, kira, pc_id = table
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    _step(client, encounter, type="attack", attacker="tk1", target=pc_id, difficulty=10)
    _fixed(monkeypatch, [4, 3])
    assert (
        _step(
            client, encounter, type="react", combatant=pc_id, skill="dodge", cp_dice=1
        ).status_code
        == 200
    )
    url = reverse("encounters:undo", args=[campaign.pk, encounter.pk])
    seen = Encounter.objects.get(pk=encounter.pk).version
    response = client.post(url, {"seen": seen}, **HX)
    assert response.status_code == 200
    assert 'id="enc-rows"' in response.content.decode()  # after an undo the table is redrawn
    assert Character.objects.get(pk=kira.pk).character_points == 5
    assert list(
        LedgerEntry.objects.filter(character=kira).values_list("delta", flat=True).order_by("pk")
    ) == [-1, 1]


def test_the_live_poll_is_204_until_the_encounter_moves(
    client, table, django_assert_max_num_queries
):
    campaign, encounter, player, _kira, _pc_id = table
    _login(client, player)
    url = reverse("encounters:live", args=[campaign.pk, encounter.pk])
    client.get(url, {"v": 0})  # warm the role cache
    with django_assert_max_num_queries(3):
        assert client.get(url, {"v": 0}).status_code == 204
    client.logout()
    _login(client, campaign.created_by)
    _step(client, encounter, type="choose_order", side="rebels", first="on")
    client.logout()
    _login(client, player)
    response = client.get(url, {"v": 0})
    assert response.status_code == 200
    assert 'id="enc-poller"' in response.content.decode() and "?v=1" in response.content.decode()


def test_outsiders_get_404_and_players_cannot_undo(client, table):
    campaign, encounter, player, _kira, _pc_id = table
    other = CampaignFactory()
    _login(client, other.created_by)
    assert (
        client.get(reverse("encounters:page", args=[campaign.pk, encounter.pk])).status_code == 404
    )
    assert (
        client.get(
            reverse("encounters:live", args=[campaign.pk, encounter.pk]), {"v": 0}
        ).status_code
        == 404
    )
    assert client.get(reverse("encounters:page", args=[other.pk, encounter.pk])).status_code == 404
    client.logout()
    _login(client, player)
    assert (
        client.post(
            reverse("encounters:undo", args=[campaign.pk, encounter.pk]), {"seen": 0}
        ).status_code
        == 403
    )
    assert Membership.objects.filter(campaign=campaign, user=player).exists()


def test_ending_carries_wounds_to_the_sheet(client, table):
    campaign, encounter, _player, kira, pc_id = table
    _login(client, campaign.created_by)
    _step(
        client, encounter, type="gm_override", combatant=pc_id, field="wound_level", value="wounded"
    )
    url = reverse("encounters:end", args=[campaign.pk, encounter.pk])
    response = client.post(url, {"seen": Encounter.objects.get(pk=encounter.pk).version})
    assert response.status_code == 302
    assert Character.objects.get(pk=kira.pk).wound_level == "wounded"
    assert Encounter.objects.get(pk=encounter.pk).is_ended
    later = _step(client, encounter, type="end_round")
    assert later.status_code == 400 and "has ended" in later.content.decode()


def test_a_player_cannot_set_the_gms_numbers_on_his_attack(client, table):
    """The difficulty, cover and bonuses are the GM's: a player's attack names a target and a
    range, and the range's standard difficulty (the one his odds were shown against) applies."""
    campaign, encounter, player, _kira, pc_id = table
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    client.logout()
    _login(client, player)
    mine = {"type": "attack", "attacker": pc_id, "target": "tk1", "range_band": "short"}
    for extra in ({"difficulty": 1}, {"attack_bonus": "30D"}, {"conditions": "half_cover"}):
        refused = _step(client, encounter, **mine, **extra)
        assert refused.status_code == 400 and "the GM sets" in refused.content.decode()
    assert _step(client, encounter, **mine).status_code == 200
    pending = Encounter.objects.get(pk=encounter.pk).current_state().pending
    assert pending is not None and pending.base == 10  # short range: Easy, 6-10


def test_a_medpac_used_in_the_fight_comes_off_the_healers_gear_at_the_end(
    client, table, monkeypatch
):
    """Kira, wounded, patches herself up with a medpac (first aid 4D+2, less 1D for her two
    declared actions, 1D for the wound and 1D for treating herself: 1D+2): the step stores the
    medpac used; the end of the fight takes one of her two medpacs off her sheet and writes her
    wound level."""
    from characters.models import Item
    from characters.tests.factories import ItemFactory

    campaign, encounter, _player, kira, pc_id = table
    medpacs = ItemFactory(
        character=kira, kind=Item.Kind.GEAR, name="Medpac", quantity=2, damage=None
    )
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    _step(
        client, encounter, type="gm_override", combatant=pc_id, field="wound_level", value="wounded"
    )
    _fixed(monkeypatch, [5])  # the Wild Die: 5 + 2 pips = 7 against Easy 6: healed
    response = _step(
        client, encounter, type="first_aid", healer=pc_id, patient=pc_id, medpac="on", difficulty=6
    )
    assert response.status_code == 200, response.content.decode()[:400]
    end = reverse("encounters:end", args=[campaign.pk, encounter.pk])
    client.post(end, {"seen": Encounter.objects.get(pk=encounter.pk).version})
    medpacs.refresh_from_db()
    assert medpacs.quantity == 1
    assert Character.objects.get(pk=kira.pk).wound_level == "none"


def test_a_player_waits_for_his_turn_to_act(client, table):
    """Kira declared two actions and took her first; the trooper's first action comes before
    her second (all first actions, then the second ones): her attack is refused with whose
    turn it is, and her page offers no attack form until she is due again."""
    campaign, encounter, player, _kira, pc_id = table
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    client.logout()
    _login(client, player)
    assert _step(client, encounter, type="act", combatant=pc_id, what="runs").status_code == 200
    refused = _step(
        client, encounter, type="attack", attacker=pc_id, target="tk1", range_band="short"
    )
    assert refused.status_code == 400 and "Tk1&#x27;s action now" in refused.content.decode()
    page = client.get(reverse("encounters:page", args=[campaign.pk, encounter.pk])).content
    assert b'name="type" value="attack"' not in page


def test_a_missed_shot_clears_the_targets_under_attack_mark(client, table, monkeypatch):
    """A miss changes no wound, but the target's row must lose its "under attack" mark on
    every page: the resolve step's answer redraws both rows."""
    campaign, encounter, _player, _kira, pc_id = table
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    _step(client, encounter, type="attack", attacker="tk1", target=pc_id, difficulty=30)
    _fixed(monkeypatch, [2, 2, 2, 2])  # blaster 4D: 8 against 30, a miss
    body = _step(client, encounter, type="resolve_attack").content.decode()
    assert "misses" in body
    row = body[body.index(f'id="row-{pc_id}"') :]
    assert "under attack" not in row[: row.index("</li>")]


def test_a_grenade_thrown_from_the_dashboard_catches_whom_the_gm_names(client, table, monkeypatch):
    """Kira throws a grenade (Dexterity 2D: 6 against 5, on the spot); the dashboard then asks
    who is caught and how far from it; the trooper at 0 m takes 5D against his Strength 2D."""
    campaign, encounter, _player, _kira, pc_id = table
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    _fixed(monkeypatch, [3, 3])
    thrown = _step(
        client,
        encounter,
        type="throw",
        thrower=pc_id,
        name="grenade",
        damage="5D/4D/3D/2D",
        radius="0-2/4/6/10",
        difficulty=5,
    )
    assert thrown.status_code == 200, thrown.content.decode()[:300]
    assert (
        "It goes off" in thrown.content.decode() and 'name="victim__tk1"' in thrown.content.decode()
    )
    _fixed(monkeypatch, [3, 3, 3, 3, 3, 2, 2])  # damage 15 against Strength 4: margin 11
    blown = _step(client, encounter, type="detonate", victim__tk1="0", **{f"victim__{pc_id}": ""})
    assert blown.status_code == 200, blown.content.decode()[:300]
    state = Encounter.objects.get(pk=encounter.pk).current_state()
    assert state.combatant("tk1").wounds.level.value == "incapacitated"
    assert state.combatant(pc_id).wounds.level.value == "none"
    nobody = _step(client, encounter, type="throw", thrower=pc_id, damage="5D", radius="x")
    assert nobody.status_code == 400


def test_a_force_point_on_a_dodge_comes_off_the_sheet_and_doubles_the_round(
    client, table, monkeypatch
):
    """Kira spends a Force Point on her dodge: the ledger takes it from her sheet, and her
    attack odds on the page are computed with her codes doubled."""
    campaign, encounter, player, kira, pc_id = table
    Character.objects.filter(pk=kira.pk).update(force_points=1)
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    _step(client, encounter, type="attack", attacker="tk1", target=pc_id, difficulty=10)
    client.logout()
    _login(client, player)
    _fixed(monkeypatch, [3] * 12)
    response = _step(
        client, encounter, type="react", combatant=pc_id, skill="dodge", force_point="on"
    )
    assert response.status_code == 200, response.content.decode()[:300]
    assert Character.objects.get(pk=kira.pk).force_points == 0
    assert LedgerEntry.objects.get(character=kira, currency="fp").delta == -1
    state = Encounter.objects.get(pk=encounter.pk).current_state()
    assert state.combatant(pc_id).reactions[0].total == 3 * 4  # dodge 3D doubled, less 2D: 4D


def test_taking_someone_out_redraws_the_gms_lists_of_who_can_act(client, table, monkeypatch):
    """Kira's shot incapacitates the trooper: the answer redraws the GM's controls, whose
    attacker list no longer offers him."""
    campaign, encounter, _player, _kira, pc_id = table
    _login(client, campaign.created_by)
    _to_round(client, encounter, pc_id)
    _step(client, encounter, type="attack", attacker=pc_id, target="tk1", difficulty=5)
    # blaster 4D less 1D (two actions): 3 3 3 = 9 hits; rifle 5D: 25 against Strength 2D: 4
    _fixed(monkeypatch, [3, 3, 3, 5, 5, 5, 5, 5, 2, 2])
    body = _step(client, encounter, type="resolve_attack").content.decode()
    assert 'id="enc-controls"' in body
    attackers = body[body.index('id="atk-attacker"') :]
    attackers = attackers[: attackers.index("</select>")]
    assert 'value="tk1"' not in attackers and f'value="{pc_id}"' in attackers
