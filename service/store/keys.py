"""Every Redis key ludolog uses, built in this one module.

All keys of one game carry the hash tag ``{gid}`` so that a Redis Cluster keeps a
game on one node, which the append script and multi-key reads rely on. Keys that
span games (the game index, users) have no tag and are only ever touched one key
per command.
"""

from __future__ import annotations

PREFIX = "ll"


def _game(gid: str) -> str:
    return f"{PREFIX}:g:{{{gid}}}"


def game_meta_for(gid: str) -> str:
    """Hash: game name, rules version, setup, owner, visibility, source, created."""
    return f"{_game(gid)}:meta"


def branches_for(gid: str) -> str:
    """Hash: branch id → branch record (JSON: parent, fork seq, owner, name, seed)."""
    return f"{_game(gid)}:branches"


def branch_head_for(gid: str) -> str:
    """Hash: branch id → seq of its last event (the fork seq for a fork with no events)."""
    return f"{_game(gid)}:heads"


def events_for(gid: str, bid: str) -> str:
    """Stream of a branch's own events; entry id ``<last seq>-<count>`` (an entry holds ``count`` events up to
    ``last seq``: ``service/store/encoding.py``) so that XRANGE reads by seq."""
    return f"{_game(gid)}:b:{bid}:events"


def idempotency_for(gid: str, bid: str, principal: str, key: str) -> str:
    """String: the stored result of an append ``principal`` made with idempotency key ``key`` (a key is its first
    user's: ``principal`` is a user name, which holds no ``:``, or the engine's ``~engine``)."""
    return f"{_game(gid)}:b:{bid}:idem:{principal}:{key}"


def snapshot_seqs_for(gid: str, bid: str) -> str:
    """Sorted set of the seqs at which a branch has snapshots (score = seq)."""
    return f"{_game(gid)}:b:{bid}:snapseqs"


def snapshots_for(gid: str, bid: str) -> str:
    """Hash: seq → snapshot (rules version + dumped state; encoded as ``service/store/snapshotting.py`` says)."""
    return f"{_game(gid)}:b:{bid}:snaps"


def fold_pending_for(gid: str, bid: str) -> str:
    """String set while a fold job for the branch is queued (batches appends into one job)."""
    return f"{_game(gid)}:b:{bid}:foldpending"


def annotations_for(gid: str) -> str:
    """Stream of a game's annotation events (added, edited, deleted, restored)."""
    return f"{_game(gid)}:annotations"


def games_index() -> str:
    """Sorted set of every game id, scored by creation order (see :func:`games_counter`)."""
    return f"{PREFIX}:games"


def games_changed() -> str:
    """Stream of notices ``{gid}``: a game was created or its listed fields changed (trimmed to about the last 1,000;
    read by the live home page through :class:`service.store.live.LiveHub`)."""
    return f"{PREFIX}:games:changed"


def games_counter() -> str:
    """Integer counting games created: the index's scores, so that order never ties."""
    return f"{PREFIX}:games:count"


def user_for(name: str) -> str:
    """Hash: a user's record (password hash, created, the language they chose: ``locale``)."""
    return f"{PREFIX}:user:{name}"


def token_for(token_hash: str) -> str:
    """String: the user name a hashed API token belongs to."""
    return f"{PREFIX}:token:{token_hash}"


def upload_for(uid: str) -> str:
    """Hash: an upload's status, progress and report."""
    return f"{PREFIX}:upload:{uid}"


def upload_by_digest_for(digest: str) -> str:
    """String: the upload id of a file with this content digest (same file → same game)."""
    return f"{PREFIX}:upload-digest:{digest}"


def uploads_in_flight() -> str:
    """Sorted set: ids of uploads not yet done or failed, scored by when each last showed life (unix time)."""
    return f"{PREFIX}:uploads:inflight"


def folds_due() -> str:
    """Sorted set: ``gid/bid`` of branches whose fold job was queued and has not finished, scored by when."""
    return f"{PREFIX}:folds:due"


def upload_raw_for(uid: str) -> str:
    """String: the uploaded file's bytes, kept in Redis so that any worker can import it."""
    return f"{PREFIX}:upload:{uid}:raw"


def log_record_for(gid: str) -> str:
    """String: a log-only game's record (players, moves with their lines, private ones included; JSON)."""
    return f"{_game(gid)}:logrecord"


