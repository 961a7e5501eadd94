"""The visit's state: the stack of enclosing scope entries, the binding scopes, the symbols, and
the names of anonymous functions and classes (from their context, ``mnemosyne.parse.anon``).

``Scopes`` is the first of the classes the visit's ``_Builder`` is made of, one per concern
(scopes -> ``expr.Exprs`` -> ``objects.Objects`` -> ``calls.Calls`` -> ``defs.Defs`` ->
``statements.Statements`` -> ``visit._Builder``); each uses the methods of those before it."""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from itertools import accumulate
from operator import methodcaller

from mnemosyne.parse.anon import Namer, call_context, callee, clean, literal
from mnemosyne.parse.display import one_line
from mnemosyne.parse.typescript.flow import FlowOrder
from mnemosyne.parse.typescript.grammar import GRAMMAR_OF, KINDS, module_name, tools
from mnemosyne.parse.typescript.model import ClassInfo, ParsedFile, make_symbol
from mnemosyne.parse.typescript.tags import (
    ENTRY_BLOCK,
    ENTRY_FUNCTION,
    ENTRY_MODULE,
    ENTRY_NS,
)

_strip = str.strip
_lstrip_stars = methodcaller("lstrip", "*")


#: how far before a definition its JSDoc comment may end (past the keywords ``doc_before``
#: skips and the blank space before them): a byte search that spares most definitions the walk
DOC_REACH = 256


class Entry:
    """One entry of the visit's stack of enclosing scopes: a node's byte range ends at ``end``."""

    __slots__ = ("end", "fqn", "kind", "scope", "this", "counters", "cls", "fe", "nm")

    def __init__(self, end: int, fqn: str, kind: str, scope: int, this: tuple | None, cls: ClassInfo | None = None):
        self.end = end
        self.fqn = fqn
        self.kind = kind  # ENTRY_*: module, function, class, ns (a TS namespace body), block
        self.scope = scope  # binding scope index (function/module scopes; classes share their parent's)
        self.this = this  # (THIS_CLS | THIS_SCLS | THIS_OBJ, fqn) | (TYPE, t) | None
        self.counters: Namer | None = None  # the names of the anonymous functions / classes it holds
        self.cls = cls
        self.fe: Entry = self  # the nearest binding entry: not a class (set by the builder for classes)
        self.nm: Entry = self  # the nearest naming entry: not a block (set by the builder for blocks)


# expressions an anonymous function's context is looked for through (``f(a ?? (() => 0))``)
_CONTEXT_THROUGH = frozenset({
    "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression",
    "ternary_expression", "binary_expression", "array", "await_expression", "type_assertion",
    "sequence_expression", "spread_element",
})


def _first_line(text: str, limit: int = 240) -> str:
    return one_line(text)[:limit]


