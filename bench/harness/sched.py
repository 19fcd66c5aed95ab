"""Where the cores sit idle during a run: `/proc/stat` around every measured run, and on request
(`--sched SCENARIO`) a `perf sched record` of the whole machine for a slice of one run, summarised
as the idle stretches by length and by the thread that ran when each ended."""

import collections
import os
import re
import shutil
import subprocess

from . import machine

# perf sched timehist's rows: time, [cpu], task, wait, scheduling delay, run time (ms).
ROW = re.compile(r"\s*([\d.]+)\s+\[(\d+)\]\s+(.+?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$")
BUCKETS_MS = (0.05, 0.2, 1.0, 2.0)
# A stretch's label: the first bound it is under, or at least the last one.
LABELS = [f"< {limit:g} ms" for limit in BUCKETS_MS] + [f">= {BUCKETS_MS[-1]:g} ms"]


def cpu_jiffies():
    """(idle + iowait, total) jiffies of all cores together, from /proc/stat's first line."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    return fields[3] + fields[4], sum(fields[:8])


def idle_share(before, after):
    """The share of the cores' time spent idle between two `cpu_jiffies()` readings."""
    total = after[1] - before[1]
    return (after[0] - before[0]) / total if total > 0 else None


def start_record(directory, delay_s, seconds):
    """`perf sched record -a` for `seconds`, starting `delay_s` from now (in the measured run);
    `None` without perf (Debian's `linux-perf`)."""
    if shutil.which("perf") is None:
        machine.log("  --sched: no perf on this machine (apt-get install linux-perf); not recorded")
        return None
    os.makedirs(directory, exist_ok=True)
    data = os.path.join(directory, "sched.data")
    machine.log(f"  perf sched record -a for {seconds:.1f} s, {delay_s:.1f} s into the run -> {data}")
    command = f"sleep {delay_s:.2f} && exec perf sched record -a -o {data} -- sleep {seconds:.2f}"
    return subprocess.Popen(["sh", "-c", command], stdout=subprocess.DEVNULL,
                            stderr=open(os.path.join(directory, "sched-record.log"), "w"))


def summarize(directory, name):
    """Writes DIRECTORY/sched-summary.txt from the recording and returns its text."""
    data = os.path.join(directory, "sched.data")
    if not os.path.exists(data):
        return None
    output = subprocess.run(["perf", "sched", "timehist", "-i", data], capture_output=True, text=True).stdout
    rows = [(float(m.group(1)), int(m.group(2)), m.group(3).strip(), float(m.group(6)))
            for m in map(ROW.match, output.splitlines()) if m]
    if len(rows) < 2:
        return None
    span_ms = (rows[-1][0] - rows[0][0]) * 1000
    cpus = sorted({row[1] for row in rows})
    by_cpu = collections.defaultdict(list)
    for row in rows:
        by_cpu[row[1]].append(row)
    by_length, by_next, stretches, idle_ms = collections.Counter(), collections.Counter(), 0, 0.0
    for cpu_rows in by_cpu.values():
        for index, (_, _, task, run_ms) in enumerate(cpu_rows):
            if task != "<idle>":
                continue
            stretches += 1
            idle_ms += run_ms
            bucket = next((label for limit, label in zip(BUCKETS_MS, LABELS) if run_ms < limit), LABELS[-1])
            by_length[bucket] += run_ms
            if index + 1 < len(cpu_rows):
                # Thread names with the process id only: which process and role, not which thread.
                following = re.sub(r"\[(\d+)/(\d+)\]", r"[\2]", cpu_rows[index + 1][2])
                by_next[(bucket, following)] += run_ms
    lines = [f"{name}: {span_ms:.0f} ms on {len(cpus)} cores, idle {idle_ms:.1f} ms "
             f"({100 * idle_ms / (span_ms * len(cpus)):.1f} %) in {stretches} stretches", "", "idle ms by stretch length:"]
    lines += [f"  {bucket:>9}  {by_length[bucket]:8.1f}" for bucket in LABELS]
    lines += ["", "idle ms by stretch length and the thread that ran when it ended (top 15):"]
    for (bucket, task), ms in by_next.most_common(15):
        lines.append(f"  {ms:8.1f}  {bucket:>9}  {task}")
    lines += ["", f"Each row of `perf sched timehist -w -i {data}` shows who woke whom."]
    text = "\n".join(lines)
    with open(os.path.join(directory, "sched-summary.txt"), "w") as handle:
        handle.write(text + "\n")
    return text