def original_log_for(gid: str) -> str:
    """String: a log-only game's file as it was uploaded, zlib-compressed (its owner downloads it; the upload's own
    copy of the bytes expires after a week)."""
    return f"{_game(gid)}:original"


def public_table_for(table_id: int) -> str:
    """String: the public game imported from BGA table ``table_id`` (later public uploads of it link to that game)."""
    return f"{PREFIX}:bga-table:{table_id}"


def log_only_games() -> str:
    """Set: the BGA game names of the log-only games stored (the home page's game filter lists them)."""
    return f"{PREFIX}:log-only-games"


def session_for(session_hash: str) -> str:
    """String with a TTL: the user a signed-in browser session belongs to (keyed by the SHA-256 of its id).

    The cookie carries only the id, so signing out (deleting this key) ends the session on the
    server: a copied cookie stops working, and the TTL makes every session expire.
    """
    return f"{PREFIX}:session:{session_hash}"


def user_tokens_for(name: str) -> str:
    """Hash: token id → JSON (name, created, token hash) of a user's API tokens, for listing and revoking."""
    return f"{PREFIX}:tokens-of:{name}"


def signin_failures_for(scope: str, who: str) -> str:
    """Integer with a TTL: failed sign-ins of one account or one address (``scope``) in the current window."""
    return f"{PREFIX}:signin-failures:{scope}:{who}"


def open_streams_for(address: str) -> str:
    """Sorted set with a TTL: the live streams one client address holds open (a random holder id → its lease's end)."""
    return f"{PREFIX}:open-streams:{address}"


def signup_attempts_for(address: str) -> str:
    """Integer with a TTL: sign-ups from one client address in the current window."""
    return f"{PREFIX}:signup-attempts:{address}"


def analysis_for(gid: str, bid: str, rules_version: str, search_version: str, rollouts: int, view: str,
                 seed: int = 0) -> str:
    """Hash: ``seq played`` → the verdict (JSON) at the position after that seq of branch ``bid``'s own stream.

    A position belongs to the branch whose stream holds its seq, so forks share their parent's results
    up to the fork point; rules version, search version, budget, view (``full`` or a seat) and seed are
    part of the key, so a change of any of them never reads another's results.
    """
    return f"{_game(gid)}:b:{bid}:analysis:{rules_version}:{search_version}:{rollouts}:{view}:{seed}"


def analysis_progress_for(gid: str) -> str:
    """Stream of notices ``{holder, seq, rollouts, view}``: a verdict was stored (trimmed to about the last 200; read
    by the analysis panels that follow a branch live, through :class:`service.store.live.LiveHub`)."""
    return f"{_game(gid)}:analysis-progress"


def analysis_requested_for(gid: str, bid: str, rollouts: int, view: str, seed: int = 0) -> str:
    """String (with a time to live) set while an analysis of the branch at this budget, view and seed is queued."""
    return f"{_game(gid)}:b:{bid}:analysis-requested:{rollouts}:{view}:{seed}"


def analysis_run_for(gid: str, bid: str, rollouts: int, view: str, seed: int = 0) -> str:
    """Hash (with a time to live): the run of the analysis of the branch at this budget, view and seed: its generation,
    state, who asked, the quota grants it was charged from, and its pace (:mod:`service.store.analysis_runs`)."""
    return f"{_game(gid)}:b:{bid}:analysis-run:{rollouts}:{view}:{seed}"


def analysis_run_todo_for(gid: str, bid: str, rollouts: int, view: str, seed: int = 0) -> str:
    """Set (with a time to live): the seqs of the decisions that run still has to analyse."""
    return f"{_game(gid)}:b:{bid}:analysis-run-todo:{rollouts}:{view}:{seed}"


def analysis_keys_of_branch(gid: str, bid: str) -> str:
    """A SCAN pattern matching every analysis key of branch ``bid`` (results and request marks), for its deletion."""
    return f"{PREFIX}:g:{{{_glob_literal(gid)}}}:b:{_glob_literal(bid)}:analysis*"


def _glob_literal(text: str) -> str:
    """``text`` with SCAN's pattern characters escaped, so that it matches itself only."""
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in text)


def analysis_quota_for(user: str) -> str:
    """Sorted set: the user's analysis grants of the last hour (member ``<id>:<work>``, score: when granted)."""
    return f"{PREFIX}:analysis-quota:{user}"


