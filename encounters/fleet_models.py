"""Fleet actions: battles between capital ships under the Rules Companion's capital ship combat
(the campaign's ``capital_combat`` option), stored as the engine's state (``rules.fleet``) and
the steps that led there, like an encounter.

``FleetAction.state`` is :meth:`rules.fleet.FleetState.to_json` after the last step and
``initial_state`` the state it started from; each :class:`FleetStep` keeps the command and its
events (every die), so undo re-applies the stored steps with the recorded dice. ``version``
goes up by one on every write and guards against two tabs moving the battle on from the same
state. Writes go through :mod:`encounters.fleet_services`."""

from django.conf import settings
from django.db import models

from campaigns.models import Campaign
from rules import RuleSet
from rules.fleet import FleetState


class FleetAction(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="fleet_actions")
    name = models.CharField(max_length=120)
    state = models.JSONField(help_text="FleetState.to_json() after the last step.")
    initial_state = models.JSONField(help_text="FleetState.to_json() before the first step.")
    rule_options = models.JSONField(
        default=dict,
        blank=True,
        help_text="The campaign's rule options when the battle began (differences from the "
        "defaults): every step and every undo replays under these.",
    )
    version = models.PositiveIntegerField(
        default=0, help_text="Goes up by one on every write; a step names the version it saw."
    )
    step_count = models.PositiveIntegerField(
        default=0, help_text="Steps stored: the next step's number is one more."
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
    def ruleset(self) -> RuleSet:
        return RuleSet.from_json(self.rule_options)

    def current_state(self) -> FleetState:
        """The stored state as the engine's value (FleetError if the data is damaged)."""
        kept = getattr(self, "_state_value", None)
        if kept is not None and kept[0] is self.state:
            return kept[1]
        state = FleetState.from_json(self.state)
        self._state_value = (self.state, state)
        return state


class FleetStep(models.Model):
    """One step taken: the command's ``to_json`` and the events it produced
    (``FleetEvent.to_json()``, every die), numbered from 1 within the fleet action."""

    fleet_action = models.ForeignKey(FleetAction, on_delete=models.CASCADE, related_name="steps")
    number = models.PositiveIntegerField()
    command = models.JSONField()
    events = models.JSONField(help_text="[FleetEvent.to_json(), ...]: what happened, every die.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["fleet_action", "number"], name="one_fleet_step_per_number"
            ),
        ]

    def __str__(self) -> str:
        kind = self.command.get("type") if isinstance(self.command, dict) else "?"
        return f"{self.fleet_action_id} #{self.number}: {kind}"
