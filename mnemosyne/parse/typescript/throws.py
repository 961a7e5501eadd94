"""What a function body or a try block throws, read from the syntax tree alone (no scopes): the
``throw new E()`` statements that leave it, and the calls a try block makes (their callees
throw too). The visit converts the nodes found into expressions (``Defs.on_fn``,
``Statements.on_catch``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mnemosyne.parse.typescript.grammar import nth
from mnemosyne.parse.typescript.tags import CAUGHT

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


def rethrown(stmt, data: bytes):
    """``throw e`` in the body of ``catch (e)`` (no function between): the identifier, which
    holds what that catch clause's try block throws (``caught_clause``); None otherwise."""
    x = _thrown(stmt)
    return x if x is not None and x.type == "identifier" and caught_clause(x, data) is not None else None


def caught_clause(x, data: bytes):
    """The catch clause whose parameter the identifier ``x`` names, ``x`` being in its body with
    no function between; None otherwise."""
    name = data[x.start_byte : x.end_byte]
    p = x.parent
    while p is not None and p.type not in _FUNCTION_TYPES:
        if p.type == "catch_clause":
            param = p.child_by_field_name("parameter")
            if param is not None and data[param.start_byte : param.end_byte] == name:
                return p if param.type == "identifier" else None
        p = p.parent
    return None


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
    of it (``new E(...)`` and call nodes, names declared in its body and rethrown catch
    parameters: ``thrown_new``, ``thrown_local``, ``rethrown``), for the whole file at once (``root``: the tree's root): not those of a
    function written in it nor those a try statement in it catches; at most ``MAX_THROWN`` per
    function. Found by the keyword's text: one search of a file without one."""
    out: dict[tuple[int, int], list] = {}
    at = data.find(b"throw")
    while at >= 0:
        tok = root.descendant_for_byte_range(at, at + 5)
        stmt = tok.parent if tok is not None and tok.type == "throw" else None
        if stmt is not None and stmt.type == "throw_statement":
            fn = _thrower(stmt)
            x = (thrown_new(stmt) or thrown_local(stmt, fn, data) or rethrown(stmt, data)) if fn is not None else None
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


def caught_value(body, conv: Callable[[Any], Any], K: Any, data: bytes, depth: int = 0) -> tuple | None:
    """What the parameter of a catch clause of the try block ``body`` holds: ``('caught', news,
    callees)`` of what the block throws itself and the callees of its calls (``try_throws``), the
    one ``new E()`` alone, or None (``Statements.on_catch``); ``conv``: the visit's expression
    converter (``Exprs.conv``), ``K`` its node kinds."""
    news, callees = try_throws(body, conv, K, data, depth)
    if callees or len(news) > 1:
        return (CAUGHT, tuple(news), tuple(callees))
    return news[0] if news else None


def thrown_value(x, conv: Callable[[Any], Any], K: Any, data: bytes, depth: int = 0) -> Any:
    """The expression of a node ``escaping_throws`` (or ``try_throws``) found: a rethrown catch
    parameter is what its try block throws (``caught_value``), anything else converted."""
    if x.type == "identifier" and depth < 4:
        c = caught_clause(x, data)
        tr = c.parent if c is not None else None
        body = tr.child_by_field_name("body") if tr is not None else None
        if body is not None:
            return caught_value(body, conv, K, data, depth + 1)
    return conv(x)


def try_throws(body, conv: Callable[[Any], Any], K: Any, data: bytes, depth: int = 0) -> tuple[list, list]:
    """The ``new E(...)`` expressions a try block throws (``throw new E()``; a name declared in
    its function, a catch parameter rethrown: ``thrown_value``), not those of the functions
    written in it nor of a try statement in it that catches them, and the callees (names and
    members) of the calls it makes there (at most ``MAX_THROWN`` of each)."""
    out: list = []
    callees: list = []
    stack = [body]
    home = None  # the function (or program) the try statement is in: `throw err` of a name declared there
    while stack and len(out) < MAX_THROWN:
        n = stack.pop()
        t = n.type
        if t == "throw_statement":
            x = thrown_new(n)
            if x is None:
                home = home or enclosing_function(body)
                x = thrown_local(n, home, data) if home is not None else None
            if x is None:
                x = rethrown(n, data)  # catch (e) { throw e } inside the block: what its try block throws
            e = thrown_value(x, conv, K, data, depth) if x is not None else None
            if e is not None and e not in out:
                out.append(e)
            continue
        if n is not body and is_function_node(n):
            continue  # a function or class written there throws when it is called
        if t == "try_statement" and n.child_by_field_id(K.f_handler) is not None:
            fin = n.child_by_field_id(K.f_finalizer)
            if fin is not None:
                stack.append(fin)  # (what its own block throws, its catch clause handles)
            h = n.child_by_field_id(K.f_handler)
            hb = h.child_by_field_id(K.f_body) if h is not None else None
            if hb is not None:
                stack.append(hb)  # a rethrow from the catch clause reaches this one
            continue
        if n.kind_id == K.call and len(callees) < MAX_THROWN:
            fn = n.child_by_field_id(K.f_function)
            c = conv(fn) if fn is not None and (fn.kind_id == K.identifier or fn.kind_id == K.member) else None
            if c is not None and c not in callees:
                callees.append(c)
        stack.extend(reversed(n.named_children))
    return out, callees
