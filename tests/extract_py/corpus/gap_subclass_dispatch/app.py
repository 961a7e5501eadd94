class Job:
    def run(self):
        self.prepare()
        return self.step()

    def prepare(self):
        return None

    def step(self):
        raise NotImplementedError


class Export(Job):
    def step(self):
        return "exported"


class LoggingMixin:
    def log(self, msg):
        return self.write(msg)


class FileLog(LoggingMixin):
    def write(self, msg):
        return msg


def main():
    Export().run()
    FileLog().log("x")
