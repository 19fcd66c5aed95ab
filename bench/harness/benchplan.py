"""The bench plan: what the bench measures of each provider, as the binary describes it.

Every provider declares its bench load in its own folder (`Sources/Provider<Name>/
<Name>Provider+Bench.swift`): its apps (settings, made-up sandbox credentials, fresh RSA keys),
its scenarios (short name, label, Passgate route, app), the sandbox endpoint measured alone as the
upstream reference and how a good answer from it looks. `passgate bench-plan --json` prints them
for every registered provider; the configuration (`benchconfig`), the pools (`pools`), the scenario
list (`bench/run`) and the report's labels (`report`) come from here, so the harness names no
provider and a new one gets its rows from its own file.
"""

import collections
import json
import subprocess

# Passgate's routes and the sandbox's mint products, by the plan's operation (`CarrierCall.Operation`).
ROUTES = {"phone_number": "/v1/phone-number", "verify": "/v1/phone-number/verify"}
PRODUCTS = {"phone_number": "login", "verify": "verify"}

Scenario = collections.namedtuple("Scenario", (
    "name", "label", "provider", "operation", "app", "upstream", "upstream_expect", "private_key_operations",
    "every_load", "fields",
))

# One `providerFields` value of every request of a scenario, by `kind`: `unique` ones are `value`
# (a prefix) and a counter, fresh per request; `fixed` ones are `value` itself; `token` ones are the
# request's token.
Field = collections.namedtuple("Field", ("name", "kind", "value"))


class Plan:
    """The plan `passgate bench-plan --json` printed (`document`), read."""

    def __init__(self, document):
        self.document = document
        self.phone = document["phoneNumber"]
        self.providers = document["providers"]
        self.scenarios = collections.OrderedDict()
        for entry in document["scenarios"]:
            if entry["operation"] not in ROUTES:
                raise ValueError(f"bench plan: scenario {entry['name']} has an unknown operation {entry['operation']!r}")
            self.scenarios[entry["name"]] = Scenario(
                entry["name"], entry["label"], entry["provider"], entry["operation"], entry["appId"], entry["upstream"],
                entry["upstreamSuccess"], entry["privateKeyOperations"], entry["coverage"] == "every-load",
                tuple(Field(field["name"], field["kind"], field.get("value", "")) for field in entry.get("fields", ())))

    def scenario(self, name):
        return self.scenarios[name]

    def every_load(self):
        """The scenarios measured at every connection count and latency, cheapest first (the
        private-key modes last), as they run within one connection count."""
        names = [name for name, scenario in self.scenarios.items() if scenario.every_load]
        return sorted(names, key=lambda name: self.scenarios[name].private_key_operations)

    def one_load(self):
        """The scenarios measured at one load only, in plan order."""
        return [name for name, scenario in self.scenarios.items() if not scenario.every_load]

    def provider_ids(self):
        return [provider["id"] for provider in self.providers]

    def path(self, name):
        """Passgate's route for scenario `name`."""
        return ROUTES[self.scenarios[name].operation]

    def product(self, name):
        """The sandbox's mint product for scenario `name`'s tokens."""
        return PRODUCTS[self.scenarios[name].operation]

    def expect(self, name):
        """A substring of every good answer of Passgate to scenario `name`."""
        if self.scenarios[name].operation == "verify":
            return '"result":"match"'
        return f'"phoneNumber":"{self.phone}"'

    def title(self, name):
        """`MD5 mode, POST /v1/phone-number`: the report's title of scenario `name`."""
        return f"{self.scenarios[name].label}, POST {self.path(name)}"


def titles(document):
    """{scenario: title} from a run's saved plan (`document["plan"]`); empty for a run saved
    without one."""
    if not document.get("plan"):
        return {}
    plan = Plan(document["plan"])
    return {name: plan.title(name) for name in plan.scenarios}


def load(binary):
    """The plan of `binary` (`passgate bench-plan --json`)."""
    result = subprocess.run([binary, "bench-plan", "--json"], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"bench/run: `{binary} bench-plan --json` exited {result.returncode}: {result.stderr.strip()} "
                         "(a binary from before the bench plan: describe the load with --plan-binary NEWER_PASSGATE)")
    return Plan(json.loads(result.stdout))
