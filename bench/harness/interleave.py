"""Interleaved measurement: the servers of one comparison (Passgate, its bare proxy, the Go
reference, Go's bare proxy) all run at once against one sandbox, and wrk visits them in turn, in
short slices, ordered A B B A A B ... so that each server is measured in the same stretches of the
host as the others.

Why: measured one after the other, 10 s each, the ratios moved with the host rather than with the
code. The sandbox, the same code beside either server, cost up to 29 % more per request in one
server's window than in the other's a few seconds later (bench/decisions/0021-how-the-bench-judges.md). Slices alternate
faster than the host drifts, and the order reverses every slice, so a drift that is steady over a
round cancels out of the ratios.

This module holds the bookkeeping only (slice order, merging slice summaries); bench/run starts the
processes and runs wrk."""


def slice_plan(seconds, latency_ms):
    """(slices per server, whole seconds per slice, as wrk takes them) for about `seconds` of
    measurement per server: 2 s slices with no carrier latency; 5 s slices at 200 ms, where a fresh
    wrk needs a few round trips of every connection before its load is steady. At least two slices
    each, so that the order reverses."""
    length = 5 if latency_ms else 2
    return max(2, round(seconds / length)), length


def slice_order(names, slices):
    """Which server each slice measures: `names` in order, then reversed, and so on (A B B A A B ...)."""
    order = []
    for index in range(slices):
        order += list(names) if index % 2 == 0 else list(reversed(names))
    return order


_SUMMED = ("requests", "durationUs", "bytes", "good", "badStatus", "badBody", "connectErrors", "readErrors",
           "writeErrors", "timeouts", "statusErrors", "socketErrors", "errors", "wrkCpuSeconds")


def merge_summaries(parts):
    """One wrk summary for the slices `parts` of one server: counts and durations summed, `rps`
    from the sums, the mean and latency percentiles of all slices' requests together (each slice's
    percentile curve weighted by its request count; see merge_percentiles)."""
    merged = {key: sum(part.get(key, 0) for part in parts) for key in _SUMMED}
    merged["seconds"] = merged["durationUs"] / 1e6
    merged["rps"] = merged["good"] / merged["seconds"] if merged["seconds"] > 0 else 0.0
    merged["exhausted"] = any(part.get("exhausted") for part in parts)
    merged["max"] = max(part.get("max", 0) for part in parts)
    weights = [max(part.get("requests", 0), 0) for part in parts]
    total = sum(weights) or 1
    merged["mean"] = sum(part.get("mean", 0.0) * weight for part, weight in zip(parts, weights)) / total
    merged["percentiles"] = merge_percentiles([part.get("percentiles", []) for part in parts], weights)
    for key, percentile in (("p50", 50), ("p99", 99), ("p999", 99.9)):
        merged[key] = value_at(merged["percentiles"], percentile)
    statuses = {}
    for part in parts:
        for status, count in (part.get("errorStatuses") or {}).items():
            statuses[status] = statuses.get(status, 0) + count
    merged["errorStatuses"] = statuses
    merged["firstError"] = next((part["firstError"] for part in parts if part.get("firstError")), "")
    seconds = [part.get("seconds", 0.0) for part in parts]
    if all("coresIdleShare" in part for part in parts) and sum(seconds) > 0:
        merged["coresIdleShare"] = sum(part["coresIdleShare"] * s for part, s in zip(parts, seconds)) / sum(seconds)
    merged["slices"] = len(parts)
    return merged


def _share_below(curve, value):
    """The share (0-100) of one slice's requests at or below `value`, read off its percentile curve
    [[percentile, microseconds], ...] by linear interpolation."""
    if not curve:
        return 0.0
    if value < curve[0][1]:
        return 0.0
    for (p0, v0), (p1, v1) in zip(curve, curve[1:]):
        if v0 <= value < v1:
            return p0 + (p1 - p0) * (value - v0) / (v1 - v0)
    return 100.0


def merge_percentiles(curves, weights):
    """The percentile curve of all slices' requests together: the request-weighted mix of each
    slice's distribution, inverted at the percentiles wrk reports. Exact at the slices' own points,
    linear between them."""
    curves = [(curve, weight) for curve, weight in zip(curves, weights) if curve and weight > 0]
    if not curves:
        return []
    total = sum(weight for _, weight in curves)
    values = sorted({value for curve, _ in curves for _, value in curve})
    mixed = [(sum(_share_below(curve, value) * weight for curve, weight in curves) / total, value) for value in values]
    result = []
    for percentile in [p for p, _ in curves[0][0]]:
        result.append([percentile, _value_for_share(mixed, percentile)])
    return result


def _value_for_share(mixed, percentile):
    """The smallest latency whose mixed share reaches `percentile` (linear between points)."""
    previous_share, previous_value = 0.0, mixed[0][1]
    for share, value in mixed:
        if share >= percentile:
            if share == previous_share:
                return value
            fraction = (percentile - previous_share) / (share - previous_share)
            return round(previous_value + (value - previous_value) * max(0.0, min(1.0, fraction)))
        previous_share, previous_value = share, value
    return mixed[-1][1]


def value_at(curve, percentile):
    """Microseconds at `percentile` of a curve [[percentile, microseconds], ...] (exact point, else
    interpolated)."""
    for (p0, v0), (p1, v1) in zip(curve, curve[1:]):
        if p0 <= percentile <= p1:
            return v0 if p1 == p0 else round(v0 + (v1 - v0) * (percentile - p0) / (p1 - p0))
    return curve[-1][1] if curve else 0


def _by_role(before, after, zero, minus, plus):
    """Per-thread readings ({tid: (role, value)}) turned into what each role cost between them: a
    thread alive at both readings adds its own increase, one started since adds all it has, and
    one that exited since adds nothing (its counts left with it, so never a negative share)."""
    roles = {}
    for tid, (role, value) in after.items():
        start = before.get(tid)
        increase = minus(value, start[1]) if start and start[0] == role else value
        roles[role] = plus(roles.get(role, zero), increase)
    return roles


def difference(before, after):
    """What a run cost, from two readings (bench/run's Bench.reading): CPU seconds of the server,
    its threads by role and the sandbox, and context switches by role."""
    return {"passgate": (after["passgate"] - before["passgate"]) if after["passgate"] is not None else 0.0,
            "threads": _by_role(before["threads"], after["threads"], 0.0,
                                lambda a, b: a - b, lambda a, b: a + b),
            "switches": _by_role(before["switches"], after["switches"], (0, 0),
                                 lambda a, b: tuple(x - y for x, y in zip(a, b)),
                                 lambda a, b: tuple(x + y for x, y in zip(a, b))),
            "sandbox": after["sandbox"] - before["sandbox"]}


def no_costs():
    """Costs (see difference) of nothing yet, to accumulate slices into."""
    return {"passgate": 0.0, "threads": {}, "switches": {}, "sandbox": 0.0}


def accumulate(total, part):
    """Adds the costs `part` (see difference) into `total`."""
    total["passgate"] += part["passgate"]
    total["sandbox"] += part["sandbox"]
    for group, value in part["threads"].items():
        total["threads"][group] = total["threads"].get(group, 0.0) + value
    for group, counts in part["switches"].items():
        previous = total["switches"].get(group, (0, 0))
        total["switches"][group] = tuple(a + b for a, b in zip(previous, counts))
