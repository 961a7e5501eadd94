"""What a function body or a try block throws, read from the syntax tree alone (no scopes): the
``throw new E()`` statements that leave it, and the calls a try block makes (their callees
throw too). The visit converts the nodes found into expressions (``Defs.on_fn``,
``Statements.on_catch``)."""

from __future__ import annotations

from mnemosyne.parse.typescript.grammar import nth

MAX_THROWN = 16  # `new E()` expressions (and callees) kept per function or try block

# nodes whose own body runs when they are called, not where they are written
_FUNCTION_TYPES = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "method_definition",
        "class_declaration",
        "class",
    }
)


def _thrown(stmt):
    """The expression a ``throw`` statement throws, through parentheses."""
    x = nth(stmt, 0)
    while x is not None and x.type == "parenthesized_expression":
        x = nth(x, 0)
    return x


def thrown_new(stmt):
    """The node a ``throw`` statement throws (through parentheses) when it says what: ``new
    E(...)`` or a call (``throw makeError(404)``: what it returns); None for anything else."""
    x = _thrown(stmt)
    return x if x is not None and (x.type == "new_expression" or x.type == "call_expression") else None


def _declared_in(body, name: bytes, data: bytes) -> bool:
    """Whether a ``const`` / ``let`` / ``var`` statement directly in block ``body`` declares ``name``."""
    for st in body.named_children:
        if st.type == "lexical_declaration" or st.type == "variable_declaration":
            for d in st.named_children:
                n = d.child_by_field_name("name") if d.type == "variable_declarator" else None
                if n is not None and data[n.start_byte : n.end_byte] == name:
                    return True
    return False


def thrown_local(stmt, fn, data: bytes):
    """``throw err`` with ``err`` declared directly in the body of the function ``fn`` (or the
    program) it is written in (``const err = new HttpError(404); ... throw err``): the
    identifier; None otherwise (a catch parameter rethrown, a name of an enclosing scope)."""
    x = _thrown(stmt)
    body = fn if fn.type == "program" else fn.child_by_field_name("body")
    if x is None or x.type != "identifier" or body is None or body.type not in ("statement_block", "program"):
        return None
    return x if _declared_in(body, data[x.start_byte : x.end_byte], data) else None


def enclosing_function(n):
    """The nearest function (or class) node enclosing node ``n``, else the program."""
    p = n.parent
    while p is not None and p.type not in _FUNCTION_TYPES and p.parent is not None:
        p = p.parent
    return p


def _thrower(stmt):
    """The function (or class) a ``throw`` statement throws out of: the nearest one enclosing it;
    None when a try statement with a catch clause catches it on the way (a throw in a catch
    clause or a ``finally`` block goes on) or when it is at module level."""
    child = stmt
    p = stmt.parent
    while p is not None:
        t = p.type
        if t in _FUNCTION_TYPES:
            return p
        if t == "try_statement" and child.type == "statement_block" and p.child_by_field_name("handler") is not None:
            b = p.child_by_field_name("body")
            if b is not None and b.start_byte == child.start_byte:
                return None
        child = p
        p = p.parent
    return None


def escaping_throws(root, data: bytes) -> dict[tuple[int, int], list]:
    """(start, end) of a function's node -> what the ``throw`` statements of its body throw out
    of it (``new E(...)`` and call nodes, and names declared in its body: ``thrown_new``,
    ``thrown_local``), for the whole file at once (``root``: the tree's root): not those of a
    function written in it nor those a try statement in it catches; at most ``MAX_THROWN`` per
    function. Found by the keyword's text: one search of a file without one."""
    out: dict[tuple[int, int], list] = {}
    at = data.find(b"throw")
    while at >= 0:
        tok = root.descendant_for_byte_range(at, at + 5)
        stmt = tok.parent if tok is not None and tok.type == "throw" else None
        if stmt is not None and stmt.type == "throw_statement":
            fn = _thrower(stmt)
            x = (thrown_new(stmt) or thrown_local(stmt, fn, data)) if fn is not None else None
            if fn is not None and x is not None:
                got = out.setdefault((fn.start_byte, fn.end_byte), [])
                if len(got) < MAX_THROWN:
                    got.append(x)
        at = data.find(b"throw", at + 5)
    return out


def is_function_node(n) -> bool:
    """A function, method or class: what it throws is thrown when it is called."""
    return n.type in _FUNCTION_TYPES


_CHAIN = frozenset({b"then", b"catch", b"finally"})


def rejecting_callee(promise, data: bytes):
    """The callee (a name or a member) of the call a promise chain starts with: ``load`` for
    ``load()``, ``load().then(f)``, ``api.get(u).finally(g)`` (the receiver of a ``catch``, whose
    callback gets what that function throws); None for anything else."""
    while promise is not None and promise.type in ("await_expression", "parenthesized_expression"):
        promise = nth(promise, 0)
    while promise is not None and promise.type == "call_expression":
        fn = promise.child_by_field_name("function")
        if fn is None:
            return None
        prop = fn.child_by_field_name("property") if fn.type == "member_expression" else None
        if prop is not None and data[prop.start_byte : prop.end_byte] in _CHAIN:
            promise = fn.child_by_field_name("object")
            continue
        return fn if fn.type in ("identifier", "member_expression") else None
    return None
