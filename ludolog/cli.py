"""The ``ludolog`` command line: serve, worker, reconcile, reindex, migrate, demo, user, bench, analyze, puzzles (and import/export).

Each command reads its settings from the environment (see the README), so the same
command works against the embedded Redis of ``ludolog serve`` or a production server.
Without LUDOLOG_REDIS_URL a command finds the store of a running ``ludolog serve`` through
the URL it leaves in the data directory (``var/redis.url``).

An expected failure (no store, a store still loading after the wait, an unknown game, an
unreadable file, a bad option) is one line on standard error and a non-zero exit, never a
traceback: 2 when the store cannot be reached or an option is wrong, 1 otherwise.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from service.runtime.config import Config

#: Exit status when the store is unreachable (as for a usage error: nothing was done).
EXIT_NO_STORE = 2


class Failure(click.ClickException):
    """An expected failure: its message alone on standard error, no ``Error:`` prefix, no traceback."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code

    def show(self, file: Any = None) -> None:
        """Print the one line."""
        click.echo(self.format_message(), err=True)


class LudologGroup(click.Group):
    """Turns the failures users can meet into :class:`Failure` lines, whatever the command."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command, translating expected errors."""
        import redis

        from engine import EngineError
        from service.runtime.config import ConfigError
        from service.store.context import NoRunningService
        from service.store.errors import StoreError
        from service.store.ready import StoreNotReady

        try:
            return super().invoke(ctx)
        except (NoRunningService, StoreNotReady, ConfigError) as exc:
            raise Failure(str(exc), EXIT_NO_STORE) from exc
        except StoreError as exc:
            raise Failure(exc.message) from exc
        except EngineError as exc:  # an unknown game, a setup the rules refuse: the rules' own sentence
            raise Failure(str(exc)) from exc
        except redis.exceptions.BusyLoadingError as exc:
            raise Failure("the store is loading its data: try again in a moment", EXIT_NO_STORE) from exc
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            raise Failure(f"lost the store: {str(exc).splitlines()[0]}", EXIT_NO_STORE) from exc
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            raise Failure(f"{where}{exc.strerror or exc}") from exc


def _stores(*, wait_forever: bool = False):
    """This process's stores, once the store answers (waiting while it loads or restarts).

    Commands give up after LUDOLOG_STORE_WAIT seconds with one line; a worker waits for ever.
    """
    from service.store.context import NoRunningService, current_stores, serve_is_running, url_file
    from service.store.ready import StoreStatus, probe_client, redact, wait_until_ready

    stores = current_stores()
    config = stores.config
    if not config.redis_url:
        raise NoRunningService()
    from_file = not Config().redis_url and url_file(config.data_dir).exists()
    told: set[str] = set()

    def on_wait(status: StoreStatus) -> None:
        if from_file and not status.loading and not serve_is_running(config.data_dir):
            raise NoRunningService()
        line = "the store is loading its data" if status.loading else f"waiting for the store at {redact(config.redis_url or '')}"
        if line not in told:  # one line per kind of wait, not one per look
            told.add(line)
            click.echo(f"ludolog: {line} ({status.describe()})…", err=True)

    wait_until_ready(probe_client(config.redis_url), None if wait_forever else config.store_wait, on_wait)
    return stores


@click.group(cls=LudologGroup)
def cli() -> None:
    """ludolog: replay, annotate and fork board games."""


@cli.command()
def serve() -> None:
    """Run everything: embedded Redis, an RQ worker, gunicorn, demo games (Ctrl-C stops it all)."""
    from ludolog.supervisor import Supervisor

    sys.exit(Supervisor(Config()).run())


@cli.command()
@click.option("--burst", is_flag=True, help="Work until the queues are empty, then exit.")
@click.option("--no-reconcile", is_flag=True, help="Skip the snapshot reconciler at start.")
@click.option("--analysis-only", is_flag=True,
              help="Take analysis jobs only (a machine added for analysis); by default imports and folds come first, "
                   "then analysis.")
