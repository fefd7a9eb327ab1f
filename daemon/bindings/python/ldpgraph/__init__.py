"""ldpgraph: graph learning under local differential privacy, from Python.

ldpgraph.device: the mechanisms a device runs (one user, or a whole graph).
ldpgraph.server: datasets, training (GCN, GraphSAGE, GIN, LPGNN, GAP,
    FedCog-SGC), model files, link-LDP denoising, the RDP accountant, GW.
ldpgraph.client: the daemon's admin API over HTTPS.
"""

from . import client, device, server  # noqa: F401
from ._ldpgraph import BudgetExhausted  # noqa: F401

__all__ = ["client", "device", "server", "BudgetExhausted"]
