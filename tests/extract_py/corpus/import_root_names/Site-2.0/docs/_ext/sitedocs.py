# a Sphinx extension of the project's docs: sphinx is the installed library, not tests/sphinx,
# which defines no addnodes (nor a util); a name tests/sphinx does have keeps the import root
from sphinx import addnodes, test_roles
from sphinx.util import logging

from portal import pages


def setup(app):
    addnodes.desc_name("x")
    logging.getLogger(__name__)
    test_roles.test_role()
    pages.publish()
