//! Ollama's Modelfile parser (parser/parser.go `ParseFile`, `Command.String`
//! and `Modelfile.String`), rune for rune: the same state machine, the same
//! commands and arguments, the same error texts and line numbers.
//!
//! The input is decoded as Ollama decodes it (`unicode.BOMOverride` over a
//! UTF-8 decoder, golang.org/x/text): a UTF-8 byte-order mark is dropped,
//! a UTF-16 one (either order) switches to UTF-16, and each byte that is
//! not valid UTF-8 becomes U+FFFD.

use std::fmt;

use gotmpl::unicode::is_print;

/// One command: `model` (FROM), `license`, `template`, `system`, `adapter`,
/// `draft`, `renderer`, `parser`, `requires`, `message` (`role: text`), or
/// a parameter's name for PARAMETER.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The command's name, as Ollama stores it.
    pub name: String,
    /// Its argument, unquoted.
    pub args: String,
}

/// A parsed Modelfile: its commands in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modelfile {
    /// The commands.
    pub commands: Vec<Command>,
}

/// Why a Modelfile does not parse, with Ollama's text (`Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A `ParserError`: `(line N): message`.
    Line {
        /// The line (1-based, counting `\r` and `\n` each as a line end).
        line: usize,
        /// Ollama's message.
        message: String,
    },
    /// `unexpected EOF: <what was read of the command>`: a PARAMETER name
    /// or MESSAGE role that does not end in a space.
    Unexpected(String),
    /// `unexpected EOF`: the file ends inside a command or a quote.
    Eof,
    /// `no FROM line`.
    MissingFrom,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Line { line, message } if *line > 0 => {
                write!(f, "(line {line}): {message}")
            }
            ParseError::Line { message, .. } => f.write_str(message),
            ParseError::Unexpected(b) => write!(f, "unexpected EOF: {b}"),
            ParseError::Eof => f.write_str("unexpected EOF"),
            ParseError::MissingFrom => f.write_str("no FROM line"),
        }
    }
}

impl std::error::Error for ParseError {}

const INVALID_MESSAGE_ROLE: &str =
    "message role must be one of \"system\", \"user\", or \"assistant\"";
const INVALID_COMMAND: &str = "command must be one of \"from\", \"license\", \"template\", \"system\", \"adapter\", \"draft\", \"renderer\", \"parser\", \"parameter\", \"message\", or \"requires\"";

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Nil,
    Name,
    Value,
    Parameter,
    Message,
    Comment,
}

/// What `parseRuneForState` can fail with.
enum RuneError {
    InvalidCommand,
    UnexpectedEof,
}

/// `unicode.BOMOverride(unicode.UTF8.NewDecoder())`: the runes of `bytes`.
fn decode(bytes: &[u8]) -> Vec<char> {
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => utf8_lossy(rest),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
        _ => utf8_lossy(bytes),
    }
}

/// x/text's UTF-8 decoder: each byte that starts no valid sequence is one
/// U+FFFD (as `utf8.DecodeRune` reads it).
fn utf8_lossy(mut bytes: &[u8]) -> Vec<char> {
    let mut out = Vec::with_capacity(bytes.len());
    while !bytes.is_empty() {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.extend(s.chars());
                break;
            }
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                out.extend(std::str::from_utf8(good).unwrap_or_default().chars());
                // DecodeRune consumes one byte of an invalid sequence
                out.push(char::REPLACEMENT_CHARACTER);
                bytes = &rest[1..];
            }
        }
    }
    out
}

/// x/text's UTF-16 decoder: unpaired surrogates and a last odd byte are
/// U+FFFD.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Vec<char> {
    let units = bytes.chunks_exact(2).map(|c| unit([c[0], c[1]]));
    let mut out: Vec<char> = char::decode_utf16(units)
        .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect();
    if bytes.len() % 2 == 1 {
        out.push(char::REPLACEMENT_CHARACTER);
    }
    out
}

fn is_alpha(r: char) -> bool {
    r.is_ascii_alphabetic()
}

fn is_number(r: char) -> bool {
    r.is_ascii_digit()
}

fn is_space(r: char) -> bool {
    r == ' ' || r == '\t'
}

fn is_newline(r: char) -> bool {
    r == '\r' || r == '\n'
}

fn is_valid_message_role(role: &str) -> bool {
    matches!(role, "system" | "user" | "assistant")
}

