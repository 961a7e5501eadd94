class A:
    def save(self):
        return "a"


class B(A):
    def save(self):
        return super().save()


class C(A):
    def save(self):
        return "c"


class D(B, C):
    def save(self):
        super(D, self).save()
        return super().save()
