"""Nemesis of the fault harness (tests/faults/README.md): draws a schedule of
faults from a seed, applies each to a running local cluster for a while, heals
it, and logs every step, so a failing schedule can be replayed with the same
seed.

The cluster runs in a network namespace the test made (fault_schedule_test.sh),
where iptables rules touch nothing outside. Each cluster process runs in its
own cgroup (v2) under CGROUP_ROOT (deploy/local-cluster.sh starts it there when
CRAWL_CLUSTER_CGROUPS is set); a rule matching `-m cgroup --path` on the sender
then cuts one process's packets to another process's port, which is how one
link is cut while the others work.

Faults (each held DURATION seconds, then healed):
  partition A B     A's packets to B's port dropped, and B's to A's port when A
                    is a server too: the link is cut both ways, silently
  drop-requests A B A's packets to B's port dropped (one direction)
  drop-replies B    B's packets from its port dropped: B hears every caller and
                    answers none (the other direction)
  reset A B         A's connections to B's port reset (TCP RST) at every try
  pause P           SIGSTOP, then SIGCONT
  kill P            SIGKILL, then `local-cluster.sh restart` after DURATION
  skew P SECONDS    P is killed and restarted with a wall clock SECONDS ahead
                    (negative: behind); after the hold the clock is set right
                    while P runs, which P must not notice (a clock step), so
                    P keeps the skewed clock until its next restart
                    (common/base/clock_skew.h: DIR/P.clock-skew-ms, read at
                    start when local-cluster.sh set CRAWL_CLUSTER_CLOCK_SKEW)

usage: nemesis.py --cluster DIR --cgroup-root PATH (--seed N --steps K | --faults LIST)
                  --local-cluster SCRIPT [--scale S] [--plan]
--plan prints the schedule and exits (the replay of a seed starts there).
--faults gives the schedule itself: "KIND TARGET... HOLD_S; ..." (3 s of calm
after each), e.g. "partition fetcher0 queueserver0 25; kill queueserver1 5;
skew queueserver0 -300 20".
"""
import argparse
import os
import random
import signal
import subprocess
import sys
import time

SERVERS = ("nameserver", "queueserver0", "queueserver1")
FETCHERS = ("fetcher0", "fetcher1")
# Who calls whom: a link is (client, server).
LINKS = [(f, s) for f in FETCHERS for s in SERVERS] + [
    ("queueserver0", "nameserver"), ("queueserver1", "nameserver"),
    ("nameserver", "queueserver0"), ("nameserver", "queueserver1")]
KINDS = ("partition", "drop-requests", "drop-replies", "reset", "pause", "kill", "skew")


def plan(seed, steps, scale):
    """The schedule of a seed: a list of (kind, targets, hold_s, gap_s)."""
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        kind = rng.choice(KINDS)
        if kind in ("partition", "drop-requests", "reset"):
            targets = list(rng.choice(LINKS))
        elif kind == "drop-replies":
            targets = [rng.choice(SERVERS)]
        elif kind == "skew":  # minutes off, either way
            targets = [rng.choice(SERVERS + FETCHERS), str(rng.choice((-1, 1)) * rng.randint(60, 600))]
        else:
            targets = [rng.choice(SERVERS + FETCHERS)]
        hold = round(rng.uniform(3, 12) * scale, 1)
        gap = round(rng.uniform(2, 5) * scale, 1)
        out.append((kind, targets, hold, gap))
    return out


def parse(text):
    """An explicit schedule: "KIND TARGET... HOLD_S; ..."."""
    out = []
    for step in filter(None, (s.strip() for s in text.split(";"))):
        words = step.split()
        if len(words) < 3 or words[0] not in KINDS:
            raise SystemExit(f"nemesis: bad fault '{step}' (KIND TARGET... HOLD_S; kinds: {', '.join(KINDS)})")
        names = set(SERVERS + FETCHERS)
        processes = words[1:-1]
        if words[0] == "skew":
            if len(words) != 4 or not words[2].lstrip("+-").isdigit():
                raise SystemExit(f"nemesis: bad skew '{step}' (skew PROCESS SECONDS HOLD_S)")
            processes = words[1:2]
        if any(t not in names for t in processes):
            raise SystemExit(f"nemesis: unknown process in '{step}' (one of {', '.join(sorted(names))})")
        out.append((words[0], words[1:-1], float(words[-1]), 3.0))
    return out


class Cluster:
    def __init__(self, directory, cgroup_root, local_cluster):
        self.dir = directory
        self.cgroups = cgroup_root
        self.local_cluster = local_cluster

    def pid(self, name):
        with open(os.path.join(self.dir, name + ".pid")) as f:
            return int(f.read())

    def port(self, name):
        with open(os.path.join(self.dir, name + ".port")) as f:
            return int(f.read())

    def cgroup_path(self, name):
        """The path iptables' cgroup match takes: relative to the v2 root."""
        root = self.cgroups.rstrip("/")
        mount = root[:root.rindex("/")]
        return os.path.relpath(os.path.join(root, name), mount)

    def check_enrolled(self):
        """Every process runs in its cgroup: local-cluster.sh started it there
        (CRAWL_CLUSTER_CGROUPS), so its sockets carry it from the start (a
        socket keeps the cgroup it was made in; moving a running process
        would leave its open connections out of every rule)."""
        for name in SERVERS + FETCHERS:
            with open(os.path.join(self.cgroups, name, "cgroup.procs")) as f:
                pids = f.read().split()
            if str(self.pid(name)) not in pids:
                raise SystemExit(f"nemesis: {name} (pid {self.pid(name)}) is not in its cgroup "
                                 f"{self.cgroups}/{name}: start the cluster with CRAWL_CLUSTER_CGROUPS")

    def restart(self):
        subprocess.run([self.local_cluster, "restart", "--dir", self.dir], check=True,
                       stdout=subprocess.DEVNULL)
        self.check_enrolled()


