"""Importing a character from another D6 tool (``characters.importers``): the player uploads
(or pastes) the file, and a wizard draft with what mapped opens on the wizard's review, where
he checks everything, and where what did not map is listed, before it becomes a character.

Any member of the campaign may import: a player's draft is his own player character; a game
master chooses whose it is, as on the wizard's first step. A refused file changes nothing and
says why (400).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse

from campaigns.access import membership_or_404
from characters import importers
from characters.importers.common import text
from characters.models import Character, CreationDraft

MAX_MB = importers.MAX_BYTES // 1_000_000


class ImportForm(forms.Form):
    file = forms.FileField(
        label="Character file",
        required=False,
        help_text=f"The .json file the other tool exported, at most {MAX_MB} MB.",
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
    )
    text = forms.CharField(
        label="Or paste the file's text",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text="Instead of a file: the JSON itself.",
    )
    owner = forms.TypedChoiceField(
        coerce=int, label="Player", required=False, help_text="Whose character this will be."
    )

    def __init__(self, *args, membership, **kwargs):
        super().__init__(*args, **kwargs)
        if membership.is_gm:
            members = membership.campaign.memberships.select_related("user")
            self.fields["owner"].choices = [(m.user_id, m.user.username) for m in members]
            self.fields["owner"].initial = membership.user_id
        else:
            del self.fields["owner"]

    def clean(self):
        data = super().clean()
        upload, pasted = data.get("file"), data.get("text") or ""
        if self.errors:
            return data
        if upload and pasted.strip():
            raise forms.ValidationError("Upload a file or paste its text, not both.")
        if upload:
            # The size is checked before a byte is read, let alone parsed.
            if upload.size > importers.MAX_BYTES:
                self.add_error(
                    "file",
                    f"The file is {upload.size / 1_000_000:.1f} MB; a character file is at most "
                    f"{MAX_MB} MB.",
                )
                return data
            data["raw"] = upload.read(importers.MAX_BYTES + 1)
            data["source"] = text(upload.name, 100) or "uploaded file"
        elif pasted.strip():
            data["raw"] = pasted
            data["source"] = "pasted text"
        else:
            raise forms.ValidationError("Choose the character's file, or paste its text.")
        return data


@login_required
def import_character(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    post = request.method == "POST"
    form = ImportForm(
        request.POST if post else None, request.FILES if post else None, membership=membership
    )
    if post:
        if form.is_valid():
            try:
                document = importers.read_document(form.cleaned_data["raw"])
                result = importers.import_character(document, campaign=campaign)
            except importers.ImportRefused as refusal:
                form.add_error(None, refusal.message)
            else:
                draft = _create_draft(request, membership, form, result)
                messages.info(
                    request,
                    "The character was imported as a draft: check each step, and what the file "
                    "held that could not be imported, before creating it.",
                )
                return redirect(
                    reverse("characters:wizard_step", args=[campaign.pk, draft.pk, "review"])
                )
        return _page(request, membership, form, status=400)
    return _page(request, membership, form)


def _create_draft(request, membership, form, result) -> CreationDraft:
    owner = request.user.pk
    if membership.is_gm and form.cleaned_data.get("owner"):
        owner = form.cleaned_data["owner"]
    data = dict(result.data)
    data["start"] = {"owner": owner, "free_form": False}
    data["import"] = {
        "format": result.format,
        "file": form.cleaned_data["source"],
        "unmapped": result.unmapped,
    }
    return CreationDraft.objects.create(
        campaign=membership.campaign,
        user=request.user,
        kind=Character.Kind.PC,
        step="review",
        status=CreationDraft.Status.EDITING,
        data=data,
    )


def _page(request, membership, form, status=200):
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "form": form,
        "max_mb": MAX_MB,
    }
    return render(request, "characters/import.html", context, status=status)