@click.option("--no-analysis", is_flag=True, help="Take imports and folds only, never analysis.")
def worker(burst: bool, no_reconcile: bool, analysis_only: bool, no_analysis: bool) -> None:
    """Run one RQ worker on the ludolog queues (reconciling snapshots first), with RQ's scheduler so that retries run.

    It waits for its store for ever (one line when it goes, one when it is back), and nothing it forks outlives it.
    """
    import dataclasses

    from service.jobs import worker_queues
    from service.runtime.lifetime import end_forked_children_with_this_process
    from service.store.context import use_stores
    from service.store.ready import PatientRetry, StoreOutage
    from workers.worker import LudologWorker

    if analysis_only and no_analysis:
        raise click.UsageError("--analysis-only and --no-analysis leave the worker nothing to do: choose one")
    end_forked_children_with_this_process()
    stores = _stores(wait_forever=True)
    outage = StoreOutage(stores.config.redis_url or "", lambda line: click.echo(f"ludolog worker: {line}", err=True))
    stores = use_stores(dataclasses.replace(stores, retry=PatientRetry(outage)))
    if not no_reconcile:
        _reconcile(stores, quiet=True)
    queues = worker_queues(stores, analysis=not no_analysis, others=not analysis_only)
    LudologWorker(queues, stores, outage).work(burst=burst, with_scheduler=True)


def _reconcile(stores, quiet: bool) -> None:
    from service.jobs import job_queue
    from workers.heal import heal
    from workers.reconcile import reconcile

    report = reconcile(stores.games, stores.snapshots, stores.config.snapshot_every)
    if not quiet or report.rebuilt or report.dropped_snapshots:
        click.echo(f"reconciled {report.branches} branches: rebuilt {len(report.rebuilt)}, "
                   f"dropped {report.dropped_snapshots} snapshots of other rules versions")
    if not quiet or report.reindexed:
        click.echo(f"games missing from a listing index, indexed again: {len(report.reindexed)}")
    healed = heal(stores.redis, job_queue(stores), deadline=stores.config.job_deadline, every=stores.config.snapshot_every)
    if not quiet or healed.failed_uploads or healed.refolded:
        click.echo(f"uploads stuck past {stores.config.job_deadline} s, now failed: {len(healed.failed_uploads)}; "
                   f"branches whose fold died, queued again: {len(healed.refolded)}")


