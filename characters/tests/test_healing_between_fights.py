"""Healing between fights (characters.healing, issue 19): medpacs from the sheet's healing panel
(§6, H-43..H-51), [HOUSE] critical injuries carried from a fight with their deadlines (§5,
H-42, H-43), and the panel's new forms with bad input refused and nothing changed. The dice
are scripted: a medpac's difficulty dice come first (2E and House), then the first-aider's
roll (its last die is the Wild Die)."""

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory
from characters import healing
from characters.healing import HealingError, carry_criticals, heal_due, medpac_plan, use_medpac
from characters.healing_models import HealingCourse, HealingEvent
from characters.models import Character, DiceRoll, Item
from characters.tests.factories import CharacterFactory, SkillFactory
from rules import FixedDice, RuleSet

pytestmark = pytest.mark.django_db


def campaign_with(ruleset: RuleSet | None = None, **options) -> Campaign:
    campaign = CampaignFactory()
    campaign.set_ruleset(ruleset or RuleSet(**options))
    campaign.save()
    return campaign


@pytest.fixture
def campaign():
    return CampaignFactory()


def patient_and_medic(campaign, wound="wounded", first_aid="4D", medpacs=2):
    """A wounded hero and his player's second character, a medic with first aid and medpacs."""
    hero = CharacterFactory(campaign=campaign, name="Kira", wound_level=wound)
    medic = CharacterFactory(campaign=campaign, name="Doc", owner=hero.owner)
    if first_aid:
        SkillFactory(character=medic, name="first aid", attribute="technical", code=first_aid)
    if medpacs:
        Item.objects.create(character=medic, kind=Item.Kind.GEAR, name="Medpac", quantity=medpacs)
    hero.refresh_from_db()
    medic.refresh_from_db()
    return hero, medic


def medpac(campaign, hero, medic, faces, actor=None, **kwargs):
    campaign.refresh_from_db()
    return use_medpac(
        campaign.pk,
        hero.pk,
        actor=actor or hero.owner,
        aider_id=medic.pk,
        rng=FixedDice(faces),
        **kwargs,
    )


def level(character) -> str:
    character.refresh_from_db()
    return character.wound_level


def state(hero) -> dict:
    return HealingCourse.objects.get(character=hero).state


def set_day(campaign, day):
    Campaign.objects.filter(pk=campaign.pk).update(game_day=day)
    campaign.refresh_from_db()


# --- Medpacs, Second Edition (§6.1) --------------------------------------------------------------
def test_H44_a_successful_medpac_heals_a_wounded_patient_and_restarts_the_period(campaign):
    hero, medic = patient_and_medic(campaign)
    healing.set_activity(campaign.pk, hero.pk, actor=hero.owner, activity="rest")  # day 0
    set_day(campaign, 2)

    outcome = medpac(campaign, hero, medic, [3, 3, 4, 4, 4, 4])  # Easy rolled 6; first aid 16

    assert outcome.success and level(hero) == "none"
    roll = DiceRoll.objects.get(character=medic)
    assert (roll.total, roll.difficulty, roll.actor_id) == (16, 6, hero.owner_id)
    assert roll.dice["medpac"]["difficulty"].startswith("Easy")
    event = HealingEvent.objects.get(character=hero, kind="medpac")
    assert (event.day, event.level_before, event.level_after, event.total) == (
        2,
        "wounded",
        "none",
        16,
    )
    assert state(hero)["period_start_day"] == 2  # a change of level restarts it (IH-17)
    assert Item.objects.get(character=medic).quantity == 1
    assert "one medpac used from Doc's gear (1 left)" in outcome.words


@pytest.mark.parametrize(
    ("wound", "difficulty_faces", "after", "label"),
    [
        ("wounded_twice", [1, 1], "wounded", "Easy"),
        ("incapacitated", [1, 1, 1], "wounded_twice", "Moderate"),
        ("mortally_wounded", [1, 1, 1, 1, 1], "incapacitated", "Difficult"),
    ],
)
def test_H44_a_success_improves_one_level(campaign, wound, difficulty_faces, after, label):
    hero, medic = patient_and_medic(campaign, wound)

    medpac(campaign, hero, medic, [*difficulty_faces, 4, 4, 4, 4])

    assert level(hero) == after
    assert DiceRoll.objects.get(character=medic).dice["medpac"]["difficulty"].startswith(label)