fn is_valid_command(cmd: &str) -> bool {
    matches!(
        cmd.to_lowercase().as_str(),
        "from"
            | "license"
            | "template"
            | "system"
            | "adapter"
            | "draft"
            | "renderer"
            | "parser"
            | "parameter"
            | "message"
            | "requires"
    )
}

/// `parseRuneForState`: the next state and the rune to keep (`None` for
/// Go's 0).
fn parse_rune_for_state(r: char, cs: State) -> Result<(State, Option<char>), RuneError> {
    Ok(match cs {
        State::Nil => {
            if r == '#' {
                (State::Comment, None)
            } else if is_space(r) || is_newline(r) {
                (State::Nil, None)
            } else {
                (State::Name, Some(r))
            }
        }
        State::Name => {
            if is_alpha(r) {
                (State::Name, Some(r))
            } else if is_space(r) {
                (State::Value, None)
            } else {
                return Err(RuneError::InvalidCommand);
            }
        }
        State::Value => {
            if is_newline(r) || is_space(r) {
                (State::Nil, Some(r))
            } else {
                (State::Value, Some(r))
            }
        }
        State::Parameter => {
            if is_alpha(r) || is_number(r) || r == '_' {
                (State::Parameter, Some(r))
            } else if is_space(r) {
                (State::Value, None)
            } else {
                return Err(RuneError::UnexpectedEof);
            }
        }
        State::Message => {
            if is_alpha(r) {
                (State::Message, Some(r))
            } else if is_space(r) {
                (State::Value, None)
            } else {
                return Err(RuneError::UnexpectedEof);
            }
        }
        State::Comment => {
            if is_newline(r) {
                (State::Nil, None)
            } else {
                (State::Comment, None)
            }
        }
    })
}

/// `unquote`: `"""…"""` or `"…"`; an opened quote that does not close is
/// `None`.
fn unquote(s: &str) -> Option<&str> {
    if let Some(rest) = s.strip_prefix("\"\"\"") {
        return (s.len() >= 6 && s.ends_with("\"\"\"")).then(|| &rest[..rest.len() - 3]);
    }
    if let Some(rest) = s.strip_prefix('"') {
        return (s.len() >= 2 && s.ends_with('"')).then(|| &rest[..rest.len() - 1]);
    }
    Some(s)
}

/// Go's `strings.TrimSpace` (Unicode white space, as Rust's `trim`).
fn trim_space(s: &str) -> &str {
    s.trim()
}

/// `ParseFile`: the Modelfile's commands, or Ollama's error.
pub fn parse(bytes: &[u8]) -> Result<Modelfile, ParseError> {
    let mut cmd = Command {
        name: String::new(),
        args: String::new(),
    };
    let mut curr = State::Nil;
    let mut line = 1usize;
    let mut b = String::new();
    let mut role = String::new();
    let mut f = Modelfile::default();

    for r in decode(bytes) {
        if is_newline(r) {
            line += 1;
        }
        let (mut next, r) = match parse_rune_for_state(r, curr) {
            Ok(x) => x,
            Err(RuneError::UnexpectedEof) => return Err(ParseError::Unexpected(b)),
            Err(RuneError::InvalidCommand) => {
                return Err(ParseError::Line {
                    line,
                    message: INVALID_COMMAND.into(),
                })
            }
        };
        if next != curr {
            match curr {
                State::Name => {
                    if !is_valid_command(&b) {
                        return Err(ParseError::Line {
                            line,
                            message: INVALID_COMMAND.into(),
                        });
                    }
                    let s = b.to_lowercase();
                    match s.as_str() {
                        "from" => cmd.name = "model".into(),
                        "parameter" => next = State::Parameter,
                        "message" => {
                            next = State::Message;
                            cmd.name = s;
                        }
                        _ => cmd.name = s,
                    }
                }
                State::Parameter => cmd.name = b.clone(),
                State::Message => {
                    if !is_valid_message_role(&b) {
                        return Err(ParseError::Line {
                            line,
                            message: INVALID_MESSAGE_ROLE.into(),
                        });
                    }
                    role = b.clone();
                }
                State::Comment | State::Nil => {}
                State::Value => {
                    let closed = unquote(trim_space(&b)).map(str::to_string);
                    let space = r.is_some_and(is_space);
                    match closed {
                        Some(s) if !space => {
                            let s = if role.is_empty() {
                                s
                            } else {
                                format!("{}: {s}", std::mem::take(&mut role))
                            };
                            cmd.args = s;
                            f.commands.push(cmd.clone());
                        }
                        _ => {
                            // Go writes the rune (0 included) and goes on
                            b.push(r.unwrap_or('\0'));
                            continue;
                        }
                    }
                }
            }
            b.clear();
            curr = next;
        }
        if let Some(r) = r.filter(|&r| is_print(r)) {
            b.push(r);
        }
    }

    match curr {
        State::Comment | State::Nil => {}
        State::Value => {
            let s = unquote(trim_space(&b)).ok_or(ParseError::Eof)?;
            cmd.args = if role.is_empty() {
                s.to_string()
            } else {
                format!("{role}: {s}")
            };
            f.commands.push(cmd);
        }
        _ => return Err(ParseError::Eof),
    }
    if f.commands.iter().any(|c| c.name == "model") {
        Ok(f)
    } else {
        Err(ParseError::MissingFrom)
    }
}

