#!/usr/bin/env python3
"""Every reference to a document points inside the repository.

A reader of a clone has the repository and nothing else, so each citation a
file makes must resolve in it. Fails, printing file:line and the reference,
on:
  - a document name (NAME.md, dir/NAME.md) that no file of the repository
    has: a path is resolved against the root and the citing file's folder; a
    bare name against those and docs/ ("DESIGN.md" is docs/DESIGN.md);
  - "DESIGN.md section N" (also "DESIGN section N", "DESIGN.md N", "sections N and M", "N-M",
    "section N step M", "DESIGN.md "quoted words"", and a bare "§N") where
    docs/DESIGN.md has no heading numbered N, no step M in section N's list,
    or not the quoted words;
  - a citation of the internal tracker (the word "issue" and a number or a
    quoted title) in a source file: state the reason instead;
  - the workplace beside the repository (its "shared" folder, by a relative
    path or under /work).

    doc_references_test.py [SOURCE_DIR]

Files: git ls-files (tracked, plus untracked files git does not ignore) in a
git checkout, else every file under SOURCE_DIR except .git, build*/, .cache
and node_modules. Skipped: binary files, third-party data (tests/data/,
fuzz/corpus/), and this file. Exit 0: every reference resolves; 1: it
lists those that do not. Python 3 standard library only.
"""
import os
import re
import subprocess
import sys

SELF = "tests/doc_references_test.py"
# The other checker of the workplace path holds that path as its pattern.
SHARED_PATTERN_HOLDERS = {"tests/repo_stands_alone_test.sh"}
SKIP_DIRS = ("tests/data/", "fuzz/corpus/")
# (file, text) a line may hold although it matches: generated text, not a
# citation. None today.
ALLOWED: set = set()
SOURCE_EXT = (".h", ".cc", ".cpp", ".c", ".py", ".sh", ".proto", ".yaml", ".yml", ".toml", ".cmake",
              ".supp", ".service", ".js")
SOURCE_NAMES = ("CMakeLists.txt", "Dockerfile")

# A document name: no '$', '{', '}', '/', '.', word character right before it
# (so $root/README.md, {dir}/X.md and URLs' tails are not names of ours).
DOC_RE = re.compile(r"(?<![\w$}{/.:-])((?:\.\.?/)*(?:[\w-]+/)*[\w-]+\.md)\b")
UPPER_CASE_DIR = re.compile(r"^[A-Z][A-Z_]+$")  # DIR/table.md, OUT/x.md
# DESIGN.md citations; the text after the name is read by SECTION_RE.
DESIGN_RE = re.compile(r"\bDESIGN(?:\.md)?(?:'s)?(?![\w.])")
SECTION_RE = re.compile(
    r"""^\s*(?:
          sections?\s+(?P<list>\d+(?:\.\d+)*(?:\s*(?:-|and|,|or)\s*\d+(?:\.\d+)*)*)
            (?:\s+steps?\s+(?P<steps>\d+(?:\s*(?:-|and|,)\s*\d+)*))?
        | §\s*(?P<list2>\d+(?:\.\d+)*(?:\s*(?:-|and|,)\s*\d+(?:\.\d+)*)*)
        | (?P<list3>\d+(?:\.\d+)*(?:\s*(?:-|and)\s*\d+(?:\.\d+)*)*)(?![\d,])
        | "(?P<quote>[^"]+)"
        )""",
    re.VERBOSE | re.IGNORECASE)
BARE_SECTION_RE = re.compile(r"§\s*(\d+(?:\.\d+)*)")
# A § of another text: RFC 9110 §8.8, the HTML standard's §13.2, ...
OTHER_SPEC_RE = re.compile(r"\b(RFC|ISO|ECMA|WHATWG|W3C|HTML|standard|spec|(?!DESIGN)[A-Z]{2,}\.md)\b[^§]{0,40}$",
                           re.IGNORECASE)
ISSUE_RE = re.compile(r"\bissues?\s+(?:#?\d+\b|\")", re.IGNORECASE)
SHARED_RE = re.compile(r"(?:\.\./|/work/)shared\b")
COMMENT_LEAD = re.compile(r"^\s*(?://+|#+|\*+|/\*+|--|;+)?\s*")


def list_files(root):
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=root, capture_output=True,
                             text=True, check=True).stdout.strip()
        if os.path.realpath(top) == os.path.realpath(root):
            out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                 cwd=root, capture_output=True, check=True).stdout
            return sorted(p for p in out.decode("utf-8", "surrogateescape").split("\0") if p)
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = [x for x in dirs if not (x == ".git" or x == ".cache" or x == "node_modules"
                                           or (rel == "." and x.startswith("build")))]
        for f in files:
            found.append(os.path.normpath(os.path.join(rel, f)))
    return sorted(found)


