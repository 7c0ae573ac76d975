"""Ships and vehicles of a campaign and their crew stations (issue 18).

A craft's stat block is stored as ``rules.craft.CraftStats.to_json()`` (what the engine reads
back with ``from_json``), made from the catalogue in ``rules/data`` or typed by the GM. It
belongs to one character or to the party (or to nobody yet: an NPC's ship, a wreck). Its damage
is ``rules.craft.CraftState.to_json()`` (for the damage rules; None while undamaged).

Crew stations are made with the craft: pilot, co-pilot, one gunner per weapon, shields (when
it has shields), sensors and engineer. One character per station; a character may hold
several stations (a starfighter's pilot fires its guns): each extra action that round takes
1D from every roll, set on the roll form as for any multiple action.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from rules.craft import CraftState, CraftStats


class Craft(models.Model):
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="craft"
    )
    name = models.CharField(max_length=100)
    catalogue_name = models.CharField(
        max_length=100,
        blank=True,
        help_text="The catalogue craft (rules/data) this one was made from; blank: the GM's own.",
    )
    stats = models.JSONField(help_text="rules.craft.CraftStats.to_json(): the stat block.")
    owner_character = models.ForeignKey(
        "characters.Character",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_craft",
    )
    party = models.BooleanField(default=False, help_text="Owned by the party as a whole.")
    damage = models.JSONField(
        null=True, blank=True, help_text="rules.craft.CraftState.to_json(); null: undamaged."
    )
    value = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text="The craft's original value in credits: repairs cost a share of it.",
    )
    notes = models.TextField(blank=True, max_length=4000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name_plural = "craft"
        constraints = [
            models.CheckConstraint(
                condition=~(Q(party=True) & Q(owner_character__isnull=False)),
                name="craft_one_owner",
                violation_error_message="A craft belongs to a character or to the party.",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("characters:craft_sheet", args=[self.campaign_id, self.pk])

    @property
    def stat_block(self) -> CraftStats:
        cached = getattr(self, "_stat_block", None)
        if cached is None:
            cached = CraftStats.from_json(self.stats)
            self._stat_block = cached
        return cached

    @property
    def damage_state(self) -> CraftState:
        """The stored damage as the engine's value (undamaged when none is stored)."""
        return CraftState() if self.damage is None else CraftState.from_json(self.damage)


class CrewStation(models.Model):
    class Role(models.TextChoices):
        PILOT = "pilot", "Pilot"
        COPILOT = "copilot", "Co-pilot"
        GUNNER = "gunner", "Gunner"
        SHIELDS = "shields", "Shields"
        SENSORS = "sensors", "Sensors"
        ENGINEER = "engineer", "Engineer"

    craft = models.ForeignKey(Craft, on_delete=models.CASCADE, related_name="stations")
    role = models.CharField(max_length=8, choices=Role.choices)
    weapon_index = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="A gunner's weapon: its place in the stat block's list."
    )
    character = models.ForeignKey(
        "characters.Character",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="crew_stations",
    )

    class Meta:
        ordering = ["craft", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["craft", "role"],
                condition=Q(weapon_index__isnull=True),
                name="crew_station_one_per_role",
            ),
            models.UniqueConstraint(
                fields=["craft", "weapon_index"],
                condition=Q(weapon_index__isnull=False),
                name="crew_station_one_gunner_per_weapon",
            ),
            models.CheckConstraint(
                condition=Q(role="gunner", weapon_index__isnull=False)
                | (~Q(role="gunner") & Q(weapon_index__isnull=True)),
                name="crew_station_gunner_has_weapon",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.craft_id}: {self.role}"


class RepairRequest(models.Model):
    """A repair of one damaged system of a craft (droids-and-equipment.md §5): the quote from
    ``rules.equipment.repair_requirement`` (difficulty, cost, the first roll after 15 minutes
    of work) as it stood when it was asked for, then the engineer's roll that settles it.

    Kept simple on purpose: one request, one roll. Issue 19 will turn an open request into a
    downtime job that finishes in game time; until then the GM or the engineer resolves it at
    the table. ``entry`` names the damage it repairs in ``Craft.damage``
    (characters.craft_damage.damage_entries): "maneuverability", "moves", "shields",
    "hyperdrive" or "weapon:<n>" (the n-th weapon result)."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        WORKING = "working", "Under way"
        DONE = "done", "Repaired"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    craft = models.ForeignKey(Craft, on_delete=models.CASCADE, related_name="repairs")
    entry = models.CharField(max_length=20)
    description = models.CharField(max_length=200, help_text="What is repaired, in words.")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    difficulty = models.CharField(max_length=20, help_text="The repair roll's level: Moderate.")
    cost = models.PositiveBigIntegerField(default=0, help_text="Credits, paid on success.")
    minutes = models.PositiveIntegerField(default=15, help_text="Work before the first roll.")
    hired = models.PositiveSmallIntegerField(
        default=1, help_text="1: the crew's own work; 2 or 3: someone else's (double, triple)."
    )
    payer = models.ForeignKey(
        "characters.Character",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who pays the credits.",
    )
    engineer = models.ForeignKey(
        "characters.Character",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who rolled the repair.",
    )
    roll = models.ForeignKey(
        "characters.DiceRoll", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    # As a downtime job (issue 19, characters.repair_jobs): null while it is rolled at the table.
    pace = models.CharField(max_length=10, default="normal")
    seed = models.BigIntegerField(
        null=True, blank=True, help_text="A job's rolls come from this seed and the game day."
    )
    started_day = models.PositiveIntegerField(null=True, blank=True)
    worked_through_day = models.IntegerField(
        null=True, blank=True, help_text="The watermark: the last game day the job worked."
    )
    finished_day = models.PositiveIntegerField(null=True, blank=True)
    rolls = models.JSONField(default=list, blank=True, help_text="A job's rolls with their dice.")

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(hired__gte=1, hired__lte=3), name="repair_hired_1_to_3"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.craft_id}: {self.description} ({self.status})"
