"""The website and HTTP API over a built knowledge base."""
