"""Characters and what their sheets hold: attributes, skills, Force powers, equipment, and the
ledger that explains every Character Point, Force Point, Dark Side Point and credit."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models.signals import post_delete, post_init, post_save
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone

from characters.fields import DieCodeField
from rules import DieCode
from rules.injuries import InjuryError, WoundLevel, WoundState
from rules.traits import ATTRIBUTE_LABELS, ATTRIBUTES


def wound_level_label(level: WoundLevel | str) -> str:
    """A wound level in the sheet's words: ``Healthy``, ``Wounded twice``."""
    level = WoundLevel(level)
    return "Healthy" if level is WoundLevel.none else level.label


WOUND_LEVELS = [
    (level.value, wound_level_label(level)) for level in WoundLevel if level.on_wound_track
]
"""Every level a character can be at on any ladder (the engine's values; ``stunned`` is not one:
stuns are kept in ``stun_state``). Which of them a campaign uses is its ruleset's
:func:`rules.injuries.wound_ladder`: the Rules Companion has no wounded twice."""


def no_stuns() -> dict:
    """The stored stun state of a character who has taken no stuns."""
    return _stun_part(WoundState())


def _stun_part(state: WoundState) -> dict:
    data = state.to_json()
    del data["level"]
    return data


def validate_stun_state(value) -> None:
    """What ``rules.injuries.WoundState.from_json`` accepts, less the level."""
    if not isinstance(value, dict) or "level" in value:
        raise ValidationError("the stun state is an object of stuns, without a wound level")
    try:
        WoundState.from_json({"level": WoundLevel.none.value, **value})
    except InjuryError as exc:
        raise ValidationError(str(exc)) from None


class Currency(models.TextChoices):
    CP = "cp", "Character Points"
    FP = "fp", "Force Points"
    DSP = "dsp", "Dark Side Points"
    PENDING_CP = "pcp", "Pending CP"
    CREDITS = "credits", "Credits"
    CP_OWED = "owed", "CP owed"


