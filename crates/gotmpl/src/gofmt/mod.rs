//! Go's `fmt` printing (`Sprint`, `Sprintln`, `Sprintf`) over [`Value`],
//! byte for byte as Go 1.27 prints, with the `strconv` pieces it needs
//! ([`format_float`], [`quote`] and friends).
//!
//! This is a port of Go's `fmt/print.go` and `fmt/format.go`: all verbs
//! (`%v %+v %#v %T %% %t %d %b %o %O %x %X %c %q %U %e %E %f %F %g %G %s %p`),
//! flags, widths, precisions, `*` and `%[n]` argument indexes, the error
//! forms (`%!d(string=hi)`, `%!v(MISSING)`, `%!(EXTRA ...)`, ...), and the
//! `Error`/`String`/`GoString` methods of values (see [`crate::value::Method`];
//! a method returning `Err(msg)` is treated as a Go panic with `msg`).
//!
//! Go strings may hold invalid UTF-8 and ours cannot: the only way such
//! bytes reach the output is a byte slice printed with `%s` (or `%c`-free
//! equivalents); they come out as U+FFFD.
//!
//! Format strings are untrusted input: nothing here panics on any format.

mod float;
mod format;
mod print;
mod quote;

pub use float::format_float;
pub use quote::{is_print, quote, quote_ascii, quote_rune, quote_rune_ascii};

use crate::value::Value;
use print::Printer;

/// `fmt.Sprint(args...)`: the default formats of the operands, with spaces
/// between operands when neither is a string. [`Value::Nil`] is a nil
/// interface (`<nil>`).
pub fn sprint(args: &[Value]) -> String {
    let mut p = Printer::default();
    p.do_print(args);
    p.into_string()
}

/// `fmt.Sprintln(args...)`: the default formats of the operands, always
/// separated by spaces, and a newline.
pub fn sprintln(args: &[Value]) -> String {
    let mut p = Printer::default();
    p.do_println(args);
    p.into_string()
}

/// `fmt.Sprintf(format, args...)`.
pub fn sprintf(format: &str, args: &[Value]) -> String {
    let mut p = Printer::default();
    p.do_printf(format, args);
    p.into_string()
}

#[cfg(test)]
mod tests;
