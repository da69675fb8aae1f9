#!/usr/bin/env python3
"""Checks the HTML report in a real browser (headless Chromium): one row per action, the diverging step marked and
linked from the top, a search (from the URL fragment) that narrows the rows, a state tree that shows members named
like Object.prototype's (`__proto__`, `constructor`, `hasOwnProperty`, `toString`) after the page applied a step's
patch; saves a screenshot.

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
    """The timeline's rows (`tr` with data-step or data-gap), the marks at the top, and the state tree's leaves
    (`label: value`) and folders (`label`), each as its text."""

    def __init__(self):
        super().__init__()
        self.rows, self.marks, self.body = [], [], {}
        self.leaves, self.folders = [], []
        self.reading = None  # the list a `div.leaf` or `summary`'s text goes to, while inside one
        self.depth = 0

    def handle_endtag(self, tag):
        if self.reading is not None and tag in ("div", "summary", "details"):
            self.depth -= 1
            if self.depth == 0:
                self.reading = None

    def handle_data(self, data):
        if self.reading is not None:
            self.reading[-1] += data

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "tr" and ("data-step" in attributes or "data-gap" in attributes):
            self.rows.append(attributes)
        elif tag == "a" and attributes.get("id", "").startswith("mark-"):
            self.marks.append(attributes)
        elif tag == "body":
            self.body = attributes
        if self.reading is not None and tag in ("div", "summary", "details"):
            self.depth += 1
        elif tag == "div" and attributes.get("class") == "leaf" or tag == "summary":
            self.reading = self.leaves if tag == "div" else self.folders
            self.reading.append("")
            self.depth = 1


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


def check_prototype_names(cli, out):
    """A state's members named `__proto__`, `constructor`, `hasOwnProperty`, `toString` are in the page's tree after
    step 1, whose patch the page applied: one change inside `__proto__`, one beside it."""
    session = os.path.join(out, "prototype-names.jsonl")
    initial = {"__proto__": {"polluted": False}, "constructor": 1, "count": 0, "hasOwnProperty": "h", "toString": "t"}
    after = dict(initial, __proto__={"polluted": True}, count=1)
    lines = [
        {"app": {"name": "ProtoApp"}, "format": 1, "initialState": initial, "kind": "session", "sessionId": "s1",
         "startedAt": "2026-11-22T10:00:00.000Z", "storeId": "proto"},
        {"action": {"bump": {}}, "kind": "action", "name": "bump", "origin": "app", "seq": 1, "state": after,
         "time": 0.5},
    ]
    with open(session, "w") as file:
        file.write("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))
    report = os.path.join(out, "prototype-names.html")
    written = subprocess.run([cli, "report", session, "-o", report, "--no-replay"], cwd=ROOT, capture_output=True,
                             text=True, timeout=120)
    if written.returncode != 0:
        fail(f"replay-cli report --no-replay exited {written.returncode}: {written.stderr}")
    page = dom("file://" + report + "#step=1")
    folders = [text.split(" ")[0] for text in page.folders]
    if folders != ["state", "__proto__"]:
        fail(f"the state tree after step 1 has folders {folders}, expected ['state', '__proto__']")
    expected = ["constructor: 1", "count: 1", 'hasOwnProperty: "h"', 'toString: "t"']
    if page.leaves != expected:
        fail(f"the state tree after step 1 has leaves {page.leaves}, expected {expected}")
    return len(folders) + len(page.leaves)


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

    members = check_prototype_names(cli, out)

    screenshot = os.path.join(out, "report.png")
    browser("file://" + report, f"--screenshot={screenshot}", "--window-size=1400,900")
    if not os.path.exists(screenshot) or os.path.getsize(screenshot) < 10_000:
        fail(f"no screenshot at {screenshot}")
    print(f"check-html-report: ok: {actions} rows, step {diverging} marked diverged and linked, "
          f"#search={SEARCH} shows {len(shown)}; members named like Object.prototype's shown "
          f"({members} in the tree); page {os.path.getsize(report)} bytes, "
          f"first rows built at {page.body.get('data-first-rows-ms')} ms, "
          f"all rows at {page.body.get('data-all-rows-ms')} ms; screenshot {screenshot}")


if __name__ == "__main__":
    main()
