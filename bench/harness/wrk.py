"""Runs wrk with bench/lua/load.lua and reads the summary line its done() prints."""

import json
import os
import resource
import subprocess

LUA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lua", "load.lua")


def threads_for(connections):
    return max(1, min(os.cpu_count() or 1, connections))


def run(url, connections, seconds, pool_prefix, method, path, expect, authorization="", timeout_s=10,
        content_type="application/json"):
    """One wrk run; returns the summary dict with `rps` and `errors` added."""
    threads = threads_for(connections)
    argv = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--timeout", f"{timeout_s}s",
            "-s", LUA, url, "--", pool_prefix, method, path, expect, authorization, content_type]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    completed = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    for line in completed.stdout.splitlines():
        if line.startswith("BENCHJSON "):
            summary = json.loads(line[len("BENCHJSON "):])
            break
    else:
        raise RuntimeError(f"wrk printed no summary (exit {completed.returncode}):\n{completed.stdout}\n{completed.stderr}")
    # wrk is the only child reaped in between: its own CPU time, the load generator's share.
    summary["wrkCpuSeconds"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    duration = summary["durationUs"] / 1e6
    summary["seconds"] = duration
    summary["socketErrors"] = summary["connectErrors"] + summary["readErrors"] + summary["writeErrors"] + summary["timeouts"]
    summary["errors"] = summary["badStatus"] + summary["badBody"] + summary["socketErrors"]
    # Throughput counts good answers only: an error page is not a served request.
    summary["rps"] = summary["good"] / duration if duration > 0 else 0.0
    return summary
