"""Our OpenAPI document (`apps.common.api.openapi`) and Swagger UI over it, as `/api/v1/docs` serves them.

Swagger UI's start-up script is served apart (`?script`), so the page runs no inline script
and lives under the pages' Content-Security-Policy, framed by no page. A method either view
does not answer gets the error envelope, as everywhere under `/api/`, not an HTML page or YAML.
"""

from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from apps.common.api.exceptions import error_response

__all__ = ("OpenApiDocumentView", "PAGE_CONTENT_SECURITY_POLICY", "SwaggerUIView")

# The Content-Security-Policy of the service's pages (landing, admin, Swagger UI, the outage
# page): their own scripts, styles, images and requests only, and never framed. Inline
# styles stay: the landing page has one, and Swagger UI sets styles as it renders.
PAGE_CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


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
