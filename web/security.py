"""Security headers on every response, and a cap on what a request may send."""
from __future__ import annotations

from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse

MAX_URL_BYTES = 4096   # a search query is at most 500 characters; nothing needs more
MAX_BODY_BYTES = 0     # every route is GET: no request carries a body

HEADERS = {
    # only our own scripts, styles and images; no inline script, no framing, no plugins
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
}


class SecurityMiddleware(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next):
        if len(str(request.url).encode()) > MAX_URL_BYTES:
            response = JSONResponse({"error": "request URL too long", "status": 414}, status_code=414)
        elif int(request.headers.get("content-length") or 0) > MAX_BODY_BYTES:
            response = JSONResponse({"error": "request body not accepted", "status": 413}, status_code=413)
        else:
            response = await call_next(request)
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