def turns_ring_for(kind: str, queue: str) -> str:
    """List (on the queue's Redis): users with jobs of ``kind`` (``analysis``, ``engine``: :mod:`service.store.analysis_turns`)
    waiting for their turn (engine moves: the tables' owners), whose turn is next first."""
    return f"{PREFIX}:{kind}-turns:{{{queue}}}:ring"


def turns_last_served_for(kind: str, queue: str) -> str:
    """String (on the queue's Redis): the user whose job of ``kind`` was fed to the queue last."""
    return f"{PREFIX}:{kind}-turns:{{{queue}}}:last"


def turns_waiting_for(kind: str, queue: str, user: str) -> str:
    """List (on the queue's Redis): ``user``'s jobs of ``kind`` waiting for their turn (JSON), next first."""
    return f"{PREFIX}:{kind}-turns:{{{queue}}}:waiting:{user}"


#: The hash tag every listing index shares: a Redis Cluster keeps all of them in one slot, so a query's
#: script reads several indexes at once. A game's own keys carry the game's tag instead, so on a cluster the
#: indexes are written in a second transaction right after the game's (``ludolog reindex`` repairs a gap).
INDEX_TAG = "{ix}"


def listing_index_for(kind: str, value: str = "") -> str:
    """Sorted set: ids of the games in one listing index (``public``, ``owner``/name, ``player``/name prefix, …),
    scored by creation order (the :func:`games_index` score)."""
    return f"{PREFIX}:ix:{INDEX_TAG}:{kind}:{value}"


def migrate_cursor() -> str:
    """String: the creation-order score up to which ``ludolog migrate`` has rewritten games (resumes from there)."""
    return f"{PREFIX}:migrate-cursor"


def reindex_cursor() -> str:
    """String: the creation-order score up to which ``ludolog reindex`` has rebuilt (resumes from there)."""
    return f"{PREFIX}:ix:{INDEX_TAG}:reindex-cursor"


def seats_for(gid: str, bid: str) -> str:
    """Hash: seat number → who holds it on the branch (JSON: holder, user, level, invite hash); no key: the owner
    holds every seat (``service/store/seats.py``)."""
    return f"{_game(gid)}:b:{bid}:seats"


def invites_for(gid: str) -> str:
    """Hash: sha256 of an invite token → the invite (JSON: branch, seat, status open/used/revoked/deleted, user)."""
    return f"{_game(gid)}:invites"


def seat_changes_for(gid: str) -> str:
    """Stream of notices ``{branch, change}`` (``seats``: a seat of the branch changed holder; ``deleted``: the branch
    was deleted), trimmed to about the last 200; read by the seats stream of a table's page (``service/api/seats.py``)
    through :class:`service.store.live.LiveHub`."""
    return f"{_game(gid)}:seat-changes"


def engine_moves_due() -> str:
    """Sorted set of branches (``gid/bid``) with an engine seat's move queued and not yet played, scored by when."""
    return f"{PREFIX}:engine-moves:due"


def engine_quota_wait_for(gid: str, bid: str) -> str:
    """String (JSON: owner, asked, left, until) with a TTL: the branch's engine seat waits because its owner's work
    quota is used up, until then."""
    return f"{_game(gid)}:b:{bid}:engine-quota-wait"


def branch_closing_for(gid: str, bid: str) -> str:
    """String with a TTL, set while the branch's deletion runs (``SeatStore.close``): a seat or an invite taken then is
    refused, so that the deletion's check that nobody sits at the branch still holds when the branch goes."""
    return f"{_game(gid)}:b:{bid}:closing"


def engine_status_for(gid: str, bid: str) -> str:
    """String (JSON: state thinking or failed, seat, level, seq, since, lease or reason) with a TTL: what the engine
    seat's move on the branch is doing, for the pages at the table (``service/store/engine_status.py``)."""
    return f"{_game(gid)}:b:{bid}:engine-status"


def engine_thinking() -> str:
    """Sorted set of branches (``gid/bid``) whose engine move is being searched, scored by when its lease ends: a
    lease not renewed means the process searching died (the upkeep retries the move)."""
    return f"{PREFIX}:engine-moves:thinking"


def engine_think_times() -> str:
    """Hash: ``game/level`` → JSON ``{mean, n}``, the running mean of the engine's think time per move at that level
    on this deployment (what a page's "about N s" says)."""
    return f"{PREFIX}:engine-think-times"


def tables_of(user: str) -> str:
    """Sorted set of the tables ``user`` sits at (``gid/bid``, scored by when they sat): the branches whose seats
    they own or of which they hold a seat by invite; kept in the transaction of each seat change
    (``service/store/seats.py``), read by ``GET /api/me/tables``."""
    return f"{PREFIX}:user-tables:{user}"


