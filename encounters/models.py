"""An encounter of a campaign, stored as the engine's state and the steps that led there.

``Encounter.state`` is :meth:`rules.encounter.EncounterState.to_json` after the last step and
``initial_state`` the state it started from; each :class:`Step` keeps the command and its
events (every die), so undo and replay re-apply the stored steps with the recorded dice.
``version`` goes up by one on every write and guards against two tabs (or a double click)
moving the encounter on from the same state. Writes go through :mod:`encounters.services`."""

from collections import OrderedDict

from django.conf import settings
from django.db import models, transaction

from campaigns.models import Campaign
from rules import RuleSet
from rules.encounter import EncounterState

_STATES: OrderedDict[tuple[object, ...], EncounterState] = OrderedDict()
_STATES_KEPT = 64


def _remember(key: tuple[object, ...], state: EncounterState) -> None:
    _STATES[key] = state
    _STATES.move_to_end(key)
    while len(_STATES) > _STATES_KEPT:
        _STATES.popitem(last=False)


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
    step_count = models.PositiveIntegerField(
        default=0, help_text="Steps stored: the next step's number is one more."
    )
    undone_at = models.PositiveIntegerField(
        default=0,
        help_text="The version the last undo wrote (0: never). A view older than this cannot "
        "catch up from the steps alone and is sent whole.",
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
        """The rules the fight began under (read once per instance)."""
        kept = getattr(self, "_ruleset_value", None)
        if kept is None or kept[0] is not self.rule_options:
            kept = (self.rule_options, RuleSet.from_json(self.rule_options))
            self._ruleset_value = kept
        return kept[1]

    def current_state(self) -> EncounterState:
        """The stored state as the engine's value (EncounterError if the data is damaged).

        Reading 50 combatants back takes milliseconds, and every step reads the state the last
        one wrote: the engine's value is kept per (encounter, version, start) in a small
        process-wide cache (the value is frozen, so sharing it is safe), and on the instance
        that wrote it."""
        kept = getattr(self, "_state_value", None)
        if kept is not None and kept[0] is self.state:
            return kept[1]
        key = (self.pk, self.version, self.created_at)
        state = _STATES.get(key) if self.pk else None
        if state is None:
            state = EncounterState.from_json(self.state)
            if self.pk:  # what this transaction reads may be its own write: kept at commit
                transaction.on_commit(lambda: _remember(key, state))
        self._state_value = (self.state, state)
        return state

    def keep_state(self, state: EncounterState) -> None:
        """Store ``state`` as the current state (the caller bumps the version first and saves):
        the process-wide cache learns it only once the transaction commits, so a write that is
        rolled back never answers for that version."""
        self.state = state.to_json()
        self._state_value = (self.state, state)
        key = (self.pk, self.version, self.created_at)
        transaction.on_commit(lambda: _remember(key, state))


class Step(models.Model):
    """One step taken: the command as stored by its ``to_json`` and the events it produced
    (``Event.to_json()``, every die), numbered from 1 within the encounter."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="steps")
    number = models.PositiveIntegerField()
    version = models.PositiveIntegerField(
        default=0, help_text="The encounter's version this step wrote (what changed since v)."
    )
    command = models.JSONField()
    events = models.JSONField(help_text="[Event.to_json(), ...]: what happened, every die.")
    touched = models.JSONField(
        default=list,
        blank=True,
        help_text='The combatant ids the step changed, or ["*"] for the whole table.',
    )
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


class StatBlock(models.Model):
    """A campaign's saved quick stat block ("Stormtrooper"): the quick stat block form's
    cleaned values, to fill the form again for the next fight."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="stat_blocks")
    name = models.CharField(max_length=80)
    block = models.JSONField(help_text="The quick stat block form's values.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="one_stat_block_per_name"),
        ]

    def __str__(self) -> str:
        return self.name


# Fleet actions (capital ships, [RC]) live in their own module; imported so Django finds them.
from encounters.fleet_models import FleetAction, FleetStep  # noqa: E402, F401
