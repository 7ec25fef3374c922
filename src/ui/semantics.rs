//! The spec's read-semantics tables as data: which semantic each combination of
//! `resourceVersion`, `resourceVersionMatch` and paging selects, the request that exercises
//! each cell, and which cell a request in the builder falls into.

use super::exchange::Draft;
use super::query;

/// The tables' columns: resourceVersion unset, `0`, or another value.
pub const COLUMNS: [&str; 3] = ["rv unset", "rv=0", "rv other value"];

/// A list table row: `resourceVersionMatch`, paging, and the spec's three cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListRow {
    pub rvm: Option<&'static str>,
    pub limit: bool,
    pub continue_: bool,
    pub cells: [&'static str; 3],
}

/// The spec's list table, row by row.
pub const LIST_ROWS: &[ListRow] = &[
    ListRow {
        rvm: None,
        limit: false,
        continue_: false,
        cells: ["Most Recent", "Any", "Not older than"],
    },
    ListRow {
        rvm: None,
        limit: true,
        continue_: false,
        cells: ["Most Recent", "Any", "Exact"],
    },
    ListRow {
        rvm: None,
        limit: true,
        continue_: true,
        cells: ["Continuation", "Continuation", "Invalid, HTTP 400"],
    },
    ListRow {
        rvm: Some("Exact"),
        limit: false,
        continue_: false,
        cells: ["Invalid", "Invalid", "Exact"],
    },
    ListRow {
        rvm: Some("Exact"),
        limit: true,
        continue_: false,
        cells: ["Invalid", "Invalid", "Exact"],
    },
    ListRow {
        rvm: Some("NotOlderThan"),
        limit: false,
        continue_: false,
        cells: ["Invalid", "Any", "Not older than"],
    },
    ListRow {
        rvm: Some("NotOlderThan"),
        limit: true,
        continue_: false,
        cells: ["Invalid", "Any", "Not older than"],
    },
];

/// The spec's get table.
pub const GET_CELLS: [&str; 3] = ["Most Recent", "Any", "Not older than"];

/// The spec's watch table.
pub const WATCH_CELLS: [&str; 3] = [
    "Get State and Start at Most Recent",
    "Get State and Start at Any",
    "Start at Exact",
];

/// One cell of one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cell {
    pub table: TableId,
    pub row: usize,
    pub col: usize,
}

/// Which of the spec's three tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TableId {
    Get,
    List,
    Watch,
}

impl Cell {
    /// The spec's text for the cell.
    pub fn spec(&self) -> &'static str {
        match self.table {
            TableId::Get => GET_CELLS[self.col],
            TableId::List => LIST_ROWS[self.row].cells[self.col],
            TableId::Watch => WATCH_CELLS[self.col],
        }
    }

    /// The `semantic=` name the engine reports for it (`None` for the invalid cells).
    pub fn semantic(&self) -> Option<&'static str> {
        Some(match self.spec() {
            "Most Recent" | "Get State and Start at Most Recent" => "MostRecent",
            "Any" | "Get State and Start at Any" => "Any",
            "Not older than" => "NotOlderThan",
            "Exact" | "Start at Exact" => "Exact",
            "Continuation" => "Continuation",
            _ => return None,
        })
    }

    /// Whether running it needs a continue token first.
    pub fn needs_token(&self) -> bool {
        self.table == TableId::List && LIST_ROWS[self.row].continue_
    }

    /// The request for the cell against the namespaces (three always exist, so pages of one
    /// have a next page); `rv` is a revision the server has, `token` a continue token.
    pub fn draft(&self, rv: u64, token: &str) -> Draft {
        let rv_value = match self.col {
            0 => None,
            1 => Some("0".to_string()),
            _ => Some(rv.to_string()),
        };
        let mut path = match self.table {
            TableId::Get => "/api/v1/namespaces/default".to_string(),
            TableId::List => "/api/v1/namespaces".to_string(),
            TableId::Watch => "/api/v1/namespaces?watch=1".to_string(),
        };
        if self.table == TableId::List {
            let row = LIST_ROWS[self.row];
            if row.limit {
                path = query::set(&path, "limit", Some("1"));
            }
            if row.continue_ {
                path = query::set(&path, "continue", Some(token));
            }
            if let Some(m) = row.rvm {
                path = query::set(&path, "resourceVersionMatch", Some(m));
            }
        }
        if let Some(v) = rv_value {
            path = query::set(&path, "resourceVersion", Some(&v));
        }
        Draft {
            method: "GET".into(),
            path,
            headers: String::new(),
            body: String::new(),
        }
    }
}

/// Every cell, table by table.
pub fn all_cells() -> Vec<Cell> {
    let mut out = Vec::new();
    for col in 0..3 {
        out.push(Cell {
            table: TableId::Get,
            row: 0,
            col,
        });
        out.push(Cell {
            table: TableId::Watch,
            row: 0,
            col,
        });
    }
    for row in 0..LIST_ROWS.len() {
        for col in 0..3 {
            out.push(Cell {
                table: TableId::List,
                row,
                col,
            });
        }
    }
    out
}

/// Whether a resource path (`/api/v1/...` or `/apis/G/V/...`) names one object rather than a
/// collection; `None` for non-resource paths.
pub fn names_object(path: &str) -> Option<bool> {
    let (base, _) = query::split(path.trim());
    let segs: Vec<&str> = base.trim_matches('/').split('/').collect();
    let rest: Vec<&str> = match segs.as_slice() {
        ["api", _, rest @ ..] => rest.to_vec(),
        ["apis", _, _, rest @ ..] => rest.to_vec(),
        _ => return None,
    };
    let rest: Vec<&str> = rest.into_iter().filter(|s| *s != "watch").collect();
    match rest.as_slice() {
        [] => None,
        ["namespaces", _, _] => Some(false),
        ["namespaces", _, _, _, ..] => Some(true),
        [_] => Some(false),
        [_, _, ..] => Some(true),
    }
}

/// The cell a GET in the builder falls into, if it is a get, list or watch.
pub fn classify(draft: &Draft) -> Option<Cell> {
    if !draft.method.trim().eq_ignore_ascii_case("GET") {
        return None;
    }
    let path = &draft.path;
    let object = names_object(path)?;
    let rv = query::get(path, "resourceVersion").unwrap_or_default();
    let col = match rv.as_str() {
        "" => 0,
        "0" => 1,
        _ => 2,
    };
    if query::is_watch(path) {
        return Some(Cell {
            table: TableId::Watch,
            row: 0,
            col,
        });
    }
    if object {
        return Some(Cell {
            table: TableId::Get,
            row: 0,
            col,
        });
    }
    let rvm = query::get(path, "resourceVersionMatch").filter(|s| !s.is_empty());
    let limit = query::get(path, "limit").is_some_and(|l| !l.is_empty() && l != "0");
    let cont = query::get(path, "continue").is_some_and(|c| !c.is_empty());
    let row = LIST_ROWS.iter().position(|r| {
        r.rvm == rvm.as_deref() && r.limit == (limit || cont) && r.continue_ == cont
    })?;
    Some(Cell {
        table: TableId::List,
        row,
        col,
    })
}
