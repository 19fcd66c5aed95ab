"""Runs every scripts/console/test_*.py module against one running passgate and one headless
Chromium (scripts/console-check starts the server and passes its ports). Exits 1 on any failure."""
import argparse
import os
import sys
import unittest

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium never downloads a browser or a driver

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # Element lookups retry until the element is there (a page still loading after a click), for
    # at most this long: a bound on a failure, not a pause.
    driver.implicitly_wait(10)
    return driver


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--admin", required=True)
    parser.add_argument("--api", required=True)
    parser.add_argument("--sandbox", required=True)
    parser.add_argument("--screenshots")
    parser.add_argument("pattern", nargs="?", default="test_*.py")
    arguments = parser.parse_args()
    driver = browser()
    try:
        harness.console = harness.Console(
            driver, "http://127.0.0.1:" + arguments.admin, "http://127.0.0.1:" + arguments.api,
            "http://127.0.0.1:" + arguments.sandbox, screenshots=arguments.screenshots)
        suite = unittest.defaultTestLoader.discover(os.path.dirname(os.path.abspath(__file__)), pattern=arguments.pattern)
        result = unittest.TextTestRunner(verbosity=2).run(suite)
    finally:
        driver.quit()
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