def finished_tables_of(user: str) -> str:
    """Sorted set of the tables ``user`` sat at whose game is over (``gid/bid``, scored by when it ended): moved there
    from :func:`tables_of` when the game ends, so that the tables being played are listed without reading the
    finished ones (``service/store/seats.py``)."""
    return f"{PREFIX}:user-tables-finished:{user}"


def tables_changed() -> str:
    """Stream of notices ``{gid, bid}``: a table's seats changed or a move was made on it (trimmed to about the last
    1000); the home page's list of tables follows it (``GET /api/me/tables/stream``)."""
    return f"{PREFIX}:tables:changed"


def chat_for(gid: str, bid: str) -> str:
    """Stream: the chat of table ``bid`` (entries ``said`` {author, text, time} and ``unsaid`` {message, by}), trimmed
    to about the last 1,000; deleted with the branch (``service/store/chat.py``)."""
    return f"{_game(gid)}:b:{bid}:chat"


def chat_posts_of(user: str) -> str:
    """Integer with a TTL: the chat messages ``user`` posted in the current window (``service/store/chat.py``)."""
    return f"{PREFIX}:chat-posts:{user}"


def takeback_request_for(gid: str, bid: str) -> str:
    """String (JSON, with a TTL): table ``bid``'s take-back request, open or answered (``service/store/takebacks.py``)."""
    return f"{_game(gid)}:b:{bid}:takeback-request"


def branch_closed_for(gid: str, bid: str) -> str:
    """String: set when a granted take-back closed branch ``bid`` to moves (its value: the line the table plays on at,
    empty while that is made); ``append.lua`` refuses every append to a branch that has it."""
    return f"{_game(gid)}:b:{bid}:closed"
def notifications_for(user: str) -> str:
    """Hash: how ``user`` is told it is their turn (``email``, ``turn_mail`` 1/0: ``service/store/notifications.py``)."""
    return f"{PREFIX}:notify:{user}"


def table_open_by(gid: str, bid: str, user: str) -> str:
    """Sorted set with a TTL: the live streams through which ``user`` has branch ``bid``'s page open (a random holder
    id → its lease's end); while one lease runs, no turn e-mail is sent to them for that table."""
    return f"{_game(gid)}:b:{bid}:open-by:{user}"


def turn_mail_claim_for(gid: str, bid: str, user: str, seq: int) -> str:
    """String with a TTL: the turn e-mail to ``user`` for the turn at ``seq`` is claimed (``sending:<attempt>``,
    ``retry:<attempt>`` after a failed send, ``sent``): one mail per turn, whichever check gets there first."""
    return f"{_game(gid)}:b:{bid}:turn-mail:{user}:{seq}"


def turn_mail_window_for(gid: str, bid: str, user: str) -> str:
    """String with a TTL of the quarter hour: a turn e-mail about branch ``bid`` went to ``user`` in it."""
    return f"{_game(gid)}:b:{bid}:turn-mail-window:{user}"


def mail_signing_key() -> str:
    """String: the random key that signs the unsubscribe links of the mails (made on first use, never shown)."""
    return f"{PREFIX}:mail-signing-key"


# The explorer (issue 49): every key of one game kind carries the hash tag ``{ex:<game>}`` (one slot per game kind, so
# a finished game's counts are one script; a query reads two hashes, flat in the number of games).
def _explorer(game: str) -> str:
    return f"{PREFIX}:ex:{{ex:{game}}}"


def explorer_counted(game: str) -> str:
    """Set: the ids of the public finished games of ``game`` counted in its explorer (each counted once)."""
    return f"{_explorer(game)}:counted"


def explorer_counts(game: str, players: str) -> str:
    """Hash: ``<stage>\\x1f<choice>`` → how many times a player chose it, in games of ``players`` players (or ``all``)."""
    return f"{_explorer(game)}:counts:{players}"


def explorer_wins(game: str, players: str) -> str:
    """Hash: ``<stage>\\x1f<choice>`` → how many of those players finished first (shared first place counts)."""
    return f"{_explorer(game)}:wins:{players}"


def explorer_games(game: str, players: str, stage: str, choice: str) -> str:
    """Sorted set: ``<gid>@<seq>`` of the games (and the move) that passed through a choice, scored by when counted."""
    return f"{_explorer(game)}:games:{players}:{stage}\x1f{choice}"


