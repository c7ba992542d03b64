"""Monte Carlo on a real Dask LocalCluster (2 worker processes, loopback, one thread each):
the same Stats as the process pool, a killed worker changes nothing, checkpoints resume
exactly; and the `simulate` command's cluster and checkpoint options."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from reelforge.analysis.checkpoint import (
    FinishedChunks,
    RunIdentity,
    load_checkpoint,
    stats_from_json,
)
from reelforge.analysis.distributed import MISSING, local_client
from reelforge.analysis.montecarlo import simulate
from reelforge.cli import app
from reelforge.errors import InvalidArgument, ReelforgeError
from reelforge.games import make

GAME = "cluedo-v1"
BET = make(GAME).max_bet
ROUNDS, CHUNK, SEED = 4_000_000, 250_000, 7  # 16 chunks
KILLED_CHUNK = 5


def run(**kwargs):
    return simulate(GAME, BET, ROUNDS, SEED, CHUNK, **kwargs)


@pytest.fixture(scope="module")
def client():
    """2 worker processes on loopback, one thread each: what `--dask --workers 2` starts."""
    with local_client(2) as c:
        c.wait_for_workers(2, timeout=60)
        yield c


@pytest.fixture(scope="module")
def pool_stats():
    """The reference: the local process pool, 2 workers."""
    return run(workers=2)


@pytest.mark.slow
def test_dask_equals_the_process_pool_and_one_process(client, pool_stats):
    assert run(cluster=client) == pool_stats
    assert run(workers=1) == pool_stats
    assert pool_stats.rounds == ROUNDS


@pytest.mark.slow
def test_a_local_cluster_of_one_worker_equals_two(pool_stats):
    assert run(cluster="local", workers=1) == pool_stats


@pytest.mark.slow
def test_a_worker_killed_mid_chunk_is_recomputed_and_counted_once(client, pool_stats, tmp_path):
    """The fault at a defined point, not raced against a timer: the first worker to start
    chunk KILLED_CHUNK SIGKILLs itself before playing it, so that chunk (and whatever else the
    worker held) must be played again elsewhere."""
    marker = tmp_path / "killed"

    def arm(marker: str, index: int) -> None:  # runs in each worker; a local function travels by value
        import os
        import signal

        from reelforge.analysis import montecarlo

        real = montecarlo.chunk_generator

        def dying(seed, i):
            if i == index:
                try:  # the marker is created once across all workers: one death, then real play
                    fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                except FileExistsError:
                    pass
                else:
                    os.write(fd, str(os.getpid()).encode())
                    os.close(fd)
                    os.kill(os.getpid(), signal.SIGKILL)
            return real(seed, i)

        montecarlo.chunk_generator = dying

    def disarm() -> None:
        from reelforge.analysis import montecarlo
        from reelforge.engine import rng

        montecarlo.chunk_generator = rng.chunk_generator

    pids = {pid: addr for addr, pid in client.run(os.getpid).items()}
    client.run(arm, str(marker), KILLED_CHUNK)
    seen = []
    try:
        stats = run(cluster=client, progress=seen.append)
    finally:
        client.run(disarm)
    killed = int(marker.read_text())  # the fault fired, in one of the two workers
    assert stats == pool_stats
    assert stats.rounds == ROUNDS == sum(seen)
    assert len(seen) == ROUNDS // CHUNK  # one progress step per chunk, none repeated
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it, at a new address
    assert pids[killed] not in client.nthreads()
    assert killed not in client.run(os.getpid).values()


@pytest.mark.slow
def test_dask_keeps_a_bounded_number_of_chunks_in_flight(client, monkeypatch):
    from test_montecarlo import count_drawn

    from reelforge.analysis.montecarlo import IN_FLIGHT_PER_WORKER

    drawn, finished, most = count_drawn(monkeypatch), [], [0]

    def progress(rounds):
        finished.append(rounds)
        most[0] = max(most[0], drawn[0] - len(finished))

    stats = simulate(GAME, BET, 400_000, SEED, 10_000, cluster=client, progress=progress)
    assert stats.rounds == 400_000 and len(finished) == 40
    assert most[0] <= IN_FLIGHT_PER_WORKER * 2


@pytest.mark.slow
def test_workers_get_the_game_as_text_not_the_file(client, tmp_path):
    from test_montecarlo import TINY

    from reelforge.analysis.montecarlo import GameText

    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    text = GameText.load(str(path))
    path.unlink()  # the spawned workers could not read it now
    bet = make_bet(text)
    local = simulate(text, bet, 60_000, SEED, 10_000, workers=1)
    assert simulate(text, bet, 60_000, SEED, 10_000, cluster=client) == local


def make_bet(text):
    from reelforge.analysis.montecarlo import compiled

    return compiled(text).max_bet


class Stop(Exception):
    """Raised from the progress callback: a run interrupted after some chunks."""


def stop_after(k: int):
    seen = []

    def progress(rounds):
        seen.append(rounds)
        if len(seen) == k:
            raise Stop

    return progress


@pytest.mark.slow
def test_interrupted_then_resumed_equals_uninterrupted(client, pool_stats, tmp_path):
    path = tmp_path / "run.json"
    with pytest.raises(Stop):
        run(cluster=client, checkpoint=path, progress=stop_after(5))
    saved = json.loads(path.read_text())
    assert saved["chunks_done"] == 5 and saved["rounds_done"] == 5 * CHUNK
    resumed = []
    stats = run(cluster=client, checkpoint=path, resume=True, progress=resumed.append)
    assert stats == pool_stats
    assert resumed[0] == 5 * CHUNK and sum(resumed) == ROUNDS and len(resumed) == 1 + ROUNDS // CHUNK - 5
    # a finished checkpoint resumes to its result and plays nothing
    again = []
    assert run(workers=1, checkpoint=path, resume=True, progress=again.append) == pool_stats
    assert again == [ROUNDS]


@pytest.mark.slow
def test_a_killed_run_resumes_from_its_last_periodic_checkpoint(client, pool_stats, tmp_path):
    """What a SIGKILLed run leaves: the periodic checkpoint, not the one saved on the way out."""
    path, snapshot = tmp_path / "run.json", tmp_path / "snapshot.json"
    seen = []

    def progress(rounds):
        seen.append(rounds)
        if len(seen) == 8:
            shutil.copy(path, snapshot)  # saved after chunk 6 (every 3 chunks)
            raise Stop

    with pytest.raises(Stop):
        run(cluster=client, checkpoint=path, checkpoint_chunks=3, progress=progress)
    assert json.loads(snapshot.read_text())["chunks_done"] == 6
    assert json.loads(path.read_text())["chunks_done"] == 8
    assert not list(tmp_path.glob("*.tmp"))  # temporary files replaced or removed
    # resumed on the other backend: the chunks, not the backend, fix the result
    assert run(workers=2, checkpoint=snapshot, resume=True) == pool_stats


def test_resume_refuses_another_run(tmp_path):
    path = tmp_path / "run.json"
    with pytest.raises(Stop):
        simulate(GAME, BET, 400_000, SEED, 100_000, workers=1, checkpoint=path, progress=stop_after(1))
    with pytest.raises(InvalidArgument, match=r"seed 7 \(this run: 8\)"):
        simulate(GAME, BET, 400_000, 8, 100_000, workers=1, checkpoint=path, resume=True)
    with pytest.raises(InvalidArgument, match=r"chunk_size 100000 \(this run: 50000\)"):
        simulate(GAME, BET, 400_000, SEED, 50_000, workers=1, checkpoint=path, resume=True)
    with pytest.raises(InvalidArgument, match="file exists; add --resume"):
        simulate(GAME, BET, 400_000, SEED, 100_000, workers=1, checkpoint=path)


def test_checkpoint_file_round_trips_and_refuses_tampering(tmp_path):
    path = tmp_path / "run.json"
    stats = simulate(GAME, BET, 300_000, SEED, 100_000, workers=1, checkpoint=path)
    data = json.loads(path.read_text())
    assert data["finished"] == [[0, 3]] and isinstance(data["stats"]["win_squares"], str)
    assert int(data["stats"]["win_squares"]) == stats.win_squares
    identity = RunIdentity(**data["identity"])
    assert identity == RunIdentity.of(GAME, identity.game_sha256, BET, SEED, 100_000, 300_000,
                                      price=BET.total)
    assert load_checkpoint(path, identity).stats == stats
    data["stats"]["rounds"] += 1
    path.write_text(json.dumps(data))
    with pytest.raises(InvalidArgument, match="edited or corrupt"):
        load_checkpoint(path, identity)
    path.write_text("{not json")
    with pytest.raises(InvalidArgument, match="not readable JSON"):
        load_checkpoint(path, identity)


def test_finished_chunks_ranges():
    done = FinishedChunks([0, 1, 2, 5, 7, 8])
    assert done.ranges() == [[0, 3], [5, 6], [7, 9]]
    assert len(done) == 6 and 5 in done and 6 not in done
    assert FinishedChunks.from_ranges(done.ranges(), 9).ranges() == done.ranges()
    with pytest.raises(ValueError):
        FinishedChunks.from_ranges([[0, 3], [2, 4]], 9)
    with pytest.raises(ValueError):
        FinishedChunks.from_ranges([[0, 10]], 9)


# ---------------------------------------------------------------- the command

runner = CliRunner()
SIM = ["simulate", GAME, "--rounds", "400000", "--chunk-size", "50000", "--seed", "3", "--json"]


def invoke(*args):
    return runner.invoke(app, [*SIM, *args], catch_exceptions=False)


def one_line_error(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


@pytest.mark.slow
def test_command_gives_the_same_json_on_pool_local_dask_and_a_scheduler(client):
    pool = invoke("--workers", "2")
    assert pool.exit_code == 0, pool.stderr
    local = invoke("--dask", "--workers", "2")
    assert local.exit_code == 0, local.stderr
    remote = invoke("--scheduler", client.scheduler.address)
    assert remote.exit_code == 0, remote.stderr
    assert pool.stdout == local.stdout == remote.stdout
    assert json.loads(pool.stdout)["rounds"] == 400_000


def test_command_checkpoint_and_resume(tmp_path):
    path = str(tmp_path / "run.json")
    first = invoke("--workers", "1", "--checkpoint", path)
    assert first.exit_code == 0, first.stderr
    again = invoke("--workers", "1", "--checkpoint", path, "--resume")
    assert again.stdout == first.stdout
    assert "file exists" in one_line_error(invoke("--checkpoint", path))
    assert "(this run: 4)" in one_line_error(runner.invoke(
        app, [*SIM[:-2], "4", "--json", "--checkpoint", path, "--resume"]))
    assert "--resume needs --checkpoint" in one_line_error(invoke("--resume"))
    assert "no such file" in one_line_error(invoke("--checkpoint", str(tmp_path / "nope.json"), "--resume"))
    assert "cannot write" in one_line_error(invoke("--checkpoint", str(tmp_path / "no" / "dir.json")))
    assert "--checkpoint-seconds" in one_line_error(invoke("--checkpoint", path, "--checkpoint-seconds", "0"))


def test_command_cluster_errors_are_one_line(monkeypatch):
    import distributed

    class NoClient:  # refused before a Client is made: a Client would wait out its timeout
        def __init__(self, *args, **kwargs):
            raise AssertionError("a Client was started for an address the probe should refuse")

    monkeypatch.setattr(distributed, "Client", NoClient)
    assert "cannot connect" in one_line_error(invoke("--scheduler", "tcp://127.0.0.1:1"))
    assert "cannot connect" in one_line_error(invoke("--scheduler", "nonsense"))
    assert "has its own workers" in one_line_error(invoke("--scheduler", "tcp://127.0.0.1:1", "--workers", "2"))


def test_a_missing_distributed_extra_is_one_line_naming_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # what `import distributed` meets uninstalled
    with pytest.raises(ReelforgeError) as caught:
        simulate(GAME, BET, 20_000, SEED, 10_000, cluster="local", workers=1)
    assert str(caught.value) == MISSING and "pip install 'reelforge[distributed]'" in MISSING
    with pytest.raises(ReelforgeError, match=re.escape(MISSING)), local_client(1):
        pass
    assert one_line_error(invoke("--dask", "--workers", "1")) == f"error: {MISSING}"


def test_a_plain_run_never_imports_dask():
    code = ("import sys; from reelforge.cli import app; from reelforge.analysis.montecarlo import simulate; "
            "from reelforge.games import make; simulate('cluedo-v1', make('cluedo-v1').max_bet, 20000, 1, 5000, 2); "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')]; "
            "assert not bad, bad")
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_command_chunk_size_takes_the_rounds_notation():
    assert invoke("--workers", "1").stdout == runner.invoke(
        app, [*SIM[:3], "4e5", "--chunk-size", "5e4", *SIM[6:], "--workers", "1"]).stdout


# The command, run in a child that stops after saving its checkpoint with HELD_AT chunks done
# and tells the test so through a pipe (its first argument): the interrupt then lands mid-run
# every time, however slow or loaded the machine, instead of racing the run's end.
HELD_AT = 3
HOLD = """
import os, signal, sys, time
# Python's own Ctrl-C handler, as it installs it at start-up unless SIGINT came in ignored
# (an ignored SIGINT is inherited across exec, e.g. from a test process that once ignored it)
signal.signal(signal.SIGINT, signal.default_int_handler)
from reelforge.analysis import montecarlo
from reelforge.cli import main

