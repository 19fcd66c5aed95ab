"""The machine the figures come from, the tools the harness needs, and the release build."""

import os
import platform
import re
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRATCH = os.path.join(REPO, ".build-static")
# scripts/build-release, as deploy/Dockerfile builds: the Swift runtime and Foundation linked into
# the binary, its code laid out in scripts/link-order.txt's order. That is the binary that ships,
# and its idle RSS is ~5 MB below the dynamically linked one (bench/decisions/0005-release-build-and-code-layout.md).
PROXY_PRODUCT = "passgate-bench-proxy"  # Sources/passgate-bench-proxy: the bare-proxy reference
BUILD_RELEASE = os.path.join(REPO, "scripts", "build-release")
BUILD_FLAGS = ["--scratch-path", SCRATCH]


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def ensure_tools():
    """Installs what the build needs (scripts/bootstrap: libcurl, hiredis, jemalloc...), then wrk (apt),
    matplotlib (pip) when missing."""
    # Without the -dev packages the release build fails halfway with a missing C header.
    subprocess.run([os.path.join(REPO, "scripts", "bootstrap")], check=True)
    missing_apt = [tool for tool in ("wrk", "openssl") if shutil.which(tool) is None]
    if shutil.which("go") is None:
        missing_apt.append("golang-go")  # builds bench/goref, the Go reference
    if missing_apt:
        log(f"installing {' '.join(missing_apt)} with apt-get")
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing_apt,
                       check=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, stdout=subprocess.DEVNULL)
    missing_pip = []
    for module, package in (("matplotlib", "matplotlib"),):
        try:
            __import__(module)
        except ImportError:
            missing_pip.append(package)
    if missing_pip:
        log(f"installing {' '.join(missing_pip)} with pip")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q"] + missing_pip, check=True)


def build():
    """scripts/build-release into .build-static; returns the binary's path."""
    log(f"building the release binary (scripts/build-release {' '.join(BUILD_FLAGS).replace(REPO + '/', '')})")
    started = time.monotonic()
    for product in ("passgate", PROXY_PRODUCT):
        subprocess.run([BUILD_RELEASE] + BUILD_FLAGS + ["--product", product], cwd=REPO, check=True)
    bin_path = subprocess.run([BUILD_RELEASE] + BUILD_FLAGS + ["--show-bin-path"],
                              cwd=REPO, check=True, capture_output=True, text=True).stdout.strip()
    log(f"build done in {time.monotonic() - started:.0f}s")
    return os.path.join(bin_path, "passgate")


def go_reference():
    """Builds bench/goref (the Go reference) into bench/out/goref; its path, or None without Go."""
    if shutil.which("go") is None:
        return None
    source = os.path.join(REPO, "bench", "goref")
    binary = os.path.join(REPO, "bench", "out", "goref", "goref")
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    env = {**os.environ, "GOCACHE": os.path.join(REPO, "bench", "out", "goref", "cache"), "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}
    subprocess.run(["go", "build", "-o", binary, "."], cwd=source, check=True, env=env)
    return binary


def go_version():
    return _first_line(["go", "version"]) if shutil.which("go") else "absent"


def proxy_binary(binary):
    """The bare-proxy reference next to `binary` (as `build` leaves it), else the one in .build-static."""
    for directory in (os.path.dirname(binary), os.path.join(SCRATCH, "release")):
        candidate = os.path.join(directory, PROXY_PRODUCT)
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def _first_line(command):
    try:
        output = subprocess.run(command, capture_output=True, text=True, timeout=30)
        return (output.stdout or output.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return "unknown"


def describe():
    """What the report says about the machine and the toolchain."""
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = "unknown"
    try:
        with open("/proc/meminfo") as meminfo:
            kb = int(re.search(r"MemTotal:\s+(\d+)", meminfo.read()).group(1))
            memory = f"{kb / 1024 / 1024:.1f} GiB"
    except (OSError, AttributeError):
        pass
    commit = _first_line(["git", "-C", REPO, "rev-parse", "--short", "HEAD"])
    dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory": memory,
        "kernel": platform.release(),
        "loadavg_start": open("/proc/loadavg").read().split()[:3],
        "swift": _first_line(["swift", "--version"]),
        "openssl": _first_line(["openssl", "version"]),
        "wrk": _first_line(["wrk", "--version"]).split(" Copyright")[0],
        "go": go_version(),
        "commit": commit + (" (with uncommitted changes)" if dirty else ""),
    }


def loadavg():
    return open("/proc/loadavg").read().split()[:3]


def openssl_rsa_speed(seconds):
    """`openssl speed rsa2048` on one core and on every core: private-key ops (sign) per second."""
    def sign_rate(extra):
        output = subprocess.run(["openssl", "speed", "-seconds", str(seconds)] + extra + ["rsa2048"],
                                capture_output=True, text=True, check=True).stdout
        # single: "rsa 2048 bits 0.000403s 0.000020s   2481.0  50500.0"; -multi: "rsa 2048 bits ... 4962.0 101000.0"
        for line in output.splitlines():
            match = re.match(r"\s*rsa\s+2048 bits\s+\S+\s+\S+\s+([\d.]+)\s+([\d.]+)", line)
            if match:
                return float(match.group(1)), float(match.group(2))
        raise RuntimeError(f"could not read openssl speed output:\n{output}")

    cores = os.cpu_count() or 1
    single_sign, single_verify = sign_rate([])
    multi_sign, _ = sign_rate(["-multi", str(cores)]) if cores > 1 else (single_sign, single_verify)
    return {"cores": cores, "sign_per_s_1core": single_sign, "verify_per_s_1core": single_verify,
            "sign_per_s_all_cores": multi_sign,
            # Passgate needs one private-key sign and one private-key decrypt per RSA request.
            "rsa_ceiling_req_per_s": multi_sign / 2}
