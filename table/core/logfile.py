"""The append-only log: one file per peer per session.

Layout: the 8-byte magic `SANDLOG1`, then frames of [u32 length][u32 crc32][msgpack map]. The
first frame is the header (format version, table id, peer id, game module id and content hash,
creation time). Then one frame per record:
  WIRE                               an op, as its wire array (this peer's, written before it
                                     is sent; or received)
  {"op": WIRE, "private": {...}}     this peer's op with the secrets only it holds
  {"secret": {...}}                  secrets received privately from another peer
Frames are flushed as written, so a crash loses nothing that was shown. The CRC lets a reader
skip a damaged frame and keep every complete one; see docs/log-format.md.
"""
from __future__ import annotations

import os
import struct
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterator
from typing import Any, BinaryIO

import msgpack

from .errors import LogError

MAGIC = b"SANDLOG1"
FORMAT_VERSION = 1
MAX_RECORD = 16 * 1024 * 1024
_HEAD = 8
_FRAME = struct.Struct(">II")  # length, crc32 of the payload


def make_header(table_id: str, peer_id: str, game: str = "", game_hash: str = "",
                **extra: Any) -> dict[str, Any]:
    header = {"format": "sandtable-log", "version": FORMAT_VERSION, "table": table_id,
              "peer": peer_id, "game": game, "game_hash": game_hash,
              "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    header.update(extra)
    return header


class LogWriter:
    """Appends records to a log file, flushing each one."""

    def __init__(self, path: str | Path, header: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        exists = self.path.exists() and self.path.stat().st_size > 0
        if not exists and header is None:
            raise LogError(f"{self.path}: a new log needs a header")
        self._file: BinaryIO = open(self.path, "ab")
        if not exists:
            self._file.write(MAGIC)
            self.append(header or {})

    def append(self, record: Any) -> None:
        payload = msgpack.packb(record, use_bin_type=True)
        self._file.write(len(payload).to_bytes(4, "big") + zlib.crc32(payload).to_bytes(4, "big")
                         + payload)
        self._file.flush()

    def sync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self._file.flush()
            self._file.close()


@dataclass
class LogContents:
    path: Path
    header: dict[str, Any]
    records: list[Any] = field(default_factory=list)  # op arrays and maps
    problems: list[str] = field(default_factory=list)  # damaged or truncated frames, by position


class LogReader:
    """Reads a log's header at once and its records as a stream (a long log is never all in
    memory twice). Damaged frames and a truncated tail are reported in `problems`, not raised.

    Raises LogError only when the file is not a Sandtable log at all or has another version.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.problems: list[str] = []
        try:
            self._data = self.path.read_bytes()
        except OSError as err:
            raise LogError(f"{self.path}: cannot read: {err.strerror}") from None
        data = self._data
        if not data.startswith(MAGIC):
            if data[:7] == MAGIC[:7]:
                raise LogError(f"{self.path}: log format {data[7:8]!r} is not supported "
                               f"(this Sandtable reads format {FORMAT_VERSION})")
            raise LogError(f"{self.path}: not a Sandtable log (bad magic bytes)")
        self._frames = self._iter_frames()
        header = next(self._frames, None)
        if type(header) is not dict:
            raise LogError(f"{self.path}: no readable header record")
        if header.get("format") != "sandtable-log":
            raise LogError(f"{self.path}: record 1 is not a Sandtable log header")
        if header.get("version") != FORMAT_VERSION:
            raise LogError(f"{self.path}: log format version {header.get('version')!r} is not "
                           f"supported (this Sandtable reads version {FORMAT_VERSION})")
        self.header: dict[str, Any] = header

    def records(self) -> Iterator[Any]:
        """Every complete record after the header, in file order (once)."""
        return self._frames

    def _iter_frames(self) -> Iterator[Any]:
        data, path, problems = self._data, self.path, self.problems
        view = memoryview(data)
        unpackb, crc32, head, size = msgpack.unpackb, zlib.crc32, _FRAME.unpack_from, len(data)
        offset, number = len(MAGIC), 0
        while offset < size:
            number += 1
            if offset + _HEAD > size:
                problems.append(f"{path}: record {number} at byte {offset}: truncated frame "
                                f"header; stopped there")
                return
            length, crc = head(data, offset)
            start, end = offset + _HEAD, offset + _HEAD + length
            if length > MAX_RECORD or end > size:
                what = "truncated" if end > size and length <= MAX_RECORD else "damaged length"
                problems.append(f"{path}: record {number} at byte {offset}: {what}; stopped there")
                return
            payload = view[start:end]
            if crc32(payload) != crc:
                problems.append(f"{path}: record {number} at byte {offset}: checksum mismatch; "
                                f"skipped")
            else:
                try:
                    record = unpackb(payload, strict_map_key=True)
                except Exception as err:  # noqa: BLE001 - any decode failure is damage
                    problems.append(f"{path}: record {number} at byte {offset}: undecodable "
                                    f"({err}); skipped")
                else:
                    kind = type(record)
                    if kind is list or kind is dict:
                        yield record
                    else:
                        problems.append(f"{path}: record {number} at byte {offset}: neither "
                                        f"an op nor a map; skipped")
            offset = end


def read_log(path: str | Path) -> LogContents:
    """A whole log in memory: header, records, problems (see LogReader)."""
    reader = LogReader(path)
    records = list(reader.records())
    return LogContents(reader.path, reader.header, records, reader.problems)
