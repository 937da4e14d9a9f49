"""The UI's blueprints: ``blueprint`` (``replay_ui``) holds the static files, the templates and what every page shares;
each page module has its own, made by :func:`page_blueprint` and listed in ``replay_ui.BLUEPRINTS``, as each API
module has its ``bp`` listed in ``service.api.BLUEPRINTS``. The app factory registers both lists."""

from flask import Blueprint

blueprint = Blueprint(
    "replay_ui",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static/ui",
)


def page_blueprint(name: str, import_name: str) -> Blueprint:
    """A page module's blueprint (its routes; its templates and static files are ``blueprint``'s)."""
    return Blueprint(name, import_name)
