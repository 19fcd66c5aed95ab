"""Tests of the interleaved measurement's bookkeeping (run by scripts/test:
`python3 -m unittest discover -s bench/harness`)."""

import random
import unittest

from interleave import accumulate, difference, merge_percentiles, merge_summaries, no_costs, slice_order, slice_plan, value_at

POINTS = [0, 1, 5, 10, 25, 50, 75, 90, 99, 99.9, 100]


def curve_of(samples):
    """The percentile curve wrk's script reports, from raw latencies (nearest rank)."""
    ordered = sorted(samples)
    return [[p, ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]] for p in POINTS]


class SliceOrderTests(unittest.TestCase):
    def test_the_order_reverses_every_slice_so_each_server_leads_as_often(self):
        self.assertEqual(slice_order(["A", "B"], 4), ["A", "B", "B", "A", "A", "B", "B", "A"])
        self.assertEqual(slice_order(["A", "B", "C"], 2), ["A", "B", "C", "C", "B", "A"])

    def test_slices_are_whole_seconds_and_at_least_two(self):
        self.assertEqual(slice_plan(10, 0), (5, 2))
        self.assertEqual(slice_plan(10, 200), (2, 5))
        self.assertEqual(slice_plan(3, 0), (2, 2))


class MergeTests(unittest.TestCase):
    def test_counts_add_up_and_throughput_comes_from_the_sums(self):
        a = {"requests": 100, "good": 98, "badStatus": 2, "errors": 2, "durationUs": 2_000_000, "mean": 300.0,
             "max": 900, "percentiles": [[0, 100], [50, 300], [100, 900]], "errorStatuses": {"502": 2},
             "firstError": "502 from the sandbox", "wrkCpuSeconds": 0.5}
        b = {"requests": 300, "good": 300, "badStatus": 0, "errors": 0, "durationUs": 3_000_000, "mean": 500.0,
             "max": 1200, "percentiles": [[0, 200], [50, 500], [100, 1200]], "errorStatuses": {}, "firstError": "",
             "wrkCpuSeconds": 1.0}
        merged = merge_summaries([a, b])
        self.assertEqual(merged["requests"], 400)
        self.assertEqual(merged["errors"], 2)
        self.assertAlmostEqual(merged["rps"], 398 / 5.0)
        self.assertAlmostEqual(merged["mean"], (100 * 300 + 300 * 500) / 400)
        self.assertEqual(merged["max"], 1200)
        self.assertEqual(merged["errorStatuses"], {"502": 2})
        self.assertEqual(merged["firstError"], "502 from the sandbox")
        self.assertAlmostEqual(merged["wrkCpuSeconds"], 1.5)

    def test_identical_slices_merge_to_the_same_curve(self):
        curve = [[0, 100], [50, 300], [99, 800], [100, 900]]
        self.assertEqual(merge_percentiles([curve, curve, curve], [10, 20, 30]), curve)

    def test_merged_percentiles_match_those_of_all_requests_together(self):
        generator = random.Random(7)
        fast = [generator.lognormvariate(5.8, 0.2) for _ in range(20_000)]
        slow = [generator.lognormvariate(6.1, 0.3) for _ in range(10_000)]
        merged = merge_percentiles([curve_of(fast), curve_of(slow)], [len(fast), len(slow)])
        together = curve_of(fast + slow)
        for percentile in (25, 50, 75, 90):
            expected = value_at(together, percentile)
            self.assertLess(abs(value_at(merged, percentile) - expected) / expected, 0.03, percentile)

    def test_costs_accumulate_by_process_thread_role_and_sandbox(self):
        before = {"passgate": 1.0, "threads": {7: ("nio", 0.5)}, "switches": {7: ("nio", (10, 2))}, "sandbox": 3.0}
        after = {"passgate": 1.5, "threads": {7: ("nio", 0.7), 9: ("curl", 0.1)},
                 "switches": {7: ("nio", (15, 3))}, "sandbox": 3.4}
        total = no_costs()
        accumulate(total, difference(before, after))
        accumulate(total, difference(before, after))
        self.assertAlmostEqual(total["passgate"], 1.0)
        self.assertAlmostEqual(total["sandbox"], 0.8)
        self.assertAlmostEqual(total["threads"]["nio"], 0.4)
        self.assertAlmostEqual(total["threads"]["curl"], 0.2)
        self.assertEqual(total["switches"]["nio"], (10, 2))

    def test_a_thread_that_exits_during_a_run_never_makes_its_role_negative(self):
        # Pool thread 11 ran 2.0 s before the run and exited during it; thread 12 started during it.
        before = {"passgate": 4.0, "threads": {10: ("pool", 1.0), 11: ("pool", 2.0)},
                  "switches": {10: ("pool", (100, 5)), 11: ("pool", (300, 9))}, "sandbox": 0.0}
        after = {"passgate": 4.4, "threads": {10: ("pool", 1.1), 12: ("pool", 0.05)},
                 "switches": {10: ("pool", (104, 5)), 12: ("pool", (2, 1))}, "sandbox": 0.0}
        costs = difference(before, after)
        self.assertAlmostEqual(costs["threads"]["pool"], 0.15)
        self.assertEqual(costs["switches"]["pool"], (6, 1))

    def test_a_reused_thread_id_of_another_role_counts_from_zero(self):
        before = {"passgate": 0.0, "threads": {5: ("pool", 3.0)}, "switches": {5: ("pool", (50, 0))}, "sandbox": 0.0}
        after = {"passgate": 0.0, "threads": {5: ("curl", 0.2)}, "switches": {5: ("curl", (4, 1))}, "sandbox": 0.0}
        costs = difference(before, after)
        self.assertEqual(set(costs["threads"]), {"curl"})
        self.assertAlmostEqual(costs["threads"]["curl"], 0.2)
        self.assertEqual(costs["switches"]["curl"], (4, 1))


if __name__ == "__main__":
    unittest.main()
