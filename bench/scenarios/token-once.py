#!/usr/bin/env python3
"""How many times the carrier sees one token when a retry lands on another instance.

The scenario of issue 50, run against real processes on loopback: two `passgate serve`
instances on one Redis (a `redis-server` started here), each with one carrier-call slot
(`maxConcurrentCalls: 1`, `callQueueTimeoutMs: 6000`, `timeoutMs: 3000`), the embedded sandbox
(instance A's) answering in 2.8 s. Instance A gets a request that takes its only slot, then
token T, which it claims and queues for the slot; the client retries T on instance B 5.3 s after
its first request. Before claims were leased, the claim lapsed while T waited and B called too:
the carrier saw T twice and B answered `token_invalid`.

Prints the carrier's call count for T and both answers; exit 0 when the carrier saw T once and
both callers got the number. Usage: bench/scenarios/token-once.py [--binary .build/debug/passgate]
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
API_KEY = "pg_sandbox_demo_key"
APP = "300011111111"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None, headers=None, timeout=30):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def wait_ready(url, deadline=60):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            if http("GET", url, timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"not ready: {url}")


def config(base, redis_port, api, admin, metrics, sandbox_port, embedded):
    """The shipped sandbox configuration, made into one of two instances on one Redis."""
    import yaml
    with open(os.path.join(ROOT, "config", "passgate.yaml")) as f:
        document = yaml.safe_load(f)
    document["server"].update(port=api, drainSeconds=0)
    document["admin"]["port"] = admin
    document["metrics"]["port"] = metrics
    document["state"] = {"backend": "redis", "redisURL": f"redis://127.0.0.1:{redis_port}/0",
                         "replayTTLSeconds": 300, "replayKey": "env:PASSGATE_REPLAY_KEY"}
    cmcc = document["providers"]["cmcc"]
    cmcc.update(timeoutMs=3000, maxConcurrentCalls=1, callQueueTimeoutMs=6000)
    document["sandbox"].update(enabled=embedded, port=sandbox_port, latencyMs=2800, keyDirectory=os.path.join(base, "keys"))
    if not embedded:
        cmcc["baseURLs"] = [f"http://127.0.0.1:{sandbox_port}"]
        # The sandbox's generated RSA key lives with instance A; B only needs the MD5 app, and
        # outside the sandbox its secrets must be references.
        document["apps"] = [app for app in document["apps"] if app["appId"] == APP]
        os.environ["TOKEN_ONCE_SECRET"], os.environ["TOKEN_ONCE_APP_KEY"] = document["apps"][0]["secret"], document["apps"][0]["appKey"]
        document["apps"][0].update(secret="env:TOKEN_ONCE_SECRET", appKey="env:TOKEN_ONCE_APP_KEY")
        document["clients"][0]["apps"] = [APP]
    document["audit"]["path"] = os.path.join(base, f"audit-{api}", "audit.jsonl")
    path = os.path.join(base, f"passgate-{api}.yaml")
    with open(path, "w") as f:
        yaml.safe_dump(document, f)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "passgate"))
    args = parser.parse_args()
    base = tempfile.mkdtemp(prefix="passgate-token-once-")
    redis_port, sandbox_port = free_port(), free_port()
    ports = {name: (free_port(), free_port(), free_port()) for name in "AB"}
    processes = [subprocess.Popen(["redis-server", "--port", str(redis_port), "--save", "", "--appendonly", "no"],
                                  stdout=subprocess.DEVNULL)]
    try:
        time.sleep(0.3)
        for name, embedded in (("A", True), ("B", False)):
            path = config(base, redis_port, *ports[name], sandbox_port, embedded)
            env = dict(os.environ, PASSGATE_REPLAY_KEY="5a" * 32)
            log = open(os.path.join(base, f"{name}.log"), "w")
            processes.append(subprocess.Popen([args.binary, "serve", "--config", path], env=env, stdout=log, stderr=log, cwd=base))
            wait_ready(f"http://127.0.0.1:{ports[name][0]}/readyz")
        sandbox = f"http://127.0.0.1:{sandbox_port}"
        mint = lambda phone: http("POST", sandbox + "/sandbox/tokens", {"appId": APP, "phoneNumber": phone})[1]["token"]
        busy, token = mint("13700000001"), mint("13912340000")
        calls_before = http("GET", sandbox + "/sandbox/stats")[1].get("loginCalls", 0)
        auth = {"Authorization": f"Bearer {API_KEY}"}
        answers = {}

        def send(label, instance, tok):
            answers[label] = http("POST", f"http://127.0.0.1:{ports[instance][0]}/v1/phone-number", {"appId": APP, "token": tok}, auth)

        slot = threading.Thread(target=send, args=("slot holder on A", "A", busy))
        slot.start()
        time.sleep(0.2)
        started = time.monotonic()
        first = threading.Thread(target=send, args=("T on A", "A", token))
        first.start()
        time.sleep(max(0.0, 5.3 - (time.monotonic() - started)))
        send("T retried on B at 5.3 s", "B", token)
        first.join()
        slot.join()
        calls = http("GET", sandbox + "/sandbox/stats")[1].get("loginCalls", 0) - calls_before
        seen = calls - 1  # one call was the slot holder's token
        for label, (status, body) in answers.items():
            summary = body.get("phoneNumber") or body.get("error", {}).get("code")
            print(f"{label:26} {status} {summary}")
        print(f"carrier calls with T: {seen}")
        ok = seen == 1 and all(status == 200 for status, _ in answers.values())
        print(json.dumps({"carrierCallsWithToken": seen, "allAnsweredTheNumber": ok}))
        return 0 if ok else 1
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


if __name__ == "__main__":
    sys.exit(main())
