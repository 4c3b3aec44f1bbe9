//! Ollama's request `options`, decoded as `api.Options.FromMap` does and
//! defaulted as `api.DefaultOptions` (Ollama v0.33.0-rc2; an older release's
//! defaults through [`Options::defaults_of`]).

use crate::error::Error;
use serde_json::{Map, Value};

/// The options generation uses. Ollama's runner-only options (`num_batch`,
/// `num_gpu`, `main_gpu`, `use_mmap`, `num_thread`, `draft_num_predict`)
/// are type-checked and otherwise ignored, except `num_thread`, which sets
/// the native thread count.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// `num_ctx`: the context window in tokens.
    pub num_ctx: i64,
    /// `num_predict`: tokens to generate; -1 until EOS or the context is
    /// full; 0 renders and counts without running the model.
    pub num_predict: i64,
    /// `num_keep`: prompt tokens kept when the prompt is shifted.
    pub num_keep: i64,
    /// `seed`: -1 draws a random seed.
    pub seed: i64,
    /// `temperature`; 0 or less is greedy.
    pub temperature: f32,
    /// `top_k`; 0 or less disables it.
    pub top_k: i64,
    /// `top_p`; 1 or more disables it.
    pub top_p: f32,
    /// `min_p`; 0 or less disables it.
    pub min_p: f32,
    /// `typical_p`; 1 or more disables it.
    pub typical_p: f32,
    /// `repeat_last_n`: the penalty window; -1 is the whole context, 0
    /// disables the penalties.
    pub repeat_last_n: i64,
    /// `repeat_penalty`.
    pub repeat_penalty: f32,
    /// `presence_penalty`.
    pub presence_penalty: f32,
    /// `frequency_penalty`.
    pub frequency_penalty: f32,
    /// `stop` strings.
    pub stop: Vec<String>,
    /// `num_thread`; 0 lets the runtime decide.
    pub num_thread: i64,
}

impl Options {
    /// `api.DefaultOptions()` with `num_ctx` given (Ollama picks it from
    /// `OLLAMA_CONTEXT_LENGTH` or the machine's memory).
    pub fn defaults(num_ctx: i64) -> Options {
        Options {
            num_ctx,
            num_predict: -1,
            num_keep: 4,
            seed: -1,
            temperature: 0.8,
            top_k: 40,
            top_p: 0.9,
            min_p: 0.0,
            typical_p: 1.0,
            repeat_last_n: 64,
            repeat_penalty: 1.0,
            presence_penalty: 0.0,
            frequency_penalty: 0.0,
            stop: Vec::new(),
            num_thread: 0,
        }
    }

    /// `api.DefaultOptions()` as `release` has it: before
    /// `repeat_penalty_default_1` (Ollama 0.32.10-rc0) `repeat_penalty` is
    /// 1.1.
    pub fn defaults_of(num_ctx: i64, release: &changes::Release) -> Options {
        let mut o = Options::defaults(num_ctx);
        if !release.has(&changes::ollama::REPEAT_PENALTY_DEFAULT_1) {
            o.repeat_penalty = 1.1;
        }
        o
    }

    /// Applies a request's `options` object over `self`, with
    /// `Options.FromMap`'s type rules and error messages. Unknown keys are
    /// ignored (Ollama logs a warning); `null` values leave the default.
    pub fn apply(&mut self, map: &Map<String, Value>) -> Result<(), Error> {
        for (key, val) in map {
            if val.is_null() {
                continue;
            }
            let Some(kind) = kind_of(key) else { continue };
            match kind {
                Kind::Int => {
                    let n = int(val).ok_or_else(|| {
                        Error::Options(format!("option {key:?} must be of type integer"))
                    })?;
                    match key.as_str() {
                        "num_ctx" => self.num_ctx = n,
                        "num_predict" => self.num_predict = n,
                        "num_keep" => self.num_keep = n,
                        "seed" => self.seed = n,
                        "top_k" => self.top_k = n,
                        "repeat_last_n" => self.repeat_last_n = n,
                        "num_thread" => self.num_thread = n,
                        _ => {}
                    }
                }
                Kind::IntPtr => {
                    if int(val).is_none() {
                        return Err(Error::Options(format!(
                            "option {key:?} must be of type integer"
                        )));
                    }
                }
                Kind::Float => {
                    let f = val.as_f64().filter(|_| val.is_number()).ok_or_else(|| {
                        Error::Options(format!("option {key:?} must be of type float32"))
                    })? as f32;
                    match key.as_str() {
                        "temperature" => self.temperature = f,
                        "top_p" => self.top_p = f,
                        "min_p" => self.min_p = f,
                        "typical_p" => self.typical_p = f,
                        "repeat_penalty" => self.repeat_penalty = f,
                        "presence_penalty" => self.presence_penalty = f,
                        "frequency_penalty" => self.frequency_penalty = f,
                        _ => {}
                    }
                }
                Kind::BoolPtr => {
                    if !val.is_boolean() {
                        return Err(Error::Options(format!(
                            "option {key:?} must be of type boolean"
                        )));
                    }
                }
                Kind::Strings => {
                    let arr = val.as_array().ok_or_else(|| {
                        Error::Options(format!("option {key:?} must be of type array"))
                    })?;
                    let mut out = Vec::with_capacity(arr.len());
                    for item in arr {
                        out.push(item.as_str().map(str::to_owned).ok_or_else(|| {
                            Error::Options(format!("option {key:?} must be of an array of strings"))
                        })?);
                    }
                    self.stop = out;
                }
            }
        }
        Ok(())
    }

