//! Port of `common/jinja/string.h` / `string.cpp`: a string made of parts,
//! each marked whether it came from the input (`is_input`).

use crate::utils::{is_space, Hasher};

/// `string_part`: one piece of a [`JString`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StringPart {
    /// True when the bytes came from the input (`global_from_json(.., mark_input = true)`).
    pub is_input: bool,
    /// The bytes (C++ strings are bytes; slicing can split UTF-8).
    pub val: Vec<u8>,
}

impl StringPart {
    /// No ASCII lowercase letter.
    pub fn is_uppercase(&self) -> bool {
        !self.val.iter().any(|c| c.is_ascii_lowercase())
    }
    /// No ASCII uppercase letter.
    pub fn is_lowercase(&self) -> bool {
        !self.val.iter().any(|c| c.is_ascii_uppercase())
    }
    /// The bytes as text (lossy).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.val).into_owned()
    }
}

/// `jinja::string`: a list of [`StringPart`]s.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct JString {
    /// The parts, in order.
    pub parts: Vec<StringPart>,
    /// Jinja2 dialect: a `Markup` string (from `|safe`), whose `+` and `~`
    /// HTML-escape the plain string on the other side.
    pub safe: bool,
}

impl JString {
    /// One part from template bytes (or input bytes when `user_input`).
    pub fn new(v: impl Into<Vec<u8>>, user_input: bool) -> Self {
        JString {
            parts: vec![StringPart {
                is_input: user_input,
                val: v.into(),
            }],
            safe: false,
        }
    }
    /// Whether this is a Jinja2 `Markup` string.
    pub fn is_safe(&self) -> bool {
        self.safe
    }
    /// Marks all parts as user input.
    pub fn mark_input(&mut self) {
        for p in &mut self.parts {
            p.is_input = true;
        }
    }
    /// All parts concatenated.
    pub fn bytes(&self) -> Vec<u8> {
        if self.parts.len() == 1 {
            return self.parts[0].val.clone();
        }
        let mut out = Vec::with_capacity(self.length());
        for p in &self.parts {
            out.extend_from_slice(&p.val);
        }
        out
    }
    /// `str()`: all parts concatenated, as text (lossy for invalid UTF-8).
    pub fn str(&self) -> String {
        crate::utils::lossy(self.bytes())
    }
    /// Total length in bytes.
    pub fn length(&self) -> usize {
        self.parts.iter().map(|p| p.val.len()).sum()
    }
    /// Feeds every part into `hash`.
    pub fn hash_update(&self, hash: &mut Hasher) {
        for p in &self.parts {
            hash.update(&p.val);
        }
    }
    /// True when every part is input (also when there are no parts).
    pub fn all_parts_are_input(&self) -> bool {
        self.parts.iter().all(|p| p.is_input)
    }
    /// Every part [`StringPart::is_uppercase`].
    pub fn is_uppercase(&self) -> bool {
        self.parts.iter().all(|p| p.is_uppercase())
    }
    /// Every part [`StringPart::is_lowercase`].
    pub fn is_lowercase(&self) -> bool {
        self.parts.iter().all(|p| p.is_lowercase())
    }
    /// Marks this string as input when `other` has all parts input.
    pub fn mark_input_based_on(&mut self, other: &JString) {
        if other.all_parts_are_input() {
            self.mark_input();
        }
    }
    /// Appends the parts of `other` as they are.
    pub fn append(&mut self, other: &JString) -> &mut Self {
        self.parts.extend(other.parts.iter().cloned());
        self
    }
    fn transform(mut self, f: impl Fn(&[u8]) -> Vec<u8>) -> Self {
        for p in &mut self.parts {
            p.val = f(&p.val);
        }
        self
    }
    /// ASCII uppercase of every part.
    pub fn uppercase(self) -> Self {
        self.transform(|s| s.to_ascii_uppercase())
    }
    /// ASCII lowercase of every part.
    pub fn lowercase(self) -> Self {
        self.transform(|s| s.to_ascii_lowercase())
    }
    /// First byte of each part uppercased, the rest lowercased.
    pub fn capitalize(self) -> Self {
        self.transform(|s| {
            let mut r = s.to_vec();
            if let Some((first, rest)) = r.split_first_mut() {
                first.make_ascii_uppercase();
                rest.make_ascii_lowercase();
            }
            r
        })
    }
    /// Title case of each part (word starts after whitespace).
    pub fn titlecase(self) -> Self {
        self.transform(|s| {
            let mut r = s.to_vec();
            let mut next = true;
            for c in r.iter_mut() {
                if is_space(*c) {
                    next = true;
                } else if next {
                    c.make_ascii_uppercase();
                    next = false;
                } else {
                    c.make_ascii_lowercase();
                }
            }
            r
        })
    }
    /// Strips whitespace (or `chars`) on the left and/or right, across parts,
    /// dropping parts that become empty.
    pub fn strip(mut self, left: bool, right: bool, chars: Option<&[u8]>) -> Self {
        let matches = |c: u8| match chars {
            Some(cs) => cs.contains(&c),
            None => is_space(c),
        };
        let strip_part = |s: &[u8], l: bool, r: bool| -> Vec<u8> {
            let mut start = 0;
            let mut end = s.len();
            if l {
                while start < end && matches(s[start]) {
                    start += 1;
                }
            }
            if r {
                while end > start && matches(s[end - 1]) {
                    end -= 1;
                }
            }
            s[start..end].to_vec()
        };
        if self.parts.is_empty() {
            return self;
        }
        if left {
            let i = 0;
            while i < self.parts.len() {
                self.parts[i].val = strip_part(&self.parts[i].val, true, false);
                if self.parts[i].val.is_empty() {
                    self.parts.remove(i);
                    continue;
                }
                break;
            }
        }
        if right {
            let mut i = self.parts.len();
            while i > 0 {
                i -= 1;
                self.parts[i].val = strip_part(&self.parts[i].val, false, true);
                if self.parts[i].val.is_empty() {
                    self.parts.remove(i);
                    continue;
                }
                break;
            }
        }
        self
    }
}
