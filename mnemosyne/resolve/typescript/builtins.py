"""What the TypeScript resolver knows of the JavaScript runtime: global names, node's builtin
modules, and the array / promise methods and builtins whose results it follows."""

from __future__ import annotations

from mnemosyne.parse.typescript.calls import ELEMENT_PARAMS

GLOBALS = frozenset(
    """console JSON Math Object Array Promise Reflect Proxy Symbol Number String Boolean BigInt Date
    RegExp Error TypeError RangeError SyntaxError ReferenceError EvalError URIError AggregateError Map
    Set WeakMap WeakSet WeakRef FinalizationRegistry Intl ArrayBuffer SharedArrayBuffer DataView
    Atomics Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array
    Float32Array Float64Array BigInt64Array BigUint64Array setTimeout setInterval clearTimeout
    clearInterval setImmediate clearImmediate queueMicrotask structuredClone fetch parseInt
    parseFloat isNaN isFinite encodeURIComponent decodeURIComponent encodeURI decodeURI escape
    unescape atob btoa globalThis window document navigator localStorage sessionStorage location
    history process Buffer URL URLSearchParams AbortController AbortSignal TextEncoder TextDecoder
    Headers Request Response FormData Blob File FileReader Event CustomEvent EventTarget
    MutationObserver IntersectionObserver ResizeObserver WebSocket Worker XMLHttpRequest alert
    confirm prompt requestAnimationFrame cancelAnimationFrame requestIdleCallback performance
    crypto Function eval getComputedStyle matchMedia Image Notification""".split()
)

NODE_BUILTINS = frozenset(
    """assert async_hooks buffer child_process cluster console constants crypto dgram
    diagnostics_channel dns domain events fs http http2 https inspector module net os path
    perf_hooks process punycode querystring readline repl stream string_decoder sys timers tls
    trace_events tty url util v8 vm wasi worker_threads zlib test""".split()
)

# array methods whose result holds (some of) the receiver's elements
SAME_ELEMENTS = frozenset({"filter", "slice", "sort", "reverse", "concat", "toSorted", "toReversed", "splice"})
# array methods returning one of the receiver's elements (``xs.find(p).run()``, ``queue.shift()``)
ELEMENT_RESULTS = frozenset({"find", "findLast", "pop", "shift", "at"})
# array methods returning an array (of other elements): ``is_array`` only
ARRAY_RESULTS = frozenset({"fill", "flat", "copyWithin", "with", "toSpliced"})
# builtin classes whose instances' forEach calls the function given (``is_array``)
FOREACH_COLLECTIONS = frozenset({"Set", "Map"})
# what gives an object's keys like ``Object.keys`` (``walked_keys``)
# (``own_keys``: the lists with an object's symbol keys, and the one with only those)
SYMBOLS_ONLY = frozenset({"Object.getOwnPropertySymbols"})
SYMBOL_KEY_LISTS = SYMBOLS_ONLY | {"Reflect.ownKeys"}
KEY_LISTS = frozenset({"Object.keys", "Object.getOwnPropertyNames"}) | SYMBOL_KEY_LISTS
ARRAY_MAKERS = KEY_LISTS | {"Object.values", "Object.entries", "Array.from", "Array.of"}
ARRAY_MAKER_NAMES = frozenset(m.rsplit(".", 1)[1] for m in ARRAY_MAKERS)
# builtins returning a promise, and the methods of a promise returning one (``is_promise``)
PROMISE_MAKERS = frozenset(
    {"fetch", "Promise.resolve", "Promise.reject", "Promise.all", "Promise.allSettled", "Promise.race", "Promise.any"}
)
PROMISE_CHAIN = frozenset({"then", "catch", "finally"})
# node's EventEmitter: ``emit(name)`` (what an instance's, or a subclass's ``this.emit``, is) calls
# the listeners its methods below registered for that name (``EmitMixin.emit_listeners``)
EMITTER_EMITS = frozenset(
    f"{m}.{p}emit" for m in ("events", "node:events") for p in ("", "EventEmitter.")
)
LISTENER_ADDERS = ("on", "once", "addListener", "prependListener", "prependOnceListener")
# the array methods whose callback comes first take the callback's ``this`` second
# (``xs.forEach(function (x) { this.add(x) }, this)``: ``_this_argument``)
THIS_ARG_METHODS = tuple(sorted(m for m, at in ELEMENT_PARAMS.items() if at == (0,)))
