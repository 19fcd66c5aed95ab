"""The tracing check (scripts/trace-check runs it): a real OTLP/HTTP receiver for `passgate serve`.

Usage: trace_check.py PASSGATE_BINARY CONFIG
       trace_check.py receive PORT   # only the receiver, e.g. the sink of a traced bench run;
                                     # prints the spans it decoded when stopped (Ctrl-C, SIGTERM)

Starts an OTLP/HTTP receiver (POST /v1/traces, application/x-protobuf, decoded with the
opentelemetry-proto classes), starts `passgate serve` on CONFIG with tracing switched on through
the environment, sends requests with and without a traceparent, stops the server (its exporter
flushes at shutdown, so nothing is waited for by time) and checks the spans it received.
"""

import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest, ExportTraceServiceResponse

API_KEY = "pg_sandbox_demo_key"
APP = "300011111111"
PHONE = "13800138000"
CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"
VERIFY_TRACE = "0af7651916cd43dd8448eb211c80319c"


class Receiver(http.server.ThreadingHTTPServer):
    """Keeps every span it is sent, with its resource's attributes."""

    def __init__(self, port=0):
        super().__init__(("127.0.0.1", port), Handler)
        self.lock = threading.Lock()
        self.spans = []
        self.resources = []
        self.problems = []


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path != "/v1/traces" or self.headers.get("Content-Type") != "application/x-protobuf":
            self.server.problems.append(f"unexpected export: {self.path} {self.headers.get('Content-Type')}")
            self.send_response(404)
            self.end_headers()
            return
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        with self.server.lock:
            for resource_spans in request.resource_spans:
                self.server.resources.append({kv.key: kv.value.string_value for kv in resource_spans.resource.attributes})
                for scope_spans in resource_spans.scope_spans:
                    self.server.spans.extend(scope_spans.spans)
        answer = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


def free_ports(count):
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def post(url, body, headers=None):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def attributes(span):
    values = {}
    for kv in span.attributes:
        kind = kv.value.WhichOneof("value")
        values[kv.key] = getattr(kv.value, kind) if kind else None
    return values


