class Query:
    def filter(self, x) -> "Query":
        return self

    def order(self) -> "Query":
        return Query()

    def all(self):
        return []


class DB:
    def query(self):
        return Query()


def run(db: DB):
    return db.query().filter(1).order().all()
