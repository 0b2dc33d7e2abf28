"""Work spread over a Dask distributed cluster (`--cluster ADDRESS`): the same function of the
same items, each a task; results come back in the items' order, so a batch on a cluster gives
what it gives on one machine. No scheduler of our own: Dask places and retries the tasks.

Dask rather than Ray (docs/bots.md): pure Python on every platform the table runs on, a
scheduler and workers started by one command each (`dask scheduler`, `dask worker ADDRESS`)
or in process for tests, no dashboard or usage reporting unless asked, and the folder of logs
is all the tasks share."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class ClusterError(RuntimeError):
    """The cluster cannot be reached or used (the message says why and what to do)."""


def _client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--cluster needs Dask distributed: pip install 'sandtable[cluster]'"
                           ) from None
    try:
        return Client(address, timeout=20,  # type: ignore[no-untyped-call]
                      set_as_default=False)
    except (OSError, TimeoutError) as err:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {err}") from None


def workers(address: str) -> int:
    """How many workers the cluster has now."""
    client = _client(address)
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    finally:
        client.close()


def run(address: str, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
    """`fn(item)` for every item on the cluster's workers; results in the items' order, each
    as soon as it and those before it are done."""
    client = _client(address)
    try:
        futures = client.map(fn, list(items), pure=False)
        for future in futures:
            yield future.result()
    finally:
        client.close()


__all__ = ["ClusterError", "run", "workers"]
