"""Healing over days between adventures (issue 19): a character's healing course (the engine's
``rules.injuries.HealingState``, the bacta tank he is in, a death awaiting the GM) and the
events it produced, each roll with its dice. Written by :mod:`characters.healing` only."""

from django.db import models

from characters.models import WOUND_LEVELS


class HealingCourse(models.Model):
    """What the downtime job carries for one wounded character from one game day to the next.

    ``level`` is the wound level the course last saw or set: when the sheet's level differs
    (a new wound, a medpac, a GM edit) the job restarts the healing period (IH-17).
    ``processed_through_day`` is the watermark: the last ended game day the job has processed
    for him (H-58, H-66)."""

    character = models.OneToOneField(
        "characters.Character", on_delete=models.CASCADE, related_name="healing"
    )
    seed = models.BigIntegerField(
        help_text="Every healing roll's dice come from this seed and the roll's key "
        "(kind, day, number), so a catch-up run rolls what daily runs roll."
    )
    level = models.CharField(
        max_length=20, choices=WOUND_LEVELS, help_text="The wound level the course follows."
    )
    state = models.JSONField(
        default=dict, help_text="rules.injuries.HealingState.to_json(): the healing period."
    )
    processed_through_day = models.IntegerField(
        default=-1, help_text="The last ended game day processed (-1: none yet)."
    )
    death_pending = models.BooleanField(
        default=False,
        help_text="A healing or bacta roll said death and the campaign's death automation is "
        "flag_for_gm: nothing is rolled until the GM decides.",
    )
    bacta_from = models.PositiveIntegerField(
        null=True, blank=True, help_text="The game day he went into a bacta tank."
    )
    bacta_until = models.PositiveIntegerField(
        null=True, blank=True, help_text="The game day the treatment ends (null: not in a tank)."
    )
    bacta_medicine = models.BooleanField(
        default=False,
        help_text="The tank is run by someone with (A) Medicine (Very Easy) rather than first "
        "aid or Technical (Heroic).",
    )
    bacta_code = models.CharField(
        max_length=12, blank=True, help_text="The die code of the treatment roll, e.g. 4D+1."
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(bacta_until__isnull=True)
                | models.Q(bacta_until__gte=models.F("bacta_from")),
                name="bacta_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character_id}: {self.level}"


class HealingEvent(models.Model):
    """One thing the healing course did on a game day: a natural-healing roll, a bacta time
    roll or treatment roll, a GM's decision. Unique per (character, kind, day, n): a day run
    twice cannot roll twice (H-58)."""

    class Kind(models.TextChoices):
        NATURAL = "natural", "Natural healing roll"
        BACTA_TIME = "bacta_time", "Into a bacta tank"
        BACTA = "bacta", "Bacta treatment"
        GM = "gm", "GM's decision"
        MEDPAC = "medpac", "Medpac"
        ACCELERATE = "accelerate", "Accelerate Healing"
        ACTIVITY = "activity", "Activity"
        CRITICAL = "critical", "Critical injury"

    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="healing_events"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    day = models.PositiveIntegerField()
    n = models.PositiveSmallIntegerField(default=1)
    level_before = models.CharField(max_length=20, choices=WOUND_LEVELS)
    level_after = models.CharField(max_length=20, choices=WOUND_LEVELS)
    total = models.IntegerField(null=True, blank=True)
    dice = models.JSONField(default=dict, blank=True, help_text="The roll with every die.")
    words = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-day", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["character", "kind", "day", "n"], name="one_healing_event_per_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character_id}: {self.kind} day {self.day} #{self.n}"
