class A:
    def hello(self):
        return "A"

    def who(self):
        return "A"


class B(A):
    def who(self):
        return "B"


class C(A):
    def who(self):
        return "C"

    def only_c(self):
        return "c"


class D(B, C):
    def run(self):
        self.who()
        self.hello()
        self.only_c()


class E(D):
    def go(self):
        self.who()
        self.run()
