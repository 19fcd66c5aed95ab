"""Request pools: fresh sandbox tokens minted in bench mode, turned into complete request bodies.

Every body carries a token minted for this run and used once. The requests sent straight to the
sandbox (the upstream reference) are signed by the binary under test, not here: `passgate sign
--json` prepares each through the app's provider - the same code `serve` runs, so a unique msgid or
nonce, a current timestamp and a real signature (MD5, HMAC, SHA256withRSA, Basic credentials) come
from one place, and a provider added to Passgate needs no signing code in the bench.
"""

import collections
import concurrent.futures
import json
import os
import subprocess
import urllib.parse
import urllib.request

from . import benchconfig

MINT_BATCH = 10_000  # the sandbox's bench-mode maximum per call


def mint(sandbox_port, app_id, product, count):
    tokens = []
    while len(tokens) < count:
        batch = min(MINT_BATCH, count - len(tokens))
        body = json.dumps({"appId": app_id, "phoneNumber": benchconfig.PHONE, "product": product, "count": batch}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{sandbox_port}/sandbox/tokens", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            tokens.extend(json.load(response)["tokens"])
    return tokens


def _compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --- bodies for Passgate ---------------------------------------------------------------------------

def passgate_login(app_id, token):
    return _compact({"appId": app_id, "token": token})


def passgate_verify(app_id, token):
    return _compact({"appId": app_id, "token": token, "phoneNumber": benchconfig.PHONE})


# --- requests straight to the sandbox, signed by the binary ------------------------------------------

SIGN_CHUNK = 2_000  # tokens per `passgate sign` process; chunks run on every core (RSA signs are the slow part)


def _sign_command(settings, op):
    operation = OPERATIONS[op]
    command = [settings["binary"], "sign", "--config", settings["config"], "--app-id", operation.app,
               "--tokens", "-", "--json", "--show-secrets"]
    if operation.product == "verify":
        command += ["--phone", benchconfig.PHONE]
    return command


def signed_requests(settings, op, tokens):
    """What Passgate would send upstream for each token of `op`: `passgate sign --json` objects
    (method, url, headers, body), in token order."""
    command = _sign_command(settings, op)
    chunks = [tokens[index:index + SIGN_CHUNK] for index in range(0, len(tokens), SIGN_CHUNK)]

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


# --- operations ----------------------------------------------------------------------------------

Operation = collections.namedtuple("Operation", (
    "app", "product", "path", "body", "expect",  # Passgate: POST path with body(app, token)
    "upstream_expect",                           # the sandbox's good-answer marker for the same load
))
PHONE_MARKER = f'"phoneNumber":"{benchconfig.PHONE}"'

# op -> Operation. The upstream path, headers and bodies come from the binary (`upstream_shape`,
# `signed_requests`); what stays here is which app and product each load uses and how a good answer looks.
OPERATIONS = {
    "md5": Operation(benchconfig.MD5_APP, "login", "/v1/phone-number", passgate_login, PHONE_MARKER, '"resultCode":"103000"'),
    "rsa": Operation(benchconfig.RSA_APP, "login", "/v1/phone-number", passgate_login, PHONE_MARKER, '"resultCode":"103000"'),
    "verify": Operation(benchconfig.MD5_APP, "verify", "/v1/phone-number/verify", passgate_verify, '"result":"match"',
                        '"resultCode":"000"'),
    # The aggregators' phone-number (login) paths. JiGuang's number comes back RSA-encrypted and
    # Shanyan's AES-encrypted, so their sandbox answers are judged by the success code; Alibaba Cloud's
    # carries the number in clear.
    "jv": Operation(benchconfig.JV_APP, "login", "/v1/phone-number", passgate_login, PHONE_MARKER, '"code":8000,'),
    "sy": Operation(benchconfig.SY_APP, "login", "/v1/phone-number", passgate_login, PHONE_MARKER, '"code":"200000"'),
    "ali": Operation(benchconfig.ALI_APP, "login", "/v1/phone-number", passgate_login, PHONE_MARKER, f'"Mobile":"{benchconfig.PHONE}"'),
}


def build(settings, target, op, count):
    """`count` bodies for `target` ("passgate" or "upstream") and operation `op`."""
    operation = OPERATIONS[op]
    tokens = mint(settings["sandbox_port"], operation.app, operation.product, count)
    if target == "passgate":
        return [operation.body(operation.app, token) for token in tokens]
    return [request["body"] for request in signed_requests(settings, op, tokens)]


def write(bodies, prefix, threads):
    """Deals the bodies round-robin into PREFIX.0 … PREFIX.(threads-1), one per wrk thread."""
    for index in range(threads):
        with open(f"{prefix}.{index}", "w") as handle:
            handle.write("\n".join(bodies[index::threads]))
            handle.write("\n")