def test_H45_each_further_medpac_the_same_day_is_one_level_harder_and_a_failure_keeps_the_period(
    campaign,
):
    hero, medic = patient_and_medic(campaign, "wounded_twice", medpacs=5)
    healing.set_activity(campaign.pk, hero.pk, actor=hero.owner, activity="rest")  # day 0
    set_day(campaign, 1)
    ten = [3, 3, 2, 2]  # first aid 4D: 10, each miss by 10 or less

    medpac(campaign, hero, medic, [6, 6, *ten])  # Easy 12
    medpac(campaign, hero, medic, [4, 4, 4, *ten])  # Moderate 12
    medpac(campaign, hero, medic, [3, 3, 3, 3, 3, *ten])  # Difficult 15

    labels = [
        r.dice["medpac"]["difficulty"].split(" ")[0]
        for r in DiceRoll.objects.filter(character=medic).order_by("pk")
    ]
    assert labels == ["Easy", "Moderate", "Difficult"]
    assert level(hero) == "wounded_twice"
    assert state(hero)["period_start_day"] == 0  # failed medpacs do not restart it
    assert state(hero)["medpac_lockout_until"] is None
    set_day(campaign, 2)
    plan = medpac_plan(hero, medic, campaign)
    assert str(plan.difficulty) == "Easy"  # a new day


def test_H46_missing_by_more_than_10_locks_medpacs_out_for_the_day(campaign):
    hero, medic = patient_and_medic(campaign, "incapacitated", first_aid="2D")

    outcome = medpac(campaign, hero, medic, [5, 5, 5, 1, 3])  # Moderate 15; first aid 4

    assert not outcome.success
    assert "missed by more than 10: no more medpacs on him for 24 hours" in outcome.words
    with pytest.raises(HealingError, match="No more medpacs on Kira until day 1"):
        medpac(campaign, hero, medic, [1, 1, 1, 6, 6])
    assert DiceRoll.objects.filter(character=medic).count() == 1
    assert HealingEvent.objects.filter(kind="medpac").count() == 1
    assert Item.objects.get(character=medic).quantity == 1
    set_day(campaign, 1)
    assert medpac(campaign, hero, medic, [1, 1, 1, 6, 5]).success


def test_H46_missing_by_exactly_10_does_not_lock_out(campaign):
    hero, medic = patient_and_medic(campaign, "incapacitated", first_aid="2D")
    medpac(campaign, hero, medic, [5, 5, 5, 2, 3])  # 15 against 5
    assert state(hero)["medpac_lockout_until"] is None


def test_a_medpac_on_himself_is_at_minus_1d_more_and_technical_without_first_aid(campaign):
    hero = CharacterFactory(campaign=campaign, wound_level="wounded", technical="3D")
    hero.refresh_from_db()
    plan = medpac_plan(hero, hero, campaign)
    assert plan.skill.startswith("Technical") and str(plan.pool) == "1D"  # -1D wound, -1D self
    outcome = use_medpac(
        campaign.pk, hero.pk, actor=hero.owner, aider_id=hero.pk, rng=FixedDice([1, 1, 6, 3])
    )
    assert outcome.success and level(hero) == "none"
    assert "no medpac in" in outcome.words[-1]  # no medpac in his gear: none taken off


def test_the_odds_are_shown_before_rolling(campaign):
    hero, medic = patient_and_medic(campaign)
    plan = medpac_plan(hero, medic, campaign)
    # 4D against Easy rolled on 2D: a high chance, strictly between 0 and 1
    assert 0.9 < plan.chance < 1
    dying = CharacterFactory(campaign=campaign, wound_level="mortally_wounded")
    dying.refresh_from_db()
    hard = medpac_plan(dying, medic, campaign)
    assert hard.chance < plan.chance


# --- Refusals: a clear message, nothing changed ---------------------------------------------------
def _nothing_rolled():
    assert not DiceRoll.objects.exists()
    assert not HealingEvent.objects.filter(kind="medpac").exists()


def test_a_healthy_patient_has_nothing_a_medpac_heals(campaign):
    hero, medic = patient_and_medic(campaign, wound="none")
    with pytest.raises(HealingError, match="a medpac has nothing to heal"):
        medpac(campaign, hero, medic, [1] * 10)
    _nothing_rolled()
    assert Item.objects.get(character=medic).quantity == 2


