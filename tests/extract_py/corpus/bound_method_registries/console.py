"""Bound methods held by an instance's containers (``{"load": self.on_load}``,
``[self.on_quit]``) and called through an item or a loop variable get that call's arguments
after their receiver: ``self.handlers[cmd](Request(arg))`` passes a Request to ``request``."""


class Request:
    def __init__(self, arg):
        self.arg = arg

    def process(self):
        return self.arg

    def close(self):
        return None


class Console:
    def __init__(self):
        self.handlers = {"load": self.on_load, "show": self.on_show}
        self.exit_hooks = [self.on_quit]

    def on_load(self, request):
        return request.process()

    def on_show(self, request):
        return request.arg

    def on_quit(self, request):
        request.close()

    def feed(self, cmd, arg):
        return self.handlers[cmd](Request(arg))

    def quit(self):
        for hook in self.exit_hooks:
            hook(Request(None))


console = Console()
console.feed("load", "x")
console.quit()
