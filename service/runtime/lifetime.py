"""No child outlives the process that forked it: the kernel kills it when its parent dies.

``ludolog worker`` forks RQ's scheduler and, for every job, a work horse. Killed with SIGKILL (an
operator, the OOM killer, a supervisor that lost patience), the worker cannot stop them: they
would go on with parent 1, the scheduler printing tracebacks once its Redis goes.

Linux's ``PR_SET_PDEATHSIG`` asks the kernel to send a signal to a process the moment its parent
dies, whatever killed the parent and wherever it runs (``ludolog serve``, systemd, a shell). It
needs nothing of the child: no thread polling its parent, no cooperation from a horse busy in a
job or a scheduler waiting for its store. The signal is SIGKILL for the same reason: a child asked
to stop politely may be blocked where it cannot listen. What that costs: the scheduler's locks are
not released, and expire by themselves (RQ gives them its interval plus 60 s); an unfinished job is
failed or queued again by the worker's upkeep, as after any crash.

The setting is made in every child forked after :func:`end_forked_children_with_this_process`, by an
``os.register_at_fork`` hook; a parent that died between the fork and the setting is caught by
comparing ``getppid()`` with the pid that forked. ``PR_SET_PDEATHSIG`` follows the *thread* that
forked: RQ forks from the worker's main thread, which lives as long as the worker.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable

#: prctl(2) option: the signal the kernel sends this process when its parent dies.
PR_SET_PDEATHSIG = 1

_forking_pid = 0
_installed = False


def _prctl() -> Callable[..., int] | None:
    """libc's prctl, or None where there is none (not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return prctl


def end_with_parent(parent_pid: int, sig: int = signal.SIGKILL) -> bool:
    """Have the kernel send ``sig`` to this process when its parent dies; exit now if ``parent_pid`` is already gone.

    Returns False where the platform cannot do it (nothing is set then).
    """
    prctl = _prctl()
    if prctl is None:
        return False
    if prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
        return False
    if os.getppid() != parent_pid:  # the parent died before the setting was made: nobody will send it
        os._exit(1)
    return True


def _remember_forking_pid() -> None:
    global _forking_pid
    _forking_pid = os.getpid()


def _in_child() -> None:
    end_with_parent(_forking_pid)


def end_forked_children_with_this_process() -> None:
    """From now on every child this process forks (and theirs, in turn) is killed when its parent dies.

    Idempotent. Children started with :mod:`subprocess` are not concerned (no Python fork hook runs there).
    """
    global _installed
    if _installed:
        return
    os.register_at_fork(before=_remember_forking_pid, after_in_child=_in_child)
    _installed = True
