"""Campaigns, who belongs to them and in which role, and the links that invite players.

This app imports no other app of the project (import-linter checks it in ``make lint``): what
belongs to a character, its rolls and the dice log included, lives in ``characters``."""

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone

from rules import RuleSet, RuleSetError

INVITATION_LIFETIME = timedelta(days=7)


def validate_rule_options(value) -> None:
    try:
        RuleSet.from_json(value)
    except RuleSetError as exc:
        raise ValidationError(str(exc)) from None


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    rule_options = models.JSONField(
        default=dict,
        blank=True,
        validators=[validate_rule_options],
        help_text="Only the options that differ from Second Edition R&E with the Rules Upgrade.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    game_day = models.PositiveIntegerField(
        default=0, db_default=0, help_text="The campaign's date: days since its start (day 0)."
    )
    era = models.CharField(
        max_length=40,
        blank=True,
        db_default="",
        help_text='How the GM names the era, e.g. "8 BBY".',
    )
    approve_advancement = models.BooleanField(
        default=False,
        db_default=False,
        help_text="Players' advancement requests wait for a GM's approval before training.",
    )
    approve_characters = models.BooleanField(
        default=False,
        db_default=False,
        help_text="New player characters wait for a GM's approval before they play.",
    )

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaigns:detail", args=[self.pk])

    @property
    def ruleset(self) -> RuleSet:
        return RuleSet.from_json(self.rule_options)

    def set_ruleset(self, ruleset: RuleSet) -> None:
        """Store only the differences from the defaults, so new defaults reach old campaigns."""
        self.rule_options = {name: ours for name, (_, ours) in ruleset.differences().items()}


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", "Game master"
        CO_GM = "co_gm", "Co-GM"
        PLAYER = "player", "Player"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
        ]
        ordering = ["role", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    @property
    def is_gm(self) -> bool:
        """A game master or co-GM: runs the campaign."""
        return self.role in (self.Role.GM, self.Role.CO_GM)


class Removal(models.Model):
    """A person the game master removed: no general invitation link lets them back in until
    the game master allows them back (which deletes this row)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    removed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_removal_per_user"),
        ]
        ordering = ["-removed_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.user} removed from {self.campaign}"


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


def default_expiry():
    return timezone.now() + INVITATION_LIFETIME


class Invitation(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=default_expiry)
    revoked_at = models.DateTimeField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Invitation to {self.campaign}"

    def get_absolute_url(self) -> str:
        return reverse("campaigns:join", args=[self.token])

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()

    @property
    def is_usable(self) -> bool:
        return not self.is_revoked and not self.is_expired

    @property
    def status(self) -> str:
        if self.is_revoked:
            return "revoked"
        if self.is_expired:
            return "expired"
        return "active"


class Adventure(models.Model):
    """An adventure of the campaign, from its first game day to its last (open while it runs).
    The skills rolled while it runs count as "used in the last adventure" for advancement."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="adventures")
    name = models.CharField(max_length=120)
    start_day = models.PositiveIntegerField()
    end_day = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_day", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"],
                condition=models.Q(end_day__isnull=True),
                name="one_running_adventure_per_campaign",
            ),
            models.CheckConstraint(
                condition=models.Q(end_day__isnull=True)
                | models.Q(end_day__gte=models.F("start_day")),
                name="adventure_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def running(self) -> bool:
        return self.end_day is None


class LibraryEntry(models.Model):
    """A species, character template, weapon, armour or piece of gear the campaign's game
    masters keep: ``data`` is the entry as :func:`rules.library.check_entry` returns it for its
    kind (the engine validates it; the app stores it). The sources' entries ship read-only in
    ``rules/data`` and are not rows: a GM copies one here to change it, and a campaign entry
    shadows the built-in of the same kind and name."""

    class Kind(models.TextChoices):
        SPECIES = "species", "Species"
        TEMPLATE = "template", "Template"
        WEAPON = "weapon", "Weapon"
        ARMOUR = "armour", "Armour"
        GEAR = "gear", "Gear"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="library")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=100)
    data = models.JSONField(help_text="rules.library.check_entry(kind, data): the entry.")
    source = models.CharField(
        max_length=120, blank=True, help_text='Where it comes from, e.g. "Galaxy Guide 4, p. 12".'
    )
    copied_from = models.CharField(
        max_length=100, blank=True, help_text="The built-in entry it was copied from, if any."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "name", "pk"]
        verbose_name_plural = "library entries"
        constraints = [
            models.UniqueConstraint(
                "campaign", "kind", Lower("name"), name="one_library_entry_per_kind_and_name"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.name}"


class RestoreJob(models.Model):
    """A backup a user uploaded on the site, restored as a new campaign by a Celery task
    (:mod:`campaigns.backup_jobs`): the file waits in :class:`RestoreUpload` rows until the
    job ends. Only its uploader sees it. ``key`` is the upload form's own: the same form sent
    twice (a double click, a reload) finds the same job instead of making a second one."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="restore_jobs"
    )
    key = models.UUIDField(help_text="The upload form's key: one job per form sent.")
    filename = models.CharField(max_length=255, blank=True)
    size = models.PositiveBigIntegerField(default=0, help_text="The file's size in bytes.")
    name = models.CharField(
        max_length=120, blank=True, help_text="A new name for the campaign (empty: the file's)."
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(
        default=0, help_text="Per cent done, as last recorded outside the restore's transaction."
    )
    problems = models.JSONField(
        default=list, blank=True, help_text="Why the file was refused: each problem and its place."
    )
    notes = models.JSONField(default=list, blank=True, help_text="Notes on the restored campaign.")
    counts = models.JSONField(default=dict, blank=True, help_text="Records restored, per part.")
    error = models.CharField(max_length=300, blank=True, help_text="An unexpected failure.")
    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    task_id = models.CharField(max_length=36, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_restore_job_per_form"),
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status__in=["queued", "running"]),
                name="one_restore_under_way_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"Restore of {self.filename or 'a backup'} by {self.user} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("campaigns:restore_job", args=[self.pk])

    @property
    def under_way(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


class RestoreUpload(models.Model):
    """One piece of a :class:`RestoreJob`'s file, in order of ``number``. In the database, not
    on disk: the worker that restores it may run where the web process's disk is not (the
    worker container has no media volume), and the pieces are written in the transaction that
    queues the job and deleted in the one that ends it, so no file outlives its job."""

    job = models.ForeignKey(RestoreJob, on_delete=models.CASCADE, related_name="uploads")
    number = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        ordering = ["job", "number"]
        constraints = [
            models.UniqueConstraint(fields=["job", "number"], name="one_restore_piece_per_number"),
        ]

    def __str__(self) -> str:
        return f"Piece {self.number} of {self.job}"
