//! Ollama's `llama/compat` layer, the part that touches the tokenizer.
//!
//! Ollama's llama-server build rewrites the metadata of GGUF files published
//! in its registry before llama.cpp loads them
//! (`llama/compat/llama-ollama-compat.cpp`, `translate_metadata`). Some of
//! those rewrites change which tokenizer runs: an Ollama gemma4 file says
//! `tokenizer.ggml.model = llama` (SPM) and is tokenized as `gemma4` (BPE);
//! gpt-oss files get the `gpt-4o` pre-tokenizer; Llama 3 files without a
//! pre-tokenizer get `llama-bpe`. This module computes the same rewrites
//! as an overlay on the file's metadata; tensors are only looked at, by
//! name and shape, as the detectors do.

use gguf_meta::{GgufFile, Value};

/// Metadata rewrites to apply on top of a file.
#[derive(Clone, Debug, Default)]
pub(crate) struct Overlay {
    /// String keys set (or replaced).
    pub strings: Vec<(String, Vec<u8>)>,
    /// `u32` keys set (or replaced).
    pub u32s: Vec<(String, u32)>,
    /// Tokens, scores and types truncated to this many entries.
    pub vocab_limit: Option<usize>,
    /// gemma3n: `<0xXX>` tokens become BYTE and `<unused...>` NORMAL.
    pub gemma3n_types: bool,
    /// `tokenizer.ggml.precompiled_charsmap` decoded from an array of
    /// one-character base64 strings (`handle_snowflake_arctic_embed2`).
    pub charsmap: Option<Vec<u8>>,
    /// `tokenizer.chat_template` injected where the file has none
    /// (`handle_gemma3`); llama-server then renders with it.
    pub chat_template: Option<&'static str>,
    /// The handlers that applied, by Ollama's name (`handle_gemma4`, ...).
    pub applied: Vec<&'static str>,
}

impl Overlay {
    pub fn string(&self, key: &str) -> Option<&[u8]> {
        self.strings
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| &v[..])
    }

    pub fn u32(&self, key: &str) -> Option<u32> {
        self.u32s
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| *v)
    }

    fn set_str(&mut self, key: &str, value: &str) {
        self.strings
            .push((key.to_string(), value.as_bytes().to_vec()));
    }

    fn set_u32(&mut self, key: &str, value: u32) {
        self.u32s.push((key.to_string(), value));
    }
}

/// The file as the handlers see it: the original values under the overlay.
struct View<'a> {
    file: &'a GgufFile,
    ov: Overlay,
}

impl View<'_> {
    fn has_key(&self, key: &str) -> bool {
        self.ov.string(key).is_some() || self.ov.u32(key).is_some() || self.file.get(key).is_some()
    }

    /// A string key's value (`gguf_get_val_str`), `None` when missing or
    /// not a string.
    fn str_value(&self, key: &str) -> Option<Vec<u8>> {
        if let Some(v) = self.ov.string(key) {
            return Some(v.to_vec());
        }
        match self.file.get(key)? {
            Value::String(s) => Some(c_str(s.as_bytes()).to_vec()),
            _ => None,
        }
    }

    fn str_equals(&self, key: &str, want: &str) -> bool {
        self.str_value(key).is_some_and(|v| v == want.as_bytes())
    }

    fn str_contains(&self, key: &str, needle: &str) -> bool {
        self.str_value(key)
            .is_some_and(|v| v.windows(needle.len()).any(|w| w == needle.as_bytes()))
    }

    /// `string_kv_missing_or_default`.
    fn missing_or_default(&self, key: &str) -> bool {
        if !self.has_key(key) {
            return true;
        }
        match self.str_value(key) {
            Some(v) => v.is_empty() || v == b"default",
            None => false,
        }
    }

    /// `get_u32_kv`: a u32, or a non-negative i32.
    fn get_u32(&self, key: &str) -> Option<u32> {
        if let Some(v) = self.ov.u32(key) {
            return Some(v);
        }
        match self.file.get(key)? {
            Value::U32(v) => Some(*v),
            Value::I32(v) if *v >= 0 => Some(*v as u32),
            _ => None,
        }
    }

    /// `token_at_equals`.
    fn token_at(&self, idx: usize, want: &str) -> bool {
        match self.file.get("tokenizer.ggml.tokens") {
            Some(Value::Array(gguf_meta::Array::String(t))) => t
                .get(idx)
                .is_some_and(|s| c_str(s.as_bytes()) == want.as_bytes()),
            _ => false,
        }
    }

    fn any_tensor_with_prefix(&self, prefix: &str) -> bool {
        self.file
            .tensors()
            .iter()
            .any(|t| t.name.starts_with(prefix))
    }

    /// A tensor's `ne[1]` (its second GGUF dimension).
    fn rows(&self, name: &str) -> Option<u64> {
        self.file
            .tensor(name)
            .map(|t| t.shape.get(1).copied().unwrap_or(1))
    }
}

fn c_str(bytes: &[u8]) -> &[u8] {
    match bytes.iter().position(|&b| b == 0) {
        Some(i) => &bytes[..i],
        None => bytes,
    }
}

