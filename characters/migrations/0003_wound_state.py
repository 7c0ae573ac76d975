"""The engine's wound model (issue 13). A character's wound level is one of the engine's
levels (``rules.injuries.WoundLevel``, never ``stunned``) on his campaign's ladder, and his stuns
are the engine's expiring ``Stun`` values (``stun_state``: ``WoundState.to_json()`` without the
level, which keeps its own column) instead of a bare count.

Each row is mapped by :func:`wound_row`:

* ``stunned`` → healthy, carrying the stun that stunned him (or the stuns counted, if more);
* ``stuns = N`` → N one-point stuns, taken "now": round 0, the round a sheet asks about when
  it has no later stun (``characters.services.sheet_round``), so they stay in force until the
  GM clears them, as the count did;
* ``wounded_twice`` in a campaign whose ladder has no such level (the Rules Companion) → what
  two wounds are on that ladder by the engine's ``apply_wound``: incapacitated
  (injuries-and-healing.md §2.3, "a wounded character ... wounded again becomes
  incapacitated").

Backwards, the level stays and the stuns become their count of points again."""

from django.db import migrations, models

import characters.models
from rules import RulesError, RuleSet
from rules.injuries import Stun, WoundLevel, WoundState, apply_wound, wound_ladder

NOW = 0
"""The round a stun carried over from the old count is taken in."""
MOST_STUNS = 20
"""Stun points kept per character (``characters.services.MAX_STUNS``); more cannot matter."""


def _ruleset(rule_options) -> RuleSet:
    try:
        return RuleSet.from_json(rule_options)
    except RulesError:  # unreadable options: the campaign plays the defaults (Second Edition)
        return RuleSet()


def wound_row(wound_level: str, stuns: int, rule_options) -> tuple[str, dict]:
    """The new ``(wound_level, stun_state)`` of a row stored as ``wound_level`` and a count of
    ``stuns``, in a campaign with these ``rule_options``."""
    ruleset = _ruleset(rule_options)
    level = WoundLevel(wound_level)
    count = max(0, stuns)
    if level is WoundLevel.stunned:
        level, count = WoundLevel.none, max(count, 1)
    if level not in wound_ladder(ruleset=ruleset):
        once = apply_wound(WoundLevel.none, WoundLevel.wounded, ruleset=ruleset)
        level = apply_wound(once, WoundLevel.wounded, ruleset=ruleset)
    state = WoundState(level, tuple(Stun(NOW) for _ in range(min(count, MOST_STUNS))))
    data = state.to_json()
    return data.pop("level"), data


def stun_count(stun_state) -> int:
    """The old count of a stored stun state: its stun points."""
    return min(32767, sum(stun.get("points", 1) for stun in (stun_state or {}).get("stuns", [])))


def forwards(apps, schema_editor):
    Character = apps.get_model("characters", "Character")
    rows = Character.objects.select_related("campaign").only(
        "wound_level", "stuns", "campaign__rule_options"
    )
    changed = []
    for character in rows.iterator(chunk_size=500):
        character.wound_level, character.stun_state = wound_row(
            character.wound_level, character.stuns, character.campaign.rule_options
        )
        changed.append(character)
    Character.objects.bulk_update(changed, ["wound_level", "stun_state"], batch_size=500)


def backwards(apps, schema_editor):
    Character = apps.get_model("characters", "Character")
    changed = []
    for character in Character.objects.only("stun_state").iterator(chunk_size=500):
        character.stuns = stun_count(character.stun_state)
        changed.append(character)
    Character.objects.bulk_update(changed, ["stuns"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0002_diceroll_from_campaigns"),
    ]

    operations = [
        migrations.AddField(
            model_name="character",
            name="stun_state",
            field=models.JSONField(
                default=characters.models.no_stuns,
                help_text="The stuns taken, each with its round: "
                "rules.injuries.WoundState.to_json() without the level.",
                validators=[characters.models.validate_stun_state],
            ),
        ),
        migrations.RunPython(forwards, backwards, elidable=False),
        migrations.RemoveField(model_name="character", name="stuns"),
        migrations.AlterField(
            model_name="character",
            name="wound_level",
            field=models.CharField(
                choices=[
                    ("none", "Healthy"),
                    ("wounded", "Wounded"),
                    ("wounded_twice", "Wounded twice"),
                    ("incapacitated", "Incapacitated"),
                    ("mortally_wounded", "Mortally wounded"),
                    ("killed", "Killed"),
                ],
                default="none",
                help_text="A level on the campaign's wound ladder (rules.injuries.wound_ladder).",
                max_length=20,
            ),
        ),
        migrations.AddConstraint(
            model_name="character",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    wound_level__in=[
                        "none",
                        "wounded",
                        "wounded_twice",
                        "incapacitated",
                        "mortally_wounded",
                        "killed",
                    ]
                ),
                name="wound_level_on_the_wound_track",
            ),
        ),
    ]
