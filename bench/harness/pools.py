"""Request pools: fresh sandbox tokens minted in bench mode, turned into complete request bodies.

Every body carries a token minted for this run and used once, and (for requests sent straight to
the sandbox) a unique msgid, a current Beijing timestamp and a real signature - MD5, HMAC-SHA256 or
SHA256withRSA - computed here exactly as Passgate computes it, so the sandbox verifies every one.
The aggregators' requests are made as their providers in Sources/Provider*/ make them: JVerification's
JSON with a unique exID (its Basic authentication is one header per app, see `upstream_headers`),
Shanyan's form with a unique outId and its hex HMAC-SHA256 `sign`, Alibaba Cloud's RPC form with a
unique SignatureNonce, a current UTC Timestamp and its HMAC-SHA1 `Signature`.
"""

import base64
import collections
import datetime
import hashlib
import hmac
import json
import multiprocessing
import os
import urllib.parse
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


def upstream_jv(settings, token):
    """JVerificationRequest.login (apiVersion 1): the exID is Passgate's request id, a fresh hex UUID."""
    return _compact({"loginToken": token, "exID": uuid.uuid4().hex})


def jv_authorization(settings):
    """`Basic base64(appKey:masterSecret)`, as JVerificationRequest.authorization: the same on every request."""
    pair = f"{settings['jv_app_key']}:{settings['jv_master_secret']}"
    return "Basic " + base64.b64encode(pair.encode()).decode()


def shanyan_sign(app_key, fields):
    """ShanyanRequest: hex HMAC-SHA256 under the appKey of name + value of every field, sorted by name
    (lower case, the provider's default signCase)."""
    signed = "".join(name + value for name, value in sorted(fields))
    return hmac.new(app_key.encode(), signed.encode(), hashlib.sha256).hexdigest()


def upstream_sy(settings, token):
    """ShanyanRequest (mobile-query, AES number: no encryptType): appId, outId, token, then sign, form-encoded."""
    fields = sorted([("appId", benchconfig.SY_APP), ("token", token), ("outId", uuid.uuid4().hex)])
    fields.append(("sign", shanyan_sign(settings["sy_app_key"], fields)))
    return "&".join(f"{urllib.parse.quote_plus(name, safe='')}={urllib.parse.quote_plus(value, safe='')}"
                    for name, value in fields)


def _rfc3986(text):
    """AliyunRequest.percentEncoded: only A-Z a-z 0-9 - _ . ~ kept, every other byte %XX."""
    return urllib.parse.quote(text, safe="~")


def aliyun_signature(secret, parameters):
    """base64(HMAC-SHA1(secret + "&", "POST&%2F&" + pe(sorted name=value joined by &)))."""
    canonical = "&".join(f"{_rfc3986(name)}={_rfc3986(value)}" for name, value in sorted(parameters))
    string_to_sign = "POST&" + _rfc3986("/") + "&" + _rfc3986(canonical)
    return base64.b64encode(hmac.new((secret + "&").encode(), string_to_sign.encode(), hashlib.sha1).digest()).decode()


def utc_timestamp():
    """Alibaba Cloud's `yyyy-MM-ddTHH:mm:ssZ` in UTC (the sandbox refuses one more than 15 minutes off)."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def upstream_ali(settings, token):
    """AliyunRequest (GetMobile): the common parameters with a fresh SignatureNonce and the current UTC
    Timestamp, AccessToken, OutId (Passgate's request id), sorted, then Signature; RFC 3986-encoded."""
    parameters = sorted([
        ("AccessKeyId", settings["ali_access_key_id"]), ("Action", "GetMobile"), ("Format", "JSON"),
        ("RegionId", "cn-hangzhou"), ("SignatureMethod", "HMAC-SHA1"), ("SignatureNonce", uuid.uuid4().hex),
        ("SignatureVersion", "1.0"), ("Timestamp", utc_timestamp()), ("Version", "2017-05-25"),
        ("AccessToken", token), ("OutId", uuid.uuid4().hex),
    ])
    parameters.append(("Signature", aliyun_signature(settings["ali_access_key_secret"], parameters)))
    return "&".join(f"{_rfc3986(name)}={_rfc3986(value)}" for name, value in parameters)


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

Operation = collections.namedtuple("Operation", (
    "app", "product", "path", "body", "expect",                     # Passgate: POST path with body(app, token)
    "upstream_path", "upstream_expect", "upstream_content_type",    # the same load straight to the sandbox
))
JSON = "application/json"
FORM = "application/x-www-form-urlencoded;charset=UTF-8"  # as ShanyanRequest and AliyunRequest send it
PHONE_MARKER = f'"phoneNumber":"{benchconfig.PHONE}"'

# op -> Operation (indexable as a tuple: app, product, Passgate path, Passgate body, good-answer marker,
# sandbox path, sandbox marker, sandbox content type)
OPERATIONS = {
    "md5": Operation(benchconfig.MD5_APP, "login", "/v1/phone-number", passgate_login, PHONE_MARKER,
                     "/unisdk/rsapi/loginTokenValidate", '"resultCode":"103000"', JSON),
    "rsa": Operation(benchconfig.RSA_APP, "login", "/v1/phone-number", passgate_login, PHONE_MARKER,
                     "/unisdk/rsapi/loginTokenValidate", '"resultCode":"103000"', JSON),
    "verify": Operation(benchconfig.MD5_APP, "verify", "/v1/phone-number/verify", passgate_verify, '"result":"match"',
                        "/openapi/rs/tokenValidate", '"resultCode":"000"', JSON),
    # The aggregators' phone-number (login) paths. JiGuang's number comes back RSA-encrypted and
    # Shanyan's AES-encrypted, so their sandbox answers are judged by the success code; Alibaba Cloud's
    # carries the number in clear.
    "jv": Operation(benchconfig.JV_APP, "login", "/v1/phone-number", passgate_login, PHONE_MARKER,
                    "/v1/web/loginTokenVerify", '"code":8000,', "application/json; charset=utf-8"),
    "sy": Operation(benchconfig.SY_APP, "login", "/v1/phone-number", passgate_login, PHONE_MARKER,
                    "/open/flashsdk/mobile-query", '"code":"200000"', FORM),
    "ali": Operation(benchconfig.ALI_APP, "login", "/v1/phone-number", passgate_login, PHONE_MARKER,
                     "/", f'"Mobile":"{benchconfig.PHONE}"', FORM),
}
UPSTREAM_BODIES = {"md5": upstream_md5, "verify": upstream_verify, "jv": upstream_jv, "sy": upstream_sy, "ali": upstream_ali}


def upstream_headers(settings, op):
    """(content type, authorization) of `op`'s requests straight to the sandbox: constant per run."""
    return OPERATIONS[op].upstream_content_type, jv_authorization(settings) if op == "jv" else ""


def build(settings, target, op, count):
    """`count` bodies for `target` ("passgate" or "upstream") and operation `op`."""
    operation = OPERATIONS[op]
    tokens = mint(settings["sandbox_port"], operation.app, operation.product, count)
    if target == "passgate":
        return [operation.body(operation.app, token) for token in tokens]
    if op == "rsa":
        return upstream_rsa_bodies(settings, tokens)
    return [UPSTREAM_BODIES[op](settings, token) for token in tokens]


def write(bodies, prefix, threads):
    """Deals the bodies round-robin into PREFIX.0 … PREFIX.(threads-1), one per wrk thread."""
    for index in range(threads):
        with open(f"{prefix}.{index}", "w") as handle:
            handle.write("\n".join(bodies[index::threads]))
            handle.write("\n")
