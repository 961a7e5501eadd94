from app import Export, Job


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
