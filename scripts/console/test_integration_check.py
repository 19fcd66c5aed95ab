"""The console's integration check in a real browser: explain and exchange against the embedded
sandbox, the forced 103101 explained, bad input named, and no token or number in the DOM.

Run by scripts/console-check (one `passgate serve`, one headless Chromium; harness.py)."""
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

from harness import console, raw_request

MD5_APP = "300011111111"
PHONE = "13800138000"


def mask(token):
    """The page's mask of a token: its first and last four characters and its length."""
    return f"{token[:4]}…{token[-4:]} ({len(token)} chars)"


class IntegrationCheckTest(unittest.TestCase):
    def setUp(self):
        console.sign_in()

    def submit(self, app_id, token, mode, phone="", fields=""):
        """Fills the form as a person would and sends it; returns the result section's text."""
        driver = console.driver
        console.get("/console/check")
        Select(driver.find_element(By.ID, "appId")).select_by_value(app_id)
        driver.find_element(By.ID, "token").send_keys(token)
        if fields:
            driver.find_element(By.ID, "providerFields").send_keys(fields)
        if phone:
            driver.find_element(By.ID, "phoneNumber").send_keys(phone)
        driver.find_element(By.ID, f"mode-{mode}").click()
        driver.find_element(By.ID, "check-submit").click()
        return self.answered()

    def answered(self):
        """The answer page's text, once it has replaced the form (a result or a problem)."""
        WebDriverWait(console.driver, 10).until(expected_conditions.presence_of_element_located(
            (By.CSS_SELECTOR, "#check-result, #check-problem")))
        return console.driver.find_element(By.TAG_NAME, "main").text

    def test_explain_shows_the_signed_request_and_sends_nothing(self):
        token = console.mint_token(MD5_APP, PHONE)
        text = self.submit(MD5_APP, token, "explain")
        self.assertIn("What Passgate would send", text)
        self.assertIn("signed string", text)
        self.assertIn("POST http://", text)
        self.assertIn(mask(token), text)
        self.assertNotIn(token, console.driver.page_source)
        console.assert_clean(self)
        console.screenshot("integration-check-explain")
        # Nothing was sent: the token is still good for a real exchange.
        status, body = console.exchange(MD5_APP, token)
        self.assertEqual(status, 200, body)

    def test_exchange_shows_the_raw_reply_and_the_masked_answer(self):
        token = console.mint_token(MD5_APP, PHONE)
        console.get("/console/check")
        warning = console.driver.find_element(By.ID, "exchange-warning").text
        self.assertIn("spends the token", warning)
        text = self.submit(MD5_APP, token, "exchange")
        self.assertIn("What the provider answered", text)
        self.assertIn("103000", text)
        self.assertIn("138****8000", text)
        self.assertIn('"replayed":false', text.replace(" ", ""))
        console.assert_clean(self)
        console.screenshot("integration-check-exchange")

    def test_why_103101(self):
        token = console.mint_token(MD5_APP, PHONE)
        self.assertEqual(console.sandbox_faults({"resultCode": "103101", "provider": "cmcc"}), 204)
        try:
            text = self.submit(MD5_APP, token, "exchange")
        finally:
            console.sandbox_faults({"resultCode": "", "provider": "cmcc"})
        table = console.driver.find_element(By.ID, "error-explained").text
        self.assertIn("103101", table)
        self.assertIn("signature_rejected", table)
        self.assertIn("fix_config", table)
        self.assertIn("rejected our signature", table)
        self.assertIn("103101", console.driver.find_element(By.CLASS_NAME, "reply").text)
        self.assertIn("502", text)
        console.assert_clean(self)
        console.screenshot("integration-check-103101")

    def test_bad_input_is_named(self):
        console.get("/console/check")
        Select(console.driver.find_element(By.ID, "appId")).select_by_value(MD5_APP)
        console.driver.find_element(By.ID, "token").send_keys("abc def")
        console.driver.find_element(By.ID, "check-submit").click()
        self.answered()
        problem = console.driver.find_element(By.ID, "check-problem").text
        self.assertIn("token", problem)
        console.assert_clean(self)

    def test_a_post_without_the_csrf_token_is_refused(self):
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in console.driver.get_cookies())
        form = {"appId": MD5_APP, "token": "tok", "mode": "explain"}
        for with_session in (True, False):
            status, _, body = raw_request(console.admin_url + "/console/check", "POST", form, cookie if with_session else None)
            self.assertEqual(status, 403, (with_session, body[:200]))

if __name__ == "__main__":
    unittest.main()
