import os
import sys
import zlib

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from arrays import GPU_LIBS, HOST_LIBS, ArrayLib  # noqa: E402


@pytest.fixture(params=HOST_LIBS + GPU_LIBS)
def lib(request):
    """Every array library, each on the backend it runs on."""
    return ArrayLib(request.param)


@pytest.fixture
def rng(request):
    seed = 2024 + zlib.crc32(request.node.name.encode()) % 10000
    print(f"seed {seed}")
    return np.random.default_rng(seed)
