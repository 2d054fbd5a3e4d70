"""The HTML pages by family, and the machinery they share (templates, locale, rendering)."""
