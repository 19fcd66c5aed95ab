"""The configuration page: secrets only by source and fingerprint, and the reload button."""
import re
import unittest

from selenium.webdriver.common.by import By

from harness import console


class ConfigurationTests(unittest.TestCase):
    def secrets(self):
        table = console.driver.find_element(By.XPATH, "//table[caption[starts-with(., 'Every secret')]]")
        rows = {}
        for row in table.find_elements(By.CSS_SELECTOR, "tbody tr"):
            cells = [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
            rows[cells[0]] = cells
        return rows

    def test_secrets_by_source_and_fingerprint(self):
        console.sign_in()
        console.driver.find_element(By.LINK_TEXT, "Configuration").click()
        console.wait_for_path("/console/configuration")
        self.assertEqual(console.driver.find_element(By.TAG_NAME, "h1").text, "Configuration")
        secrets = self.secrets()
        self.assertEqual(secrets["apps[0].secret"][1:3], ["300011111111", "literal (sandbox)"])
        self.assertTrue(re.fullmatch(r"[0-9a-f]{16}", secrets["apps[0].secret"][3]), secrets["apps[0].secret"])
        self.assertEqual(secrets["apps[1].privateKey"][2], "sandbox:app-rsa")
        self.assertEqual(secrets["admin.apiKeySHA256"][3], "adbc94a84f8aa684", "the first 8 bytes of the configured hash")
        headings = [heading.text for heading in console.driver.find_elements(By.TAG_NAME, "h2")]
        for section in ("server", "state", "providers.cmcc", "apps[0]", "clients", "audit", "tracing"):
            self.assertIn(section, headings)
        console.assert_clean(self)
        console.screenshot("configuration")

    def test_reload_shows_what_was_applied(self):
        console.sign_in()
        console.get("/console/configuration")
        console.driver.find_element(By.XPATH, "//button[normalize-space()='Reload the configuration']").click()
        console.wait_for_path("/console/configuration/reload")
        report = console.driver.find_element(By.ID, "reload-report")
        self.assertEqual(report.text, "Reloaded")
        details = console.driver.find_element(By.CSS_SELECTOR, "section[role=status] dl").text
        self.assertIn("Applied", details)
        self.assertIn("Needs a restart", details)
        self.assertIn("nothing", details, "an unchanged file applies nothing and needs no restart")
        console.assert_clean(self)


if __name__ == "__main__":
    unittest.main()
