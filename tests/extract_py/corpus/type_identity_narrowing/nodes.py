"""``type(x) is C`` and ``type(x) == C`` narrow x to a C where they hold, as ``isinstance(x, C)``
does: the node's ``render`` of that class alone, in the ``if`` body, after ``and``, in a
conditional expression."""


class Text:
    def render(self):
        return "text"


class Image:
    def render(self):
        return "img"

    def size(self):
        return 0


def parse(raw):
    return Text() if raw else Image()


def show_text(raw):
    node = parse(raw)
    if type(node) is Text:
        return node.render()
    return None


def show_image(raw):
    node = parse(raw)
    if type(node) == Image and node.size():
        return node.render()
    return None


def show_either(raw):
    node = parse(raw)
    return node.render() if type(node) is Image else None
