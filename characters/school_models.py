"""[HOUSE] schools as downtime jobs (issue 19): a school the GM defines for a campaign and a
character's enrolment in it, carried between game days as the engine's
``rules.advancement.schools.SchoolEnrolment``. Written by :mod:`characters.schools` only."""

from django.conf import settings
from django.db import models
from django.db.models import Q


class School(models.Model):
    """A school the GM offers in a campaign ([HOUSE] item 9): its length, its price in CP
    (which may be owed), the pips it adds to skills, and who may attend, in words."""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="schools"
    )
    name = models.CharField(max_length=100)
    instructor = models.CharField(max_length=100, blank=True)
    weeks = models.PositiveSmallIntegerField(help_text="The school's length in weeks.")
    cp_cost = models.PositiveSmallIntegerField(help_text="The price in Character Points.")
    bonuses = models.JSONField(
        default=list,
        help_text="rules.advancement.schools.School bonuses: [[attribute, skill, pips], ...].",
    )
    restrictions = models.CharField(
        max_length=300, blank=True, help_text="Who may attend, in words: 'enlisted only'."
    )
    open = models.BooleanField(default=True, help_text="Taking enrolments.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="school_name_per_campaign"),
            models.CheckConstraint(condition=Q(weeks__gte=1), name="school_at_least_a_week"),
        ]

    def __str__(self) -> str:
        return self.name


class Enrolment(models.Model):
    """A character attending a school: the engine's state, what was paid and owed, the days."""

    class Status(models.TextChoices):
        ATTENDING = "attending", "Attending"
        DONE = "done", "Finished"
        WITHDRAWN = "withdrawn", "Withdrawn"

    school = models.ForeignKey(School, on_delete=models.PROTECT, related_name="enrolments")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="enrolments"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ATTENDING)
    state = models.JSONField(help_text="rules.advancement.schools.SchoolEnrolment.to_json().")
    started_day = models.PositiveIntegerField(help_text="The game day the school began.")
    worked_through_day = models.IntegerField(
        help_text="The last game day the job has counted (the watermark)."
    )
    finished_day = models.PositiveIntegerField(null=True, blank=True)
    cp_paid = models.PositiveSmallIntegerField(default=0, help_text="CP paid when enrolling.")
    cp_owed = models.PositiveSmallIntegerField(default=0, help_text="CP owed when enrolling.")
    result = models.JSONField(
        default=dict, blank=True, help_text="What the school gave: {skill: [before, after]}."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["started_day", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["character"],
                condition=Q(status="attending"),
                name="one_school_at_a_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character_id}: {self.school_id} ({self.status})"
