"""The page a locked-out admin login gets (django-axes' `AXES_LOCKOUT_CALLABLE`): how long the
lock lasts, read from the configured cool-off, and how an operator clears it sooner."""

from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from django.conf import settings
from django.contrib import admin
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.timesince import timeuntil

__all__ = ("lockout_response",)


def lockout_response(request, original_response=None, credentials=None) -> TemplateResponse:
    cool_off = get_cool_off(request)
    now = timezone.now()
    context = {
        **admin.site.each_context(request),
        "title": "Login locked",
        "failure_limit": get_failure_limit(request, credentials),
        "cool_off": None if cool_off is None else timeuntil(now + cool_off, now),
        "username": get_client_username(request, credentials) or "",
        "ip_address": getattr(request, "axes_ip_address", ""),
    }
    return TemplateResponse(
        request, "admin/login_locked.html", context, status=settings.AXES_HTTP_RESPONSE_CODE
    ).render()
