"""Array adapters: what mergepath needs from each array library.

numpy arrays (and CPU torch tensors) run on the host backend; CuPy arrays and CUDA torch
tensors run on their device, on the library's current stream. Other GPU arrays that speak
DLPack (JAX, ...) are viewed as CuPy arrays (zero-copy) and the results handed back through
their library's ``from_dlpack``.
"""

import sys

import numpy as np

from . import _core

# The element types mergepath instantiates, by numpy name.
DTYPE_NAMES = ("int32", "int64", "uint32", "uint64", "float32", "float64")
_CODES = {name: getattr(_core.DType, name) for name in DTYPE_NAMES}
_NP_CODES = {np.dtype(name): code for name, code in _CODES.items()}
_NP_NAMES = {np.dtype(name): name for name in DTYPE_NAMES}  # dtype.name costs microseconds
INTEGER_NAMES = ("int32", "int64", "uint32", "uint64")


def _unsupported(where, name, dtype):
    return TypeError(
        f"mergepath.{where}: {name} has dtype {dtype}, which mergepath does not support "
        f"(supported: {', '.join(DTYPE_NAMES)})"
    )


class _Adapter:
    """One array library: its arrays' dtype, device, address, and how to make new ones."""

    name = "?"

    def device(self, x):  # -1: host memory
        raise NotImplementedError

    def stream(self, device):
        return 0

    def dtype_name(self, x):  # numpy-style name, or None if not one mergepath knows
        raise NotImplementedError

    def np_dtype(self, x):  # the numpy dtype of x's elements (any dtype), or None where numpy has none
        return x.dtype

    def sum_dtype(self, dtype):
        """The dtype of a sum or product of dtype's values, as the library's own sum gives it:
        numpy's np.sum (and CuPy's) takes integers in 64 bits, signed ones and bools as int64,
        unsigned ones as uint64; floats keep their dtype."""
        if dtype.kind in "bi":
            return np.dtype(np.int64)
        if dtype.kind == "u":
            return np.dtype(np.uint64)
        return dtype

    def nbytes(self, x):
        return x.nbytes

    def min_max(self, x):  # (min, max) of a non-empty integer array as Python ints, one read-back
        raise NotImplementedError

    def contiguous(self, x):
        raise NotImplementedError

    def is_contiguous(self, x):
        raise NotImplementedError

    def address(self, x):
        raise NotImplementedError

    def empty(self, n, dtype_name, device):
        raise NotImplementedError

    def copy(self, x):
        raise NotImplementedError

    def astype(self, x, dtype_name):
        raise NotImplementedError

    def asarray(self, obj, dtype_name, device):
        raise NotImplementedError

    def writeable(self, x):
        return True

    def wrap_result(self, template, x):
        return x

    def borrow(self, view, device):  # an array over a _BorrowedInt64 view's memory, no copy
        raise NotImplementedError

    def stream_object(self, device):  # the Python object of the current stream (GPU libraries)
        return None


class _FreedOnStream:
    """Owns device memory that is freed stream-ordered on the stream that made it, together with
    that stream's Python object: the stream outlives the free (a CuPy stream is destroyed with its
    object, and a free on a destroyed stream is undefined)."""

    __slots__ = ("owner", "stream")

    def __init__(self, owner, stream):
        self.owner, self.stream = owner, stream

    def __del__(self):
        self.owner = None  # the memory goes first, while self.stream still holds its stream


class _BorrowedInt64:
    """n int64 in mergepath's memory, shown through numpy's or CUDA's array interface; the arrays
    made from it hold it, and it holds the memory's owner."""

    def __init__(self, owner, address, n, on_gpu):
        self.owner = owner
        interface = {"shape": (n,), "typestr": "<i8", "data": (address, False), "strides": None}
        if on_gpu:
            self.__cuda_array_interface__ = dict(interface, version=2)  # no stream: made on the caller's
        else:
            self.__array_interface__ = dict(interface, version=3)


