"""What the Kubernetes schema cannot see in deploy/k8s/crawl.yaml.

usage: check_k8s.py CRAWL_YAML SECRETS_YAML

The OpenAPI schema check is tests/deploy/k8s_test.sh's; this one checks the
manifests make sense together, for the kinds we use:
  - apiVersion per kind; names; every namespaced object in the namespace;
  - workload selectors match their pod labels; Services select pods and
    their targetPorts are ports those pods declare;
  - queue servers: a StatefulSet with a headless governing Service, stable
    ids (--id is the pod name) and a volume per pod;
  - every container: readiness and liveness probes on a port it declares,
    the one its --http-listen flag binds, at /healthz; its --listen port
    declared; CPU and memory requests and limits, request <= limit;
  - a PodDisruptionBudget for every workload of more than one replica;
  - TLS: every --tls-*/--admin-tokens file is in a mounted Secret volume
    whose Secret (made by make-secrets.sh: SECRETS_YAML) has that key.
"""
import re
import sys

import yaml

API = {"Namespace": "v1", "Service": "v1", "Secret": "v1", "StatefulSet": "apps/v1",
       "Deployment": "apps/v1", "PodDisruptionBudget": "policy/v1"}
errors = []


def err(msg):
    errors.append(msg)


def quantity(q):
    """CPU cores or memory bytes of a Kubernetes quantity."""
    m = re.fullmatch(r"([0-9.]+)(m|Ki|Mi|Gi|Ti|k|M|G|T)?", str(q))
    if not m:
        err(f"bad quantity {q!r}")
        return 0
    n = float(m.group(1))
    mult = {None: 1, "m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40,
            "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[m.group(2)]
    return n * mult


def flag(args, name):
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            return args[i + 1]
    return None


def port_of(listen):
    return int(listen.rsplit(":", 1)[1])


def main():
    docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
    secrets = {d["metadata"]["name"]: d for d in yaml.safe_load_all(open(sys.argv[2])) if d and d["kind"] == "Secret"}
    namespaces = {d["metadata"]["name"] for d in docs if d["kind"] == "Namespace"}
    workloads = []
    for d in docs:
        kind, where = d.get("kind"), f"{d.get('kind')}/{d.get('metadata', {}).get('name')}"
        if kind not in API:
            err(f"{where}: kind not checked here")
            continue
        if d.get("apiVersion") != API[kind]:
            err(f"{where}: apiVersion {d.get('apiVersion')}, want {API[kind]}")
        if kind != "Namespace" and d["metadata"].get("namespace") not in namespaces:
            err(f"{where}: namespace {d['metadata'].get('namespace')} is not created here")
        if kind in ("StatefulSet", "Deployment"):
            workloads.append(d)

    pods = {}  # workload name -> (labels, pod spec)
    for w in workloads:
        where = f"{w['kind']}/{w['metadata']['name']}"
        spec = w["spec"]
        labels = spec["template"]["metadata"]["labels"]
        sel = spec["selector"]["matchLabels"]
        if any(labels.get(k) != v for k, v in sel.items()):
            err(f"{where}: selector {sel} does not match pod labels {labels}")
        pods[w["metadata"]["name"]] = (labels, spec["template"]["spec"])
        pod = spec["template"]["spec"]
        volumes = {v["name"]: v for v in pod.get("volumes", [])}
        for c in pod["containers"]:
            cw = f"{where} container {c['name']}"
            ports = {p["containerPort"]: p.get("name") for p in c.get("ports", [])}
            names = {n: p for p, n in ports.items() if n}
            args = c.get("args", [])
            http = flag(args, "--http-listen")
            listen = flag(args, "--listen")
            if listen and port_of(listen) not in ports:
                err(f"{cw}: --listen {listen} port is not a containerPort")
            for probe in ("readinessProbe", "livenessProbe"):
                p = c.get(probe)
                if not p:
                    err(f"{cw}: no {probe}")
                    continue
                h = p.get("httpGet") or p.get("grpc") or p.get("tcpSocket")
                port = h["port"]
                num = names.get(port, port) if isinstance(port, str) else port
                if num not in ports:
                    err(f"{cw}: {probe} port {port} is not a port the container declares")
                elif "httpGet" in p:
                    if p["httpGet"].get("path") != "/healthz":
                        err(f"{cw}: {probe} asks {p['httpGet'].get('path')}, not /healthz")
                    if not http or port_of(http) != num:
                        err(f"{cw}: {probe} port {num} is not the --http-listen port ({http})")
                elif "grpc" in p and "--tls-ca" in args:
                    err(f"{cw}: {probe} is a plain gRPC probe on a mutual-TLS port")
            res = c.get("resources", {})
            for kind in ("cpu", "memory"):
                req = res.get("requests", {}).get(kind)
                lim = res.get("limits", {}).get(kind)
                if req is None or lim is None:
                    err(f"{cw}: {kind} request and limit both needed (docs/SCALING.md)")
                elif quantity(req) > quantity(lim):
                    err(f"{cw}: {kind} request {req} above its limit {lim}")
            mounts = {m["mountPath"].rstrip("/"): m for m in c.get("volumeMounts", [])}
            for f in ("--tls-cert", "--tls-key", "--tls-ca", "--tls-crl", "--admin-tokens"):
                path = flag(args, f)
                if path is None:
                    if f != "--admin-tokens":
                        err(f"{cw}: no {f}: the cluster runs mutual TLS")
                    continue
                d, key = path.rsplit("/", 1)
                m = mounts.get(d)
                v = volumes.get(m["name"]) if m else None
                if not v or "secret" not in v:
                    err(f"{cw}: {f} {path} is not in a mounted Secret")
                    continue
                sname = v["secret"]["secretName"]
                if sname not in secrets:
                    err(f"{cw}: Secret {sname} is not made by make-secrets.sh")
                elif key not in secrets[sname].get("data", {}):
                    err(f"{cw}: Secret {sname} has no key {key} ({f})")

    for d in docs:
        if d["kind"] == "Service":
            where = f"Service/{d['metadata']['name']}"
            sel = d["spec"]["selector"]
            matched = [(n, p) for n, (labels, p) in pods.items() if all(labels.get(k) == v for k, v in sel.items())]
            if not matched:
                err(f"{where}: selects no pods")
            for sp in d["spec"]["ports"]:
                tp = sp.get("targetPort", sp["port"])
                for n, pod in matched:
                    declared = {(p.get("name"), p["containerPort"]) for c in pod["containers"] for p in c.get("ports", [])}
                    if not any(tp in pair for pair in declared):
                        err(f"{where}: targetPort {tp} is not a port of {n}'s pods")

    qs = [w for w in workloads if w["metadata"]["name"] == "queueserver"]
    if not qs or qs[0]["kind"] != "StatefulSet":
        err("queue servers must be a StatefulSet (their ids decide host ownership)")
    else:
        q = qs[0]
        gov = [d for d in docs if d["kind"] == "Service" and d["metadata"]["name"] == q["spec"]["serviceName"]]
        if not gov or gov[0]["spec"].get("clusterIP") != "None":
            err("the queue servers' governing Service must be headless (stable DNS names)")
        if not q["spec"].get("volumeClaimTemplates"):
            err("queue servers need a volume per pod (volumeClaimTemplates)")
        args = q["spec"]["template"]["spec"]["containers"][0]["args"]
        if flag(args, "--id") != "$(POD_NAME)":
            err("queue servers' --id must be the pod name (stable across restarts)")

    pdbs = [d for d in docs if d["kind"] == "PodDisruptionBudget"]
    for w in workloads:
        if w["spec"].get("replicas", 1) < 2:
            continue
        labels = w["spec"]["template"]["metadata"]["labels"]
        if not any(all(labels.get(k) == v for k, v in p["spec"]["selector"]["matchLabels"].items()) for p in pdbs):
            err(f"{w['kind']}/{w['metadata']['name']}: no PodDisruptionBudget")

    for e in errors:
        print("k8s:", e, file=sys.stderr)
    if errors:
        return 1
    print(f"ok: k8s {len(docs)} objects ({', '.join(sorted({d['kind'] for d in docs}))}) and "
          f"{len(secrets)} Secrets: probes, ports, StatefulSet, PDBs, resources, TLS files all consistent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
