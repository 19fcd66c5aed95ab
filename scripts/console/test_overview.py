"""The overview with real traffic behind it: exchanges through the API, one of them refused by the
sandbox with a forced code, then the numbers and the code as a person reads them."""
import unittest

from selenium.webdriver.common.by import By

from harness import console

APP = "300011111111"


class OverviewTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for index in range(3):
            status, body = console.exchange(APP, console.mint_token(APP, "1380013%04d" % (8000 + index)))
            assert status == 200, body
        console.sandbox_faults({"resultCode": "103101"})  # the carrier rejects our signature
        try:
            cls.failure = console.exchange(APP, console.mint_token(APP, "13800138009"))
        finally:
            console.sandbox_faults({"resultCode": ""})

    def row(self, caption, label):
        table = console.driver.find_element(By.XPATH, "//table[caption[starts-with(., '%s')]]" % caption)
        for row in table.find_elements(By.CSS_SELECTOR, "tbody tr"):
            cells = row.find_elements(By.XPATH, "./th|./td")
            if cells and cells[0].text == label:
                return [cell.text for cell in cells]
        self.fail("no row %r in the table %r" % (label, caption))

    def test_calls_success_and_codes_are_shown(self):
        status, body = self.failure
        self.assertEqual(status, 502)
        self.assertEqual(body["error"]["code"], "signature_rejected")
        console.sign_in()
        console.get("/console")
        self.assertEqual(console.driver.find_element(By.TAG_NAME, "h1").text, "Overview")
        provider = self.row("Calls per provider", "cmcc")
        self.assertGreaterEqual(int(provider[1]), 4, provider)
        self.assertRegex(provider[2], r"^\d+\.\d %$")
        self.assertNotEqual(provider[2], "100.0 %", "one call of four failed")
        self.assertRegex(provider[3], r"^≤ [\d.]+ ms$")
        self.assertGreaterEqual(int(self.row("Calls per app", "cmcc / " + APP)[5]), 4)
        codes = console.driver.find_element(By.XPATH, "//table[caption[starts-with(., 'The most frequent results')]]").text
        self.assertIn("signature_rejected", codes)
        self.assertIn("103101", codes)
        self.assertIn("fix_config", codes)
        circuits = console.driver.find_element(By.XPATH, "//table[caption[starts-with(., 'Circuit of each base URL')]]").text
        self.assertIn("closed: taking calls", circuits)
        self.assertIn("Cap", console.driver.find_element(By.XPATH, "//table[caption[starts-with(., 'Calls in flight')]]").text)
        refresh = console.driver.find_element(By.CSS_SELECTOR, "meta[http-equiv=refresh]").get_attribute("content")
        self.assertEqual(refresh, "30")
        console.assert_clean(self)
        console.screenshot("overview")

    def test_keyboard_reaches_the_content_first(self):
        from selenium.webdriver.common.keys import Keys
        console.sign_in()
        console.get("/console")
        console.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
        focused = console.driver.switch_to.active_element
        self.assertEqual(focused.text, "Skip to content")
        self.assertEqual(focused.get_attribute("href"), console.admin_url + "/console#main")
        focused.send_keys(Keys.TAB)
        self.assertEqual(console.driver.switch_to.active_element.text, "Overview", "then the navigation")

    def test_usable_on_a_phone(self):
        console.sign_in()
        size = console.driver.get_window_size()
        try:
            console.driver.set_window_size(390, 844)
            console.get("/console")
            width = console.driver.execute_script("return document.documentElement.scrollWidth")
            self.assertLessEqual(width, 400, "the page itself does not scroll sideways; wide tables scroll in their box")
            console.assert_clean(self)
        finally:
            console.driver.set_window_size(size["width"], size["height"])


if __name__ == "__main__":
    unittest.main()
