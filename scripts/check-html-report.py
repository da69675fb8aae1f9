#!/usr/bin/env python3
"""Checks the HTML report in a real browser (headless Chromium): one row per action, the diverging step marked and
linked from the top, a search (from the URL fragment) that narrows the rows, a state tree that shows members named
like Object.prototype's (`__proto__`, `constructor`, `hasOwnProperty`, `toString`) after the page applied a step's
patch; the "changed" column cut to the changed path's leaf and named parent, the whole path in its title; and
`report --all` of a generated todos session that diverges on about half its steps: the top stays a few lines high,
the timeline and detail panes keep their height, one mark links the first divergence and the divergence bar walks
the rest (the keys n and p, the next button), and a screenshot of the timeline is not blank.

It writes the report of a diverging sample session (rehearsals-journey replayed with the `rehearsal-advance`
regression), loads it with `chromium --headless --dump-dom`, parses the DOM with the standard library, and exits
non-zero with a message naming what is wrong. Needs the built `replay-cli` and `sample-replay-host` (.build/debug).
Geometry and the divergence bar's keys are read by a probe script added to a copy of the page (never to the page
itself), which writes what it measured into `body` attributes that `--dump-dom` shows. The screenshot is decoded
with the standard library (zlib), so nothing but Chromium is needed.
Usage: scripts/check-html-report.py [OUT_DIR]   (default: .build/html-report-check)
"""
import html.parser
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SESSION = os.path.join(ROOT, "samples/sessions/rehearsals-journey.jsonl")
SEARCH = "timerTick"
LARGE_ACTIONS = 600  # about 270 diverging steps with `todos-toggle`: enough to fill any screen with marks
WINDOW = (1400, 900)


class Rows(html.parser.HTMLParser):
    """The timeline's rows (`tr` with data-step or data-gap), the marks at the top, and the state tree's leaves
    (`label: value`) and folders (`label`), each as its text."""

    def __init__(self):
        super().__init__()
        self.rows, self.marks, self.body = [], [], {}
        self.leaves, self.folders = [], []
        self.changed = []  # the "changed" cells: [title or None, text]
        self.in_changed = False
        self.in_tree = False
        self.reading = None  # the list a `div.leaf` or `summary`'s text goes to, while inside one
        self.depth = 0

    def handle_endtag(self, tag):
        if tag == "td":
            self.in_changed = False
        if self.reading is not None and tag in ("div", "summary", "details"):
            self.depth -= 1
            if self.depth == 0:
                self.reading = None

    def handle_data(self, data):
        if self.in_changed:
            self.changed[-1][1] += data
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
        elif tag == "td" and attributes.get("class") == "changed":
            self.changed.append([attributes.get("title"), ""])
            self.in_changed = True
        if tag == "details":  # a summary is a folder of the state tree, not the divergence bar's menu
            self.in_tree = attributes.get("id") != "divergence-paths"
        if self.reading is not None and tag in ("div", "summary", "details"):
            self.depth += 1
        elif tag == "div" and attributes.get("class") == "leaf" or tag == "summary" and self.in_tree:
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


def dom(url, *arguments):
    parser = Rows()
    parser.feed(browser(url, "--dump-dom", *arguments))
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


# Measures the page as a window of WINDOW shows it: the heights of the top, the timeline and the detail, the steps
# the divergence bar shows after the keys n, the next button and p, and the first contentful paint.
PROBE = """<script>
(function () {
  const b = document.body.dataset;
  b.probeHeights = ["summary", "timeline-pane", "detail"]
    .map((id) => Math.round(document.getElementById(id).getBoundingClientRect().height)).join(",");
  const selected = () => document.getElementById("detail").dataset.selectedStep || "";
  const key = (name) => document.dispatchEvent(new KeyboardEvent("keydown", { key: name, bubbles: true }));
  const walked = [selected()];
  key("n"); walked.push(selected());
  const next = document.getElementById("next-divergence");
  if (next) next.click();
  walked.push(selected());
  key("p"); walked.push(selected());
  b.probeWalked = walked.join(",");
  // The changed cells whose text ends out of sight (cut at its end, so the leaf is hidden), of those cut at all.
  const cells = [...document.querySelectorAll("#timeline td.changed")];
  const cut = cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1);
  const hidden = cut.filter((cell) => {
    const text = document.createRange();
    text.selectNodeContents(cell);
    return text.getBoundingClientRect().right > cell.getBoundingClientRect().right + 1;
  });
  b.probeChangedCut = cut.length + "," + hidden.length;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === "first-contentful-paint") b.probeFirstPaintMs = entry.startTime.toFixed(0);
  }).observe({ type: "paint", buffered: true });
})();
</script>
"""


