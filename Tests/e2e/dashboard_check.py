"""Drives petmock's dashboard (/__admin/ui) in headless Chromium (Selenium, chromedriver) and
checks what it does against the API. Run by dashboard.sh, which starts petmock (--url) on a
copy of Stubs/ with a "checkout" scenario, and a second one with --admin-token (--token-url).
Exits 1 with one line per failed check."""

import argparse
import json
import pathlib
import sys
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By

from html_report_check import console_errors, open_driver, shown

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def call(url, method="GET", body=None, headers=None):
    """An HTTP request as a tool sends it (no Origin, no Sec-Fetch-Site): (status, text)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def wait_for(description, condition, timeout=5.0):
    """Polls until condition() is truthy; records a failure (and returns None) on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except Exception:  # an element replaced while read: try again
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            check(False, f"timed out waiting for {description}")
            return None
        time.sleep(0.1)


def click(driver, by, selector, description):
    """Clicks an element, finding it again if the page rebuilt it meanwhile."""
    return wait_for(description, lambda: driver.find_element(by, selector).click() or True)


def screenshot(driver, path):
    driver.set_window_size(1300, 400)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1300, min(max(height, 400), 1800))
    time.sleep(0.3)
    check(driver.save_screenshot(str(path)), f"screenshot {path} not written")
    check(path.stat().st_size > 10_000, f"screenshot {path} is {path.stat().st_size} bytes: blank?")
    print(f"dashboard: screenshot {path}")


