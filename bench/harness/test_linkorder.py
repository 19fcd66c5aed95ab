"""Tests of the code layout's list (run by scripts/test: `python3 -m unittest discover -s bench/harness`)."""

import os
import tempfile
import unittest

from linkorder import after, merge, parse_annotate, read_tsv, write_order, write_tsv

ANNOTATE = """\
--------------------------------------------------------------------------------
212,592,450 (100.0%)  PROGRAM TOTALS
--------------------------------------------------------------------------------
8,004,938 ( 3.77%)  ???:0x0000000000047d60 [/usr/lib/x86_64-linux-gnu/libcurl.so.4.8.0]
7,950,474 ( 3.74%)  ???:swift_retain [/work/main/bench/out/callgrind/passgate-nodebug]
6,283,000 ( 2.96%)  ???:$s12PassgateCore8JSONTextO11writeQuoted_2toSiSRys5UInt8VG_SpyAGGtFZ [/work/main/bench/out/callgrind/passgate-nodebug]
1,000,000 ( 0.47%)  ???:0x00000000000012ab [/work/main/bench/out/callgrind/passgate-nodebug]
  795,356 ( 0.37%)  ???:swift_task_switch'2 [/work/main/bench/out/callgrind/passgate-nodebug]
  500,000 ( 0.23%)  ???:swift_task_switch [/work/main/bench/out/callgrind/passgate-nodebug]
  400,000 ( 0.19%)  ???:malloc [/usr/lib/x86_64-linux-gnu/libjemalloc.so.2]
"""


class ParseTests(unittest.TestCase):
    def test_only_the_binarys_named_functions_count_and_recursion_levels_add_up(self):
        entries = dict(parse_annotate(ANNOTATE, "/elsewhere/passgate-nodebug", 1000))
        self.assertEqual(set(entries), {"swift_retain", "$s12PassgateCore8JSONTextO11writeQuoted_2toSiSRys5UInt8VG_SpyAGGtFZ",
                                        "swift_task_switch"})
        self.assertAlmostEqual(entries["swift_retain"], 7950.474)
        self.assertAlmostEqual(entries["swift_task_switch"], 1295.356)

    def test_the_hottest_comes_first(self):
        entries = parse_annotate(ANNOTATE, "passgate-nodebug", 1)
        self.assertEqual([symbol for symbol, _ in entries][0], "swift_retain")
        self.assertEqual([count for _, count in entries], sorted((count for _, count in entries), reverse=True))


class MergeTests(unittest.TestCase):
    def test_a_function_ranks_by_its_hottest_run(self):
        md5 = [("shared", 100.0), ("md5only", 50.0)]
        rsa = [("rsaonly", 400.0), ("shared", 10.0)]
        self.assertEqual(merge([md5, rsa]), ["rsaonly", "shared", "md5only"])

    def test_the_start_ups_functions_follow_those_not_already_listed(self):
        self.assertEqual(after(["hot", "shared"], [("shared", 9.0), ("setup", 5.0), ("parse", 1.0)]), ["setup", "parse"])

    def test_the_list_round_trips_and_names_sections(self):
        with tempfile.TemporaryDirectory() as directory:
            tsv = os.path.join(directory, "functions-md5-c1-l0.tsv")
            write_tsv(tsv, [("$sA", 12.5), ("swift_retain", 3.0)])
            self.assertEqual(read_tsv(tsv), [("$sA", 12.5), ("swift_retain", 3.0)])
            order = os.path.join(directory, "link-order.txt")
            write_order(order, ["$sA", "swift_retain"], ["md5-c1-l0"])
            with open(order) as handle:
                lines = [line.rstrip("\n") for line in handle if not line.startswith("#")]
            self.assertEqual(lines, [".text.$sA", ".text.swift_retain"])


if __name__ == "__main__":
    unittest.main()
