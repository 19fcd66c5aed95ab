"""The console's browser harness: one running `passgate serve` and one headless Chromium, shared by
every test module (scripts/console/test_*.py). scripts/console-check starts the server and runs
run.py, which sets up the module-level `console` before the tests are loaded.

Each test asserts what a person would see, calls `console.assert_clean(self)` on every page it
visits (no token, full phone number, secret or admin key anywhere in the DOM) and
`console.screenshot("<page>")` once.
"""
import json
import os
import urllib.error
import urllib.parse
import urllib.request

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# App keys that name things rather than hold secrets are collected too: none may be on a page.
NOT_SECRET_KEYS = {"appId", "provider", "signMode", "endpoint", "encryptNumber"}


class Console:
    """What the tests drive: the browser, the listeners' URLs, and the sandbox to make traffic."""

    def __init__(self, driver, admin_url, api_url, sandbox_url, screenshots=None,
                 admin_key="pg_sandbox_admin_key", api_key="pg_sandbox_demo_key"):
        self.driver = driver
        self.admin_url = admin_url
        self.api_url = api_url
        self.sandbox_url = sandbox_url
        self.admin_key = admin_key
        self.api_key = api_key
        self.screenshots = screenshots
        self._tokens = set()
        self._phones = set()
        self._secrets = self._configured_secrets()

    # -- the browser -------------------------------------------------------------------------
    def get(self, path):
        """Opens admin_url + path in the browser."""
        self.driver.get(self.admin_url + path)

    def sign_in(self):
        """Signs in through the form (a signed-in browser is sent straight to the overview)."""
        from selenium.webdriver.common.by import By
        self.get("/console/sign-in")
        if self.driver.current_url.endswith("/console/sign-in"):
            field = self.driver.find_element(By.ID, "key")
            field.clear()
            field.send_keys(self.admin_key)
            self.driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        # The click returns once the form is sent, not once the next page is there.
        try:
            self.wait_for_path("/console")
        except Exception:
            raise AssertionError("sign-in did not reach the overview: " + self.driver.current_url)

    def wait_for_path(self, path, seconds=15):
        """Waits until the browser shows admin_url + path (after a click that navigates)."""
        from selenium.webdriver.support.ui import WebDriverWait
        WebDriverWait(self.driver, seconds).until(lambda driver: driver.current_url == self.admin_url + path)

    def sign_out(self):
        """Forgets the session in the browser (the server keeps it until it expires)."""
        self.get("/console/sign-in")
        self.driver.delete_all_cookies()

    def screenshot(self, name):
        """DIR/name.png of the whole page, when --screenshots DIR was given."""
        if not self.screenshots:
            return
        os.makedirs(self.screenshots, exist_ok=True)
        size = self.driver.get_window_size()
        try:
            height = self.driver.execute_script("return document.documentElement.scrollHeight")
            self.driver.set_window_size(size["width"], max(size["height"], min(int(height) + 120, 6000)))
        except Exception:  # a page the browser cannot measure still gets its viewport shot
            pass
        self.driver.save_screenshot(os.path.join(self.screenshots, name + ".png"))
        self.driver.set_window_size(size["width"], size["height"])

    # -- traffic -----------------------------------------------------------------------------
    def mint_token(self, app_id, phone):
        """A fresh token for `phone` from the embedded sandbox (POST /sandbox/tokens)."""
        status, body = self._post(self.sandbox_url + "/sandbox/tokens", {"appId": app_id, "phoneNumber": phone})
        if status != 200:
            raise AssertionError("minting a token failed: %s %s" % (status, body))
        self._phones.add(phone)
        self._tokens.add(body["token"])
        return body["token"]

    def exchange(self, app_id, token, fields=None):
        """POST /v1/phone-number with the demo API key: (status, parsed JSON)."""
        payload = {"appId": app_id, "token": token}
        if fields:
            payload["providerFields"] = fields
        self._tokens.add(token)
        status, body = self._post(self.api_url + "/v1/phone-number", payload, {"Authorization": "Bearer " + self.api_key})
        number = body.get("phoneNumber") if isinstance(body, dict) else None
        if number:
            self._phones.add(number)
        return status, body

    def sandbox_faults(self, body):
        """PUT /sandbox/faults (docs/sandbox.md); {"resultCode": ""} turns a forced code off."""
        request = urllib.request.Request(self.sandbox_url + "/sandbox/faults", data=json.dumps(body).encode(), method="PUT",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status

    # -- what must never be shown --------------------------------------------------------------
    def secrets_and_tokens(self):
        """Every token minted and full phone number used in this run, the apps' secrets, the admin key."""
        return sorted(self._tokens | self._phones | self._secrets | {self.admin_key, self.api_key})

    def assert_clean(self, testcase):
        source = self.driver.page_source
        for value in self.secrets_and_tokens():
            testcase.assertNotIn(value, source, "a secret, token or full number is on %s" % self.driver.current_url)

    def _configured_secrets(self):
        with open(os.path.join(ROOT, "config", "passgate.yaml"), encoding="utf-8") as file:
            document = yaml.safe_load(file)
        values = set()
        for app in document.get("apps", []):
            for key, value in app.items():
                if key in NOT_SECRET_KEYS or not isinstance(value, str):
                    continue
                if value.startswith(("sandbox:", "env:", "file:")):
                    continue
                values.add(value)
        return values

    @staticmethod
    def _post(url, payload, headers=None):
        request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """urllib that shows a 303 instead of following it."""

    def redirect_request(self, *args, **kwargs):
        return None


def raw_request(url, method="GET", form=None, cookie=None):
    """(status, headers, body text) of one request outside the browser, redirects not followed."""
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
    if cookie:
        request.add_header("Cookie", cookie)
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


# Set by run.py before the test modules are loaded.
console = None
