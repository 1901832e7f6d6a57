//! A script line as tokens: words and "quoted strings", and the cursor the
//! parser reads them with.
//!
//! `#` starts a comment anywhere a word could start, except a `#rrggbb`
//! colour.

/// A word or a double-quoted string.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Token {
    Word(String),
    Quoted(String),
}

/// Split a line into words and "quoted strings" (with `\"` and `\\`).
pub(super) fn tokenize(line: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    None => return Err("unterminated string (missing closing `\"`)".into()),
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some(e @ ('"' | '\\')) => s.push(e),
                        Some(other) => {
                            return Err(format!("unknown escape `\\{other}` (use \\\" or \\\\)"))
                        }
                        None => return Err("unterminated string (missing closing `\"`)".into()),
                    },
                    Some(other) => s.push(other),
                }
            }
            if chars.peek().is_some_and(|c| !c.is_whitespace()) {
                return Err("missing space after closing `\"`".into());
            }
            tokens.push(Token::Quoted(s));
        } else {
            let rest: String = chars.clone().collect();
            if rest.starts_with('#') && !is_colour_word(&rest) {
                // A comment runs to the end of the line.
                break;
            }
            let mut s = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                if c == '"' {
                    return Err(format!("unexpected `\"` inside `{s}\"`"));
                }
                s.push(c);
                chars.next();
            }
            tokens.push(Token::Word(s));
        }
    }
    Ok(tokens)
}

/// Whether `rest` starts with a `#rrggbb` word (a colour, not a comment).
fn is_colour_word(rest: &str) -> bool {
    let word = rest.split(char::is_whitespace).next().unwrap_or("");
    word.len() == 7 && word[1..].chars().all(|c| c.is_ascii_hexdigit())
}

/// Reads a line's tokens in order, with errors that say what was expected.
pub(super) struct Cursor<'a> {
    tokens: &'a [Token],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(tokens: &'a [Token]) -> Self {
        Cursor { tokens, pos: 0 }
    }

    pub(super) fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.pos)
    }

    pub(super) fn peek_word(&self) -> Option<&'a str> {
        match self.peek() {
            Some(Token::Word(w)) => Some(w),
            _ => None,
        }
    }

    /// The word after the next token (`expect heartbeat every 60`).
    pub(super) fn second_word(&self) -> Option<&'a str> {
        match self.tokens.get(self.pos + 1) {
            Some(Token::Word(w)) => Some(w),
            _ => None,
        }
    }

    /// Step over the token just peeked at.
    pub(super) fn skip(&mut self) {
        self.pos += 1;
    }

    pub(super) fn word(&mut self, what: &str) -> Result<String, String> {
        match self.peek() {
            Some(Token::Word(w)) => {
                self.pos += 1;
                Ok(w.clone())
            }
            Some(Token::Quoted(q)) => Err(format!("expected {what}, found \"{q}\"")),
            None => Err(format!("expected {what} at end of line")),
        }
    }

    /// A word or a quoted string (file names with spaces).
    pub(super) fn any(&mut self, what: &str) -> Result<String, String> {
        match self.peek() {
            Some(Token::Word(s)) | Some(Token::Quoted(s)) => {
                self.pos += 1;
                Ok(s.clone())
            }
            None => Err(format!("expected {what} at end of line")),
        }
    }

    pub(super) fn quoted(&mut self) -> Result<String, String> {
        match self.peek() {
            Some(Token::Quoted(q)) => {
                self.pos += 1;
                if q.is_empty() {
                    return Err("empty text \"\" would match every line".into());
                }
                Ok(q.clone())
            }
            Some(Token::Word(w)) => Err(format!("expected a \"quoted text\", found `{w}`")),
            None => Err("expected a \"quoted text\" at end of line".into()),
        }
    }

    pub(super) fn keyword(&mut self, kw: &str) -> Result<(), String> {
        match self.peek() {
            Some(Token::Word(w)) if w == kw => {
                self.pos += 1;
                Ok(())
            }
            Some(Token::Word(w)) => Err(format!("expected `{kw}`, found `{w}`")),
            Some(Token::Quoted(q)) => Err(format!("expected `{kw}`, found \"{q}\"")),
            None => Err(format!("expected `{kw}` at end of line")),
        }
    }

    pub(super) fn end(&self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(Token::Word(w)) => Err(format!("unexpected `{w}` at end of line")),
            Some(Token::Quoted(q)) => Err(format!("unexpected \"{q}\" at end of line")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Token> {
        tokenize(line).unwrap()
    }

    #[test]
    fn colours_are_words_other_hashes_start_comments() {
        let w = |s: &str| Token::Word(s.into());
        assert_eq!(
            words("expect pixel 1,2 is #a0a0a0 at 9 # grey"),
            ["expect", "pixel", "1,2", "is", "#a0a0a0", "at", "9"].map(w)
        );
        // Not six hex digits: a comment, so the colour is missing.
        assert_eq!(words("is #a0a0 at 9"), [w("is")]);
        assert_eq!(words("is #a0a0zz"), [w("is")]);
        assert_eq!(words("run 10 #"), [w("run"), w("10")]);
        // Inside quotes `#` is text.
        assert_eq!(
            words("expect \"a # b\" by 9"),
            [w("expect"), Token::Quoted("a # b".into()), w("by"), w("9")]
        );
    }

    #[test]
    fn quotes_escapes_and_their_errors() {
        assert_eq!(
            words(r#""say \"hi\" \\""#),
            [Token::Quoted(r#"say "hi" \"#.into())]
        );
        for (line, message) in [
            ("\"open", "unterminated string (missing closing `\"`)"),
            ("\"open\\", "unterminated string (missing closing `\"`)"),
            ("\"a\\n\"", "unknown escape `\\n` (use \\\" or \\\\)"),
            ("\"a\"b", "missing space after closing `\"`"),
            ("ab\"c\"", "unexpected `\"` inside `ab\"`"),
        ] {
            assert_eq!(tokenize(line), Err(message.to_string()), "{line}");
        }
    }

    #[test]
    fn cursor_says_what_it_expected() {
        let tokens = words("at \"x\"");
        let mut t = Cursor::new(&tokens);
        assert_eq!(t.keyword("on"), Err("expected `on`, found `at`".into()));
        assert_eq!(t.second_word(), None);
        t.skip();
        assert_eq!(t.word("a port"), Err("expected a port, found \"x\"".into()));
        assert_eq!(t.end(), Err("unexpected \"x\" at end of line".into()));
        assert_eq!(t.any("a name"), Ok("x".into()));
        assert_eq!(
            t.word("a frame"),
            Err("expected a frame at end of line".into())
        );
        assert_eq!(t.end(), Ok(()));
    }
}
