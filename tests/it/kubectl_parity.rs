//! The playground's kubectl (`kubesim::kubectl`) against the real kubectl v1.32: the same
//! command lines, in the same order, each run by the real kubectl against `kubesim serve`
//! (manual clock) and by the emulator against an engine built the same way, so both clusters
//! go through the same states. Standard output, standard error and the exit status must
//! agree; the `-v=6` lines too, once klog's time stamp and process id, the duration and the
//! header lines (printed in Go map order) left out. The two cannot drift apart unnoticed.

use std::io::Write;
use std::process::{Command, Stdio};

use kubesim::kubectl::Kubectl;
use kubesim::{Config, Engine};

use crate::common::server::Server;

/// What the real kubectl printed: (stdout, stderr, exit status).
fn real(s: &Server, words: &[String], stdin: Option<&str>) -> (String, String, i32) {
    let mut child = Command::new("kubectl")
        .args(words)
        .env("KUBECONFIG", &s.kubeconfig)
        .env("HOME", s.dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kubectl v1.32 is needed for this test (preinstalled on every machine here)");
    {
        let mut input = child.stdin.take().expect("stdin");
        input
            .write_all(stdin.unwrap_or("").as_bytes())
            .expect("write stdin");
    }
    let out = child.wait_with_output().expect("kubectl ran");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// klog lines without what differs run to run: time, process id, durations, the token.
pub(crate) fn normalize(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        // Go prints headers in map order, which changes run to run; the server's own
        // headers (Date, Audit-Id) are not the engine's to match. The header lines go.
        if line.contains("]     ") {
            continue;
        }
        let line = match line.find("] ") {
            Some(at)
                if line.starts_with(['I', 'W', 'E']) && line.as_bytes().get(5) == Some(&b' ') =>
            {
                let file = line[..at].rsplit(' ').next().unwrap_or("").to_string();
                format!("{} {file}{}", &line[..1], &line[at..])
            }
            _ => line.to_string(),
        };
        let line = match (line.find(" in "), line.ends_with(" milliseconds")) {
            (Some(at), true) => format!("{} in N milliseconds", &line[..at]),
            _ => line,
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The command lines, in order; `<<EOF` lines carry a manifest on standard input.
const SESSION: &[&str] = &[
    "kubectl get ns",
    "kubectl get cm",
    "kubectl create namespace demo",
    "kubectl create configmap app --from-literal=a=1 --from-literal=b=two -n demo",
    "kubectl get cm -n demo",
    "kubectl get configmaps -A",
    "kubectl get cm -n demo -o wide",
    "kubectl get cm app -n demo -o yaml",
    "kubectl get cm -n demo -o json",
    "kubectl get cm -n demo -o name",
    "kubectl get ns -o name",
    "kubectl get cm,ns -n demo",
    "kubectl get cm/app ns/demo -n demo",
    "kubectl get cm -n demo -o jsonpath={.items[*].metadata.name}",
    "kubectl get cm -n demo -o jsonpath-as-json={.items[*].metadata.name}",
    "kubectl get cm -n demo -o go-template='{{range .items}}{{.metadata.name}}{{\"\\n\"}}{{end}}'",
    "kubectl get cm app -n demo -o go-template='{{.metadata.name}} {{.nope}} {{len .data}} {{.metadata.labels}}'",
    "kubectl get cm -n demo -o go-template='{{range $i, $c := .items}}{{$i}}:{{$c.metadata.name}}{{if $c.data}}+{{else}}-{{end}} {{end}}'",
    "kubectl get cm app -n demo -o template='{{printf \"%s/%s\" .metadata.namespace .metadata.name}}'",
    "kubectl get cm app -n demo -o go-template='{{with .data}}{{.a}}{{end}}{{index .metadata \"name\"}}'",
    "kubectl get cm app -n demo -o jsonpath-as-json={.metadata.name}{.metadata.namespace}",
    "kubectl get cm app -n demo -o jsonpath-as-json={.data}",
    "kubectl get cm app -n demo -o jsonpath-as-json={.nope}",
    "kubectl get cm -n demo -o custom-columns=NAME:.metadata.name,A:.data.a,MISSING:.data.zz",
    "kubectl get cm -n demo --show-labels",
    "kubectl label cm app -n demo tier=web",
    "kubectl label cm app -n demo tier=db",
    "kubectl label cm app -n demo tier=db --overwrite",
    "kubectl get cm -n demo -l tier=db",
    "kubectl get cm -n demo -l tier=web",
    "kubectl get cm -n demo --field-selector metadata.name=app --show-labels",
    "kubectl annotate cm app -n demo note=hi",
    "kubectl label cm app -n demo tier-",
    "kubectl get cm -n demo --chunk-size=1 -v=6",
    "kubectl get ns kube-system -v=6",
    "kubectl get controllerrevisions -A",
    "kubectl get nosuch",
    "kubectl gte",
    "kubectl c",
    "kubectl GET",
    "kubectl zzzzzzzz",
    "kubectl auth foo",
    "kubectl config foo",
    "kubectl create foo x",
    "kubectl create foo",
    "kubectl get --raw /api/v1/namespaces/demo/configmaps/app -v=8",
    "kubectl get --raw /api/v1/namespaces/demo/configmaps/nope",
    "kubectl get --raw /version",
    "kubectl get --raw api/v1",
    "kubectl get cm --raw /api",
    "kubectl get cm nope -n demo",
    "kubectl get",
    "kubectl get cm --foo",
    "kubectl get cm -x",
    "kubectl get cm -o bogus",
    "kubectl delete cm nope -n demo",
    "kubectl create -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-stdin\n  namespace: demo\ndata:\n  k: v\n---\napiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: rev-1\n  namespace: demo\nrevision: 1\nEOF",
    "kubectl create -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-stdin\n  namespace: demo\nEOF",
    "kubectl get cm,controllerrevisions -n demo",
    "kubectl get controllerrevision rev-1 -n demo -o name",
    "kubectl delete cm from-stdin -n demo",
    "kubectl delete cm app -n demo --dry-run=server",
    "kubectl get cm -n demo",
    "kubectl delete configmap/app -n demo",
    "kubectl get cm -n demo",
    "kubectl get cm -n demo -v=8",
    "kubectl get cm nope -n demo -v=8",
    "kubectl label cm app -n demo tier=web -v=8",
    "kubectl apply -n demo -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap\ndata:\n  a: \"1\"\n  gone: x\nEOF",
    "kubectl apply -n demo -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap\ndata:\n  a: \"1\"\n  gone: x\nEOF",
    "kubectl apply -n demo -v=6 -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap\ndata:\n  a: \"2\"\nEOF",
    "kubectl get cm ap -n demo -o yaml",
    "kubectl apply --server-side -n demo -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  k: one\nEOF",
    "kubectl apply --server-side --field-manager other -n demo -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  k: two\nEOF",
    "kubectl apply --server-side --force-conflicts --field-manager other -n demo -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  k: two\nEOF",
    "kubectl get cm ssa -n demo -o yaml --show-managed-fields",
    "kubectl patch cm ap -n demo -p '{\"data\":{\"b\":\"3\"}}'",
    "kubectl patch cm ap -n demo -p '{\"data\":{\"b\":\"3\"}}'",
    "kubectl patch cm ap -n demo --type json -p '[{\"op\":\"remove\",\"path\":\"/data/b\"}]'",
    "kubectl patch cm ap -n demo --type merge -p '{\"data\":{\"c\":\"4\"}}' -v=6",
    "kubectl patch cm nope -n demo -p '{}'",
    "kubectl replace -n demo -v=6 -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap\ndata:\n  replaced: \"yes\"\nEOF",
    "kubectl get cm ap -n demo -o jsonpath={.data}",
    "kubectl apply -n demo --dry-run=server -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap\ndata:\n  a: \"9\"\nEOF",
    "kubectl apply -n demo --dry-run=client -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap\ndata:\n  a: \"9\"\nEOF",
    "kubectl apply -n demo --dry-run=client -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: newapply\ndata:\n  a: \"1\"\nEOF",
    "kubectl apply -n demo --dry-run=server -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: newapply\ndata:\n  a: \"1\"\nEOF",
    "kubectl apply --server-side --dry-run=server -n demo -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  k: dry\nEOF",
    "kubectl apply --server-side --dry-run=client -n demo -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  k: dry\nEOF",
    "kubectl patch cm ap -n demo -p '{\"data\":{\"z\":\"1\"}}' --dry-run=server",
    "kubectl patch cm ap -n demo -p '{\"data\":{\"z\":\"1\"}}' --dry-run=client",
    "kubectl replace -n demo --dry-run=server -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap\ndata:\n  r: \"1\"\nEOF",
    "kubectl replace -n demo --dry-run=client -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap\ndata:\n  r: \"1\"\nEOF",
    "kubectl get cm ap ssa -n demo -o jsonpath={.items[*].data}",
    "kubectl auth whoami",
    "kubectl auth whoami -v=8",
    "kubectl auth can-i get configmaps -v=8",
    "kubectl auth can-i get namespaces -v=6",
    "kubectl auth can-i list clusterroles -v=6",
    "kubectl auth can-i get roles.rbac.authorization.k8s.io -v=6",
    "kubectl auth can-i get pods.foo -v=6",
    "kubectl auth can-i get configmaps -A -v=6",
    "kubectl auth can-i get /healthz",
    "kubectl auth can-i fly /healthz",
    "kubectl auth can-i fly configmaps",
    "kubectl auth can-i get",
    "kubectl auth can-i --list",
    "kubectl auth can-i --list -n demo --as alice",
    "kubectl auth can-i --list --no-headers --as bob",
    "kubectl auth can-i --list x",
    "kubectl auth can-i get configmaps --no-headers",
    "kubectl create configmap typed --from-literal=a=b -n demo -v=8",
    "kubectl create namespace typed -v=8",
    "kubectl auth can-i create configmaps",
    "kubectl auth can-i create pods --as alice",
    "kubectl auth can-i list configmaps/x -n demo --as alice",
    "kubectl auth can-i '*' '*'",
    "kubectl create role reader --verb=get,list --resource=configmaps,controllerrevisions.apps --resource-name=a -n demo",
    "kubectl create role broken --verb=get --resource=nosuch -n demo",
    "kubectl create rolebinding readers --role=reader --user=alice --group=devs --serviceaccount=demo:robot -n demo",
    "kubectl create rolebinding none --user=alice -n demo",
    "kubectl create clusterrole viewer --verb=get --resource=namespaces",
    "kubectl create clusterrolebinding viewers --clusterrole=viewer --user=bob",
    "kubectl get roles,rolebindings -n demo -o wide",
    "kubectl get rolebinding readers -n demo -o yaml",
    "kubectl describe role reader -n demo",
    "kubectl describe rolebinding readers -n demo",
    "kubectl describe clusterrole viewer",
    "kubectl describe clusterrolebinding viewers",
    "kubectl describe ns demo",
    "kubectl describe ns demo -v=8",
    "kubectl describe role reader -n demo -v=8",
    "kubectl auth can-i --list -n demo -v=8",
    "kubectl describe controllerrevision rev-1 -n demo",
    "kubectl describe customresourcedefinitions",
    "kubectl describe",
    "kubectl auth can-i get configmaps/a -n demo --as alice",
    "kubectl auth can-i get configmaps/b -n demo --as alice",
    "kubectl auth can-i --list -n demo --as alice",
    "kubectl get cm -n demo --as alice",
    "kubectl get configmap a -n demo --as alice",
    "kubectl delete rolebinding readers -n demo --cascade=background",
    "kubectl delete role reader -n demo --grace-period=5",
    "kubectl delete clusterrole viewer --cascade=sideways",
    "kubectl delete cm nope -n demo --ignore-not-found",
    "kubectl create configmap del-1 -n demo",
    "kubectl create configmap del-2 -n demo",
    "kubectl label cm del-1 del-2 -n demo gone=yes",
    "kubectl get cm -n demo -L gone -L x,tier",
    "kubectl get cm -n demo --sort-by=.metadata.name",
    "kubectl get cm -n demo --sort-by=.metadata.resourceVersion -v=6",
    "kubectl get cm -n demo --sort-by={.metadata.labels.gone}",
    "kubectl get cm -n demo --sort-by=.metadata.nope",
    "kubectl get cm -n demo -o name --sort-by=.metadata.uid",
    "kubectl get cm -n demo -o jsonpath={.items[*].metadata.name} --sort-by=metadata.uid",
    "kubectl get cm,ns -n demo --sort-by=.metadata.name",
    "kubectl get cm,ns -n demo --sort-by=.metadata.resourceVersion",
    "kubectl get cm ap ssa -n demo --sort-by=.metadata.name",
    "kubectl get cm ap ssa -n demo --sort-by=.kind",
    "kubectl get cm ap -n demo -o name --sort-by=.metadata.nope",
    "kubectl get cm ap ssa -n demo -o name --sort-by=.metadata.nope",
    "kubectl get cm -n demo -l gone=yes -L gone --show-labels",
    "kubectl delete cm -l gone=yes -n demo -v=6",
    "kubectl delete cm -l gone=yes -n demo",
    "kubectl delete cm --all -l gone=yes -n demo",
    "kubectl delete cm del-1 -l gone=yes -n demo",
    "kubectl delete -l gone=yes -n demo",
    "kubectl delete cm -n demo",
    "kubectl create configmap del-3 -n demo",
    "kubectl delete cm del-3 -n demo --grace-period=0 --dry-run=server",
    "kubectl delete cm del-3 -n demo --force --dry-run=server",
    "kubectl delete cm del-3 -n demo --force --grace-period=3",
    "kubectl delete cm del-3 -n demo --now --grace-period=3",
    "kubectl delete cm del-3 -n demo -o name",
    "kubectl delete ns kube-public -n demo --dry-run=server",
    "kubectl create -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: del-4\n  namespace: demo\nEOF",
    "kubectl delete -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: del-4\n  namespace: demo\nEOF",
    "kubectl delete -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: del-4\n  namespace: demo\nEOF",
    "kubectl create configmap described --from-literal=only=one -n demo",
    "kubectl label cm described -n demo x=1 y=2",
    "kubectl annotate cm described -n demo note=hi",
    "kubectl create configmap lab-1 -n demo",
    "kubectl create configmap lab-2 -n demo",
    "kubectl label cm lab-1 lab-2 -n demo only=one",
    "kubectl label cm lab-1 -n demo --list",
    "kubectl label cm -l only=one -n demo --list",
    "kubectl label cm -l only=one -n demo more=two --dry-run=client",
    "kubectl label cm -l only=one -n demo more=two --dry-run=server -v=6",
    "kubectl label cm --all -n demo -l only=one more=x",
    "kubectl label cm lab-1 -n demo more=two -o name",
    "kubectl label cm lab-1 -n demo more=three --overwrite -o yaml",
    "kubectl annotate cm lab-1 -n demo --list",
    "kubectl annotate cm lab-2 -n demo a=b",
    "kubectl annotate cm -l only=one -n demo --list",
    "kubectl label cm lab-1 -n demo --list -o yaml",
    "kubectl label cm -l only=one -n demo gone-",
    "kubectl label cm --all -n demo every=one",
    "kubectl create configmap dry --from-literal=a=b -n demo --dry-run=client -o yaml",
    "kubectl create configmap dry --from-literal=a=b -n demo --dry-run=client -o json",
    "kubectl create configmap dry --from-literal=a=b --dry-run=client",
    "kubectl create namespace dryns --dry-run=client -o yaml",
    "kubectl create configmap named -n demo -o name",
    "kubectl create configmap sdry -n demo --dry-run=server -o json",
    "kubectl create configmap sdry -n demo --dry-run=server -o yaml",
    "kubectl create role dryrole --verb=get,list --resource=configmaps --dry-run=client -o json -n demo",
    "kubectl create rolebinding drybinding --role=r --user=u --dry-run=client -o json",
    "kubectl create configmap wide -o wide",
    "kubectl create configmap bogus --dry-run=bogus",
    "kubectl delete cm lab-1 -n demo --dry-run=client",
    "kubectl delete cm nope -n demo --dry-run=client",
    "kubectl create -f - --dry-run=client -o yaml <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fromfile\n  labels:\n    b: \"1\"\n    a: \"2\"\ndata:\n  z: \"1\"\n  a: \"2\"\nEOF",
    "kubectl create -f - -n demo -v=8 <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fromfile8\ndata:\n  z: \"1\"\nEOF",
    "kubectl create configmap nons --from-literal=a=b -v=8",
    "kubectl create -n demo --validate=warn -v=6 -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unknown-1\nbogus: 1\nEOF",
    "kubectl create -n demo --validate=false -v=6 -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unknown-2\nbogus: 1\nEOF",
    "kubectl create -n demo -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unknown-3\nbogus: 1\nEOF",
    "kubectl create -n demo --validate=warn --warnings-as-errors -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unknown-4\nbogus: 1\nEOF",
    "kubectl create -n demo --validate=bogus -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unknown-5\nEOF",
    "kubectl apply -n demo --validate=warn -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unknown-6\nbogus: 1\nEOF",
    "kubectl create configmap warned -n demo --validate=warn -v=6",
    "kubectl create configmap saved --from-literal=a=b --save-config -n demo -o yaml",
    "kubectl create -f - -n demo --save-config -o jsonpath={.metadata.annotations} <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: saved2\n  labels:\n    z: \"1\"\ndata:\n  b: \"2\"\nEOF",
    "kubectl create namespace savedns --save-config -o jsonpath={.metadata.annotations}",
    "kubectl label cm saved -n demo q=1 --resource-version=1",
    "kubectl label cm saved saved2 -n demo q=1 --resource-version=1",
    "kubectl apply -n demo -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: saved\n  namespace: demo\ndata:\n  a: c\nEOF",
    // Not at -v=6: kubectl orders the events' field selector as a Go map iterates.
    "kubectl describe cm described -n demo",
    "kubectl describe configmap ap -n demo",
    "kubectl describe cm nope -n demo",
    "kubectl describe cm d -n demo",
    "kubectl describe cm -l x=1 -n demo",
    "kubectl describe cm -n demo",
    "kubectl version",
    "kubectl config view",
    "kubectl api-versions",
    "kubectl api-resources",
    "kubectl api-resources --cached -v=6",
    "kubectl api-resources -v=6",
    "kubectl api-versions -v=6",
    "kubectl get cm ap -n demo --request-timeout=5s -v=6",
    "kubectl get cm -n demo --request-timeout=90 -v=6",
    "kubectl get cm -n demo --request-timeout=0 -v=6",
    "kubectl get cm -n demo --request-timeout=abc",
    "kubectl explain cm",
    "kubectl explain configmaps.metadata",
    "kubectl explain cm.metadata.labels",
    "kubectl explain cm.metadata.managedFields.fieldsV1",
    "kubectl explain roles.rbac.authorization.k8s.io.rules --recursive",
    "kubectl explain clusterrole --recursive",
    "kubectl explain ns.status.phase",
    "kubectl explain events.involvedObject",
    "kubectl explain controllerrevisions.apps.data",
    "kubectl explain crd.spec.versions.schema.openAPIV3Schema",
    "kubectl explain cm.nope",
    "kubectl explain nosuch",
    "kubectl explain",
    "kubectl explain cm x",
    "kubectl explain cm --api-version=v2",
    "kubectl explain cm -o bogus",
    "kubectl explain cm -o plaintext-openapiv2 -v=6",
    "kubectl config set-context --current --namespace=demo",
    "kubectl get cm",
    "kubectl config get-contexts",
    "kubectl config set-context other --cluster=kubesim --user=kubesim --namespace=kube-system",
    "kubectl config set-context other --namespace=kube-public",
    "kubectl config get-contexts -o name",
    "kubectl config get-contexts nope",
    "kubectl config get-contexts other",
    "kubectl get cm --context other",
    "kubectl get cm --context nope",
    "kubectl config view --minify",
    "kubectl auth whoami --as alice --as-uid u-1",
    "kubectl auth whoami --as-uid u-1",
    "kubectl get cm --as-group devs",
    "kubectl config use-context other",
    "kubectl config current-context",
    "kubectl get cm",
    "kubectl config view",
    "kubectl config use-context nope",
    "kubectl config use-context kubesim",
    "kubectl config delete-context other",
    "kubectl config delete-context nope",
    "kubectl config set-context --current --namespace=default",
    "kubectl config view",
];

#[test]
fn the_terminals_kubectl_prints_what_kubectl_prints() {
    let s = Server::start(&["--clock", "manual"]);
    let mut engine = Engine::new(Config {
        server_address: s.url.trim_start_matches("https://").to_string(),
        ..Config::default()
    });
    let mut k = Kubectl::new();
    k.server = s.url.clone();
    k.kubeconfig = s.kubeconfig.to_string_lossy().into_owned();
    let mut failures = Vec::new();
    for line in SESSION {
        engine.tick();
        let ours = k.run(line, &mut engine);
        let parsed = kubesim::kubectl::words::split(line).expect("a line");
        let (out, err, code) = real(&s, &parsed.words[1..], parsed.stdin.as_deref());
        let (our_out, our_err) = (ours.stdout(), ours.stderr());
        // The machine's kubectl is a local build of v1.32.4.
        let out = out.replace("v1.32.4-dispatcher", "v1.32.4");
        if our_out != out || normalize(&our_err) != normalize(&err) || ours.exit != code {
            failures.push(format!(
                "$ {line}\n--- kubectl (exit {code}):\n{out}{}\n--- ours (exit {}):\n{our_out}{}",
                normalize(&err),
                ours.exit,
                normalize(&our_err)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} lines differ:\n\n{}",
        failures.len(),
        SESSION.len(),
        failures.join("\n\n")
    );
}

/// `get -w`: the list, then a row per event, widths remembered; the real kubectl's output
/// read until the write's row arrives, then stopped as Ctrl+C stops it.
#[test]
fn get_w_prints_the_rows_kubectl_prints() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;
    use std::time::Duration;

    let s = Server::start(&["--clock", "manual"]);
    let mut engine = Engine::new(Config {
        server_address: s.url.trim_start_matches("https://").to_string(),
        ..Config::default()
    });
    let mut k = Kubectl::new();
    let setup = [
        "kubectl create namespace demo",
        "kubectl create configmap a-first-one --from-literal=a=1 -n demo",
    ];
    for line in setup {
        let words = kubesim::kubectl::words::split(line).unwrap().words;
        let (_, err, code) = real(&s, &words[1..], None);
        assert_eq!(code, 0, "{err}");
        assert_eq!(k.run(line, &mut engine).exit, 0);
    }
    // Each watch, and the object created while it runs (the output is compared up to its
    // line: YAML and JSON go on past it).
    let variants: &[(&[&str], &str)] = &[
        (&["get", "cm", "-n", "demo", "-w"], "live"),
        (
            &["get", "cm", "-n", "demo", "-w", "--output-watch-events"],
            "live-with-a-longer-name",
        ),
        (
            &["get", "cm", "-n", "demo", "-w", "-o", "name"],
            "live-name",
        ),
        (
            &["get", "cm", "-n", "demo", "-w", "-o", "yaml"],
            "live-yaml",
        ),
        (
            &[
                "get",
                "cm",
                "-n",
                "demo",
                "-w",
                "-o",
                "json",
                "--output-watch-events",
            ],
            "live-json",
        ),
        (
            &["get", "cm", "a-first-one", "-n", "demo", "-w", "-o", "name"],
            "a-first-one",
        ),
    ];
    for (args, name) in variants {
        let mut child = Command::new("kubectl")
            .args(*args)
            .env("KUBECONFIG", &s.kubeconfig)
            .env("HOME", s.dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("kubectl");
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap_or_default()).is_err() {
                    break;
                }
            }
        });
        let mut lines = Vec::new();
        let wait_for = |what: &str, lines: &mut Vec<String>| {
            while !lines.iter().any(|l| l.contains(what)) {
                let l = rx
                    .recv_timeout(Duration::from_secs(20))
                    .unwrap_or_else(|_| panic!("no {what:?} in {lines:?}"));
                lines.push(l);
            }
        };
        wait_for("a-first-one", &mut lines);
        let create = format!("kubectl create configmap {name} --from-literal=b=2 -n demo");
        let watched_by_name = *name == "a-first-one";
        if !watched_by_name {
            let words = kubesim::kubectl::words::split(&create).unwrap().words;
            real(&s, &words[1..], None);
            wait_for(name, &mut lines);
        }
        let _ = child.kill();
        let _ = child.wait();
        let theirs = lines.join("\n") + "\n";

        let line = format!("kubectl {}", args.join(" "));
        let mut first = k.run(&line, &mut engine);
        let mut watching = first.watching.take().expect("watching");
        if !watched_by_name {
            assert_eq!(k.run(&create, &mut engine).exit, 0);
        }
        engine.tick();
        let more = k.poll(&mut watching);
        let ours: String = (first.stdout() + &more.stdout())
            .split_inclusive('\n')
            .take(lines.len())
            .collect();
        assert_eq!(ours, theirs, "{line}");
    }
}
