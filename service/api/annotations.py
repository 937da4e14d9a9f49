"""Annotations: comments and glyphs on (branch, seq). Anyone who can read a game may annotate it;
only an annotation's author edits, deletes or undoes it. Texts are stored and returned verbatim:
escaping is the job of whatever renders them."""

from __future__ import annotations

from flask import Blueprint, jsonify, url_for
from flask.typing import ResponseReturnValue

from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_body, load_query
from service.api.schemas import (
    AnnotationCreateSchema,
    AnnotationListQuery,
    AnnotationListSchema,
    AnnotationPatchSchema,
    AnnotationSchema,
    VersionBodySchema,
    VersionQuery,
)
from service.web.auth import readable_game, require_user
from service.web.context import api

bp = Blueprint("annotations", __name__, url_prefix="/api/games/<gid>/annotations")

_CHANGE_ERRORS = (400, 403, 404, 409, 413)


@bp.get("")
@documented("A game's annotations, by branch and seq", response=AnnotationListSchema, query=AnnotationListQuery, errors=(400, 404),
            tag="annotations")
def list_annotations(gid: str) -> ResponseReturnValue:
    """Current (not deleted) annotations, optionally of one branch."""
    readable_game(gid)
    query = load_query(AnnotationListQuery)
    context = api()
    if "branch" not in query:
        return jsonify({"annotations": [a.to_json() for a in context.annotations.all(gid)]})
    context.games.branch(gid, query["branch"])  # an unknown branch is a 404, not an empty list
    if not query["inherited"]:
        return jsonify({"annotations": [a.to_json() for a in context.annotations.all(gid, branch=query["branch"])]})
    # The branch's history is its segments: each (stream, seq range) it reads. A comment made on
    # a parent's move before the fork point is a comment on this branch's move too.
    segments = context.games.segments(gid, query["branch"])
    found = [a for a in context.annotations.all(gid)
             if any(s.branch == a.branch and s.first <= a.seq and (s.last is None or a.seq <= s.last) for s in segments)]
    return jsonify({"annotations": [a.to_json() for a in sorted(found, key=lambda a: (a.seq, a.created))]})


@bp.post("")
@documented("Annotate a move: a comment and/or a glyph on (branch, seq)", response=AnnotationSchema, status=201,
            body=AnnotationCreateSchema, errors=(400, 404, 413), auth="required", tag="annotations")
def add_annotation(gid: str) -> ResponseReturnValue:
    """201 with the new annotation; the seq must be an event of the branch (1 to its head)."""
    user = require_user()
    readable_game(gid)
    body = load_body(AnnotationCreateSchema)
    head = api().games.head(gid, body["branch"])
    if body["seq"] > head:
        raise ApiError(400, "invalid", f"seq {body['seq']} is out of range: branch {body['branch']!r} has events 1 to {head}",
                       fields={"seq": [f"expected 1 to {head}"]}, head=head)
    annotation = api().annotations.add(gid, body["branch"], body["seq"], user, body["text"], body["glyph"])
    response = jsonify(annotation.to_json())
    response.headers["Location"] = url_for("annotations.show_annotation", gid=gid, aid=annotation.id)
    return response, 201


@bp.get("/<aid>")
@documented("One annotation with its history of versions (deleted ones too, so they can be undone)", response=AnnotationSchema,
            errors=(404,), tag="annotations")
def show_annotation(gid: str, aid: str) -> ResponseReturnValue:
    """The annotation and every earlier version."""
    readable_game(gid)
    return jsonify(api().annotations.get(gid, aid).to_json(with_history=True))


@bp.patch("/<aid>")
@documented("Edit an annotation (author only); glyph null clears the glyph", response=AnnotationSchema, body=AnnotationPatchSchema,
            errors=_CHANGE_ERRORS, auth="required", tag="annotations")
def edit_annotation(gid: str, aid: str) -> ResponseReturnValue:
    """The annotation after the edit; 409 when expected_version is stale."""
    user = require_user()
    readable_game(gid)
    body = load_body(AnnotationPatchSchema)
    clear_glyph = "glyph" in body and body["glyph"] is None
    annotation = api().annotations.edit(gid, aid, user, text=body.get("text"), glyph=body.get("glyph"), clear_glyph=clear_glyph,
                                        expected_version=body.get("expected_version"))
    return jsonify(annotation.to_json())


@bp.delete("/<aid>")
@documented("Delete an annotation (author only; it can be undone)", response=AnnotationSchema, query=VersionQuery,
            errors=_CHANGE_ERRORS, auth="required", tag="annotations")
def delete_annotation(gid: str, aid: str) -> ResponseReturnValue:
    """The annotation, marked deleted."""
    user = require_user()
    readable_game(gid)
    query = load_query(VersionQuery)
    return jsonify(api().annotations.delete(gid, aid, user, expected_version=query.get("expected_version")).to_json())


@bp.post("/<aid>/undo")
@documented("Undo the newest change to an annotation still standing (author only)", response=AnnotationSchema,
            body=VersionBodySchema, errors=_CHANGE_ERRORS, auth="required", tag="annotations", body_required=False,
            description="The body is optional; {\"expected_version\": n} makes it 409 unless the annotation is at version n.")
def undo_annotation(gid: str, aid: str) -> ResponseReturnValue:
    """The annotation as it was before its newest change."""
    user = require_user()
    readable_game(gid)
    body = load_body(VersionBodySchema, optional=True)
    return jsonify(api().annotations.undo(gid, aid, user, expected_version=body.get("expected_version")).to_json())
