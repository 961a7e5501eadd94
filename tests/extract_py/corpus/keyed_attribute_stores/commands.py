"""A command table kept on the instance: items stored under literal keys are read back by their key."""


def open_file():
    return "open"


def save_file():
    return "save"


def quit_app():
    return "quit"


def show_help():
    return "help"


class Shell:
    def __init__(self):
        self.commands = {"open": open_file}
        self.commands["save"] = save_file
        self.commands.update({"quit": quit_app})

    def open(self):
        return self.commands["open"]()

    def save(self):
        return self.commands.get("save")()

    def dispatch(self, name):
        return self.commands[name]()


class HelpShell(Shell):
    def __init__(self):
        super().__init__()
        self.commands["help"] = show_help

    def help(self):
        handler = self.commands["help"]
        return handler()


def main():
    shell = Shell()
    shell.commands["quit"]()
    HelpShell().help()
    return shell.dispatch(input("> "))
