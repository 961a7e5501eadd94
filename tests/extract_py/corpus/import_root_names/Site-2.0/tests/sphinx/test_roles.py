# the project's own tests of its Sphinx extension: a package that happens to be called sphinx
def test_role():
    pass
