"""Tests of the report's context-switch table (run by scripts/test:
`python3 -m unittest discover -s bench/harness`)."""

import os
import sys
import unittest

# report.py is part of the harness package (relative imports); import it as such.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.report import switch_table  # noqa: E402


def document(*records):
    return {"results": {record["name"]: record for record in records}}


class SwitchTableTests(unittest.TestCase):
    def test_a_go_server_without_thread_roles_shows_its_whole_process(self):
        go = {"name": "go-md5-c64-l0", "threadSwitchesPerRequest": {"other": [0.09, 0.91]}}
        row = switch_table(document(go)).splitlines()[2]
        self.assertEqual(row, "| go-md5-c64-l0 | - | - | - | - | 0.09 + 0.91 | 0.09 + 0.91 |")

    def test_the_whole_process_sums_every_role(self):
        passgate = {"name": "md5-c64-l0", "threadSwitchesPerRequest": {
            "nio": [0.10, 0.63], "curl": [0.04, 0.44], "audit": [0.01, 0.0]}}
        row = switch_table(document(passgate)).splitlines()[2]
        self.assertEqual(row, "| md5-c64-l0 | - | 0.10 + 0.63 | 0.04 + 0.44 | 0.01 + 0.00 | - | 0.15 + 1.07 |")

    def test_runs_without_switch_counts_are_left_out(self):
        self.assertEqual(switch_table(document({"name": "upstream-md5-c64-l0"})), "_(not recorded in this run)_")


if __name__ == "__main__":
    unittest.main()
