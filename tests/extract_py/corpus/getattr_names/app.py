"""getattr with a literal name is an attribute access; a name built from a literal prefix is any
attribute starting with it (getattr_prefix)."""


class Handler:
    def on_get(self):
        return 1

    def on_post(self):
        return 2

    def fallback(self):
        return 0

    def dispatch(self, verb):
        getattr(self, "on_get")()
        getattr(self, "missing", self.fallback)()  # the default when there is no such attribute
        return getattr(self, "on_" + verb)()  # on_get or on_post