def check_dashboard(driver, url, screenshots):
    admin = url + "/__admin"
    driver.get(admin + "/ui")
    mappings = json.loads(call(admin + "/mappings")[1])["mappings"]
    rows = wait_for("the mappings listed",
                    lambda: len(driver.find_elements(By.CSS_SELECTOR, "tr[data-mapping-id]")) == len(mappings))
    if rows:
        groups = [heading.text for heading in driver.find_elements(By.CSS_SELECTOR, "#mapping-groups h3")]
        check(any(group.endswith("mappings/vets.json") for group in groups), f"no vets.json group in {groups}")
        check(any(group.endswith("checkout-scenario.json") for group in groups), f"no scenario group in {groups}")
    problem = wait_for("the load problem", lambda: [
        item for item in shown(driver, "#problems li") if "broken.json" in item.text])
    check(problem and "$.response.status" in problem[0].text, "the load problem does not show its JSON path")

    # One click on a file variant: the next request gets it.
    if click(driver, By.CSS_SELECTOR, "button[data-variant='vet-id-renamed']", "the vet-id-renamed button"):
        wait_for("the active variant shown",
                 lambda: driver.find_element(By.ID, "active-variant").text == "vet-id-renamed")
        status, body = call(url + "/api/pets")
        check(status == 200 and "practitionerId" in body and "vetId" not in body,
              f"after the click GET /api/pets is {status} {body[:120]!r}, expected practitionerId")
        row = wait_for("the variant request in the journal", lambda: [
            row for row in shown(driver, "#journal-rows tr")
            if "/api/pets" in row.text and "vet-id-renamed" in row.text])
        check(row, "the journal does not show GET /api/pets with its variant")

    # Request data and stub values are shown as text: a stub named with a <script> does not run.
    call(url + "/api/order/pay", "POST", {})
    check(wait_for("the stub named with a <script> in the journal", lambda: [
        row for row in shown(driver, "#journal-rows tr") if "<script>window.__pwned=1</script>" in row.text]),
        "the stub's name is not shown as text")

    # A variant no stub has: labelled "unknown variant" in the journal (not "no stub matched"),
    # its message on click, and listed under the request problems.
    status, _ = call(url + "/api/vets", headers={"X-Petmock-Variant": "nope"})
    check(status == 400, f"a request naming an unknown variant got {status}, not 400")
    refused = wait_for("the refused request in the journal", lambda: [
        row for row in shown(driver, "#journal-rows tr") if "/api/vets" in row.text and "unknown variant" in row.text])
    check(refused and "no stub matched" not in refused[0].text, "the refused request is not labelled 'unknown variant'")
    if refused:
        refused[0].click()
        check(wait_for("the refusal's message", lambda: "Unknown variant 'nope'" in
                       driver.find_element(By.ID, "request-detail").text), "the refusal's message is not shown")
    click(driver, By.ID, "mappings-refresh", "the mappings' Refresh button")
    listed = wait_for("the request problem", lambda: shown(driver, "#problems li[data-problem-kind='unknown variant']"))
    check(listed and "GET /api/vets" in listed[0].text, "the request problem does not name the request")

    # An unmatched request shows up live, with its near miss criterion by criterion.
    call(url + "/api/vetz")
    if click(driver, By.XPATH, "//tr[contains(@class, 'unmatched')][td[text()='/api/vetz']]",
             "the unmatched request in the journal"):
        table = wait_for("the near miss", lambda: shown(driver, "#request-detail table.near-miss"))
        if table:
            text = driver.find_element(By.ID, "request-detail").text
            check("/api/vets" in text and "✗" in text, f"the near miss does not show the URL criterion: {text[:300]!r}")
    # The filter: only unmatched requests, by text.
    driver.find_element(By.CSS_SELECTOR, "#journal-kind option[value='unmatched']").click()
    wait_for("only unmatched requests listed", lambda: shown(driver, "#journal-rows tr") and all(
        "unmatched" in row.get_attribute("class") for row in shown(driver, "#journal-rows tr")))
    driver.find_element(By.ID, "journal-filter").send_keys("vetz")
    wait_for("the text filter", lambda: len(shown(driver, "#journal-rows tr")) == 1)

    # A mapping's JSON on click.
    driver.find_element(By.CSS_SELECTOR, "tr[data-mapping-id]").click()
    check(wait_for("a mapping's JSON", lambda: '"request"' in driver.find_element(By.ID, "mapping-json").text),
          "no mapping JSON shown on click")

    # Scenarios: reset (the POST above paid), then a state set with one click.
    click(driver, By.XPATH, "//*[@data-scenario='checkout']/button[text()='reset']", "the scenario's reset")
    check(wait_for("the scenario reset", lambda: '"open"' in call(url + "/api/order")[1]),
          "after the scenario's reset GET /api/order is not open")
    if click(driver, By.CSS_SELECTOR, "[data-scenario='checkout'] button[data-state='paid']",
             "the scenario's 'paid' button"):
        check(wait_for("the state set", lambda: '"paid"' in call(url + "/api/order")[1]),
              "after setting 'paid' GET /api/order is not paid")
        wait_for("the state shown", lambda: "on" in driver.find_element(
            By.CSS_SELECTOR, "[data-scenario='checkout'] button[data-state='paid']").get_attribute("class"))
    # Back to every request for the picture, the near miss still open.
    driver.find_element(By.ID, "journal-filter").clear()
    driver.find_element(By.CSS_SELECTOR, "#journal-kind option[value='all']").click()
    wait_for("every request listed again", lambda: len(shown(driver, "#journal-rows tr")) > 2)
    if screenshots:
        driver.execute_script("window.scrollTo(0, 0)")
        screenshot(driver, screenshots / "dashboard.png")
    click(driver, By.ID, "variant-reset", "the variant's Reset")
    wait_for("the variant reset", lambda: json.loads(call(admin + "/petmock/variant")[1])["variant"] is None)

    check(driver.execute_script("return typeof window.__pwned") == "undefined",
          "the <script> in a stub name ran (window.__pwned is set)")
    errors = console_errors(driver)
    check(not errors, f"console errors: {errors}")


