"""getattr with a literal name is an attribute access; a computed name is unknown."""


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
        return getattr(self, "on_" + verb)()  # computed: no edge
