"""Tests of the system-call count's bookkeeping (run by scripts/test)."""

import unittest

from syscalls import PARKING, parse, per_request, summary, table

PERF_OUTPUT = """# started on Fri Nov 27 17:17:23 2026

36034,,syscalls:sys_enter_poll,25001234567,100.00,,
17503,,syscalls:sys_enter_sendto,25001234567,100.00,,
0,,syscalls:sys_enter_openat,25001234567,100.00,,
<not counted>,,syscalls:sys_enter_bpf,0,0.00,,
22758,,syscalls:sys_enter_futex,25001234567,100.00,,
"""


class SyscallTests(unittest.TestCase):
    def test_perf_stat_output_keeps_the_calls_that_happened(self):
        self.assertEqual(parse(PERF_OUTPUT), {"poll": 36034, "sendto": 17503, "futex": 22758})

    def test_counts_become_calls_per_request_largest_first(self):
        per = per_request(parse(PERF_OUTPUT), 17503)
        self.assertEqual(list(per), ["poll", "futex", "sendto"])
        self.assertAlmostEqual(per["sendto"], 1.0)
        self.assertEqual(per_request({"read": 5}, 0), {})

    def test_parking_calls_are_summed_apart(self):
        per = per_request(parse(PERF_OUTPUT), 17503)
        self.assertNotIn("poll", PARKING)  # libcurl's polls do not wait
        self.assertIn("(1.30 park or wake", summary(per))
        document = {"results": {"a": {"name": "md5-c64-l0", "syscallsPerRequest": per}, "b": {"name": "upstream"}}}
        rows = table(document).splitlines()
        self.assertEqual(len(rows), 3)
        self.assertTrue(rows[2].startswith("| md5-c64-l0 | 4.36 | 1.30 | `poll` 2.06"))
        self.assertIsNone(table({"results": {"b": {"name": "upstream"}}}))


if __name__ == "__main__":
    unittest.main()