    /// The options as Ollama would echo them (JSON tags, in struct order).
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "num_keep": self.num_keep,
            "seed": self.seed,
            "num_predict": self.num_predict,
            "top_k": self.top_k,
            "top_p": self.top_p,
            "min_p": self.min_p,
            "typical_p": self.typical_p,
            "repeat_last_n": self.repeat_last_n,
            "temperature": self.temperature,
            "repeat_penalty": self.repeat_penalty,
            "presence_penalty": self.presence_penalty,
            "frequency_penalty": self.frequency_penalty,
            "stop": self.stop,
            "num_ctx": self.num_ctx,
            "num_thread": self.num_thread,
        })
    }
}

enum Kind {
    Int,
    IntPtr,
    Float,
    BoolPtr,
    Strings,
}

fn kind_of(key: &str) -> Option<Kind> {
    Some(match key {
        "num_keep" | "seed" | "num_predict" | "top_k" | "repeat_last_n" | "num_ctx"
        | "num_batch" | "num_gpu" | "num_thread" | "draft_num_predict" => Kind::Int,
        "main_gpu" => Kind::IntPtr,
        "top_p" | "min_p" | "typical_p" | "temperature" | "repeat_penalty" | "presence_penalty"
        | "frequency_penalty" => Kind::Float,
        "use_mmap" => Kind::BoolPtr,
        "stop" => Kind::Strings,
        _ => return None,
    })
}

/// Go's `int64(float64)` of a decoded JSON number (truncation toward zero;
/// Go's conversion of an out-of-range float is implementation-defined, here
/// it saturates).
fn int(v: &Value) -> Option<i64> {
    if let Some(i) = v.as_i64() {
        return Some(i);
    }
    if !v.is_number() {
        return None;
    }
    v.as_f64().map(|f| f.trunc() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(json: &str) -> Result<Options, Error> {
        let mut o = Options::defaults(4096);
        let v: Value = serde_json::from_str(json).unwrap();
        o.apply(v.as_object().unwrap())?;
        Ok(o)
    }

    #[test]
    fn defaults_are_ollamas() {
        let o = Options::defaults(4096);
        assert_eq!(
            (o.temperature, o.top_k, o.top_p, o.min_p),
            (0.8, 40, 0.9, 0.0)
        );
        assert_eq!(
            (o.repeat_last_n, o.repeat_penalty, o.num_predict, o.seed),
            (64, 1.0, -1, -1)
        );
    }

    #[test]
    fn a_release_before_0_32_10_rc0_penalizes_repeats_by_default() {
        let release = |t: &str| changes::Release::parse(t).unwrap();
        for (tag, want) in [
            ("0.32.8-rc0", 1.1),
            ("0.32.9", 1.1),
            ("0.32.10-rc0", 1.0),
            ("0.33.0-rc2", 1.0),
        ] {
            let o = Options::defaults_of(4096, &release(tag));
            assert_eq!(o.repeat_penalty, want, "{tag}");
            // the rest are the newest release's
            assert_eq!(
                Options {
                    repeat_penalty: 1.0,
                    ..o
                },
                Options::defaults(4096)
            );
        }
        // a request's own value wins over either default
        let mut o = Options::defaults_of(4096, &release("0.32.9"));
        let v: Value = serde_json::from_str(r#"{"repeat_penalty": 1.0}"#).unwrap();
        o.apply(v.as_object().unwrap()).unwrap();
        assert_eq!(o.repeat_penalty, 1.0);
    }

    #[test]
    fn numbers_decode_like_from_map() {
        let o = apply(r#"{"num_predict": 12.9, "temperature": 0, "seed": 42, "stop": ["\n"], "bogus": 1, "top_k": null}"#).unwrap();
        assert_eq!(o.num_predict, 12);
        assert_eq!(o.temperature, 0.0);
        assert_eq!(o.seed, 42);
        assert_eq!(o.stop, vec!["\n".to_string()]);
        assert_eq!(o.top_k, 40);
    }

    #[test]
    fn type_errors_are_ollamas() {
        let cases = [
            (
                r#"{"num_predict": "5"}"#,
                r#"option "num_predict" must be of type integer"#,
            ),
            (
                r#"{"temperature": true}"#,
                r#"option "temperature" must be of type float32"#,
            ),
            (r#"{"stop": "x"}"#, r#"option "stop" must be of type array"#),
            (
                r#"{"stop": [1]}"#,
                r#"option "stop" must be of an array of strings"#,
            ),
            (
                r#"{"use_mmap": 1}"#,
                r#"option "use_mmap" must be of type boolean"#,
            ),
        ];
        for (json, want) in cases {
            assert_eq!(apply(json).unwrap_err().to_string(), want, "{json}");
        }
    }
}
