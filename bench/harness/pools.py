"""Request pools: fresh sandbox tokens minted in bench mode, turned into complete request bodies.

Every body carries a token minted for this run and used once, and (for requests sent straight to
the sandbox) a unique msgid, a current Beijing timestamp and a real signature - MD5, HMAC-SHA256 or
SHA256withRSA - computed here exactly as Passgate computes it, so the sandbox verifies every one.
"""

import datetime
import hashlib
import hmac
import json
import multiprocessing
import os
import urllib.request
import uuid

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


def beijing_timestamp():
    now = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=8)
    return now.strftime("%Y%m%d%H%M%S") + f"{now.microsecond // 1000:03d}"


def _compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --- bodies for Passgate ---------------------------------------------------------------------------

def passgate_login(app_id, token):
    return _compact({"appId": app_id, "token": token})


def passgate_verify(app_id, token):
    return _compact({"appId": app_id, "token": token, "phoneNumber": benchconfig.PHONE})


# --- bodies straight to the sandbox (what Passgate would send) --------------------------------------

def _login_fields(app_id, token, sign, algorithm, msgid, systemtime):
    return {"version": "2.0", "msgid": msgid, "systemtime": systemtime, "strictcheck": "0", "appid": app_id,
            "expandparams": "", "token": token, "sign": sign, "encryptionalgorithm": algorithm}


def upstream_md5(settings, token):
    msgid, systemtime = uuid.uuid4().hex, beijing_timestamp()
    text = benchconfig.MD5_APP + "2.0" + msgid + systemtime + "0" + token + settings["md5_secret"]
    sign = hashlib.md5(text.encode()).hexdigest().upper()
    return _compact(_login_fields(benchconfig.MD5_APP, token, sign, "", msgid, systemtime))


def upstream_verify(settings, token):
    msgid, timestamp, app_key = uuid.uuid4().hex, beijing_timestamp(), settings["md5_app_key"]
    phone_num = hashlib.sha256((benchconfig.PHONE + app_key + timestamp).encode()).hexdigest().upper()
    signed = benchconfig.MD5_APP + msgid + phone_num + timestamp + token + "1.0"
    sign = hmac.new(app_key.encode(), signed.encode(), hashlib.sha256).hexdigest().upper()
    return _compact({
        "header": {"version": "1.0", "msgId": msgid, "timestamp": timestamp, "appId": benchconfig.MD5_APP},
        "body": {"openType": "1", "requesterType": "0", "message": "", "expandParams": "", "keyType": "0",
                 "phoneNum": phone_num, "token": token, "sign": sign},
    })


_worker_key = None


def _load_key(path):
    global _worker_key
    from cryptography.hazmat.primitives import serialization
    with open(path, "rb") as handle:
        _worker_key = serialization.load_pem_private_key(handle.read(), password=None)


def _rsa_body(token):
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding
    signature = _worker_key.sign((benchconfig.RSA_APP + token).encode(), padding.PKCS1v15(), hashes.SHA256())
    return _compact(_login_fields(benchconfig.RSA_APP, token, signature.hex().upper(), "RSA",
                                  uuid.uuid4().hex, beijing_timestamp()))


def upstream_rsa_bodies(settings, tokens):
    """SHA256withRSA over appid+token for every token, on every core (this is the slow part)."""
    with multiprocessing.get_context("fork").Pool(os.cpu_count() or 1, initializer=_load_key,
                                                  initargs=(settings["rsa_key"],)) as pool:
        return pool.map(_rsa_body, tokens, chunksize=256)


# --- operations ----------------------------------------------------------------------------------

# op -> (app, product, Passgate path, Passgate body, good-answer marker, sandbox path, sandbox marker)
OPERATIONS = {
    "md5": (benchconfig.MD5_APP, "login", "/v1/phone-number", passgate_login, f'"phoneNumber":"{benchconfig.PHONE}"',
            "/unisdk/rsapi/loginTokenValidate", '"resultCode":"103000"'),
    "rsa": (benchconfig.RSA_APP, "login", "/v1/phone-number", passgate_login, f'"phoneNumber":"{benchconfig.PHONE}"',
            "/unisdk/rsapi/loginTokenValidate", '"resultCode":"103000"'),
    "verify": (benchconfig.MD5_APP, "verify", "/v1/phone-number/verify", passgate_verify, '"result":"match"',
               "/openapi/rs/tokenValidate", '"resultCode":"000"'),
}


def build(settings, target, op, count):
    """`count` bodies for `target` ("passgate" or "upstream") and operation `op`."""
    app_id, product, _, passgate_body, _, _, _ = OPERATIONS[op]
    tokens = mint(settings["sandbox_port"], app_id, product, count)
    if target == "passgate":
        return [passgate_body(app_id, token) for token in tokens]
    if op == "md5":
        return [upstream_md5(settings, token) for token in tokens]
    if op == "verify":
        return [upstream_verify(settings, token) for token in tokens]
    return upstream_rsa_bodies(settings, tokens)


def write(bodies, prefix, threads):
    """Deals the bodies round-robin into PREFIX.0 … PREFIX.(threads-1), one per wrk thread."""
    for index in range(threads):
        with open(f"{prefix}.{index}", "w") as handle:
            handle.write("\n".join(bodies[index::threads]))
            handle.write("\n")
