"""Flask extensions shared by the blueprints: CSRF, rate limits, compression."""
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
# In-memory limits count per worker process: with `gunicorn -w 2` a client gets up to
# twice the limit. That still makes guessing join codes hopeless (docs/SECURITY.md).
limiter = Limiter(key_func=get_remote_address, storage_uri="memory://", default_limits=[],
                  headers_enabled=True)
compress = Compress()
