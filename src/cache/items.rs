//! A page's items, as the read found them.
//!
//! An unfiltered page read from the watch cache is a run of consecutive entries of the
//! cache's index: it is kept as that run of the shared, immutable snapshot and walked when the
//! page is encoded, so serving 500 objects clones and drops no 500 handles (the reference
//! counting was a fifth of a page's cost). A filtered page, or one read from the store, owns
//! its objects.

use crate::store::index::{Iter, OrdIndex};
use crate::store::Object;

/// The objects of one page, in key order.
#[derive(Clone)]
pub enum Items {
    Owned(Vec<Object>),
    /// `len` consecutive entries of `index`, from the first key at or after `from`.
    Run {
        index: OrdIndex<Object>,
        from: String,
        len: usize,
    },
}

impl Default for Items {
    fn default() -> Self {
        Items::Owned(Vec::new())
    }
}

impl From<Vec<Object>> for Items {
    fn from(v: Vec<Object>) -> Self {
        Items::Owned(v)
    }
}

impl Items {
    pub fn len(&self) -> usize {
        match self {
            Items::Owned(v) => v.len(),
            Items::Run { len, .. } => *len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The objects in order.
    pub fn iter(&self) -> ItemsIter<'_> {
        match self {
            Items::Owned(v) => ItemsIter::Owned(v.iter()),
            Items::Run { index, from, len } => {
                ItemsIter::Run(index.iter_from(Some(from)).take(*len))
            }
        }
    }

    /// The objects as a vector that may be changed (a run's objects cloned out first).
    pub fn make_owned(&mut self) -> &mut Vec<Object> {
        if let Items::Run { .. } = self {
            *self = Items::Owned(self.iter().cloned().collect());
        }
        match self {
            Items::Owned(v) => v,
            Items::Run { .. } => unreachable!("made owned above"),
        }
    }
}

/// The iterator of [`Items::iter`].
pub enum ItemsIter<'a> {
    Owned(std::slice::Iter<'a, Object>),
    Run(std::iter::Take<Iter<'a, Object>>),
}

impl<'a> Iterator for ItemsIter<'a> {
    type Item = &'a Object;

    fn next(&mut self) -> Option<&'a Object> {
        match self {
            ItemsIter::Owned(i) => i.next(),
            ItemsIter::Run(i) => i.next().map(|(_, o)| o),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            ItemsIter::Owned(i) => i.size_hint(),
            ItemsIter::Run(i) => i.size_hint(),
        }
    }
}

impl ExactSizeIterator for ItemsIter<'_> {}

impl<'a> IntoIterator for &'a Items {
    type Item = &'a Object;
    type IntoIter = ItemsIter<'a>;

    fn into_iter(self) -> ItemsIter<'a> {
        self.iter()
    }
}

/// Items are equal when they hold the same objects in the same order, however held.
impl PartialEq for Items {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Items {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn index(n: usize) -> OrdIndex<Object> {
        let mut idx = OrdIndex::new();
        for i in 0..n {
            idx.insert(format!("/k/{i:02}"), Object::new(json!({"i": i})));
        }
        idx
    }

    #[test]
    fn a_run_reads_as_the_objects_it_spans() {
        let idx = index(10);
        let run = Items::Run {
            index: idx.clone(),
            from: "/k/03".into(),
            len: 4,
        };
        let owned: Items = idx
            .iter()
            .skip(3)
            .take(4)
            .map(|(_, o)| o.clone())
            .collect::<Vec<_>>()
            .into();
        assert_eq!(run.len(), 4);
        assert_eq!(run.iter().len(), 4);
        assert_eq!(run, owned);
        let got: Vec<_> = run.iter().map(|o| o.decode()["i"].clone()).collect();
        assert_eq!(got, [json!(3), json!(4), json!(5), json!(6)]);
        assert_eq!(run.clone().make_owned().len(), 4);
    }

    #[test]
    fn making_a_run_owned_keeps_its_objects_and_allows_changes() {
        let mut items = Items::Run {
            index: index(5),
            from: "/k/".into(),
            len: 5,
        };
        let v = items.make_owned();
        v.pop();
        assert!(matches!(items, Items::Owned(ref v) if v.len() == 4));
        assert!(!items.is_empty());
        assert!(Items::default().is_empty());
    }
}
