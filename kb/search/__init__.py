"""Search: a search model compiled once by the build, read alike by the server (here) and the browser."""
