"""Analysis of a branch by the search player: request it, read its progress and results.

``POST /api/games/<gid>/branches/<bid>/analysis`` queues jobs (see :mod:`service.games.analysis`; the job is
:mod:`workers.analysis`) for the decisions still missing results at the requested budget and view; the game's
owner, the branch's owner, or anyone signed in on a public game may ask. Each user may ask for so much *work* an hour
(rollouts × decisions still to analyse, ``LUDOLOG_ANALYSIS_WORK_PER_HOUR``; see
:mod:`service.store.quota`): beyond it the answer is 429 with ``Retry-After`` and how much was asked,
how much is left and when it frees up; a request that alone exceeds the hour's allowance is 422. The
jobs run on the analysis queue, after imports and folds, in turn with other users' (:mod:`service.jobs`).
``GET`` answers the status, the progress and every analysed decision with its win chances,
best moves and the played move's loss and mark.

``seed`` (an integer from 0 to :data:`~service.games.analysis.MAX_SEED`, default 0) seeds the searches: the
same request gives the same answer, another seed a second opinion (it is part of the stored results'
key and echoed in the answer).

``view`` is ``full`` (default: the search may use everything in the log, hidden cards included, as a
spectator reviewing a finished game would want) or a seat number (the search samples what that seat
could not see, so its hints use only that seat's information, and every field goes through the
viewer rule: another seat's secret move shows as the events route shows it in that view).

``POST …/analysis/cancel`` stops a running analysis (:func:`service.games.analysis.cancel_run`): only a user whose
request queued some of it, or the game's owner, may; the verdicts stored so far stay (the report says ``cancelled``
with how many are done) and the work of the decisions left undone goes back to the quota of those who paid for it.
"""

from __future__ import annotations

import time

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_body, load_query
from service.api.schemas import Strict, StrictInt
from service.games.analysis import (
    MAX_SEED,
    analysis_budget,
    analysis_run,
    cancel_run,
    missing_ranges,
    queue_ranges,
    report,
)
from service.games.analysis_budgets import budget_note
from service.games.seating import table_hiding
from service.jobs import analysis_queue
from service.store.games import GameRecord
from service.store.quota import QuotaAnswer
from service.web.auth import current_user, readable_game, require_user
from service.web.context import api
from service.web.viewnames import VIEW_SHAPE, ViewError, parse_view

bp = Blueprint("analysis", __name__, url_prefix="/api/games/<gid>/branches/<bid>/analysis")

#: Budget bounds of a request (rollouts per decision).
MIN_ROLLOUTS, MAX_ROLLOUTS = 1, 5000
_VIEW = validate.Regexp(VIEW_SHAPE, error="expected full or a seat number")
_SEED = validate.Range(min=0, max=MAX_SEED, error=f"expected an integer from 0 to {MAX_SEED}")
_SEED_HELP = "seeds the searches: the same seed gives the same answer, another one a second opinion"
_ROLLOUTS_HELP = "search iterations per decision (the budget); default: the game's (200, or 400 where its marks need more)"


class AnalysisRequestSchema(Strict):
    """``POST …/analysis``."""

    rollouts = StrictInt(load_default=None, validate=validate.Range(min=MIN_ROLLOUTS, max=MAX_ROLLOUTS),
                         metadata={"description": _ROLLOUTS_HELP})
    view = fields.String(load_default="full", validate=_VIEW,
                         metadata={"description": "full (the search may use everything) or a seat (only what it saw)"})
    seed = StrictInt(load_default=0, validate=_SEED, metadata={"description": _SEED_HELP})


class AnalysisQuery(Strict):
    """``GET …/analysis``: which analysis."""

    rollouts = fields.Integer(load_default=None, validate=validate.Range(min=MIN_ROLLOUTS, max=MAX_ROLLOUTS),
                              metadata={"description": _ROLLOUTS_HELP})
    view = fields.String(load_default="full", validate=_VIEW)
    seed = fields.Integer(load_default=0, validate=_SEED, metadata={"description": _SEED_HELP})


