from rest_framework.routers import SimpleRouter


class MirrorRouter(SimpleRouter):
    """Routes with or without a trailing slash, as Express matches them."""

    def __init__(self):
        super().__init__()
        self.trailing_slash = "/?"
