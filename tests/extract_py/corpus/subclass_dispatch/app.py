class Job:
    def run(self):
        self.prepare()
        return self.step()

    def prepare(self):
        return None

    def step(self):
        raise NotImplementedError

    @classmethod
    def build(cls):
        return cls.default_name()

    @classmethod
    def default_name(cls):
        return "job"


class Export(Job):
    def step(self):
        return "exported"


class LoggingMixin:
    def log(self, msg):
        return self.write(msg)


class FileLog(LoggingMixin):
    def write(self, msg):
        return msg


class Other:
    def step(self):
        return "unrelated: same method name, not a subclass"


def main():
    Export().run()
    FileLog().log("x")
    Job().step()


def typed(job: Job):
    return job.step()  # Job.step only raises NotImplementedError: the overrides run


def typed_prepare(job: Job):
    return job.prepare()  # a concrete method through a typed receiver: Job.prepare only


class Handler:
    def handle(self):
        return self.callback()


class Printer(Handler):
    def __init__(self):
        self.callback = self.emit

    def emit(self):
        return "printed"
