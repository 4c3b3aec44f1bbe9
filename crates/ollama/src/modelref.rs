//! Ollama's model references (internal/modelref): a name's `:cloud` and
//! `:local` source suffixes, the legacy `-cloud` tag form, and the names
//! `ollama pull` uses for cloud models.

/// Where a reference asks the model to come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// No suffix.
    Unspecified = 0,
    /// `:local`.
    Local = 1,
    /// `:cloud`, or a tag ending in `-cloud`.
    Cloud = 2,
}

/// `ParsedRef`: the reference trimmed, without its source suffix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ref {
    /// The reference as given, trimmed.
    pub original: String,
    /// Without the source suffix.
    pub base: String,
    /// The source it names.
    pub source: Source,
}

/// `parseSourceSuffix`.
fn source_suffix(raw: &str) -> (String, Source, bool) {
    if let Some(idx) = raw.rfind(':') {
        let suffix_raw = raw[idx + 1..].trim();
        let suffix = suffix_raw.to_lowercase();
        match suffix.as_str() {
            "cloud" => return (raw[..idx].to_string(), Source::Cloud, true),
            "local" => return (raw[..idx].to_string(), Source::Local, true),
            _ => {}
        }
        if !suffix_raw.contains('/') && suffix.ends_with("-cloud") {
            let keep = suffix_raw.len() - "-cloud".len();
            return (
                format!("{}{}", &raw[..=idx], &suffix_raw[..keep]),
                Source::Cloud,
                true,
            );
        }
    }
    (raw.to_string(), Source::Unspecified, false)
}

/// `ParseRef`: Ollama's error texts for an empty reference and for one
/// that names both sources.
pub fn parse_ref(raw: &str) -> Result<Ref, String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err("model is required".into());
    }
    let (base, source, explicit) = source_suffix(raw);
    if explicit && source_suffix(&base).2 {
        return Err(format!(
            "use either :local or :cloud, not both: {}",
            gotmpl::gofmt::quote(raw)
        ));
    }
    Ok(Ref {
        original: raw.to_string(),
        base,
        source,
    })
}

/// `StripCloudSourceTag`: the base of a cloud reference, else the
/// reference trimmed.
pub fn strip_cloud_source_tag(raw: &str) -> (String, bool) {
    match parse_ref(raw) {
        Ok(r) if r.source == Source::Cloud => (r.base, true),
        _ => (raw.trim().to_string(), false),
    }
}

/// `HasExplicitTag`: a `:` after the last `/`.
pub fn has_explicit_tag(name: &str) -> bool {
    name.rfind(':').map(|i| i as isize).unwrap_or(-1)
        > name.rfind('/').map(|i| i as isize).unwrap_or(-1)
}

/// `NormalizePullName`: the name `ollama pull` asks for, and whether it is
/// a cloud model (`m:cloud` → `m:cloud`, `m:8b:cloud` → `m:8b-cloud`).
pub fn normalize_pull_name(raw: &str) -> Result<(String, bool), String> {
    let r = parse_ref(raw)?;
    if r.source != Source::Cloud {
        return Ok((r.base, false));
    }
    let name = if has_explicit_tag(&r.base) {
        format!("{}-cloud", r.base)
    } else {
        format!("{}:cloud", r.base)
    };
    Ok((name, true))
}
