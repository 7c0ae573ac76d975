"""Improvement projects as downtime jobs (issue 19): one character's work on one code of a
weapon, an armour or a craft, carried between game days as the engine's
``rules.equipment.ProjectState``. Written by :mod:`characters.projects` only."""

from django.conf import settings
from django.db import models


class Project(models.Model):
    """An improvement project: who works, on what, the engine's state, and what the ledger
    holds for it (CP for the Rules Companion's skill points, 1 : 1, and credits)."""

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        DONE = "done", "Done"
        FAILED = "failed", "Awaiting the GM"
        ABANDONED = "abandoned", "Abandoned"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="projects"
    )
    character = models.ForeignKey(
        "characters.Character",
        on_delete=models.CASCADE,
        related_name="projects",
        help_text="The one character who does the work and pays for it.",
    )
    item = models.ForeignKey(
        "characters.Item", null=True, blank=True, on_delete=models.CASCADE, related_name="projects"
    )
    craft = models.ForeignKey(
        "characters.Craft",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="projects",
    )
    stat = models.CharField(
        max_length=20,
        help_text="What is improved, as the quote names it (damage, armour_physical, "
        "maneuverability, fire_control, ...).",
    )
    weapon = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The craft weapon's position, for its codes."
    )
    label = models.CharField(max_length=200, help_text="What the project does, in words.")
    state = models.JSONField(help_text="rules.equipment.ProjectState.to_json().")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    seed = models.BigIntegerField(
        help_text="Every roll's dice come from this seed and the game day, so a catch-up "
        "advance rolls what daily advances roll."
    )
    started_day = models.PositiveIntegerField(help_text="The game day work began.")
    worked_through_day = models.IntegerField(
        help_text="The last game day whose work the job has done (the watermark)."
    )
    cp_held = models.PositiveIntegerField(
        default=0, help_text="Character Points taken from the worker for this project so far."
    )
    credits_held = models.PositiveBigIntegerField(
        default=0, help_text="Credits taken from the worker for this project so far."
    )
    rolls = models.JSONField(
        default=list,
        blank=True,
        help_text="Every roll with its dice: {day, step, total, number, success, faces}.",
    )
    note = models.CharField(max_length=300, blank=True, help_text="The last thing that happened.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["started_day", "pk"]
        indexes = [models.Index(fields=["campaign", "status"], name="project_campaign_status")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(item__isnull=True, craft__isnull=False)
                | models.Q(item__isnull=False, craft__isnull=True),
                name="project_on_an_item_or_a_craft",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character_id}: {self.label}"