class Character(models.Model):
    class Kind(models.TextChoices):
        PC = "pc", "Player character"
        NPC = "npc", "Non-player character"

    class Nature(models.TextChoices):
        ORGANIC = "organic", "Organic"
        DROID = "droid", "Droid"

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
    nature = models.CharField(
        max_length=8,
        choices=Nature.choices,
        default=Nature.ORGANIC,
        db_default="organic",
        help_text="What the character is (a droid or not); who controls it is its kind.",
    )
    droid_design = models.JSONField(
        null=True,
        blank=True,
        help_text="A droid's building record: rules.droids.DroidDesign.to_json() as built "
        "(characters.droid_builder); null for organic characters.",
    )
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
    pending_cp = models.PositiveIntegerField(
        default=0,
        db_default=0,
        help_text="[HOUSE] CP awarded at an adventure's end, posted to the Character Points at "
        "the month's end (characters.month_end).",
    )
    credits = models.PositiveIntegerField(default=0)
    cp_owed = models.PositiveIntegerField(
        default=0,
        db_default=0,
        help_text="[HOUSE] school debt in Character Points (at most 100); half of every CP "
        "earned repays it (characters.schools).",
    )

    criticals = models.JSONField(
        default=list,
        blank=True,
        db_default=[],
        help_text="[HOUSE] critical injuries carried on the sheet: [{table, roll, name, words, "
        "from_day, deadline_day, permanent, healed_day}] (characters.healing).",
    )

    # Injuries: the engine's rules.injuries.WoundState, split in two (Character.wound_state).
    wound_level = models.CharField(
        max_length=20,
        choices=WOUND_LEVELS,
        default=WoundLevel.none.value,
        help_text="A level on the campaign's wound ladder (rules.injuries.wound_ladder).",
    )
    stun_state = models.JSONField(
        default=no_stuns,
        validators=[validate_stun_state],
        help_text="The stuns taken, each with its round: rules.injuries.WoundState.to_json() "
        "without the level.",
    )

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
            models.CheckConstraint(
                condition=models.Q(wound_level__in=[value for value, _ in WOUND_LEVELS]),
                name="wound_level_on_the_wound_track",
            ),
            models.CheckConstraint(
                condition=models.Q(nature__in=["organic", "droid"]),
                name="nature_organic_or_droid",
            ),
            models.CheckConstraint(
                condition=models.Q(nature="droid") | models.Q(droid_design__isnull=True),
                name="only_droids_have_a_droid_design",
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

    @property
    def is_droid(self) -> bool:
        return self.nature == self.Nature.DROID

    def balance(self, currency: str) -> int:
        return getattr(self, BALANCE_FIELDS[currency])

    @property
    def wound_state(self) -> WoundState:
        """The stored level and stuns as the engine's value. The level is checked against the
        campaign's ladder where it is used (``characters.services.wound_state``)."""
        return WoundState.from_json({"level": self.wound_level, **self.stun_state})

    def set_wound_state(self, state: WoundState) -> None:
        """Store the engine's wound state (the caller saves)."""
        self.wound_level = state.level.value
        self.stun_state = _stun_part(state)

    @property
    def stun_points(self) -> int:
        """Stun points on record (an [RC] "2 Stun" counts 2)."""
        return sum(stun.points for stun in self.wound_state.stuns)


BALANCE_FIELDS = {
    Currency.CP: "character_points",
    Currency.FP: "force_points",
    Currency.DSP: "dark_side_points",
    Currency.PENDING_CP: "pending_cp",
    Currency.CREDITS: "credits",
    Currency.CP_OWED: "cp_owed",
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
        "DiceRoll", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "ledger entries"
        indexes = [models.Index(fields=["character", "currency", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.character}: {self.delta:+d} {self.currency} ({self.reason})"


class DiceRoll(models.Model):
    """A roll made on the server, stored with every die so it can be shown and audited."""

    campaign = models.ForeignKey(
        "campaigns.Campaign",
        on_delete=models.CASCADE,
        related_name="rolls",
        db_index=False,  # roll_campaign_newest starts with the campaign and serves its lookups
    )
    character = models.ForeignKey(
        Character, null=True, blank=True, on_delete=models.SET_NULL, related_name="rolls"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    label = models.CharField(max_length=120, help_text="What was rolled: 'Blaster', 'Strength'.")
    code = models.CharField(max_length=20, help_text="The code on the sheet, e.g. 5D+1.")
    pool = models.CharField(max_length=20, help_text="The pool actually rolled after penalties.")
    dice = models.JSONField(help_text="rules.Roll.to_json(): every die, Wild Die, CP dice.")
    total = models.IntegerField()
    difficulty = models.PositiveIntegerField(null=True, blank=True)
    cp_spent = models.PositiveSmallIntegerField(default=0)
    force_point = models.BooleanField(default=False)
    hidden = models.BooleanField(default=False, help_text="Seen by the GMs only.")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        # The log's order, in full: every page, cursor and strip query is "this campaign,
        # newest first" (characters/live.py), so the index walks it without a sort.
        indexes = [
            models.Index(fields=["campaign", "-created_at", "-id"], name="roll_campaign_newest")
        ]

    def __str__(self) -> str:
        return f"{self.label} {self.code}: {self.total}"

    @property
    def succeeded(self) -> bool | None:
        return None if self.difficulty is None else self.total >= self.difficulty


class CreationDraft(models.Model):
    """The character wizard's state, kept on the server so a reload loses nothing. In a
    campaign whose new characters need the GM's approval, a player's finished draft is
    submitted (read-only to him) until the GM approves it, which creates the character, or
    returns it with a reason for him to fix."""

    class Status(models.TextChoices):
        EDITING = "editing", "Being built"
        SUBMITTED = "submitted", "Awaiting the GM's approval"
        RETURNED = "returned", "Returned by the GM"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=3, choices=Character.Kind.choices, default="pc")
    step = models.CharField(max_length=20, default="species")
    data = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.EDITING, db_default="editing"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    exception_note = models.CharField(
        max_length=300,
        blank=True,
        help_text="The player's request to the GM for what differs from the creation rules.",
    )
    review_reason = models.CharField(
        max_length=300, blank=True, help_text="The GM's reason for returning the draft."
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

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


class TraitUse(models.Model):
    """A skill or attribute a character rolled (or the GM ticked) during an adventure: it was
    "used in the last adventure" when he improves it afterwards."""

    adventure = models.ForeignKey(
        "campaigns.Adventure", on_delete=models.CASCADE, related_name="trait_uses"
    )
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="trait_uses")
    trait = models.CharField(
        max_length=80, help_text='An attribute key ("dexterity") or a skill name, lower case.'
    )
    by_hand = models.BooleanField(default=False, help_text="Ticked by the GM, not rolled.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["trait"]
        constraints = [
            models.UniqueConstraint(
                fields=["adventure", "character", "trait"], name="one_use_per_trait_and_adventure"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character_id}: {self.trait}"


class Advancement(models.Model):
    """A character's improvement: asked for (its cost held through the ledger at once), then
    approved or refused by the GM when the campaign asks for approval, trained until its due
    game day, and done (or, for an attribute whose roll failed, done with half back).

    ``training`` is :meth:`rules.advancement.Training.to_json` (the cost, the days, the
    attribute roll when it is made); ``roll`` keeps that roll's dice."""

    class Status(models.TextChoices):
        AWAITING = "awaiting", "Awaiting the GM"
        TRAINING = "training", "Training"
        DONE = "done", "Done"
        FAILED = "failed", "Roll failed"
        REFUSED = "refused", "Refused"
        WITHDRAWN = "withdrawn", "Withdrawn"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="advancements")
    kind = models.CharField(max_length=40, help_text="rules.advancement KINDS: skill, attribute…")
    target = models.CharField(
        max_length=80, help_text="The skill, specialization, attribute or power improved."
    )
    skill = models.ForeignKey(
        Skill, null=True, blank=True, on_delete=models.SET_NULL, related_name="advancements"
    )
    current = models.CharField(max_length=20, blank=True, help_text="The code before.")
    new = models.CharField(max_length=20, blank=True, help_text="The code after.")
    teacher = models.BooleanField(default=True)
    used_last_adventure = models.BooleanField(default=False)
    cp_cost = models.PositiveIntegerField(help_text="Character Points held for it.")
    training_days = models.PositiveIntegerField(default=0)
    training = models.JSONField(help_text="rules.advancement.Training.to_json().")
    adventure = models.ForeignKey(
        "campaigns.Adventure",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="advancements",
        help_text="The last adventure when it was asked: one pip per skill between adventures.",
    )
    status = models.CharField(max_length=10, choices=Status.choices)
    requested_day = models.PositiveIntegerField()
    start_day = models.PositiveIntegerField(null=True, blank=True)
    due_day = models.PositiveIntegerField(null=True, blank=True)
    completed_day = models.PositiveIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True, help_text="The GM's reason to refuse.")
    roll = models.JSONField(null=True, blank=True, help_text="The attribute roll, every die.")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "due_day"], name="advancement_due")]

    def __str__(self) -> str:
        return f"{self.character_id}: {self.kind} {self.target} ({self.status})"


class TimeAdvance(models.Model):
    """One "advance N days" of a campaign: the job that moves its date from ``from_day`` to
    ``to_day`` a chunk at a time, completing what falls due in order, each roll from ``seed``.
    Keyed by (campaign, to_day): a double click, a retry or a restarted worker finds the same
    row and carries on from ``day_reached``, never applying a day twice."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="time_advances"
    )
    from_day = models.PositiveIntegerField()
    to_day = models.PositiveIntegerField()
    day_reached = models.PositiveIntegerField(help_text="The last day fully applied.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    seed = models.BigIntegerField(help_text="Every roll the advance makes comes from this seed.")
    report = models.JSONField(default=list, blank=True, help_text="What happened, day by day.")
    error = models.CharField(max_length=300, blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "to_day"], name="one_advance_per_campaign_and_target_day"
            ),
            models.UniqueConstraint(
                fields=["campaign"],
                condition=models.Q(status__in=["queued", "running"]),
                name="one_running_advance_per_campaign",
            ),
            models.CheckConstraint(
                condition=models.Q(to_day__gt=models.F("from_day")),
                name="an_advance_moves_time_forward",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id}: day {self.from_day} → {self.to_day} ({self.status})"

    @property
    def progress(self) -> int:
        """Percent of the days applied."""
        span = self.to_day - self.from_day
        return 100 if span <= 0 else round(100 * (self.day_reached - self.from_day) / span)


class SkillEdit(models.Model):
    """The GM's hand edit of a skill or specialization on a sheet (added, changed or removed):
    an audited change, not an advancement (no Character Points, no training)."""

    class Action(models.TextChoices):
        ADD = "add", "Added"
        CHANGE = "change", "Changed"
        REMOVE = "remove", "Removed"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="skill_edits")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=6, choices=Action.choices)
    skill_name = models.CharField(max_length=80)
    before = models.CharField(max_length=20, blank=True, help_text="The code before (none: add).")
    after = models.CharField(max_length=20, blank=True, help_text="The code after (none: remove).")
    detail = models.CharField(
        max_length=200, blank=True, help_text="What else changed: name, attribute, kind, base."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.character_id}: {self.action} {self.skill_name}"


# Ships and vehicles (issue 18) live in their own module; imported here so Django finds them.
from characters.craft_models import Craft, CrewStation  # noqa: E402, F401

# Healing over days between adventures (issue 19), in its own module like the craft.
from characters.healing_models import HealingCourse, HealingEvent  # noqa: E402, F401

# Improvement projects as downtime jobs (issue 19).
from characters.project_models import Project  # noqa: E402, F401
from characters.repair_models import DroidRepair  # noqa: E402, F401

# Downtime schools and droid repairs (issue 19).
from characters.school_models import Enrolment, School  # noqa: E402, F401
