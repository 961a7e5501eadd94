import os
import os.path
import numpy as np
import requests
from requests import Session
from collections import OrderedDict
from json import loads as parse_json


def run(url):
    os.path.join("a", "b")
    np.array([1, 2])
    requests.get(url)
    s = Session()
    s.get(url)
    Session().post(url)
    d = OrderedDict()
    d.move_to_end("k")
    return parse_json("{}")
