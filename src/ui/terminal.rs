//! The terminal pane's logic, free of the DOM: the scrollback (each command with what it
//! printed and the requests it sent), the command history walked with the arrow keys, a
//! running `kubectl get -w` fed by the heartbeat and ended with Ctrl+C, a `kubectl edit`
//! waiting for its editor (the pane's editor: save, or quit without saving), and Tab
//! completion of commands, resource types (from discovery), object names and flags.

use crate::engine::Engine;
use crate::kubectl::edit::Editing;
use crate::kubectl::watch::Watching;
use crate::kubectl::{self, Kubectl, Sent, Stream};

use super::discovery::ApiResource;

/// At most this many commands stay in the scrollback.
pub const MAX_ENTRIES: usize = 200;

/// One command and its output.
#[derive(Debug, Clone, PartialEq)]
pub struct TermEntry {
    pub id: u32,
    pub command: String,
    pub pieces: Vec<(Stream, String)>,
    pub sent: Vec<Sent>,
    pub exit: i32,
    /// Whether it is the `-w` still watching or the `edit` still editing.
    pub running: bool,
}

impl TermEntry {
    /// The text a terminal shows for it, both streams in order.
    pub fn text(&self) -> String {
        self.pieces.iter().map(|(_, t)| t.as_str()).collect()
    }
}

/// The terminal's state.
#[derive(Debug, Default)]
pub struct Terminal {
    pub kubectl: Kubectl,
    pub entries: Vec<TermEntry>,
    pub history: Vec<String>,
    /// Where the arrow keys are in `history` (None: at the new line).
    cursor: Option<usize>,
    /// What was typed before walking the history, given back at its end.
    typed: String,
    watching: Option<Watching>,
    /// An `edit` whose editor is open, and the text in the editor now.
    editing: Option<(Editing, String)>,
    next_id: u32,
}

/// What Tab does to the input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The new input line.
    pub line: String,
    /// The choices, when more than one remains.
    pub choices: Vec<String>,
}

impl Terminal {
    pub fn new() -> Terminal {
        Terminal::default()
    }

    /// Runs a command line (a previous `-w` stops first, as a new prompt means it ended).
    pub fn run(&mut self, line: &str, engine: &mut Engine) -> u32 {
        self.interrupt();
        let trimmed = line.trim_end().to_string();
        if !trimmed.is_empty() && self.history.last() != Some(&trimmed) {
            self.history.push(trimmed.clone());
        }
        self.cursor = None;
        self.typed.clear();
        let id = self.next_id;
        self.next_id += 1;
        let (pieces, sent, exit, watching) = if trimmed == "clear" {
            self.entries.clear();
            return id;
        } else {
            let mut out = self.kubectl.run(&trimmed, engine);
            self.editing = out.editing.take().map(|e| {
                let text = e.text.clone();
                (e, text)
            });
            (
                std::mem::take(&mut out.pieces),
                std::mem::take(&mut out.sent),
                out.exit,
                out.watching.take(),
            )
        };
        let running = watching.as_ref().is_some_and(Watching::open) || self.editing.is_some();
        self.watching = watching.filter(Watching::open);
        self.entries.push(TermEntry {
            id,
            command: trimmed,
            pieces,
            sent,
            exit,
            running,
        });
        if self.entries.len() > MAX_ENTRIES {
            let extra = self.entries.len() - MAX_ENTRIES;
            self.entries.drain(..extra);
        }
        id
    }

    /// Feeds a running `-w` its new events; whether anything changed.
    pub fn poll(&mut self) -> bool {
        let Some(w) = self.watching.as_mut() else {
            return false;
        };
        let out = self.kubectl.poll(w);
        let ended = !w.open();
        let Some(entry) = self.entries.last_mut() else {
            return false;
        };
        let changed = !out.pieces.is_empty();
        for (stream, text) in out.pieces {
            push(&mut entry.pieces, stream, &text);
        }
        if ended {
            entry.running = false;
            self.watching = None;
            return true;
        }
        changed
    }

    /// The open editor of an `edit`: its file's name and the text in it now.
    pub fn editing(&self) -> Option<(&str, &str)> {
        self.editing
            .as_ref()
            .map(|(e, text)| (e.file.as_str(), text.as_str()))
    }

