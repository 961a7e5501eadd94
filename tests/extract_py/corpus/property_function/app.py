"""property() called with its accessors (the style before decorators, still in Django's Model.pk):
reading the attribute calls fget, assigning it fset, deleting it fdel, given by position or keyword."""


class Model:
    def __init__(self):
        self._pk = None

    def _get_pk(self):
        return self._pk

    def _set_pk(self, value):
        self._pk = value

    def _forget(self):
        self._pk = None

    pk = property(_get_pk, _set_pk)
    ident = property(fget=_get_pk, fdel=_forget)


class Post(Model):
    def describe(self):
        return self.pk


def save(post: Post):
    post.pk = 3
    del post.ident
    return post.describe()
