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


def _field_value(field, token):
    if field.kind == "unique":
        return f"{field.value}{_RUN_TAG}{next(_counter)}"
    if field.kind == "token":
        return token
    if field.kind == "fixed":
        return field.value
    raise ValueError(f"bench plan: field {field.name} has an unknown kind {field.kind!r}")


def request_fields(plan, op, tokens):
    """One {name: value} dict per token of scenario `op`, for the request that sends it (empty
    ones for a scenario without fields)."""
    fields = plan.scenario(op).fields
    return [{field.name: _field_value(field, token) for field in fields} for token in tokens]


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
        fields = request_fields(settings["plan"], op, tokens)
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
    fields = request_fields(plan, op, tokens)
    if target == "passgate":
        return [passgate_body(plan, op, token, request) for token, request in zip(tokens, fields)]
    signed = signed_requests(settings, op, tokens, fields)
    with_headers = bool(varying_headers(signed))
    return [upstream_line(request, with_headers) for request in signed]


# Sent by lua/load.lua on every request (from `upstream_shape`) or by wrk itself.
_WRK_HEADERS = {"content-type", "authorization", "content-length", "host"}


def varying_headers(signed):
    """The header names whose value is not the same on every request of `signed` (a signature,
    nonce or timestamp in headers: Umeng's API gateway)."""
    values = {}
    for request in signed:
        for name, value in request["headers"].items():
            values.setdefault(name.lower(), set()).add(value)
    return sorted(name for name, seen in values.items() if len(seen) > 1 and name not in _WRK_HEADERS)


def upstream_line(request, with_headers=False):
    """The pool line of one signed request: its body alone, or `PATH[?QUERY]<TAB>[NAME: VALUE<TAB>...]BODY`
    when its URL has a query (Tencent Cloud signs a fresh `random` into it) or, `with_headers`, its
    headers vary per request (then every header but wrk's own goes on the line); lua/load.lua
    sends either."""
    url = urllib.parse.urlsplit(request["url"])
    if not url.query and not with_headers:
        return request["body"]
    path = (url.path or "/") + (f"?{url.query}" if url.query else "")
    headers = [f"{name}: {value}" for name, value in request["headers"].items() if with_headers and name.lower() not in _WRK_HEADERS]
    return "\t".join([path] + headers + [request["body"]])


def write(bodies, prefix, threads):
    """Deals the bodies round-robin into PREFIX.0 … PREFIX.(threads-1), one per wrk thread."""
    for index in range(threads):
        with open(f"{prefix}.{index}", "w") as handle:
            handle.write("\n".join(bodies[index::threads]))
            handle.write("\n")
