"""ldpgraph: graph learning under local differential privacy, from Python.

ldpgraph.device: the mechanisms a device runs, over a whole graph at once.
ldpgraph.server: what the server computes (so far: the RDP accountant).
"""

from . import device, server  # noqa: F401

__all__ = ["device", "server"]
