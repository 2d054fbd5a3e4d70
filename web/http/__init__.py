"""The HTTP plumbing, no pages: the server protocol, security headers and limits, ETags, compressed bodies, in-process requests."""
