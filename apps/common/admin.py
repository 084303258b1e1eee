"""Admin plumbing shared by the domain apps."""

from django.contrib import admin


class ReadOnlyModelAdmin(admin.ModelAdmin):
    """The mirror tables belong to the importer: the admin only looks."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
