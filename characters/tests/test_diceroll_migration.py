"""Moving DiceRoll from campaigns to characters keeps every roll: the rows, their ids, their
dice, the ledger entries that point at them, and new rolls still get new ids. Run it on
PostgreSQL too (scripts/test.sh): the table is renamed in place."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("campaigns", "0004_removal"), ("characters", "0001_initial")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _foreign_key_target(table, column):
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
    return {c["foreign_key"] for c in constraints.values() if c["columns"] == [column]} - {None}


@pytest.fixture
def rolls_before_the_move():
    """Rolls stored the old way (campaigns.DiceRoll), one of them paid for through the ledger."""
    apps = _migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Campaign = apps.get_model("campaigns", "Campaign")
    Character = apps.get_model("characters", "Character")
    OldRoll = apps.get_model("campaigns", "DiceRoll")
    Entry = apps.get_model("characters", "LedgerEntry")
    gm = User.objects.create(username="gm")
    campaign = Campaign.objects.create(name="Shadows over Tatooine", created_by=gm)
    tala = Character.objects.create(campaign=campaign, owner=gm, name="Tala Voss", kind="pc")
    dice = {"normal": [3, 4], "wild": [6, 2], "cp": [5]}
    rolls = [
        OldRoll.objects.create(
            campaign=campaign,
            character=tala,
            actor=gm,
            label="Blaster",
            code="5D+1",
            pool="5D+1",
            dice=dice,
            total=20,
            difficulty=15,
            cp_spent=1,
        ),
        OldRoll.objects.create(
            campaign=campaign,
            actor=gm,
            label="Control",
            code="3D",
            pool="3D",
            dice={"normal": [1, 2], "wild": [3], "cp": []},
            total=6,
            hidden=True,
        ),
    ]
    Entry.objects.create(
        character=tala, currency="cp", delta=-1, balance_after=4, reason="Blaster", roll=rolls[0]
    )
    yield [(r.pk, r.label, r.total, r.dice, r.hidden, r.character_id) for r in rolls]
    _migrate(_latest())


def test_moving_dice_rolls_to_characters_keeps_every_roll_and_its_ledger_link(
    rolls_before_the_move,
):
    apps = _migrate(_latest())
    DiceRoll = apps.get_model("characters", "DiceRoll")
    Entry = apps.get_model("characters", "LedgerEntry")
    kept = [
        (r.pk, r.label, r.total, r.dice, r.hidden, r.character_id)
        for r in DiceRoll.objects.order_by("pk")
    ]
    assert kept == rolls_before_the_move
    assert Entry.objects.get().roll.label == "Blaster"
    assert DiceRoll._meta.db_table == "characters_diceroll"
    assert _foreign_key_target("characters_ledgerentry", "roll_id") == {
        ("characters_diceroll", "id")
    }


def test_a_roll_made_after_the_move_gets_a_new_id(rolls_before_the_move):
    apps = _migrate(_latest())
    DiceRoll = apps.get_model("characters", "DiceRoll")
    old = DiceRoll.objects.first()
    new = DiceRoll.objects.create(
        campaign_id=old.campaign_id,
        label="Dodge",
        code="4D",
        pool="4D",
        dice={"normal": [2, 2, 2], "wild": [4], "cp": []},
        total=10,
    )
    assert new.pk > max(pk for pk, *_ in rolls_before_the_move)


def test_the_move_can_be_undone_without_losing_rolls(rolls_before_the_move):
    _migrate(_latest())
    apps = _migrate(BEFORE)
    OldRoll = apps.get_model("campaigns", "DiceRoll")
    assert [(r.pk, r.label) for r in OldRoll.objects.order_by("pk")] == [
        (pk, label) for pk, label, *_ in rolls_before_the_move
    ]
    assert _foreign_key_target("characters_ledgerentry", "roll_id") == {
        ("campaigns_diceroll", "id")
    }