# -- puzzles (issue 49) ------------------------------------------------------------------------------
def puzzle_decisions_for(gid: str) -> str:
    """Hash: ``<bid> <seq> <played>`` → the generator's decision on that position (JSON: the puzzle kept, or the
    criterion that rejected it), so that a rerun does not judge it again and the yield can be counted."""
    return f"{_game(gid)}:puzzle-decisions"


def puzzle_for(pid: str) -> str:
    """String: one puzzle (JSON: its game, branch, seq, mover, theme and the confirmed verdict; never a state)."""
    return f"{PREFIX}:puzzle:{pid}"


def _ratings() -> str:
    # One hash tag for every rating key: an attempt updates a solver's and a puzzle's rating, the index and the history
    # in one transaction, which a Redis Cluster runs only on keys of one slot.
    return f"{PREFIX}:{{ratings}}"


def puzzles_by_rating() -> str:
    """Sorted set: every puzzle id by its Glicko-2 rating (public and private alike: a list filters by the viewer)."""
    return f"{_ratings()}:puzzles"


def puzzle_rating_for(pid: str) -> str:
    """Hash: a puzzle's Glicko-2 rating, deviation, volatility and attempts."""
    return f"{_ratings()}:puzzle:{pid}"


def solver_rating_for(user: str) -> str:
    """Hash: a solver's Glicko-2 rating, deviation, volatility and attempts."""
    return f"{_ratings()}:solver:{user}"


def solver_history_for(user: str) -> str:
    """List: a solver's rated attempts, oldest first (JSON: puzzle, correct, rating and deviation after, when)."""
    return f"{_ratings()}:history:{user}"


def solver_attempted_for(user: str) -> str:
    """Set: the puzzles a solver has answered (only the first answer to a puzzle is rated)."""
    return f"{_ratings()}:attempted:{user}"


# -- claims and insights (issue 49, "your mistakes") -------------------------------------------------
# One hash tag for them all: settling a claim reads the claim and the game's summary and moves the claimant's counters
# in one script, which a Redis Cluster runs only on keys of one slot (one slot of its own, as the listing's `{ix}`).
def _insights() -> str:
    return f"{PREFIX}:in:{{in}}"


def claim_for(cid: str) -> str:
    """String: one claim (JSON: its claimant, game, seat, player name, status and who confirmed it)."""
    return f"{_insights()}:claim:{cid}"


def claims_of_user(user: str) -> str:
    """Sorted set: the ids of a user's claims, by id (oldest first)."""
    return f"{_insights()}:claims-of:{user}"


def claims_on_game(gid: str) -> str:
    """Set: the ids of every claim on a game's seats (any status)."""
    return f"{_insights()}:claims-on:{gid}"


def claims_to_confirm(owner: str) -> str:
    """Sorted set: the ids of the pending claims on an uploader's games, by id."""
    return f"{_insights()}:to-confirm:{owner}"


def insights_game_for(gid: str) -> str:
    """String: a game's analysed decisions summed per seat (JSON: the counters per phase and stage, the worst moves);
    written once, from the first complete analysis of its main line in the full view at seed 0."""
    return f"{_insights()}:game:{gid}"


def insights_everyone(game: str) -> str:
    """Hash: the counters over every seat of every analysed public game of ``game`` (the all-players figures)."""
    return f"{_insights()}:everyone:{game}"


def insights_everyone_counted(game: str) -> str:
    """Set: the analysed public games of ``game`` in :func:`insights_everyone` (each counted once)."""
    return f"{_insights()}:everyone-counted:{game}"


def insights_user(user: str, scope: str, game: str) -> str:
    """Hash: the counters over a user's confirmed claims on analysed games of ``game``; ``scope`` ``public`` (the
    public games only: what anyone may see) or ``all`` (their own private and unlisted games too: theirs alone)."""
    return f"{_insights()}:user:{scope}:{game}:{user}"


def insights_user_counted(user: str, scope: str) -> str:
    """Hash: gid → the seat of it counted in a user's counters of ``scope`` (so a claim is added or taken out once)."""
    return f"{_insights()}:user-counted:{scope}:{user}"


def insights_user_worst(user: str, scope: str, game: str) -> str:
    """Sorted set: ``<gid>@<seq>`` of a user's worst judged moves in ``scope``'s games of ``game``, scored by loss."""
    return f"{_insights()}:user-worst:{scope}:{game}:{user}"
