from ...util import helper
from ... import util
from .. import sibling
from .sibling2 import thing


def run():
    helper()
    util.helper()
    sibling.near()
    thing()