def check_cross_origin(driver, url):
    """A page of another origin (localhost is not 127.0.0.1) has the browser post to the admin
    API: refused. The dashboard's same-origin changes passed above."""
    admin = url + "/__admin"
    call(admin + "/scenarios/checkout/state", "PUT", {"state": "paid"})
    other = url.replace("127.0.0.1", "localhost")
    driver.get(other + "/other-origin.html")
    driver.execute_script("""
        const target = arguments[0];
        window.__done = Promise.all([
          fetch(target + "/scenarios/reset", {method: "POST", mode: "no-cors"}),
          fetch(target.replace("/__admin", "/cross-origin-probe"), {method: "POST", mode: "no-cors"}),
          fetch(target + "/mappings", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"},
            body: JSON.stringify({request: {url: "/planted"}, response: {body: "x"}})}),
        ]).then(() => "sent", (error) => String(error));
    """, admin)
    driver.execute_async_script("window.__done.then(arguments[arguments.length - 1])")
    # The requests did reach petmock (the probe is in the journal, from the other origin).
    probes = [event["request"] for event in json.loads(call(admin + "/requests?limit=20")[1])["requests"]
              if event["request"]["url"] == "/cross-origin-probe"]
    check(probes and probes[0]["headers"].get("Origin") == other and
          probes[0]["headers"].get("Sec-Fetch-Site") == "cross-site",
          f"the cross-origin requests did not reach petmock as expected: {probes}")
    scenario = json.loads(call(admin + "/scenarios")[1])["scenarios"][0]
    check(scenario["state"] == "paid", f"a cross-origin POST reset the scenario (state {scenario['state']})")
    check(call(url + "/planted")[0] == 404, "a cross-origin POST added a mapping")
    status, _ = call(admin + "/scenarios/reset", "POST", headers={"Origin": "https://attacker.example"})
    check(status == 403, f"POST with a foreign Origin: {status}, expected 403")
    status, _ = call(admin + "/scenarios/reset", "POST", headers={"Sec-Fetch-Site": "cross-site"})
    check(status == 403, f"POST with Sec-Fetch-Site: cross-site: {status}, expected 403")
    console_errors(driver)


def check_token(driver, url, token):
    admin = url + "/__admin"
    check(call(admin + "/mappings")[0] == 401, "with --admin-token a data call without the token is not 401")
    driver.get(admin + "/ui")
    form = wait_for("the token form", lambda: shown(driver, "#token-form"))
    if not form:
        return
    driver.find_element(By.ID, "token").send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "#token-form button").click()
    mappings = json.loads(call(admin + "/mappings", headers={"Authorization": f"Bearer {token}"})[1])["mappings"]
    wait_for("the mappings listed with the token",
             lambda: len(driver.find_elements(By.CSS_SELECTOR, "tr[data-mapping-id]")) == len(mappings))
    check(not shown(driver, "#token-form"), "the token form is still shown")
    if click(driver, By.CSS_SELECTOR, "button[data-variant='vet-id-renamed']", "a variant button"):
        check(wait_for("the variant set with the token", lambda: "practitionerId" in call(url + "/api/pets")[1]),
              "the token dashboard did not switch the variant")
    stored = driver.execute_script("return sessionStorage.getItem('petmockToken')")
    check(stored == token, "the token is not kept in sessionStorage")
    # Only 401s before the token was entered.
    errors = [error for error in console_errors(driver) if "401" not in error]
    check(not errors, f"console errors with the token: {errors}")


