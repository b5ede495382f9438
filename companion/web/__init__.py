"""The web layer: blueprints that parse a request, call `companion.tables`, and render."""
from __future__ import annotations

from flask import Flask, abort, request

from . import answers, assets, bodies, cookies, errors, filters, proxy, security
from .extensions import compress, csrf, limiter


def init_app(app: Flask) -> None:
    """Register extensions, blueprints, error pages and response headers."""
    proxy.init_app(app)     # first: a bad TRUSTED_PROXIES stops the start before anything
    # Before CSRF: Flask-WTF reads every form key, and a multipart part whose name Werkzeug
    # could not parse comes back as None (a 500 inside Flask-WTF). Such a body is a 400.
    app.before_request(_refuse_unnamed_form_fields)
    csrf.init_app(app)
    bodies.init_app(app)    # every request body read within BODY_TIMEOUT seconds
    limiter.init_app(app)
    compress.init_app(app)
    assets.init_app(app)    # fingerprinted, minified, precompressed /static (page weight)
    security.init_app(app)
    answers.init_app(app)   # X-Companion on every answer; a permanent session cookie
    filters.init_app(app)
    errors.init_app(app)
    cookies.init_app(app)

    from .health import bp as health_bp
    from .home import bp as home_bp
    from .table import bp as table_bp
    from .tools import bp as tools_bp

    app.register_blueprint(health_bp)
    app.register_blueprint(home_bp)
    app.register_blueprint(table_bp)
    app.register_blueprint(tools_bp)
    from .rainbow_rummy_tools import bp as rainbow_rummy_tools_bp
    app.register_blueprint(rainbow_rummy_tools_bp)
    from . import i18n
    i18n.init_app(app)
    from .rocca_tools import bp as rocca_tools_bp
    app.register_blueprint(rocca_tools_bp)
    from .events import bp as events_bp
    app.register_blueprint(events_bp)
    from .rockit_tools import bp as rockit_tools_bp
    app.register_blueprint(rockit_tools_bp)
    from .groups import bp as groups_bp
    app.register_blueprint(groups_bp)


def _refuse_unnamed_form_fields() -> None:
    if request.method == "POST" and any(key is None for key in request.form):
        abort(400)
