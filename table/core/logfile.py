"""The append-only log: one file per peer per session.

Layout: the 8-byte magic `SANDLOG1`, then frames of [u32 length][u32 crc32][msgpack map]. The
first frame is the header (format version, table id, peer id, game module id and content hash,
creation time); the second a copy of it (`{"header": {...}}`), so a damaged header costs
nothing. Then one frame per record:
  WIRE                               an op, as its wire array (this peer's, written before it
                                     is sent; or received)
  {"op": WIRE, "private": {...}}     this peer's op with the secrets only it holds
  {"secret": {...}}                  secrets received privately from another peer
  {"equivocation": [WIRE, WIRE]}     two versions of one (author, seq): its ops from there void
  {"flag": {"op": [a, s], ...}}      an op this peer flagged as private dice (audit fails)
Frames are flushed as written, so a crash loses nothing that was shown. The CRC lets a reader
skip a damaged frame and keep every complete one; see docs/log-format.md.
"""
from __future__ import annotations

import os
import struct
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
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
        # open for the writer's whole life (closed by close()), not for one block
        self._file: BinaryIO = open(self.path, "ab")  # noqa: SIM115 - see the line above
        if not exists:
            self._file.write(MAGIC)
            self.append(header or {})
            # the header again, as a record: the table id has no other source in the log, and
            # a damaged first frame would otherwise lose the session its place among its peers
            self.append({"header": header or {}})

    def append(self, record: Any) -> None:
        payload = msgpack.packb(record, use_bin_type=True)
        self._file.write(len(payload).to_bytes(4, "big") + zlib.crc32(payload).to_bytes(4, "big")
                         + payload)
        self._file.flush()

    def sync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    @property
    def closed(self) -> bool:
        return self._file.closed

    def close(self) -> None:
        if not self._file.closed:
            self._file.flush()
            self._file.close()


@dataclass(frozen=True, slots=True)
class Damage:
    """One stretch of a log that could not be read: which record, which bytes, why."""
    record: int  # the number the first lost record would have had (the header is 1)
    start: int  # byte offset where the damage begins
    end: int  # byte offset where reading resumed (the file size when it did not)
    what: str  # "checksum mismatch", "damaged length", "truncated", "undecodable", ...

    @property
    def lost_bytes(self) -> int:
        return self.end - self.start

    def describe(self) -> str:
        tail = "to the end of the file" if self.what.startswith("truncated") else \
            f"resumed at byte {self.end}"
        return (f"record {self.record} at byte {self.start}: {self.what}; bytes {self.start}-"
                f"{self.end} ({self.lost_bytes} byte(s)) lost, {tail}")


@dataclass
class LogContents:
    path: Path
    header: dict[str, Any]
    records: list[Any] = field(default_factory=list)  # op arrays and maps
    problems: list[str] = field(default_factory=list)  # damaged or truncated frames, by position
    damage: list[Damage] = field(default_factory=list)
    recovered: list[str] = field(default_factory=list)  # a damaged header's fields, from where


