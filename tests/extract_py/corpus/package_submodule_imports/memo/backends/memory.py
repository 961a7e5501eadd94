class MemoryStore:
    def __init__(self):
        self.data = {}

    def has(self, k):
        return k in self.data

    def get(self, k):
        return self.data[k]

    def put(self, k, v):
        self.data[k] = v
