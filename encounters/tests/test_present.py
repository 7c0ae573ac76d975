"""How the encounter log shows a roll: every die accounted for, so a player can check it."""

from encounters.present import dice_text
from rules import RuleSet
from rules.dice import DieCode, FixedDice, roll


def test_a_logged_roll_shows_every_die_the_wild_die_and_the_character_points():
    """Blaster 4D+1 with a Character Point die: three dice 4 2 4, the Wild Die 6 then 3, the
    CP die 5, plus the pip: 4+2+4+6+3+5+1 = 25, all on the line."""
    result = roll(
        DieCode.parse("4D+1"), cp_dice=1, ruleset=RuleSet(), rng=FixedDice([4, 2, 4, 6, 3, 5])
    )
    text = dice_text("attack", result.to_json())
    assert text == "attack 4D+1: 4 2 4 · W 6+3 · CP 5 = 25"
