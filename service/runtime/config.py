"""Configuration, read from environment variables (documented in the README).

Every setting has a default that makes ``make run`` work on a fresh clone.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]


def _env_flag(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in ("1", "true", "yes", "on")


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise SystemExit(f"{name}={raw!r}: expected a whole number") from exc


#: Board Game Arena's own origins: the site and every subdomain of it (``en.boardgamearena.com``, ``fr.`` …).
DEFAULT_BGA_ORIGINS = "https://boardgamearena.com,https://*.boardgamearena.com"
#: One origin pattern: a scheme, a host (``*.`` first for any subdomain of the rest) and an optional port; no path.
_ORIGIN_PATTERN = re.compile(r"(https?)://(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*)(:[0-9]{1,5})?")


def bga_origin_patterns(raw: str, setting: str = "LUDOLOG_BGA_ORIGINS") -> tuple[str, ...]:
    """The comma-separated origin patterns of ``raw``, lower-cased, each checked.

    A pattern is an exact origin (``https://boardgamearena.com``, ``http://127.0.0.1:8201``) or a scheme and
    ``*.`` before a domain (``https://*.boardgamearena.com``), which matches any origin of that scheme (and port)
    whose host ends in ``.boardgamearena.com`` (one label or more before it), never the domain itself. A pattern
    with a path, a query, or a ``*`` anywhere else stops the start with a message naming it: a mistyped setting
    must not quietly accept or refuse every sender.
    """
    patterns = tuple(part.strip().lower().rstrip("/") for part in raw.split(",") if part.strip())
    for pattern in patterns:
        if not _ORIGIN_PATTERN.fullmatch(pattern):
            raise SystemExit(f"{setting}: {pattern!r} is not an origin: expected scheme://host[:port], "
                             "or scheme://*.domain for every subdomain of domain, comma-separated")
    return patterns


#: The schemes LUDOLOG_SMTP_URL may name: plain SMTP (STARTTLS when the server offers it) or SMTP over TLS.
SMTP_SCHEMES = ("smtp", "smtps")


def checked_smtp_url(raw: str | None, setting: str = "LUDOLOG_SMTP_URL") -> str | None:
    """``raw`` when it names a mail server ludolog can send through (``smtp://host[:port]``,
    ``smtps://user:password@host[:port]``), None when unset; otherwise the start stops with a message naming the
    setting (the password left out): a mistyped setting must not quietly send no mail."""
    if not raw:
        return None
    parts = urlsplit(raw)
    try:
        port_ok = parts.port is None or 0 < parts.port
    except ValueError:
        port_ok = False
    if parts.scheme not in SMTP_SCHEMES or not parts.hostname or not port_ok or parts.path not in ("", "/"):
        shown = f"{parts.scheme}://{parts.hostname or ''}" if "@" in raw else raw
        raise SystemExit(f"{setting}={shown!r}: expected smtp://host[:port] or smtps://user:password@host[:port]")
    return raw


#: Open connections (streams and requests together) each web process holds by default (deploy/gunicorn.conf.py's
#: worker_connections, which reads the same LUDOLOG_WEB_CONNECTIONS).
WEB_CONNECTIONS = 4000


@dataclass(frozen=True)
class Config:
    """Settings of one ludolog process."""

    redis_url: str | None = field(default_factory=lambda: os.environ.get("LUDOLOG_REDIS_URL") or None)
    queue_redis_url: str | None = field(default_factory=lambda: os.environ.get("LUDOLOG_QUEUE_REDIS_URL") or None)
    data_dir: Path = field(default_factory=lambda: Path(os.environ.get("LUDOLOG_DATA_DIR", ROOT / "var")))
    host: str = field(default_factory=lambda: os.environ.get("LUDOLOG_HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: _env_int("LUDOLOG_PORT", 8000))
    redis_port: int = field(default_factory=lambda: _env_int("LUDOLOG_REDIS_PORT", 6390))
    snapshot_every: int = field(default_factory=lambda: _env_int("LUDOLOG_SNAPSHOT_EVERY", 50))
    max_upload_bytes: int = field(default_factory=lambda: _env_int("LUDOLOG_MAX_UPLOAD_BYTES", 10 * 1024 * 1024))
    max_body_bytes: int = field(default_factory=lambda: _env_int("LUDOLOG_MAX_BODY_BYTES", 64 * 1024))
    secret_key: str | None = field(default_factory=lambda: os.environ.get("LUDOLOG_SECRET_KEY") or None)
    web_workers: int = field(default_factory=lambda: _env_int("LUDOLOG_WEB_WORKERS", 2))
    queue_name: str = field(default_factory=lambda: os.environ.get("LUDOLOG_QUEUE", "ludolog"))
    #: Analysis work (rollouts × decisions) one user may ask for per hour (see service/store/quota.py).
    analysis_work_per_hour: int = field(default_factory=lambda: _env_int("LUDOLOG_ANALYSIS_WORK_PER_HOUR", 500_000))
    #: Seconds an analysis job runs before it gives a waiting user with nothing running a turn (service/jobs.py).
    analysis_turn_seconds: int = field(default_factory=lambda: _env_int("LUDOLOG_ANALYSIS_TURN_SECONDS", 10))
    #: Live streams one client address may hold open at once, across the web processes (service/web/streamgate.py):
    #: by default half of the connections the web processes hold (LUDOLOG_WEB_CONNECTIONS each), so that the other
    #: half always stays for everyone else.
    streams_per_address: int = field(default_factory=lambda: max(1, _env_int(
        "LUDOLOG_STREAMS_PER_ADDRESS",
        _env_int("LUDOLOG_WEB_CONNECTIONS", WEB_CONNECTIONS) * max(1, _env_int("LUDOLOG_WEB_WORKERS", 2)) // 2)))
    redis_cluster: bool = field(default_factory=lambda: os.environ.get("LUDOLOG_REDIS_CLUSTER", "") in ("1", "true", "yes"))
    game_plugins: str = field(default_factory=lambda: os.environ.get("LUDOLOG_GAME_PLUGINS", ""))
    #: Seconds an import may show no sign of life (or a fold stay unfinished) before the worker's upkeep acts.
    job_deadline: int = field(default_factory=lambda: _env_int("LUDOLOG_JOB_DEADLINE", 300))
    #: Seconds between two rounds of a worker's upkeep (RQ's registries, stuck imports and folds).
    heal_every: int = field(default_factory=lambda: _env_int("LUDOLOG_HEAL_EVERY", 30))
    secure_cookies: bool = field(default_factory=lambda: _env_flag("LUDOLOG_SECURE_COOKIES"))
    session_seconds: int = field(default_factory=lambda: _env_int("LUDOLOG_SESSION_HOURS", 14 * 24) * 3600)
    #: Addresses of the proxies in front whose X-Forwarded-For and X-Forwarded-Proto are believed, for requests
    #: coming straight from one of them; none by default (``make run`` serves browsers directly, and a header any
    #: client can send must not choose the address the sign-in limits count).
    trusted_proxies: frozenset[str] = field(default_factory=lambda: frozenset(
        ip.strip() for ip in os.environ.get("LUDOLOG_TRUSTED_PROXIES", "").split(",") if ip.strip()))
    environment: str = field(default_factory=lambda: os.environ.get("LUDOLOG_ENV", "production").strip().lower())
    store_wait: int = field(default_factory=lambda: _env_int("LUDOLOG_STORE_WAIT", 30))
    redis_args: str = field(default_factory=lambda: os.environ.get("LUDOLOG_REDIS_ARGS", ""))
    #: The origins whose pages may hand a log to ``/import/bga/receive`` (the bookmarklet's sender): exact origins, or
    #: ``scheme://*.domain`` for every subdomain of ``domain`` (see :func:`bga_origin_patterns`).
    bga_origins: tuple[str, ...] = field(default_factory=lambda: bga_origin_patterns(
        os.environ.get("LUDOLOG_BGA_ORIGINS", DEFAULT_BGA_ORIGINS), "LUDOLOG_BGA_ORIGINS"))

    #: Turn e-mails (issue 46): the mail server they go through (none: no mail at all), their sender, the site's address
    #: for the links in them, and how long after a move made it a person's turn their mail is considered.
    smtp_url: str | None = field(default_factory=lambda: checked_smtp_url(os.environ.get("LUDOLOG_SMTP_URL")))
    mail_from: str = field(default_factory=lambda: os.environ.get("LUDOLOG_MAIL_FROM", "ludolog <ludolog@localhost>"))
    public_url: str = field(default_factory=lambda: (os.environ.get("LUDOLOG_PUBLIC_URL") or (
        f"http://{os.environ.get('LUDOLOG_HOST', '127.0.0.1')}:{_env_int('LUDOLOG_PORT', 8000)}")).rstrip("/"))
    turn_mail_delay: int = field(default_factory=lambda: _env_int("LUDOLOG_TURN_MAIL_DELAY", 60))

    @property
    def is_development(self) -> bool:
        """LUDOLOG_ENV=development: a developer's machine, where a weak secret key is tolerated."""
        return self.environment in ("development", "dev")

    @property
    def embedded_redis_settings(self) -> dict[str, str]:
        """LUDOLOG_REDIS_ARGS (``--maxmemory 6gb --maxmemory-policy noeviction``) as redis-server settings."""
        words = shlex.split(self.redis_args)
        settings: dict[str, str] = {}
        for word in words:
            if word.startswith("--"):
                settings[word[2:]] = ""
                last = word[2:]
            elif settings:
                settings[last] = f"{settings[last]} {word}".strip()
            else:
                raise ConfigError(f"LUDOLOG_REDIS_ARGS={self.redis_args!r}: expected --name value pairs")
        return settings

    @property
    def effective_queue_url(self) -> str | None:
        """RQ's Redis: its own server when configured, else the event store's."""
        return self.queue_redis_url or self.redis_url


#: Secret keys that appear in examples and must never sign a real session.
EXAMPLE_SECRET_KEYS = {"change-me", "changeme", "secret", "dev", "test"}
MIN_SECRET_KEY_BYTES = 32


class ConfigError(RuntimeError):
    """A setting that must be fixed before the service may start (the command line says so in one line)."""


def check_secret_key(config: Config) -> None:
    """Refuse an example key or one shorter than 32 bytes, except in development.

    Anyone who knows (or can guess) the key can forge a session cookie for any user.
    """
    key = config.secret_key
    if key is None or config.is_development:
        return
    if key.strip().lower() in EXAMPLE_SECRET_KEYS:
        raise ConfigError(f"LUDOLOG_SECRET_KEY is the example value {key!r}: generate one with "
                          "python3 -c 'import secrets; print(secrets.token_urlsafe(48))'")
    if len(key.encode()) < MIN_SECRET_KEY_BYTES:
        raise ConfigError(f"LUDOLOG_SECRET_KEY is {len(key.encode())} bytes long: at least {MIN_SECRET_KEY_BYTES} are needed "
                          "outside development (LUDOLOG_ENV=development)")
