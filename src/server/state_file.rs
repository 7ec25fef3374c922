//! `kubesim serve --state FILE`: the cluster kept on disk across restarts, in the format of
//! the shim's `exportState` ([`Engine::export_state`]).
//!
//! A save never leaves a partial file where the state is read from: the new state is written
//! to a temporary file beside it, flushed to disk, then renamed over the old one (and the
//! folder synced, so the rename itself survives a crash). A server killed at any moment
//! restarts from the last complete save. A file that is not a kubesim state is an error at
//! start, never silently replaced by an empty cluster.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::engine::Engine;

/// Loads `path` into `engine` when it exists; `Ok(false)` when there is none yet.
pub fn load(path: &Path, engine: &mut Engine) -> Result<bool, String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(format!("cannot read state file {}: {e}", path.display())),
    };
    let state = crate::engine::parse_state(&bytes).map_err(|e| {
        format!(
            "state file {} is not a kubesim state: {e} (remove it to start an empty cluster)",
            path.display()
        )
    })?;
    engine.import_state(&state).map_err(|e| {
        format!(
            "state file {} cannot be loaded: {e} (remove it to start an empty cluster)",
            path.display()
        )
    })?;
    Ok(true)
}

/// The temporary file a save writes before renaming it over `path`.
fn temporary(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Writes `bytes` as the new content of `path`, atomically, readable by its owner alone (a
/// state, like a kubeconfig, holds credentials). The temporary file is made anew: one left by
/// a killed save, or a symlink put in its place, is removed first, never written through.
pub fn save(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temporary(path);
    match std::fs::remove_file(&tmp) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Syncing a folder is not possible everywhere; the rename is done either way.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// One state file, saved from more than one place (the periodic saver, the final save at
/// shutdown): saves are numbered when the state is taken and written one at a time, and an
/// older state is never written over a newer one, however the writes interleave.
#[derive(Debug)]
pub struct StateFile {
    path: PathBuf,
    taken: std::sync::atomic::AtomicU64,
    written: std::sync::Mutex<u64>,
}

/// A state taken from the engine, to be written.
pub struct Taken {
    number: u64,
    bytes: Vec<u8>,
}

impl StateFile {
    pub fn new(path: PathBuf) -> Self {
        StateFile {
            path,
            taken: Default::default(),
            written: Default::default(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Takes the engine's state now (call with the engine locked, so that numbers follow
    /// the engine's order).
    pub fn take(&self, engine: &Engine) -> Taken {
        let number = 1 + self.taken.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        Taken {
            number,
            bytes: engine.export_state_json(),
        }
    }

    /// Writes a taken state, unless a newer one was written already.
    pub fn write(&self, taken: Taken) -> std::io::Result<()> {
        let mut written = self.written.lock().unwrap_or_else(|p| p.into_inner());
        if taken.number <= *written {
            return Ok(());
        }
        save(&self.path, &taken.bytes)?;
        *written = taken.number;
        Ok(())
    }
}

/// Saves the shared engine to `file` every `every` while its state changes; runs until
/// aborted. A failed save is reported and tried again at the next interval.
pub async fn keep_saved(
    engine: super::SharedEngine,
    file: std::sync::Arc<StateFile>,
    every: std::time::Duration,
) {
    let mut saved = engine
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .state_fingerprint();
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        let (now, taken) = {
            let e = engine.lock().unwrap_or_else(|p| p.into_inner());
            let now = e.state_fingerprint();
            if now == saved {
                continue;
            }
            (now, file.take(&e))
        };
        let target = file.clone();
        match tokio::task::spawn_blocking(move || target.write(taken)).await {
            Ok(Ok(())) => saved = now,
            Ok(Err(e)) => eprintln!("Error: cannot save state to {}: {e}", file.path().display()),
            Err(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn a_save_replaces_the_file_whole_and_loads_back() {
        let dir = std::env::temp_dir().join(format!("kubesim-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.json");
        let mut e = Engine::new(Config::default());
        assert!(!load(&path, &mut e).unwrap());
        save(&path, &e.export_state_json()).unwrap();
        assert!(!temporary(&path).exists());
        let mut again = Engine::new(Config {
            seed: 7,
            ..Config::default()
        });
        assert!(load(&path, &mut again).unwrap());
        assert_eq!(again.state_fingerprint(), e.state_fingerprint());
        std::fs::write(&path, b"{\"kind\":\"Pod\"}").unwrap();
        let err = load(&path, &mut again).unwrap_err();
        assert!(err.contains("not a kubesim state"), "{err}");
        std::fs::write(&path, b"{\"kind\":\"KubesimState\",\"vers").unwrap();
        let err = load(&path, &mut again).unwrap_err();
        assert!(err.contains("is not a kubesim state: EOF"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