/// The tokenizer-relevant rewrites Ollama's `translate_metadata` makes to
/// this file, in its dispatch order.
pub(crate) fn ollama_overlay(file: &GgufFile) -> Overlay {
    let mut v = View {
        file,
        ov: Overlay::default(),
    };
    let arch = v.str_value("general.architecture").unwrap_or_default();
    let mut arch_name = String::from_utf8_lossy(&arch).into_owned();

    if arch_name == "gemma3" && file.tensor("dense.0.weight").is_some() {
        // handle_embeddinggemma: the arch changes, so gemma3's handler
        // does not run.
        v.ov.applied.push("handle_embeddinggemma");
        arch_name = "gemma-embedding".into();
        v.ov.set_str("general.architecture", "gemma-embedding");
    }
    if arch_name == "gemma3" && detect_gemma3(&v) {
        v.ov.applied.push("handle_gemma3");
        if !v.has_key("tokenizer.chat_template") {
            v.ov.chat_template = Some(GEMMA3_CHAT_TEMPLATE);
        }
        if let Some(rows) = v.rows("token_embd.weight") {
            limit(&mut v.ov, rows);
        }
    }
    if arch_name == "bert" {
        arctic_embed2_charsmap(&mut v);
    }
    if arch_name == "gemma3n" {
        let te = v.rows("token_embd.weight");
        let pe = v.rows("per_layer_token_embd.weight");
        if let (Some(te), Some(pe)) = (te, pe) {
            if te != pe {
                v.ov.applied.push("handle_gemma3n");
                v.ov.set_str("tokenizer.ggml.model", "llama");
                limit(&mut v.ov, pe);
                v.ov.gemma3n_types = true;
            }
        }
    }
    if arch_name == "gemma4"
        && (v.any_tensor_with_prefix("a.")
            || v.any_tensor_with_prefix("v.")
            || v.any_tensor_with_prefix("mm.")
            || v.any_tensor_with_prefix("model.vision_tower.")
            || v.str_equals("tokenizer.ggml.model", "llama"))
    {
        v.ov.applied.push("handle_gemma4");
        if v.str_equals("tokenizer.ggml.model", "llama") {
            v.ov.set_str("tokenizer.ggml.model", "gemma4");
        }
    }
    if arch_name == "gptoss" {
        v.ov.applied.push("handle_gptoss");
        arch_name = "gpt-oss".into();
        v.ov.set_str("general.architecture", "gpt-oss");
        v.ov.set_str("tokenizer.ggml.pre", "gpt-4o");
    }
    if arch_name == "lfm2"
        && file.tensor("output_norm.weight").is_some()
        && file.tensor("token_embd_norm.weight").is_none()
    {
        v.ov.applied.push("handle_lfm2");
        v.ov.set_str("tokenizer.ggml.pre", "lfm2");
    }
    if arch_name == "mistral3"
        && (v.any_tensor_with_prefix("v.")
            || v.any_tensor_with_prefix("mm.")
            || v.has_key("mistral3.rope.scaling.beta_fast")
            || v.has_key("mistral3.rope.scaling.mscale_all_dim")
            || v.has_key("mistral3.rope.scaling_beta"))
    {
        v.ov.applied.push("handle_mistral3");
        if v.missing_or_default("tokenizer.ggml.pre") {
            v.ov.set_str("tokenizer.ggml.pre", "tekken");
        }
    }
    if arch_name == "glm4moelite" {
        v.ov.applied.push("handle_glm4moelite");
        arch_name = "deepseek2".into();
        v.ov.set_str("general.architecture", "deepseek2");
        v.ov.set_str("tokenizer.ggml.pre", "glm4");
        fix_glm4moelite_eog(&mut v);
    }
    if arch_name == "llama" && detect_llama3_gap(&v) {
        v.ov.applied.push("handle_llama3_metadata");
        if v.missing_or_default("tokenizer.ggml.pre") {
            v.ov.set_str("tokenizer.ggml.pre", "llama-bpe");
        }
        if v.get_u32("tokenizer.ggml.eos_token_id")
            .is_none_or(|e| e == 128001)
        {
            v.ov.set_u32("tokenizer.ggml.eos_token_id", 128009);
        }
        if v.get_u32("tokenizer.ggml.eot_token_id")
            .is_none_or(|e| e == 128001)
        {
            v.ov.set_u32("tokenizer.ggml.eot_token_id", 128009);
        }
    }
    if arch_name == "glmocr" {
        v.ov.applied.push("handle_glmocr");
        v.ov.set_str("general.architecture", "glm4");
        if v.has_key("tokenizer.ggml.pre") && !v.str_equals("tokenizer.ggml.pre", "chatglm-bpe") {
            v.ov.set_str("tokenizer.ggml.pre", "chatglm-bpe");
        }
    }
    v.ov
}

