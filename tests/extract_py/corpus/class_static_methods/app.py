class Config:
    defaults = {"debug": False}

    def __init__(self, data):
        self.data = data

    @classmethod
    def load(cls, path):
        return cls(cls.parse(path))

    @staticmethod
    def parse(path):
        return {"path": path}

    def get(self, key):
        return self.data.get(key)


def main():
    cfg = Config.load("x.toml")
    cfg.get("debug")
    Config.parse("y")
