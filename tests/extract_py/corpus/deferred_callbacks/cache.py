"""Functions the standard library runs later for the code that registers them: ``@atexit.register``
on a definition runs it at exit (the module registering it calls it, as ``atexit.register(f)``
does), and the callback of ``weakref.ref(obj, cb)`` / ``weakref.WeakMethod(m, cb)`` runs when the
object goes. A ``weakref.ref(obj)`` without one calls nothing."""

import atexit
import weakref


@atexit.register
def flush_all():
    pass


def forget(ref):
    pass


class Entry:
    def refresh(self):
        pass


class Cache:
    def __init__(self):
        self._refs = []
        self._listeners = []

    def track(self, obj):
        self._refs.append(weakref.ref(obj, self._dropped))

    def plain(self, obj):
        return weakref.ref(obj)

    def listen(self, entry: Entry):
        self._listeners.append(weakref.WeakMethod(entry.refresh, forget))

    def _dropped(self, ref):
        self._refs.remove(ref)
