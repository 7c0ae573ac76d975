import pytest

from characters.models import Character, Currency, LedgerEntry
from characters.services import LedgerError, change_balance
from characters.tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db


def test_an_award_raises_the_balance_and_records_who_why_and_balance_after():
    character = CharacterFactory()
    entry = change_balance(character, Currency.CP, 5, "End of adventure", character.owner)
    character.refresh_from_db()
    assert character.character_points == 5
    assert (entry.delta, entry.balance_after, entry.reason, entry.actor) == (
        5,
        5,
        "End of adventure",
        character.owner,
    )


def test_spending_more_than_held_is_refused_and_changes_nothing():
    character = CharacterFactory()
    change_balance(character, Currency.CP, 2, "award")
    with pytest.raises(LedgerError, match="not enough Character Points: 3 needed, 2 held"):
        change_balance(character, Currency.CP, -3, "roll")
    character.refresh_from_db()
    assert character.character_points == 2
    assert LedgerEntry.objects.count() == 1


@pytest.mark.parametrize("delta", [0, 1.5, True, "3"])
def test_a_change_must_be_a_nonzero_whole_number(delta):
    character = CharacterFactory()
    with pytest.raises(LedgerError):
        change_balance(character, Currency.CP, delta, "x")
    assert not LedgerEntry.objects.exists()


def test_a_change_needs_a_reason():
    with pytest.raises(LedgerError, match="say why"):
        change_balance(CharacterFactory(), Currency.CREDITS, 100, "  ")


def test_an_unknown_currency_is_refused():
    with pytest.raises(LedgerError, match="unknown balance"):
        change_balance(CharacterFactory(), "gold", 1, "x")


def test_every_balance_equals_the_sum_of_its_ledger():
    character = CharacterFactory()
    for currency, delta in [
        ("cp", 10),
        ("cp", -3),
        ("fp", 2),
        ("fp", -1),
        ("credits", 500),
        ("credits", -120),
        ("dsp", 1),
    ]:
        change_balance(character, currency, delta, "test")
    character.refresh_from_db()
    for currency in Currency.values:
        total = sum(e.delta for e in LedgerEntry.objects.filter(currency=currency))
        assert character.balance(currency) == total


def test_the_ledger_entry_of_a_missing_character_is_refused():
    with pytest.raises(LedgerError, match="no such character"):
        change_balance(999_999, Currency.CP, 1, "x")
    assert Character.objects.count() == 0