    /// Typing in the editor.
    pub fn set_edit_text(&mut self, text: String) {
        if let Some((_, t)) = self.editing.as_mut() {
            *t = text;
        }
    }

    /// The editor closes: saved with its text, or quit (the file as it was given). kubectl
    /// goes on; a reopened editor (after an Invalid) shows the new file.
    pub fn close_editor(&mut self, save: bool, engine: &mut Engine) {
        let Some((editing, text)) = self.editing.take() else {
            return;
        };
        let saved = if save { text } else { editing.text.clone() };
        let mut out = self.kubectl.finish_edit(editing, &saved, engine);
        self.editing = out.editing.take().map(|e| {
            let text = e.text.clone();
            (e, text)
        });
        let open = self.editing.is_some();
        let Some(entry) = self.entries.last_mut() else {
            return;
        };
        for (stream, text) in std::mem::take(&mut out.pieces) {
            push(&mut entry.pieces, stream, &text);
        }
        entry.sent.append(&mut out.sent);
        entry.exit = out.exit;
        entry.running = open;
    }

    /// Ctrl+C: ends a running `-w` or an `edit` waiting for its editor (the line shows
    /// `^C`, as a terminal echoes it).
    pub fn interrupt(&mut self) -> bool {
        if self.editing.take().is_some() {
            self.interrupted();
            return true;
        }
        let Some(mut w) = self.watching.take() else {
            return false;
        };
        w.stop();
        self.interrupted();
        true
    }

    fn interrupted(&mut self) {
        if let Some(entry) = self.entries.last_mut() {
            entry.running = false;
            push(&mut entry.pieces, Stream::Err, "^C\n");
            entry.exit = 130;
        }
    }

    /// Request `index` of entry `id` as a builder form: its method, path, the headers that
    /// decide the answer (Accept, Content-Type, impersonation) and its body.
    pub fn draft(&self, id: u32, index: usize) -> Option<super::exchange::Draft> {
        let sent = self.entries.iter().find(|e| e.id == id)?.sent.get(index)?;
        // A Protobuf body is kept as its JSON, which the builder sends as JSON.
        let headers = sent
            .headers
            .iter()
            .filter(|(k, _)| k != "User-Agent")
            .map(|(k, v)| match (k.as_str(), v.as_str()) {
                ("Content-Type", crate::codec::protobuf::MEDIA_TYPE) => {
                    format!("{k}: application/json")
                }
                _ => format!("{k}: {v}"),
            })
            .collect::<Vec<_>>()
            .join("\n");
        Some(super::exchange::Draft {
            method: sent.method.clone(),
            path: sent.path.clone(),
            headers,
            body: sent.body.clone(),
        })
    }

    /// Whether a `-w` is running.
    pub fn watching(&self) -> bool {
        self.watching.is_some()
    }

    /// Arrow up: the previous command (the line typed so far kept for the way back).
    pub fn history_up(&mut self, current: &str) -> Option<String> {
        if self.history.is_empty() {
            return None;
        }
        let at = match self.cursor {
            None => {
                self.typed = current.to_string();
                self.history.len() - 1
            }
            Some(0) => 0,
            Some(i) => i - 1,
        };
        self.cursor = Some(at);
        Some(self.history[at].clone())
    }

    /// Arrow down: the next command, then the line that was being typed.
    pub fn history_down(&mut self) -> Option<String> {
        let i = self.cursor?;
        if i + 1 < self.history.len() {
            self.cursor = Some(i + 1);
            Some(self.history[i + 1].clone())
        } else {
            self.cursor = None;
            Some(std::mem::take(&mut self.typed))
        }
    }