@cli.command()
@click.option("--restart", is_flag=True, help="Start from the first game rather than where a stopped run left off.")
def reindex(restart: bool) -> None:
    """Rebuild the listing indexes (search and filters) from the games; a stopped run resumes where it was."""
    from service.upkeep.reindex import reindex as rebuild

    stores = _stores()
    with click.progressbar(length=1, label="reindexing games", file=sys.stderr) as bar:
        def progress(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        report = rebuild(stores.games, restart=restart, progress=progress)
    resumed = f" (resumed after game #{int(report.resumed_after)})" if report.resumed_after else ""
    click.echo(f"reindexed {report.games} games{resumed}")


@cli.command()
@click.option("--dry-run", is_flag=True, help="Write nothing; say how many bytes the rewrite would save.")
@click.option("--restart", is_flag=True, help="Start from the first game rather than where a stopped run left off.")
def migrate(dry_run: bool, restart: bool) -> None:
    """Rewrite stored games in the compact encoding (optional: old ones read as they are); a stopped run resumes."""
    from service.upkeep.migrate import migrate as rewrite

    stores = _stores()
    label = "measuring games" if dry_run else "migrating games"
    with click.progressbar(length=1, label=label, file=sys.stderr) as bar:
        def progress(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        report = rewrite(stores.games, dry_run=dry_run, restart=restart, progress=progress)
    resumed = f" (resumed after game #{int(report.resumed_after)})" if report.resumed_after else ""
    verb = "would rewrite" if dry_run else "rewrote"
    click.echo(f"{report.games} games, {report.branches} branches{resumed}: {verb} {report.streams_rewritten} event streams "
               f"({report.old_entries} old entries; {report.entries_before} entries into {report.entries_after}) and "
               f"{report.snapshots_rewritten} snapshots; {'would save' if dry_run else 'saved'} about "
               f"{report.bytes_saved:,} bytes" + (f"; {report.appended_meanwhile} entries appended meanwhile kept"
                                                  if report.appended_meanwhile else ""))


@cli.command()
def reconcile() -> None:
    """Rebuild snapshots that are missing, stale or of another rules version; fail stuck imports, re-queue dead folds."""
    _reconcile(_stores(), quiet=False)


@cli.command()
@click.option("--per-game", default=2, show_default=True, help="Demo games of each game.")
def demo(per_game: int) -> None:
    """Load seeded demo games played by a random legal player (idempotent)."""
    from service.games.demo import demo_games, load_demo
    from service.jobs import FoldScheduler, job_queue

    stores = _stores()
    if not demo_games():
        click.echo("demo: no game with full rules is registered yet; nothing to load")
        return
    schedule = FoldScheduler(stores.folds, job_queue(stores))
    created = load_demo(stores.games, per_game, on_append=schedule)
    click.echo(f"demo: {len(created)} new demo games" + (f" ({', '.join(created)})" if created else " (already loaded)"))


@cli.group()
def explorer() -> None:
    """The explorer of what players choose (issue 49)."""


@explorer.command("rebuild")
def explorer_rebuild() -> None:
    """Count every public finished game the explorer lacks (games stored before it): resumable, never twice."""
    from service.games.explorer import rebuild

    stores = _stores()
    with click.progressbar(length=1, label="counting games", file=sys.stderr) as bar:
        def progress(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        counted = rebuild(stores.games, stores.explorer, progress=progress)
    click.echo(f"explorer: {counted} games counted")


@cli.group()
def insights() -> None:
    """Players' mistakes by phase and stage, from their claimed games (issue 49)."""


@insights.command("rebuild")
@click.option("--rollouts", type=click.IntRange(1), default=None,
              help="the budget of the analyses to count (default: each game's default budget)")
def insights_rebuild(rollouts: int | None) -> None:
    """Count every completed main-line analysis (full view, seed 0) the insights lack: resumable, never twice."""
    from service.games.insights import rebuild

    stores = _stores()
    with click.progressbar(length=1, label="counting analyses", file=sys.stderr) as bar:
        def progress(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        counted = rebuild(stores.games, stores.redis, stores.insights, stores.claims, rollouts=rollouts,
                          progress=progress)
    click.echo(f"insights: {counted} analysed games counted")


@cli.group()
def user() -> None:
    """Manage users."""


@user.command("add")
@click.argument("name")
@click.option("--password", default=None, help="Also set a password for the web sign-in.")
@click.option("--bare", is_flag=True, help="Print the token alone (for scripts: TOKEN=$(ludolog user add --bare NAME)).")
def user_add(name: str, password: str | None, bare: bool) -> None:
    """Create user NAME and print its API token, labelled (shown once; stored hashed)."""
    from service.store.errors import StoreError

    try:
        token = _stores().users.add(name, password)
    except StoreError as exc:
        raise click.ClickException(exc.message) from exc
    click.echo(token if bare else f"API token of {name} (shown once, only its hash is kept): {token}")


@cli.command()
@click.argument("suite", default="all", type=click.Choice(["store", "engine", "import", "restart", "list", "queue", "live",
                                                          "page", "engine-fairness", "engine-think", "tables", "analysis",
                                                          "explore", "learn", "all"]))
@click.option("--quick", is_flag=True, help="Fewer iterations (a smoke run, not for the record).")
@click.option("--strength", is_flag=True,
              help="With analysis: the search player against the strategy bots as sequential tests (bench/strength.py).")
@click.option("--minutes", type=float, default=30.0, show_default=True, help="With --strength: the wall-clock cap.")
@click.option("--storm", is_flag=True,
              help="With live: thousands of clients from one address reconnecting streams every 2 s, probed (bench/storm.py).")
def bench(suite: str, quick: bool, strength: bool, minutes: float, storm: bool) -> None:
    """Measure speed: the store, the engine, the importer, a restart, listing, uploads during analysis, live streams, a
    page following a game, a user's list of tables, the explorer and puzzles; the search player; a reconnect storm."""
    if storm:
        if suite != "live":
            raise click.UsageError("--storm goes with the live suite: ludolog bench live --storm")
        from bench.live import storm_table

        click.echo(storm_table(quick=quick))
        return
    if strength:
        if suite != "analysis":
            raise click.UsageError("--strength goes with the analysis suite: ludolog bench analysis --strength")
        from bench.strength import run

        run(minutes=minutes, random_games=20 if quick else 100)
        return
    from bench.runner import run_suites
    from ludolog.app import create_app

    run_suites(suite, quick=quick, create_app=create_app)


#: Files a folder import picks up (BGA logs saved as JSON, or pasted log text).
IMPORT_SUFFIXES = (".json", ".jsonl", ".txt", ".log")


def _import_files(paths: tuple[str, ...]) -> list:
    from pathlib import Path

    files = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in IMPORT_SUFFIXES)
        else:
            files.append(path)
    return files


@cli.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--partial", is_flag=True, help="Store a log that disagrees with the rules up to its last consistent move.")
@click.option("--owner", default=None, help="User to own the imported games.")
@click.option("--visibility", type=click.Choice(["public", "unlisted", "private"]), default="public", show_default=True)
def import_logs(paths: tuple[str, ...], partial: bool, owner: str | None, visibility: str) -> None:
    """Import BGA logs: files, or folders of them (thousands at a time), with a progress bar.

    Runs in this process against the configured Redis (LUDOLOG_REDIS_URL); the same file
    imported again gives back its game.
    """
    from tqdm import tqdm

    from service.imports.importer import run_import, submit_upload

    stores = _stores()
    files = _import_files(paths)
    if not files:
        raise click.ClickException("no log files found (looked for " + ", ".join(IMPORT_SUFFIXES) + ")")
    counts = {"done": 0, "duplicate": 0, "failed": 0, "incomplete": 0}
    single = len(files) == 1
    with tqdm(total=None if single else len(files), unit="move" if single else "log", disable=None) as bar:
        for path in files:
            def progress(done: int, total: int) -> None:
                if single:
                    bar.total = total
                    bar.n = done
                    bar.refresh()

            try:
                data = path.read_bytes()
            except OSError as exc:  # one unreadable file must not stop a folder of thousands
                counts["failed"] += 1
                tqdm.write(f"{path}: failed: cannot read it: {exc.strerror or exc}", file=sys.stderr)
                if not single:
                    bar.update(1)
                continue
            uid, duplicate = submit_upload(stores.uploads, data, owner=owner, partial=partial, filename=path.name,
                                           visibility=visibility)
            status = run_import(stores.redis, uid, every=stores.config.snapshot_every, progress=progress)
            if status.get("status") == "done":  # a line per file, as it is done: ok, or failed and why
                counts["duplicate" if duplicate else "done"] += 1
                counts["incomplete"] += 1 if status.get("incomplete") else 0
                kind = status.get("kind")
                tqdm.write(f"{path}: ok, game {status['game']} ({kind}{', incomplete' if status.get('incomplete') else ''}"
                           f"{', imported before' if duplicate else ''})")
            else:
                counts["failed"] += 1
                error = status.get("error") or {}
                tqdm.write(f"{path}: failed: {error.get('message', 'no reason recorded')}", file=sys.stderr)
            if not single:
                bar.update(1)
    click.echo(f"imported {counts['done']}, already there {counts['duplicate']}, failed {counts['failed']}"
               + (f", incomplete {counts['incomplete']}" if counts["incomplete"] else ""))
    if counts["failed"]:
        sys.exit(1)


@cli.command()
@click.argument("gid")
@click.option("--branch", default="main", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["bga", "jsonl", "text"]), default="bga", show_default=True)
@click.option("--view", default="full", show_default=True,
              help="Whose log: full, spectator (hidden events as their public sentence) or a seat number.")
@click.option("-o", "--output", type=click.File("w"), default="-", help="File to write (default: standard output).")
def export(gid: str, branch: str, fmt: str, view: str, output) -> None:
    """Export a game's branch: BGA-style packets (bga), JSON lines of events, or plain text."""
    import json

    from engine import get_rules
    from engine.bga import export_log
    from engine.core.visibility import viewer_for
    from service.imports.importer import export_jsonl, export_text, titled
    from service.store.errors import StoreError
    from service.web.viewnames import ViewError, parse_view

    stores = _stores()
    try:
        record = stores.games.game(gid)
        events = titled(stores.games.events(gid, branch), record.title)
    except StoreError as exc:
        raise click.ClickException(exc.message) from exc
    if record.is_log_only:
        raise click.ClickException(f"game {gid} is log-only: it has no rules to export with")
    seats = len(record.setup.players)
    try:
        view = parse_view(view, seats)
    except ViewError as exc:
        raise Failure(f"--{exc.message}", EXIT_NO_STORE) from exc  # a bad option: exit 2, as click's own
    viewer = viewer_for(get_rules(record.game), seats, view)
    if fmt == "bga":
        output.write(json.dumps(export_log(events, view=view), indent=1) + "\n")
    elif fmt == "jsonl":
        output.write(export_jsonl(events, viewer))
    else:
        output.write(export_text(events, viewer))


@cli.command()
@click.argument("gid")
@click.option("--branch", default="main", show_default=True, help="The branch to analyse.")
@click.option("--rollouts", type=click.IntRange(1, 5000), default=None,
              help="Search iterations per decision (the budget)  [default: the game's, 200 or 400]")
@click.option("--view", default="full", show_default=True, help="full, or a seat number: search with only its information.")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True,
              help="Seeds the searches: another seed gives a second opinion.")
@click.option("--timeout", type=float, default=None, help="Give up after this many seconds (the jobs go on).")
def analyze(gid: str, branch: str, rollouts: int | None, view: str, seed: int, timeout: float | None) -> None:
    """Analyse every decision of a branch with the search player, with a progress bar (RQ workers do the work).

    It follows the analysis's progress stream, as the game page's panel does: the report is read again when a worker
    stores a verdict of this view, not on a clock (and every :data:`PROGRESS_QUIET_SECONDS` when none comes).
    """
    import time

    from service.games.analysis import analysis_budget, enqueue_analysis, report
    from service.games.seating import table_hiding
    from service.jobs import analysis_queue
    from service.store.errors import StoreError

    stores = _stores()
    hub = stores.live
    # Followed before anything is queued: no verdict stored from then on goes unnoticed.
    progress = hub.subscribe(hub.analysis_progress_stream(gid), notices=True)
    try:
        try:
            record = stores.games.game(gid)
            if record.is_log_only:
                raise Failure(f"game {gid} is log-only: it has no rules to analyse with")
            rollouts = analysis_budget(record.game, rollouts)
            refused = table_hiding(stores.games, stores.seats, stores.reader, gid, branch)
            if refused is not None:
                raise Failure(refused, EXIT_NO_STORE)  # exit 2, one line: nothing is queued
            enqueue_analysis(stores.games, stores.redis, analysis_queue(stores), gid, branch, rollouts, view, seed)
            state = report(stores.games, stores.redis, gid, branch, rollouts, view, seed)
        except StoreError as exc:
            raise click.ClickException(exc.message) from exc
        deadline = None if timeout is None else time.monotonic() + timeout
        with _progress(state["total"], f"analysing {gid}/{branch}", "decisions") as bar:
            shown = 0
            while True:
                bar.update(state["done"] - shown)
                shown = state["done"]
                if state["status"] == "done":
                    break
                if state["status"] == "cancelled":  # through the API (POST …/analysis/cancel) while this waited
                    raise click.ClickException(f"the analysis was cancelled at {state['done']} of {state['total']} "
                                               "decisions; run this again to go on from there")
                if deadline is not None and time.monotonic() >= deadline:
                    raise click.ClickException(f"{state['done']} of {state['total']} decisions analysed after {timeout:g} s; "
                                               "is a worker running ('ludolog worker')?")
                if progress.ended:  # the hub lost the store a moment: follow again (or fail in one line)
                    progress = hub.subscribe(hub.analysis_progress_stream(gid), notices=True)
                _await_notice(progress, view, deadline)
                state = report(stores.games, stores.redis, gid, branch, rollouts, view, seed)
    finally:
        hub.unsubscribe(progress)
        hub.close()
    marks = [p["played"]["mark"] for p in state["positions"] if p["played"] and p["played"]["mark"]]
    click.echo(f"{state['total']} decisions analysed; marks: " + (", ".join(f"{m} {marks.count(m)}" for m in ("??", "?", "?!"))))


#: How long ``ludolog analyze`` waits for a progress notice before it reads the report all the same (a verdict stored
#: by another analysis of the same positions sends no notice of its own).
PROGRESS_QUIET_SECONDS = 5.0


def _await_notice(progress, view: str, deadline: float | None) -> None:
    """Wait until a verdict of ``view`` is stored (a notice on the progress stream), at most until ``deadline`` or
    :data:`PROGRESS_QUIET_SECONDS`."""
    import time

    until = time.monotonic() + PROGRESS_QUIET_SECONDS
    if deadline is not None:
        until = min(until, deadline)
    while not progress.ended:
        batches, lagged = progress.take(max(0.0, until - time.monotonic()))
        if lagged or any(notice.get("view") == view for batch in batches for notice in batch.notices):
            return
        if time.monotonic() >= until:
            return


@cli.group()
def puzzles() -> None:
    """Puzzles cut from real mistakes (issue 49)."""


@puzzles.command("generate")
@click.option("--game", "gids", multiple=True, help="A game's id (repeatable); default: every game, newest first.")
@click.option("--branch", default="main", show_default=True, help="The branch whose analysis is read.")
@click.option("--rollouts", type=click.IntRange(1, 5000), default=None,
              help="The analysis's budget  [default: the game's, 200 or 400]")
@click.option("--view", default="full", show_default=True, help="The analysis's view: full or a seat number.")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True, help="The analysis's seed.")
def puzzles_generate(gids: tuple[str, ...], branch: str, rollouts: int | None, view: str, seed: int) -> None:
    """Cut puzzles from finished analyses, here in this process (the job a worker runs after an analysis ends), with a
    progress bar per game, and print the yield: decisions looked at, kept, and rejected by which criterion.

    A game whose analysis at this budget, view and seed is not complete is skipped (say so: analyse it first)."""
    from collections import Counter

    from service.games.analysis import analysis_budget, report
    from service.games.puzzles import Analysed, Generator
    from service.store.puzzles import PuzzleStore

    stores = _stores()
    generator = Generator(stores.games, stores.reader, stores.redis, PuzzleStore(stores.redis))
    total: Counter[str] = Counter()
    for gid in gids or stores.games.game_ids(limit=100_000):
        record = stores.games.game(gid)
        if record.is_log_only or not stores.games.has_branch(gid, branch):
            continue
        budget = analysis_budget(record.game, rollouts)
        done = report(stores.games, stores.redis, gid, branch, budget, view, seed)
        if done["status"] != "done":
            click.echo(f"{gid}: analysis at {budget} rollouts, view {view}, seed {seed} is {done['status']} "
                       f"({done['done']} of {done['total']}): skipped", err=True)
            continue
        with _progress(done["total"], f"puzzles from {gid}/{branch}", "decisions") as bar:
            counts = generator.run(gid, branch, Analysed(budget, view, seed), lambda _done, _total: bar.update(1)).to_json()
        total.update({"analysed": counts["analysed"], "kept": counts["kept"], "skipped": counts["skipped"]})
        total.update({f"rejected {reason}": n for reason, n in counts["rejected"].items()})
        click.echo(f"{gid}: {_yield_line(counts)}")
    click.echo(f"all: {_yield_line(total)}")


