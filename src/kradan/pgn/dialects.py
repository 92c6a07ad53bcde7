"""The PGN dialects kradan writes: its own, pychess.org's and cutechess's (``formats.export``)."""

DIALECTS = ("kradan", "pychess", "cutechess")

__all__ = ["DIALECTS"]
