class Foo:
    def go(self):
        return 1

    def run(self):
        return 0


class Bar:
    def run(self):
        return 2