def main():
    binary, config = sys.argv[1], sys.argv[2]
    receiver = Receiver()
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    api, admin, metrics, sandbox = free_ports(4)
    work = tempfile.mkdtemp()
    env = dict(os.environ, PASSGATE_SERVER_PORT=str(api), PASSGATE_ADMIN_PORT=str(admin), PASSGATE_METRICS_PORT=str(metrics),
               PASSGATE_SANDBOX_PORT=str(sandbox), PASSGATE_SERVER_DRAINSECONDS="0",
               PASSGATE_TRACING_ENABLED="true", PASSGATE_TRACING_ENDPOINT=f"http://127.0.0.1:{receiver.server_address[1]}",
               PASSGATE_TRACING_SAMPLINGRATIO="1", PASSGATE_TRACING_SERVICENAME="passgate-trace-check")
    log = open(os.path.join(work, "serve.log"), "w+")
    server = subprocess.Popen([binary, "serve", "--config", config], cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)

    try:
        base = f"http://127.0.0.1:{api}"
        for _ in range(150):
            try:
                urllib.request.urlopen(base + "/readyz", timeout=2)
                break
            except Exception:
                if server.poll() is not None:
                    log.seek(0)
                    sys.exit("trace-check: passgate serve exited:\n" + log.read())
                time.sleep(0.2)
        tokens = []

        def mint(product="login"):
            status, answer = post(f"http://127.0.0.1:{sandbox}/sandbox/tokens", {"appId": APP, "phoneNumber": PHONE, "product": product})
            assert status == 200, answer
            tokens.append(answer["token"])
            return answer["token"]

        auth = {"Authorization": f"Bearer {API_KEY}"}
        caller = {"traceparent": f"00-{CALLER_TRACE}-{CALLER_SPAN}-01", "tracestate": "congo=t61rcWkgMzE", "X-Request-Id": "traced-1"}
        token = mint()
        status, answer = post(base + "/v1/phone-number", {"appId": APP, "token": token}, {**auth, **caller})
        check(status == 200, f"traced phone-number: {status} {answer}")
        status, answer = post(base + "/v1/phone-number", {"appId": APP, "token": token}, {**auth, "X-Request-Id": "replay-1"})
        check(status == 200 and answer.get("replayed") is True, f"replay: {status} {answer}")
        status, answer = post(base + "/v1/phone-number", {"appId": APP, "token": mint()}, {**auth, "X-Request-Id": "untraced-1"})
        check(status == 200, f"phone-number without traceparent: {status} {answer}")
        status, answer = post(base + "/v1/phone-number/verify", {"appId": APP, "token": mint("verify"), "phoneNumber": PHONE},
                              {**auth, "traceparent": f"00-{VERIFY_TRACE}-b7ad6b7169203331-00", "X-Request-Id": "verify-1"})
        check(status == 200, f"verify: {status} {answer}")
        status, answer = post(base + "/v1/phone-number", {"appId": APP, "token": mint()},
                              {**auth, "traceparent": f"00-{CALLER_TRACE.upper()}-{CALLER_SPAN}-01", "X-Request-Id": "malformed-1"})
        check(status == 200, f"malformed traceparent must not fail the request: {status} {answer}")
    finally:
        # A graceful stop: the exporter sends what is queued before the process exits.
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            failures.append("passgate serve did not stop within 60 s of SIGTERM")
        receiver.shutdown()
        shutil.rmtree(work, ignore_errors=True)

    spans = receiver.spans
    log.seek(0)
    serve_log = log.read()
    failures.extend(receiver.problems)
    check(all(r.get("service.name") == "passgate-trace-check" for r in receiver.resources) and receiver.resources,
          f"resource service.name: {receiver.resources}")
    servers = [s for s in spans if s.kind == s.SPAN_KIND_SERVER]
    by_request = {attributes(s).get("passgate.request_id"): s for s in servers}
    check(set(by_request) == {"traced-1", "replay-1", "untraced-1", "verify-1", "malformed-1"},
          f"server spans (the v1 requests, not the health checks): {sorted(map(str, by_request))}")

    def children(server_span):
        return [s for s in spans if s.parent_span_id == server_span.span_id and s.trace_id == server_span.trace_id]

    traced = by_request.get("traced-1")
    if traced is not None:
        check(traced.trace_id.hex() == CALLER_TRACE and traced.parent_span_id.hex() == CALLER_SPAN, "traced: not a child of the caller's span")
        check(traced.trace_state == "congo=t61rcWkgMzE", f"traced: tracestate {traced.trace_state!r}")
        check(traced.name == "POST /v1/phone-number", f"traced: name {traced.name!r}")
        values = attributes(traced)
        check(values.get("http.response.status_code") == 200 and values.get("passgate.app_id") == APP, f"traced: {values}")
        names = sorted(s.name for s in children(traced))
        check(names == ["audit.write", "claim", "cmcc phone_number", "replay_cache.lookup"], f"traced: children {names}")
        call = next((s for s in children(traced) if s.kind == s.SPAN_KIND_CLIENT), None)
        if call is not None:
            values = attributes(call)
            expected = {"passgate.provider": "cmcc", "passgate.app_id": APP, "passgate.operation": "phone_number", "passgate.attempt": 1,
                        "passgate.provider.code": "103000", "passgate.code": "ok", "passgate.billable": True}
            check(all(values.get(k) == v for k, v in expected.items()), f"provider call attributes: {values}")
            check(str(values.get("server.address", "")).startswith("127.0.0.1"), f"provider call host: {values}")
        check(f'"traceId":"{CALLER_TRACE}"' in serve_log, "the caller's trace id is not in the request's log lines")
    replay = by_request.get("replay-1")
    if replay is not None:
        check(not replay.parent_span_id, "replay: a request without traceparent must start a trace")
        check([s.name for s in children(replay)] == ["replay_cache.lookup"], f"replay: children {[s.name for s in children(replay)]}")
    untraced = by_request.get("untraced-1")
    if untraced is not None:
        check(not untraced.parent_span_id and untraced.trace_id.hex() != CALLER_TRACE, "untraced: must be a new trace")
        check(len(children(untraced)) == 4, f"untraced: {len(children(untraced))} children")
    verify = by_request.get("verify-1")
    if verify is not None:
        # An unsampled parent at ratio 1: the trace id decides, and the trace is the caller's.
        check(verify.trace_id.hex() == VERIFY_TRACE, "verify: not in the caller's trace")
        check(any(s.name == "cmcc verify" for s in children(verify)), f"verify: children {[s.name for s in children(verify)]}")
    malformed = by_request.get("malformed-1")
    if malformed is not None:
        check(not malformed.parent_span_id and malformed.trace_id.hex() != CALLER_TRACE, "malformed traceparent: must start a new trace")

    # No token, number or key anywhere in a span.
    forbidden = tokens + [PHONE, API_KEY, PHONE[:3] + "****" + PHONE[-4:]]
    for span in spans:
        texts = [span.name, span.trace_state] + [f"{k}={v}" for k, v in attributes(span).items()]
        for text in texts:
            for secret in forbidden:
                check(secret not in text, f"span {span.name!r} holds a token or number: {text[:80]}")

    if failures:
        print("trace-check: FAILED", file=sys.stderr)
        for failure in failures:
            print("  " + failure, file=sys.stderr)
        print("passgate serve's log (last 30 lines):\n" + "\n".join(serve_log.splitlines()[-30:]), file=sys.stderr)
        sys.exit(1)
    print(f"trace-check: {len(spans)} spans from {len(servers)} requests checked (parentage, attributes, no token or number)")


def receive(port):
    receiver = Receiver(port)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=receiver.shutdown).start())
    print(f"trace_check: OTLP/HTTP receiver on http://127.0.0.1:{receiver.server_address[1]}/v1/traces", flush=True)
    try:
        receiver.serve_forever()
    except KeyboardInterrupt:
        pass
    traces = len({span.trace_id for span in receiver.spans})
    print(f"trace_check: received {len(receiver.spans)} spans of {traces} traces; problems: {receiver.problems or 'none'}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "receive":
        receive(int(sys.argv[2]))
    else:
        main()
