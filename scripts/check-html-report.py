#!/usr/bin/env python3
"""Checks the HTML report in a real browser (headless Chromium): one row per action, the diverging step marked and
linked from the top, a search (from the URL fragment) that narrows the rows; saves a screenshot.

It writes the report of a diverging sample session (rehearsals-journey replayed with the `rehearsal-advance`
regression), loads it with `chromium --headless --dump-dom`, parses the DOM with the standard library, and exits
non-zero with a message naming what is wrong. Needs the built `replay-cli` and `sample-replay-host` (.build/debug).
Usage: scripts/check-html-report.py [OUT_DIR]   (default: .build/html-report-check)
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SESSION = os.path.join(ROOT, "samples/sessions/rehearsals-journey.jsonl")
SEARCH = "timerTick"


class Rows(html.parser.HTMLParser):
    """The timeline's rows (`tr` with data-step or data-gap) and the marks at the top."""

    def __init__(self):
        super().__init__()
        self.rows, self.marks, self.body = [], [], {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "tr" and ("data-step" in attributes or "data-gap" in attributes):
            self.rows.append(attributes)
        elif tag == "a" and attributes.get("id", "").startswith("mark-"):
            self.marks.append(attributes)
        elif tag == "body":
            self.body = attributes


def fail(message):
    print(f"check-html-report: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    fail("no chromium on PATH (Debian: apt-get install -y chromium)")


def browser(url, *arguments):
    command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--virtual-time-budget=10000", *arguments, url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=90)
    if done.returncode != 0:
        fail(f"chromium exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


def dom(url):
    parser = Rows()
    parser.feed(browser(url, "--dump-dom"))
    if parser.body.get("data-rendered") != "all":
        fail(f"the page did not finish rendering its rows ({url})")
    return parser


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/html-report-check"))
    os.makedirs(out, exist_ok=True)
    report = os.path.join(out, "report.html")
    cli = os.path.join(ROOT, ".build/debug/replay-cli")
    # The debug host CI built (.replay.json names the release one, which CI does not build).
    host = ["--host", os.path.join(ROOT, ".build/debug/sample-replay-host")]
    environment = dict(os.environ, SAMPLE_HOST_REGRESSION="rehearsal-advance")
    written = subprocess.run([cli, "report", SESSION, "-o", report, "--no-build"] + host, cwd=ROOT, env=environment,
                             capture_output=True, text=True, timeout=120)
    if written.returncode != 1:
        fail(f"replay-cli report exited {written.returncode}, expected 1 (diverged): {written.stderr}")
    diff = subprocess.run([cli, "diff", SESSION, "--json", "--no-build"] + host, cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)
    expected = json.loads(diff.stdout)["report"]
    diverging = expected["divergences"][0]["step"]
    actions = expected["actions"]

    # Every action has its row, and the diverging one is marked and linked from the top.
    page = dom("file://" + report)
    steps = [row["data-step"] for row in page.rows if "data-step" in row]
    if len(steps) != actions or len(set(steps)) != actions:
        fail(f"{len(steps)} rows with data-step ({len(set(steps))} different), expected one per action: {actions}")
    marked = [row["data-step"] for row in page.rows if "data-diverged" in row]
    if marked != [str(diverging)]:
        fail(f"rows marked diverged: {marked}, expected [{diverging}]")
    links = [mark.get("href") for mark in page.marks if mark.get("id") == f"mark-divergence-{diverging}"]
    if links != [f"#step={diverging}"]:
        fail(f"no link from the top to the diverging step {diverging}: {page.marks}")

    # A search from the URL fragment narrows the rows, and keeps the ones that match.
    searched = dom("file://" + report + "#search=" + SEARCH)
    shown = [row for row in searched.rows if "data-step" in row and "hidden" not in row]
    if not 0 < len(shown) < actions:
        fail(f"#search={SEARCH} shows {len(shown)} of {actions} rows, expected fewer but some")

    screenshot = os.path.join(out, "report.png")
    browser("file://" + report, f"--screenshot={screenshot}", "--window-size=1400,900")
    if not os.path.exists(screenshot) or os.path.getsize(screenshot) < 10_000:
        fail(f"no screenshot at {screenshot}")
    print(f"check-html-report: ok: {actions} rows, step {diverging} marked diverged and linked, "
          f"#search={SEARCH} shows {len(shown)}; page {os.path.getsize(report)} bytes, "
          f"first rows built at {page.body.get('data-first-rows-ms')} ms, "
          f"all rows at {page.body.get('data-all-rows-ms')} ms; screenshot {screenshot}")


if __name__ == "__main__":
    main()