/// The chat template `handle_gemma3` injects into Ollama-format gemma3
/// files that carry none (`kGemma3ChatTemplate`, Ollama v0.33.0-rc2
/// `llama/compat/llama-ollama-compat.cpp`): Gemma 3's instruction template,
/// one line, text only. Ollama's Go side never sees it (it reads the file
/// itself), but the llama-server it starts renders native chats with it.
pub const GEMMA3_CHAT_TEMPLATE: &str = concat!(
    "{{ bos_token }}",
    "{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}",
    "{% for message in messages %}",
    "{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}",
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}",
    "{% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}",
    "{{ '<start_of_turn>' + role + '\\n' + message['content'] | trim + '<end_of_turn>\\n' }}",
    "{% endfor %}",
    "{% if add_generation_prompt %}{{'<start_of_turn>model\\n'}}{% endif %}",
);

/// `handle_snowflake_arctic_embed2`: a `bert` file with the `t5`
/// tokenizer whose `precompiled_charsmap` is an array of one-character
/// strings (base64 text) gets it as the bytes they encode. Anything else
/// (an entry longer than one character, a character outside base64, an
/// empty result) leaves the key as it is, and llama.cpp's loader then
/// refuses its type.
fn arctic_embed2_charsmap(v: &mut View<'_>) {
    if !v.str_equals("tokenizer.ggml.model", "t5") {
        return;
    }
    let Some(Value::Array(gguf_meta::Array::String(items))) =
        v.file.get("tokenizer.ggml.precompiled_charsmap")
    else {
        return;
    };
    let mut encoded = Vec::with_capacity(items.len());
    for s in items {
        match c_str(s.as_bytes()) {
            [c] => encoded.push(*c),
            _ => return,
        }
    }
    if let Some(decoded) = decode_base64(&encoded).filter(|d| !d.is_empty()) {
        v.ov.applied.push("handle_snowflake_arctic_embed2");
        v.ov.charsmap = Some(decoded);
    }
}

/// `decode_base64` as Ollama's compat layer writes it: stops at the first
/// `=`, refuses any other character outside the alphabet, and drops the
/// bits of a trailing partial byte.
fn decode_base64(encoded: &[u8]) -> Option<Vec<u8>> {
    let mut value: u32 = 0;
    let mut bits: i32 = -8;
    let mut out = Vec::with_capacity(encoded.len() * 3 / 4);
    for &c in encoded {
        if c == b'=' {
            break;
        }
        let d = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        value = (value << 6) | u32::from(d);
        bits += 6;
        if bits >= 0 {
            out.push((value >> bits) as u8);
            bits -= 8;
        }
    }
    Some(out)
}

fn limit(ov: &mut Overlay, rows: u64) {
    let rows = usize::try_from(rows).unwrap_or(usize::MAX);
    ov.vocab_limit = Some(ov.vocab_limit.map_or(rows, |l| l.min(rows)));
}

/// `detect_ollama_gemma3`: one of the quirks of Ollama's converter.
fn detect_gemma3(v: &View<'_>) -> bool {
    v.has_key("gemma3.mm.tokens_per_image")
        || v.any_tensor_with_prefix("v.")
        || v.any_tensor_with_prefix("mm.")
        || v.has_key("gemma3.rope.global.freq_base")
        || v.has_key("gemma3.rope.local.freq_base")
        || v.has_key("tokenizer.ggml.add_padding_token")
        || v.has_key("tokenizer.ggml.add_unknown_token")
        || !v.has_key("gemma3.attention.layer_norm_rms_epsilon")
}

/// `detect_ollama_llama3_metadata_gap`.
fn detect_llama3_gap(v: &View<'_>) -> bool {
    if !v.token_at(128009, "<|eot_id|>") {
        return false;
    }
    let markers = v.token_at(128006, "<|start_header_id|>")
        || v.str_contains("tokenizer.chat_template", "<|start_header_id|>")
        || v.str_contains("tokenizer.chat_template", "<|eot_id|>");
    let missing_pre = v.missing_or_default("tokenizer.ggml.pre");
    let end_of_text_eos = v.get_u32("tokenizer.ggml.eos_token_id") == Some(128001);
    markers && (missing_pre || end_of_text_eos)
}

/// `fix_glm4moelite_eog_token_ids`: EOT and EOM from `eos_token_ids`.
fn fix_glm4moelite_eog(v: &mut View<'_>) {
    let need_eot = !v.has_key("tokenizer.ggml.eot_token_id");
    let need_eom = !v.has_key("tokenizer.ggml.eom_token_id");
    if !need_eot && !need_eom {
        return;
    }
    let ids: Vec<u32> = match v.file.get("tokenizer.ggml.eos_token_ids") {
        Some(Value::Array(gguf_meta::Array::I32(a))) => {
            a.iter().filter(|&&x| x >= 0).map(|&x| x as u32).collect()
        }
        Some(Value::Array(gguf_meta::Array::U32(a))) => a.clone(),
        _ => return,
    };
    if need_eot && ids.len() >= 2 {
        v.ov.set_u32("tokenizer.ggml.eot_token_id", ids[1]);
    }
    if need_eom && ids.len() >= 3 {
        v.ov.set_u32("tokenizer.ggml.eom_token_id", ids[2]);
    }
}
