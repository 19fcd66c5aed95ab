"""Two Passgate binaries measured at the same time: `bench/run --side-by-side A B`.

This host's speed moves by a third within minutes, so two binaries measured one after the other
differ by more than most changes do. Here both serve at once, against one sandbox, each loaded by
its own wrk with the same number of connections, so whatever the host does in a trial it does to
both. The two swap ports and start order every trial, and the sandbox runs from a copy of its own.
CPU per request is each process's utime + stime over the trial divided by its good answers.
"""

import os
import shutil
import statistics
import tempfile
import threading

from . import benchconfig, pools, procs, wrk

PATH = "/v1/phone-number"
EXPECT = '"phoneNumber"'


def _second_config(settings, directory):
    """The same configuration on another API port, with its own audit file."""
    with open(settings["config"]) as handle:
        text = handle.read()
    port = benchconfig.free_port()
    moved = text.replace(f"port: {settings['api_port']}\n", f"port: {port}\n", 1)
    if moved == text:
        raise RuntimeError("bench/run --side-by-side: could not move the second instance to its own port")
    moved = moved.replace("audit/audit.jsonl", "audit/audit-second.jsonl")
    path = os.path.join(directory, "passgate-bench-second.yaml")
    with open(path, "w") as handle:
        handle.write(moved)
    return dict(settings, config=path, api_port=port)


def _fill(settings, prefix, connections, count):
    pools.write(pools.build(settings, "passgate", "md5", count), prefix, wrk.threads_for(connections))


def run(binary_a, binary_b, plan, connections, seconds, trials, latency_ms, max_concurrent_calls, log):
    """Runs `trials` trials of md5 at `connections` connections per instance, configured from `plan`
    (`benchplan.Plan`); returns the records."""
    # Each instance's metrics listener on a free port (8082 may be taken, and two cannot share it).
    os.environ.setdefault("PASSGATE_METRICS_PORT", "0")
    directory = tempfile.mkdtemp(prefix="passgate-sbs-")
    logs = os.path.join(directory, "logs")
    os.makedirs(logs)
    first = benchconfig.generate(directory, plan, max_concurrent_calls)
    settings = (first, _second_config(first, directory))
    authorization = f"Bearer {first['api_key']}"
    # The sandbox from a copy of A: run from A's own file it would share A's code pages in the
    # page cache and the CPU caches, which favoured A (an A/A check served about 10 % more on A).
    sandbox_binary = os.path.join(directory, "passgate-sandbox")
    shutil.copy2(binary_a, sandbox_binary)
    sandbox = procs.start_sandbox(sandbox_binary, first, latency_ms, logs)
    # Enough single-use tokens for the fastest rate seen on this machine, with room to spare.
    per_second = 10_000 if latency_ms == 0 else max(10, connections * 1000 // max(1, latency_ms)) * 2
    records = []
    try:
        for trial in range(trials):
            order = (binary_a, binary_b) if trial % 2 == 0 else (binary_b, binary_a)
            running = []
            try:
                for binary, setting in zip(order, settings):
                    running.append(procs.start_passgate(binary, setting, logs)[0])
                prefixes = [os.path.join(directory, f"pool{index}") for index in range(2)]
                results = [None, None]

                def load(index, run_seconds):
                    results[index] = wrk.run(f"http://127.0.0.1:{settings[index]['api_port']}", connections, run_seconds,
                                             prefixes[index], "POST", PATH, EXPECT, authorization)

                for phase, run_seconds in (("warm-up", 2), ("measured", seconds)):
                    for index in range(2):
                        _fill(first, prefixes[index], connections, int(per_second * (run_seconds + 1)) + 500)
                    before = [procs.cpu_seconds(process.pid) for process in running]
                    threads = [threading.Thread(target=load, args=(index, run_seconds)) for index in range(2)]
                    for thread in threads:
                        thread.start()
                    for thread in threads:
                        thread.join()
                    after = [procs.cpu_seconds(process.pid) for process in running]
                record = {"trial": trial + 1}
                for index, binary in enumerate(order):
                    summary = results[index]
                    if summary["exhausted"]:
                        raise RuntimeError("bench/run --side-by-side: the token pool ran out; shorten --duration")
                    record[binary] = {
                        "rps": summary["rps"], "errors": summary["errors"], "startedFirst": index == 0,
                        "cpuMsPerRequest": (after[index] - before[index]) / max(1, summary["good"]) * 1000,
                    }
                records.append(record)
                a, b = record[binary_a], record[binary_b]
                log(f"  trial {trial + 1}: A {a['rps']:.0f} req/s, {a['cpuMsPerRequest']:.4f} CPU-ms/req; "
                    f"B {b['rps']:.0f} req/s, {b['cpuMsPerRequest']:.4f} CPU-ms/req; B/A CPU {b['cpuMsPerRequest'] / a['cpuMsPerRequest']:.3f}"
                    f" (started first: {'A' if a['startedFirst'] else 'B'})")
            finally:
                for process in running:
                    process.stop()
    finally:
        sandbox.stop()
    return records


def summary(records, binary_a, binary_b):
    """Medians over the trials, and how often B used less CPU per request than A."""
    ratios = [record[binary_b]["cpuMsPerRequest"] / record[binary_a]["cpuMsPerRequest"] for record in records]
    rps = [record[binary_b]["rps"] / max(1e-9, record[binary_a]["rps"]) for record in records]
    errors = sum(record[binary]["errors"] for record in records for binary in (binary_a, binary_b))
    return {
        "cpuRatioMedian": statistics.median(ratios), "cpuRatios": ratios,
        "rpsRatioMedian": statistics.median(rps), "bCheaperIn": sum(1 for ratio in ratios if ratio < 1),
        "trials": len(records), "errors": errors,
        "aCpuMedian": statistics.median(record[binary_a]["cpuMsPerRequest"] for record in records),
        "bCpuMedian": statistics.median(record[binary_b]["cpuMsPerRequest"] for record in records),
    }
