from app import Export, Job
from app import Job as BaseJob


class CsvExport(Export):
    def step(self):
        return "csv"

    @classmethod
    def default_name(cls):
        return "csv"


class Staged(Job):
    def prepare(self):
        return self.helper()

    def helper(self):
        return None


class Aliased(BaseJob):
    def step(self):
        return "imported under another name"


AssignedJob = BaseJob


class Reassigned(AssignedJob):
    def step(self):
        return "base named through an assignment"