    /// Tab: completes the last word of `line` from the commands, the served resources, the
    /// objects of the resource named (`names` lists them) or the command's flags.
    pub fn complete(
        &self,
        line: &str,
        resources: &[ApiResource],
        names: impl Fn(&ApiResource) -> Vec<String>,
    ) -> Completion {
        let words: Vec<&str> = line.split_whitespace().collect();
        let ends_with_space = line.ends_with(' ') || line.is_empty();
        let (done, current) = if ends_with_space {
            (words.as_slice(), "")
        } else {
            (&words[..words.len() - 1], words[words.len() - 1])
        };
        let positional: Vec<&str> = done
            .iter()
            .copied()
            .filter(|w| !w.starts_with('-'))
            .collect();
        let mut choices: Vec<String> = match (positional.len(), current) {
            (0, _) => vec!["kubectl".to_string()],
            (_, c) if c.starts_with('-') => flags_of(positional.get(1).copied()),
            (1, _) => kubectl::command_names().map(str::to_string).collect(),
            (2, _) if takes_resource(positional[1]) || positional[1] == "explain" => {
                let mut r: Vec<String> = resources
                    .iter()
                    .filter(|r| !r.name.contains('/'))
                    .map(|r| r.name.clone())
                    .collect();
                crate::sort::sort(&mut r);
                r.dedup();
                r
            }
            (3, _) if takes_resource(positional[1]) => resources
                .iter()
                .find(|r| {
                    r.name == positional[2] || r.kind.to_lowercase() == positional[2].to_lowercase()
                })
                .map(&names)
                .unwrap_or_default(),
            (2, _) if positional[1] == "create" => {
                vec!["configmap".into(), "namespace".into()]
            }
            _ => Vec::new(),
        };
        choices.retain(|c| c.starts_with(current));
        let prefix = common_prefix(&choices);
        let head = &line[..line.len() - current.len()];
        let line = match choices.len() {
            0 => line.to_string(),
            1 => format!("{head}{} ", choices[0]),
            _ => format!("{head}{prefix}"),
        };
        if choices.len() < 2 {
            choices.clear();
        }
        Completion { line, choices }
    }
}

fn push(pieces: &mut Vec<(Stream, String)>, stream: Stream, text: &str) {
    if text.is_empty() {
        return;
    }
    match pieces.last_mut() {
        Some((s, t)) if *s == stream => t.push_str(text),
        _ => pieces.push((stream, text.to_string())),
    }
}

fn takes_resource(command: &str) -> bool {
    matches!(
        command,
        "get" | "delete" | "label" | "annotate" | "describe" | "patch" | "edit"
    )
}

fn flags_of(command: Option<&str>) -> Vec<String> {
    let specs = command.map_or(&[][..], kubectl::command_flags);
    specs
        .iter()
        .chain(kubectl::flags::GLOBAL)
        .map(|s| format!("--{}", s.long))
        .collect()
}

fn common_prefix(words: &[String]) -> String {
    let Some(first) = words.first() else {
        return String::new();
    };
    let mut end = first.len();
    for w in &words[1..] {
        end = end.min(
            first
                .char_indices()
                .zip(w.chars())
                .take_while(|((_, a), b)| a == b)
                .map(|((i, a), _)| i + a.len_utf8())
                .last()
                .unwrap_or(0),
        );
    }
    first[..end].to_string()
}

/// The names of `resource`'s objects in `namespace` (for completion): one list request to
/// the engine, not shown in the terminal.
pub fn object_names(engine: &mut Engine, resource: &ApiResource, namespace: &str) -> Vec<String> {
    let path = if resource.namespaced {
        format!(
            "{}/namespaces/{namespace}/{}?limit=500",
            resource.prefix, resource.name
        )
    } else {
        format!("{}/{}?limit=500", resource.prefix, resource.name)
    };
    let Ok(req) = http::Request::get(path).body(bytes::Bytes::new()) else {
        return Vec::new();
    };
    let resp = engine.handle(req);
    let list: serde_json::Value = serde_json::from_slice(resp.body().bytes()).unwrap_or_default();
    list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["metadata"]["name"].as_str().map(str::to_string))
        .collect()
}

/// The namespace a line's `-n`/`--namespace` names, else the session's.
pub fn namespace_of(line: &str, default: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        if let Some(ns) = w
            .strip_prefix("--namespace=")
            .or_else(|| w.strip_prefix("-n="))
        {
            return ns.to_string();
        }
        if (*w == "-n" || *w == "--namespace") && i + 1 < words.len() {
            return words[i + 1].to_string();
        }
    }
    default.to_string()
}

/// Whether Enter should end the line: not while a here-document is still open.
pub fn complete_line(text: &str) -> bool {
    let Some(marker) = text
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().find(|w| w.starts_with("<<")))
    else {
        return true;
    };
    let delimiter = marker
        .trim_start_matches("<<")
        .trim_start_matches('-')
        .trim_matches(|c| c == '\'' || c == '"');
    text.lines().skip(1).any(|l| l.trim_end() == delimiter)
}
