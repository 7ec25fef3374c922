//! `kubectl edit` in the terminal against the real kubectl v1.32: the real one runs with
//! `KUBE_EDITOR` set to a script that keeps a copy of each file it is given and then edits it
//! with `sed`; the emulator's editor text is compared with each copy and edited the same way,
//! round after round (an Invalid reopens the editor). Output, exit status and `-v` lines
//! must agree, the temporary file's random name aside.

use std::path::Path;
use std::process::Command;

use kubesim::kubectl::Kubectl;
use kubesim::{Config, Engine};

use crate::common::server::Server;
use crate::kubectl_parity::normalize;

/// The editor: a copy of the file as `round-<n>`, then `sed -i "$EDIT_SED"` when set.
const EDITOR: &str = "#!/bin/sh\nn=$(ls \"$SEEN\" | wc -l)\ncp \"$1\" \"$SEEN/round-$n\"\nif [ -n \"$EDIT_SED\" ]; then sed -i \"$EDIT_SED\" \"$1\"; fi\n";

/// `sed`'s `s/from/to/` on each line: the first match replaced.
fn sed(text: &str, script: &str) -> String {
    let Some(body) = script.strip_prefix("s/") else {
        return text.to_string();
    };
    let parts: Vec<&str> = body.trim_end_matches('/').splitn(2, '/').collect();
    let (from, to) = (parts[0], parts.get(1).copied().unwrap_or(""));
    text.split_inclusive('\n')
        .map(|l| l.replacen(from, to, 1))
        .collect()
}

/// The temporary file's random digits made one.
fn tmp_names(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("/tmp/kubectl-edit-") {
        let after = &rest[at + "/tmp/kubectl-edit-".len()..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        out.push_str(&rest[..at]);
        out.push_str("/tmp/kubectl-edit-N");
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

struct Real<'a> {
    server: &'a Server,
    editor: std::path::PathBuf,
}

impl Real<'_> {
    /// Runs kubectl; its output and the files its editor was given, in order.
    fn run(
        &self,
        words: &[String],
        script: &str,
        seen: &Path,
    ) -> (String, String, i32, Vec<String>) {
        let _ = std::fs::remove_dir_all(seen);
        std::fs::create_dir_all(seen).expect("seen dir");
        let out = Command::new("kubectl")
            .args(words)
            .env("KUBECONFIG", &self.server.kubeconfig)
            .env("HOME", self.server.dir.path())
            .env("KUBE_EDITOR", &self.editor)
            .env("SEEN", seen)
            .env("EDIT_SED", script)
            .output()
            .expect("kubectl v1.32 is needed for this test");
        let mut files = Vec::new();
        for n in 0.. {
            match std::fs::read_to_string(seen.join(format!("round-{n}"))) {
                Ok(t) => files.push(t),
                Err(_) => break,
            }
        }
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code().unwrap_or(-1),
            files,
        )
    }
}

/// Each line, with the `sed` script its editor applies ("" saves the file unchanged).
const EDITS: &[(&str, &str)] = &[
    ("kubectl create namespace ed", ""),
    ("kubectl create configmap one --from-literal=k=v -n ed", ""),
    ("kubectl create configmap two --from-literal=k=w -n ed", ""),
    ("kubectl edit cm one -n ed", "s/k: v/k: changed/"),
    ("kubectl edit cm one -n ed", ""),
    ("kubectl edit cm -n ed", "s/k: w/k: also/"),
    (
        "kubectl edit cm one -n ed -o json",
        "s/\"changed\"/\"json\"/",
    ),
    (
        "kubectl edit cm one -n ed --output-patch",
        "s/k: json/k: p/",
    ),
    (
        "kubectl edit cm one -n ed -v=6",
        "s/  k: p/  k: six\\n  added: x/",
    ),
    (
        "kubectl edit configmap/one -n ed",
        "s/  k: six/  bad key: p/",
    ),
    ("kubectl edit cm one -n ed", "s/name: one/name: uno/"),
    ("kubectl edit cm one -n ed", "s/^  k: .*$//"),
    ("kubectl edit cm nope -n ed", ""),
    ("kubectl edit nosuch x -n ed", ""),
    ("kubectl edit", ""),
    ("kubectl get cm one -n ed -o yaml", ""),
];

#[test]
fn edit_sends_and_prints_what_kubectl_does() {
    let s = Server::start(&["--clock", "manual"]);
    let editor = s.dir.path().join("editor.sh");
    std::fs::write(&editor, EDITOR).expect("write the editor");
    let chmod = Command::new("chmod").arg("+x").arg(&editor).status();
    assert!(chmod.is_ok_and(|c| c.success()));
    let seen = s.dir.path().join("seen");
    let real = Real { server: &s, editor };
    let mut engine = Engine::new(Config {
        server_address: s.url.trim_start_matches("https://").to_string(),
        ..Config::default()
    });
    let mut k = Kubectl::new();
    k.server = s.url.clone();
    k.kubeconfig = s.kubeconfig.to_string_lossy().into_owned();
    let mut failures = Vec::new();
    for (line, script) in EDITS {
        engine.tick();
        let words = kubesim::kubectl::words::split(line).expect("a line").words;
        let (out, err, code, files) = real.run(&words[1..], script, &seen);
        // The emulator, its editor edited as the script edits the file.
        let mut ours = k.run(line, &mut engine);
        let mut our_files = Vec::new();
        let (mut our_out, mut our_err) = (ours.stdout(), ours.stderr());
        let mut exit = ours.exit;
        while let Some(editing) = ours.editing.take() {
            our_files.push(editing.text.clone());
            let saved = if script.contains("\\n") || script.contains('^') {
                // Scripts sed runs with its own syntax, done here by hand.
                by_hand(&editing.text, script)
            } else {
                sed(&editing.text, script)
            };
            ours = k.finish_edit(editing, &saved, &mut engine);
            our_out += &ours.stdout();
            our_err += &ours.stderr();
            exit = ours.exit;
        }
        // The real editor is the script; the emulator's, the terminal's pane.
        let err = err.replace(
            &*real.editor.to_string_lossy(),
            kubesim::kubectl::edit::EDITOR,
        );
        let theirs = (out, tmp_names(&normalize(&err)), code);
        let mine = (our_out, tmp_names(&normalize(&our_err)), exit);
        if theirs != mine || files != our_files {
            failures.push(format!(
                "$ {line}   [{script}]\n--- kubectl (exit {}):\n{}{}\nfiles: {files:#?}\n--- ours (exit {}):\n{}{}\nfiles: {our_files:#?}",
                theirs.2, theirs.0, theirs.1, mine.2, mine.0, mine.1
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} lines differ:\n\n{}",
        failures.len(),
        EDITS.len(),
        failures.join("\n\n")
    );
}

/// The two scripts beyond a plain `s/a/b/`: a replacement with a newline, and a whole line
/// (`^...$`) emptied.
fn by_hand(text: &str, script: &str) -> String {
    if script == "s/^  k: .*$//" {
        return text
            .split_inclusive('\n')
            .map(|l| if l.starts_with("  k: ") { "\n" } else { l })
            .collect();
    }
    sed(text, &script.replace("\\n", "\n"))
}