def test_a_players_medic_treats_a_companion_of_another_player(campaign):
    """The party's medic patches up the others: his player uses a medpac from his own
    character on another player's (found by the play-test: it was refused)."""
    _hero, medic = patient_and_medic(campaign)
    companion = CharacterFactory(campaign=campaign, name="Companion", wound_level="wounded")
    assert companion.owner_id != medic.owner_id
    assert medpac(campaign, companion, medic, [1, 1, 4, 4, 4, 4], actor=medic.owner).success
    assert level(companion) == "none"


def test_a_player_cannot_treat_with_another_players_character_nor_a_secret_npc(campaign):
    hero, medic = patient_and_medic(campaign)
    other = CharacterFactory(campaign=campaign, wound_level="wounded")
    with pytest.raises(HealingError, match="not your character"):
        medpac(campaign, hero, other, [1] * 10, actor=hero.owner)  # another's medic
    spy = CharacterFactory(
        campaign=campaign, kind=Character.Kind.NPC, secret=True, owner=None, wound_level="wounded"
    )
    with pytest.raises(HealingError, match="No such character"):
        medpac(campaign, spy, medic, [1] * 10, actor=medic.owner)
    _nothing_rolled()


def test_the_gm_may_use_anyones_medic_on_anyone(campaign):
    _hero, medic = patient_and_medic(campaign)
    stranger = CharacterFactory(campaign=campaign, wound_level="wounded")
    assert medpac(campaign, stranger, medic, [1, 1, 4, 4, 4, 4], actor=campaign.created_by).success


def test_droids_are_repaired_not_healed(campaign):
    hero, medic = patient_and_medic(campaign)
    droid = CharacterFactory(
        campaign=campaign, owner=hero.owner, nature=Character.Nature.DROID, wound_level="wounded"
    )
    with pytest.raises(HealingError, match="droid"):
        medpac(campaign, droid, medic, [1] * 10)
    _nothing_rolled()


def test_a_first_aider_who_cannot_act_cannot_use_a_medpac(campaign):
    hero, medic = patient_and_medic(campaign)
    Character.objects.filter(pk=medic.pk).update(wound_level="incapacitated")
    with pytest.raises(HealingError, match="Doc cannot use the medpac"):
        medpac(campaign, hero, medic, [1] * 10)
    _nothing_rolled()


@pytest.mark.parametrize("number", [0, 41, True])
def test_a_bad_difficulty_number_is_refused(campaign, number):
    hero, medic = patient_and_medic(campaign)
    with pytest.raises(HealingError, match="1 to 40"):
        medpac(campaign, hero, medic, [1] * 10, rc_number=number)
    _nothing_rolled()


# --- [HOUSE] medpacs (§6.2, H-47, H-48) ---
def test_H47_house_pack_reuse_and_fastflesh(campaign):
    house = campaign_with(RuleSet.preset("house"))
    hero, medic = patient_and_medic(house, medpacs=5)
    nine = [3, 3, 1, 2]  # 9 against 12: misses by 3
    medpac(house, hero, medic, [6, 6, *nine])  # pack A, Easy
    medpac(house, hero, medic, [4, 4, 4, *nine])  # pack B, Moderate
    again = medpac_plan(hero, medic, house, pack_used_before=True)
    fastflesh = medpac_plan(hero, medic, house, fastflesh=True)
    assert str(again.difficulty) == "Very Difficult"  # Easy +2 earlier +1 reused
    assert str(fastflesh.difficulty) == "Moderate"  # Easy +2 -1
    outcome = medpac(house, hero, medic, [1] * 7 + nine, pack_used_before=True)
    assert "the same pack's second use" in outcome.words
    assert Item.objects.get(character=medic).quantity == 3  # the reused pack was not taken again


def test_H48_a_plain_house_medpac_only_wakes_the_incapacitated_fastflesh_heals(campaign):
    house = campaign_with(RuleSet.preset("house"))
    hero, medic = patient_and_medic(house, "incapacitated")
    Item.objects.create(character=medic, kind=Item.Kind.GEAR, name="Fastflesh medpac")
    plain = medpac(house, hero, medic, [1, 1, 1, 4, 4, 4, 4])
    assert plain.success and level(hero) == "incapacitated"
    flesh = medpac(house, hero, medic, [1, 1, 1, 4, 4, 4, 4], fastflesh=True)  # Moderate +1 -1
    assert flesh.success and level(hero) == "wounded_twice"
    assert Item.objects.get(character=medic, name="Fastflesh medpac").quantity == 0
    assert Item.objects.get(character=medic, name="Medpac").quantity == 1


