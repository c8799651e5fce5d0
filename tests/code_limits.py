#!/usr/bin/env python3
"""Size limits of the code outside tests (docs/DESIGN.md "Conventions").

No source file over 600 lines and no function over 80 lines, in every C++
file except those under tests/ and the build directories. Prints the
longest files and functions and fails naming each one past its limit.

    code_limits.py SOURCE_DIR [--top N] [--max-file-lines L] [--max-function-lines F]

A function is measured from the first line of its declaration to its closing
brace, lambdas and local classes included. The C++ is read with a small
scanner (comments, string and character literals, raw strings, brace-init
lists in constructor initialisers), not a compiler, so it is deliberately
conservative: a brace it cannot place counts as a block of the enclosing
function.
"""
import argparse
import os
import re
import sys

SKIP_DIRS = {"tests", ".git", "node_modules"}
EXTENSIONS = (".cc", ".h", ".cpp", ".hpp")


def source_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        top = "" if rel == "." else rel.split(os.sep)[0]
        if top in SKIP_DIRS or top.startswith("build") or (top.startswith(".") and top != ""):
            dirnames[:] = []
            continue
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(EXTENSIONS):
                yield os.path.join(dirpath, name)


def blank_literals(text):
    """Comments, strings and character literals become spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            # A ' after a digit or letter is a digit separator (1'000), not a char.
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_preprocessor(text):
    """Preprocessor lines (with their continuations) become blank lines."""
    lines = text.split("\n")
    out, cont = [], False
    for line in lines:
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


CLASS_HEAD = re.compile(r"\b(class|struct|union|enum)\b")
NAMESPACE_HEAD = re.compile(r"\bnamespace\b|\bextern\s*$")
FUNCTION_TAIL = re.compile(
    r"\)\s*(const|noexcept|override|final|mutable|volatile|&|&&|->[^;{}]*|\s)*$")
NAME = re.compile(r"([~A-Za-z_][\w:<>~,\s*&]*?)\s*\($")


def functions(text):
    """Yields (name, first_line, last_line) of each function body."""
    code = strip_preprocessor(blank_literals(text))
    stack = []  # kinds: "ns", "class", "func", "block"
    head_start = 0  # offset where the current declaration began
    func_start = None
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c in ";":
            head_start = i + 1
        elif c == "{":
            head = code[head_start:i]
            kind = "block"
            in_func = any(k == "func" for k in stack)
            if not in_func:
                stripped = head.strip()
                if NAMESPACE_HEAD.search(stripped) and "(" not in stripped:
                    kind = "ns"
                elif CLASS_HEAD.search(stripped) and not stripped.endswith(")") and "(" not in stripped.split(":")[0]:
                    kind = "class"
                elif is_function_head(stripped):
                    kind = "func"
                elif ctor_init_brace(stripped):
                    # x_{1} in a constructor's initialiser list: skip the braces.
                    j = matching_brace(code, i)
                    i = j + 1
                    continue
            if kind == "func":
                start_line = code.count("\n", 0, head_start + len(head) - len(head.lstrip())) + 1
                j = matching_brace(code, i)
                end_line = code.count("\n", 0, j) + 1
                yield (function_name(head), start_line, end_line)
                i = j + 1
                head_start = i
                continue
            stack.append(kind)
            head_start = i + 1
        elif c == "}":
            if stack:
                stack.pop()
            head_start = i + 1
        elif c == ":" and i + 1 < n and code[i + 1] != ":" and (i == 0 or code[i - 1] != ":"):
            # public: / private: / case x: end a declaration head in a class.
            prefix = code[head_start:i].strip()
            if prefix in ("public", "private", "protected") or prefix.startswith("case ") or prefix == "default":
                head_start = i + 1
        i += 1


def matching_brace(code, i):
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def is_function_head(head):
    if "(" not in head or head.startswith("="):
        return False
    if re.search(r"=\s*$", head) or re.search(r"\b(return|if|for|while|switch)\b", head.split("(")[0]):
        return False
    if FUNCTION_TAIL.search(head):
        return True
    # A constructor with an initialiser list: Foo(...) : a_(x), b_{y}
    return bool(re.search(r"\)\s*(noexcept\s*)?:\s*[\w:]+\s*[({].*[)}]\s*$", head, re.S))


def ctor_init_brace(head):
    return bool(re.search(r"\)\s*(noexcept\s*)?:\s*", head)) and bool(re.search(r"[\w>]\s*$", head))


def function_name(head):
    before = head.split("(")[0]
    words = re.findall(r"[~\w:]+(?:<[^<>]*>)?", before)
    return words[-1] if words else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--max-file-lines", type=int, default=600)
    ap.add_argument("--max-function-lines", type=int, default=80)
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    file_sizes, func_sizes = [], []
    for path in source_files(root):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        file_sizes.append((text.count("\n"), rel))
        for name, first, last in functions(text):
            func_sizes.append((last - first + 1, f"{rel}:{first}", name))
    file_sizes.sort(reverse=True)
    func_sizes.sort(reverse=True)
    print(f"longest files (limit {args.max_file_lines} lines):")
    for lines, rel in file_sizes[:args.top]:
        print(f"  {lines:6d}  {rel}")
    print(f"longest functions (limit {args.max_function_lines} lines):")
    for lines, where, name in func_sizes[:args.top]:
        print(f"  {lines:6d}  {where}  {name}")
    over_files = [x for x in file_sizes if x[0] > args.max_file_lines]
    over_funcs = [x for x in func_sizes if x[0] > args.max_function_lines]
    for lines, rel in over_files:
        print(f"code_limits: {rel} has {lines} lines (limit {args.max_file_lines})", file=sys.stderr)
    for lines, where, name in over_funcs:
        print(f"code_limits: {where} {name} has {lines} lines (limit {args.max_function_lines})", file=sys.stderr)
    return 1 if over_files or over_funcs else 0


if __name__ == "__main__":
    sys.exit(main())
