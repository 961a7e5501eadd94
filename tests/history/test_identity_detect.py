"""The pure parts of identity across time: normalized tokens and rename/move detection."""

from __future__ import annotations

from mnemosyne.timeline.identity import Side, detect, formatting_only
from mnemosyne.timeline.tokens import code_tokens, skeleton


def _side(fqn: str, text: str, kind: str = "function", parent: str | None = None, file: str = "m.py") -> Side:
    name = fqn.rsplit(".", 1)[-1]
    return Side(fqn, name, kind, file, parent or file, "", str(hash(text)), text)


def test_python_tokens_drop_layout_but_keep_blocks():
    a = "def f(x):\n    '''Doc.'''\n    y = g(x, 1)  # note\n    return y\n"
    b = 'def f(x):\n    """Other doc."""\n    y = g(\n        x,\n        1,\n    )\n    return y\n'
    assert code_tokens("m.py", a) == code_tokens("m.py", b)
    moved_out = "def f(x):\n    if x:\n        a()\n    b()\n"
    moved_in = "def f(x):\n    if x:\n        a()\n        b()\n"
    assert code_tokens("m.py", moved_out) != code_tokens("m.py", moved_in)
    assert code_tokens("m.py", "def f():\n    return 'a b'\n") != code_tokens("m.py", "def f():\n    return 'ab'\n")


def test_script_tokens_drop_comments_semicolons_and_trailing_commas():
    a = "function f(a, b) {\n  // sum\n  const s = [a, b,];\n  return s;\n}\n"
    b = "function f(a, b) {\n  const s = [\n    a,\n    b\n  ]\n  /* done */ return s\n}\n"
    assert code_tokens("m.ts", a) == code_tokens("m.ts", b)
    assert code_tokens("m.ts", "const x = 'a';") == code_tokens("m.ts", 'const x = "a"')
    assert code_tokens("m.ts", "f(a);\ng(b);\n") == code_tokens("m.ts", "f(a)\ng(b)\n")  # line-ending ';'
    assert code_tokens("m.ts", "f(a); g(b)") != code_tokens("m.ts", "f(a)\ng(b) + 1")


def test_skeleton_is_necessary_for_formatting_only():
    pairs = [("def f():\n    return [1, 2,]  # x\n", "def f():\n    return [\n        1,\n        2,\n    ]\n"),
             ("def f():\n    return 'a'\n", 'def f():\n    return "a"\n')]
    for a, b in pairs:
        assert code_tokens("m.py", a) == code_tokens("m.py", b)
        assert skeleton("m.py", a) == skeleton("m.py", b)
        assert formatting_only(_side("m.f", a), _side("m.f", b), same_docstring=True)


def test_a_getter_turned_into_a_property_of_another_name():
    old = _side("m.Box.get_size", "    def get_size(self):\n        return self._size * self.scale\n", "method", "m.Box")
    new = _side("m.Box.size", "    @property\n    def size(self):\n        return self._size * self.scale\n",
                "method", "m.Box")
    (link,) = detect([old], [new])
    assert (link.old, link.new, link.kind) == ("m.Box.get_size", "m.Box.size", "rename")


def test_tiny_bodies_are_no_evidence_alone():
    old = _side("m.a", "def a():\n    return 1\n")
    new = _side("m.b", "def b():\n    return 1\n")
    assert detect([old], [new]) == []
    # the same tiny body under the same name in another file is a move
    moved = _side("n.a", "def a():\n    return 1\n", file="n.py")
    assert [(x.old, x.new, x.kind) for x in detect([old], [moved])] == [("m.a", "n.a", "move")]


def test_detection_is_bounded():
    body = "".join(f"    v{i} = compute(v{i - 1}, {i})\n" for i in range(1, 30))
    olds = [_side(f"m.f{i}", f"def f{i}(v0):\n{body}    return {i}\n") for i in range(300)]
    news = [_side(f"m.g{i}", f"def g{i}(v0):\n{body}    return {i}\n") for i in range(300)]
    # 90,000 candidate pairs; at most max_pairs are compared, and what is matched is matched once
    links = detect(olds, news, max_pairs=500)
    assert len({x.old for x in links}) == len(links) == len({x.new for x in links})
    assert 0 < len(links) <= 300
