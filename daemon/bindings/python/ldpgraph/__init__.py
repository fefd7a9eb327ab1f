"""ldpgraph: graph learning under local differential privacy, from Python.

ldpgraph.device: the mechanisms a device runs, over a whole graph at once.
"""

from . import device  # noqa: F401

__all__ = ["device"]
