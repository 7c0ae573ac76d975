import re
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db import IntegrityError, transaction
from django.db.models import Count, F
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from campaigns.forms import CampaignForm, InvitationForm, RoleForm, RuleOptionsForm, SignupForm
from campaigns.models import Invitation, Membership, Removal
from rules import RuleSet
from rules.ruleset import PRESET_LABELS


def home(request):
    if not request.user.is_authenticated:
        return render(request, "campaigns/landing.html")
    memberships = (
        Membership.objects.filter(user=request.user)
        .select_related("campaign")
        .annotate(members=Count("campaign__memberships"))
        .order_by("campaign__name")
    )
    return render(request, "campaigns/home.html", {"memberships": memberships})


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}):
        next_url = ""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Datapad, {user.username}.")
        return redirect(next_url or "home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@login_required
def campaign_create(request):
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            campaign = form.save(commit=False)
            campaign.created_by = request.user
            campaign.save()
            Membership.objects.create(campaign=campaign, user=request.user, role=Membership.Role.GM)
        messages.success(request, f"Campaign “{campaign.name}” created. Invite your players.")
        return redirect(campaign)
    return render(request, "campaigns/campaign_form.html", {"form": form})


@login_required
def campaign_detail(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    members = campaign.memberships.select_related("user")
    context = {
        "campaign": campaign,
        "membership": membership,
        "members": members,
        **_rules_in_words(campaign.ruleset),
    }
    if membership.is_gm:
        context["invitations"] = campaign.invitations.all()[:20]
        context["invitation_form"] = InvitationForm()
    if membership.role == Membership.Role.GM:
        context["removals"] = campaign.removals.select_related("user")
    return render(request, "campaigns/campaign_detail.html", context)


@login_required
def campaign_edit(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    campaign = membership.campaign
    form = CampaignForm(request.POST or None, instance=campaign)
    if request.method == "POST" and form.is_valid():
        # Only the form's fields: a whole-row save would write back a game date that an
        # advance of time moved meanwhile.
        form.save(commit=False).save(update_fields=list(CampaignForm.Meta.fields))
        messages.success(request, "Campaign saved.")
        return redirect(campaign)
    return render(request, "campaigns/campaign_form.html", {"form": form, "campaign": campaign})


@login_required
def campaign_rules(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    campaign = membership.campaign
    form = RuleOptionsForm(request.POST or None, ruleset=campaign.ruleset)
    if request.method == "POST" and form.is_valid():
        campaign.set_ruleset(form.ruleset)
        campaign.save(update_fields=["rule_options"])
        messages.success(request, "Rule options saved.")
        return redirect(campaign)
    context = {"form": form, "campaign": campaign, **_rules_in_words(campaign.ruleset)}
    return render(
        request, "campaigns/campaign_rules.html", context, status=400 if form.errors else 200
    )


def _rules_in_words(ruleset) -> dict:
    """The active preset's name (or None: custom) and each option that differs from the
    defaults, in words with its source, for the campaign page and the rule options page."""
    preset = ruleset.matching_preset()
    differences = []
    for name, (_, ours) in ruleset.differences().items():
        option = RuleSet.option(name)
        differences.append(
            {"label": option.label, "words": option.words(ours), "source": option.source_of(ours)}
        )
    return {
        "active_preset": PRESET_LABELS[preset] if preset else None,
        "rule_differences": differences,
    }


@login_required
@require_POST
def invitation_create(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    form = InvitationForm(request.POST)
    if not form.is_valid():
        messages.error(request, "An invitation is valid for 1 to 30 days.")
        return redirect(membership.campaign)
    invitation = Invitation.objects.create(
        campaign=membership.campaign,
        created_by=request.user,
        expires_at=timezone.now() + timedelta(days=form.cleaned_data["days"]),
    )
    link = request.build_absolute_uri(invitation.get_absolute_url())
    messages.success(request, f"Invitation link created: {link}")
    return redirect(reverse("campaigns:detail", args=[campaign_id]) + "#invitations")


@login_required
@require_POST
def invitation_revoke(request, campaign_id, invitation_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    invitation = get_object_or_404(Invitation, pk=invitation_id, campaign=membership.campaign)
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        messages.success(request, "Invitation revoked: the link no longer works.")
    return redirect(reverse("campaigns:detail", args=[campaign_id]) + "#invitations")


@login_required
@require_POST
def member_role(request, campaign_id, member_id):
    membership = membership_or_404(request.user, campaign_id, role="owner")
    member = get_object_or_404(Membership, pk=member_id, campaign=membership.campaign)
    form = RoleForm(request.POST)
    if member.role == Membership.Role.GM:
        messages.error(request, "The game master's own role cannot be changed.")
    elif not form.is_valid():
        messages.error(request, "Choose co-GM or player.")
    else:
        member.role = form.cleaned_data["role"]
        member.save(update_fields=["role"])
        messages.success(request, f"{member.user.username} is now {member.get_role_display()}.")
    return redirect(membership.campaign)


@login_required
@require_POST
def member_remove(request, campaign_id, member_id):
    membership = membership_or_404(request.user, campaign_id, role="owner")
    member = get_object_or_404(Membership, pk=member_id, campaign=membership.campaign)
    if member.role == Membership.Role.GM:
        messages.error(request, "The game master cannot be removed from their own campaign.")
    else:
        with transaction.atomic():
            # Recorded, so an invitation link they still hold does not let them back in.
            Removal.objects.get_or_create(
                campaign=membership.campaign,
                user=member.user,
                defaults={"removed_by": request.user},
            )
            member.delete()
        messages.success(
            request,
            f"{member.user.username} was removed from the campaign. Invitation links no longer "
            "let them in unless you allow them back.",
        )
    return redirect(membership.campaign)


@login_required
@require_POST
def removal_allow(request, campaign_id, removal_id):
    """The game master lets a removed person back: their next invitation link works again."""
    membership = membership_or_404(request.user, campaign_id, role="owner")
    removal = get_object_or_404(
        Removal.objects.select_related("user"), pk=removal_id, campaign=membership.campaign
    )
    removal.delete()
    messages.success(
        request,
        f"{removal.user.username} may join again: send them an invitation link.",
    )
    return redirect(reverse("campaigns:detail", args=[campaign_id]) + "#members")


@login_required
@require_POST
def campaign_leave(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id)
    if membership.role == Membership.Role.GM:
        messages.error(request, "The game master cannot leave their own campaign.")
        return redirect(membership.campaign)
    membership.delete()
    messages.success(request, f"You left “{membership.campaign.name}”.")
    return redirect("home")


INVITATION_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What an invitation token can look like (``secrets.token_urlsafe``): anything else is an
unknown link without asking the database, which refuses some characters (NUL) outright."""


def join(request, token):
    """An invitation link. A logged-out visitor with a valid link sees which campaign invites
    them and who, with log-in and sign-up links that come back here; an invalid link tells
    them nothing about any campaign. A person the GM removed is refused until allowed back."""
    if not INVITATION_TOKEN.fullmatch(token):
        return render(request, "campaigns/join_invalid.html", {"reason": "unknown"}, status=404)
    invitation = (
        Invitation.objects.select_related("campaign", "created_by").filter(token=token).first()
    )
    if invitation is None:
        return render(request, "campaigns/join_invalid.html", {"reason": "unknown"}, status=404)
    anonymous = not request.user.is_authenticated
    if not invitation.is_usable:
        return render(
            request,
            "campaigns/join_invalid.html",
            # A logged-out visitor learns nothing about the campaign from a dead link.
            {"reason": invitation.status, "invitation": None if anonymous else invitation},
            status=410,
        )
    campaign = invitation.campaign
    context = {"invitation": invitation, "campaign": campaign}
    if anonymous:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        return render(request, "campaigns/join.html", context)
    existing = Membership.objects.filter(campaign=campaign, user=request.user).first()
    if existing is not None:
        messages.info(request, f"You are already in “{campaign.name}”.")
        return redirect(campaign)
    if Removal.objects.filter(campaign=campaign, user=request.user).exists():
        return _refuse_removed(request, campaign)
    if request.method == "POST":
        try:
            with transaction.atomic():
                Membership.objects.create(
                    campaign=campaign, user=request.user, role=Membership.Role.PLAYER
                )
                # F(): simultaneous joins each add one (a value read earlier would lose some).
                Invitation.objects.filter(pk=invitation.pk).update(uses=F("uses") + 1)
        except IntegrityError:  # a double click: the first request already joined
            messages.info(request, f"You are already in “{campaign.name}”.")
            return redirect(campaign)
        messages.success(request, f"You joined “{campaign.name}” as a player.")
        return redirect(campaign)
    return render(request, "campaigns/join.html", context)


def _refuse_removed(request, campaign):
    return render(
        request,
        "campaigns/join_invalid.html",
        {"reason": "removed", "campaign": campaign},
        status=403,
    )
