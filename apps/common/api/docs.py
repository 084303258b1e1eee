"""Our OpenAPI document (`apps.common.openapi`) and Swagger UI over it, as `/api/v1/docs` serves them.

Swagger UI's start-up script is served apart (`?script`), so the page runs no inline script
and lives under the pages' Content-Security-Policy, framed by no page. A method either view
does not answer gets the error envelope, as everywhere under `/api/`, not an HTML page or YAML.
"""

from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from apps.common.api.exceptions import error_response
from apps.common.middleware import PAGE_CONTENT_SECURITY_POLICY

__all__ = ("OpenApiDocumentView", "SwaggerUIView")


class OpenApiDocumentView(SpectacularAPIView):
    def handle_exception(self, exc):
        return error_response(exc)


class SwaggerUIView(SpectacularSwaggerSplitView):
    def handle_exception(self, exc):
        return error_response(exc)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["X-Frame-Options"] = "DENY"
        response["Content-Security-Policy"] = PAGE_CONTENT_SECURITY_POLICY
        return response
