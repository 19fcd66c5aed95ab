"""Tests of the parts of the harness that read the bench plan (`passgate bench-plan --json`), run
by scripts/test: `python3 -m unittest discover -s bench/harness`. The plan here is made up: a
provider the harness has never heard of gets its configuration, runs and report rows from it."""

import importlib.machinery
import importlib.util
import json
import os
import stat
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from harness import benchconfig, benchplan, pools, report  # noqa: E402


def bench_run():
    """bench/run as a module (it is a script without a .py name)."""
    loader = importlib.machinery.SourceFileLoader("bench_run", os.path.join(os.path.dirname(HERE), "run"))
    spec = importlib.util.spec_from_loader("bench_run", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def setting(key, kind, value=None):
    return {"key": key, "kind": kind, **({} if value is None else {"value": value})}


def scenario(name, provider, app, operation="phone_number", keys=0, coverage="one-load", fields=()):
    return {"name": name, "label": f"{name} label", "provider": provider, "operation": operation, "appId": app,
            "upstream": f"{name}'s endpoint", "upstreamSuccess": f'"ok":"{name}"', "privateKeyOperations": keys,
            "coverage": coverage, "fields": list(fields)}


PLAN = {
    "phoneNumber": "13800138000",
    "providers": [
        {"id": "alpha", "settings": [], "apps": [
            {"appId": "a-md5", "settings": [setting("signMode", "plain", "md5"), setting("secret", "secret", "S3CR3T")]},
            {"appId": "a-rsa", "settings": [setting("privateKey", "rsa-key")]}]},
        {"id": "newcomer", "settings": [setting("region", "plain", "north")], "apps": [
            {"appId": "new-app", "settings": [setting("token", "secret", "n-token")]}]},
    ],
    "scenarios": [
        scenario("md5", "alpha", "a-md5", coverage="every-load"),
        scenario("rsa", "alpha", "a-rsa", keys=2, coverage="every-load"),
        scenario("verify", "alpha", "a-md5", operation="verify", coverage="every-load"),
        scenario("nu", "newcomer", "new-app", keys=1,
                 fields=[{"name": "flowId", "kind": "unique", "value": "nuflow"}, {"name": "device", "kind": "fixed", "value": "dev1"},
                         {"name": "companion", "kind": "token"}]),
    ],
    "undescribed": [],
}


class PlanTests(unittest.TestCase):
    def test_every_load_scenarios_run_cheapest_first_and_one_load_ones_in_plan_order(self):
        plan = benchplan.Plan(PLAN)
        self.assertEqual(plan.every_load(), ["md5", "verify", "rsa"])
        self.assertEqual(plan.one_load(), ["nu"])

    def test_the_route_good_answer_and_mint_product_follow_the_operation(self):
        plan = benchplan.Plan(PLAN)
        self.assertEqual((plan.path("verify"), plan.expect("verify"), plan.product("verify")),
                         ("/v1/phone-number/verify", '"result":"match"', "verify"))
        self.assertEqual((plan.path("nu"), plan.expect("nu"), plan.product("nu")),
                         ("/v1/phone-number", '"phoneNumber":"13800138000"', "login"))
        self.assertEqual(plan.title("nu"), "nu label, POST /v1/phone-number")
        self.assertEqual(plan.scenario("nu").upstream_expect, '"ok":"nu"')

    def test_an_unknown_operation_is_refused_by_name(self):
        broken = dict(PLAN, scenarios=[scenario("odd", "alpha", "a-md5", operation="refund")])
        with self.assertRaisesRegex(ValueError, "odd.*refund"):
            benchplan.Plan(broken)

    def test_the_plan_is_read_from_the_binary_and_an_older_binary_is_named(self):
        with tempfile.TemporaryDirectory() as directory:
            binary, printed = os.path.join(directory, "passgate"), os.path.join(directory, "plan.json")
            with open(printed, "w") as handle:
                json.dump(PLAN, handle)
            with open(binary, "w") as handle:
                handle.write(f"#!/bin/sh\n[ \"$1 $2\" = 'bench-plan --json' ] || exit 64\ncat '{printed}'\n")
            os.chmod(binary, stat.S_IRWXU)
            self.assertEqual(list(benchplan.load(binary).scenarios), ["md5", "rsa", "verify", "nu"])
            with open(binary, "w") as handle:
                handle.write("#!/bin/sh\necho 'Error: Unexpected argument' >&2\nexit 64\n")
            with self.assertRaisesRegex(SystemExit, "--plan-binary"):
                benchplan.load(binary)


class ConfigTests(unittest.TestCase):
    def test_every_provider_and_app_of_the_plan_is_configured_with_secrets_in_files(self):
        keys = []
        with tempfile.TemporaryDirectory() as directory:
            settings = benchconfig.generate(directory, benchplan.Plan(PLAN), 2048, make_key=keys.append)
            with open(settings["config"]) as handle:
                config = handle.read()
            for line in ("  alpha:", "  newcomer:", "    region: \"north\"", "    maxConcurrentCalls: 2048",
                         "  - appId: \"new-app\"", "    provider: newcomer", "    signMode: \"md5\"",
                         '    apps: ["a-md5", "a-rsa", "new-app"]', "  enabled: false"):
                self.assertIn(line + "\n", config)
            secret_path = os.path.join(directory, "app-a-md5-secret")
            self.assertIn(f'    secret: "file:{secret_path}"\n', config)
            with open(secret_path) as handle:
                self.assertEqual(handle.read(), "S3CR3T")
            self.assertNotIn("S3CR3T", config)
            self.assertEqual(keys, [os.path.join(directory, "app-a-rsa-privateKey.pem")])
            self.assertEqual(settings["apps"]["a-md5"], {"signMode": "md5", "secret": "S3CR3T"})


class PoolTests(unittest.TestCase):
    def test_a_verification_body_carries_the_plans_number(self):
        plan = benchplan.Plan(PLAN)
        self.assertEqual(pools.passgate_body(plan, "verify", "T1"), '{"appId":"a-md5","token":"T1","phoneNumber":"13800138000"}')
        self.assertEqual(pools.passgate_body(plan, "nu", "T2"), '{"appId":"new-app","token":"T2"}')


class FieldTests(unittest.TestCase):
    def test_a_unique_field_is_fresh_on_every_request_a_fixed_one_the_same_and_a_token_one_the_token(self):
        plan = benchplan.Plan(PLAN)
        first, second = pools.request_fields(plan, "nu", ["T1", "T2"])
        third = pools.request_fields(plan, "nu", ["T3"])[0]
        self.assertEqual((first["device"], second["device"]), ("dev1", "dev1"))
        self.assertEqual((first["companion"], second["companion"], third["companion"]), ("T1", "T2", "T3"))
        flows = [first["flowId"], second["flowId"], third["flowId"]]
        self.assertEqual(len(set(flows)), 3, flows)
        self.assertTrue(all(flow.startswith("nuflow") and flow.isalnum() for flow in flows), flows)
        self.assertEqual(pools.request_fields(plan, "md5", ["T1", "T2"]), [{}, {}])

    def test_passgates_body_carries_the_requests_fields_as_provider_fields(self):
        plan = benchplan.Plan(PLAN)
        self.assertEqual(pools.passgate_body(plan, "nu", "T3", {"flowId": "nuflow7", "device": "dev1"}),
                         '{"appId":"new-app","token":"T3","providerFields":{"flowId":"nuflow7","device":"dev1"}}')

    def test_each_sign_line_carries_its_own_fields_and_a_per_request_query_keeps_its_path(self):
        with tempfile.TemporaryDirectory() as directory:
            binary, seen = os.path.join(directory, "passgate"), os.path.join(directory, "stdin")
            with open(binary, "w") as handle:
                handle.write(f"#!/bin/sh\ntee '{seen}' | while read -r line; do "
                             "echo '{\"url\":\"http://127.0.0.1:1/v5/validate?random=1\",\"headers\":{},\"body\":\"B\"}'; done\n")
            os.chmod(binary, stat.S_IRWXU)
            settings = {"plan": benchplan.Plan(PLAN), "binary": binary, "config": "unused.yaml"}
            fields = [{"flowId": "nuflow1", "device": "dev1"}, {"flowId": "nuflow2", "device": "dev1"}]
            signed = pools.signed_requests(settings, "nu", ["T1", "T2"], fields)
            with open(seen) as handle:
                self.assertEqual(handle.read(), "T1 flowId=nuflow1 device=dev1\nT2 flowId=nuflow2 device=dev1\n")
            self.assertEqual(pools.upstream_line(signed[0]), "/v5/validate?random=1\tB")
        self.assertEqual(pools.upstream_line({"url": "http://127.0.0.1:1/plain", "body": "{}"}), "{}")

    def test_headers_signed_per_request_go_on_each_line_with_the_constant_ones(self):
        signed = [{"url": "http://127.0.0.1:1/verify?appkey=k", "body": "{}",
                   "headers": {"Content-Type": "application/json", "X-Ca-Key": "k", "X-Ca-Nonce": nonce}}
                  for nonce in ("n1", "n2")]
        self.assertEqual(pools.varying_headers(signed), ["x-ca-nonce"])
        self.assertEqual(pools.upstream_line(signed[1], with_headers=True), "/verify?appkey=k\tX-Ca-Key: k\tX-Ca-Nonce: n2\t{}")
        self.assertEqual(pools.varying_headers([dict(signed[0])] * 2), [])


class RunPlanTests(unittest.TestCase):
    def test_a_new_providers_scenario_runs_after_its_own_reference_at_its_one_load(self):
        run = bench_run()
        plan = benchplan.Plan(PLAN)
        names = run.all_scenarios(plan)
        self.assertEqual(names[:3], ["md5-c1-l0", "rsa-c1-l0", "verify-c1-l0"])
        self.assertEqual(names[-1], "nu-c64-l0")
        self.assertEqual(len(names), 3 * 3 * 2 + 1)
        arguments = types.SimpleNamespace(quick=False, scenarios="*-c64-l0", callgrind="", no_go=True)
        _, runs = run.plan(arguments, plan)
        self.assertEqual(runs, ["healthz-c64", "upstream-md5-c64-l0", "upstream-verify-c64-l0", "upstream-rsa-c64-l0",
                                "md5-c64-l0", "proxy-md5-c64-l0", "verify-c64-l0", "rsa-c64-l0",
                                "upstream-nu-c64-l0", "nu-c64-l0"])

    def test_the_warm_up_rate_of_a_private_key_scenario_is_bounded_by_openssls_speed(self):
        run = bench_run()
        rsa = {"sign_per_s_all_cores": 1000.0, "rsa_ceiling_req_per_s": 500.0}
        plan = benchplan.Plan(PLAN)
        self.assertEqual(run.estimate_rate("nu-c64-l0", {}, rsa, plan), 1000.0 * 1.5 + 50)
        self.assertEqual(run.estimate_rate("rsa-c64-l0", {}, rsa, plan), 500.0 * 1.5 + 50)
        self.assertEqual(run.estimate_rate("md5-c64-l0", {}, rsa, plan), 40_000.0)


class ReportTests(unittest.TestCase):
    def test_the_reports_titles_and_lists_come_from_the_saved_plan(self):
        document = {"plan": PLAN}
        self.assertEqual(benchplan.titles(document)["nu"], "nu label, POST /v1/phone-number")
        self.assertIn("`nu` nu label (newcomer)", report.scenario_list(document))
        self.assertEqual(report.provider_list(document), "`alpha` and `newcomer` providers")
        self.assertIn("`nu` nu's endpoint", report.upstream_list(document))

    def test_a_run_saved_without_a_plan_still_reports(self):
        self.assertEqual(benchplan.titles({}), {})
        self.assertEqual(report.scenario_list({}), "")


if __name__ == "__main__":
    unittest.main()
