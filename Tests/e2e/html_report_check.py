"""Opens petcontract's HTML reports in headless Chromium (Selenium, chromedriver) and checks
what a reader sees. Run by html-report.sh, which writes the reports into --work:
verify.html/verify.json (a drifted stub folder) and diff.html/diff.json (a renamed property).
Exits 1 with one line per failed check."""

import argparse
import json
import pathlib
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def open_driver(chromium, chromedriver):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,900",
                     "--force-device-scale-factor=1", "--hide-scrollbars"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)


def shown(driver, selector):
    return [element for element in driver.find_elements(By.CSS_SELECTOR, selector) if element.is_displayed()]


def console_errors(driver):
    """The SEVERE entries of the browser log since the last call (reading empties it)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def screenshot(driver, path):
    """The whole page: the window grown to the document's height first."""
    driver.set_window_size(1200, 400)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1200, min(max(height, 400), 2400))
    time.sleep(0.2)
    check(driver.save_screenshot(str(path)), f"screenshot {path} not written")
    check(path.stat().st_size > 10_000, f"screenshot {path} is {path.stat().st_size} bytes: blank?")
    print(f"html-report: screenshot {path}")


def check_verify(driver, work, screenshots):
    expected = json.loads((work / "verify.json").read_text())
    summary = expected["summary"]
    driver.get((work / "verify.html").as_uri())
    title = (f"petcontract: {summary['breaking']} breaking, {summary['warning']} warnings, "
             f"{summary['info']} info, {summary['errors']} error")
    check(driver.title == title, f"verify: title {driver.title!r}, expected {title!r} (did the injected script run?)")
    check(driver.execute_script("return typeof window.__pwned") == "undefined",
          "verify: the <script> in a stub value ran (window.__pwned is set)")

    # Every finding of the JSON report is on the page, by level; the error too.
    for level in ("breaking", "warning", "info"):
        count = sum(1 for finding in expected["findings"] if finding["level"] == level)
        on_page = len(shown(driver, f"article.finding[data-level='{level}']"))
        check(on_page == count, f"verify: {on_page} {level} findings shown, the JSON report has {count}")
        card = driver.find_element(By.CSS_SELECTOR, f".counts .count.{level} b").text
        check(card == str(count), f"verify: the {level} count says {card}, expected {count}")
    errors = shown(driver, "article.error")
    check(len(errors) == summary["errors"], f"verify: {len(errors)} errors shown, expected {summary['errors']}")
    check(errors and "not valid JSON" in errors[0].text, "verify: the unreadable mapping's error is not shown")
    total = len(expected["findings"]) + summary["errors"]
    check(driver.find_element(By.ID, "shown").text == f"{total} of {total} shown", "verify: the shown count")

    # The type change: path, Swift property, found, and the marked member in the body excerpt.
    finding = next((article for article in shown(driver, "article.finding")
                    if article.find_element(By.CSS_SELECTOR, ".path").text == "$[1].vetId"
                    and "response-property-type-changed" in article.text), None)
    if check(finding is not None, "verify: no finding at $[1].vetId (response-property-type-changed)"):
        swift = finding.find_element(By.CSS_SELECTOR, "code.swift").text
        check(swift == "PetJsonModel.vetId: Int?", f"verify: Swift property {swift!r}")
        check('string "2"' in finding.text, "verify: the value found is not shown")
        marks = finding.find_elements(By.CSS_SELECTOR, "figure.excerpt mark")
        check([mark.text for mark in marks] == ['"vetId": "2"'],
              f"verify: marked {[mark.text for mark in marks]}, expected the vetId member")
        if marks:
            background = marks[0].value_of_css_property("background-color")
            check(background not in ("rgba(0, 0, 0, 0)", "transparent"), "verify: the mark is not highlighted")
        excerpt = finding.find_element(By.CSS_SELECTOR, "figure.excerpt pre").text
        injected = "<script>document.title='pwned';window.__pwned=1</script>"
        check(injected in excerpt, f"verify: the injected script is not shown as text in the excerpt: {excerpt!r}")
        check(finding.find_element(By.CSS_SELECTOR, "figcaption").text == "response body at $[1]",
              "verify: the excerpt's caption")
    check(not driver.find_elements(By.XPATH, "//script[contains(., 'pwned')]"),
          "verify: the injected <script> is an element of the page")
    renamed = [article for article in shown(driver, "article.finding") if "response-property-probably-renamed" in article.text]
    check(len(renamed) == 1 and renamed[0].find_element(By.CSS_SELECTOR, "mark").text == '"practitionerId": 2',
          "verify: the rename does not mark the new key")

    if screenshots:
        screenshot(driver, screenshots / "html-report.png")

    # The filter: warnings hide and come back; only breaking left hides the vets operation.
    warnings = len(shown(driver, "article.finding.warning"))
    driver.find_element(By.CSS_SELECTOR, "input[data-level='warning']").click()
    check(not shown(driver, "article.finding.warning"), "verify: warnings still shown with the filter off")
    check(len(shown(driver, "article.finding.breaking")) == summary["breaking"], "verify: breaking hidden too")
    check(driver.find_element(By.ID, "shown").text == f"{total - warnings} of {total} shown",
          f"verify: shown count {driver.find_element(By.ID, 'shown').text!r} with warnings hidden")
    driver.find_element(By.CSS_SELECTOR, "input[data-level='warning']").click()
    check(len(shown(driver, "article.finding.warning")) == warnings, "verify: warnings do not come back")
    for level in ("warning", "info", "error"):
        driver.find_element(By.CSS_SELECTOR, f"input[data-level='{level}']").click()
    operations = [section.find_element(By.TAG_NAME, "h2").text for section in shown(driver, "section.operation")]
    check(len(operations) == 1 and operations[0].startswith("GET /pets"),
          f"verify: with only breaking shown, the operations shown are {operations}")
    if screenshots:
        driver.execute_script("window.scrollTo(0, 0)")
        screenshot(driver, screenshots / "html-report-filtered.png")
    errors = console_errors(driver)
    check(errors == [], f"verify: console errors (a refused script?) {errors}")


