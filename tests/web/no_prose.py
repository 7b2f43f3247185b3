#!/usr/bin/env python3
"""no_prose.py — the browser reads what happened as data, never the server's prose.

The server sends, beside the events and fields a page words in its own
language (docs/web-views.md, "Events and action fields"), English texts for
programs that want them: a history entry's `said` (the game's describe) and
`text` (notation), a legal action's `long`, karuta's `judgement.text`. A page
that reads them breaks when a C sentence is reworded and cannot speak another
language. This check fails when any script under web/ (but web/js/vendor)
names `said`, `long` or a judgement's `text`, or runs a regular expression on
anything's `.text`:

    python3 tests/web/no_prose.py [WEB_DIR]

It prints each offending line (file:line) and exits 1, or prints how many
files it read and exits 0. (label layers: a static check, like the include
layers.)
"""
import pathlib
import re
import sys

# A property read by name: .said / ?.said / ['said'] / "said": (destructuring
# or a key in an object pattern), and the same for long; a judgement's text.
PROSE_KEYS = ("said", "long")
KEY_RE = re.compile(
    r"""(?:\?\.|\.)\s*(%s)\b|\{[^}]*\b(%s)\b[^}]*\}\s*=""" % ("|".join(PROSE_KEYS), "|".join(PROSE_KEYS)))
BRACKET_RE = re.compile(r"""\[\s*['"](%s)['"]\s*\]""" % "|".join(PROSE_KEYS))
# String literals ('…', "…", `…` on one line), blanked before property reads
# are looked for.
STRING_RE = re.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\\n]|\\.)*`""")
JUDGEMENT_TEXT_RE = re.compile(r"judgement\s*(?:\?\.|\.)\s*text\b|\bj\s*(?:\?\.|\.)\s*text\b")
# A regular expression run on something's text: /re/.exec(x.text ...),
# /re/.test(x.text), x.text.match(/re/), x.text.replace(/re/ ...), and
# new RegExp(...) at all.
REGEX_ON_TEXT_RE = re.compile(
    r"""/[^/\n]+/[a-z]*\s*\.\s*(?:exec|test)\s*\(\s*[\w.$?]*\.text\b"""
    r"""|\.text\s*(?:\|\|\s*['"]{2}\s*)?\)?\s*\.\s*(?:match|matchAll|replace|split|search)\s*\(\s*/"""
    r"""|\bnew\s+RegExp\s*\(""")


def strip_comments(line, in_block):
    """`line` without // and /* */ comments (strings are not parsed: good
    enough for this code base's style), and whether a block comment goes
    on."""
    out = []
    i = 0
    while i < len(line):
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i = end + 2
            in_block = False
        elif line.startswith("/*", i):
            in_block = True
            i += 2
        elif line.startswith("//", i) and (i == 0 or line[i - 1] != ":"):
            break
        else:
            out.append(line[i])
            i += 1
    return "".join(out), in_block


def check(web):
    bad = []
    files = sorted(p for p in web.rglob("*.js") if "vendor" not in p.parts)
    for path in files:
        in_block = False
        for no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line, in_block = strip_comments(raw, in_block)
            code = STRING_RE.sub("''", line)  # property reads outside strings ('status.x.long' is a key)
            for rx, text, why in ((KEY_RE, line, "reads the server's English (said/long)"),
                                  (JUDGEMENT_TEXT_RE, code, "reads karuta's judgement text"),
                                  (REGEX_ON_TEXT_RE, line, "runs a regular expression on a server text")):
                if rx.search(text if rx is not KEY_RE else code) or (rx is KEY_RE and BRACKET_RE.search(line)):
                    bad.append("%s:%d: %s: %s" % (path.relative_to(web.parent), no, why, raw.strip()))
    return files, bad


def main():
    web = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2] / "web")
    files, bad = check(web)
    if not files:
        print("no_prose: no scripts under %s" % web)
        return 1
    for b in bad:
        print(b)
    if bad:
        print("no_prose: %d place(s) in web/ read server prose: word what happened from `events` and "
              "`fields` (docs/web-views.md)" % len(bad))
        return 1
    print("no_prose: %d scripts read, none reads server prose" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