def design_sections(path):
    """Numbers of docs/DESIGN.md's headings -> the numbered list items of each."""
    sections = {}
    current = None
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError:
        return None, ""
    for line in lines:
        m = re.match(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s", line)
        if m:
            current = m.group(1)
            sections[current] = set()
            continue
        if line.startswith("#"):
            current = None
            continue
        m = re.match(r"^(\d+)\.\s", line)
        if m and current is not None:
            sections[current].add(int(m.group(1)))
    return sections, re.sub(r"\s+", " ", "\n".join(lines)).lower()


def expand(spec):
    """'7 and 8', '7-8', '5.1, 5.2', '3' -> ['7', '8'], ..."""
    parts = re.split(r"\s*(?:,|and|or)\s*", spec.strip())
    out = []
    for p in parts:
        m = re.fullmatch(r"(\d+)\s*-\s*(\d+)", p)
        if m and int(m.group(1)) <= int(m.group(2)) <= int(m.group(1)) + 20:
            out += [str(n) for n in range(int(m.group(1)), int(m.group(2)) + 1)]
        elif p:
            out += [x.strip() for x in p.split("-") if x.strip()]
    return out


def is_source(path):
    return path.endswith(SOURCE_EXT) or os.path.basename(path) in SOURCE_NAMES


def doc_exists(root, citing, name):
    folder = os.path.dirname(citing)
    candidates = [os.path.join(root, name), os.path.join(root, folder, name)]
    if "/" not in name:
        candidates.append(os.path.join(root, "docs", name))
    return any(os.path.isfile(os.path.normpath(c)) for c in candidates)


def check_file(root, rel, text, sections, design_text, bad):
    lines = text.split("\n")
    source = is_source(rel)
    for i, line in enumerate(lines):
        nxt = COMMENT_LEAD.sub("", lines[i + 1]) if i + 1 < len(lines) else ""
        joined = line + " " + nxt  # a citation may wrap onto the next line
        where = f"{rel}:{i + 1}"

        if rel not in SHARED_PATTERN_HOLDERS:
            for m in SHARED_RE.finditer(line):
                bad.append(f"{where}: {m.group(0)}: the workplace outside the repository")

        for m in DOC_RE.finditer(line):
            name = m.group(1)
            if SHARED_RE.search(line[max(0, m.start() - 12):m.end()]):
                continue  # reported above
            dirs = name.split("/")[:-1]
            if any(UPPER_CASE_DIR.match(d) for d in dirs):
                continue
            if "/" not in name and not name[:1].isupper():
                continue  # a file a script writes (table.md), not a document
            if not doc_exists(root, rel, name):
                bad.append(f"{where}: {name}: no such document in the repository")

        if sections is not None:
            for m in DESIGN_RE.finditer(line):
                s = SECTION_RE.match(joined[m.end():])
                if not s:
                    continue
                if s.group("quote"):
                    words = re.sub(r"\s+", " ", s.group("quote")).lower()
                    probe = [w.strip() for w in words.split("...") if w.strip()]
                    if not all(p in design_text for p in probe):
                        bad.append(f'{where}: DESIGN.md "{s.group("quote")}": not in docs/DESIGN.md')
                    continue
                spec = s.group("list") or s.group("list2") or s.group("list3")
                nums = expand(spec)
                for n in nums:
                    if n not in sections:
                        bad.append(f"{where}: DESIGN.md section {n}: docs/DESIGN.md has no such section")
                if s.group("steps") and len(nums) == 1 and nums[0] in sections:
                    for step in expand(s.group("steps")):
                        if int(step) not in sections[nums[0]]:
                            bad.append(f"{where}: DESIGN.md section {nums[0]} step {step}: no such step")
            for m in BARE_SECTION_RE.finditer(line):
                before = line[:m.start()]
                if "DESIGN.md" in before[-24:] or OTHER_SPEC_RE.search(before):
                    continue  # checked above, or another text's section
                if m.group(1) not in sections:
                    bad.append(f"{where}: §{m.group(1)}: docs/DESIGN.md has no such section")

        if source and not any(rel == f and t in line for f, t in ALLOWED):
            for m in ISSUE_RE.finditer(line):
                bad.append(f"{where}: {line[m.start():m.end() + 20].strip()}: "
                           "an internal tracker citation; state the reason instead")


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    sections, design_text = design_sections(os.path.join(root, "docs", "DESIGN.md"))
    bad = []
    if sections is None:
        bad.append("docs/DESIGN.md: missing (source comments cite its sections)")
    checked = 0
    for rel in list_files(root):
        if rel == SELF or rel.startswith(SKIP_DIRS):
            continue
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue  # tracked but deleted in the work tree
        try:
            data = open(path, "rb").read()
        except OSError:
            continue
        if b"\0" in data[:8192]:
            continue
        checked += 1
        check_file(root, rel, data.decode("utf-8", "replace"), sections, design_text, bad)
    for b in bad:
        print(b)
    if bad:
        print(f"doc_references: FAIL: {len(bad)} reference(s) above resolve to nothing in the repository")
        return 1
    print(f"doc_references: ok, {checked} files, every document reference resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
