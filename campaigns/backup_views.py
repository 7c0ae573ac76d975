"""A campaign's backup on the site: the GM downloads it (streamed as it is written), and any
user restores one as a new campaign of theirs (the file is checked whole first; on any problem
nothing is created and every problem is listed with its place)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from campaigns.access import membership_or_404
from campaigns.backup import (
    MAX_FILE_BYTES,
    BackupRefused,
    export_campaign,
    read_backup,
    restore_campaign,
)
from campaigns.models import Campaign

MAX_NOTES = 20
"""Notes shown after a restore (users with no account here...); the rest are counted."""


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


@login_required
def backup_restore(request):
    """Restore a backup as a new campaign: the uploader becomes its game master."""
    form = RestoreForm(request.POST, request.FILES) if request.method == "POST" else RestoreForm()
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            document = read_backup(form.cleaned_data["file"].read())
            restored = restore_campaign(
                document, importer=request.user, name=form.cleaned_data["name"]
            )
        except BackupRefused as refused:
            problems = refused.lines()
        else:
            campaign = restored.campaign
            messages.success(
                request, f"“{campaign.name}” was restored from the backup. You are its game master."
            )
            for note in restored.notes[:MAX_NOTES]:
                messages.warning(request, note)
            if len(restored.notes) > MAX_NOTES:
                messages.warning(request, f"… and {len(restored.notes) - MAX_NOTES} more notes.")
            return redirect(campaign)
    return render(
        request,
        "campaigns/backup_restore.html",
        {"form": form, "problems": problems},
        status=400 if request.method == "POST" else 200,
    )