class AnalysisSchema(Schema):
    """The analysis of a branch."""

    status = fields.String(required=True, metadata={
        "description": "none, running, done, or cancelled (stopped before every decision was analysed: those done stay)"})
    done = fields.Integer(required=True)
    total = fields.Integer(required=True)
    rollouts = fields.Integer(required=True)
    seed = fields.Integer(required=True)
    view = fields.String(required=True)
    search_version = fields.String(required=True)
    thresholds = fields.Dict(keys=fields.String(), values=fields.Float(), required=True, metadata={
        "description": "each mark and the loss its interval's low end must reach"})
    positions = fields.List(fields.Dict(), required=True, metadata={
        "description": "per decision: seq (the state after it), actor, win and win_ci (per seat), best (at most 5, "
                       "best first) and options (every evaluated move, by win) [{action, text, win, ci, n}], played "
                       "{action, text, win, ci, loss, loss_ci, mark} (null at the head; action null and hidden true "
                       "for a move the view may not see; win to mark null where it was not judged)"})
    estimate = fields.Dict(allow_none=True, required=True, metadata={
        "description": "while running, the time left at the pace of the decisions done so far: {seconds_left, "
                       "seconds_per_decision, decisions_left}; null before the first decision is done, or when not running"})
    may_cancel = fields.Boolean(required=True, metadata={
        "description": "whether the caller may cancel this analysis now (POST …/analysis/cancel): it runs, and the "
                       "caller asked for some of it or owns the game"})
    budget = fields.Dict(required=True, metadata={
        "description": "how sure this budget is: {default (the game's budget), small (below it), measured and "
                       "at_default (a second opinion's agreement measured at this budget and at the default, or null: "
                       "{decisions, blunders, blunders_kept, best_agrees, blunders_kept_pct, best_agrees_pct})}"})
    jobs = fields.Integer(metadata={"description": "jobs queued by this request"})
    refunded = fields.Integer(metadata={"description": "work (rollouts x decisions) given back by this cancel, over "
                                                       "everyone who paid for the analysis"})


def _seat_count(record: GameRecord) -> int:
    return len(record.setup.players)


def _checked_view(record: GameRecord, view: str) -> str:
    try:
        return parse_view(view, _seat_count(record), words=("full",))
    except ViewError as exc:
        raise ApiError(400, "invalid", exc.message, **exc.details) from exc


def _named_in_body(record: GameRecord) -> tuple[str, int, int]:
    """The analysis a request's body names (:class:`AnalysisRequestSchema`): its view, seed and budget (the game's
    default unless given)."""
    body = load_body(AnalysisRequestSchema)
    return _checked_view(record, body["view"]), body["seed"], analysis_budget(record.game, body["rollouts"])


def _refuse_log_only(record: GameRecord) -> None:
    if record.is_log_only:
        raise ApiError(422, "log_only", "log-only games have no rules to analyse with", game=record.id)


def _may_request(record: GameRecord, bid: str, user: str) -> None:
    branch = api().games.branch(record.id, bid)
    if record.visibility != "public" and user not in (record.owner, branch.owner):
        raise ApiError(403, "forbidden", "only the game's or the branch's owner may request an analysis of a game that is "
                                         "not public", game=record.id, branch=bid)


def _analysis_asked(gid: str, bid: str, *, requesting: bool) -> tuple[str, GameRecord, tuple[str, int, int]]:
    """What the request and the cancel check first, in this order: a signed-in caller, the game readable by them (and,
    to request, the branch there and theirs to ask about unless the game is public), a game with rules, a branch not
    played as a live table; then the caller, the game and the analysis the body names (view, seed, budget)."""
    user = require_user()
    record = readable_game(gid)
    if requesting:
        _may_request(record, bid, user)
    _refuse_log_only(record)
    _refuse_live_table(gid, bid)
    return user, record, _named_in_body(record)


def _refuse_live_table(gid: str, bid: str) -> None:
    """403 while the branch itself is played by more than its owner (:func:`service.games.seating.table_hiding`); the
    lines it was forked from stay open."""
    stores = api().stores
    reason = table_hiding(stores.games, stores.seats, stores.reader, gid, bid)
    if reason is not None:
        raise ApiError(403, "analysis_refused_while_played", reason, game=gid, branch=bid)


