"""Has headless Chromium (Selenium, chromedriver) fetch from petmock across origins. Run by
cors.sh, which starts petmock with --openapi (CORS on by default, --url) and with --cors off
(--off-url). The page is opened as localhost, the API called as 127.0.0.1: another origin.
Exits 1 with one line per failed check."""

import argparse
import json
import sys
import urllib.request

from html_report_check import open_driver

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


# A request a browser preflights (a custom header), with credentials: the page reads the
# status, an exposed header and the body's length, or the error the browser gave.
FETCH = """
const [api, done] = arguments;
fetch(api + "/v2/items", {headers: {"X-Trace": "cors-check"}, credentials: "include"})
  .then(async (response) => done({status: response.status, total: response.headers.get("X-Total-Count"),
                                  items: (await response.json()).length}))
  .catch((error) => done({error: String(error)}));
"""


def fetch_from_other_origin(driver, url):
    driver.get(url.replace("127.0.0.1", "localhost") + "/page.html")
    return driver.execute_async_script(FETCH, url)


def journal(url):
    with urllib.request.urlopen(url + "/__admin/requests", timeout=5) as response:
        return json.loads(response.read())["requests"]


def main():
    parser = argparse.ArgumentParser()
    for name in ("--chromium", "--chromedriver", "--url", "--off-url"):
        parser.add_argument(name, required=True)
    options = parser.parse_args()
    driver = open_driver(options.chromium, options.chromedriver)
    try:
        driver.set_script_timeout(10)
        result = fetch_from_other_origin(driver, options.url)
        check(result.get("status") == 200, f"cors on: the fetch should succeed, got {result}")
        check(result.get("total") == "42", f"cors on: X-Total-Count should be exposed to the page, got {result}")
        events = journal(options.url)
        preflights = [event for event in events if event["request"]["method"] == "OPTIONS"]
        check(len(preflights) == 1, f"cors on: one preflight in the journal, found {len(preflights)}")
        for event in preflights:
            check(event["response"]["status"] == 204, f"cors on: the preflight was answered {event['response']}")
            check(event.get("petmockStubLabel") == "CORS preflight", f"cors on: preflight labelled {event}")
        gets = [event for event in events if event["request"]["url"] == "/v2/items"
                and event["request"]["method"] == "GET"]
        check(len(gets) == 1, f"cors on: the GET itself in the journal once, found {len(gets)}")

        blocked = fetch_from_other_origin(driver, options.off_url)
        check("error" in blocked, f"cors off: the browser should block the fetch, got {blocked}")
        off_events = journal(options.off_url)
        check(any(event["request"]["method"] == "OPTIONS" and event["response"]["status"] == 405
                  for event in off_events), "cors off: the preflight should reach the document (405)")
    finally:
        driver.quit()
    for failure in failures:
        print(f"cors: FAIL: {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print("cors: a browser's cross-origin fetch goes through its preflight with --cors on, "
          "and is blocked with --cors off")


if __name__ == "__main__":
    main()
