"""Calling a class of an external package calls its __init__, named through the package
(`requests.Session()` -> `requests.Session.__init__`), as `C()` of a program class calls `C.__init__`.
An external name is taken for a class when its last part is capitalised (a single capital too, not
an all-capitals constant or function); a lower-case one is an ordinary call, and typing's
declarations (`TypeVar`) are not instantiations of the program's concern."""

import argparse
import collections
from decimal import Decimal
from typing import NamedTuple, TypeVar

import click
import requests
from django.db import models
from requests import Session

T = TypeVar("T")
Point = collections.namedtuple("Point", "x y")


class Pair(NamedTuple):
    a: int
    b: int


def fetch(url):
    s = Session()
    try:
        return s.get(url)
    except requests.ConnectionError:
        raise requests.HTTPError("failed")


def parse(argv):
    parser = argparse.ArgumentParser(prog="app")
    parser.add_argument("--n")
    return Decimal(parser.parse_args(argv).n)


def query(value):
    return models.Q(pk=value), click.STRING(value)  # Q: a class; STRING: a constant, called by name


def build():
    return Pair(1, 2), Point(1, 2), ValueError("x")
