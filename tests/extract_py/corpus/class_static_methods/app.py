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


class EnvConfig(Config):
    def get(self, key):
        return key.upper()

    @classmethod
    def empty(cls):
        made = cls({})
        return made


def env():
    cfg = EnvConfig.load("env")  # the inherited factory makes an EnvConfig
    return cfg.get("home")


def env_empty():
    return EnvConfig.empty().get("x")


def base():
    return Config.load("base").get("y")