def iptables(*args):
    subprocess.run(["iptables"] + list(args), check=True)


def matched_packets(chain):
    """Packets the rules of `chain` matched so far."""
    out = subprocess.run(["iptables", "-L", chain, "-v", "-x", "-n"], check=True,
                         capture_output=True, text=True).stdout
    return sum(int(line.split()[0]) for line in out.splitlines()[2:] if line.strip())


def link_rules(cluster, kind, targets):
    """The iptables rules of a link fault."""
    def sender_to(a, b, jump):
        return ["-p", "tcp", "-d", "127.0.0.1", "--dport", str(cluster.port(b)),
                "-m", "cgroup", "--path", cluster.cgroup_path(a)] + jump
    drop = ["-j", "DROP"]
    if kind == "partition":
        a, b = targets
        rules = [sender_to(a, b, drop)]
        if a in SERVERS:
            rules.append(sender_to(b, a, drop))
        return rules
    if kind == "drop-requests":
        return [sender_to(targets[0], targets[1], drop)]
    if kind == "reset":
        return [sender_to(targets[0], targets[1], ["-j", "REJECT", "--reject-with", "tcp-reset"])]
    if kind == "drop-replies":
        b = targets[0]
        return [["-p", "tcp", "--sport", str(cluster.port(b)), "-m", "cgroup", "--path",
                 cluster.cgroup_path(b), "-j", "DROP"]]
    raise ValueError(kind)


def apply(cluster, kind, targets, hold):
    """Applies one fault for `hold` seconds, heals it, and says what it did."""
    if kind in ("partition", "drop-requests", "drop-replies", "reset"):
        # The fault's rules in a chain of their own, whose counters tell
        # whether it cut anything (a fault that matched nothing proved
        # nothing, and the log says so).
        chain = "nemesis"
        iptables("-N", chain)
        for r in link_rules(cluster, kind, targets):
            iptables("-A", chain, *r)
        iptables("-A", "OUTPUT", "-j", chain)
        try:
            time.sleep(hold)
        finally:
            iptables("-D", "OUTPUT", "-j", chain)
            matched = matched_packets(chain)
            iptables("-F", chain)
            iptables("-X", chain)
        return f"{matched} packets cut"
    name = targets[0]
    pid = cluster.pid(name)
    if kind == "pause":
        os.kill(pid, signal.SIGSTOP)
        try:
            time.sleep(hold)
        finally:
            os.kill(pid, signal.SIGCONT)
        return f"pid {pid} resumed"
    if kind == "skew":
        skew_file = os.path.join(cluster.dir, name + ".clock-skew-ms")
        with open(skew_file + ".tmp", "w") as f:
            f.write(f"{int(targets[1]) * 1000}\n")
        os.replace(skew_file + ".tmp", skew_file)
        try:
            os.kill(pid, signal.SIGKILL)
            time.sleep(0.5)
            cluster.restart()
            time.sleep(hold)
        finally:
            with open(skew_file + ".tmp", "w") as f:
                f.write("0\n")
            os.replace(skew_file + ".tmp", skew_file)
        return f"{name} restarted as pid {cluster.pid(name)} with its clock {targets[1]} s off, then set right"
    if kind == "kill":
        os.kill(pid, signal.SIGKILL)
        time.sleep(hold)
        cluster.restart()
        return f"pid {pid} killed, {name} restarted as pid {cluster.pid(name)}"
    raise ValueError(kind)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cluster", required=True)
    ap.add_argument("--cgroup-root", required=True)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--faults", help="an explicit schedule instead of a seed's")
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--local-cluster", required=True)
    ap.add_argument("--plan", action="store_true")
    args = ap.parse_args()
    if (args.seed is None) == (args.faults is None):
        ap.error("give --seed or --faults")
    schedule = plan(args.seed, args.steps, args.scale) if args.faults is None else parse(args.faults)
    if args.plan:
        for kind, targets, hold, gap in schedule:
            print(f"{kind} {' '.join(targets)} hold {hold}s gap {gap}s")
        return 0
    cluster = Cluster(args.cluster, args.cgroup_root, args.local_cluster)
    cluster.check_enrolled()
    start = time.monotonic()
    for i, (kind, targets, hold, gap) in enumerate(schedule):
        print(f"nemesis: +{time.monotonic() - start:6.1f}s step {i + 1}/{len(schedule)}: "
              f"{kind} {' '.join(targets)} for {hold}s", flush=True)
        what = apply(cluster, kind, targets, hold)
        print(f"nemesis: +{time.monotonic() - start:6.1f}s healed ({what})", flush=True)
        time.sleep(gap)
    return 0


if __name__ == "__main__":
    sys.exit(main())