class Scopes:
    """The builder's state and its scopes, bindings and symbols."""

    def __init__(self, path: str, data: bytes, language: str) -> None:
        self.path = path
        self.data = data
        self.module = module_name(path)
        self.pf = ParsedFile(path=path, language=language, module=self.module, content_hash="")
        self.fqns: set[str] = set()
        self.fn_spans: list[tuple[int, int, int]] = []  # (start byte, end byte, symbol index): metrics
        self.metric_caps: dict[str, list] = {}
        self.obj_prefix: dict[int, str] = {}  # object start byte -> its fqn
        self.reassign: list[tuple] = []  # (scope, name, expr[, the call's own arguments])
        # xs.push(f) on a local array: (scope, name, ('alit', (('spread', ('null',)), f, ...))) (``_Builder.run``)
        self.pushes: list[tuple[int, str, tuple]] = []
        # o[k] = v / o.k = v on a parameter o: (function scope, o's index, ('key', k) or ('param', j), v,
        # scope of v) (``visit.parameter_stores``)
        self.param_stores: list[tuple[int, int, tuple, tuple, int]] = []
        self.flow = FlowOrder()  # which binding reaches a call in straight-line code (flow.py)
        # function scope -> (fqn, scope it is bound in): the functions ``this.x = v`` may be a
        # constructor's field in, and the fields assigned there, by function fqn (``_Builder.run``)
        self.es5_fns: dict[int, tuple[str, int]] = {}
        self.es5_fields: dict[str, tuple[int, list[tuple[str, int, tuple | None]]]] = {}
        # Object.defineProperty(F.prototype, "k", { get: function () {} }): (F's class, k, getter offset)
        self.proto_getters: list[tuple[ClassInfo, str, int]] = []
        self.proto_names: set[str] = set()  # names declared with a value `F.prototype`
        self.strs: dict[tuple[int, str], str] = {}  # (scope, name) -> value of `const name = "..."`
        self.nums: dict[tuple[int, str], int] = {}  # (scope, name) -> value of `const name = 2`
        # (scope, name) -> the strings of `const name = c ? "a" : "b"` (``const_choices``)
        self.str_choices: dict[tuple[int, str], tuple[str, ...]] = {}
        self.symbols = b"Symbol" in data  # whether `const K = Symbol()` may be met (``symbol_const``)
        # the names bound to a package of ``objects.PACKAGE_HELPERS`` (found on first use)
        self.helper_names: frozenset[str] | None = None
        # (start, end) of a function's node -> the `new E()` nodes it throws (``throws.escaping_throws``)
        self.fn_throws: dict[tuple[int, int], list] = {}
        # the last `const a = f(x)` / `a = f(x)`: (call start, scope, a, its index in reassign or -1)
        self.var_call: tuple[int, int, str, int] | None = None
        self.stack: list[Entry] = []
        self.conv_cache: dict[int, tuple | None] = {}
        self.key_base: list[str] = []  # per scope: what its stable key is numbered under
        self.newlines: list[int] | None = None
        self.callee_calls: dict[int, object] = {}  # id of a captured callee -> its call (``call_of``)
        self.arguments_at: list[int] | None = None  # where the word `arguments` occurs (``mentions_arguments``)
        # the tree's rows are the lines of ``data`` (False when it is the parse of a copy in which
        # a newline was blanked, ``parse_file``): then ``node.start_point`` gives the line
        self.rows = True
        self.view = memoryview(data)
        # latin-1 maps each byte to one character, so byte offsets are character offsets: a slice
        # that is ASCII is the name itself (others are decoded as UTF-8 from the bytes)
        self.text: str = data.decode("latin-1")
        self.ascii = data.isascii()
        self.parser, self.query = tools(GRAMMAR_OF[language])
        self.K = KINDS[GRAMMAR_OF[language]]

    def line(self, byte: int) -> int:
        """1-based line of a byte offset (cheaper than ``node.start_point`` for many nodes)."""
        starts = self.newlines
        if starts is None:  # offsets where lines 2, 3, ... start (all C-level work)
            starts = self.newlines = list(accumulate(map((1).__add__, map(len, self.data.split(b"\n")))))
        return bisect_right(starts, byte) + 1

    def mentions_arguments(self, start: int, end: int) -> bool:
        """Whether the word ``arguments`` occurs in ``data[start:end]`` (its offsets found once per
        file: searching each function's text searched nested functions' text again)."""
        at = self.arguments_at
        if at is None:
            at = self.arguments_at = []
            find = self.data.find
            i = find(b"arguments")
            while i >= 0:
                at.append(i)
                i = find(b"arguments", i + 1)
        j = bisect_left(at, start)
        return j < len(at) and at[j] + 9 <= end

    def _t(self, node) -> str:
        s = self.text[node.start_byte : node.end_byte]
        if s.isascii():
            return s
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def _sv(self, node) -> str | None:
        """The value of a string literal node (quotes stripped), else None."""
        if node is None or node.kind_id != self.K.k_string:
            return None
        t = self._t(node)
        return t[1:-1] if len(t) >= 2 else None

    # -- scopes ---------------------------------------------------------------------------------
    def new_scope(self, fqn: str, parent: int, this: tuple | None = None, key: str | None = None) -> int:
        """``key``: what the scope's stable key is numbered under (default: its fqn)."""
        pf = self.pf
        self.key_base.append(key or fqn)
        pf.scope_parent.append(parent)
        pf.scope_this.append(this)
        pf.scope_fqn.append(fqn)
        pf.bindings.append({})
        return len(pf.bindings) - 1

    def bind(self, scope: int, name: str, value: tuple) -> None:
        st = self.flow.state  # (flow order: a binding it does not place; ``on_var`` places its own)
        if name in st:
            st[name] = None
        b = self.pf.bindings[scope]
        bl = b.get(name)
        if bl is None:
            b[name] = [value]
        else:
            bl.append(value)

    def binding_scope(self, name: str) -> int:
        """The scope whose bindings ``name`` finds (so far) from the current scope; -1: none."""
        s = self.stack[-1].fe.scope
        bindings, parents = self.pf.bindings, self.pf.scope_parent
        while s >= 0 and name not in bindings[s]:
            s = parents[s]
        return s

    def naming(self) -> Entry:
        return self.stack[-1].nm

    def var_entry(self) -> Entry:
        """Where `var` declarations go: the nearest function, namespace or module (not a block)."""
        for e in reversed(self.stack):
            if e.kind in (ENTRY_FUNCTION, ENTRY_MODULE, ENTRY_NS):
                return e
        return self.stack[0]

    def push_block(self, end: int) -> Entry:
        """A block scope: own bindings; naming, numbering and the caller are the enclosing ones."""
        cur = self.stack[-1]
        fe = cur.fe
        this = cur.this
        fqn = self.pf.scope_fqn[fe.scope]
        scope = self.new_scope(fqn, fe.scope, this, fqn + "{}")
        b = Entry(end, cur.nm.fqn, ENTRY_BLOCK, scope, this)
        b.nm = cur.nm
        self.stack.append(b)
        return b

    def func_entry(self) -> Entry:
        return self.stack[-1].fe

    def anon(self, entry: Entry, what: str, node, parent=None) -> tuple[str, int]:
        """(FQN, PyCG ordinal) of an anonymous ``what`` (arrow, function, class) written at
        ``node``, named from its context (mnemosyne/parse/anon.py); ``parent``: ``node.parent``
        when the caller has it (``Node.parent`` searches from the root)."""
        if entry.counters is None:
            entry.counters = Namer()
        name, ordinal = entry.counters.name(what, self.anon_context(node, parent))
        return f"{entry.fqn}.{name}", ordinal

    def anon_context(self, node, parent=None) -> str:
        child = node
        p = node.parent if parent is None else parent
        if node.type == "method_definition":  # { flush(cb) { ... } } in an unnamed literal: by its key
            return self.target_text(node.child_by_field_name("name")) if p is not None and p.type == "object" else ""
        while p is not None and p.type in _CONTEXT_THROUGH:
            child, p = p, p.parent
        if p is None:
            return ""
        t = p.type
        pp = p.parent if t == "arguments" or t == "jsx_expression" else None  # (each .parent searches from the root)
        if t == "arguments" and pp is not None and pp.type in ("call_expression", "new_expression"):
            call = pp
            fn = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
            return call_context(self.callee_text(fn), self.first_literal(p))
        if t == "jsx_expression" and pp is not None and pp.type == "jsx_attribute":
            nm = pp.named_child(0)
            return clean(self._t(nm)) if nm is not None else ""
        if t in ("pair", "public_field_definition", "property_signature") and p.child_by_field_name("value") == child:
            return self.target_text(p.child_by_field_name("key" if t == "pair" else "name"))
        if t in ("assignment_expression", "augmented_assignment_expression") and p.child_by_field_name("right") == child:
            return self.target_text(p.child_by_field_name("left"))
        if t == "variable_declarator" and p.child_by_field_name("value") == child:
            return self.target_text(p.child_by_field_name("name"))
        if t in ("required_parameter", "optional_parameter") and p.child_by_field_name("value") == child:
            return self.target_text(p.child_by_field_name("pattern"))
        if t == "return_statement" or (t == "arrow_function" and p.child_by_field_name("body") == child):
            return "return"
        return ""

    def callee_text(self, fn) -> str:
        """A called expression as an anonymous name shows it (``app:get``, ``fetch():then``)."""
        parts: list[str] = []
        suffix = ""
        while fn is not None and len(parts) < 8:
            t = fn.type
            if t in ("identifier", "this", "super"):
                parts.append(self._t(fn) + suffix)
                break
            if t == "member_expression":
                prop = fn.child_by_field_name("property")
                if prop is None:
                    break
                parts.append(self._t(prop) + suffix)
                suffix = ""
                fn = fn.child_by_field_name("object")
            elif t == "call_expression":
                suffix = "()"
                fn = fn.child_by_field_name("function")
            elif t == "non_null_expression":
                fn = fn.named_child(0)
            elif t == "subscript_expression":  # st['throws'](...): a member by a literal key
                key = fn.child_by_field_name("index")
                if key is None or key.type != "string":
                    break
                parts.append(self.data[key.start_byte + 1 : key.end_byte - 1].decode("utf-8", "replace") + suffix)
                suffix = ""
                fn = fn.child_by_field_name("object")
            else:
                break
        return callee(parts[::-1])

    def first_literal(self, args) -> str | None:
        """The first string literal (a template without substitutions too) among a call's arguments."""
        for a in args.named_children:
            if a.type == "string" or (a.type == "template_string" and not any(
                c.type == "template_substitution" for c in a.named_children
            )):
                return literal(self.data[a.start_byte + 1 : a.end_byte - 1].decode("utf-8", "replace"))
        return None

    def target_text(self, node) -> str:
        """What an assignment target, key or parameter names: ``x``, ``this.cb`` -> ``cb``, ``'k'``."""
        if node is None:
            return ""
        t = node.type
        if t in ("identifier", "property_identifier", "private_property_identifier", "shorthand_property_identifier"):
            return clean(self._t(node))
        if t == "member_expression":
            return self.target_text(node.child_by_field_name("property"))
        if t in ("string", "number"):
            raw = self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")
            return literal(raw[1:-1]) if t == "string" else clean(raw)
        if t == "subscript_expression":
            return self.target_text(node.child_by_field_name("index"))
        return ""

    def sole_binding(self, node) -> tuple[tuple, int] | None:
        """(binding, scope) of identifier ``node`` in the nearest enclosing scope that binds it
        (so far), when it is bound once there; None otherwise."""
        if node is None or node.kind_id != self.K.identifier:
            return None
        name = self._t(node)
        s = self.stack[-1].fe.scope
        bindings, parents = self.pf.bindings, self.pf.scope_parent
        while s >= 0:
            bl = bindings[s].get(name)
            if bl is not None:
                return (bl[0], s) if len(bl) == 1 else None
            s = parents[s]
        return None

    def doc_before(self, start: int) -> str:
        """The JSDoc block right before byte ``start`` (or before its ``export`` / ``export
        default`` / ``async`` / ``declare``), its lines without the comment's stars; "" if none."""
        data = self.data
        if data.find(b"*/", max(0, start - DOC_REACH), start) < 0:  # most definitions: no comment
            return ""
        k = start
        while True:
            j = k
            while j > 0 and data[j - 1] in b" \t\r\n":
                j -= 1
            if j == 0 or data[j - 1] not in b"tce":  # the last letters of the keywords below
                break
            for kw in (b"export", b"default", b"async", b"declare"):
                if data.endswith(kw, 0, j) and (j == len(kw) or data[j - len(kw) - 1] in b" \t\r\n;}"):
                    k = j - len(kw)
                    break
            else:
                break
        if data.endswith(b"*/", 0, j):
            c0 = data.rfind(b"/*", 0, j)
            if c0 >= 0 and data.startswith(b"/**", c0):
                c = data[c0 + 3 : j - 2].decode("utf-8", "replace")
                # each line: strip, lstrip("*"), strip (mapped: no bytecode per line)
                return "\n".join(map(_strip, map(_lstrip_stars, map(_strip, c.strip().splitlines())))).strip()
        return ""

    def add_symbol(self, node, fqn: str, name: str, kind: str, parent: str, body=None, ordinal: int = 0) -> None:
        if fqn in self.fqns:
            return
        self.fqns.add(fqn)
        data = self.data
        start = node.start_byte
        sig = ""
        if body is not None:
            sig = _first_line(data[start : min(body.start_byte, start + 600)].decode("utf-8", "replace"))
        doc = self.doc_before(start)
        if self.rows:  # line(start), line(max(start, end - 1)) from the node's points (no line table)
            first = node.start_point[0] + 1
            if node.end_byte > start:
                ep = node.end_point
                last = ep[0] + 1 if ep[1] else ep[0]  # column 0: the last byte is a newline
            else:
                last = first
        else:
            first = self.line(start)
            last = self.line(max(start, node.end_byte - 1))
        self.pf.symbols.append(
            make_symbol(  # Symbol(fqn, name, kind, file, parent, line_start, line_end, signature, ...)
                fqn,
                name,
                kind,
                self.path,
                parent,
                first,
                last,
                sig,
                doc,
                hashlib.sha1(self.view[start : node.end_byte]).hexdigest()[:24],
                ordinal,
            )
        )
        if kind == "function" or kind == "method":
            self.fn_spans.append((start, node.end_byte, len(self.pf.symbols) - 1))
