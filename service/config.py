"""Configuration, read from environment variables (documented in the README).

Every setting has a default that makes ``make run`` work on a fresh clone.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
    redis_cluster: bool = field(default_factory=lambda: os.environ.get("LUDOLOG_REDIS_CLUSTER", "") in ("1", "true", "yes"))
    game_plugins: str = field(default_factory=lambda: os.environ.get("LUDOLOG_GAME_PLUGINS", ""))
    #: Seconds an import may show no sign of life (or a fold stay unfinished) before the worker's upkeep acts.
    job_deadline: int = field(default_factory=lambda: _env_int("LUDOLOG_JOB_DEADLINE", 300))
    #: Seconds between two rounds of a worker's upkeep (RQ's registries, stuck imports and folds).
    heal_every: int = field(default_factory=lambda: _env_int("LUDOLOG_HEAL_EVERY", 30))
    secure_cookies: bool = field(default_factory=lambda: _env_flag("LUDOLOG_SECURE_COOKIES"))
    session_seconds: int = field(default_factory=lambda: _env_int("LUDOLOG_SESSION_HOURS", 14 * 24) * 3600)
    #: Proxies whose X-Forwarded-For names the client (gunicorn trusts the same list for X-Forwarded-Proto).
    forwarded_allow_ips: frozenset[str] = field(default_factory=lambda: frozenset(
        ip.strip() for ip in os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1").split(",") if ip.strip()))

    @property
    def effective_queue_url(self) -> str | None:
        """RQ's Redis: its own server when configured, else the event store's."""
        return self.queue_redis_url or self.redis_url
