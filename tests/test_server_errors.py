"""Input a user can send that used to end in a 500 (issue 12, defect 5). Run these on
PostgreSQL (scripts/test.sh): it enforces column lengths and refuses NUL characters in text,
where SQLite lets both through."""

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

from campaigns.tests.factories import (
    CampaignFactory,
    InvitationFactory,
    MembershipFactory,
    UserFactory,
)
from characters.models import DiceRoll
from characters.services import roll_trait
from characters.tests.factories import CharacterFactory, SkillFactory
from config.errors import server_error
from rules.dice import SeededDice

FORM = "application/x-www-form-urlencoded"
LABEL_MAX = DiceRoll._meta.get_field("label").max_length


@pytest.fixture
def client():
    """A client that answers a 500 as a status, the way a browser would see it."""
    return Client(raise_request_exception=False)


@pytest.fixture
def long_skill(db):
    character = CharacterFactory(character_points=5)
    skill = SkillFactory(character=character, name="S" * 80, code="4D")
    return character, skill


# --- a long custom skill with a long note -------------------------------------------------------
def test_rolling_a_long_skill_with_a_long_note_is_stored_with_the_whole_skill_name(long_skill):
    character, skill = long_skill
    note = "n" * 60
    roll = roll_trait(
        character,
        character.owner,
        f"skill:{skill.pk}",
        ruleset=character.campaign.ruleset,
        note=note,
        rng=SeededDice(1),
    )
    roll.refresh_from_db()
    assert len(roll.label) <= LABEL_MAX
    assert roll.label.startswith(skill.name + " (")
    assert roll.label.endswith("…)")


def test_a_short_note_is_kept_whole_in_the_roll_label(long_skill):
    character, skill = long_skill
    roll = roll_trait(
        character,
        character.owner,
        f"skill:{skill.pk}",
        ruleset=character.campaign.ruleset,
        note="stun",
        rng=SeededDice(1),
    )
    assert roll.label == f"{skill.name} (stun)"


def test_rolling_a_long_skill_with_a_long_note_from_the_sheet_is_not_a_server_error(
    client, long_skill
):
    character, skill = long_skill
    client.force_login(character.owner)
    url = reverse("characters:roll", args=[character.campaign_id, character.pk])
    data = {"trait": f"skill:{skill.pk}", "actions": 1, "modifier": 0, "cp": 0, "note": "n" * 60}
    response = client.post(url, data)
    assert response.status_code == 302
    assert DiceRoll.objects.get(character=character).label.startswith(skill.name)


# --- a 256-character username at log-in ------------------------------------------------------
def test_logging_in_with_a_256_character_username_is_refused_with_a_form_error(client, db):
    response = client.post(reverse("login"), {"username": "u" * 256, "password": "whatever-1"})
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated


def test_logging_in_with_a_long_wrong_username_still_counts_towards_the_lockout(client, db):
    for _ in range(2):
        client.post(reverse("login"), {"username": "u" * 150, "password": "whatever-1"})
    assert AccessAttempt.objects.filter(username="u" * 150).get().failures_since_start == 2


# --- a NUL in an invitation link -------------------------------------------------------------
@pytest.mark.parametrize("token", ["%00", "abc%00def", "%F0%9F%92%A5", "a" * 65, "a.b"])
def test_a_link_with_characters_no_invitation_token_has_is_an_unknown_invitation(client, db, token):
    client.force_login(UserFactory())
    response = client.get(f"/campaigns/join/{token}/")
    assert response.status_code == 404
    assert "invitation" in response.content.decode().lower()


def test_a_real_invitation_link_still_opens(client, db):
    invitation = InvitationFactory()
    client.force_login(UserFactory())
    response = client.get(reverse("campaigns:join", args=[invitation.token]))
    assert response.status_code == 200
    assert invitation.campaign.name in response.content.decode()


# --- a form body that cannot be read --------------------------------------------------------
def _client_with_csrf_cookie(user):
    """A client that sends the CSRF cookie and header as a browser would, so the CSRF check
    reads the body (the test client skips that check unless told not to)."""
    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    client.force_login(user)
    client.get(reverse("home"))  # sets the CSRF cookie
    return client, client.cookies["csrftoken"].value


