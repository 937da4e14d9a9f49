"""The replay UI: a Flask blueprint with pages, templates, static JS/CSS and board renderers."""
