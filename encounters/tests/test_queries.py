"""What an encounter costs the database (issue 15, "Done when"): the GM's dashboard and a
player's view render in the same number of queries with 5 combatants as with 50; each step of
one attack (announce, dodge, the roll that hits and wounds) is one bounded set of queries that
does not grow with the fight; the live poll answers an unchanged page in at most three queries
and a changed one with the rows that changed, not the whole table.

Counts are taken with Django's ``CaptureQueriesContext`` around one request (a step's count
includes the SAVEPOINT and RELEASE of its transaction inside the test's: two statements that
are BEGIN and COMMIT, not counted, outside a test); the fights are built with the engine's
state and started with :func:`encounters.services.start_encounter`, and the dice are fixed
(the attack really hits and wounds)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.tests.factories import CharacterFactory
from encounters import views
from encounters.models import Encounter
from encounters.services import start_encounter
from encounters.tests.helpers import fighter
from rules.combat import ActionCount
from rules.dice import DieCode, FixedDice
from rules.encounter import EncounterState
from rules.injuries import WoundLevel

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
D = DieCode.parse

PAGE_CEILING = 10
"""The most queries a page may take, whatever the number of combatants."""
STEP_CEILING = 10
"""The most queries one step of an attack may take (the issue's goal)."""
POLL_CEILING = 3
"""An unchanged live poll: the session, the user and the encounter's version."""

# The attack's dice, in the order the engine draws them (rules/dice/rolling.py ``roll``: the
# ordinary dice, then the Wild Die chain; rules/encounter/resolve.py: the attack roll, then
# damage, then Strength). The trooper's blaster 4D with one declared action: no penalty.
DODGE = [3, 4]
"""Kira's dodge 3D as an extra action (two actions: -1D): 2D, one die and the Wild Die = 7."""
ATTACK = [5, 5, 5, 5]
"""Blaster 4D, three dice and the Wild Die = 20 against the dodge's 7: a hit."""
DAMAGE = [2, 2, 2, 2, 3]
"""Blaster rifle 5D, four dice and the Wild Die (on damage) = 11."""
STRENGTH = [2, 2]
"""Kira's Strength 2D against it = 4: a margin of 7, Wounded."""


@dataclass
class Fight:
    campaign: object
    encounter: Encounter
    player: object
    pc_id: str

    def url(self, name: str) -> str:
        return reverse(f"encounters:{name}", args=[self.campaign.pk, self.encounter.pk])

    def version(self) -> int:
        return Encounter.objects.get(pk=self.encounter.pk).version

    @property
    def bystanders(self) -> list[str]:
        """Combatants no attack in these tests touches (tk1 attacks Kira)."""
        state = Encounter.objects.get(pk=self.encounter.pk).current_state()
        return [c.id for c in state.combatants if c.id not in (self.pc_id, "tk1")]


def _fight(size: int) -> Fight:
    """Kira (a player's character) against ``size - 1`` stormtroopers, in the round, every
    combatant having declared one action."""
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    kira = CharacterFactory(campaign=campaign, owner=player, name="Kira")
    pc = fighter(
        f"pc-{kira.pk}",
        "rebels",
        name="Kira",
        perception=D("4D"),
        npc=False,
        actions=ActionCount(1),
    )
    troopers = tuple(
        fighter(f"tk{i}", "empire", name=f"Trooper {i}", actions=ActionCount(1))
        for i in range(1, size)
    )
    everyone = (pc, *troopers)
    state = EncounterState(
        combatants=everyone,
        phase="round",
        side_order=("rebels", "empire"),
        order=tuple(c.id for c in everyone),
    )
    encounter = start_encounter(campaign, "Fifty at the docks", campaign.created_by, state=state)
    return Fight(campaign, encounter, player, pc.id)


def _count(request) -> tuple[int, object, list[str]]:
    """The queries one request takes, its response and the start of each query's SQL (for the
    failure message)."""
    with CaptureQueriesContext(connection) as queries:
        response = request()
    return len(queries), response, [q["sql"][:160] for q in queries.captured_queries]


def _step(client, fight: Fight, **fields):
    if "seen" not in fields:
        fields["seen"] = fight.version()
    return client.post(fight.url("step"), fields, **HX)


def _announce(client, fight: Fight) -> None:
    """The GM announces trooper 1's shot at Kira (no dice)."""
    attack = {"type": "attack", "attacker": "tk1", "target": fight.pc_id, "difficulty": 10}
    assert _step(client, fight, **attack).status_code == 200


def _page_queries(client, size: int, *, as_player: bool) -> tuple[int, str, list[str]]:
    fight = _fight(size)
    client.force_login(fight.player if as_player else fight.campaign.created_by)
    client.get(fight.url("page"))  # the same warm caches (role, content types) for both sizes
    count, response, sql = _count(lambda: client.get(fight.url("page")))
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('<li id="row-') == size  # every combatant is drawn
    client.logout()
    return count, body, sql


@pytest.mark.parametrize("as_player", [False, True], ids=["gm-dashboard", "player-view"])
def test_the_encounter_page_takes_the_same_queries_with_5_and_50_combatants(client, as_player):
    five, _, five_sql = _page_queries(client, 5, as_player=as_player)
    fifty, body, fifty_sql = _page_queries(client, 50, as_player=as_player)
    assert fifty == five, "\n".join(["5 combatants:", *five_sql, "50 combatants:", *fifty_sql])
    assert fifty <= PAGE_CEILING, "\n".join(fifty_sql)
    if as_player:
        assert 'id="you-pc-' in body  # the player's own card is part of what was counted
    else:
        assert "Announce the attack" in body  # the GM's controls too


def _attack_queries(client, monkeypatch, size: int) -> tuple[list[int], list[list[str]]]:
    """The queries of each step of one attack taken by the GM as HTMX requests: trooper 1
    fires at Kira, Kira dodges, the attack is rolled, hits and wounds her."""
    fight = _fight(size)
    client.force_login(fight.campaign.created_by)
    client.get(fight.url("page"))
    steps = [
        ([], {"type": "attack", "attacker": "tk1", "target": fight.pc_id, "difficulty": 10}),
        (DODGE, {"type": "react", "combatant": fight.pc_id, "skill": "dodge"}),
        ([*ATTACK, *DAMAGE, *STRENGTH], {"type": "resolve_attack"}),
    ]
    counts, sqls = [], []
    for faces, fields in steps:
        monkeypatch.setattr(views, "dice", lambda faces=faces: FixedDice(faces))
        seen = fight.version()
        count, response, sql = _count(
            lambda fields=fields, seen=seen: _step(client, fight, seen=seen, **fields)
        )
        assert response.status_code == 200, response.content.decode()[:500]
        assert fight.version() == seen + 1  # the step was taken
        counts.append(count)
        sqls.append(sql)
    last = response.content.decode()
    assert "hits Kira" in last and "now Wounded" in last
    state = Encounter.objects.get(pk=fight.encounter.pk).current_state()
    assert state.combatant(fight.pc_id).wounds.level is WoundLevel.wounded
    client.logout()
    return counts, sqls


def test_each_step_of_one_attack_takes_a_bounded_number_of_queries(client, monkeypatch):
    five, five_sql = _attack_queries(client, monkeypatch, 5)
    fifty, fifty_sql = _attack_queries(client, monkeypatch, 50)
    names = ("announce", "react", "resolve")
    for name, few, many, sql_few, sql_many in zip(
        names, five, fifty, five_sql, fifty_sql, strict=True
    ):
        detail = "\n".join(
            [f"{name}, 5 combatants:", *sql_few, f"{name}, 50 combatants:", *sql_many]
        )
        assert many == few, detail
        assert many <= STEP_CEILING, detail


def _players_dodge_queries(client, monkeypatch, size: int) -> tuple[int, list[str]]:
    """The queries of Kira's player dodging trooper 1's attack from his phone."""
    fight = _fight(size)
    client.force_login(fight.campaign.created_by)
    _announce(client, fight)
    client.force_login(fight.player)
    client.get(fight.url("page"))
    monkeypatch.setattr(views, "dice", lambda: FixedDice(DODGE))
    seen = fight.version()
    count, response, sql = _count(
        lambda: _step(client, fight, seen=seen, type="react", combatant=fight.pc_id, skill="dodge")
    )
    assert response.status_code == 200, response.content.decode()[:500]
    assert "Kira rolls dodge: 7" in response.content.decode()
    assert fight.version() == seen + 1
    client.logout()
    return count, sql


def test_a_players_own_dodge_takes_a_bounded_number_of_queries(client, monkeypatch):
    five, five_sql = _players_dodge_queries(client, monkeypatch, 5)
    fifty, fifty_sql = _players_dodge_queries(client, monkeypatch, 50)
    detail = "\n".join(["5 combatants:", *five_sql, "50 combatants:", *fifty_sql])
    assert fifty == five, detail
    assert fifty <= STEP_CEILING, detail


def _live_poll(client, fight: Fight, since: int):
    return client.get(fight.url("live"), {"v": since}, **HX)


@pytest.mark.parametrize("size", [5, 50])
def test_the_live_poll_is_cheap_unchanged_and_sends_only_the_changed_rows(
    client, monkeypatch, size
):
    fight = _fight(size)
    client.force_login(fight.player)
    page = client.get(fight.url("page")).content.decode()
    seen = fight.version()
    assert f"?v={seen}" in page  # the poller asks from the version the page shows
    _live_poll(client, fight, seen)  # the role cache is warm, as it is for every later poll
    count, response, sql = _count(lambda: _live_poll(client, fight, seen))
    assert response.status_code == 204
    assert count <= POLL_CEILING, "\n".join(sql)

    client.force_login(fight.campaign.created_by)
    _announce(client, fight)
    client.force_login(fight.player)
    count, response, sql = _count(lambda: _live_poll(client, fight, seen))
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="row-{fight.pc_id}"' in body and 'id="row-tk1"' in body  # the two in the attack
    assert 'id="enc-rows"' not in body  # not the whole table
    sent = [cid for cid in fight.bystanders if f'id="row-{cid}"' in body]
    assert sent == [], f"rows of combatants the attack did not touch were sent: {sent}"
    assert count <= PAGE_CEILING, "\n".join(sql)
    assert "You are under attack" in body  # the player's card changed too: he may dodge now
