from io import StringIO

from cli.output import Console
from cli.prompt import Prompt


def test_empty():
    out = Console(StringIO())
    Prompt(out)
    assert out.getvalue() == ""
