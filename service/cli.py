"""The ``ludolog`` command line: serve, worker, reconcile, demo, user, bench (and import/export).

Each command reads its settings from the environment (see the README), so the same
command works against the embedded Redis of ``ludolog serve`` or a production server.
"""

from __future__ import annotations

import sys

import click

from service.config import Config


def _stores():
    from service.store.context import current_stores

    return current_stores()


@click.group()
def cli() -> None:
    """ludolog: replay, annotate and fork board games."""


@cli.command()
def serve() -> None:
    """Run everything: embedded Redis, an RQ worker, gunicorn, demo games (Ctrl-C stops it all)."""
    from service.supervisor import Supervisor

    sys.exit(Supervisor(Config()).run())


@cli.command()
@click.option("--burst", is_flag=True, help="Work until the queue is empty, then exit.")
@click.option("--no-reconcile", is_flag=True, help="Skip the snapshot reconciler at start.")
def worker(burst: bool, no_reconcile: bool) -> None:
    """Run one RQ worker on the ludolog queue (reconciling snapshots first)."""
    from rq import Worker
    from rq.serializers import JSONSerializer

    from workers.queue import make_queue

    stores = _stores()
    if not no_reconcile:
        _reconcile(stores, quiet=True)
    queue = make_queue(stores.queue_redis, stores.config.queue_name)
    Worker([queue], connection=stores.queue_redis, serializer=JSONSerializer).work(burst=burst)


def _reconcile(stores, quiet: bool) -> None:
    from workers.reconcile import reconcile

    report = reconcile(stores.games, stores.snapshots, stores.config.snapshot_every)
    if not quiet or report.rebuilt or report.dropped_snapshots:
        click.echo(f"reconciled {report.branches} branches: rebuilt {len(report.rebuilt)}, "
                   f"dropped {report.dropped_snapshots} snapshots of other rules versions")


@cli.command()
def reconcile() -> None:
    """Rebuild snapshots that are missing, stale or of another rules version."""
    _reconcile(_stores(), quiet=False)


@cli.command()
@click.option("--per-game", default=2, show_default=True, help="Demo games of each game.")
def demo(per_game: int) -> None:
    """Load seeded demo games played by a random legal player (idempotent)."""
    from service.demo import demo_games, load_demo
    from workers.queue import FoldScheduler, make_queue

    stores = _stores()
    if not demo_games():
        click.echo("demo: no game with full rules is registered yet; nothing to load")
        return
    schedule = FoldScheduler(stores.redis, make_queue(stores.queue_redis, stores.config.queue_name))
    created = load_demo(stores.games, per_game, on_append=schedule)
    click.echo(f"demo: {len(created)} new demo games" + (f" ({', '.join(created)})" if created else " (already loaded)"))


@cli.group()
def user() -> None:
    """Manage users."""


@user.command("add")
@click.argument("name")
@click.option("--password", default=None, help="Also set a password for the web sign-in.")
def user_add(name: str, password: str | None) -> None:
    """Create user NAME and print its API token (shown once; stored hashed)."""
    from service.store.errors import StoreError
    from service.store.users import UserStore

    try:
        token = UserStore(_stores().redis).add(name, password)
    except StoreError as exc:
        raise click.ClickException(exc.message) from exc
    click.echo(token)


@cli.command()
@click.argument("suite", type=click.Choice(["store", "engine", "import", "all"]), default="all")
@click.option("--quick", is_flag=True, help="Fewer iterations (a smoke run, not for the record).")
def bench(suite: str, quick: bool) -> None:
    """Measure speed: the store, the engine, the importer. Prints a table of figures."""
    from bench.runner import run_suites

    run_suites(suite, quick=quick)


def main() -> None:
    """Console entry point."""
    cli()


if __name__ == "__main__":
    main()