real, fd, held = montecarlo.save_checkpoint, int(sys.argv[1]), []

def save_then_hold(path, state):
    real(path, state)
    if len(state.finished) == {held_at} and not held:
        held.append(True)
        os.write(fd, b"held")
        os.close(fd)
        while True:  # until the SIGINT; one that lands just before a sleep acts when it ends
            time.sleep(0.05)

montecarlo.save_checkpoint = save_then_hold
sys.argv = ["reelforge", *sys.argv[2:]]
main()
"""


@pytest.mark.slow
def test_command_ctrl_c_saves_the_checkpoint_and_resume_finishes_the_run(tmp_path):
    """The real thing: SIGINT to the command's process group, as a terminal sends it (pool
    workers ignore it, no traceback), then `--resume` in a fresh process."""
    path = tmp_path / "run.json"
    total, chunk, seed = 2_000_000, 100_000, 5
    # --checkpoint-seconds 1e-9: a checkpoint after every chunk, so the hold comes at exactly HELD_AT
    args = ["simulate", GAME, "-n", str(total), "--chunk-size", str(chunk), "--seed", str(seed),
            "--workers", "2", "--json", "--checkpoint", str(path), "--checkpoint-seconds", "1e-9"]
    ready, ready_w = os.pipe()
    proc = subprocess.Popen([sys.executable, "-c", HOLD.format(held_at=HELD_AT), str(ready_w), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, pass_fds=[ready_w])
    os.close(ready_w)
    try:
        with os.fdopen(ready, "rb") as pipe:
            # a guard against a hung child only: the hold comes after 3 chunks of 100,000 rounds
            if select.select([pipe], [], [], 300)[0]:
                said = pipe.read(4)  # b"" if the child ended without holding
            else:
                said = b"no hold within 300 s"
        assert said == b"held", proc.communicate(timeout=60)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert err.strip() == f"interrupted; progress saved in {path}: add --resume to continue"
    assert json.loads(path.read_text())["chunks_done"] == HELD_AT
    resumed = subprocess.run([sys.executable, "-m", "reelforge.cli", *args, "--resume"], check=False,
                             capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    whole = simulate(GAME, BET, total, seed, chunk, workers=2)
    assert stats_from_json(json.loads(path.read_text())["stats"]) == whole
    assert json.loads(resumed.stdout)["rtp"] == whole.rtp
