"""The bridge-laws knowledge base."""
__version__ = "0.1.0"
