class Button:
    def __init__(self):
        self.listeners = []

    def on_click(self, cb):
        self.listeners.append(cb)

    def click(self):
        for cb in self.listeners:
            cb()


class Window:
    def __init__(self):
        self.button = Button()
        self.button.on_click(self.handle)
        self.action = self.handle

    def handle(self):
        return "handled"

    def trigger(self):
        self.action()
