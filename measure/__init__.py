"""Measurement: judged-query evaluation and loopback load, for the benchmark, scripts and tests.

Not part of the installed packages: it reads tests/data and starts servers.
"""
