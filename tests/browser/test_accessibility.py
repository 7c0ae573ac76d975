"""axe-core (WCAG 2.0/2.1 A and AA rules) finds nothing on any page, at a phone's width and a
desktop's, including the states a user meets when something goes wrong: an empty sign-up, a
wrong password, an invalid die code, a refused roll.

Each case logs its visitor in by session cookie (no log-in form per case), opens the page the
way a user would (a click for HTMX panels, a real submit for error states), waits for HTMX to
settle and runs axe in the page. A failing case names every violation, the element and why."""

import re
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import expect

from campaigns.tests.factories import (
    CampaignFactory,
    InvitationFactory,
    MembershipFactory,
    UserFactory,
)
from characters.models import CreationDraft
from characters.services import roll_trait
from characters.tests.factories import CharacterFactory, ItemFactory, NPCFactory, SkillFactory
from rules.dice import SeededDice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
WCAG_21_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
AXE = Axe()
PASSWORD = "a-long-test-password-42"  # the factories' password
GOOD_ATTRIBUTES = {
    "dexterity": "4D",
    "knowledge": "3D",
    "mechanical": "3D",
    "perception": "3D",
    "strength": "2D+1",
    "technical": "2D+2",
}


# ---------------------------------------------------------------------------------------------
# The campaign every case looks at
# ---------------------------------------------------------------------------------------------
def build_world():
    campaign = CampaignFactory(name="Outer Rim Run")
    gm = campaign.created_by
    player = MembershipFactory(campaign=campaign).user
    other = MembershipFactory(campaign=campaign).user
    pc = CharacterFactory(
        campaign=campaign, owner=player, name="Kessa Vel", character_points=10, force_points=1
    )
    SkillFactory(character=pc, name="blaster", attribute="dexterity", code="5D+1")
    SkillFactory(character=pc, name="dodge", attribute="dexterity", code="4D")
    ItemFactory(character=pc, name="Heavy blaster pistol", damage="5D")
    others_pc = CharacterFactory(campaign=campaign, owner=other, name="Tarn Obell")
    npc = NPCFactory(campaign=campaign, name="Captain Vorn")
    ruleset = campaign.ruleset
    for seed, (who, actor, key, extra) in enumerate(
        [
            (pc, player, "attr:dexterity", {}),
            (pc, player, "attr:dexterity", {"cp": 2, "difficulty": 15}),
            (pc, player, "attr:perception", {"note": "spotting the ambush"}),
            (others_pc, other, "attr:strength", {}),
            (npc, gm, "attr:dexterity", {"hidden": True}),
        ]
    ):
        roll_trait(who, actor, key, ruleset=ruleset, rng=SeededDice(seed), **extra)
    return SimpleNamespace(
        campaign=campaign,
        gm=gm,
        player=player,
        other=other,
        outsider=UserFactory(),
        pc=pc,
        others_pc=others_pc,
        npc=npc,
        invitation=InvitationFactory(campaign=campaign),
        encounter=fight(campaign, pc),
    )


def fight(campaign, pc):
    """A fight under way: the player's character and two troopers have declared, and trooper
    1's shot at her waits for her dodge."""
    from encounters.combatants import combatant_for_character
    from encounters.services import start_encounter
    from encounters.tests.helpers import fighter
    from rules.combat import ActionCount
    from rules.encounter import EncounterState, PendingAttack

    kessa = combatant_for_character(pc, side="rebels", ruleset=campaign.ruleset)
    kessa = kessa.replace(actions=ActionCount(2))
    troopers = [
        fighter(f"sb-trooper-{n}", "empire", name=f"Trooper {n}", actions=ActionCount(1, used=1))
        for n in (1, 2)
    ]
    state = EncounterState(
        phase="round",
        combatants=(kessa, *troopers),
        side_order=("rebels", "empire"),
        order=(kessa.id, *(t.id for t in troopers)),
        pending=PendingAttack("sb-trooper-1", kessa.id, "blaster", "ranged", 15),
    )
    return start_encounter(campaign, "Ambush on the landing pad", campaign.created_by, state=state)


def encounter_url(world, name="page"):
    return reverse(f"encounters:{name}", args=[world.campaign.pk, world.encounter.pk])


