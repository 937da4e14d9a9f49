"""Every endpoint a page or a view names (``url_for("blueprint.view")``) exists in the app.

The pages' routes are registered as the API's are, one blueprint per module (``replay_ui.BLUEPRINTS``), so an
endpoint is ``module_blueprint.view``; a name left from another scheme (``replay_ui.signin``) would only fail when its
page is rendered. This reads every template and module of the UI and the web layer and checks each literal name.
"""

from __future__ import annotations

import re
from pathlib import Path

from ludolog.app import create_app
from service.runtime.config import Config

ROOT = Path(__file__).resolve().parents[1]
NAMED = re.compile(r"""url_for\(\s*['"]([\w.]+)['"]""")


def test_every_endpoint_named_in_a_template_or_a_view_exists() -> None:
    app = create_app(Config(redis_url="redis://127.0.0.1:1/0", secret_key="x" * 40))
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    sources = [*ROOT.glob("replay_ui/**/*.html"), *ROOT.glob("replay_ui/**/*.py"), *ROOT.glob("service/**/*.py"),
               *ROOT.glob("ludolog/*.py")]
    named = {(path.relative_to(ROOT).as_posix(), name) for path in sources for name in NAMED.findall(path.read_text())}
    assert len(named) >= 20, "the pages name their links by endpoint"
    assert sorted((path, name) for path, name in named if name not in endpoints) == []


def test_pages_are_registered_as_the_api_routes_are_one_blueprint_per_module() -> None:
    """Issue 48, item 5: "UI pages registered as API blueprints are" (not by an import's side effect on one blueprint)."""
    import replay_ui
    from service import api

    app = create_app(Config(redis_url="redis://127.0.0.1:1/0", secret_key="x" * 40))
    listed = {blueprint.name for blueprint in (*api.BLUEPRINTS, *replay_ui.BLUEPRINTS)}
    assert set(app.blueprints) == listed
    by_module = {blueprint.import_name: blueprint.name for blueprint in replay_ui.BLUEPRINTS[1:]}
    for rule in app.url_map.iter_rules():
        blueprint, _, view = rule.endpoint.rpartition(".")
        if blueprint in {b.name for b in replay_ui.BLUEPRINTS}:
            module = app.view_functions[rule.endpoint].__module__
            assert blueprint == ("replay_ui" if view == "static" else by_module.get(module)), (rule.rule, rule.endpoint)
