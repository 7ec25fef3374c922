//! The fuzzers' corpora (`fuzz/corpus/<target>/`: seeds and what `make fuzz` kept) and every
//! input that once broke a target (`fuzz/regressions/<target>/`), replayed through the same
//! `kubesim::fuzz` functions the fuzz targets call, without a fuzzer.

use std::path::Path;

fn inputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<_> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).expect("read input"))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_corpus_and_regression_input_passes_its_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut seen = 0;
    for (target, run) in kubesim::fuzz::TARGETS {
        let corpus = inputs(&root.join("corpus").join(target));
        assert!(!corpus.is_empty(), "no seed corpus for {target}");
        let regressions = inputs(&root.join("regressions").join(target));
        for (name, data) in corpus.iter().chain(&regressions) {
            let outcome = std::panic::catch_unwind(|| run(data));
            assert!(outcome.is_ok(), "{target}: input {name} fails");
            seen += 1;
        }
    }
    assert!(seen >= kubesim::fuzz::TARGETS.len());
}

/// Each fuzz target is declared for cargo-fuzz and calls its function.
#[test]
fn every_target_has_a_fuzz_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    for (target, _) in kubesim::fuzz::TARGETS {
        let file = format!("fuzz_targets/{target}.rs");
        assert!(manifest.contains(&format!("path = \"{file}\"")), "{target}");
        let source = std::fs::read_to_string(root.join(&file)).unwrap();
        assert!(
            source.contains(&format!("kubesim::fuzz::{target}(data)")),
            "{target}"
        );
    }
}
