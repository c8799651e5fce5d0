"""Every shared library the binaries link comes with the runtime packages.

usage: check_runtime_libs.py BIN_DIR INSTALL_DEPS_SH

Runs ldd on the crawl binaries, finds each library's Debian package (dpkg
-S) and checks it is in `install-deps.sh --print runtime` or among what
those packages depend on (their installed dependency closure), so the
image's runtime stage installs it. Sanitizer builds (ASan, TSan runtimes)
are not what the image ships: they are skipped.
"""
import os
import re
import subprocess
import sys

bin_dir, install_deps = sys.argv[1], sys.argv[2]
binaries = ["nameserver", "queueserver", "fetcher", "crawlctl", "testweb"]
libs = set()
for b in binaries:
    path = os.path.join(bin_dir, b)
    out = subprocess.run(["ldd", path], capture_output=True, text=True, check=True).stdout
    # gcc links the sanitizer runtimes dynamically, clang statically (only
    # its symbols tell): either way not the image's build.
    with open(path, "rb") as f:
        static_sanitizer = any(sym in f.read() for sym in (b"__asan_init", b"__tsan_init", b"__ubsan_handle"))
    if static_sanitizer or re.search(r"lib(a|t|ub)san|clang_rt", out):
        print(f"skip: {b} is a sanitizer build")
        sys.exit(0)
    for m in re.finditer(r"=>\s*(/\S+)", out):
        libs.add(os.path.realpath(m.group(1)))
    if "not found" in out:
        sys.exit(f"{b}: a library is not found: {out}")


def package_of(path):
    for p in (path, "/usr" + path if not path.startswith("/usr/") else path[4:]):
        r = subprocess.run(["dpkg", "-S", p], capture_output=True, text=True)
        if r.returncode == 0:
            return r.stdout.split(":", 1)[0]
    return None


runtime = subprocess.run(["bash", install_deps, "--print", "runtime"], capture_output=True, text=True,
                         check=True).stdout.split()
deps = {}
for line in subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Depends}, ${Pre-Depends}\n"],
                           capture_output=True, text=True, check=True).stdout.splitlines():
    name, d = line.split("\t", 1)
    deps[name] = {re.split(r"[\s(:]", alt.strip())[0] for part in d.split(",") for alt in part.split("|")
                  if alt.strip()}
closure, todo = set(), list(runtime)
while todo:
    p = todo.pop()
    if p in closure:
        continue
    closure.add(p)
    todo.extend(deps.get(p, ()))
bad = []
for lib in sorted(libs):
    pkg = package_of(lib)
    if pkg is None:
        bad.append(f"{lib}: no Debian package owns it")
    elif pkg not in closure:
        bad.append(f"{lib} ({pkg}): not in install-deps.sh's runtime group nor among its dependencies")
for b in bad:
    print(b, file=sys.stderr)
if bad:
    sys.exit(1)
print(f"ok: the {len(libs)} shared libraries of {', '.join(binaries)} come with the runtime packages")
