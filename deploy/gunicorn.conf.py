"""gunicorn settings for the ludolog web process.

    gunicorn -c deploy/gunicorn.conf.py 'ludolog.app:create_app()'

Everything that differs between machines comes from the same LUDOLOG_* environment variables the
rest of ludolog reads (see service/runtime/config.py and deploy/env.example), so that systemd, the Procfile
and docker-compose all run this one file unchanged. Only settings that differ from gunicorn's
defaults are set, each with the reason.

Names starting with an underscore are helpers; every other lower-case name here is a gunicorn
setting (tests/deploy checks that gunicorn knows each one).
"""

from __future__ import annotations

import os
from typing import Any

from gunicorn.http import wsgi as _gunicorn_wsgi

# gunicorn names itself in a `Server: gunicorn` header on every response, which only tells a scanner
# what to probe; it has no setting for it, so the one name its responses use is replaced here.
_gunicorn_wsgi.SERVER = "ludolog"  # type: ignore[attr-defined]


def _env_int(name: str, default: int) -> int:
    """A whole-number setting from the environment; a clear error instead of a traceback."""
    raw = os.environ.get(name, "")
    if raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise SystemExit(f"{name}={raw!r}: expected a whole number") from exc


def _bind_address(host: str, port: int) -> str:
    """host:port for gunicorn; IPv6 literals need brackets, a unix: socket path is taken as is."""
    if host.startswith("unix:"):
        return host
    if ":" in host and not host.startswith("["):
        return f"[{host}]:{port}"
    return f"{host}:{port}"


# The app itself, so that `gunicorn -c deploy/gunicorn.conf.py` alone also works; a module:callable
# given on the command line takes precedence.
wsgi_app = "ludolog.app:create_app()"

# Loopback by default like the rest of ludolog: a web node is exposed on purpose (LUDOLOG_HOST=0.0.0.0
# behind a balancer or in a container), never by accident.
bind = [_bind_address(os.environ.get("LUDOLOG_HOST", "127.0.0.1"), _env_int("LUDOLOG_PORT", 8000))]

# One process per core: the work of a request (routing, marshmallow, JSON, folding the events after a
# snapshot through the engine) is Python and holds the GIL, so only processes use more cores. The
# default of 2 matches the 2-core machine ludolog is developed and measured on.
workers = max(1, _env_int("LUDOLOG_WEB_WORKERS", 2))

# gevent workers: each request (and each open live stream, `GET …/stream`) is a greenlet, not a thread. A live page
# holds its stream open for as long as it is shown, so gthread's one thread per open stream (4 per process) would let
# eight open pages block the whole site; a greenlet costs a few kilobytes and waits for Redis without holding the
# GIL, so a process holds worker_connections of them (the live streams are fed by one Redis reader per process,
# service/store/live.py). Requests still take turns on the CPU as before: the work of a request holds the GIL under
# either class, and processes (above) are what use both cores. LUDOLOG_WEB_WORKER_CLASS=gthread goes back to threads
# (then LUDOLOG_WEB_THREADS per process, and as many open live pages at most).
worker_class = os.environ.get("LUDOLOG_WEB_WORKER_CLASS", "gevent")
threads = max(1, _env_int("LUDOLOG_WEB_THREADS", 4))
# Open connections per process (streams and requests together). The kernel does not share new connections evenly
# between the processes (1,063 of 2,000 went to one in a run of `ludolog bench live`), and a process at its limit
# leaves the rest waiting in the listen queue, /healthz and the pages included: so each process may hold all of the
# 1,000 streams the live pages are measured with (docs/PERFORMANCE.md), and one address may hold half of all the
# connections (LUDOLOG_STREAMS_PER_ADDRESS, service/web/streamgate.py), which leaves the other half for everyone else
# (issue 45: 4,500 streams from one address). An open stream costs about 45 KB; each needs a file descriptor.
worker_connections = max(1, _env_int("LUDOLOG_WEB_CONNECTIONS", 4000))  # service/runtime/config.py WEB_CONNECTIONS

# Each request does a bounded amount of work (one append or one state read: a snapshot plus at most
# K events). 30 s only catches a worker that is truly stuck, e.g. on a Redis that stopped answering;
# gunicorn then kills and replaces it. Uploads are imported by RQ workers, not in the request.
timeout = 30

