#!/usr/bin/env python3
"""Checks that every relative link in README.md and docs/*.md resolves.

A link resolves when its file exists (relative to the page that holds it) and, for a `#anchor`, when the target
Markdown page has a heading with that anchor under GitHub's rules: lowercase, punctuation other than '-' and '_'
removed, spaces turned into '-', and a repeated heading numbered '-1', '-2', ... Links inside code blocks and code
spans are not links. It also checks that docs/index.md lists every file in docs/.

Usage: scripts/check-doc-links.py [ROOT]   (ROOT: the package folder, by default this script's parent's parent)
Exit status: 0 when every link resolves, 1 when some do not (each listed as FILE:LINE: link: reason).
"""

import re
import sys
from pathlib import Path

INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(text):
    """Yields (line number, line) for each line outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), start=1):
        match = FENCE.match(line)
        if match:
            if fence is None:
                fence = match.group(1)
            elif match.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield number, line


def anchor(heading):
    """The anchor GitHub gives a heading's text."""
    text = CODE_SPAN.sub(lambda m: m.group(2), heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading keeps its text
    text = re.sub(r"<[^>]+>", "", text)
    text = text.strip().lower()
    kept = "".join(c for c in text if c.isalnum() or c in "-_ ")
    return kept.replace(" ", "-")


def anchors(path, cache={}):
    """Every anchor of a Markdown page, repeated headings numbered as GitHub numbers them."""
    if path not in cache:
        seen = {}
        result = set()
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            match = HEADING.match(line)
            if not match:
                continue
            base = anchor(match.group(2))
            count = seen.get(base, 0)
            result.add(base if count == 0 else f"{base}-{count}")
            seen[base] = count + 1
        cache[path] = result
    return cache[path]


def links(text):
    """Yields (line number, target) for each link in the page's prose."""
    for number, line in prose_lines(text):
        definition = REFERENCE_DEFINITION.match(line)
        if definition:
            yield number, definition.group(1)
            continue
        without_code = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        for match in INLINE_LINK.finditer(without_code):
            yield number, match.group(1)


def check_page(page, root):
    """The broken links of one page, as messages."""
    problems = []
    for number, target in links(page.read_text(encoding="utf-8")):
        if EXTERNAL.match(target) or target.startswith("//"):
            continue
        path_part, _, fragment = target.partition("#")
        where = f"{page.relative_to(root)}:{number}: {target}"
        destination = (page.parent / path_part).resolve() if path_part else page
        if path_part and not destination.exists():
            problems.append(f"{where}: no file {destination.relative_to(root.resolve()) if destination.is_relative_to(root.resolve()) else destination}")
            continue
        if fragment:
            if destination.suffix.lower() != ".md" or not destination.is_file():
                problems.append(f"{where}: an anchor into a file that is not a Markdown page")
            elif fragment not in anchors(destination):
                problems.append(f"{where}: no heading with the anchor #{fragment} in {destination.name}")
    return problems


def check_index(root):
    """Files in docs/ that docs/index.md does not link to, as messages."""
    index = root / "docs" / "index.md"
    if not index.is_file():
        return ["docs/index.md: missing"]
    listed = {(index.parent / target.partition("#")[0]).resolve()
              for _, target in links(index.read_text(encoding="utf-8"))
              if not EXTERNAL.match(target) and target.partition("#")[0]}
    return [f"docs/index.md: does not list docs/{path.name}"
            for path in sorted((root / "docs").iterdir())
            if path.is_file() and path.name != "index.md" and path.resolve() not in listed]


def main():
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    problems = []
    for page in pages:
        if page.is_file():
            problems.extend(check_page(page, root))
    problems.extend(check_index(root))
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} broken link(s) in {len(pages)} pages", file=sys.stderr)
        return 1
    print(f"all links resolve in {len(pages)} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
