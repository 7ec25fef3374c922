"""The official Kubernetes Python client against `kubesim serve`: cascading deletes with
each propagation_policy end as on a real cluster (the garbage collector acts about a
second after a delete, on the server's wall clock).

Usage: run.py PATH_TO_KUBESIM
"""

import json
import subprocess
import sys
import tempfile
import time
import os

from kubernetes import client, config
from kubernetes.client.rest import ApiException


def start(binary, kubeconfig):
    proc = subprocess.Popen(
        [binary, "serve", "--port", "0", "--kubeconfig", kubeconfig],
        stdout=subprocess.PIPE,
        text=True,
    )
    # Start-up lines come first; the ready line is the last.
    seen = []
    while True:
        line = proc.stdout.readline()
        if line.startswith("kubesim serving on "):
            return proc
        if not line:
            proc.kill()
            proc.wait(timeout=10)
            raise AssertionError("no ready line: " + repr(seen))
        seen.append(line)


def eventually(what, check, timeout=15):
    deadline = time.time() + timeout
    while not check():
        if time.time() > deadline:
            raise AssertionError("timed out: " + what)
        time.sleep(0.2)


def main(binary):
    with tempfile.TemporaryDirectory() as tmp:
        kubeconfig = os.path.join(tmp, "kubeconfig")
        proc = start(binary, kubeconfig)
        try:
            run(kubeconfig)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print("python client: all checks passed")


def run(kubeconfig):
    config.load_kube_config(config_file=kubeconfig)
    v1 = client.CoreV1Api()
    ns = "default"

    def exists(name):
        try:
            v1.read_namespaced_config_map(name, ns)
            return True
        except ApiException as e:
            assert e.status == 404, e
            return False

    def pair(owner, dependent, block=True):
        o = v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name=owner)))
        ref = client.V1OwnerReference(
            api_version="v1", kind="ConfigMap", name=owner, uid=o.metadata.uid, block_owner_deletion=block
        )
        meta = client.V1ObjectMeta(name=dependent, owner_references=[ref])
        v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=meta))

    # Foreground: the owner stays, terminating with foregroundDeletion, until its dependent goes.
    pair("fg", "fg-dep")
    # (The client reads every delete answer as a V1Status, so the answer is read raw: a read
    # afterwards could race the collector, which acts on wall time.)
    resp = v1.delete_namespaced_config_map("fg", ns, propagation_policy="Foreground", _preload_content=False)
    owner = json.loads(resp.data)
    assert owner["metadata"]["finalizers"] == ["foregroundDeletion"], owner["metadata"]
    assert owner["metadata"].get("deletionTimestamp"), owner["metadata"]
    eventually("fg-dep deleted", lambda: not exists("fg-dep"))
    eventually("fg deleted", lambda: not exists("fg"))

    # Background: the owner goes at once (a Status), the dependent after.
    pair("bg", "bg-dep")
    status = v1.delete_namespaced_config_map("bg", ns, propagation_policy="Background")
    assert status.status == "Success", status
    assert not exists("bg")
    eventually("bg-dep deleted", lambda: not exists("bg-dep"))

    # Orphan: the dependent stays and loses its owner reference.
    pair("or", "or-dep")
    v1.delete_namespaced_config_map("or", ns, body=client.V1DeleteOptions(propagation_policy="Orphan"))
    eventually("or deleted", lambda: not exists("or"))
    dep = v1.read_namespaced_config_map("or-dep", ns)
    assert not dep.metadata.owner_references, dep.metadata.owner_references

    # An invalid policy is the real 422.
    try:
        v1.delete_namespaced_config_map("or-dep", ns, propagation_policy="Sideways")
        raise AssertionError("expected 422")
    except ApiException as e:
        assert e.status == 422, e
        message = json.loads(e.body)["message"]
        assert message == (
            'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: '
            '"Sideways": supported values: "Foreground", "Background", "Orphan", "nil"'
        ), message


if __name__ == "__main__":
    main(sys.argv[1])
