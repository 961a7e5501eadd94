"""An inherited method returning self (fluent) or self.attr, called through a subclass instance."""


class Builder:
    def step(self):
        return self

    def handler(self):
        return self.on_done

    def render(self):
        return "base"


class HtmlBuilder(Builder):
    def render(self):
        return "<p>"

    def on_done(self):
        return 1


def fluent():
    return HtmlBuilder().step().render()  # the HtmlBuilder instance, not a Builder


def callback():
    return HtmlBuilder().handler()()  # on_done exists in the subclass only


def base():
    return Builder().step().render()
