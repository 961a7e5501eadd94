from io import StringIO

from cli.output import Console


def test_empty():
    out = Console(StringIO())
    assert out.getvalue() == ""