# --- [RC] medpacs (§6.3, H-49..H-51) ---
def test_H50_rc_blaster_wound_6_then_9_then_12_and_6_the_next_day(campaign):
    rc = campaign_with(RuleSet.preset("rc"))
    hero, medic = patient_and_medic(rc, medpacs=5)
    low = [1, 1, 1, 2]  # 5: misses each; the RC has no lock-out
    numbers = [medpac(rc, hero, medic, low).roll.difficulty for _ in range(3)]
    assert numbers == [6, 9, 12]
    set_day(rc, 1)
    assert medpac_plan(hero, medic, rc).number == 6


def test_H49_the_gms_number_is_kept_with_the_wound(campaign):
    rc = campaign_with(RuleSet.preset("rc"))
    hero, medic = patient_and_medic(rc, medpacs=5)
    with pytest.raises(HealingError, match="Only the GM places the difficulty number"):
        medpac(rc, hero, medic, [1, 1, 1, 2], rc_number=6)  # his player cannot
    medpac(rc, hero, medic, [1, 1, 1, 2], rc_number=9, actor=rc.created_by)  # a thermal detonator
    set_day(rc, 1)
    assert medpac_plan(hero, medic, rc).number == 9
    assert medpac(rc, hero, medic, [1, 1, 1, 2]).roll.difficulty == 9  # kept with the wound
    with pytest.raises(HealingError, match="6-10, not 11"):
        medpac(rc, hero, medic, [1, 1, 1, 2], rc_number=11, actor=rc.created_by)


def test_H51_rc_accelerate_healing_two_medpacs_at_6_and_6_each_plus_2(campaign):
    rc = campaign_with(RuleSet.preset("rc"))
    hero, medic = patient_and_medic(rc, first_aid="2D", medpacs=5)
    healing.mark_accelerate(rc.pk, hero.pk, actor=rc.created_by)
    low = [1, 2]  # 3
    rolls = [medpac(rc, hero, medic, low).roll for _ in range(3)]
    assert [r.difficulty for r in rolls] == [6, 6, 12]
    assert [r.total for r in rolls] == [5, 5, 3]  # +2 on the first two only


# --- [HOUSE] critical injuries carried from a fight (§5) ---
def house_hero(wound="incapacitated"):
    house = campaign_with(RuleSet.preset("house"))
    hero, medic = patient_and_medic(house, wound)
    return house, hero, medic


def carry(hero, *taken, day=0):
    hero.refresh_from_db()
    carry_criticals(hero, list(taken), day=day)
    hero.save()
    hero.refresh_from_db()
    return hero.criticals


def test_criticals_are_carried_with_their_deadlines_stunned_ones_wear_off():
    _house, hero, _ = house_hero()
    crits = carry(
        hero,
        {
            "table": "stunned",
            "name": "Stinger",
            "round": 1,
            "attribute": None,
            "deadline_days": None,
        },
        {"table": "incapacitated", "name": "Blinded", "round": 2, "deadline_days": 7},
        {"table": "mortally_wounded", "name": "Maimed", "round": 3, "deadline_days": None},
        {"table": "mortally_wounded", "name": "Internal Bruising/Bleeding", "round": 3},
        day=4,
    )
    assert [(c["name"], c["deadline_day"], c["permanent"]) for c in crits] == [
        ("Blinded", 11, False),
        ("Maimed", None, True),
        ("Internal Bruising/Bleeding", 6, False),
    ]
    lines = healing.critical_lines(hero, 4)
    assert (
        "Blinded: vision-based checks +5 difficulty levels — treat before day 11 or it is "
        "permanent" in lines
    )
    assert any(line.endswith("treat before day 6 or he dies") for line in lines)


def test_H42_untreated_deafness_becomes_permanent_when_its_days_have_passed():
    house, hero, _ = house_hero()
    carry(hero, {"table": "incapacitated", "name": "Deafness", "deadline_days": 5})
    assert heal_due(house.pk, 5, seed=1) == []  # days 0-3 ended: still time on day 4
    lines = heal_due(house.pk, 6, seed=1)  # day 4 ended untreated
    hero.refresh_from_db()
    assert hero.criticals[0]["permanent"] is True
    assert lines[0]["character_id"] == hero.pk and lines[0]["healing"] == "critical"
    assert "Deafness untreated before day 5: permanent" in lines[0]["words"]


