"""Lighter glue for the iroh binding's arguments and results (the same bytes, the same calls).

The generated binding (uniffi) copies every bytes argument into Rust memory one byte at a time,
in Python (about 0.2 us a byte), after a 4-byte length written the same way into a buffer it
then grows; reads bytes back through a stream object and two context managers; and builds each
call's status record field by field. :func:`lighten_binding` makes the same buffers, laid out
the same way (a big-endian i32 length, then the bytes), with one allocation and one copy, reads
them with one slice, and makes a status record zeroed as the binding's own default is. Left
alone for a binding built otherwise.
"""
from __future__ import annotations

import ctypes
import struct
from typing import Any

import iroh

_LENGTH = 4  # a bytes value in a Rust buffer: its length first, in this many bytes


def lighten_binding() -> None:
    """Install the lighter glue (once per process)."""
    ffi = getattr(iroh, "iroh_ffi", None)
    builder = getattr(ffi, "_UniffiRustBufferBuilder", None)
    converter = getattr(ffi, "_UniffiFfiConverterBytes", None)
    rust_buffer = getattr(ffi, "_UniffiRustBuffer", None)
    status = getattr(ffi, "_UniffiRustCallStatus", None)
    if builder is None or converter is None or rust_buffer is None or status is None \
            or getattr(converter, "fast_copy", False) or not hasattr(builder, "_reserve") \
            or not all(hasattr(rust_buffer, name) for name in ("alloc", "free", "data")) \
            or getattr(status, "CALL_SUCCESS", None) != 0:
        return
    internal_error = getattr(ffi, "InternalError", RuntimeError)
    data_at = rust_buffer.data.offset  # where a buffer record holds its bytes' address

    def address(rbuf: Any) -> int:
        return int(struct.unpack_from("P", rbuf, data_at)[0])

    def write(self: Any, value: bytes) -> None:  # a bytes value inside a larger argument
        n = len(value)
        with self._reserve(n):
            ctypes.memmove(address(self.rbuf) + self.rbuf.len, bytes(value), n)

    def lower(value: bytes) -> Any:  # a bytes argument
        n = len(value)
        rbuf = rust_buffer.alloc(_LENGTH + n)
        ctypes.memmove(address(rbuf), n.to_bytes(_LENGTH, "big") + bytes(value), _LENGTH + n)
        rbuf.len = _LENGTH + n
        return rbuf

    def lift(rbuf: Any) -> bytes:  # a bytes result
        try:
            size = rbuf.len
            n = int.from_bytes(rbuf.data[0:_LENGTH], "big", signed=True) \
                if size >= _LENGTH else -1
            if n < 0 or _LENGTH + n != size:
                raise internal_error(f"bad bytes buffer from Rust ({size} bytes, length {n})")
            return bytes(rbuf.data[_LENGTH:size])
        finally:
            rbuf.free()

    builder.write = write
    converter.lower = staticmethod(lower)
    converter.lift = staticmethod(lift)
    converter.fast_copy = True
    status.default = staticmethod(status)  # ctypes zeroes it: CALL_SUCCESS, an empty buffer