def wizard_draft(world) -> CreationDraft:
    """A draft of the player's with every step saved, made through the wizard itself."""
    client = Client()
    client.force_login(world.player)
    start = reverse("characters:wizard_start", args=[world.campaign.pk])
    assert client.post(start, {"kind": "pc"}).status_code == 302
    draft = CreationDraft.objects.get(user=world.player)
    skills = {
        "skills-TOTAL_FORMS": "2",
        "skills-INITIAL_FORMS": "0",
        "skills-0-name": "blaster",
        "skills-0-code": "6D",
        "skills-1-name": "dodge",
        "skills-1-code": "5D",
    }
    steps = [
        ("species", {"species": "Human"}),
        ("attributes", GOOD_ATTRIBUTES),
        ("skills", skills),
        ("force", {}),
        ("gear", {"weapons": ["Blaster pistol"], "items": "2 x medpac", "credits": "500"}),
        ("background", {"name": "Rila Tane", "gender": "female", "age": "27"}),
    ]
    for step, data in steps:
        response = client.post(wizard_url(draft, step), data)
        assert response.status_code == 302, f"{step}: {response.content.decode()[:1000]}"
    return draft


def wizard_url(draft, step):
    return reverse("characters:wizard_step", args=[draft.campaign_id, draft.pk, step])


def sheet_url(character, name="sheet"):
    return reverse(f"characters:{name}", args=[character.campaign_id, character.pk])


# ---------------------------------------------------------------------------------------------
# The pages: name → who visits and how they get there
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    name: str
    visitor: str | None  # an attribute of the world, or None for a visitor not logged in
    open: object  # open(page, world): navigate to the page and bring it into its state
    xfail: str = ""  # a known violation in a file another change owns (strict)


CASES: list[Case] = []


def case(name, visitor=None, xfail=""):
    def register(open_page):
        CASES.append(Case(name, visitor, open_page, xfail))
        return open_page

    return register


def goto(url_name, *args):
    """Open a page by URL name (reversed when the case runs)."""
    return lambda page, world: page.goto(reverse(url_name, args=args))


# Visitors not logged in -------------------------------------------------------------------
case("landing")(goto("home"))


@case("sign-up, empty submit")
def _(page, world):
    page.goto(reverse("signup"))
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text("This field is required.").first).to_be_visible()


@case("log-in, wrong password")
def _(page, world):
    page.goto(reverse("login"))
    page.get_by_label("Username").fill(world.player.username)
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Please enter a correct username and password")).to_be_visible()


@case("log-in, locked out")
def _(page, world):
    page.goto(reverse("login"))
    locked = page.get_by_role("heading", name="Too many failed log-ins")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        page.get_by_label("Username").fill(world.player.username)
        page.get_by_label("Password").fill("not-the-password")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state()
        if locked.count():
            break
    expect(locked).to_be_visible()


case("password reset")(goto("password_reset"))
case("password reset, e-mail sent")(goto("password_reset_done"))


@case("password reset, new password")
def _(page, world):
    uid = urlsafe_base64_encode(force_bytes(world.player.pk))
    token = default_token_generator.make_token(world.player)
    page.goto(reverse("password_reset_confirm", args=[uid, token]))
    expect(page.get_by_role("heading", name="Choose a new password")).to_be_visible()


case("password reset, invalid link")(goto("password_reset_confirm", "MQ", "set-password"))
case("password reset, done")(goto("password_reset_complete"))


case("join, logged out")(lambda page, w: page.goto(w.invitation.get_absolute_url()))


# Players ----------------------------------------------------------------------------------
case("home, campaign list", "player")(goto("home"))
case("campaign, as a player", "player")(lambda page, w: page.goto(w.campaign.get_absolute_url()))
case("join, logged in", "outsider")(lambda page, w: page.goto(w.invitation.get_absolute_url()))
case("join, invalid link", "outsider")(goto("campaigns:join", "no-such-token"))
case("page not found", "player")(goto("campaigns:detail", 999999))
case("password change", "player")(goto("password_change"))
case("password change, done", "player")(goto("password_change_done"))
case("character list", "player")(
    lambda page, w: page.goto(reverse("characters:list", args=[w.campaign.pk]))
)
case("sheet, own", "player")(lambda page, w: page.goto(sheet_url(w.pc)))
case("sheet, another player's", "player")(lambda page, w: page.goto(sheet_url(w.others_pc)))
case("edit, own character", "player")(lambda page, w: page.goto(sheet_url(w.pc, "edit")))
case("ledger, own character", "player")(lambda page, w: page.goto(sheet_url(w.pc, "ledger")))
case("delete, confirm", "player")(lambda page, w: page.goto(sheet_url(w.pc, "delete")))
case("dice log, as a player", "player")(
    lambda page, w: page.goto(reverse("characters:dice_log", args=[w.campaign.pk]))
)
case("roll page without HTMX", "player")(
    lambda page, w: page.goto(sheet_url(w.pc, "roll") + "?trait=attr:dexterity")
)


def open_roll_panel(page, world):
    page.goto(sheet_url(world.pc))
    page.get_by_role("button", name=re.compile(r"^Dexterity")).click()
    expect(page.get_by_role("heading", name=re.compile(r"^Roll Dexterity"))).to_be_visible()


case("roll panel on the sheet", "player")(open_roll_panel)


