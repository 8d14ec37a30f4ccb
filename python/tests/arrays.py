"""The array libraries the tests run mergepath on, behind one interface: numpy and torch on the
CPU (the host backend), CuPy and torch on a GPU (the CUDA backend).

An ArrayLib gives: name (the module: "numpy", "torch" or "cupy"), on_gpu, dev(numpy array) -> an
array of the library (a copy), host(array) -> a numpy array, is_mine(array); on a GPU also
stream(), use(stream), synchronize(), address(array) and device_count()."""

import numpy as np
import pytest

import mergepath as mp

HOST_LIBS = ["numpy", "torch"]
GPU_LIBS = ["cupy", "torch-cuda"]


class ArrayLib:
    def __init__(self, param):
        self.param = param
        self.name = "torch" if param.startswith("torch") else param
        self.on_gpu = param in GPU_LIBS
        self.m = pytest.importorskip(self.name)
        if self.on_gpu:
            self._require_gpu()

    def _require_gpu(self):
        if self.name == "cupy":
            try:
                count = self.m.cuda.runtime.getDeviceCount()
            except Exception:  # no driver
                count = 0
            if count == 0:
                pytest.skip("no GPU")
        else:
            if not self.m.cuda.is_available():
                pytest.skip("no GPU")
            if not hasattr(self.m, "uint64"):
                pytest.skip("torch without uint32/uint64")
        if not mp.cuda_built():
            pytest.skip("mergepath built without CUDA")

    def dev(self, x, device=0):
        x = np.array(x)  # a copy: in-place calls write it, not the caller's
        if self.name == "numpy":
            return x
        if self.name == "cupy":
            with self.m.cuda.Device(device):
                return self.m.asarray(x)
        t = self.m.from_numpy(np.ascontiguousarray(x))
        return t.to(f"cuda:{device}") if self.on_gpu else t

    def host(self, x):
        if self.name == "numpy":
            return np.asarray(x)
        if self.name == "cupy":
            return self.m.asnumpy(x)
        return x.cpu().numpy()

    def is_mine(self, x, device=0):
        if self.name == "numpy":
            return isinstance(x, np.ndarray)
        if self.name == "cupy":
            return isinstance(x, self.m.ndarray) and x.device.id == device
        if not isinstance(x, self.m.Tensor):
            return False
        if not self.on_gpu:
            return x.device.type == "cpu"
        return x.device.type == "cuda" and x.device.index == device

    def stream(self):
        if self.name == "cupy":
            return self.m.cuda.Stream(non_blocking=True)
        return self.m.cuda.Stream()

    def use(self, stream):
        return stream if self.name == "cupy" else self.m.cuda.stream(stream)

    def synchronize(self):
        if self.name == "cupy":
            self.m.cuda.get_current_stream().synchronize()
            self.m.cuda.Device().synchronize()
        else:
            self.m.cuda.synchronize()

    def address(self, x):
        return x.data.ptr if self.name == "cupy" else x.data_ptr()

    def device_count(self):
        if self.name == "cupy":
            return self.m.cuda.runtime.getDeviceCount()
        return self.m.cuda.device_count()