class LogReader:
    """Reads a log's header at once and its records as a stream (a long log is never all in
    memory twice). Damaged frames and a truncated tail are reported in `problems` (text) and
    `damage` (record number and bytes), not raised.

    After a damaged frame (bad checksum, a length that runs past the end or over the limit,
    bytes that do not decode) the reader resynchronises: it goes on at the first later byte
    where a whole frame's checksum holds, so one flipped byte costs one record, not the rest of
    the file. Raises LogError only when the file is not a Sandtable log at all or has another
    version.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.problems: list[str] = []
        self.damage: list[Damage] = []
        try:
            self._data = self.path.read_bytes()
        except IsADirectoryError:
            raise LogError(f"{self.path}: is a folder, not a log file") from None
        except FileNotFoundError:
            raise LogError(f"{self.path}: no such file") from None
        except OSError as err:
            raise LogError(f"{self.path}: cannot read: {err.strerror}") from None
        data = self._data
        if not data.startswith(MAGIC):
            self._damaged_magic()
        self._frames = self._iter_frames()
        self.recovered: list[str] = []  # header fields recovered from the records after it
        first = next(self._frames, None)
        if any(d.start <= len(MAGIC) < d.end for d in self.damage):  # the header's frame
            self.header: dict[str, Any] = self._recover_header(first)
            return
        if type(first) is not dict:
            raise LogError(f"{self.path}: no readable header record")
        if first.get("format") != "sandtable-log":
            raise LogError(f"{self.path}: record 1 is not a Sandtable log header")
        if first.get("version") != FORMAT_VERSION:
            raise LogError(f"{self.path}: log format version {first.get('version')!r} is not "
                           f"supported (this Sandtable reads version {FORMAT_VERSION})")
        self.header = first

    def _damaged_magic(self) -> None:
        """Magic bytes that are not `SANDLOG1`: another format, a file that is no log, or a
        log whose first bytes were overwritten. Only the records can tell: when they read as
        this format's (its header, or ops), the log is read on and the magic noted as damage."""
        data = self._data
        why, _end, first = self._frame_at(len(MAGIC))
        header = first if why == "ok" and type(first) is dict else None
        if header is not None and header.get("format") == "sandtable-log":
            if header.get("version") != FORMAT_VERSION:
                raise LogError(f"{self.path}: log format version {header.get('version')!r} is "
                               f"not supported (this Sandtable reads version {FORMAT_VERSION})")
        elif not self._records_follow():
            if data[:7] == MAGIC[:7]:
                raise LogError(f"{self.path}: log format {data[7:8]!r} is not supported "
                               f"(this Sandtable reads format {FORMAT_VERSION})")
            raise LogError(f"{self.path}: not a Sandtable log (bad magic bytes)")
        damage = Damage(0, 0, len(MAGIC), "damaged magic bytes (the records after them read)")
        self.damage.append(damage)
        self.problems.append(f"{self.path}: {damage.describe()}")

    def _records_follow(self, most: int = 8) -> bool:
        """Whether the first sound frames after the magic (and a damaged header) are this
        format's records: a header copy, or ops in their wire form."""
        offset = self._resync(len(MAGIC) - 1)
        for _ in range(most):
            if offset is None:
                return False
            _why, end, record = self._frame_at(offset)
            if record is None:
                return False
            if type(record) is dict and isinstance(record.get("header"), dict) and \
                    record["header"].get("format") == "sandtable-log":
                return True
            wire = record.get("op") if type(record) is dict else record
            if type(wire) is list and len(wire) == 9 and isinstance(wire[0], str) \
                    and isinstance(wire[3], str):
                return True
            offset = end
        return False

    def _recover_header(self, first: Any) -> dict[str, Any]:
        """A damaged header costs its own fields, not the session: they are rebuilt from the
        records that follow (the module op names the game and its hash, this peer's private
        records its id); only the table id has no second source, so it is read from the damaged
        bytes when they still decode, else left unknown."""
        from .header_recovery import recover_header

        records = ([] if first is None else [first]) + list(self._frames)
        if not records:
            raise LogError(f"{self.path}: no readable header record, and no record after it")
        self._frames = iter(records)
        damage = next(d for d in self.damage if d.start <= len(MAGIC) < d.end)
        header, self.recovered = recover_header(records, self._data[len(MAGIC):damage.end])
        header.setdefault("version", FORMAT_VERSION)
        self.problems.append(f"{self.path}: the header was damaged; "
                             + "; ".join(self.recovered))
        return header

    @property
    def size(self) -> int:
        return len(self._data)

    def records(self) -> Iterator[Any]:
        """Every complete record after the header, in file order (once)."""
        return self._frames

    def _frame_at(self, offset: int) -> tuple[str, int, Any]:
        """("ok", end, record) for a good frame at `offset`, else (why, end-or-0, None)."""
        data = self._data
        size = len(data)
        if offset + _HEAD > size:
            return "truncated frame header", 0, None
        length, crc = _FRAME.unpack_from(data, offset)
        end = offset + _HEAD + length
        if length > MAX_RECORD:
            return "damaged length", 0, None
        if end > size:
            return "truncated or damaged length", 0, None
        payload = memoryview(data)[offset + _HEAD:end]
        if zlib.crc32(payload) != crc:
            return "checksum mismatch", end, None
        try:
            record = msgpack.unpackb(payload, strict_map_key=True)
        except Exception as err:
            return f"undecodable ({err})", end, None
        if type(record) is not list and type(record) is not dict:
            return "neither an op nor a map", end, None
        return "ok", end, record

    def _resync(self, offset: int) -> int | None:
        """The first byte after `offset` where a frame whose checksum holds begins."""
        data, size, head, crc32 = self._data, len(self._data), _FRAME.unpack_from, zlib.crc32
        view = memoryview(data)
        pos = offset + 1
        while pos + _HEAD <= size:
            length, crc = head(data, pos)
            end = pos + _HEAD + length
            # an empty payload is never a record, and zeroed bytes would pass as one (the CRC
            # of nothing is 0): every byte of a zeroed block would be a frame of its own
            if 0 < length <= MAX_RECORD and end <= size and \
                    crc32(view[pos + _HEAD:end]) == crc and self._frame_at(pos)[0] == "ok":
                return pos
            pos += 1
        return None

    def _iter_frames(self) -> Iterator[Any]:
        data = self._data
        size, view = len(data), memoryview(data)
        head, crc32, unpack = _FRAME.unpack_from, zlib.crc32, msgpack.unpackb
        offset, number = len(MAGIC), 0
        while offset < size:
            number += 1
            if offset + _HEAD <= size:  # a sound frame, read here (once per record of a log)
                length, crc = head(data, offset)
                end = offset + _HEAD + length
                payload = view[offset + _HEAD:end]
                if length <= MAX_RECORD and end <= size and crc32(payload) == crc:
                    try:  # msgpack >= 1.0 takes only str and bytes map keys by default
                        record = unpack(payload)  # (strict_map_key): no keyword to parse
                    except Exception:  # damage: _frame_at below says what it is
                        record = None
                    if type(record) is list or type(record) is dict:
                        yield record
                        offset = end
                        continue
            why, end, record = self._frame_at(offset)  # not sound: what is wrong with it
            if why == "ok":
                yield record
                offset = end
                continue
            # a frame with a plausible length whose successor is sound: only it is lost
            if end and (end == size or self._frame_at(end)[0] == "ok"):
                resume: int | None = end
            else:
                resume = self._resync(offset)
            self._lose(number, offset, resume if resume is not None else size, why)
            if resume is None:
                return
            offset = resume

    def _lose(self, number: int, start: int, end: int, why: str) -> None:
        if end >= len(self._data) and why.startswith("truncated or"):
            why = "truncated"
        last = self.damage[-1] if self.damage else None
        if last is not None and last.end == start:  # one damaged stretch, one note
            self.damage[-1] = Damage(last.record, last.start, end, last.what)
            self.problems[-1] = f"{self.path}: {self.damage[-1].describe()}"
            return
        damage = Damage(number, start, end, why)
        self.damage.append(damage)
        self.problems.append(f"{self.path}: {damage.describe()}")


def read_log(path: str | Path) -> LogContents:
    """A whole log in memory: header, records, problems (see LogReader)."""
    reader = LogReader(path)
    records = list(reader.records())
    return LogContents(reader.path, reader.header, records, reader.problems, reader.damage,
                       reader.recovered)
