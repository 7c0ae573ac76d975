"""An encounter of a campaign, stored as the engine's state and the steps that led there.

``Encounter.state`` is :meth:`rules.encounter.EncounterState.to_json` after the last step and
``initial_state`` the state it started from; each :class:`Step` keeps the command and its
events (every die), so undo and replay re-apply the stored steps with the recorded dice.
``version`` goes up by one on every write and guards against two tabs (or a double click)
moving the encounter on from the same state. Writes go through :mod:`encounters.services`."""

from django.conf import settings
from django.db import models

from campaigns.models import Campaign
from rules import RuleSet
from rules.encounter import EncounterState


class Encounter(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        ENDED = "ended", "Ended"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="encounters")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    state = models.JSONField(help_text="EncounterState.to_json() after the last step.")
    initial_state = models.JSONField(help_text="EncounterState.to_json() before the first step.")
    rule_options = models.JSONField(
        default=dict,
        blank=True,
        help_text="The campaign's rule options when the fight began (differences from the "
        "defaults): every step and every undo replays under these, even if the campaign's "
        "options change mid-fight.",
    )
    version = models.PositiveIntegerField(
        default=0, help_text="Goes up by one on every write; a step names the version it saw."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.campaign})"

    @property
    def is_ended(self) -> bool:
        return self.status == self.Status.ENDED

    @property
    def ruleset(self) -> RuleSet:
        return RuleSet.from_json(self.rule_options)

    def current_state(self) -> EncounterState:
        """The stored state as the engine's value (EncounterError if the data is damaged)."""
        return EncounterState.from_json(self.state)


class Step(models.Model):
    """One step taken: the command as stored by its ``to_json`` and the events it produced
    (``Event.to_json()``, every die), numbered from 1 within the encounter."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="steps")
    number = models.PositiveIntegerField()
    command = models.JSONField()
    events = models.JSONField(help_text="[Event.to_json(), ...]: what happened, every die.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "number"], name="one_step_per_number"),
        ]

    def __str__(self) -> str:
        kind = self.command.get("type") if isinstance(self.command, dict) else "?"
        return f"{self.encounter_id} #{self.number}: {kind}"
