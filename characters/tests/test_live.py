"""The live channel (issue 14): one poll per open page, 204 while nothing it holds changed, only
what is new when something did; hidden rolls never show in a player's version or cursor."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Membership
from campaigns.tests.factories import MembershipFactory
from characters.models import Character, Currency
from characters.services import change_balance, roll_trait
from characters.tests.factories import CharacterFactory, NPCFactory
from rules import RuleSet, SeededDice

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
POLLER = re.compile(r'id="live"[^>]*hx-get="([^"]+)"')


@pytest.fixture(autouse=True)
def _commits(django_capture_on_commit_callbacks, monkeypatch):
    """Versions move after a commit, and a test's transaction never commits: run each bump's
    commit hook as the change that registers it completes, as a real commit would."""
    from characters import live

    real = live.bump

    def bump_now(campaign_id, *, public):
        with django_capture_on_commit_callbacks(execute=True):
            real(campaign_id, public=public)

    monkeypatch.setattr(live, "bump", bump_now)


@pytest.fixture
def hero(client):
    character = CharacterFactory(name="Kyle")
    client.force_login(character.owner)
    return character


def gm_of(character):
    return character.campaign.created_by


def roll(character, actor, **kwargs):
    return roll_trait(
        character, actor, "attr:dexterity", ruleset=RuleSet(), rng=SeededDice(3), **kwargs
    )


def poller(html: str) -> str:
    return POLLER.search(html).group(1).replace("&amp;", "&")


def log_page(client, character):
    return client.get(reverse("characters:dice_log", args=[character.campaign_id])).text


def test_an_unchanged_poll_is_a_204_with_no_query_beyond_authentication(client, hero):
    url = poller(log_page(client, hero))
    client.get(url, **HTMX)  # the member's role is cached by the first poll
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **HTMX)
    assert response.status_code == 204 and response.content == b""
    tables = {re.search(r'FROM "(\w+)"', q["sql"]).group(1) for q in queries.captured_queries}
    assert tables <= {"django_session", "auth_user"}, tables


def test_a_new_roll_comes_alone_at_the_top_with_a_new_poller(client, hero):
    roll(hero, hero.owner)
    url = poller(log_page(client, hero))
    roll(hero, hero.owner, note="the second")
    response = client.get(url, **HTMX)
    assert response.status_code == 200
    text = response.text
    assert 'hx-swap-oob="afterbegin:#rolls"' in text
    assert text.count('class="roll-entry') == 1 and "the second" in text
    assert poller(text) != url
    # Nothing but the poller and out-of-band pieces: no stray text lands beside the poller.
    outside = re.sub(r"<(\w+)[^>]*hx-swap-oob=.*?</\1>", "", text, flags=re.S)
    outside = re.sub(r'<div id="live"[^>]*></div>', "", outside)
    assert not outside.strip(), outside
    assert client.get(poller(text), **HTMX).status_code == 204


def test_a_hidden_roll_never_changes_a_players_poll(client, hero):
    url = poller(log_page(client, hero))
    roll(hero, gm_of(hero), hidden=True)
    assert client.get(url, **HTMX).status_code == 204


def test_the_gm_sees_the_hidden_roll_come_in(client, hero):
    client.force_login(gm_of(hero))
    url = poller(log_page(client, hero))
    roll(hero, gm_of(hero), hidden=True, note="secret plan")
    response = client.get(url, **HTMX)
    assert response.status_code == 200 and "secret plan" in response.text


def test_making_an_npc_secret_rewrites_a_players_log_without_its_name(client, hero):
    npc = NPCFactory(campaign=hero.campaign, name="Inquisitor Vael")
    roll(npc, gm_of(hero), hidden=False)
    page = log_page(client, hero)
    assert "Vael" in page
    npc.secret = True
    npc.save()
    response = client.get(poller(page), **HTMX)
    assert response.status_code == 200
    assert 'id="rolls" class="rolls" hx-swap-oob="true"' in response.text
    assert "Vael" not in response.text and "The GM" in response.text


def test_the_version_and_cursors_reveal_no_database_id(client, hero):
    rolls = [roll(hero, gm_of(hero), hidden=i % 2 == 0) for i in range(9)]
    url = poller(log_page(client, hero))
    numbers = {int(n) for n in re.findall(r"=(\d+)", url)}
    assert not numbers & {r.pk for r in rolls}


def test_a_removed_player_is_refused_at_once(client, hero):
    url = poller(log_page(client, hero))
    assert client.get(url, **HTMX).status_code == 204
    Membership.objects.get(campaign=hero.campaign, user=hero.owner).delete()
    assert client.get(url, **HTMX).status_code == 404


def test_an_outsider_cannot_poll(client, hero):
    client.force_login(MembershipFactory().user)
    url = reverse("characters:live", args=[hero.campaign_id]) + "?v=1"
    assert client.get(url, **HTMX).status_code == 404


def test_a_sheet_shows_a_gm_awarded_point_and_a_new_wound(client, hero):
    page = client.get(hero.get_absolute_url()).text
    assert "sheet=" in poller(page) and "strip=" in poller(page)
    url = poller(client.get(poller(page), **HTMX).text)  # the first answer's version
    assert client.get(url, **HTMX).status_code == 204
    change_balance(hero, Currency.CP, 4, "good play", gm_of(hero))
    response = client.get(url, **HTMX)
    assert re.search(r'id="balances"[^>]*hx-swap-oob="true"', response.text)
    assert re.search(r"<dd>4</dd>", response.text)
    assert re.search(r'id="wound"[^>]*hx-swap-oob="true"', response.text)


def test_the_sheets_strip_shows_the_five_latest_visible_rolls(client, hero):
    for _ in range(6):
        roll(hero, hero.owner)
    roll(hero, gm_of(hero), hidden=True, note="secret plan")
    page = client.get(hero.get_absolute_url()).text
    assert "Loading the latest rolls" in page  # the poller's first answer fills it
    text = client.get(poller(page), **HTMX).text
    strip = text[text.index('id="roll-strip"') :]
    assert strip.count("<li>") == 5 and "secret plan" not in strip


def test_an_empty_campaigns_strip_says_so_after_the_first_poll(client, hero):
    page = client.get(hero.get_absolute_url()).text
    text = client.get(poller(page), **HTMX).text
    assert "No rolls in this campaign yet" in text


def test_a_new_roll_reaches_the_strip_of_an_open_sheet(client, hero):
    first = client.get(poller(client.get(hero.get_absolute_url()).text), **HTMX)
    url = poller(first.text)
    roll(hero, gm_of(hero), note="from the GM")
    response = client.get(url, **HTMX)
    assert re.search(r'id="roll-strip" hx-swap-oob="true"', response.text)
    assert "from the GM" in response.text


def test_a_player_cannot_hold_a_secret_npcs_sheet(client, hero):
    npc = NPCFactory(campaign=hero.campaign, secret=True, name="Hidden Hand")
    url = reverse("characters:live", args=[hero.campaign_id]) + f"?v=0&sheet={npc.pk}"
    response = client.get(url, **HTMX)
    assert response.status_code == 200 and "Hidden Hand" not in response.text
    assert 'id="balances"' not in response.text


def test_changing_a_character_moves_the_version(client, hero):
    url = poller(log_page(client, hero))
    Character.objects.get(pk=hero.pk).save()
    assert client.get(url, **HTMX).status_code == 200
