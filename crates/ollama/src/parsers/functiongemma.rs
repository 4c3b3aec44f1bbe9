//! `model/parsers/functiongemma.go`: not ported yet (scaffold).

use super::Constructors;

pub(crate) fn constructors() -> Constructors {
    Constructors {
        by_name: |_| None,
        by_go_type: |_, _| None,
    }
}
