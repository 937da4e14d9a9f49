"""The blueprint object itself, in its own module so the view modules can import it."""

from flask import Blueprint

blueprint = Blueprint(
    "replay_ui",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static/ui",
)