def _take_quota(user: str, work: int) -> QuotaAnswer:
    """Charge ``work`` to the user's hourly allowance, or refuse the request saying how much is left and when."""
    answer = api().stores.analysis_quota.take(user, work)
    if answer.granted:
        return answer
    details = {"asked": answer.asked, "left": answer.left, "limit": answer.limit}
    if answer.never_fits:
        raise ApiError(422, "too_much_work", f"this analysis asks {answer.asked:,} rollouts (rollouts x decisions still "
                                             f"to analyse), more than the {answer.limit:,} a user may ask for in an "
                                             "hour: ask for fewer rollouts", **details)
    raise ApiError(429, "analysis_quota_used",
                   f"this analysis asks {answer.asked:,} rollouts (rollouts x decisions still to analyse) and "
                   f"{answer.left:,} of your {answer.limit:,} an hour are left; enough frees up in "
                   f"{answer.retry_after} s", retry_after=answer.retry_after, **details)


#: How often a request reads the run again when cancels keep moving it on between its reading and its noting.
REQUEST_ATTEMPTS = 3


def _queue_request(gid: str, bid: str, user: str, rollouts: int, view: str, seed: int) -> int:
    """Charge ``user`` for the decisions still missing and queue them in the run's current generation; the jobs queued.

    A cancel between reading the generation and noting the run moves it on: the charge is given back and the request
    reads again, so it is never half in the cancelled run (409 if that keeps happening)."""
    context = api()
    stores = context.stores
    queue = analysis_queue(stores)
    run = analysis_run(stores.redis, gid, bid, rollouts, view, seed)
    for _ in range(REQUEST_ATTEMPTS):
        generation = run.generation()
        ranges = missing_ranges(context.games, stores.redis, queue, gid, bid, rollouts, view, seed, generation)
        answer = _take_quota(user, rollouts * sum(len(seqs) for seqs in ranges))
        jobs = queue_ranges(stores.redis, queue, gid, bid, rollouts, view, seed, user=user, generation=generation,
                            ranges=ranges, grant=answer.grant)
        if jobs is not None:
            return jobs
        if answer.grant is not None:
            stores.analysis_quota.give_back(user, answer.grant, answer.asked)
    raise ApiError(409, "analysis_changed", "this analysis was cancelled again and again while it was being asked for: "
                                            "ask again", game=gid, branch=bid)


def _may_cancel(record: GameRecord, user: str | None, users: frozenset[str]) -> bool:
    return user is not None and (user == record.owner or user in users)


def _answer(gid: str, bid: str, rollouts: int, view: str, seed: int, record: GameRecord) -> dict[str, object]:
    """The report, with whether the caller may cancel the analysis and how sure its budget is."""
    context = api()
    answer = report(context.games, context.stores.redis, gid, bid, rollouts, view, seed)
    run = analysis_run(context.stores.redis, gid, bid, rollouts, view, seed).state()
    return answer | {"may_cancel": answer["status"] == "running" and _may_cancel(record, current_user(), run.users),
                     "budget": budget_note(record.game, rollouts)}


@bp.post("")
@documented("Queue the analysis of every decision of a branch by the search player", response=AnalysisSchema,
            status=202, body=AnalysisRequestSchema, errors=(400, 403, 404, 409, 413, 422, 429), auth="required",
            description="Only decisions without a stored result at this budget and view, and not already waiting "
                        "or queued, are queued, so asking twice costs little and asking again resumes an analysis "
                        "whose worker died. The request costs rollouts x decisions it queues from the user's hourly "
                        "allowance: 429 with Retry-After when it does not fit yet, "
                        "422 when it asks more than the whole allowance. 403 while the branch itself is played with seats "
                        "held by others than its owner and its game is not over (the lines it was forked from stay "
                        "open). 409 in the rare case that cancels of the same analysis keep crossing the request.")
def request_analysis(gid: str, bid: str) -> ResponseReturnValue:
    """202 with the analysis so far and the number of jobs queued."""
    user, record, (view, seed, rollouts) = _analysis_asked(gid, bid, requesting=True)
    jobs = _queue_request(gid, bid, user, rollouts, view, seed)
    return jsonify(_answer(gid, bid, rollouts, view, seed, record) | {"jobs": jobs}), 202


