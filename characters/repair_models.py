"""Repairs of damaged droids as downtime jobs (issue 19). A droid's damage is its wound level
(a droid is a character); it does not heal on its own, it is repaired. Craft repairs are
``characters.craft_models.RepairRequest``; both are worked by :mod:`characters.repair_jobs`."""

from django.conf import settings
from django.db import models


class DroidRepair(models.Model):
    """A repair of a damaged droid: who works, at what difficulty, cost and pace, the days."""

    class Status(models.TextChoices):
        WORKING = "working", "Under way"
        DONE = "done", "Repaired"
        CANCELLED = "cancelled", "Cancelled"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="droid_repairs"
    )
    droid = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="repairs_received"
    )
    engineer = models.ForeignKey(
        "characters.Character",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="droid_repairs_made",
        help_text="Who works on it; none: a hired technician (the GM's skill code).",
    )
    hired_code = models.CharField(
        max_length=20, blank=True, help_text="A hired technician's droid repair code: 5D."
    )
    payer = models.ForeignKey(
        "characters.Character",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who pays the credits.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WORKING)
    from_level = models.CharField(max_length=20, help_text="The damage when work began.")
    difficulty = models.CharField(max_length=20, help_text="The repair roll's level.")
    cost = models.PositiveBigIntegerField(default=0, help_text="Credits, paid on success.")
    pace = models.CharField(max_length=10, default="normal")
    seed = models.BigIntegerField(help_text="Rolls come from this seed and the game day.")
    started_day = models.PositiveIntegerField()
    worked_through_day = models.IntegerField(help_text="The watermark: last day worked.")
    finished_day = models.PositiveIntegerField(null=True, blank=True)
    rolls = models.JSONField(default=list, blank=True, help_text="Every roll with its dice.")
    note = models.CharField(max_length=300, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["started_day", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["droid"], condition=models.Q(status="working"), name="one_droid_repair"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.droid_id}: {self.from_level} ({self.status})"