/// Go's `quote` for `Command.String`.
fn quote(s: &str) -> String {
    if s.contains('\n') || s.starts_with(' ') || s.ends_with(' ') {
        if s.contains('"') {
            return format!("\"\"\"{s}\"\"\"");
        }
        return format!("\"{s}\"");
    }
    s.to_string()
}

impl fmt::Display for Command {
    /// `Command.String`: the command as a Modelfile line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name.as_str() {
            "model" => write!(f, "FROM {}", self.args),
            "license" | "template" | "system" | "adapter" | "renderer" | "parser" | "requires"
            | "draft" => write!(f, "{} {}", self.name.to_uppercase(), quote(&self.args)),
            "message" => {
                let (role, message) = self.args.split_once(": ").unwrap_or((&self.args, ""));
                write!(f, "MESSAGE {role} {}", quote(message))
            }
            _ => write!(f, "PARAMETER {} {}", self.name, quote(&self.args)),
        }
    }
}

impl fmt::Display for Modelfile {
    /// `Modelfile.String`: one line per command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.commands {
            writeln!(f, "{c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_modelfile() {
        let f = parse(b"FROM llama3.2\nPARAMETER num_ctx 8192\nSYSTEM \"\"\"Be\nbrief.\"\"\"\nMESSAGE user Hi\n").unwrap();
        let got: Vec<(&str, &str)> = f
            .commands
            .iter()
            .map(|c| (c.name.as_str(), c.args.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("model", "llama3.2"),
                ("num_ctx", "8192"),
                ("system", "Be\nbrief."),
                ("message", "user: Hi")
            ]
        );
        assert_eq!(
            f.to_string(),
            "FROM llama3.2\nPARAMETER num_ctx 8192\nSYSTEM \"Be\nbrief.\"\nMESSAGE user Hi\n"
        );
    }

    /// Found by the fuzz target: a PARAMETER may be named like a command,
    /// and `String()` then writes what Ollama writes, which does not parse
    /// back for `message`.
    #[test]
    fn a_parameter_named_like_a_command() {
        let f = parse(b"FROM x\nPARAMETER message hi\nPARAMETER model y").unwrap();
        assert_eq!(f.commands[1].name, "message");
        assert_eq!(f.to_string(), "FROM x\nMESSAGE hi \nFROM y\n");
        assert_eq!(
            parse(f.to_string().as_bytes()).unwrap_err().to_string(),
            format!("(line 2): {INVALID_MESSAGE_ROLE}")
        );
    }

    #[test]
    fn errors_are_ollamas() {
        assert_eq!(parse(b"SYSTEM hi").unwrap_err().to_string(), "no FROM line");
        assert_eq!(
            parse(b"FROM x\nFOO bar").unwrap_err().to_string(),
            format!("(line 2): {INVALID_COMMAND}")
        );
        assert_eq!(
            parse(b"FROM x\nMESSAGE bot hi").unwrap_err().to_string(),
            format!("(line 2): {INVALID_MESSAGE_ROLE}")
        );
        assert_eq!(
            parse(b"FROM x\nSYSTEM \"\"\"open").unwrap_err().to_string(),
            "unexpected EOF"
        );
        assert_eq!(
            parse(b"FROM x\nPARAMETER num-ctx 1")
                .unwrap_err()
                .to_string(),
            "unexpected EOF: num"
        );
    }
}
