from django.contrib import admin

from apps.blocks.models import RecordFile


@admin.register(RecordFile)
class RecordFileAdmin(admin.ModelAdmin):
    list_display = ("index", "consensus_end", "hash", "count", "gas_used")
    search_fields = ("=index", "hash")
    ordering = ("-consensus_end",)
    show_full_result_count = False

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