def probed(report, out):
    """The DOM of a copy of `report` with the probe added before `</body>`, in a window of WINDOW."""
    with open(report, encoding="utf-8") as file:
        page = file.read()
    end = page.rindex("</body>")
    copy = os.path.join(out, "probed-" + os.path.basename(report))
    with open(copy, "w", encoding="utf-8") as file:
        file.write(page[:end] + PROBE + page[end:])
    return dom("file://" + copy, f"--window-size={WINDOW[0]},{WINDOW[1]}")


def embedded_data(report):
    with open(report, encoding="utf-8") as file:
        page = file.read()
    start = page.index('<script type="application/json" id="report-data">')
    start = page.index(">", start) + 1
    return json.loads(page[start:page.index("</script>", start)])


def pixels(png):
    """A PNG's width, height, bytes per pixel and rows of bytes (8-bit RGB or RGBA, not interlaced, as Chromium
    writes its screenshots)."""
    with open(png, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{png} is not a PNG")
    position, compressed = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                fail(f"{png}: a PNG of depth {depth}, colour type {colour}, interlace {interlace} is not decoded here")
        elif kind == b"IDAT":
            compressed += body
        position += 12 + length
    raw = zlib.decompress(compressed)
    size = 3 if colour == 2 else 4
    stride = width * size
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = row[x - size] if x >= size else 0
            up, corner = previous[x], previous[x - size] if x >= size else 0
            if kind == 1:
                row[x] = (row[x] + left) & 255
            elif kind == 2:
                row[x] = (row[x] + up) & 255
            elif kind == 3:
                row[x] = (row[x] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
                row[x] = (row[x] + near[2]) & 255
        rows.append(row)
        previous = row
    return width, height, size, rows


def check_not_blank(png, top, left, right):
    """The screenshot's region below `top`, between `left` and `right`, has text on it: enough pixels that are not
    the background and enough colours. Returns (non-white share, colours)."""
    width, height, size, rows = pixels(png)
    colours, inked, total = set(), 0, 0
    for row in rows[top:height]:
        for x in range(left * size, min(right, width) * size, size):
            pixel = bytes(row[x:x + 3])
            colours.add(pixel)
            inked += pixel != b"\xff\xff\xff"
            total += 1
    share = inked / max(total, 1)
    if share < 0.02 or len(colours) < 16:
        fail(f"the screenshot {png} is blank below y={top} (x {left}-{right}): {share:.1%} of pixels not white, "
             f"{len(colours)} colours")
    return share, len(colours)


def check_changed_column(page):
    """Every "changed" cell shows the end of its first path, at most a few dozen characters, the whole of every
    path in its title."""
    for title, text in page.changed:
        if title is None:
            if text != "no change":
                fail(f"a changed cell without a title: {text!r}")
            continue
        label = text.split(" +")[0]
        first = title.split("\n")[0]
        names = re.sub(r"\[[^\]]*\]", "", label).lstrip("…")  # its members' names, subscripts left out
        if len(label) > 48 or not re.sub(r"\[[^\]]*\]", "", first).endswith(names):
            fail(f"the changed cell {text!r} does not end like its path {first!r}, in at most 48 characters")
    return len(page.changed)


def check_all_large(cli, host, out):
    """`report --all` of a todos session of LARGE_ACTIONS actions replayed with the `todos-toggle` regression."""
    session = os.path.join(out, "todos-large.jsonl")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/make-todos-session.py"), session, str(LARGE_ACTIONS)],
                   check=True, timeout=120)
    report = os.path.join(out, "report-all.html")
    environment = dict(os.environ, SAMPLE_HOST_REGRESSION="todos-toggle")
    started = time.monotonic()
    written = subprocess.run([cli, "report", session, "--all", "-o", report, "--no-build"] + host, cwd=ROOT,
                             env=environment, capture_output=True, text=True, timeout=300)
    seconds = time.monotonic() - started
    if written.returncode != 1:
        fail(f"replay-cli report --all exited {written.returncode}, expected 1 (diverged): {written.stderr}")
    data = embedded_data(report)
    diverging = sorted({divergence["step"] for divergence in data["replay"]["divergences"]})
    if len(diverging) < LARGE_ACTIONS // 4:
        fail(f"report --all found {len(diverging)} diverging steps in {LARGE_ACTIONS}, expected hundreds")

    page = probed(report, out)
    steps = [row for row in page.rows if "data-step" in row]
    if len(steps) != LARGE_ACTIONS:
        fail(f"report --all: {len(steps)} rows, expected {LARGE_ACTIONS}")
    marks = [mark["id"] for mark in page.marks if mark.get("id", "").startswith("mark-divergence-")]
    if marks != [f"mark-divergence-{diverging[0]}"]:
        fail(f"report --all: divergence marks {marks[:5]} ({len(marks)}), expected one, of step {diverging[0]}")
    header, timeline, detail = (int(height) for height in page.body["data-probe-heights"].split(","))
    if header > 200 or timeline < 400 or detail < 400:
        fail(f"report --all in a {WINDOW[0]}x{WINDOW[1]} window: top {header} px high (at most 200), timeline "
             f"{timeline} px and detail {detail} px (each at least 400)")
    walked = page.body.get("data-probe-walked")
    expected = ",".join(str(step) for step in [diverging[0], diverging[1], diverging[2], diverging[1]])
    if walked != expected:
        fail(f"the divergence bar walked {walked} (opened, n, next, p), expected {expected}")

    cut, hidden = (int(count) for count in page.body["data-probe-changed-cut"].split(","))
    if hidden:
        fail(f"report --all: {hidden} of the {cut} changed cells too narrow for their path hide its leaf")

    screenshot = os.path.join(out, "report-all.png")
    browser("file://" + report, f"--screenshot={screenshot}", f"--window-size={WINDOW[0]},{WINDOW[1]}")
    share, colours = check_not_blank(screenshot, header + 40, 0, WINDOW[0] // 2)
    return (f"--all: {len(diverging)} of {LARGE_ACTIONS} steps diverged, written in {seconds:.1f} s, "
            f"{os.path.getsize(report)} bytes, top {header} px, timeline {timeline} px, detail {detail} px, "
            f"first paint {page.body.get('data-probe-first-paint-ms')} ms, walked {walked}, {cut} changed cells cut "
            f"before their leaf, screenshot's timeline "
            f"{share:.0%} inked in {colours} colours ({screenshot})")


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
    changed = check_changed_column(page)
    large = check_all_large(cli, host, out)

    screenshot = os.path.join(out, "report.png")
    browser("file://" + report, f"--screenshot={screenshot}", "--window-size=1400,900")
    if not os.path.exists(screenshot) or os.path.getsize(screenshot) < 10_000:
        fail(f"no screenshot at {screenshot}")
    print(f"check-html-report: ok: {actions} rows, step {diverging} marked diverged and linked, "
          f"#search={SEARCH} shows {len(shown)}; members named like Object.prototype's shown "
          f"({members} in the tree); {changed} changed cells cut to their leaf; page {os.path.getsize(report)} bytes, "
          f"first rows built at {page.body.get('data-first-rows-ms')} ms, "
          f"all rows at {page.body.get('data-all-rows-ms')} ms; screenshot {screenshot}; {large}")


if __name__ == "__main__":
    main()
