"""System calls per request (`bench/run --syscalls RUNS`): `perf stat` counts every
`syscalls:sys_enter_*` tracepoint of one server process over a measured run, and the counts are
divided by the requests wrk got answered in that run. The counts repeat from run to run where
CPU time does not: they say which calls a design makes per request, and how many of them park or
wake a thread (futex, epoll_wait, sleeps), next to the Go reference's."""

import subprocess

# Calls that put a thread to sleep or wake one: what a hand-off between threads costs. Not `poll`:
# libcurl's are zero-timeout checks of one socket.
PARKING = ("futex", "epoll_wait", "epoll_pwait", "nanosleep", "sched_yield")


def start(pid, path):
    """Starts counting `pid`'s system calls (all its threads) into `path`; report.stop_perf() ends
    it (perf writes its file on SIGINT)."""
    return subprocess.Popen(["perf", "stat", "-x", ",", "-e", "syscalls:sys_enter_*", "-p", str(pid), "-o", path],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def parse(text):
    """`perf stat -x ,` output -> {system call: count}, the calls that happened only."""
    counts = {}
    for line in text.splitlines():
        fields = line.split(",")
        if len(fields) < 3 or line.startswith("#") or not fields[0].strip().isdigit():
            continue  # comments, blank lines, "<not counted>"
        event = fields[2].strip()
        prefix = "syscalls:sys_enter_"
        if event.startswith(prefix) and int(fields[0]) > 0:
            counts[event[len(prefix):]] = int(fields[0])
    return counts


def per_request(counts, requests):
    """{call: calls per request}, largest first; empty without requests."""
    if not requests:
        return {}
    return {name: count / requests for name, count in sorted(counts.items(), key=lambda item: -item[1])}


def parking(per):
    """Of the calls per request `per`, those that park a thread or wake one (PARKING)."""
    return sum(value for name, value in per.items() if name in PARKING)


def summary(per):
    """The log's line: the total, the parking and waking calls, and the five most frequent."""
    total = sum(per.values())
    top = ", ".join(f"{name} {value:.2f}" for name, value in list(per.items())[:5])
    return f"{total:.2f} system calls per request ({parking(per):.2f} park or wake a thread: futex, epoll_wait, sleep); {top}"


def table(document):
    """Markdown: one row per run counted, the total, the parking calls and the eight most frequent."""
    lines = ["| run | per request | park or wake | most frequent (per request) |", "|---|--:|--:|---|"]
    for record in document["results"].values():
        per = record.get("syscallsPerRequest")
        if not per:
            continue
        top = ", ".join(f"`{name}` {value:.2f}" for name, value in list(per.items())[:8])
        lines.append(f"| {record['name']} | {sum(per.values()):.2f} | {parking(per):.2f} | {top} |")
    return "\n".join(lines) if len(lines) > 2 else None
