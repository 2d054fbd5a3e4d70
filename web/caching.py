"""HTTP caching: a strong ETag on every successful GET, and 304 when the client has it.

The content of a page depends only on the build and the request, so a hash of
the body is a valid validator; phones on poor connections revalidate cheaply.
"""
from __future__ import annotations

import hashlib

from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import Response


class ETagMiddleware(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next):
        response = await call_next(request)
        if request.method not in ("GET", "HEAD") or response.status_code != 200 or "etag" in response.headers:
            return response
        body = b"".join([chunk async for chunk in response.body_iterator])
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        headers = dict(response.headers)
        headers.pop("content-length", None)
        headers["etag"] = etag
        headers.setdefault("cache-control", "no-cache")  # always revalidate: the build may change
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers={k: v for k, v in headers.items()
                                                      if k in ("etag", "cache-control", "vary")})
        return Response(body, status_code=200, headers=headers, media_type=response.media_type)
