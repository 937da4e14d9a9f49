"""What every response says about itself, and the session cookie's ``Secure`` flag per request (issue 45 item 9).

* ``Referrer-Policy: same-origin``: our addresses carry capabilities (an unlisted game's id, an invite's token in
  ``/invite/<token>``), so a link followed to another site must not hand it the address it came from; within the
  site the full referrer still goes (nothing here reads it, but a browser's own back-navigation aids keep working).
* ``X-Content-Type-Options: nosniff`` on every answer (the API's and the pages' hooks set it for theirs already; this
  one covers the rest: static files, errors before any blueprint, redirects).
* The session cookie is ``Secure`` whenever the request came over https: the request's own scheme, which is https
  either on a TLS connection straight to us or, behind a proxy, from ``X-Forwarded-Proto`` of a *trusted* proxy
  only (``ludolog.app.TrustedProxyFix``; gunicorn itself believes no forwarded header, ``deploy/gunicorn.conf.py``).
  So a deployment that forgot ``LUDOLOG_SECURE_COOKIES`` still never sends an https session in clear, and a client
  that forges ``X-Forwarded-Proto`` changes nothing. The setting still forces the flag (a site behind a proxy that
  does not say the scheme).
"""

from __future__ import annotations

from flask import Flask, Response, has_request_context, request
from flask.sessions import SecureCookieSessionInterface

REFERRER_POLICY = "same-origin"


def label_response(response: Response) -> Response:
    """Set the headers every response carries (keeping one a route set itself)."""
    response.headers.setdefault("Referrer-Policy", REFERRER_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


class SchemeAwareSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with the cookie ``Secure`` on every request that came over https."""

    def get_cookie_secure(self, app: Flask) -> bool:
        """The setting (``SESSION_COOKIE_SECURE``), or the request's own scheme when it is https."""
        return bool(super().get_cookie_secure(app)) or (has_request_context() and request.is_secure)


def init_app(app: Flask) -> None:
    """Install the response hook and the session interface on ``app``."""
    app.after_request(label_response)
    app.session_interface = SchemeAwareSessionInterface()
