//! `template.Named`: the built-in template Ollama picks at `ollama create`
//! for a GGUF chat template: the closest entry of `index.json` by
//! Levenshtein distance (agnivade/levenshtein v1.1.1), if under 100.

/// One entry of Ollama's `template/index.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownTemplate {
    /// Built-in template name (`chatml`, `llama3-instruct`...).
    pub name: String,
    /// The Jinja chat template it stands for.
    pub template: String,
}

/// The match `Named` returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedMatch {
    /// Index into the known list.
    pub index: usize,
    /// Template name.
    pub name: String,
    /// Levenshtein distance.
    pub distance: usize,
}

/// Levenshtein distance over Unicode scalar values; `None` when it is at
/// least `bound` (the computation stops early then).
pub fn distance_below(a: &str, b: &str, bound: usize) -> Option<usize> {
    if a == b {
        return (bound > 0).then_some(0);
    }
    let mut s1: Vec<char> = a.chars().collect();
    let mut s2: Vec<char> = b.chars().collect();
    if s1.is_empty() || s2.is_empty() {
        let d = s1.len().max(s2.len());
        return (d < bound).then_some(d);
    }
    if s1.len() > s2.len() {
        std::mem::swap(&mut s1, &mut s2);
    }
    // The length difference is a lower bound.
    if s2.len() - s1.len() >= bound {
        return None;
    }
    let mut row: Vec<usize> = (0..=s1.len()).collect();
    for (i, &c2) in s2.iter().enumerate() {
        let mut prev = i + 1;
        let mut row_min = prev;
        for j in 1..=s1.len() {
            let current = if c2 == s1[j - 1] {
                row[j - 1]
            } else {
                (row[j - 1] + 1).min(prev + 1).min(row[j] + 1)
            };
            row[j - 1] = prev;
            row_min = row_min.min(current);
            prev = current;
        }
        row[s1.len()] = prev;
        if row_min >= bound {
            return None;
        }
    }
    let d = row[s1.len()];
    (d < bound).then_some(d)
}

/// `Named(s)`: the first known template with the smallest distance, if
/// that distance is under 100; otherwise Ollama's error text.
pub fn named(s: &str, known: &[KnownTemplate]) -> Result<NamedMatch, String> {
    let mut best: Option<NamedMatch> = None;
    for (index, k) in known.iter().enumerate() {
        let bound = best.as_ref().map_or(100, |b| b.distance);
        if let Some(distance) = distance_below(s, &k.template, bound) {
            best = Some(NamedMatch {
                index,
                name: k.name.clone(),
                distance,
            });
        }
    }
    best.ok_or_else(|| "no matching template found".to_string())
}

/// Parses Ollama's `index.json` (`[{"template": ..., "name": ...}]`).
pub fn parse_index(json: &str) -> Result<Vec<KnownTemplate>, String> {
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    v.as_array()
        .ok_or("index.json must be an array")?
        .iter()
        .map(|e| {
            Ok(KnownTemplate {
                name: e["name"].as_str().ok_or("entry without name")?.to_string(),
                template: e["template"]
                    .as_str()
                    .ok_or("entry without template")?
                    .to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance_below("kitten", "sitting", 100), Some(3));
        assert_eq!(distance_below("", "abc", 100), Some(3));
        assert_eq!(distance_below("héllo", "hello", 100), Some(1));
        assert_eq!(distance_below("aaaa", "bbbb", 3), None);
    }
}
