"""Monte Carlo chunks on a Dask cluster: the only module that imports dask.

`dask_results` runs the chunks `montecarlo.simulate` plans on an existing cluster (by its
scheduler's address), on a LocalCluster it starts, or through a `distributed.Client` it is
handed. Each chunk travels as data (game text, bet, seed, chunk id, rounds); a worker compiles
the game once and returns `Stats`. At most a few chunks per worker thread are in flight, so
a 1e10-round run never holds 1e5 futures. When a worker dies, the scheduler reruns its
chunks; `simulate` merges each chunk id once, so nothing is counted twice.

dask and distributed are an optional extra, imported inside the functions: a plain local run
never pays for them, and an install without them says in one line which extra to add. Workers
need this same reelforge installed (checked on connecting), not the game file.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import uuid
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from typing import Any

from reelforge import __version__
from reelforge.analysis.montecarlo import IN_FLIGHT_PER_WORKER, Chunk, run_chunk
from reelforge.analysis.stats import Stats
from reelforge.errors import InvalidArgument, ReelforgeError

CONNECT_SECONDS = 10
CONNECT_TIMEOUT = f"{CONNECT_SECONDS}s"
MISSING = "Dask runs need the optional extra 'distributed': pip install 'reelforge[distributed]'"


def _distributed():
    """The `distributed` package, or one line naming the extra that installs it."""
    try:
        import distributed
    except ImportError:
        raise ReelforgeError(MISSING) from None
    return distributed


def dask_results(chunks: Iterator[Chunk], cluster: Any, workers: int | None = None
                 ) -> Generator[tuple[int, Stats], None, None]:
    """(chunk id, Stats) as chunks finish on Dask; see `montecarlo.simulate` for `cluster`.

    A chunk the cluster reruns (a worker died after finishing it) may come back twice; the
    caller keeps the first.
    """
    distributed = _distributed()
    with _client(distributed, cluster, workers) as client:
        _check_workers(client)
        yield from _bounded(distributed, client, chunks)


@contextmanager
def local_client(workers: int | None = None):
    """A Client of a LocalCluster on loopback: `workers` processes (default: one per core),
    one thread each, like the process pool; both closed on exit."""
    distributed = _distributed()

    with _children_ignore_ctrl_c():
        cluster = distributed.LocalCluster(
            n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
            host="127.0.0.1", dashboard_address=":0", silence_logs=logging.ERROR)
    with cluster, distributed.Client(cluster, set_as_default=False) as client:
        yield client


@contextmanager
def _children_ignore_ctrl_c():
    """Processes started inside inherit an ignored SIGINT (kept across exec, and Python then
    installs no handler): Ctrl-C reaches only this process, which saves and closes the cluster."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _client(distributed, cluster: Any, workers: int | None):
    if isinstance(cluster, distributed.Client):
        yield cluster  # the caller's: left open
        return
    if cluster == "local":
        with local_client(workers) as client:
            yield client
        return
    if not isinstance(cluster, str):
        raise InvalidArgument(f"cluster = {cluster!r}: not 'local', a scheduler address or a Client")
    _probe(cluster)
    try:
        client = distributed.Client(cluster, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise InvalidArgument(f"--scheduler = {cluster!r}: cannot connect ({_first_line(exc)})") from None
    with client:
        yield client


def _probe(address: str) -> None:
    """Fail in one line, at once, on a malformed or refused TCP address.

    A Client whose connection failed cannot be closed cleanly: at exit it waits seconds and
    prints a traceback. A plain socket finds the common failures first.
    """
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme not in ("tcp", "tls"):
            return  # other transports: the Client reports
        host, port = parse_host_port(location)
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except (OSError, ValueError, TypeError) as exc:
        raise InvalidArgument(f"--scheduler = {address!r}: cannot connect ({_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


def _engine_version() -> str:
    """Runs on each worker: the reelforge it would play chunks with."""
    import reelforge

    return reelforge.__version__


def _check_workers(client) -> None:
    """Refuse workers without this reelforge: another engine could play other rounds."""
    try:
        versions = client.run(_engine_version)
    except Exception as exc:  # noqa: BLE001 - a worker without reelforge fails to unpickle the check
        raise ReelforgeError(f"Dask workers cannot run reelforge {__version__} "
                             f"({_first_line(exc)}); install it on every worker") from None
    wrong = {addr: v for addr, v in versions.items() if v != __version__}
    if wrong:
        addr, v = next(iter(wrong.items()))
        raise ReelforgeError(f"Dask worker {addr} runs reelforge {v}, this is {__version__}: "
                             f"{len(wrong)} worker(s) would play other rounds")


def _window(client) -> int:
    """Chunks to keep in flight: IN_FLIGHT_PER_WORKER per worker thread, at least two."""
    threads = sum(client.nthreads().values())
    return max(IN_FLIGHT_PER_WORKER * threads, 2)


def _bounded(distributed, client, chunks: Iterator[Chunk]) -> Iterator[tuple[int, Stats]]:
    run = uuid.uuid4().hex  # keys unique to this run: a cancelled key is never resubmitted
    running: dict[Any, int] = {}  # future -> chunk id
    finished = distributed.as_completed(loop=client.loop)

    def fill(window: int) -> None:
        while len(running) < window:
            chunk = next(chunks, None)
            if chunk is None:
                return
            future = client.submit(run_chunk, chunk, key=f"reelforge-chunk-{chunk.index}-{run}")
            running[future] = chunk.index
            finished.add(future)

    window = _window(client)
    fill(window)
    try:
        for count, future in enumerate(finished, 1):
            index = running.pop(future)
            try:
                stats = future.result()
            except ReelforgeError:
                raise
            except Exception as exc:  # noqa: BLE001 - KilledWorker, lost scheduler...: one line
                raise ReelforgeError(f"chunk {index} failed on the Dask cluster "
                                     f"({_first_line(exc)})") from None
            del future  # the scheduler may forget the result once merged
            if count % window == 0:
                window = _window(client)  # workers may have joined or left
            fill(window)
            yield index, stats
    finally:
        if running:
            client.cancel(list(running))