@case("roll result on the sheet", "player")
def _(page, world):
    open_roll_panel(page, world)
    with page.expect_response(lambda r: r.request.method == "POST" and "/roll/" in r.url):
        page.get_by_role("button", name="Roll", exact=True).click()


@case("roll refused: CP and a Force Point in one roll", "player")
def _(page, world):
    open_roll_panel(page, world)
    page.get_by_label("Character Points").fill("1")
    page.get_by_label(re.compile("Force Point")).check()
    with page.expect_response(lambda r: r.request.method == "POST" and "/roll/" in r.url) as r:
        page.get_by_role("button", name="Roll", exact=True).click()
    assert r.value.status == 400  # the rules refuse it; the page must say so accessibly


# The creation wizard (the player's) --------------------------------------------------------
case("wizard, start", "player")(
    lambda page, w: page.goto(reverse("characters:wizard_start", args=[w.campaign.pk]))
)
for step in ("species", "skills", "force", "gear", "background", "review"):
    case(f"wizard, {step}", "player")(
        lambda page, w, step=step: page.goto(wizard_url(wizard_draft(w), step))
    )


@case("wizard, attributes with an invalid die code", "player")
def _(page, world):
    page.goto(wizard_url(wizard_draft(world), "attributes"))
    page.get_by_label("Dexterity", exact=True).fill("9D+7")
    page.get_by_role("button", name="Save and continue").click()
    expect(page.get_by_text("9D+7 has 7 pips").first).to_be_visible()


# The game master --------------------------------------------------------------------------
case("campaign, as the GM", "gm")(lambda page, w: page.goto(w.campaign.get_absolute_url()))
case("campaign, edit", "gm")(
    lambda page, w: page.goto(reverse("campaigns:edit", args=[w.campaign.pk]))
)
case("campaign, new", "gm")(goto("campaigns:create"))


@case("campaign, new, empty submit", "gm")
def _(page, world):
    page.goto(reverse("campaigns:create"))
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_text("This field is required.")).to_be_visible()


case("rule options", "gm")(
    lambda page, w: page.goto(reverse("campaigns:rules", args=[w.campaign.pk]))
)
case("sheet, GM view of a player's", "gm")(lambda page, w: page.goto(sheet_url(w.pc)))
case("edit, GM view", "gm")(lambda page, w: page.goto(sheet_url(w.pc, "edit")))
case("ledger, GM with the award form", "gm")(lambda page, w: page.goto(sheet_url(w.pc, "ledger")))
case("dice log, as the GM", "gm")(
    lambda page, w: page.goto(reverse("characters:dice_log", args=[w.campaign.pk]))
)


# Encounters -------------------------------------------------------------------------------
case("encounters, as a player", "player")(
    lambda page, w: page.goto(reverse("encounters:list", args=[w.campaign.pk]))
)
case("encounter, the player's view under attack", "player")(
    lambda page, w: page.goto(encounter_url(w))
)


@case("encounter, a player's refused step", "player")
def _(page, world):
    page.goto(encounter_url(world))
    page.get_by_label("Character Points").first.fill("99")
    with page.expect_response(lambda r: r.request.method == "POST" and "/step/" in r.url) as r:
        page.get_by_role("button", name="Dodge").click()
    assert r.value.status == 400
    expect(page.get_by_role("alert")).to_contain_text("99 is too many")


case("encounters, as the GM", "gm")(
    lambda page, w: page.goto(reverse("encounters:list", args=[w.campaign.pk]))
)
case("encounter, the GM's dashboard", "gm")(lambda page, w: page.goto(encounter_url(w)))
case("encounter, add combatants", "gm")(lambda page, w: page.goto(encounter_url(w, "add")))
case("encounter, the whole log", "gm")(lambda page, w: page.goto(encounter_url(w, "log")))


@case("encounter, add combatants with a bad stat block", "gm")
def _(page, world):
    page.goto(encounter_url(world, "add"))
    block = page.locator("form.statblock")
    block.get_by_label("Name").fill("Stormtrooper")
    block.get_by_label("Skills").fill("blaster 4Q")
    block.get_by_role("button", name="Add to the fight").click()
    expect(page.locator(".errorlist").first).to_be_visible()


# Between adventures: the calendar, awards, advancement, the GM's skill edits ---------------
def campaign_url(world, name):
    return reverse(f"characters:{name}", args=[world.campaign.pk])


def advance_time(world):
    """Kessa's dodge (with a teacher) and Knowledge (against the GM's 4D) trained through an
    advance of 250 days, run at once as without Redis: the report has an attribute roll."""
    from characters.advancement import request_advancement
    from characters.downtime import start_advance
    from characters.services import change_balance
    from config.celery import app

    change_balance(world.pc, "cp", 30, "award", world.gm)
    request_advancement(world.pc, "skill", "dodge", actor=world.gm)
    request_advancement(world.pc, "attribute", "knowledge", actor=world.gm, species_maximum="4D")
    before, app.conf.task_always_eager = app.conf.task_always_eager, True
    try:
        start_advance(world.campaign, 250, actor=world.gm)
    finally:
        app.conf.task_always_eager = before


