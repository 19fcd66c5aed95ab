"""Starting and stopping the sandbox and Passgate processes, and reading their /proc figures."""

import hashlib
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """utime + stime of `pid` from /proc/PID/stat, in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    # After the command name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


# Every role thread_group gives, in the order RESULTS.md's tables show them; the Go servers' threads are all "other".
THREAD_ROLES = ("pool", "nio", "curl", "audit", "other")


def thread_group(comm):
    """The role of a Passgate thread, from its name: the curl engine, NIO's event loops, Swift's
    cooperative pool (named by Dispatch's worker queue), the audit writer, or other."""
    if comm.startswith("pg-curl"):
        return "curl"
    if comm.startswith("NIO-"):
        return "nio"
    if comm.startswith("pg-audit"):
        return "audit"
    if "default-qos" in comm or comm.startswith("passgate"):
        return "pool"
    return "other"


def _thread_files(pid, name):
    """(thread id, text of /proc/PID/task/TID/NAME) for each thread still alive when read."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/{name}") as handle:
                yield int(tid), handle.read()
        except OSError:
            continue


def thread_cpu_seconds(pid):
    """{thread id: (role, utime + stime in seconds)} of `pid` (role: see thread_group). Keyed by
    thread so that interleave.difference subtracts each thread's own earlier reading: a thread
    that exits between two readings takes its time with it, and subtracting readings summed by
    role would then count it against the threads still alive (a negative share)."""
    threads = {}
    for tid, text in _thread_files(pid, "stat"):
        comm = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        threads[tid] = (thread_group(comm), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS)
    return threads


def thread_switches(pid):
    """{thread id: (role, (voluntary, involuntary))} context switches of `pid`, keyed by thread as
    thread_cpu_seconds is. Each hop of work to a sleeping thread costs one, so per request they
    count the wake-ups CPU time alone hides."""
    threads = {}
    for tid, text in _thread_files(pid, "status"):
        lines = text.splitlines()
        group = thread_group(lines[0].split(":", 1)[1].strip())  # "Name:\t<comm>"
        counts = [int(line.split()[1]) for line in lines if "ctxt_switches:" in line]
        threads[tid] = (group, (counts[0], counts[1]))
    return threads


def status_kb(pid, key):
    """A `kB` line of /proc/PID/status (VmRSS, VmHWM) in kB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def memory_rollup_kb(pid):
    """Rss, Pss and Anonymous of /proc/PID/smaps_rollup in kB: how much of the resident set is the
    process's own (anonymous) memory and how much shared, file-backed code."""
    values = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                parts = line.split()
                if len(parts) >= 2 and parts[0].rstrip(":") in ("Rss", "Pss", "Anonymous"):
                    values[parts[0].rstrip(":")] = int(parts[1])
    except OSError:
        pass
    return values


def _get(url, timeout=1.0):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, OSError):
        return None


class Process:
    """One child process (own session, so a Ctrl-C to the harness does not hit it first)."""

    def __init__(self, name, argv, log_dir, keep_stdout=False):
        self.name = name
        stdout_path = os.path.join(log_dir, f"{name}.stdout") if keep_stdout else os.devnull
        self.stderr_path = os.path.join(log_dir, f"{name}.stderr")
        self._stdout = open(stdout_path, "ab")
        self._stderr = open(self.stderr_path, "ab")
        # BENCH_STDOUT=pipe: standard output is a pipe that another process reads, as under a
        # container runtime, rather than the file itself (a write to /dev/null costs next to nothing).
        reader = None
        if os.environ.get("BENCH_STDOUT") == "pipe":
            reader = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=self._stdout, start_new_session=True)
        self.started = time.monotonic()
        self.popen = subprocess.Popen(argv, stdout=reader.stdin if reader else self._stdout, stderr=self._stderr,
                                      stdin=subprocess.DEVNULL, start_new_session=True)
        if reader:
            reader.stdin.close()  # the child holds the write end; the reader ends with it
        self.pid = self.popen.pid

    def wait_ready(self, url, timeout=30.0):
        """Polls `url` until it answers 200; returns the seconds since the process was spawned."""
        deadline = self.started + timeout
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.popen.returncode} before it was ready; "
                                   f"see {self.stderr_path}:\n{self.stderr_tail()}")
            if _get(url, timeout=0.5) == 200:
                return time.monotonic() - self.started
            time.sleep(0.005)
        raise RuntimeError(f"{self.name} was not ready at {url} within {timeout:.0f}s; see {self.stderr_path}")

    def stderr_tail(self, lines=20):
        try:
            with open(self.stderr_path, errors="replace") as handle:
                return "".join(handle.readlines()[-lines:])
        except OSError:
            return ""

    def stop(self, timeout=15.0):
        """SIGTERM, then SIGKILL after `timeout` seconds. Only this child, by its own pid."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        self._stdout.close()
        self._stderr.close()
        return self.popen.returncode


def start_sandbox(binary, settings, latency_ms, log_dir):
    process = Process("sandbox", [binary, "sandbox", "--config", settings["config"], "--port",
                                  str(settings["sandbox_port"]), "--bench", "--latency-ms", str(latency_ms)], log_dir)
    process.wait_ready(f"http://127.0.0.1:{settings['sandbox_port']}/sandbox/stats")
    return process


def start_passgate(binary, settings, log_dir, keep_logs=False, wrapper=()):
    """Returns the process and its start-up time (spawn to the first 200 from /readyz).
    `wrapper` prefixes the command (valgrind for --callgrind; valgrind runs in the same pid)."""
    process = Process("passgate", list(wrapper) + [binary, "serve", "--config", settings["config"]], log_dir,
                      keep_stdout=keep_logs)
    ready = process.wait_ready(f"http://127.0.0.1:{settings['api_port']}/readyz", timeout=120.0 if wrapper else 30.0)
    return process, ready


def start_go(binary, settings, port, log_dir):
    """The Go reference (bench/goref) in front of the sandbox, with the run's API key and the app of
    the md5 scenario it reimplements (its id and MD5 sign secret); returns it and its start-up time."""
    directory = os.path.join(os.path.dirname(settings["config"]), "goref")
    os.makedirs(directory, exist_ok=True)
    app = settings["plan"].scenario("md5").app
    for name, value in (("api-key-sha256", hashlib.sha256(settings["api_key"].encode()).hexdigest()),
                        ("md5-app-id", app), ("md5-secret", settings["apps"][app]["secret"])):
        with open(os.path.join(directory, name), "w") as handle:
            handle.write(value)
    process = Process("goref", [binary, str(port), f"http://127.0.0.1:{settings['sandbox_port']}", directory], log_dir)
    return process, process.wait_ready(f"http://127.0.0.1:{port}/healthz", timeout=30.0)


def start_go_proxy(binary, settings, port, log_dir):
    """The Go bare proxy (`goref proxy`, bench/goref/proxy.go) in front of the sandbox; returns it and its start-up time."""
    process = Process("goproxy", [binary, "proxy", str(port), f"http://127.0.0.1:{settings['sandbox_port']}"], log_dir)
    return process, process.wait_ready(f"http://127.0.0.1:{port}/healthz", timeout=30.0)


def start_proxy(binary, settings, port, log_dir, wrapper=()):
    """The bare-proxy reference (Sources/passgate-bench-proxy) in front of the sandbox; returns it and its start-up time."""
    process = Process("proxy", list(wrapper) + [binary, str(port), f"http://127.0.0.1:{settings['sandbox_port']}"], log_dir)
    return process, process.wait_ready(f"http://127.0.0.1:{port}/healthz", timeout=120.0 if wrapper else 30.0)
