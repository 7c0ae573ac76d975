"""A campaign's backup on the site: the GM downloads it (streamed as it is written), and any
user restores one as a new campaign of theirs. The restore is a job
(:mod:`campaigns.backup_jobs`): the upload is stored and a worker checks the whole file, then
writes the campaign, while the uploader's page shows its progress; on any problem nothing is
created and every problem is listed with its place."""

import uuid
from urllib.parse import urlencode

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from campaigns.access import membership_or_404
from campaigns.backup import MAX_FILE_BYTES, export_campaign, registered
from campaigns.backup_jobs import RestoreRefused, progress_of, start_restore
from campaigns.models import Campaign, RestoreJob

MAX_NOTES = 20
"""Notes shown after a restore (users with no account here...); the rest are counted."""
RECENT_JOBS = 5
"""The user's latest restores listed under the upload form."""


def backup_filename(campaign: Campaign) -> str:
    """``shadows-over-tatooine-2026-11-24.datapad.json``."""
    return f"{slugify(campaign.name) or 'campaign'}-{timezone.localdate():%Y-%m-%d}.datapad.json"


@login_required
def backup_download(request, campaign_id):
    """GM: the whole campaign as a backup file."""
    campaign = membership_or_404(request.user, campaign_id, role="gm").campaign
    response = StreamingHttpResponse(
        export_campaign(campaign), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=backup_filename(campaign)
    )
    return response


class RestoreForm(forms.Form):
    file = forms.FileField(
        label="Backup file",
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        help_text="A campaign backup (.json) downloaded from a campaign page of Datapad.",
    )
    name = forms.CharField(
        label="Name of the restored campaign",
        required=False,
        max_length=Campaign._meta.get_field("name").max_length,
        help_text="Leave empty to keep the name in the file.",
    )
    key = forms.CharField(required=False, widget=forms.HiddenInput)
    """The form's own key: sent twice (a double click), it finds the job of the first."""

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                f"The file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB."
            )
        return upload

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if "\x00" in name:
            raise forms.ValidationError("A name cannot hold NUL characters.")
        return name

    def clean_key(self):
        try:
            return uuid.UUID(self.cleaned_data["key"])
        except ValueError:
            return None

    def clean(self):
        cleaned = super().clean()
        if "key" in cleaned and cleaned["key"] is None:
            self.add_error(None, "This page is out of date: reload it and choose the file again.")
        return cleaned


def _restore_page(request, form, status=200):
    recent = RestoreJob.objects.filter(user=request.user).order_by("-created_at", "-pk")
    response = render(
        request,
        "campaigns/backup_restore.html",
        {"form": form, "recent": list(recent[:RECENT_JOBS])},
        status=status,
    )
    # Not kept by the browser: going back to the form gives a fresh key (a new restore).
    add_never_cache_headers(response)
    return response


@login_required
def backup_restore(request):
    """Upload a backup to restore as a new campaign (the uploader becomes its game master):
    the file is stored and restored by a job, and the browser goes to the job's page. A
    refusal (a bad form, a restore of the user's under way, the job queue down) is the form
    with the reason; nothing is saved."""
    if request.method != "POST":
        return _restore_page(request, RestoreForm(initial={"key": uuid.uuid4()}))
    form = RestoreForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            job = start_restore(
                request.user,
                form.cleaned_data["file"],
                key=form.cleaned_data["key"],
                name=form.cleaned_data["name"],
            )
        except RestoreRefused as refused:
            form.add_error(None, str(refused))
        else:
            return redirect(job)
    return _restore_page(request, form, status=400)


@login_required
def restore_job(request, job_id):
    """The uploader's restore: its progress while it runs (the page polls it once a second
    with HTMX; ``seen`` unchanged is a 204), then the new campaign with its notes, or the
    problems that refused the file, each with its place. Anyone else: 404."""
    job = get_object_or_404(
        RestoreJob.objects.select_related("campaign"), pk=job_id, user=request.user
    )
    progress = progress_of(job)
    seen = f"{job.status}-{progress.percent}-{progress.words}"
    if request.htmx and request.GET.get("seen") == seen:
        response = HttpResponse(status=204)
        response["Cache-Control"] = "no-store, private"
        return response
    notes = job.notes if isinstance(job.notes, list) else []
    context = {
        "job": job,
        "progress": progress,
        "poll_url": f"{request.path}?{urlencode({'seen': seen})}",
        "notes": notes[:MAX_NOTES],
        "more_notes": max(0, len(notes) - MAX_NOTES),
        "counts": _counts(job.counts),
    }
    template = "campaigns/backup_restore_job.html"
    if request.htmx:
        template += "#restore-job"
    response = render(request, template, context)
    response["Cache-Control"] = "no-store, private"
    return response


def _counts(counts) -> str:
    """``5 characters, 1,250 dice rolls, …``: what was restored, in the order of the file's
    parts, each named as its model is."""
    if not isinstance(counts, dict):
        return ""
    said = []
    for part in registered():
        n = counts.get(part.name)
        if isinstance(n, int) and not isinstance(n, bool) and n > 0:
            meta = part.table.model._meta
            said.append(f"{n:,} {meta.verbose_name if n == 1 else meta.verbose_name_plural}")
    return ", ".join(said)