def awaiting_request(world):
    """The campaign asks for approval; Kessa's player asks for a blaster pip."""
    from characters.advancement import request_advancement

    type(world.campaign).objects.filter(pk=world.campaign.pk).update(approve_advancement=True)
    return request_advancement(world.pc, "skill", "blaster", actor=world.player)


case("calendar, as a player", "player")(lambda page, w: page.goto(campaign_url(w, "calendar")))


@case("calendar, the GM's after an advance", "gm")
def _(page, world):
    advance_time(world)
    page.goto(campaign_url(world, "calendar"))
    expect(page.locator("#advance-bar")).to_be_visible()


@case("calendar, an advance refused", "gm")
def _(page, world):
    page.goto(campaign_url(world, "calendar"))
    page.get_by_label("Advance by (days)").fill("0")
    with page.expect_response(lambda r: r.request.method == "POST" and "/advance/" in r.url) as r:
        page.get_by_role("button", name="Advance", exact=True).click()
    assert r.value.status == 400
    expect(page.locator("#advance-form .errorlist")).to_be_visible()


@case("awards, a bad row", "gm")
def _(page, world):
    page.goto(campaign_url(world, "awards"))
    page.locator("fieldset.award-row").first.get_by_label("CP", exact=True).fill("-3")
    page.get_by_role("button", name="Award to everyone").click()
    expect(page.locator(".award-row .errorlist").first).to_be_visible()


@case("improve, the quote", "player")
def _(page, world):
    page.goto(sheet_url(world.pc, "improve"))
    page.get_by_label("Improve").select_option(label="blaster 5D+1 (skill)")
    expect(page.locator("#quote")).to_contain_text("Character Points")


@case("improve, refused", "player")
def _(page, world):
    page.goto(sheet_url(world.pc, "improve"))
    page.get_by_label("Improve").select_option(label="A new skill…")
    page.get_by_label("Name of the new skill, specialization or Force power").fill("dodge")
    expect(page.locator("#quote")).to_contain_text("Not possible")


@case("improvements, one awaiting the GM", "player")
def _(page, world):
    awaiting_request(world)
    page.goto(sheet_url(world.pc, "advancements"))
    expect(page.get_by_role("button", name=re.compile("^Withdraw"))).to_be_visible()


@case("improvement requests, as the GM", "gm")
def _(page, world):
    awaiting_request(world)
    page.goto(campaign_url(world, "approvals"))
    expect(page.get_by_role("button", name=re.compile("^Approve"))).to_be_visible()


case("skills, the GM's edits", "gm")(lambda page, w: page.goto(sheet_url(w.pc, "skills")))


@case("skills, removal confirmation", "gm")
def _(page, world):
    blaster = world.pc.skills.get(name="blaster")
    page.goto(f"{sheet_url(world.pc, 'skill_remove')}?skill={blaster.pk}")


# ---------------------------------------------------------------------------------------------
# The test
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def contexts(browser):
    """New browser contexts, closed after the test (so a failure's screenshot still sees
    them)."""
    opened = []
    yield opened
    for context in opened:
        context.close()


def logged_in_context(browser, live_server, viewport, user):
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )
    return context


def settle(page):
    """Wait until the page has loaded and HTMX is at rest (no request, swap or settle under
    way)."""
    page.wait_for_load_state("load")
    busy = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"
    # A function, not an expression: the page's CSP forbids eval, which polling one would use.
    page.wait_for_function(f"() => !document.querySelector({busy!r})")


CASE_PARAMS = [
    pytest.param(
        c, id=c.name, marks=[pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else []
    )
    for c in CASES
]


@pytest.mark.parametrize("case_", CASE_PARAMS)
def test_axe_finds_no_wcag_violation(case_, live_server, browser, contexts):
    """The page is opened at a phone's width and checked, then the same page is widened to a
    desktop's and checked again (the layouts differ only by CSS media queries)."""
    world = build_world()
    user = getattr(world, case_.visitor) if case_.visitor else None
    context = logged_in_context(browser, live_server, WIDTHS["phone"], user)
    contexts.append(context)
    page = context.new_page()

    case_.open(page, world)
    reports = []
    for width, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        settle(page)
        results = AXE.run(page, options=WCAG_21_AA)
        if results.violations_count:
            reports.append(f"--- at {width} width:\n{results.generate_report()}")

    assert not reports, f"{case_.name} ({page.url}):\n" + "\n".join(reports)
