"""The campaign page's Characters section, supplied by this app.

The campaign page belongs to ``campaigns``, which imports no other app; its template loads this
library and calls ``{% campaign_characters membership %}``, so the characters a member may see
(and the links to the dice log and the creation wizard) come from here."""

from django import template

from characters.access import visible_characters

register = template.Library()


@register.inclusion_tag("characters/_campaign_characters.html")
def campaign_characters(membership):
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "characters": visible_characters(membership).select_related("owner"),
    }