def _yield_line(counts: Any) -> str:
    """``41 decisions looked at, 2 kept, rejected: no_mistake 35, ...``."""
    rejected = counts.get("rejected") or {k.split(" ", 1)[1]: v for k, v in counts.items() if k.startswith("rejected ")}
    reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(rejected.items())) or "none"
    return (f"{counts.get('analysed', 0)} decisions looked at, {counts.get('kept', 0)} kept, "
            f"{counts.get('skipped', 0)} decided before; rejected: {reasons}")


class LineProgress:
    """Progress as lines on standard error, for when it is no terminal (redirected to a file, a pipe, a log):
    ``analysing g/main: 12 of 80 decisions (15 %)``, at most one line every few seconds, and the last one."""

    EVERY = 3.0

    def __init__(self, total: int, label: str, unit: str) -> None:
        self.total, self.label, self.unit, self.pos = total, label, unit, 0
        self.said_at: float | None = None
        self.said = -1

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            self.say()

    def update(self, steps: int) -> None:
        """``steps`` more done; a line when there is news and the last line is a few seconds old."""
        import time

        self.pos += steps
        if self.said_at is None or (self.pos != self.said and time.monotonic() - self.said_at >= self.EVERY):
            self.say()

    def say(self) -> None:
        """One line saying how far it is."""
        import time

        if self.pos == self.said:
            return
        share = f" ({100 * self.pos // self.total} %)" if self.total else ""
        click.echo(f"{self.label}: {self.pos} of {self.total} {self.unit}{share}", err=True)
        self.said, self.said_at = self.pos, time.monotonic()


def _progress(total: int, label: str, unit: str) -> Any:
    """A progress bar on standard error when it is a terminal, else :class:`LineProgress`."""
    if sys.stderr.isatty():
        return click.progressbar(length=total, label=label, file=sys.stderr)
    return LineProgress(total, label, unit)


def main() -> None:
    """Console entry point."""
    cli()


if __name__ == "__main__":
    main()