# On SIGTERM/HUP, requests in flight get this long to finish. Kept below the supervisors' stop
# timeouts (systemd TimeoutStopSec=35, compose stop_grace_period 35s) so that gunicorn, not the
# supervisor's SIGKILL, ends a slow request.
graceful_timeout = 25

# Longer than the default 2 s so that a client or balancer re-uses its connection between the moves
# of a game instead of reconnecting; an idle connection costs a parked greenlet, not a thread.
# Behind a balancer whose idle timeout is longer than this, raise it above the balancer's.
keepalive = 5

# Recycle a process after a few thousand requests (jittered so they do not all restart together):
# a cheap guard against slow memory growth in a long-lived process (caches, fragmentation). Live streams are not
# counted (pre_request below): a stream is one long request whose count says nothing about memory, and counting
# them let clients that keep reconnecting restart both processes together, which closed every open stream, whose
# browsers reconnected, which brought the next restart sooner (issue 45: 3 restarts in 100 s, /healthz p99 12 s).
max_requests = max(0, _env_int("LUDOLOG_WEB_MAX_REQUESTS", 2000))
max_requests_jitter = max_requests // 10

# NOT preloaded (gunicorn's default, stated on purpose): with preload the app factory would run in
# the master and every forked worker would inherit the same Redis connection pool and sockets,
# interleaving replies between processes. Loading the app in each worker after fork gives each its
# own pool; it also lets a HUP reload pick up new code.
preload_app = False

# Logs to stdout/stderr: journald (systemd), docker logs and honcho all collect them from there.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LUDOLOG_LOG_LEVEL", "info").lower()
# The standard combined format plus the request time in milliseconds (%(M)s) and the client's
# X-Request-ID when a balancer sets one, so that a slow request can be found and followed.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms rid=%({x-request-id}i)s'

# The heartbeat file each worker touches: on tmpfs so that a slow disk can never make gunicorn think
# a healthy worker is stuck (gunicorn's documented advice, and /tmp in containers is often overlayfs).
worker_tmp_dir = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None

# gunicorn believes no proxy's X-Forwarded-* headers (its own default trusts 127.0.0.1, so any program on the
# host could choose its address): the app alone decides, for the proxies in LUDOLOG_TRUSTED_PROXIES
# (ludolog.app.trust_proxies).
forwarded_allow_ips = ""

# Newer gunicorn opens a control socket at one fixed path per user ($XDG_RUNTIME_DIR/gunicorn.ctl or
# ~/.gunicorn/): two gunicorns of one user (make run next to a test, or a home directory made read-only
# by systemd) would fight over it. ludolog is managed by signals (HUP, TERM) through its supervisor.
# Older gunicorn versions ignore this unknown name.
control_socket_disable = True



def on_starting(server: object) -> None:
    """Refuse to start with an example or short LUDOLOG_SECRET_KEY outside development (one line, exit 2)."""
    from service.runtime.config import Config, ConfigError, check_secret_key

    try:
        check_secret_key(Config())
    except ConfigError as exc:
        print(f"ludolog: {exc}", flush=True)
        raise SystemExit(2) from exc


def _is_live_stream(path: str) -> bool:
    """Whether ``path`` is one of the live routes' (``GET /api/…/stream``, service/api/live.py)."""
    return path.startswith("/api/") and path.endswith("/stream")


def pre_request(worker: Any, req: Any) -> None:
    """Leave live streams (and their refusals) out of the count that recycles the process (see max_requests): the
    worker adds one to ``worker.nr`` right after this hook, for every request."""
    if _is_live_stream(req.path or ""):
        worker.nr -= 1


def post_worker_init(worker: object) -> None:
    """On a stop signal, end this process's live streams first, then stop as gunicorn does.

    An open live page keeps its stream open for as long as it is shown, so without this every stop or reload waited
    the whole graceful_timeout for streams that never finish; ended, their browsers reconnect (to the next process)
    after the stream's retry hint."""
    import signal

    from service.store.live import close_all

    def stopping(handler: Any) -> Any:
        def stop(signum: int, frame: object) -> None:
            close_all()
            handler(signum, frame)
        return stop

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        current = signal.getsignal(signum)
        if callable(current):
            signal.signal(signum, stopping(current))


# A recognisable name in ps/top (with setproctitle installed).
proc_name = "ludolog-web"
