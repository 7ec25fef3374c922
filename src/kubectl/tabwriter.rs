//! The column alignment kubectl prints tables with: Go's `text/tabwriter` as
//! `k8s.io/cli-runtime/pkg/printers.GetNewTabWriter` configures it (minimum cell width 6,
//! padding 3, spaces, `liggitt/tabwriter`'s `RememberWidths`). Written by hand because the
//! output must match Go's byte for byte: a cell ends at a tab, the last cell of a line is never
//! padded, a column's width is set per block of consecutive lines that have that column, and
//! widths count characters (runes), not bytes.

const MIN_WIDTH: usize = 6;
const PADDING: usize = 3;

/// Text written in tab-separated cells, aligned when flushed.
#[derive(Debug, Default)]
pub struct TabWriter {
    /// The lines written since the last flush, each a list of cells; the last cell of a line
    /// is the text after its last tab.
    lines: Vec<Vec<String>>,
    /// The text of the line being written (not yet ended by a newline).
    partial: String,
    /// Column widths of earlier flushes, used as minimums (`RememberWidths`), so the columns
    /// of a watch's rows, flushed one event at a time, never shrink.
    remembered: Vec<usize>,
    /// Minimum cell width and padding: kubectl's printers' (6, 3, widths remembered) unless
    /// set otherwise (then nothing is remembered).
    shape: Option<(usize, usize)>,
}

impl TabWriter {
    pub fn new() -> TabWriter {
        TabWriter::default()
    }

    /// A writer with another minimum width and padding (`kubectl describe` uses 0 and 2).
    pub fn with(min_width: usize, padding: usize) -> TabWriter {
        TabWriter {
            shape: Some((min_width, padding)),
            ..TabWriter::default()
        }
    }

    /// Appends text; `\t` ends a cell, `\n` a line.
    pub fn write(&mut self, text: &str) {
        for (i, piece) in text.split('\n').enumerate() {
            if i > 0 {
                let line = std::mem::take(&mut self.partial);
                self.lines
                    .push(line.split('\t').map(str::to_string).collect());
            }
            self.partial.push_str(piece);
        }
    }

    /// Forgets the widths of earlier flushes (kubectl does so when the resource type changes).
    pub fn forget_widths(&mut self) {
        self.remembered.clear();
    }

    /// The aligned text of every complete line written since the last flush (a line not yet
    /// ended stays buffered, as Go's writer keeps it until more text or the flush ends it).
    pub fn flush(&mut self) -> String {
        let lines = std::mem::take(&mut self.lines);
        let mut out = String::new();
        let mut widths = Vec::new();
        self.format(&lines, 0, lines.len(), &mut widths, &mut out);
        if !self.partial.is_empty() {
            // Go's Flush writes a pending line as it is, aligned with the lines before it.
            let last = vec![std::mem::take(&mut self.partial)
                .split('\t')
                .map(str::to_string)
                .collect::<Vec<_>>()];
            let mut widths = Vec::new();
            self.format(&last, 0, 1, &mut widths, &mut out);
            out.pop();
        }
        out
    }

    /// Go's `format`: lines `[line0, line1)` at the column depth `widths.len()`.
    fn format(
        &mut self,
        lines: &[Vec<String>],
        mut line0: usize,
        line1: usize,
        widths: &mut Vec<usize>,
        out: &mut String,
    ) {
        let column = widths.len();
        let mut this = line0;
        while this < line1 {
            if column + 1 >= lines[this].len() {
                this += 1;
                continue;
            }
            // A block of lines with a cell in this column starts here.
            write_lines(lines, line0, this, widths, out);
            line0 = this;
            let (min_width, padding) = self.shape.unwrap_or((MIN_WIDTH, PADDING));
            // Only kubectl's printers' writer remembers widths (describe's is Go's plain one).
            let remembered = match self.shape {
                None => self.remembered.get(column).copied().unwrap_or(0),
                Some(_) => 0,
            };
            let mut width = min_width.max(remembered);
            while this < line1 && column + 1 < lines[this].len() {
                width = width.max(lines[this][column].chars().count() + padding);
                this += 1;
            }
            if self.remembered.len() <= column {
                self.remembered.resize(column + 1, 0);
            }
            self.remembered[column] = width;
            widths.push(width);
            self.format(lines, line0, this, widths, out);
            widths.pop();
            line0 = this;
        }
        write_lines(lines, line0, line1, widths, out);
    }
}

fn write_lines(
    lines: &[Vec<String>],
    line0: usize,
    line1: usize,
    widths: &[usize],
    out: &mut String,
) {
    for line in &lines[line0..line1] {
        for (j, cell) in line.iter().enumerate() {
            out.push_str(cell);
            if j < widths.len() && j + 1 < line.len() {
                let w = cell.chars().count();
                out.extend(std::iter::repeat_n(' ', widths[j].saturating_sub(w)));
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::TabWriter;

    fn aligned(text: &str) -> String {
        let mut w = TabWriter::new();
        w.write(text);
        w.flush()
    }

    #[test]
    fn cells_are_padded_to_the_widest_plus_three_and_at_least_six() {
        assert_eq!(
            aligned("NAME\tDATA\tAGE\nkube-root-ca.crt\t1\t5m\n"),
            "NAME               DATA   AGE\nkube-root-ca.crt   1      5m\n"
        );
        assert_eq!(aligned("a\tb\n"), "a     b\n");
    }

    #[test]
    fn a_block_ends_at_a_line_without_the_column() {
        assert_eq!(
            aligned("a\tb\tc\nlonger\n\nxx\ty\n"),
            "a     b     c\nlonger\n\nxx    y\n"
        );
    }

    #[test]
    fn widths_count_characters_and_are_remembered_across_flushes() {
        let mut w = TabWriter::new();
        w.write("NAME\tAGE\nnaïve-long-name\t1s\n");
        assert_eq!(w.flush(), "NAME              AGE\nnaïve-long-name   1s\n");
        w.write("x\t2s\n");
        assert_eq!(w.flush(), "x                 2s\n");
        w.forget_widths();
        w.write("x\t2s\n");
        assert_eq!(w.flush(), "x     2s\n");
    }
}
