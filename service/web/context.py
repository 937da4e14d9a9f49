"""The service objects one app uses, built once in the app factory from :class:`Stores`, and :func:`api`, which a
request of the API or of the pages asks for them (the one per-request context both import)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app
from rq import Queue

from service.games.play import PlayService
from service.jobs import EngineMoveScheduler, FoldScheduler, after_append, engine_queue, job_queue
from service.store.annotations import AnnotationStore
from service.store.context import Stores
from service.store.games import GameStore
from service.store.sessions import SessionStore, SignInThrottle, SignUpThrottle
from service.store.users import UserStore

EXTENSION = "ludolog"
#: ``app.extensions`` key of ``scores(game, state) -> list[int] | None``: the UI's running score of a position, which
#: the API's compare view reports (set when the replay UI is registered).
SCORES_EXTENSION = "ludolog.running_scores"


@dataclass(frozen=True)
class ApiContext:
    """Stores and services the views call; one per app, shared by its threads."""

    stores: Stores
    queue: Queue
    annotations: AnnotationStore
    users: UserStore
    sessions: SessionStore
    throttle: SignInThrottle
    signups: SignUpThrottle
    play: PlayService

    @property
    def games(self) -> GameStore:
        """Games, branches, events."""
        return self.stores.games

    @classmethod
    def build(cls, stores: Stores) -> ApiContext:
        """Everything from the process's stores; appends schedule a fold job per branch update on the job queue, and
        an engine seat's move when an engine seat is to move next."""
        queue = job_queue(stores)
        schedule_fold = FoldScheduler(stores.folds, queue)
        return cls(
            stores=stores,
            queue=queue,
            annotations=AnnotationStore(stores.redis),
            users=UserStore(stores.redis),
            sessions=SessionStore(stores.redis, stores.config.session_seconds),
            throttle=SignInThrottle(stores.redis),
            signups=SignUpThrottle(stores.redis),
            play=PlayService(stores.games, stores.reader,
                             on_append=after_append(schedule_fold, EngineMoveScheduler(stores, engine_queue(stores)))),
        )


def api() -> ApiContext:
    """The current app's :class:`ApiContext`."""
    context: ApiContext = current_app.extensions[EXTENSION]
    return context
