//! Small text helpers shared by the navmesh file readers: tokens with their line and
//! column, numbers with clear errors.

use crate::error::{excerpt, Error};

/// One whitespace-separated token and where it starts (1-based line and column).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token<'a> {
    pub text: &'a str,
    pub line: usize,
    pub column: usize,
}

/// The whitespace-separated tokens of `text`, with their positions; `#` starts a comment
/// that runs to the end of its line when `comments` is set. Linear in the text's length,
/// however long its lines (columns are counted as the scan goes, not from the line start).
pub(crate) fn tokens(text: &str, comments: bool) -> impl Iterator<Item = Token<'_>> {
    text.lines().enumerate().flat_map(move |(l, raw)| {
        let line = if comments {
            raw.split('#').next().unwrap_or("")
        } else {
            raw
        };
        let mut chars = line.char_indices().enumerate().peekable();
        std::iter::from_fn(move || {
            // Skip whitespace, then take the token up to the next whitespace.
            while chars.next_if(|(_, (_, c))| c.is_whitespace()).is_some() {}
            let (column, (start, _)) = chars.next()?;
            let mut end = line.len();
            while let Some(&(_, (i, c))) = chars.peek() {
                if c.is_whitespace() {
                    end = i;
                    break;
                }
                chars.next();
            }
            Some(Token {
                text: &line[start..end],
                line: l + 1,
                column: column + 1,
            })
        })
    })
}

/// A parse error at `line`:`column` of `file`.
pub(crate) fn error(file: &str, line: usize, column: usize, message: impl Into<String>) -> Error {
    Error::parse(file, line, column, message.into())
}

/// Reads tokens one at a time, turning them into numbers or a clear error that names what
/// was expected and where.
pub(crate) struct Reader<'a, I: Iterator<Item = Token<'a>>> {
    tokens: std::iter::Peekable<I>,
    file: &'a str,
    /// Where the last token ended (for "expected … at the end of the file").
    last_line: usize,
}

impl<'a, I: Iterator<Item = Token<'a>>> Reader<'a, I> {
    pub fn new(tokens: I, file: &'a str) -> Self {
        Reader {
            tokens: tokens.peekable(),
            file,
            last_line: 1,
        }
    }

    /// The next token, or an error saying `what` was expected at the end of the file.
    pub fn next(&mut self, what: &str) -> Result<Token<'a>, Error> {
        match self.tokens.next() {
            Some(t) => {
                self.last_line = t.line;
                Ok(t)
            }
            None => Err(error(
                self.file,
                self.last_line,
                0,
                format!("expected {what}, found the end of the file (too few fields)"),
            )),
        }
    }

    /// The next token, if any, without taking it.
    pub fn peek(&mut self) -> Option<Token<'a>> {
        self.tokens.peek().copied()
    }

    /// An error at token `t`.
    pub fn error_at(&self, t: Token, message: impl Into<String>) -> Error {
        error(self.file, t.line, t.column, message)
    }

    /// The next token as an integer in `lo..=hi`.
    pub fn int(&mut self, what: &str, lo: i64, hi: i64) -> Result<(i64, Token<'a>), Error> {
        let t = self.next(what)?;
        match t.text.parse::<i64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok((v, t)),
            Ok(v) => Err(self.error_at(t, format!("{what} is {v}, expected {lo} to {hi}"))),
            // A whole number too large for i64 is out of range too, not "not a number".
            Err(e)
                if matches!(
                    e.kind(),
                    std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow
                ) =>
            {
                let text = excerpt(t.text);
                Err(self.error_at(t, format!("{what} is {text}, expected {lo} to {hi}")))
            }
            Err(_) => Err(self.error_at(
                t,
                format!(
                    "expected {what} (a whole number), found `{}`",
                    excerpt(t.text)
                ),
            )),
        }
    }

    /// The next token as a finite number.
    pub fn number(&mut self, what: &str) -> Result<(f64, Token<'a>), Error> {
        let t = self.next(what)?;
        let v = number(t.text).map_err(|m| self.error_at(t, format!("{what}: {m}")))?;
        Ok((v, t))
    }
}

/// `s` as a finite number, or why not.
pub(crate) fn number(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(format!("`{}` is not a finite number", excerpt(s))),
        Err(_) => Err(format!("expected a number, found `{}`", excerpt(s))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_know_their_line_and_column() {
        let t: Vec<(&str, usize, usize)> = tokens("a  bé c\n\n  é2 # x y\n", true)
            .map(|t| (t.text, t.line, t.column))
            .collect();
        assert_eq!(t, [("a", 1, 1), ("bé", 1, 4), ("c", 1, 7), ("é2", 3, 3)]);
        assert_eq!(tokens("# x", false).count(), 2);
    }
}
