"""The service objects one app uses, built once in the app factory from :class:`Stores`, and :func:`api`, which a
request of the API or of the pages asks for them (the one per-request context both import).

Stores are composed in :class:`Stores` alone; this context adds only what is not a store: the job queue and the
play service that schedules folds and engine moves after an append."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app
from rq import Queue

from service.games.play import PlayService
from service.jobs import after_table_append, job_queue
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
    play: PlayService

    @property
    def games(self) -> GameStore:
        """Games, branches, events."""
        return self.stores.games

    @property
    def annotations(self) -> AnnotationStore:
        """Comments and glyphs on moves."""
        return self.stores.annotations

    @property
    def users(self) -> UserStore:
        """Accounts and their API tokens."""
        return self.stores.users

    @property
    def sessions(self) -> SessionStore:
        """Sign-ins."""
        return self.stores.sessions

    @property
    def throttle(self) -> SignInThrottle:
        """Failed sign-ins per account and per address."""
        return self.stores.sign_in_throttle

    @property
    def signups(self) -> SignUpThrottle:
        """Sign-ups per address."""
        return self.stores.sign_up_throttle

    @classmethod
    def build(cls, stores: Stores) -> ApiContext:
        """The services over the process's stores; appends schedule a fold job per branch update on the job queue, an
        engine seat's move when an engine seat is to move next, and a turn e-mail's check when a person is
        (:func:`service.jobs.after_table_append`)."""
        return cls(stores=stores, queue=job_queue(stores),
                   play=PlayService(stores.games, stores.reader, on_append=after_table_append(stores)))


def api() -> ApiContext:
    """The current app's :class:`ApiContext`."""
    context: ApiContext = current_app.extensions[EXTENSION]
    return context
