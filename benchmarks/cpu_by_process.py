"""CPU seconds of a command's process tree by kind of process (chromium's GPU process, its
renderers, Python, Node), sampled from /proc twice a second while the command runs. Linux only.

    python3 benchmarks/cpu_by_process.py npm run e2e      (from web/, with E2E_ONLY=...)
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import time


def kind(cmdline: str) -> str:
    if "chrom" in cmdline:
        for t in ("renderer", "gpu-process", "utility", "zygote"):
            if f"--type={t}" in cmdline:
                return f"chromium {t}"
        return "chromium browser"
    if "python" in cmdline or "reelforge" in cmdline:
        return "python"
    return "node" if "node" in cmdline else "other"


def table() -> dict[int, tuple[int, int, str]]:
    """pid -> (parent pid, user + system ticks, command line), for every process readable."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            with open(f"/proc/{pid}/cmdline") as f:
                cmdline = f.read().replace("\0", " ")
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rfind(")") + 2:].split()  # after the command's name
        found[int(pid)] = (int(fields[1]), int(fields[11]) + int(fields[12]), cmdline)
    return found


def main(argv: list[str]) -> int:
    child = subprocess.Popen(argv)
    last: dict[int, tuple[str, int]] = {}  # a process's kind and its ticks when last seen
    while child.poll() is None:
        procs = table()
        ours, grew = {child.pid}, True
        while grew:
            grew = False
            for pid, (parent, _, _) in procs.items():
                if pid not in ours and parent in ours:
                    ours.add(pid)
                    grew = True
        for pid in ours & procs.keys():
            last[pid] = (kind(procs[pid][2]), procs[pid][1])
        time.sleep(0.5)
    totals: dict[str, float] = collections.defaultdict(float)
    for k, ticks in last.values():
        totals[k] += ticks / os.sysconf("SC_CLK_TCK")
    for k, seconds in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"{k:20s} {seconds:8.1f} CPU s")
    print(f"{'total':20s} {sum(totals.values()):8.1f} CPU s (a process's last half second uncounted)")
    return child.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
