"""Request pools: fresh sandbox tokens minted in bench mode, turned into complete request bodies.

Every body carries a token minted for this run and used once, for the app the scenario's bench
description names (`benchplan`), and the scenario's `providerFields` (a unique one fresh per request). The requests sent straight to the
sandbox (the upstream reference) are signed by the binary under test, not here: `passgate sign
--json` prepares each through the app's provider - the same code `serve` runs, so a unique msgid or
nonce, a current timestamp and a real signature (MD5, HMAC, SHA256withRSA, Basic credentials) come
from one place, and a provider added to Passgate needs no signing code in the bench.
"""

import concurrent.futures
import itertools
import json
import os
import secrets
import subprocess
import urllib.parse
import urllib.request

MINT_BATCH = 10_000  # the sandbox's bench-mode maximum per call


def mint(sandbox_port, app_id, product, phone, count):
    tokens = []
    while len(tokens) < count:
        batch = min(MINT_BATCH, count - len(tokens))
        body = json.dumps({"appId": app_id, "phoneNumber": phone, "product": product, "count": batch}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{sandbox_port}/sandbox/tokens", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            tokens.extend(json.load(response)["tokens"])
    return tokens


def _compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --- providerFields --------------------------------------------------------------------------------

# A unique field's value is its prefix, this run's tag and the next count: never the same twice in
# a run (Passgate's pools and the upstream reference's alike), nor across runs against a sandbox
# that remembers spent flow ids. Letters and digits only, so a value needs no quoting anywhere.
_RUN_TAG = secrets.token_hex(4)
_counter = itertools.count(1)


def request_fields(plan, op, count):
    """`count` {name: value} dicts, one per request of scenario `op` (empty ones for a scenario
    without fields)."""
    fields = plan.scenario(op).fields
    return [{field.name: f"{field.value}{_RUN_TAG}{next(_counter)}" if field.unique else field.value for field in fields}
            for _ in range(count)]


# --- bodies for Passgate ---------------------------------------------------------------------------

def passgate_body(plan, op, token, fields=None):
    """Passgate's request body for one token of scenario `op`: the number too for a verification,
    and `fields` (the scenario's, for this request) as `providerFields`."""
    scenario = plan.scenario(op)
    body = {"appId": scenario.app, "token": token}
    if scenario.operation == "verify":
        body["phoneNumber"] = plan.phone
    if fields:
        body["providerFields"] = fields
    return _compact(body)


# --- requests straight to the sandbox, signed by the binary ------------------------------------------

SIGN_CHUNK = 2_000  # tokens per `passgate sign` process; chunks run on every core (RSA signs are the slow part)


def _sign_command(settings, op):
    plan = settings["plan"]
    scenario = plan.scenario(op)
    command = [settings["binary"], "sign", "--config", settings["config"], "--app-id", scenario.app,
               "--tokens", "-", "--json", "--show-secrets"]
    if scenario.operation == "verify":
        command += ["--phone", plan.phone]
    return command


def sign_line(token, fields):
    """One `passgate sign --tokens` line: `TOKEN [NAME=VALUE ...]` (the phone, for a verification,
    is `--phone`)."""
    return " ".join([token] + [f"{name}={value}" for name, value in fields.items()])


def signed_requests(settings, op, tokens, fields=None):
    """What Passgate would send upstream for each token of `op` (with its request's `fields`, the
    scenario's fresh ones when not given): `passgate sign --json` objects (method, url, headers,
    body), in token order."""
    command = _sign_command(settings, op)
    if fields is None:
        fields = request_fields(settings["plan"], op, len(tokens))
    lines = [sign_line(token, request) for token, request in zip(tokens, fields)]
    chunks = [lines[index:index + SIGN_CHUNK] for index in range(0, len(lines), SIGN_CHUNK)]

    def sign(chunk):
        result = subprocess.run(command, input="\n".join(chunk) + "\n", capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"passgate sign for {op} exited {result.returncode}: {result.stderr.strip()}")
        return [json.loads(line) for line in result.stdout.splitlines()]

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return [request for signed in pool.map(sign, chunks) for request in signed]


_shapes = {}


def upstream_shape(settings, op):
    """(path, content type, authorization) of `op`'s requests straight to the sandbox, constant per run:
    read off one request the binary signs (the token is never sent)."""
    if op not in _shapes:
        request = signed_requests(settings, op, ["bench-shape-probe"])[0]
        headers = {name.lower(): value for name, value in request["headers"].items()}
        _shapes[op] = (urllib.parse.urlsplit(request["url"]).path or "/", headers.get("content-type", ""),
                       headers.get("authorization", ""))
    return _shapes[op]


def build(settings, target, op, count):
    """`count` bodies for `target` ("passgate" or "upstream") and scenario `op` of the plan."""
    plan = settings["plan"]
    tokens = mint(settings["sandbox_port"], plan.scenario(op).app, plan.product(op), plan.phone, count)
    fields = request_fields(plan, op, count)
    if target == "passgate":
        return [passgate_body(plan, op, token, request) for token, request in zip(tokens, fields)]
    return [upstream_line(request) for request in signed_requests(settings, op, tokens, fields)]


def upstream_line(request):
    """The pool line of one signed request: its body, or `PATH?QUERY<TAB>BODY` when its URL has a
    query, which varies per request (Tencent Cloud's fresh `random`); lua/load.lua sends either."""
    url = urllib.parse.urlsplit(request["url"])
    if url.query:
        return f"{url.path or '/'}?{url.query}\t{request['body']}"
    return request["body"]


def write(bodies, prefix, threads):
    """Deals the bodies round-robin into PREFIX.0 … PREFIX.(threads-1), one per wrk thread."""
    for index in range(threads):
        with open(f"{prefix}.{index}", "w") as handle:
            handle.write("\n".join(bodies[index::threads]))
            handle.write("\n")