def test_H42_deafness_treated_on_day_4_is_not_permanent():
    house, hero, medic = house_hero()
    carry(hero, {"table": "incapacitated", "name": "Deafness", "deadline_days": 5})
    heal_due(house.pk, 4, seed=1)
    set_day(house, 4)
    outcome = medpac(house, hero, medic, [1, 1, 1, 4, 4, 4, 4])  # wakes him (House)
    assert "Deafness treated in time" in outcome.words
    heal_due(house.pk, 10, seed=1)
    hero.refresh_from_db()
    assert hero.criticals[0]["permanent"] is False and hero.criticals[0]["treated_day"] == 4


def test_H42_internal_bleeding_untreated_flags_death_for_the_gm():
    house, hero, _ = house_hero("mortally_wounded")
    carry(hero, {"table": "mortally_wounded", "name": "Internal Bruising/Bleeding"}, day=0)
    heal_due(house.pk, 2, seed=1)  # days 0 and 1 ended: the deadline is day 2
    assert not HealingCourse.objects.get(character=hero).death_pending
    lines = heal_due(house.pk, 3, seed=1)
    assert HealingCourse.objects.get(character=hero).death_pending
    assert level(hero) == "mortally_wounded"
    assert "death" in lines[0]["words"][0]


def test_H43_a_wounded_table_critical_makes_the_medpac_one_level_harder_and_heals():
    house, hero, medic = house_hero("wounded")
    carry(hero, {"table": "wounded", "name": "Dazed"})
    plan = medpac_plan(hero, medic, house)
    assert str(plan.difficulty) == "Moderate"  # Easy +1 (H-43)
    outcome = medpac(house, hero, medic, [1, 1, 1, 4, 4, 4, 4])
    assert "Dazed healed" in outcome.words
    hero.refresh_from_db()
    assert hero.criticals[0]["healed_day"] == 0
    assert healing.critical_lines(hero, 0) == []


# --- The panel ---------------------------------------------------------------------------------
def url(name, hero):
    return reverse(f"characters:{name}", args=[hero.campaign_id, hero.pk])


def test_the_panel_shows_the_medpac_form_with_the_odds(client, campaign):
    hero, _medic = patient_and_medic(campaign)
    client.force_login(hero.owner)
    page = client.get(url("healing", hero), HTTP_HX_REQUEST="true").content.decode()
    assert "Use a medpac on Kira" in page
    assert "Doc: first aid 4D, 9" in page  # the chance beside the first-aider
    assert 'id="healing-aider"' in page and 'id="healing-activity"' in page


