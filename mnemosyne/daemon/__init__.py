"""The background daemon: watcher, scheduler, persisted work queue, git hooks, control socket.

See docs/daemon.md. Public pieces: ``Daemon`` (core), ``WorkQueue`` (queue), ``RepoWatcher``
(watcher), ``Debouncer`` (debounce), ``hooks.install/uninstall``, ``working_tree_changes``.
"""

from mnemosyne.daemon.gitstate import working_tree_changes

__all__ = ["working_tree_changes"]
