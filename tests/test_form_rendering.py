"""Forms as a user meets them: help and error texts are tied to their inputs (so a screen
reader reads them with the input), each error is shown once, live regions do not break list
semantics, and nothing a user typed is rendered as HTML."""

from html.parser import HTMLParser

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from campaigns.tests.factories import CampaignFactory, MembershipFactory, UserFactory
from characters.models import CreationDraft
from characters.tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db

ATTRIBUTES = ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical")
MARKUP = "<img src=x onerror=alert(1)>"


class _Elements(HTMLParser):
    """Every element of a page as (tag, attributes), in document order."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, {name: value or "" for name, value in attrs}))


def elements(response) -> list[tuple[str, dict[str, str]]]:
    return _Elements(response.content.decode()).elements


def main_text(response) -> str:
    html = response.content.decode()
    return html[html.index("<main") : html.index("</main>")]


def begin_draft(client, campaign, user) -> CreationDraft:
    client.force_login(user)
    response = client.post(reverse("characters:wizard_start", args=[campaign.pk]), {"kind": "pc"})
    assert response.status_code == 302
    return CreationDraft.objects.get(user=user)


def step_url(draft, step):
    return reverse("characters:wizard_step", args=[draft.campaign_id, draft.pk, step])


# ---------------------------------------------------------------------------------------------
# Defect 14: no user text rendered as HTML
# ---------------------------------------------------------------------------------------------
def test_a_species_name_with_markup_is_shown_as_text_on_the_attributes_step(client):
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    draft = begin_draft(client, campaign, player)
    limits = {
        f"{a}_{end}": code for a in ATTRIBUTES for end, code in (("min", "1D"), ("max", "4D"))
    }
    species = {"species": "custom", "custom_name": MARKUP, "move": "10", **limits}
    assert client.post(step_url(draft, "species"), species).status_code == 302

    page = client.get(step_url(draft, "attributes")).content.decode()

    assert MARKUP not in page
    assert "&lt;img src=x onerror=alert(1)&gt;: 1D to 4D" in page


def test_the_password_rules_are_still_shown_as_a_list(client):
    """Django's own help text for a new password is HTML it builds safely; it stays a list."""
    page = client.get(reverse("signup")).content.decode()

    assert "<li>Your password must contain at least 8 characters.</li>" in page


# ---------------------------------------------------------------------------------------------
# Defect 21: each error once
# ---------------------------------------------------------------------------------------------
def test_a_wrong_password_error_is_shown_once(client):
    user = UserFactory()
    response = client.post(reverse("login"), {"username": user.username, "password": "wrong"})

    assert main_text(response).count("Please enter a correct username and password") == 1


def test_a_sign_up_error_is_shown_once(client):
    data = {"username": "mara", "password1": "a-long-test-password-42", "password2": "different"}
    response = client.post(reverse("signup"), data)

    assert main_text(response).count("The two password fields didn’t match.") == 1


def test_an_empty_sign_up_says_each_field_is_required_once(client):
    response = client.post(reverse("signup"), {"username": ""})

    assert main_text(response).count("This field is required.") == 3  # username, 2 passwords


def test_a_campaign_form_error_is_shown_once(client):
    client.force_login(UserFactory())
    response = client.post(reverse("campaigns:create"), {"name": ""})

    assert main_text(response).count("This field is required.") == 1


def test_an_invalid_die_code_in_the_wizard_is_shown_once(client):
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    draft = begin_draft(client, campaign, player)
    codes = dict.fromkeys(ATTRIBUTES, "3D")

    response = client.post(step_url(draft, "attributes"), {**codes, "technical": "9D+7"})

    assert main_text(response).count("9D+7 has 7 pips") == 1


def test_the_live_check_of_the_wizard_still_names_an_invalid_die_code(client):
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    draft = begin_draft(client, campaign, player)

    response = client.post(
        step_url(draft, "attributes"),
        {"technical": "9D+7", "_live": "1"},
        HTTP_HX_REQUEST="true",
    )

    assert response.content.decode().count("9D+7 has 7 pips") == 1