@pytest.mark.parametrize(
    ("content_type", "body", "status"),
    [
        (f"{FORM}; charset=latin-1", b"name=\xff", 400),
        (f"{FORM}; charset=utf-16", b"\xff\xfen\x00=\x00", 400),
        ("multipart/form-data", b"name=x", 400),
        # Django reads a form body that is not UTF-8 as Latin-1: a campaign named "ÿþ".
        (f"{FORM}; charset=utf-8", b"name=\xff\xfe", 302),
    ],
    ids=["latin-1", "utf-16", "multipart-without-boundary", "utf-8-with-invalid-bytes"],
)
def test_a_form_body_that_cannot_be_read_is_a_bad_request_not_a_server_error(
    db, content_type, body, status
):
    campaign = CampaignFactory()
    client, token = _client_with_csrf_cookie(campaign.created_by)
    url = reverse("campaigns:edit", args=[campaign.pk])
    response = client.generic(
        "POST", url, body, content_type=content_type, headers={"X-CSRFToken": token}
    )
    assert response.status_code == status
    if status == 400:
        assert "could not be read" in response.content.decode()


def test_the_403_page_gives_the_reason_and_the_404_page_does_not_echo_the_path(client, db):
    member = MembershipFactory()
    client.force_login(member.user)
    forbidden = client.get(reverse("campaigns:edit", args=[member.campaign_id]))
    assert forbidden.status_code == 403
    assert "game masters" in forbidden.content.decode()
    missing = client.get("/campaigns/0/<b>nope</b>/")
    assert missing.status_code == 404
    assert "<b>nope</b>" not in missing.content.decode()
    assert "Nothing here" in missing.content.decode()


def test_the_server_error_page_needs_neither_the_request_nor_the_database(rf):
    """No ``db`` fixture: a query would fail the test."""
    request = rf.generic("POST", "/", b"\xff", content_type=f"{FORM}; charset=latin-1")
    response = server_error(request)
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_a_note_with_a_nul_character_is_refused_before_rolling(long_skill):
    character, skill = long_skill
    with pytest.raises(ValueError, match="NUL"):
        roll_trait(
            character,
            character.owner,
            f"skill:{skill.pk}",
            ruleset=character.campaign.ruleset,
            note="a\x00b",
            rng=SeededDice(1),
        )
    assert not DiceRoll.objects.exists()


def test_an_unreadable_form_body_is_a_400_with_debug_on_too(db, settings):
    # make run serves with DEBUG on, where Django's technical 400 page re-reads the body.
    settings.DEBUG = True
    campaign = CampaignFactory()
    client, token = _client_with_csrf_cookie(campaign.created_by)
    url = reverse("campaigns:edit", args=[campaign.pk])
    response = client.generic(
        "POST",
        url,
        b"name=\xff",
        content_type=f"{FORM}; charset=latin-1",
        headers={"X-CSRFToken": token},
    )
    assert response.status_code == 400


@pytest.mark.parametrize(
    "url",
    [
        "/campaigns/10000000000000000000000000000/",
        "/campaigns/1/characters/99999999999999999999999/",
    ],
)
def test_an_id_too_large_for_any_row_is_a_404_on_sqlite_too(client, db, url):
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    ("status", "url", "message"),
    [
        (404, "/campaigns/999999/", "not here"),
        (403, "edit", "game masters"),
    ],
)
def test_a_refused_htmx_request_gets_its_message_as_an_alert_fragment(
    client, db, status, url, message
):
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    client.force_login(player)
    if url == "edit":
        url = reverse("campaigns:edit", args=[campaign.pk])
    response = client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == status
    text = response.content.decode()
    assert text.strip().startswith('<div class="alert error" role="alert"') and "<html" not in text
    assert message in text


def test_a_stale_csrf_token_says_to_reload_in_place_for_htmx(db):
    campaign = CampaignFactory()
    client = Client(enforce_csrf_checks=True)
    client.force_login(campaign.created_by)
    response = client.post(
        reverse("campaigns:edit", args=[campaign.pk]),
        {"name": "x"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 403
    assert 'role="alert"' in response.content.decode()
    assert "reload it and try again" in response.content.decode()


def test_debug_mode_keeps_refusals_in_place(client, settings):
    """`make run` serves with DEBUG on. django-htmx's debug error handler (added by its
    htmx_script tag in DEBUG) replaces the whole page with any 4xx answer, which wiped a
    player's page on a refused step; the page loads htmx alone."""
    settings.DEBUG = True
    page = client.get("/").content.decode()
    assert "htmx-2.min.js" in page
    assert "django-htmx.js" not in page


def test_no_template_comment_leaks_onto_a_page(client):
    """A `{# #}` comment spans one line only; one written over two is printed as text."""
    page = client.get("/").content.decode()
    assert "{#" not in page and "#}" not in page
