"""Sign-in, the session cookie, and what is refused without a session or a CSRF token."""
import re
import unittest

from selenium.webdriver.common.by import By

import harness
from harness import console


class SignInTests(unittest.TestCase):
    def test_1_wrong_key_is_refused(self):
        console.sign_out()
        console.get("/console")
        self.assertTrue(console.driver.current_url.endswith("/console/sign-in"), "a page without a session goes to sign-in")
        self.assertEqual(console.driver.find_element(By.TAG_NAME, "h1").text, "Sign in")
        self.assertEqual(console.driver.find_element(By.CSS_SELECTOR, "label[for=key]").text, "Admin key")
        console.screenshot("sign-in")
        field = console.driver.find_element(By.ID, "key")
        field.send_keys("not-the-admin-key")
        field.submit()
        console.wait_for_path("/console/sign-in")
        alert = console.driver.find_element(By.CSS_SELECTOR, "[role=alert]").text
        self.assertIn("That is not the admin key", alert)
        self.assertIsNone(console.driver.get_cookie("passgate_console"))
        self.assertNotIn("not-the-admin-key", console.driver.page_source, "the key typed is not echoed")
        console.assert_clean(self)

    def test_2_right_key_signs_in_with_a_strict_http_only_cookie(self):
        console.sign_out()
        console.sign_in()
        self.assertEqual(console.driver.find_element(By.TAG_NAME, "h1").text, "Overview")
        links = [link.text for link in console.driver.find_elements(By.CSS_SELECTOR, "nav a")]
        self.assertIn("Overview", links)
        self.assertIn("Configuration", links)
        cookie = console.driver.get_cookie("passgate_console")
        self.assertIsNotNone(cookie)
        self.assertTrue(cookie["httpOnly"])
        self.assertEqual(cookie.get("sameSite"), "Strict")
        self.assertEqual(cookie["path"], "/console")
        self.assertRegex(cookie["value"], r"^[0-9a-f]{64}$")
        console.assert_clean(self)

    def test_3_without_a_session_pages_redirect_and_posts_are_refused(self):
        status, headers, _ = harness.raw_request(console.admin_url + "/console")
        self.assertEqual(status, 303)
        self.assertEqual(headers["Location"], "/console/sign-in")
        for path in ("/console/sign-out", "/console/configuration/reload"):
            status, headers, body = harness.raw_request(console.admin_url + path, method="POST", form={"csrf": "x"})
            self.assertEqual(status, 403, path)
            self.assertIn("not signed in", body)
            self.assertEqual(headers["Cache-Control"], "no-store")
            self.assertEqual(headers["X-Frame-Options"], "DENY")

    def test_4_a_post_without_the_csrf_token_is_refused(self):
        console.sign_in()
        cookie = "passgate_console=" + console.driver.get_cookie("passgate_console")["value"]
        for form in ({}, {"csrf": "0" * 64}):
            status, _, body = harness.raw_request(console.admin_url + "/console/configuration/reload", method="POST", form=form, cookie=cookie)
            self.assertEqual(status, 403)
            self.assertIn("CSRF token", body)
            self.assertNotIn("Reloaded", body)
        # The browser's own form carries the token: the session is still good.
        console.get("/console")
        token = console.driver.find_element(By.CSS_SELECTOR, "header form input[name=csrf]").get_attribute("value")
        self.assertTrue(re.fullmatch(r"[0-9a-f]{64}", token))
        status, _, _ = harness.raw_request(console.admin_url + "/console", cookie=cookie)
        self.assertEqual(status, 200)

    def test_5_failed_sign_ins_are_limited_per_address_but_the_right_key_still_works(self):
        # server.authFailuresPerMinute (60 by default) failures a minute from one address, then 429.
        for attempt in range(1, 200):
            status, headers, body = harness.raw_request(console.admin_url + "/console/sign-in", method="POST", form={"key": "wrong"})
            if status == 429:
                break
            self.assertEqual(status, 401)
        self.assertEqual(status, 429, "no limit after %d failed sign-ins" % attempt)
        self.assertGreater(attempt, 10)
        self.assertGreaterEqual(int(headers["Retry-After"]), 1)
        self.assertIn("Too many requests", body)
        console.sign_out()
        console.sign_in()
        self.assertEqual(console.driver.find_element(By.TAG_NAME, "h1").text, "Overview")


if __name__ == "__main__":
    unittest.main()
