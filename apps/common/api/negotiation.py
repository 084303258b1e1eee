from rest_framework.negotiation import BaseContentNegotiation


class JSONWhateverTheAcceptHeader(BaseContentNegotiation):
    """Answers with the first renderer (our JSON) whatever `Accept` or `?format=`
    asks for, as the upstream does: browsers send `Accept: text/html`, and DRF's
    own negotiation would refuse them with 406."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type