# ---------------------------------------------------------------------------------------------
# Defect 22: help and error texts linked to their inputs; roles off lists
# ---------------------------------------------------------------------------------------------
def _form_pages(client):
    """(name, response) for every form of the project in the state where it shows errors, and
    help texts."""
    campaign = CampaignFactory()
    gm = campaign.created_by
    player = MembershipFactory(campaign=campaign).user
    character = CharacterFactory(campaign=campaign, owner=player)
    pages = [
        ("sign-up", client.post(reverse("signup"), {"username": "", "email": "nope"})),
        ("log-in", client.post(reverse("login"), {"username": gm.username, "password": "x"})),
        ("password reset", client.post(reverse("password_reset"), {"email": "nope"})),
    ]
    uid = urlsafe_base64_encode(force_bytes(gm.pk))
    token = default_token_generator.make_token(gm)
    confirm = client.get(reverse("password_reset_confirm", args=[uid, token]), follow=True)
    pages.append(("new password", client.post(confirm.redirect_chain[-1][0], {})))

    client.force_login(gm)
    pages += [
        ("password change", client.post(reverse("password_change"), {"old_password": "x"})),
        ("new campaign", client.post(reverse("campaigns:create"), {"name": ""})),
        (
            "rule options",
            client.post(reverse("campaigns:rules", args=[campaign.pk]), {"cp_on_damage": "x"}),
        ),
        ("character edit", client.post(character_url("edit", character), {"name": ""})),
        ("ledger", client.get(character_url("ledger", character))),
        ("wizard start", client.get(reverse("characters:wizard_start", args=[campaign.pk]))),
    ]
    draft = begin_draft(client, campaign, gm)
    pages += [
        ("species", client.post(step_url(draft, "species"), {"species": "custom", "move": "x"})),
        ("attributes", client.post(step_url(draft, "attributes"), {"dexterity": "9D+7"})),
        (
            "skills",
            client.post(
                step_url(draft, "skills"),
                {
                    "skills-TOTAL_FORMS": "1",
                    "skills-INITIAL_FORMS": "0",
                    "skills-0-name": "blaster",
                    "skills-0-code": "9D+7",
                },
            ),
        ),
        ("force", client.post(step_url(draft, "force"), {"powers": ["no such power"]})),
        ("gear", client.post(step_url(draft, "gear"), {"credits": "-5"})),
        ("background", client.post(step_url(draft, "background"), {"age": "x"})),
    ]
    return pages


def character_url(name, character):
    return reverse(f"characters:{name}", args=[character.campaign_id, character.pk])


def test_every_described_input_points_at_texts_on_the_page(client):
    missing = []
    linked_errors = 0
    for name, response in _form_pages(client):
        page = elements(response)
        ids = {attrs["id"] for _, attrs in page if "id" in attrs}
        for tag, attrs in page:
            for ref in attrs.get("aria-describedby", "").split():
                linked_errors += ref.endswith("_error")
                if ref not in ids:
                    missing.append(f"{name}: <{tag} id={attrs.get('id')}> → #{ref}")
    assert not missing, "aria-describedby points at nothing:\n" + "\n".join(missing)
    assert linked_errors >= 10  # the pages above really are in their error states


def test_every_help_and_error_text_of_a_field_is_read_with_its_input(client):
    unlinked = []
    for name, response in _form_pages(client):
        page = elements(response)
        described = {ref for _, attrs in page for ref in attrs.get("aria-describedby", "").split()}
        for tag, attrs in page:
            classes = attrs.get("class", "").split()
            text_id = attrs.get("id", "")
            is_field_text = "help" in classes or "errorlist" in classes
            if is_field_text and text_id.endswith(("_helptext", "_error")):
                unlinked += [] if text_id in described else [f"{name}: <{tag} id={text_id}>"]
        field_help = [a for t, a in page if "help" in a.get("class", "").split() and t == "div"]
        unlinked += [f"{name}: help text without an id" for a in field_help if not a.get("id")]
    assert not unlinked, "\n".join(unlinked)


def test_live_regions_wrap_lists_instead_of_replacing_their_role(client):
    client.force_login(UserFactory())
    created = client.post(reverse("campaigns:create"), {"name": "Kessel"}, follow=True)
    pages = [("messages", created), *_form_pages(client)]
    wrong = [
        f"{name}: <{tag} role={attrs['role']}>"
        for name, response in pages
        for tag, attrs in elements(response)
        if tag in ("ul", "ol") and attrs.get("role")
    ]
    assert not wrong, "\n".join(wrong)
    assert "Kessel" in main_text(created) and 'role="status"' in main_text(created)
