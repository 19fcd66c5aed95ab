"""The table, the targets, the plots and bench/RESULTS.md; and the perf profile helpers."""

import os
import signal
import subprocess

from . import benchplan, linkorder, machine, syscalls
from .procs import THREAD_ROLES


def _ms(microseconds):
    return microseconds / 1000.0


def _fmt(value, digits=2):
    if value is None:
        return "-"
    return f"{value:.{digits}f}"


def _ratio(numerator, denominator):
    if not numerator or not denominator:
        return None
    return numerator / denominator


def _pct(value):
    return "-" if value is None else f"{value * 100:.0f}%"


def interleaved(document):
    """Whether the servers compared with Go were measured interleaved (bench/harness/interleave.py)."""
    return any("slices" in record for record in document.get("results", {}).values())


def paired(numerator, denominator):
    """Per-round ratios of two scenarios measured in the same rounds (`bench/run --rounds`), and
    their median; None when either was measured once."""
    if not numerator or not denominator:
        return None
    tops, bottoms = numerator.get("rounds"), denominator.get("rounds")
    if not tops or not bottoms or len(tops) != len(bottoms):
        return None
    ratios = [top["rps"] / bottom["rps"] for top, bottom in zip(tops, bottoms) if bottom["rps"]]
    return (sorted(ratios)[len(ratios) // 2], ratios) if ratios else None


def own_bound_rounds(document, name):
    """Per-round throughput of a scenario against the CPU bound of that same round (cores / the CPU per
    request of Passgate, the sandbox and wrk measured in it), and their median; the scenario's one
    record when it was measured once."""
    cores = document["machine"]["nproc"]
    records = (document.get("roundRecords") or {}).get(name) or [document["results"][name]]
    ratios = []
    for record in records:
        _, _, bound = cpu_budget(record, cores)
        if bound:
            ratios.append(record["rps"] / bound)
    return (sorted(ratios)[len(ratios) // 2], ratios) if ratios else None


def _paired_text(pair, rounds="rounds run back to back"):
    median, ratios = pair
    return f"{_pct(median)} (median of {len(ratios)} {rounds}: {', '.join(_pct(r) for r in ratios)})"


def derived(document, record):
    """Added latency and ratios of a Passgate scenario against the references of the same run."""
    results = document["results"]
    op, connections, latency = record["op"], record["connections"], record["latencyMs"]
    upstream = results.get(f"upstream-{op}-c{connections}-l{latency}")
    healthz = results.get(f"healthz-c{connections}")
    values = {
        "addedP50Ms": _ms(record["p50"] - upstream["p50"]) if upstream else None,
        "addedP99Ms": _ms(record["p99"] - upstream["p99"]) if upstream else None,
        "vsUpstream": _ratio(record["rps"], upstream["rps"]) if upstream else None,
        "vsHealthz": _ratio(record["rps"], healthz["rps"]) if healthz else None,
        # Only where the RSA work, not the sandbox's latency, limits throughput.
        "vsRsaCeiling": _ratio(record["rps"], rsa_ceiling(document, record)) if op == "rsa" and latency == 0 else None,
    }
    return values


def rsa_ceiling(document, record=None):
    """The RSA ceiling measured next to `record` when there is one, else the one from the start of the run."""
    nearby = (record or {}).get("rsaNearby")
    return (nearby or document["rsa"])["rsa_ceiling_req_per_s"]


def _passgate_rows(document):
    return [record for record in document["results"].values() if record["kind"] == "passgate"]


def table(document):
    """The one table: every Passgate scenario with its ratios, then the references."""
    lines = [
        "| scenario | req/s | p50 ms | p99 ms | p99.9 ms | added p50 ms | CPU-s / 1k req | peak RSS MB | errors "
        "| vs upstream | vs /healthz | vs RSA ceiling |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for record in _passgate_rows(document):
        extra = derived(document, record)
        lines.append(
            f"| {record['name']} | {record['rps']:.0f} | {_fmt(_ms(record['p50']))} | {_fmt(_ms(record['p99']))} "
            f"| {_fmt(_ms(record['p999']))} | {_fmt(extra['addedP50Ms'])} | {_fmt(record.get('cpuPer1k'), 3)} "
            f"| {_fmt(record.get('peakRssKb', 0) / 1024, 1)} | {record['errors']} | {_pct(extra['vsUpstream'])} "
            f"| {_pct(extra['vsHealthz'])} | {_pct(extra['vsRsaCeiling'])} |")
    lines += ["", "References (same run):", "",
              "| reference | req/s | p50 ms | p99 ms | p99.9 ms | errors | Passgate (or bare proxy) CPU-s / 1k | sandbox CPU-s / 1k |",
              "|---|--:|--:|--:|--:|--:|--:|--:|"]
    for record in document["results"].values():
        if record["kind"] == "passgate":
            continue
        lines.append(
            f"| {record['name']} | {record['rps']:.0f} | {_fmt(_ms(record['p50']))} | {_fmt(_ms(record['p99']))} "
            f"| {_fmt(_ms(record['p999']))} | {record['errors']} | {_fmt(record.get('cpuPer1k'), 3)} "
            f"| {_fmt(record.get('sandboxCpuPer1k'), 3)} |")
    rsa = document["rsa"]
    lines.append(f"| openssl speed rsa2048 (start of run) | {rsa['sign_per_s_all_cores']:.0f} sign/s on {rsa['cores']} cores "
                 f"({rsa['sign_per_s_1core']:.0f} on one) | RSA ceiling = {rsa['rsa_ceiling_req_per_s']:.0f} req/s "
                 "(sign + decrypt per request) | | | | | |")
    for record in document["results"].values():
        nearby = record.get("rsaNearby")
        if nearby:
            lines.append(f"| openssl speed rsa2048 (next to {record['name']}) | {nearby['sign_per_s_all_cores']:.0f} sign/s "
                         f"({nearby['sign_per_s_1core']:.0f} on one) | RSA ceiling = {nearby['rsa_ceiling_req_per_s']:.0f} req/s "
                         "| | | | | |")
    go = go_table(document)
    if go:
        how = "interleaved in slices, " if interleaved(document) else ""
        lines += ["", "Against the Go reference (bench/goref, the same MD5 login path in Go's standard library; same run, "
                  f"{how}median round):", ""] + go
    stacks = stack_table(document)
    if stacks:
        lines += ["", "Stack and work, each side's CPU per request split in two (same run; medians of the rounds): the bare "
                  "proxy is the stack alone (one inbound and one outbound exchange, bodies forwarded verbatim: "
                  "Sources/passgate-bench-proxy for Passgate, `goref proxy` for Go); the work is the full service "
                  "minus its bare proxy, round by round.", ""] + stacks
    return "\n".join(lines)


def go_table(document):
    """Passgate against the Go reference at each point both ran: throughput, CPU, latency, memory."""
    results = document["results"]
    lines = []
    for name in sorted((name for name, record in results.items() if record["kind"] == "go"), key=lambda n: results[n]["connections"]):
        ours, go = results.get(name[len("go-"):]), results[name]
        if not ours:
            continue
        if not lines:
            lines = ["| scenario | Passgate req/s | Go req/s | ratio | CPU ms / req Passgate vs Go | p50 ms Passgate vs Go "
                     "| cores idle % Passgate vs Go | idle RSS MB Passgate vs Go | peak RSS MB Passgate vs Go | errors |",
                     "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
        idle = f"{_fmt((ours.get('idleRssKb') or 0) / 1024, 1)} vs {_fmt((go.get('idleRssKb') or 0) / 1024, 1)}"
        peak = f"{_fmt((ours.get('peakRssKb') or 0) / 1024, 1)} vs {_fmt((go.get('peakRssKb') or 0) / 1024, 1)}"
        cores_idle = f"{_idle_pct(ours)} vs {_idle_pct(go)}"
        lines.append(
            f"| {ours['name']} | {ours['rps']:.0f} | {go['rps']:.0f} | {_fmt(_ratio(ours['rps'], go['rps']))} "
            f"| {_fmt(ours.get('cpuPer1k'), 3)} vs {_fmt(go.get('cpuPer1k'), 3)} | {_fmt(_ms(ours['p50']))} vs {_fmt(_ms(go['p50']))} "
            f"| {cores_idle} | {idle} | {peak} | {ours['errors']} / {go['errors']} |")
    return lines


def stack_table(document):
    """Passgate's and Go's CPU per request at each point where both full services and both bare
    proxies ran: what each stack costs, what each side's own work costs on top, and the ratios."""
    results = document["results"]
    lines = []
    for name in sorted((n for n, r in results.items() if r["kind"] == "goproxy"), key=lambda n: results[n]["connections"]):
        point = name[len("goproxy-"):]
        ours, bare, go, go_bare = results.get(point), results.get(f"proxy-{point}"), results.get(f"go-{point}"), results[name]
        if not ours or not bare or not go:
            continue
        medians = [_round_median_values(record) for record in (ours, bare, go, go_bare)]
        work = _round_median_differences(ours, bare)
        go_work = _round_median_differences(go, go_bare)
        if None in medians or work is None or go_work is None:
            continue
        if not lines:
            lines = ["| scenario | Passgate CPU ms / req | its stack (bare proxy) | its work | Go CPU ms / req | Go's stack "
                     "(bare proxy) | Go's work | stack Passgate / Go | work Passgate / Go | p50 ms: Passgate, its stack; "
                     "Go, Go's stack |",
                     "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
        p50s = "; ".join(f"{a['p50'] / 1000:.2f}, {b['p50'] / 1000:.2f}" for a, b in ((ours, bare), (go, go_bare)))
        lines.append(f"| {point} | {_fmt(medians[0], 3)} | {_fmt(medians[1], 3)} | {_fmt(work, 3)} | {_fmt(medians[2], 3)} "
                     f"| {_fmt(medians[3], 3)} | {_fmt(go_work, 3)} | {_fmt(_ratio(medians[1], medians[3]))} "
                     f"| {_fmt(_ratio(work, go_work))} | {p50s} |")
    return lines


def _round_median_values(record):
    """The median over a record's rounds of its CPU per request (the record's own when it ran once)."""
    values = sorted(r.get("cpuPer1k") for r in (record.get("rounds") or [record]) if r.get("cpuPer1k"))
    return values[len(values) // 2] if values else None


def _round_median_differences(full, bare):
    """The median over paired rounds of full minus bare CPU per request (the records' own when either ran once)."""
    tops, bottoms = full.get("rounds") or [full], bare.get("rounds") or [bare]
    if len(tops) != len(bottoms):
        tops, bottoms = [full], [bare]
    values = sorted(t["cpuPer1k"] - b["cpuPer1k"] for t, b in zip(tops, bottoms) if t.get("cpuPer1k") and b.get("cpuPer1k"))
    return values[len(values) // 2] if values else None


def _idle_pct(record):
    """The cores' idle share over a measured run, in per cent (`-` for runs recorded before it was)."""
    share = record.get("coresIdleShare")
    return "-" if share is None else f"{100 * share:.1f}"


def cpu_budget(record, cores):
    """CPU milliseconds per request of Passgate, the sandbox and wrk, and the throughput they allow."""
    parts = [record.get("cpuPer1k") or 0.0, record.get("sandboxCpuPer1k") or 0.0, record.get("wrkCpuPer1k") or 0.0]
    total = sum(parts)
    return parts, total, (cores * 1000.0 / total if total > 0 else None)


def budget_table(document):
    """Where the CPU goes per request: the bound it sets on throughput when the cores are ours."""
    cores = document["machine"]["nproc"]
    lines = ["| run | Passgate ms | sandbox ms | wrk ms | total CPU ms / req | CPU bound req/s | measured | measured / bound |",
             "|---|--:|--:|--:|--:|--:|--:|--:|"]
    for record in document["results"].values():
        parts, total, bound = cpu_budget(record, cores)
        lines.append(f"| {record['name']} | {_fmt(parts[0], 3)} | {_fmt(parts[1], 3)} | {_fmt(parts[2], 3)} | {_fmt(total, 3)} "
                     f"| {_fmt(bound, 0)} | {record['rps']:.0f} | {_pct(_ratio(record['rps'], bound))} |")
    return "\n".join(lines)


def thread_table(document):
    """Passgate's CPU per request by thread role: where its share of the budget goes."""
    lines = ["| run | total | Swift cooperative pool | NIO event loops | curl engine | audit writer | other |",
             "|---|--:|--:|--:|--:|--:|--:|"]
    for record in document["results"].values():
        threads = record.get("threadCpuPer1k")
        if not threads:
            continue
        lines.append(f"| {record['name']} | {_fmt(record.get('cpuPer1k'), 3)} | "
                     + " | ".join(_fmt(threads.get(group, 0.0), 3) for group in THREAD_ROLES) + " |")
    return "\n".join(lines) if len(lines) > 2 else "_(not recorded in this run)_"


def error_table(document):
    """Every run with errors (all rounds): its non-2xx statuses and the first error's status and body."""
    lines = ["| run | errors | by status | first error (status, body cut to 300 bytes) |", "|---|--:|---|---|"]
    for record in document["results"].values():
        if not record.get("errors"):
            continue
        counts = record.get("errorStatuses") or {}
        statuses = ", ".join(f"{status}: {count}" for status, count in sorted(counts.items()))
        # Bad statuses and bad bodies are counted by status; the rest were socket errors.
        socket = record["errors"] - sum(counts.values()) if "errorStatuses" in record else 0
        if socket:
            statuses = ", ".join(part for part in (statuses, f"socket: {socket}") if part)
        first = (record.get("firstError") or "-").replace("|", "\\|")
        lines.append(f"| {record['name']} | {record['errors']} | {statuses or '-'} | `{first}` |")
    if len(lines) == 2:
        return "No errors in any run or round."
    return "\n".join(lines)


def switch_table(document):
    """Context switches per request by thread role (voluntary + involuntary)."""
    def cell(voluntary, involuntary):
        return f"{voluntary:.2f} + {involuntary:.2f}"

    lines = ["| run | Swift cooperative pool | NIO event loops | curl engine | audit writer | other | whole process |",
             "|---|--:|--:|--:|--:|--:|--:|"]
    for record in document["results"].values():
        switches = record.get("threadSwitchesPerRequest")
        if not switches:
            continue
        cells = [cell(*switches[group]) if group in switches else "-" for group in THREAD_ROLES]
        # The Go servers' threads have no roles (all "other"); the total is what compares across servers.
        cells.append(cell(*(sum(column) for column in zip(*switches.values()))))
        lines.append(f"| {record['name']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) if len(lines) > 2 else "_(not recorded in this run)_"


def targets(document):
    """Each target of issue 6 with the measured value and met / not met (or not measured)."""
    results = document["results"]
    rows = []

    def add(target, measured, met):
        rows.append((target, measured, "met" if met else ("not measured" if met is None else "**not met**")))
        return len(rows) - 1

    def unreachable(index, why):
        """A target not met whose bound, measured in the same run, is itself short of the target."""
        target, measured, verdict = rows[index]
        if verdict == "**not met**":
            rows[index] = (target, measured, f"**not met; unreachable here**: {why}")

    md5 = results.get("md5-c64-l0")
    if md5:
        extra = derived(document, md5)
        upstream, proxy = results.get("upstream-md5-c64-l0"), results.get("proxy-md5-c64-l0")
        pair = paired(md5, upstream)
        if pair:
            throughput_row = add("MD5, 64 conn, 0 ms: throughput >= 45% of the upstream ceiling", _paired_text(pair), pair[0] >= 0.45)
        else:
            throughput_row = add("MD5, 64 conn, 0 ms: throughput >= 45% of the upstream ceiling", _pct(extra["vsUpstream"]),
                                 None if extra["vsUpstream"] is None else extra["vsUpstream"] >= 0.45)
        if upstream:
            cores = document["machine"]["nproc"]
            parts, own, own_bound = cpu_budget(md5, cores)
            _, theirs, their_bound = cpu_budget(upstream, cores)
            if own_bound and their_bound:
                rows.append(("(bound) the same ratio from CPU per request alone: sandbox + wrk vs Passgate + sandbox + wrk",
                             f"{_pct(own_bound / their_bound)} ({theirs:.3f} vs {own:.3f} CPU ms per request)", "for reference"))
                needed = theirs / 0.45 - parts[1] - parts[2]
                rows.append(("(what 45% needs) Passgate's CPU per request at which the CPU bound reaches 45%",
                             f"{needed:.3f} ms, against {parts[0]:.3f} ms measured; the sandbox answers the same request "
                             f"(HTTP in and JSON, MD5 check, reply) for {parts[1]:.3f} ms", "for reference"))
                floor, healthz = document.get("curlFloor"), results.get("healthz-c64")
                if floor and healthz and healthz.get("cpuPer1k"):
                    engine = (md5.get("threadCpuPer1k") or {}).get("curl")
                    both = floor["cpuPer1k"] + healthz["cpuPer1k"]
                    rows.append((
                        "(floor) one inbound exchange (Passgate's own `/healthz`) plus one outbound exchange through "
                        "libcurl alone (`bench/harness/curlfloor.c`: the same POST to the sandbox, 64 in flight)",
                        f"{healthz['cpuPer1k']:.3f} + {floor['cpuPer1k']:.3f} = {both:.3f} ms before any JSON, signing, "
                        f"state, logging or audit, against the {needed:.3f} ms that 45% allows"
                        + (f"; Passgate's curl engine thread spent {engine:.3f} ms per call" if engine is not None else ""),
                        "for reference"))
                if proxy and proxy.get("cpuPer1k"):
                    stack = proxy["cpuPer1k"]
                    proxy_pair = paired(proxy, upstream)
                    threads = proxy.get("threadCpuPer1k") or {}
                    split = ", ".join(f"{group} {threads[group]:.3f}" for group in ("pool", "nio", "curl") if group in threads)
                    proxy_ratio = proxy_pair[0] if proxy_pair else _ratio(proxy["rps"], upstream["rps"])
                    if proxy_ratio is not None and proxy_ratio < 0.45:
                        floor_text = (f"; one bare inbound plus one bare libcurl exchange alone cost {both:.3f} of the {needed:.3f} "
                                      "CPU ms per request that 45% allows") if floor and healthz and healthz.get("cpuPer1k") else ""
                        unreachable(throughput_row, f"the bare stack, doing none of Passgate's work, reaches {_pct(proxy_ratio)}"
                                                    f"{floor_text} (floor rows below)")
                    rows.append((
                        "(floor) the bare proxy (`Sources/passgate-bench-proxy`): Passgate's stack - Hummingbird in, the Swift pool, "
                        "`CurlHTTPClient` out - forwarding the same pre-signed request with none of Passgate's work",
                        f"{proxy['rps']:.0f} req/s = "
                        + (_paired_text(proxy_pair) if proxy_pair else _pct(_ratio(proxy["rps"], upstream["rps"])))
                        + " of upstream, "
                        f"{proxy['errors']} errors; {stack:.3f} CPU ms per request ({split}) against the {needed:.3f} ms "
                        f"that 45% allows; Passgate spends {parts[0] - stack:+.3f} ms on top of it "
                        f"and reaches {_pct(_ratio(md5['rps'], proxy['rps']))} of its throughput",
                        "for reference"))
        p50_row = add("MD5, 64 conn, 0 ms: added p50 < 1 ms", f"{_fmt(extra['addedP50Ms'])} ms",
                      None if extra["addedP50Ms"] is None else extra["addedP50Ms"] < 1.0)
        p99_row = add("MD5, 64 conn, 0 ms: p99 < 5 ms", f"{_fmt(_ms(md5['p99']))} ms", _ms(md5["p99"]) < 5.0)
        if proxy and upstream:
            if _ms(proxy["p50"] - upstream["p50"]) >= 1.0:
                unreachable(p50_row, f"the bare stack alone adds {_fmt(_ms(proxy['p50'] - upstream['p50']))} ms (floor row below)")
            if _ms(proxy["p99"]) >= 5.0:
                unreachable(p99_row, f"the bare stack alone has p99 {_fmt(_ms(proxy['p99']))} ms (floor row below)")
            rows.append(("(floor) the bare proxy under the same load: added p50, and p99",
                         f"{_fmt(_ms(proxy['p50'] - upstream['p50']))} ms added at p50, p99 {_fmt(_ms(proxy['p99']))} ms: "
                         "with 64 requests kept in flight, latency is 64 / throughput, and the stack alone does not "
                         "reach the throughput these targets need", "for reference"))
    else:
        add("MD5, 64 conn, 0 ms (three targets)", "-", None)
    rsa_runs = [record for name, record in results.items() if name in ("rsa-c64-l0", "rsa-c1024-l0")]
    if rsa_runs:
        best = max(rsa_runs, key=lambda record: record["rps"] / rsa_ceiling(document, record))
        ceiling = rsa_ceiling(document, best)
        rsa_row = add(f"RSA: >= 80% of the RSA ceiling (openssl sign/s x cores / 2, measured next to the run: {ceiling:.0f} req/s)",
                      f"{best['rps']:.0f} req/s = {_pct(best['rps'] / ceiling)} ({best['name']})", best["rps"] >= 0.8 * ceiling)
        cores = document["machine"]["nproc"]
        parts, total, bound = cpu_budget(best, cores)
        rsa_ms = 2000.0 / (best.get("rsaNearby") or document["rsa"])["sign_per_s_1core"]
        if bound:
            rows.append(("(bound) throughput the CPU per request allows: Passgate + sandbox + wrk on the same cores",
                         f"{bound:.0f} req/s = {_pct(bound / ceiling)} of the ceiling ({total:.3f} CPU ms per request, of which "
                         f"{rsa_ms:.3f} ms are the two private-key operations at openssl's speed)", "for reference"))
            floor = rsa_ms + parts[1] + parts[2]
            reachable = cores * 1000.0 / floor / ceiling >= 0.8
            if not reachable:
                unreachable(rsa_row, f"the two private-key operations alone, next to the sandbox and wrk, allow {_pct(cores * 1000.0 / floor / ceiling)} (bound row below)")
            verdict = ("80% is within this bound: what is missing is Passgate's own work per request" if reachable
                       else "80% cannot be reached while the sandbox and wrk share the two cores")
            rows.append(("(bound) even if Passgate spent nothing but its two private-key operations: those + the sandbox "
                         "(RSA verify + encrypt) + wrk on the same cores",
                         f"{cores * 1000.0 / floor:.0f} req/s = {_pct(cores * 1000.0 / floor / ceiling)} of the ceiling "
                         f"({rsa_ms:.3f} + {parts[1]:.3f} + {parts[2]:.3f} ms per request): {verdict}", "for reference"))
    else:
        add("RSA: >= 80% of the RSA ceiling", "-", None)
    # The stack's own rise from 0 ms to 200 ms at 1,024 connections, as the bare proxy measured it.
    proxy_0, proxy_200 = results.get("proxy-md5-c1024-l0"), results.get("proxy-md5-c1024-l200")
    proxy_pair_measured = bool(proxy_0 and proxy_200 and proxy_0.get("cpuPer1k") and proxy_200.get("cpuPer1k"))
    stack_rise = proxy_200["cpuPer1k"] - proxy_0["cpuPer1k"] if proxy_pair_measured else 0.0
    for op in ("md5", "rsa", "verify"):
        record = results.get(f"{op}-c1024-l200")
        if not record:
            continue
        cpu_limit = results.get(f"{op}-c1024-l0")
        cores = document["machine"]["nproc"]
        add(f"{op}, 1,024 conn, 200 ms: zero errors", str(record["errors"]), record["errors"] == 0)
        # The CPU limit of this scenario: what the cores allow at the CPU per request measured in the
        # same run (Passgate + sandbox + wrk), so that the host's drift between runs cancels out.
        own_parts, own_total, own_bound = cpu_budget(record, cores)
        within = own_bound_rounds(document, record["name"])
        if own_bound and own_bound >= 1024 / 0.2:
            measured = f"{record['rps']:.0f} req/s = {_pct(record['rps'] / (1024 / 0.2))} of 1,024/0.2 s (the CPU allows {own_bound:.0f})"
            met = record["rps"] >= 0.9 * 1024 / 0.2
        elif within:
            measured = (f"{_paired_text(within, 'rounds, each against its own bound')} of the CPU limit: "
                        f"{own_bound:.0f} req/s in the median round ({cores} cores / {own_total:.3f} CPU ms per request: Passgate "
                        f"{own_parts[0]:.3f} + sandbox {own_parts[1]:.3f} + wrk {own_parts[2]:.3f})")
            met = within[0] >= 0.9
        else:
            measured, met = "-", None
        add(f"{op}, 1,024 conn, 200 ms: >= 90% of min(1,024/0.2 s, CPU limit)", measured, met)
        pair = paired(record, cpu_limit) if cpu_limit else None
        if pair:
            rows.append((f"(other reading) {op}, 1,024 conn, 200 ms: throughput against Passgate's own throughput with a 0 ms "
                         f"carrier ({op}-c1024-l0), which assumes a call costs the same CPU with 1,024 calls held open",
                         _paired_text(pair), "for reference"))
        limit_parts, limit_total, _ = cpu_budget(cpu_limit, cores) if cpu_limit else (None, None, None)
        if own_bound and limit_total:
            rise = own_parts[0] / limit_parts[0] - 1 if limit_parts[0] else 0.0
            stack = (f"; the bare stack's {proxy_0['cpuPer1k']:.3f} -> {proxy_200['cpuPer1k']:.3f} ms "
                     f"({(proxy_200['cpuPer1k'] / proxy_0['cpuPer1k'] - 1) * 100:+.0f}%)") if proxy_pair_measured else ""
            rows.append((f"(detail) {op}, 1,024 conn: CPU per request with a 200 ms carrier against a 0 ms one",
                         f"whole machine {limit_total:.3f} -> {own_total:.3f} ms ({(own_total / limit_total - 1) * 100:+.0f}%); "
                         f"Passgate {limit_parts[0]:.3f} -> {own_parts[0]:.3f} ms ({rise * 100:+.0f}%){stack}", "for reference"))
            steady = limit_parts[0] + stack_rise + own_parts[1] + own_parts[2]
            rows.append((f"(bound, other reading) {op}, 1,024 conn, 200 ms, if Passgate's own work cost what it does at 0 ms and only "
                         "its stack's cost rose as the bare proxy's did, with the sandbox and wrk at their 200 ms cost",
                         f"{_pct(limit_total / steady)} of the 0 ms throughput ({limit_parts[0]:.3f} + {stack_rise:.3f} + {own_parts[1]:.3f} + "
                         f"{own_parts[2]:.3f} = {steady:.3f} ms per request against {limit_total:.3f} ms at 0 ms; the sandbox "
                         f"alone went from {limit_parts[1]:.3f} to {own_parts[1]:.3f} ms)", "for reference"))
        alone_0, alone_200 = results.get(f"upstream-{op}-c1024-l0"), results.get(f"upstream-{op}-c1024-l200")
        if alone_0 and alone_200 and alone_0.get("sandboxCpuPer1k") and alone_200.get("sandboxCpuPer1k"):
            rise = alone_200["sandboxCpuPer1k"] / alone_0["sandboxCpuPer1k"] - 1
            rows.append((f"(detail) {op}: the sandbox alone (no Passgate), 1,024 conn, CPU per request at 200 ms against 0 ms",
                         f"{alone_0['sandboxCpuPer1k']:.3f} -> {alone_200['sandboxCpuPer1k']:.3f} ms ({rise * 100:+.0f}%): holding "
                         "1,024 requests open costs the same code more per request; 90% of the 0 ms throughput allows "
                         "the CPU per request of the whole machine to rise by 11% at most", "for reference"))
        add(f"{op}, 1,024 conn, 200 ms: peak RSS < 256 MB", f"{record['peakRssKb'] / 1024:.1f} MB",
            record["peakRssKb"] < 256 * 1024)
    if proxy_pair_measured:
        rows.append(("(floor) the bare proxy at 1,024 conn: 200 ms against its own 0 ms run (the same stack with none of "
                     "Passgate's work, the same sandbox)",
                     f"{proxy_200['rps']:.0f} req/s = {_pct(_ratio(proxy_200['rps'], proxy_0['rps']))} of {proxy_0['rps']:.0f}; its CPU "
                     f"per request {proxy_0['cpuPer1k']:.3f} -> {proxy_200['cpuPer1k']:.3f} ms, the sandbox's "
                     f"{proxy_0.get('sandboxCpuPer1k') or 0:.3f} -> {proxy_200.get('sandboxCpuPer1k') or 0:.3f} ms", "for reference"))
    startups = document["startups"]
    if startups:
        worst_idle = max(start[1] for start in startups)
        worst_start = max(start[0] for start in startups)
        median_start = sorted(start[0] for start in startups)[len(startups) // 2]
        add("idle RSS < 40 MB", f"{worst_idle / 1024:.1f} MB (largest of {len(startups)} starts)", worst_idle < 40 * 1024)
        shares = [start for start in startups if len(start) > 3 and start[2] and start[3]]
        if shares:
            pss = max(start[2] for start in shares) / 1024
            anon = max(start[3] for start in shares) / 1024
            rows.append(("(detail) of that RSS: the process's own anonymous memory, and PSS (shared pages divided among the processes mapping them)",
                         f"anonymous {anon:.1f} MB, PSS {pss:.1f} MB; the rest is file-backed code of the binary and shared libraries "
                         "(Swift runtime, Foundation, ICU, libcrypto)", "for reference"))
        add("start-up to ready < 1 s", f"{worst_start * 1000:.0f} ms slowest, {median_start * 1000:.0f} ms median "
            f"of {len(startups)} starts", worst_start < 1.0)
    go_targets(document, add)
    lines = ["| target | measured | |", "|---|---|---|"]
    lines += [f"| {target} | {measured} | {verdict} |" for target, measured, verdict in rows]
    return "\n".join(lines)


def _round_medians(ours, theirs, value):
    """Per-round ratios `value(our round) / value(their round)` of two scenarios run in the same
    rounds, and their median; the single records' ratio when either ran once."""
    tops, bottoms = ours.get("rounds") or [ours], theirs.get("rounds") or [theirs]
    if len(tops) != len(bottoms):
        tops, bottoms = [ours], [theirs]
    ratios = [value(top) / value(bottom) for top, bottom in zip(tops, bottoms) if value(top) and value(bottom)]
    return (sorted(ratios)[len(ratios) // 2], ratios) if ratios else None


def go_targets(document, add):
    """Issue 20: Passgate against the Go reference (bench/goref) in the same rounds, and RSA against
    the CPU bound of its own run."""
    results = document["results"]
    for name, label in (("md5-c64-l0", "64 conn, 0 ms"), ("md5-c1024-l200", "1,024 conn, 200 ms")):
        ours, go = results.get(name), results.get(f"go-{name}")
        if not ours or not go:
            add(f"vs Go, MD5 {label}: throughput >= 1.0x, CPU per request <= 1.0x", "-", None)
            continue
        throughput = _round_medians(ours, go, lambda record: record["rps"])
        cpu = _round_medians(ours, go, lambda record: record.get("cpuPer1k"))
        add(f"vs Go, MD5 {label}: throughput >= 1.0x the Go reference, 0 errors",
            f"{_fmt(throughput[0])}x (rounds: {', '.join(_fmt(r) for r in throughput[1])}); errors {ours['errors']}",
            throughput[0] >= 1.0 and ours["errors"] == 0)
        if cpu:
            add(f"vs Go, MD5 {label}: CPU per request <= 1.0x the Go reference's",
                f"{_fmt(cpu[0])}x (rounds: {', '.join(_fmt(r) for r in cpu[1])})", cpu[0] <= 1.0)
    ours, go = results.get("md5-c1-l0"), results.get("go-md5-c1-l0")
    if ours and go:
        p50 = _round_medians(ours, go, lambda record: record["p50"])
        add("vs Go, MD5 1 conn, 0 ms: p50 latency <= the Go reference's",
            f"{_fmt(_ms(ours['p50']))} vs {_fmt(_ms(go['p50']))} ms; ratio {_fmt(p50[0])}x (rounds: {', '.join(_fmt(r) for r in p50[1])})",
            p50[0] <= 1.0)
    else:
        add("vs Go, MD5 1 conn, 0 ms: p50 latency <= the Go reference's", "-", None)
    rsa = [name for name in ("rsa-c64-l0", "rsa-c1024-l0") if name in results]
    if rsa:
        within = {name: own_bound_rounds(document, name) for name in rsa}
        best = max((name for name in rsa if within[name]), key=lambda name: within[name][0], default=None)
        if best:
            add("RSA: >= 80% of the throughput the same run's CPU allows (cores / CPU per request of Passgate, sandbox and wrk)",
                f"{best}: {_paired_text(within[best], 'rounds, each against its own bound')}", within[best][0] >= 0.8)


def plots(document, directory):
    """One latency-distribution PNG per every-load scenario of the run's bench plan that ran (for a
    run saved without a plan, per scenario measured against the 200 ms sandbox); returns {op: file name}."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedFormatter, FixedLocator, FuncFormatter, LogLocator, NullFormatter

    os.makedirs(directory, exist_ok=True)
    results = document["results"]
    colors = {1: "tab:blue", 64: "tab:orange", 1024: "tab:green"}
    written = {}
    titles = benchplan.titles(document)
    if document.get("plan"):
        plan = benchplan.Plan(document["plan"])
        candidates = [name for name in plan.scenarios if plan.scenario(name).every_load]
    else:
        candidates = [op for op in dict.fromkeys(record["op"] for record in results.values())
                      if any(record["op"] == op and record["latencyMs"] for record in results.values())]
    plotted = [op for op in candidates if any(record["kind"] == "passgate" and record["op"] == op for record in results.values())]
    for op in plotted:
        figure, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=False)
        for axis, latency in zip(axes, (0, 200)):
            for connections in (1, 64, 1024):
                for kind, style in (("passgate", "-"), ("upstream", "--")):
                    name = (f"{op}-c{connections}-l{latency}" if kind == "passgate"
                            else f"upstream-{op}-c{connections}-l{latency}")
                    record = results.get(name)
                    if not record:
                        continue
                    points = [(p, v) for p, v in record["percentiles"] if p < 100]
                    xs = [1.0 / (1.0 - p / 100.0) for p, _ in points]
                    ys = [max(v, 1) / 1000.0 for _, v in points]
                    label = f"{'Passgate' if kind == 'passgate' else 'sandbox alone'}, {connections} conn"
                    axis.plot(xs, ys, style, color=colors[connections], label=label, linewidth=1.6)
            axis.set_xscale("log")
            axis.set_yscale("log")
            ticks = [1, 2, 10, 100, 1000, 10000]
            axis.xaxis.set_major_locator(FixedLocator(ticks))
            axis.xaxis.set_major_formatter(FixedFormatter(["0%", "50%", "90%", "99%", "99.9%", "99.99%"]))
            axis.xaxis.set_minor_locator(FixedLocator([]))
            axis.set_xlim(1, 10000)
            axis.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            axis.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
            axis.yaxis.set_minor_formatter(NullFormatter())
            axis.set_xlabel("percentile")
            axis.set_ylabel("latency (ms, log)")
            axis.set_title(f"sandbox latency {latency} ms")
            axis.grid(True, which="both", alpha=0.3)
            if axis.lines:
                axis.legend(fontsize=8)
        figure.suptitle(f"Latency distribution: {titles.get(op, op)} (wrk; dashed: the sandbox alone)")
        figure.tight_layout()
        name = f"latency-{op}.png"
        figure.savefig(os.path.join(directory, name), dpi=90)
        plt.close(figure)
        written[op] = name
    return written


def scenario_list(document):
    """`: `NAME` LABEL (PROVIDER), ...`: the run's scenarios as its bench plan describes them."""
    if not document.get("plan"):
        return ""
    plan = benchplan.Plan(document["plan"])
    return ": " + ", ".join(f"`{name}` {scenario.label} ({scenario.provider})" for name, scenario in plan.scenarios.items())


def provider_list(document):
    """"`a` and `b` providers": the providers of the run's bench plan."""
    if not document.get("plan"):
        return "bench plan's providers"
    ids = [f"`{provider['id']}`" for provider in document["plan"]["providers"]]
    listed = ids[0] if len(ids) == 1 else ", ".join(ids[:-1]) + " and " + ids[-1]
    return f"{listed} provider{'s' if len(ids) > 1 else ''}"


def upstream_list(document):
    """`: `NAME` UPSTREAM; ...`: what each scenario's upstream reference sends, from the bench plan."""
    if not document.get("plan"):
        return ""
    plan = benchplan.Plan(document["plan"])
    return ": " + "; ".join(f"`{name}` {scenario.upstream}" for name, scenario in plan.scenarios.items())


def write_results(document, bench_dir):
    """Regenerates bench/RESULTS.md (and bench/plots/) from `document`: the latest judged run only."""
    info = document["machine"]
    titles = benchplan.titles(document)
    written = plots(document, os.path.join(bench_dir, "plots"))
    rsa = document["rsa"]
    subset = "" if not document["quick"] else " (**--quick**: a subset, 3 s runs; numbers are a smoke check only)"
    parts = [
        "# Benchmark results",
        "",
        "<!-- Generated by bench/run and rewritten whole on every run: the latest judged run only. "
        "What the figures decided is in bench/decisions/. -->",
        "",
        f"Run `{document['argv']}` on {info['date']}{subset}: {document['durationS']} s per scenario after a "
        f"{document['warmupS']} s warm-up; the whole run took {info.get('elapsedS', 0) / 60:.1f} min.",
        "",
        "## Machine",
        "",
        f"- CPU: {info['cpu']}, `nproc` = {info['nproc']}; memory {info['memory']}; kernel {info['kernel']}",
        f"- load average at start: {' '.join(info['loadavg_start'])}; at the end: {' '.join(info.get('loadavg_end', []))} "
        "(the machine is shared: absolute figures are noisy, the ratios use references from the same run)",
        f"- {info['swift']}; {info['openssl']}; {info['wrk']}; commit {info['commit']}",
        "- wrk, the sandbox and Passgate all share these cores; nothing is pinned.",
        "",
        "## Results",
        "",
        "Scenario names: `OP-cCONNECTIONS-lSANDBOX_LATENCY_MS`; OP is a scenario of a provider's bench description "
        f"(`passgate bench-plan`){scenario_list(document)}. Latencies are wrk's, from the client. "
        "*added p50* = Passgate's p50 minus the sandbox's own p50 under the same load (the matching upstream run). "
        "*CPU-s / 1k req*: utime + stime of the Passgate process over the measured run. *errors*: non-2xx, 2xx "
        "answers without the expected result, and socket errors (connect, read, write, timeout). *vs upstream*: "
        "throughput against the same load sent straight to the sandbox; *vs /healthz*: against Passgate's own "
        "`/healthz` (the cost floor); *vs RSA ceiling*: against openssl's sign/s x cores / 2.",
        "",
        table(document),
        "",
        "## Targets",
        "",
        targets(document),
        "",
        "## Errors",
        "",
        error_table(document),
        "",
        "## CPU per request",
        "",
        "CPU time of each process over the measured run divided by the requests served (utime + stime from "
        "/proc for Passgate and the sandbox, wrk's rusage). With every core busy, throughput cannot exceed "
        "cores / total; *measured / bound* below 100% means the run did not get the cores to itself (other "
        "load on the machine) or waited on something else (the 200 ms sandbox latency, a single connection).",
        "",
        budget_table(document),
        "",
        "Passgate's share by thread (CPU ms per request; from /proc/PID/task/*/stat around the measured run). "
        "The request handlers (JSON, auth, replay cache, signing, RSA, logging, audit records) run on the NIO "
        "event loop that read the request while few are in flight (`server.requestsOnEventLoop`) and on Swift's "
        "cooperative pool beyond that; the loops also do the inbound HTTP; the curl engine the outbound HTTP (`eventLoop: "
        f"{document.get('eventLoop', 'poll')}`); the audit writer the billing lines.",
        "",
        thread_table(document),
        "",
        "Context switches per request by thread role, voluntary + involuntary (from /proc/PID/task/*/status "
        "around the measured run). A voluntary switch is a thread going to sleep for want of work, so each one "
        "is a later wake-up that some other thread paid a system call for; involuntary ones are preemptions. "
        "The Go servers' threads have no roles (all *other*): hold their *whole process* against Passgate's.",
        "",
        switch_table(document),
        "",
    ]
    counted = syscalls.table(document)
    if counted:
        parts += [
            "System calls per request of the runs `--syscalls` named (`perf stat` over the measured run, each run "
            "measured alone): the total, and how many of them park a thread or wake one (futex, epoll_wait, sleep; not libcurl's zero-timeout polls).",
            "",
            counted,
            "",
        ]
    parts += [
        "## Latency distributions",
        "",
    ]
    for op, name in written.items():
        parts += [f"![{titles.get(op, op)}](plots/{name})", ""]
    parts += [
        "## How it was measured",
        "",
        "- `bench/run` builds with `scripts/build-release --scratch-path .build-static` (as deploy/Dockerfile does), generates a config in a "
        "temporary directory (2048-bit RSA keys, secrets as `file:` references, the embedded sandbox off, the "
        f"{provider_list(document)} at the sandbox's loopback port, `maxConcurrentCalls: {document['maxConcurrentCalls']}`, "
        f"`eventLoop: {document.get('eventLoop', 'poll')}`, "
        f"one client without a rate limit, JSON logs at {document.get('logLevel', 'info')} to /dev/null) and, for every run, starts a fresh "
        "`passgate sandbox --bench --latency-ms N` and a fresh `passgate serve` from that same file, so both hold "
        "the same app credentials.",
        "- Before each run the harness mints fresh tokens with the sandbox's bench-mode batch minting and writes "
        "one request body per token, dealt to the wrk threads (`bench/lua/load.lua`): no token, msgid or replay "
        "key repeats. Requests straight to the sandbox (the upstream reference) are made as Passgate makes them "
        f"(`passgate sign --json`) and the sandbox checks every one{upstream_list(document)}. A pool is sized from the "
        "warm-up rate; if it runs out, the run is repeated with a larger one.",
        f"- Upstream RSA reference runs last at most {3} s: each of their requests needs an RSA signature made by "
        "the harness beforehand.",
        f"- RSA ceiling: `openssl speed -multi {rsa['cores']} rsa2048` sign/s / 2 (one private-key sign and one "
        "private-key decrypt per RSA request), measured at the start and again right before each RSA run with a "
        "0 ms sandbox; the ratio uses the one next to the run, since the machine's other load changes within minutes.",
        "- The CPU limit for the 1,024-connection / 200 ms target is what the two cores allow at the CPU per request "
        "measured in that same run (Passgate + sandbox + wrk), judged round by round, so the host's drift between "
        "runs cancels out. The other reading, Passgate's own throughput with a 0 ms sandbox at 1,024 connections, "
        "is shown below it: it assumes a call costs the same CPU with 1,024 calls held open, which the sandbox "
        "alone and the bare proxy show it does not.",
        "- libcurl alone (`bench/harness/curlfloor.c`, right after md5-c64-l0): a C client keeps 64 MD5 login "
        "POSTs in flight to a fresh sandbox through one multi handle, resetting each easy handle and setting its "
        "options, headers and body per request as Passgate's engine does; its CPU time per answered request is "
        "the floor under Passgate's outbound exchange.",
        "- The bare proxy (`Sources/passgate-bench-proxy`, right after md5-c64-l0): `passgate-bench-proxy`, built with Passgate from "
        "the same parts (Hummingbird, `CurlHTTPClient` with its engine thread), forwards each pre-signed upstream "
        "request body verbatim to a fresh sandbox and returns the answer verbatim, under the same wrk load; no "
        "parsing, auth, state, signing, logging, metrics or audit. Its CPU per request is what one inbound plus one "
        "outbound exchange costs on this stack.",
        f"- Rounds: the MD5 throughput group (sandbox alone, Passgate, bare proxy at 64 connections) and each mode's "
        f"1,024-connection pair were measured {document.get('rounds', 1)} time(s), each round's runs back to back; the "
        "targets judge the median of the per-round ratios, and every table shows the scenario's median round "
        "(all rounds: `roundRecords` in the JSON).",
        *(["- Interleaved: at each point with a Go reference, Passgate, its bare proxy, the Go reference and Go's bare "
           "proxy (those measured there) served at once in front of one sandbox, and wrk visited them in turn in "
           "slices of 2 s (5 s against the 200 ms carrier), A B B A ..., so that every ratio to Go compares the same "
           "stretches of the host (`bench/harness/interleave.py`; `--sequential` runs them one after the other)."]
          if interleaved(document) else []),
        "- Raw figures (every percentile, CPU, RSS, load average per run): `bench/out/latest.json` (git-ignored).",
        "",
        "Rerun: `bench/run` (about 20 minutes; `--rounds 1` about 13; `--quick` for a smoke check, `--scenarios 'md5-*'`, `--duration 20`, "
        "`--profile` to also record a perf profile, `--callgrind SCENARIO` for instructions per request, `--help` for "
        "the rest). See bench/README.md.",
        "",
        "The decisions these measurements informed, each with its figures and how to rerun it: "
        "[bench/decisions/](decisions/README.md).",
        "",
    ]
    with open(os.path.join(bench_dir, "RESULTS.md"), "w") as handle:
        handle.write("\n".join(parts))


# --- perf ------------------------------------------------------------------------------------------

def start_perf(pid, directory):
    os.makedirs(directory, exist_ok=True)
    data = os.path.join(directory, "perf.data")
    machine.log(f"  perf record -g -p {pid} -> {data}")
    # BENCH_PERF_CALLGRAPH=dwarf finds the callers of leaf functions (swift_retain) that frame
    # pointers miss, at about ten times the data.
    mode = os.environ.get("BENCH_PERF_CALLGRAPH", "fp")
    graph = ["--call-graph", "dwarf,16384", "-F", "499"] if mode == "dwarf" else ["-g", "-F", "999"]
    return subprocess.Popen(["perf", "record"] + graph + ["-p", str(pid), "-o", data],
                            stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "perf-record.log"), "w"))


def stop_perf(process):
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)


def summarize_perf(directory):
    """Self and inclusive cost by symbol (Swift names demangled) into DIRECTORY/*.txt."""
    data = os.path.join(directory, "perf.data")
    if not os.path.exists(data):
        return
    demangle = ["swift-demangle", "--simplified"]
    for name, extra in (("self", ["--no-children"]), ("inclusive", ["--children"])):
        report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", "symbol", "--percent-limit", "0.3",
                                 "-g", "none"] + extra, capture_output=True, text=True).stdout
        demangled = subprocess.run(demangle, input=report, capture_output=True, text=True).stdout or report
        with open(os.path.join(directory, f"{name}.txt"), "w") as handle:
            handle.write(demangled)
    dso = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", "dso", "--no-children"],
                         capture_output=True, text=True).stdout
    with open(os.path.join(directory, "dso.txt"), "w") as handle:
        handle.write(dso)
    machine.log(f"perf summaries in {directory}: self.txt, inclusive.txt, dso.txt")


def callgrind_wrapper(directory, prefix="callgrind.out", from_start=False):
    """valgrind's callgrind writing DIRECTORY/PREFIX.PID; counting off until `callgrind_toggle` turns
    it on for the measured run, or on from the first instruction (`from_start`)."""
    os.makedirs(directory, exist_ok=True)
    for old in os.listdir(directory):
        if old.startswith(prefix):
            os.remove(os.path.join(directory, old))
    # Symbols as the object names them: the tables are demangled afterwards, the link order needs them as they are.
    return ["valgrind", "--tool=callgrind", "--demangle=no", f"--instr-atstart={'yes' if from_start else 'no'}",
            "--fair-sched=yes", f"--callgrind-out-file={os.path.join(directory, prefix + '.%p')}"]


def callgrind_toggle(pid, on):
    subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(pid)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def summarize_callgrind(directory, requests, binary, run):
    """Instructions per request (callgrind counts instructions, so this repeats whatever else the
    machine does), the inclusive/self tables into DIRECTORY/callgrind-*.txt, and `binary`'s own
    functions with their instructions per request into DIRECTORY/functions-RUN.tsv (linkorder.py)."""
    files = sorted(name for name in os.listdir(directory) if name.startswith("callgrind.out"))
    if not files:
        return None
    path = os.path.join(directory, files[-1])
    total = None
    with open(path, errors="replace") as handle:
        for line in handle:
            if line.startswith(("totals:", "summary:")):
                total = int(line.split()[1])
    demangle = ["swift-demangle", "--simplified"]
    for name, extra in (("self", []), ("inclusive", ["--inclusive=yes"])):
        text = subprocess.run(["callgrind_annotate", "--threshold=99"] + extra + [path],
                              capture_output=True, text=True).stdout
        demangled = subprocess.run(demangle, input=text, capture_output=True, text=True).stdout or text
        with open(os.path.join(directory, f"callgrind-{name}.txt"), "w") as handle:
            handle.write(demangled)
    linkorder.write_tsv(os.path.join(directory, f"functions-{run}.tsv"), linkorder.functions(path, binary, requests))
    if total is None:
        return None
    per_request = total / max(requests, 1)
    machine.log(f"callgrind: {total:,} instructions over {requests} requests = {per_request:,.0f} per request "
                f"({directory}/callgrind-{{self,inclusive}}.txt)")
    return per_request


def callgrind_binary(binary, directory):
    """A copy without DWARF: valgrind 3.19 cannot read the DWARF 5 that Swift 6 writes (the symbol
    table stays, so functions keep their names)."""
    os.makedirs(directory, exist_ok=True)
    stripped = os.path.join(directory, os.path.basename(binary) + "-nodebug")
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    return stripped
