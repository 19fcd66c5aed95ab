"""The console's usage page in a real browser, after real traffic: the counts per day, app,
provider and operation (what `passgate usage` prints), the bar chart's numbers as text, a bad
date named, and the CSV download with the session cookie.

Run by scripts/console-check (one `passgate serve`, one headless Chromium; harness.py)."""
import csv
import io
import time
import unittest

from selenium.webdriver.common.by import By

from harness import console, raw_request

APPS = ("300011111111", "jg-demo")


def cookie_header():
    return "; ".join(f"{c['name']}={c['value']}" for c in console.driver.get_cookies())


class UsageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Real traffic: a success per app, through the REST API; the audit log records each call.
        for app_id in APPS:
            token = console.mint_token(app_id, "13800138000")
            status, body = console.exchange(app_id, token)
            assert status == 200, (app_id, status, body)

    def setUp(self):
        console.sign_in()

    def rows(self):
        table = console.driver.find_element(By.ID, "usage-rows")
        return [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]

    def test_usage_counts_the_traffic(self):
        # The audit writer batches its lines for a few milliseconds: look again until they are in.
        deadline = time.monotonic() + 10
        while True:
            console.get("/console/usage")
            apps = {row[1] for row in self.rows() if len(row) > 1}
            if set(APPS) <= apps or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        self.assertLessEqual(set(APPS), apps)
        main = console.driver.find_element(By.TAG_NAME, "main").text
        self.assertIn("Usage", main)
        for row in self.rows():
            if row[1] in APPS:
                self.assertGreaterEqual(int(row[4]), 1, row)
        chart = console.driver.find_element(By.ID, "usage-chart").text
        self.assertRegex(chart, r"\d+ calls, \d+ billable")
        console.assert_clean(self)
        console.screenshot("usage")

    def test_a_bad_date_is_named(self):
        console.get("/console/usage?from=2026-13-01")
        problem = console.driver.find_element(By.ID, "usage-problem").text
        self.assertIn("from", problem)
        self.assertIn("YYYY-MM-DD", problem)
        console.assert_clean(self)

    def test_csv_download(self):
        console.get("/console/usage")
        link = console.driver.find_element(By.ID, "usage-csv").get_attribute("href")
        status, headers, body = raw_request(link, cookie=cookie_header())
        self.assertEqual(status, 200, body[:200])
        self.assertIn("attachment", headers["Content-Disposition"])
        self.assertTrue(headers["Content-Type"].startswith("text/csv"))
        rows = list(csv.reader(io.StringIO(body)))
        self.assertEqual(rows[0], ["day", "appId", "provider", "operation", "calls", "billable", "nonBillable"])
        self.assertLessEqual(set(APPS), {row[1] for row in rows[1:]})
        for value in console.secrets_and_tokens():
            self.assertNotIn(value, body)

if __name__ == "__main__":
    unittest.main()