class _Numpy(_Adapter):
    name = "numpy"

    def device(self, x):
        return -1

    def dtype_name(self, x):
        name = _NP_NAMES.get(x.dtype)
        if name is None and not x.dtype.isnative:
            name = _NP_NAMES.get(x.dtype.newbyteorder("="))
        return name

    def np_dtype(self, x):
        return x.dtype if x.dtype.isnative else x.dtype.newbyteorder("=")

    def min_max(self, x):
        return int(x.min()), int(x.max())

    def contiguous(self, x):
        if not x.dtype.isnative:
            x = x.astype(x.dtype.newbyteorder("="))
        return np.ascontiguousarray(x)

    def is_contiguous(self, x):
        return x.flags.c_contiguous and x.dtype.isnative

    def address(self, x):
        return x.__array_interface__["data"][0]

    def empty(self, n, dtype_name, device):
        return np.empty(n, dtype=dtype_name)

    def copy(self, x):
        return np.array(x, copy=True, order="C")

    def astype(self, x, dtype_name):
        return x.astype(dtype_name)

    def asarray(self, obj, dtype_name, device):
        return np.asarray(obj, dtype=dtype_name)

    def borrow(self, view, device):
        return np.asarray(view)

    def writeable(self, x):
        return x.flags.writeable


class _Cupy(_Adapter):
    name = "cupy"

    def __init__(self):
        import cupy

        self.cp = cupy

    def device(self, x):
        return x.device.id

    def stream(self, device):
        with self.cp.cuda.Device(device):
            return self.cp.cuda.get_current_stream().ptr

    def stream_object(self, device):
        with self.cp.cuda.Device(device):
            return self.cp.cuda.get_current_stream()

    def dtype_name(self, x):
        return _NP_NAMES.get(x.dtype)

    def min_max(self, x):
        with self.cp.cuda.Device(x.device.id):
            lo, hi = self.cp.stack([x.min(), x.max()]).get().tolist()
        return int(lo), int(hi)

    def contiguous(self, x):
        with self.cp.cuda.Device(x.device.id):
            return self.cp.ascontiguousarray(x)

    def is_contiguous(self, x):
        return x.flags.c_contiguous

    def address(self, x):
        return x.data.ptr

    def empty(self, n, dtype_name, device):
        with self.cp.cuda.Device(device):
            return self.cp.empty(n, dtype=dtype_name)

    def copy(self, x):
        with self.cp.cuda.Device(x.device.id):
            return self.cp.array(x, copy=True, order="C")

    def astype(self, x, dtype_name):
        with self.cp.cuda.Device(x.device.id):
            return x.astype(dtype_name)

    def asarray(self, obj, dtype_name, device):
        with self.cp.cuda.Device(device):
            return self.cp.asarray(obj, dtype=dtype_name)

    def borrow(self, view, device):
        with self.cp.cuda.Device(device):
            return self.cp.asarray(view)


class _Torch(_Adapter):
    name = "torch"

    def __init__(self):
        import torch

        self.torch = torch
        names = {}
        for name in DTYPE_NAMES:
            t = getattr(torch, name, None)  # uint32 / uint64 exist from torch 2.3
            if t is not None:
                names[t] = name
        self.names = names
        numpy_types = {}  # every torch dtype numpy has (bfloat16 and the like have none)
        for name in ("bool", "uint8", "int8", "int16", "uint16", "float16", "complex64", "complex128") + DTYPE_NAMES:
            t = getattr(torch, name, None)
            if t is not None:
                numpy_types[t] = np.dtype(name)
        self.numpy_types = numpy_types
        self.types = {d.name: t for t, d in numpy_types.items()}

    def device(self, x):
        if x.is_cuda:
            return x.get_device()  # no torch.device object: a few tenths of a us per call
        if x.device.type == "cpu":
            return -1
        raise ValueError(f"mergepath: torch tensors on '{x.device.type}' are not supported (cpu or cuda only)")

    def stream(self, device):
        raw = getattr(self.torch._C, "_cuda_getCurrentRawStream", None)  # no Stream object: ~1 us
        if raw is not None:
            return raw(device)
        return self.torch.cuda.current_stream(device).cuda_stream

    def dtype_name(self, x):
        return self.names.get(x.dtype)

    def np_dtype(self, x):
        return self.numpy_types.get(x.dtype)

    def sum_dtype(self, dtype):
        # torch.sum and torch.prod give int64 for every integer dtype and bool (uint64 too).
        return np.dtype(np.int64) if dtype.kind in "biu" else dtype

    def nbytes(self, x):
        return x.numel() * x.element_size()

    def min_max(self, x):
        if x.dtype not in (self.torch.int64, self.torch.int32, self.torch.int16, self.torch.int8, self.torch.uint8):
            x = x.to(self.torch.int64)  # torch has no min / max of uint16, uint32, uint64
        lo, hi = self.torch.stack([x.min(), x.max()]).tolist()
        return int(lo), int(hi)

    def contiguous(self, x):
        return x.contiguous()

    def is_contiguous(self, x):
        return x.is_contiguous()

    def address(self, x):
        return x.data_ptr()

    def _device(self, device):
        return self.torch.device("cpu") if device < 0 else self.torch.device("cuda", device)

    def empty(self, n, dtype_name, device):
        return self.torch.empty(n, dtype=self.types[dtype_name], device=self._device(device))

    def copy(self, x):  # x is contiguous already
        return x.detach().clone() if x.requires_grad else x.clone()

    def astype(self, x, dtype_name):
        return x.to(self.types[dtype_name])

    def asarray(self, obj, dtype_name, device):
        return self.torch.as_tensor(obj, dtype=self.types[dtype_name], device=self._device(device))

    def borrow(self, view, device):
        if device < 0:  # torch reads no __array_interface__: through numpy, which keeps the view alive
            return self.torch.from_numpy(np.asarray(view))
        return self.torch.as_tensor(view, device=self._device(device))

    def stream_object(self, device):
        return self.torch.cuda.current_stream(device)


