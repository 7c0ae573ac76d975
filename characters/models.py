"""Characters and what their sheets hold: attributes, skills, Force powers, equipment, and the
ledger that explains every Character Point, Force Point, Dark Side Point and credit."""

from django.conf import settings
from django.db import models, transaction
from django.db.models.signals import post_delete, post_init, post_save
from django.dispatch import receiver
from django.urls import reverse

from characters.fields import DieCodeField
from rules import DieCode

ATTRIBUTES = ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical")
ATTRIBUTE_LABELS = {a: a.capitalize() for a in ATTRIBUTES}


class WoundLevel(models.TextChoices):
    NONE = "none", "Healthy"
    STUNNED = "stunned", "Stunned"
    WOUNDED = "wounded", "Wounded"
    WOUNDED_TWICE = "wounded_twice", "Wounded twice"
    INCAPACITATED = "incapacitated", "Incapacitated"
    MORTALLY_WOUNDED = "mortally_wounded", "Mortally wounded"
    KILLED = "killed", "Killed"


class Currency(models.TextChoices):
    CP = "cp", "Character Points"
    FP = "fp", "Force Points"
    DSP = "dsp", "Dark Side Points"
    CREDITS = "credits", "Credits"


class Character(models.Model):
    class Kind(models.TextChoices):
        PC = "pc", "Player character"
        NPC = "npc", "Non-player character"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="characters"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="characters",
        help_text="The player who plays this character; empty for NPCs.",
    )
    kind = models.CharField(max_length=3, choices=Kind.choices, default=Kind.PC)
    secret = models.BooleanField(default=False, help_text="Hidden from players (NPCs only).")
    name = models.CharField(max_length=100)
    species = models.CharField(max_length=60, default="Human")
    template = models.CharField(max_length=60, blank=True)
    gender = models.CharField(max_length=30, blank=True)
    age = models.CharField(max_length=30, blank=True)
    height = models.CharField(max_length=30, blank=True)

    dexterity = DieCodeField(default=6)
    knowledge = DieCodeField(default=6)
    mechanical = DieCodeField(default=6)
    perception = DieCodeField(default=6)
    strength = DieCodeField(default=6)
    technical = DieCodeField(default=6)
    move = models.PositiveSmallIntegerField(default=10)

    force_sensitive = models.BooleanField(default=False)
    # Balances: changed only through characters.services.change_balance (the ledger).
    character_points = models.PositiveIntegerField(default=0)
    force_points = models.PositiveIntegerField(default=0)
    dark_side_points = models.PositiveIntegerField(default=0)
    credits = models.PositiveIntegerField(default=0)

    wound_level = models.CharField(
        max_length=20, choices=WoundLevel.choices, default=WoundLevel.NONE
    )
    stuns = models.PositiveSmallIntegerField(default=0)

    background = models.TextField(blank=True)
    personality = models.TextField(blank=True)
    notes = models.TextField(blank=True)
    portrait = models.ImageField(upload_to="portraits/", blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-kind", "name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind="npc") | models.Q(owner__isnull=False),
                name="pc_has_an_owner",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("characters:sheet", args=[self.campaign_id, self.pk])

    def attribute(self, name: str) -> DieCode:
        return getattr(self, name)

    @property
    def is_npc(self) -> bool:
        return self.kind == self.Kind.NPC

    def balance(self, currency: str) -> int:
        return getattr(self, BALANCE_FIELDS[currency])


BALANCE_FIELDS = {
    Currency.CP: "character_points",
    Currency.FP: "force_points",
    Currency.DSP: "dark_side_points",
    Currency.CREDITS: "credits",
}


class Skill(models.Model):
    class Kind(models.TextChoices):
        SKILL = "skill", "Skill"
        SPECIALIZATION = "specialization", "Specialization"
        ADVANCED = "advanced", "Advanced skill"
        FORCE = "force", "Force skill"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="skills")
    name = models.CharField(max_length=80)
    attribute = models.CharField(
        max_length=12, choices=[(a, ATTRIBUTE_LABELS[a]) for a in ATTRIBUTES] + [("force", "Force")]
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.SKILL)
    base_skill = models.CharField(
        max_length=80, blank=True, help_text="For a specialization: the skill it specializes."
    )
    code = DieCodeField(help_text="The full code rolled, e.g. 5D+1 (not the dice added).")

    class Meta:
        ordering = ["attribute", "name"]
        constraints = [
            models.UniqueConstraint(fields=["character", "name"], name="one_skill_per_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.code}"


class ForcePower(models.Model):
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="powers")
    name = models.CharField(max_length=80)
    skills = models.CharField(max_length=40, blank=True, help_text="e.g. control, sense")
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["character", "name"], name="one_power_per_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Item(models.Model):
    class Kind(models.TextChoices):
        WEAPON = "weapon", "Weapon"
        ARMOUR = "armour", "Armour"
        GEAR = "gear", "Gear"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="items")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.GEAR)
    name = models.CharField(max_length=100)
    quantity = models.PositiveSmallIntegerField(default=1)
    damage = DieCodeField(null=True, blank=True, help_text="Weapons: damage code.")
    skill = models.CharField(max_length=80, blank=True, help_text="Weapons: skill used.")
    ranges = models.CharField(max_length=40, blank=True, help_text="Short-medium-long in metres.")
    armour_physical = DieCodeField(null=True, blank=True)
    armour_energy = DieCodeField(null=True, blank=True)
    notes = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["kind", "name", "pk"]

    def __str__(self) -> str:
        return self.name


class LedgerEntry(models.Model):
    """One change of a balance: who, when, why, by how much, and the balance after it."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="ledger")
    currency = models.CharField(max_length=8, choices=Currency.choices)
    delta = models.IntegerField()
    balance_after = models.PositiveIntegerField()
    reason = models.CharField(max_length=200)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    roll = models.ForeignKey(
        "campaigns.DiceRoll", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "ledger entries"
        indexes = [models.Index(fields=["character", "currency", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.character}: {self.delta:+d} {self.currency} ({self.reason})"


class CreationDraft(models.Model):
    """The character wizard's state, kept on the server so a reload loses nothing."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=3, choices=Character.Kind.choices, default="pc")
    step = models.CharField(max_length=20, default="species")
    data = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"Draft {self.data.get('name') or 'character'} ({self.step})"


# --- Portrait files: a replaced, cleared or orphaned portrait is deleted from storage ---------
# After the transaction commits, so a rolled-back change never loses the file still in use.
def _delete_portrait_file(name: str) -> None:
    field = Character._meta.get_field("portrait")
    transaction.on_commit(lambda: field.storage.delete(name))


@receiver(post_init, sender=Character)
def _remember_portrait(sender, instance, **kwargs):
    name = instance.__dict__.get("portrait")
    instance._stored_portrait = getattr(name, "name", name) or ""


@receiver(post_save, sender=Character)
def _delete_replaced_portrait(sender, instance, **kwargs):
    if "portrait" not in instance.__dict__:  # deferred: not loaded, so not changed
        return
    old, new = instance._stored_portrait, instance.portrait.name or ""
    if old and old != new:
        _delete_portrait_file(old)
    instance._stored_portrait = new


@receiver(post_delete, sender=Character)
def _delete_orphaned_portrait(sender, instance, **kwargs):
    name = instance.__dict__.get("portrait")
    name = getattr(name, "name", name)
    if name:
        _delete_portrait_file(name)