def test_the_player_uses_a_medpac_from_the_panel(client, campaign):
    hero, medic = patient_and_medic(campaign)
    client.force_login(hero.owner)
    response = client.post(url("healing_medpac", hero), {"aider": medic.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "The medpac " in response.content.decode()
    assert DiceRoll.objects.filter(character=medic).count() == 1


@pytest.mark.parametrize(
    "data",
    [{}, {"aider": "x"}, {"aider": "99999999999999999999"}, {"aider": "١"}, {"aider": "1\x00"}],
)
def test_bad_medpac_input_is_refused_in_place(client, campaign, data):
    hero, _medic = patient_and_medic(campaign)
    client.force_login(hero.owner)
    response = client.post(url("healing_medpac", hero), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    _nothing_rolled()


def test_a_refused_medpac_says_why_in_place(client, campaign):
    hero, medic = patient_and_medic(campaign, wound="none")
    client.force_login(hero.owner)
    response = client.post(url("healing_medpac", hero), {"aider": medic.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    _nothing_rolled()


def test_a_companions_sheet_offers_the_players_own_medic(client, campaign):
    _hero, medic = patient_and_medic(campaign)
    companion = CharacterFactory(campaign=campaign, name="Companion", wound_level="wounded")
    client.force_login(medic.owner)
    page = client.get(url("healing", companion), HTTP_HX_REQUEST="true").content.decode()
    assert "Use a medpac on Companion" in page and medic.name in page
    response = client.post(
        url("healing_medpac", companion), {"aider": companion.pk}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400  # the companion himself is not his to use
    assert level(companion) == "wounded"


def test_another_players_medic_is_not_offered_and_refused(client, campaign):
    hero, _ = patient_and_medic(campaign)
    stranger = CharacterFactory(campaign=campaign, name="Stranger")
    client.force_login(hero.owner)
    page = client.get(url("healing", hero), HTTP_HX_REQUEST="true").content.decode()
    assert "Stranger" not in page
    response = client.post(
        url("healing_medpac", hero), {"aider": stranger.pk}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    _nothing_rolled()


def test_the_activity_form_sets_the_activity(client, campaign):
    hero, _ = patient_and_medic(campaign)
    client.force_login(hero.owner)
    response = client.post(
        url("healing_activity", hero), {"activity": "easy"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "Taking it easy: next healing roll on day 6 at +1D." in response.content.decode()
    bad = client.post(url("healing_activity", hero), {"activity": "nap"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400
    assert state(hero)["activity_log"] == [[0, "easy"]]


def test_only_the_gm_marks_accelerate_healing(client):
    rc = campaign_with(RuleSet.preset("rc"))
    hero, _ = patient_and_medic(rc)
    client.force_login(hero.owner)
    assert client.post(url("healing_accelerate", hero), HTTP_HX_REQUEST="true").status_code == 403
    client.force_login(rc.created_by)
    ok = client.post(url("healing_accelerate", hero), HTTP_HX_REQUEST="true")
    assert ok.status_code == 200 and "Accelerate Healing on Kira today" in ok.content.decode()


@pytest.mark.parametrize("number", ["²", "-6", "41", "six", "9" * 30, "6\x00"])
def test_a_bad_rc_difficulty_number_in_the_form_is_refused(client, number):
    rc = campaign_with(RuleSet.preset("rc"))
    hero, medic = patient_and_medic(rc)
    client.force_login(rc.created_by)
    response = client.post(
        url("healing_medpac", hero),
        {"aider": medic.pk, "rc_number": number},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    _nothing_rolled()


def test_an_rc_number_outside_the_wounds_scale_says_why(client):
    rc = campaign_with(RuleSet.preset("rc"))
    hero, medic = patient_and_medic(rc)
    client.force_login(rc.created_by)
    response = client.post(
        url("healing_medpac", hero), {"aider": medic.pk, "rc_number": 16}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert "6-10, not 16" in response.content.decode()
    _nothing_rolled()


def test_a_secret_npc_medics_roll_stays_hidden(campaign):
    hero = CharacterFactory(campaign=campaign, wound_level="wounded")
    medic = CharacterFactory(campaign=campaign, kind=Character.Kind.NPC, owner=None, secret=True)
    hero.refresh_from_db()
    medic.refresh_from_db()
    medpac(campaign, hero, medic, [1, 1, 4, 4, 4], actor=campaign.created_by)
    assert DiceRoll.objects.get(character=medic).hidden


def test_a_player_sees_no_difficulty_number_field_the_gm_does(client):
    rc = campaign_with(RuleSet.preset("rc"))
    hero, _ = patient_and_medic(rc)
    client.force_login(hero.owner)
    assert 'name="rc_number"' not in client.get(url("healing", hero)).content.decode()
    client.force_login(rc.created_by)
    assert 'name="rc_number"' in client.get(url("healing", hero)).content.decode()


def test_a_wounded_table_critical_clears_when_natural_healing_heals_the_wound():
    """IH-21; the incapacitated-table critical stays (bacta or surgery only)."""
    house, hero, _ = house_hero("wounded")
    carry(
        hero,
        {"table": "wounded", "name": "Hamstring"},
        {"table": "incapacitated", "name": "Temporarily Lame"},
    )
    heal_due(house.pk, 1, seed=1)  # his course opens on day 0
    lines = heal_due(house.pk, 4, seed=1, rng_for=lambda seed, key: FixedDice([2, 2, 3]))
    hero.refresh_from_db()
    assert hero.wound_level == "none"
    assert [c["healed_day"] for c in hero.criticals] == [3, None]
    assert "Hamstring healed with the wound" in lines[0]["words"]
    assert healing.critical_lines(hero, 4) == ["Temporarily Lame: Move -7"]


def test_the_panel_shows_the_criticals_with_their_deadlines(client):
    house, hero, _ = house_hero()
    carry(hero, {"table": "incapacitated", "name": "Blinded", "deadline_days": 7}, day=0)
    client.force_login(house.created_by)
    page = client.get(url("healing", hero)).content.decode()
    assert "Critical injuries" in page
    assert (
        "Blinded: vision-based checks +5 difficulty levels — treat before day 7 or it is " in page
    )