def check_recording(driver, url, target):
    """Recording from the dashboard: start with a target, a request through petmock, stop, and
    the page lists what was written."""
    driver.get(url + "/__admin/ui")
    wait_for("the recording status", lambda: driver.find_element(By.ID, "recording-status").text == "not recording")
    driver.find_element(By.ID, "recording-target").send_keys(target)
    click(driver, By.ID, "recording-start", "the Start button")
    wait_for("recording to start", lambda: driver.find_element(By.ID, "recording-status").text == "recording")
    status, _ = call(url + "/api/vets/2")
    check(status == 200, f"a request while recording got {status}, not the target's 200")
    click(driver, By.ID, "recording-stop", "the Stop button")
    written = wait_for(
        "what was written",
        lambda: [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#recording-written li")])
    check(written and any("GET /api/vets/2" in line and "200" in line for line in written),
          f"the page does not list the recorded mapping: {written}")
    wait_for("recording to stop", lambda: driver.find_element(By.ID, "recording-status").text == "stopped")


def check_document(driver, url):
    """With --openapi: the document's operations beside the mappings, and a request the document
    refused marked in the journal, its violations listed on click."""
    driver.get(url + "/__admin/ui")
    operations = json.loads(call(url + "/__admin/petmock/operations")[1])["operations"]
    rows = wait_for("the document's operations listed", lambda: len(
        shown(driver, "#operation-rows tr[data-operation]")) == len(operations) > 0 and shown(
        driver, "#operation-rows tr[data-operation]"))
    check(rows and "listOrders" in rows[0].text and "/orders" in rows[0].text,
          f"the operations section does not list GET /orders: {[row.text for row in rows or []]}")
    status, body = call(url + "/orders?limit=abc")
    check(status == 400 and '"query.limit"' in body, f"GET /orders?limit=abc got {status} {body[:120]!r}")
    status, _ = call(url + "/orders?limit=5")
    check(status == 200, f"GET /orders?limit=5 got {status}")
    if click(driver, By.XPATH, "//tr[contains(@class, 'unmatched')][td[text()='/orders?limit=abc']]",
             "the refused request in the journal"):
        table = wait_for("the violations", lambda: shown(driver, "#request-detail table.violations"))
        if table:
            text = driver.find_element(By.ID, "request-detail").text
            check("query.limit" in text and "integer" in text and "GET /orders" in text,
                  f"the violations are not shown: {text[:300]!r}")
    valid = wait_for("the valid request in the journal", lambda: [
        row for row in shown(driver, "#journal-rows tr") if "/orders?limit=5" in row.text])
    check(valid and "unmatched" not in valid[0].get_attribute("class"),
          "a request the document answered is marked like an unmatched one")
    errors = console_errors(driver)
    check(not errors, f"console errors with a document: {errors}")


def check_answer_violations(driver, url):
    """With --openapi: an example that breaks its response schema is sent all the same, and its
    journal entry is marked and lists the answer's violations on click."""
    driver.get(url + "/__admin/ui")
    status, body = call(url + "/bad")
    check(status == 200 and "seven" in body, f"GET /bad got {status} {body[:120]!r}")
    row = wait_for("the answer in the journal", lambda: [
        row for row in shown(driver, "#journal-rows tr") if "/bad" in row.text])
    if row:
        check("answer 1" in row[0].text and "warning" in row[0].get_attribute("class"),
              f"the journal entry does not mark the answer's violation: {row[0].text!r}")
    if click(driver, By.XPATH, "//tr[td[text()='/bad']]", "the answer in the journal"):
        table = wait_for("the answer's violations", lambda: shown(driver, "#request-detail table.response-violations"))
        if table:
            text = driver.find_element(By.ID, "request-detail").text
            check("response.body.$.id" in text and "integer" in text and "seven" in text
                  and "breaks its response schema" in text,
                  f"the answer's violations are not shown: {text[:300]!r}")
    errors = console_errors(driver)
    check(not errors, f"console errors with an answer's violations: {errors}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--chromedriver", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--token-url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--document-url", required=True)
    parser.add_argument("--answer-url", required=True)
    parser.add_argument("--screenshots", type=pathlib.Path)
    arguments = parser.parse_args()
    started = time.monotonic()
    driver = open_driver(arguments.chromium, arguments.chromedriver)
    try:
        driver.set_window_size(1300, 1000)
        check_dashboard(driver, arguments.url, arguments.screenshots)
        check_cross_origin(driver, arguments.url)
        check_recording(driver, arguments.url, arguments.token_url)
        check_token(driver, arguments.token_url, arguments.token)
        check_document(driver, arguments.document_url)
        check_answer_violations(driver, arguments.answer_url)
    except Exception as error:  # a missing element: report it with the failures before it
        failures.append(f"{type(error).__name__}: {str(error).splitlines()[0]}")
        if arguments.screenshots:
            driver.save_screenshot(str(arguments.screenshots / "dashboard-failure.png"))
    finally:
        driver.quit()
    for failure in failures:
        print(f"dashboard: FAIL: {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"dashboard: checked in Chromium in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
