from django.contrib import admin

from characters.models import Character, ForcePower, Item, LedgerEntry, Skill


class SkillInline(admin.TabularInline):
    model = Skill
    extra = 0


class ItemInline(admin.TabularInline):
    model = Item
    extra = 0


class PowerInline(admin.TabularInline):
    model = ForcePower
    extra = 0


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "kind", "owner", "character_points", "force_points")
    list_filter = ("kind", "campaign")
    inlines = [SkillInline, ItemInline, PowerInline]
    readonly_fields = (
        "character_points",
        "force_points",
        "dark_side_points",
        "pending_cp",
        "credits",
    )


@admin.register(LedgerEntry)
class LedgerAdmin(admin.ModelAdmin):
    list_display = ("character", "currency", "delta", "balance_after", "reason", "created_at")
    list_filter = ("currency",)

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
