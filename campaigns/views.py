from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.http import HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from campaigns.forms import CampaignForm, InvitationForm, RoleForm, RuleOptionsForm, SignupForm
from campaigns.models import DiceRoll, Invitation, Membership
from characters.access import visible_characters


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
        "rule_differences": campaign.ruleset.differences(),
        "characters": visible_characters(membership).select_related("owner"),
    }
    if membership.is_gm:
        context["invitations"] = campaign.invitations.all()[:20]
        context["invitation_form"] = InvitationForm()
    return render(request, "campaigns/campaign_detail.html", context)


@login_required
def campaign_edit(request, campaign_id):
    membership = membership_or_404(request.user, campaign_id, role="gm")
    campaign = membership.campaign
    form = CampaignForm(request.POST or None, instance=campaign)
    if request.method == "POST" and form.is_valid():
        form.save()
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
    return render(request, "campaigns/campaign_rules.html", {"form": form, "campaign": campaign})


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
        member.delete()
        messages.success(request, f"{member.user.username} was removed from the campaign.")
    return redirect(membership.campaign)


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


@login_required
def join(request, token):
    invitation = (
        Invitation.objects.select_related("campaign", "created_by").filter(token=token).first()
    )
    if invitation is None:
        return render(request, "campaigns/join_invalid.html", {"reason": "unknown"}, status=404)
    if not invitation.is_usable:
        return render(
            request,
            "campaigns/join_invalid.html",
            {"reason": invitation.status, "invitation": invitation},
            status=410,
        )
    campaign = invitation.campaign
    existing = Membership.objects.filter(campaign=campaign, user=request.user).first()
    if existing is not None:
        messages.info(request, f"You are already in “{campaign.name}”.")
        return redirect(campaign)
    if request.method == "POST":
        try:
            with transaction.atomic():
                Membership.objects.create(
                    campaign=campaign, user=request.user, role=Membership.Role.PLAYER
                )
                Invitation.objects.filter(pk=invitation.pk).update(uses=invitation.uses + 1)
        except IntegrityError:  # a double click: the first request already joined
            messages.info(request, f"You are already in “{campaign.name}”.")
            return redirect(campaign)
        messages.success(request, f"You joined “{campaign.name}” as a player.")
        return redirect(campaign)
    return render(request, "campaigns/join.html", {"invitation": invitation, "campaign": campaign})


ROLLS_PER_PAGE = 50


def _visible_rolls(membership):
    rolls = DiceRoll.objects.filter(campaign=membership.campaign)
    if not membership.is_gm:
        rolls = rolls.filter(hidden=False)
    return rolls


@login_required
def dice_log(request, campaign_id):
    """Every roll of the campaign, newest first. The list polls itself every 2 s with an ETag
    (the newest visible roll's id), so an unchanged log costs a 304 and two small queries."""
    membership = membership_or_404(request.user, campaign_id)
    rolls = _visible_rolls(membership)
    newest = rolls.order_by("-pk").values_list("pk", flat=True).first() or 0
    partial = bool(request.htmx) and not request.htmx.history_restore_request
    # The page and its polled fragment share a URL: their ETags must differ, and caches
    # must key on HX-Request, or a browser revalidating the fragment gets the whole page.
    etag = f'W/"rolls-{campaign_id}-{newest}-{int(membership.is_gm)}-{int(partial)}"'
    if partial and request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        patch_vary_headers(response, ["HX-Request"])
        return response
    try:
        before = int(request.GET.get("before", "0"))
    except ValueError:
        before = 0
    page = rolls.select_related("character", "actor")
    if before > 0:
        page = page.filter(pk__lt=before)
    page = list(page.order_by("-pk")[: ROLLS_PER_PAGE + 1])
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "rolls": page[:ROLLS_PER_PAGE],
        "older": page[ROLLS_PER_PAGE - 1].pk if len(page) > ROLLS_PER_PAGE else None,
        "paged": before > 0,
    }
    template = "campaigns/dice_log.html#roll-list" if partial else "campaigns/dice_log.html"
    response = render(request, template, context)
    if not before:
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache, private"
    patch_vary_headers(response, ["HX-Request"])
    return response
