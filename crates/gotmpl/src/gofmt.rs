//! Go's `fmt` printing (`Sprint`, `Sprintln`, `Sprintf`) over [`Value`].

use crate::value::Value;

/// `fmt.Sprint`.
pub fn sprint(_args: &[Value]) -> String {
    todo!("being written")
}

/// `fmt.Sprintln`.
pub fn sprintln(_args: &[Value]) -> String {
    todo!("being written")
}

/// `fmt.Sprintf`.
pub fn sprintf(_format: &str, _args: &[Value]) -> String {
    todo!("being written")
}