@bp.get("")
@documented("The analysis of a branch: status, progress, and per decision the win chances, best moves and marks",
            response=AnalysisSchema, query=AnalysisQuery, errors=(400, 403, 404, 422),
            description="403 while the branch itself is played with seats held by others than its owner and its game "
                        "is not over (no one reads the engine's opinion of a live game; the lines it was forked from "
                        "stay open)")
def show_analysis(gid: str, bid: str) -> ResponseReturnValue:
    """``{"status", "done", "total", "rollouts", "seed", "view", "thresholds", "positions": [...]}``."""
    record = readable_game(gid)
    _refuse_log_only(record)
    query = load_query(AnalysisQuery)
    view = _checked_view(record, query["view"])
    _refuse_live_table(gid, bid)
    rollouts = analysis_budget(record.game, query["rollouts"])
    return jsonify(_answer(gid, bid, rollouts, view, query["seed"], record))


@bp.post("/cancel")
@documented("Cancel a running analysis of a branch: it stops soon, the decisions analysed so far stay",
            response=AnalysisSchema, body=AnalysisRequestSchema, errors=(400, 403, 404, 409, 413, 422),
            auth="required",
            description="The analysis is the one at this budget, view and seed (as for the request). Only a user whose "
                        "request queued some of it, or the game's owner, may cancel it (403 for anyone else). Its jobs "
                        "not started are cancelled and a running one stops before its next playout; the verdicts stored "
                        "so far stay (status cancelled, done of total) and the work of the decisions left undone "
                        "(rollouts x decisions) goes back to the quota of whoever paid for it (refunded). 409 when it is "
                        "not running: finished (every decision analysed), cancelled already, or never asked for. "
                        "Asking for it again starts it anew from where it stopped.")
def cancel_analysis(gid: str, bid: str) -> ResponseReturnValue:
    """200 with the analysis as it stopped and the work given back."""
    user, record, (view, seed, rollouts) = _analysis_asked(gid, bid, requesting=False)
    context = api()
    stores = context.stores
    now = report(context.games, stores.redis, gid, bid, rollouts, view, seed)
    _refuse_cancel(now, analysis_run(stores.redis, gid, bid, rollouts, view, seed).state().users, record, user)
    cancelled = cancel_run(stores.redis, analysis_queue(stores), stores.analysis_quota, gid, bid, rollouts, view, seed,
                           user=user, now=time.time())
    if cancelled.outcome != "cancelled":  # finished, or cancelled by another, since the report was read
        _refuse_cancel(report(context.games, stores.redis, gid, bid, rollouts, view, seed), frozenset(), record, user)
        raise ApiError(409, "analysis_changed", "this analysis was cancelled and asked for again meanwhile: look at it "
                                                "again before cancelling it", game=gid, branch=bid)
    refunded = sum(rollouts * cancelled.unused(grant) for grant in cancelled.grants)
    return jsonify(_answer(gid, bid, rollouts, view, seed, record) | {"refunded": refunded})


def _refuse_cancel(now: dict[str, object], users: frozenset[str], record: GameRecord, user: str) -> None:
    """409 unless the analysis runs, then 403 unless ``user`` may cancel it."""
    where = {"game": record.id, "rollouts": now["rollouts"], "view": now["view"], "seed": now["seed"]}
    progress = {"done": now["done"], "total": now["total"]}
    if now["status"] == "done":
        raise ApiError(409, "analysis_finished", f"this analysis is finished (all {now['total']} decisions analysed): "
                                                 "there is nothing left to cancel", **where, **progress)
    if now["status"] == "cancelled":
        raise ApiError(409, "analysis_cancelled", f"this analysis was cancelled already, at {now['done']} of "
                                                  f"{now['total']} decisions", **where, **progress)
    if now["status"] != "running":
        raise ApiError(409, "analysis_not_running", "this analysis is not running (nobody asked for it): there is "
                                                    "nothing to cancel", **where, **progress)
    if not _may_cancel(record, user, users):
        raise ApiError(403, "forbidden", "only who asked for this analysis, or the game's owner, may cancel it",
                       **where)