def check_diff(driver, work):
    expected = json.loads((work / "diff.json").read_text())
    driver.get((work / "diff.html").as_uri())
    findings = shown(driver, "article.finding")
    check(len(findings) == len(expected["findings"]),
          f"diff: {len(findings)} findings shown, the JSON report has {len(expected['findings'])}")
    paths = [finding.find_element(By.CSS_SELECTOR, ".path").text for finding in findings]
    # A change inside a shared component is one finding, its path from the component's root.
    check("$.vetId" in paths, f"diff: no finding at $.vetId (component PetJsonModel) among {paths}")
    check(not driver.find_elements(By.CSS_SELECTOR, "figure.excerpt"), "diff: a body excerpt in a diff")
    facts = driver.find_element(By.CSS_SELECTOR, "dl.facts").text
    check("old.openapi.json -> new.openapi.json" in facts and "not applicable" in facts, f"diff: facts {facts!r}")
    driver.find_element(By.CSS_SELECTOR, "input[data-level='breaking']").click()
    check(not shown(driver, "article.finding"), "diff: breaking findings still shown with the filter off")
    errors = console_errors(driver)
    check(errors == [], f"diff: console errors (a refused script?) {errors}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--chromedriver", required=True)
    parser.add_argument("--work", required=True, type=pathlib.Path)
    parser.add_argument("--screenshots", type=pathlib.Path)
    arguments = parser.parse_args()
    started = time.monotonic()
    driver = open_driver(arguments.chromium, arguments.chromedriver)
    try:
        check_verify(driver, arguments.work, arguments.screenshots)
        driver.set_window_size(1200, 900)
        check_diff(driver, arguments.work)
    finally:
        driver.quit()
    for failure in failures:
        print(f"html-report: FAIL: {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"html-report: verify and diff reports checked in Chromium in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