class _Foreign(_Cupy):
    """A GPU array of another library (JAX, ...): viewed through CuPy, results handed back."""

    def __init__(self, module):
        super().__init__()
        if module.__name__ == "jaxlib" and "jax" in sys.modules:
            module = sys.modules["jax"]  # jax arrays are jaxlib types; from_dlpack lives in jax
        self.module = module
        self.name = module.__name__

    def device(self, x):
        if hasattr(x, "__dlpack_device__"):
            return int(x.__dlpack_device__()[1])
        return self.cp.asarray(x).device.id

    def wrap_result(self, template, x):
        for owner in (getattr(self.module, "dlpack", None), getattr(self.module, "numpy", None), self.module):
            from_dlpack = getattr(owner, "from_dlpack", None) if owner is not None else None
            if from_dlpack is not None:
                return from_dlpack(x)
        return x


_adapters = {}


def _adapter(key, make):
    a = _adapters.get(key)
    if a is None:
        a = _adapters[key] = make()
    return a


_by_type = {}  # array types whose adapter their type alone decides (numpy, CuPy, torch)


def adapter_for(x):
    """The adapter of an array object, or None for non-arrays (lists, Python and numpy scalars)."""
    a = _by_type.get(type(x))
    if a is not None:
        return a
    if isinstance(x, np.generic):  # a numpy scalar is a value, as a Python number is: it joins any library
        return None
    if isinstance(x, np.ndarray):
        a = _by_type[type(x)] = _adapter("numpy", _Numpy)
        return a
    module = type(x).__module__.split(".")[0]
    if module == "cupy":
        a = _by_type[type(x)] = _adapter("cupy", _Cupy)
        return a
    if module == "torch" and "torch" in sys.modules and isinstance(x, sys.modules["torch"].Tensor):
        a = _by_type[type(x)] = _adapter("torch", _Torch)
        return a
    if hasattr(x, "__cuda_array_interface__") or _dlpack_on_cuda(x):
        try:
            return _adapter(module, lambda: _Foreign(sys.modules[module]))
        except ImportError:
            raise TypeError(
                f"mergepath: {type(x).__module__}.{type(x).__name__} GPU arrays are read through CuPy, "
                "which is not installed"
            ) from None
    if hasattr(x, "__array_interface__") or hasattr(x, "__array__"):
        return _adapter("numpy", _Numpy)
    return None


def _dlpack_on_cuda(x):
    f = getattr(x, "__dlpack_device__", None)
    if f is None:
        return False
    try:
        return int(f()[0]) in (2, 3, 13)  # kDLCUDA, kDLCUDAHost, kDLCUDAManaged
    except Exception:
        return False


def to_cupy(adapter, x):
    """A foreign GPU array as a zero-copy CuPy view."""
    if isinstance(adapter, _Foreign):
        return adapter.cp.from_dlpack(x) if hasattr(x, "__dlpack__") else adapter.cp.asarray(x)
    return x
