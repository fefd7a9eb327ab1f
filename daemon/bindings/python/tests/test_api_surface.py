"""Each module exports its API and nothing else: __all__ names what it
defines, and dir() lists exactly that (no numpy, json or math beside it)."""
import types

import pytest

import ldpgraph
from ldpgraph import client, device, server


@pytest.mark.parametrize("module", [client, device, server], ids=lambda m: m.__name__)
def test_dir_lists_the_api_alone(module):
    assert sorted(dir(module)) == sorted(module.__all__)
    for name in module.__all__:
        value = getattr(module, name)
        assert not isinstance(value, types.ModuleType), name
        assert not name.startswith("_"), name


@pytest.mark.parametrize("module", [client, device, server], ids=lambda m: m.__name__)
def test_star_import_brings_the_api_alone(module):
    scope = {}
    exec(f"from {module.__name__} import *", scope)
    assert sorted(k for k in scope if k != "__builtins__") == sorted(module.__all__)


def test_the_imports_of_a_module_stay_out_of_its_surface():
    for leaked in ("np", "json", "math", "sp", "os", "ssl", "http", "time", "urllib"):
        for module in (client, device, server):
            assert leaked not in dir(module), (module.__name__, leaked)
    assert set(ldpgraph.__all__) == {"client", "device", "server", "BudgetExhausted"}
