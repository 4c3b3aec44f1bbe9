//! Pre-tokenizers: `tokenizer.ggml.pre` names, the settings each name
//! implies (`llama_vocab::impl::load`), and the pattern list each type runs
//! (`llm_tokenizer_bpe`'s constructor), as in llama.cpp b10488.

/// llama.cpp's `llama_vocab_pre_type`, for the types a name can select.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
#[non_exhaustive]
pub enum PreType {
    Afmoe,
    Bailingmoe,
    Bloom,
    Chameleon,
    Chatglm4,
    Codeshell,
    CommandR,
    Dbrx,
    Deepseek3Llm,
    DeepseekCoder,
    DeepseekLlm,
    Default,
    Exaone,
    ExaoneMoe,
    Falcon,
    Gemma4,
    Gpt2,
    Gpt3Finnish,
    Gpt4o,
    GraniteDocling,
    GraniteEmbMulti,
    Grok2,
    Hunyuan,
    HunyuanDense,
    HyV4,
    Jais,
    Jais2,
    JoyaiLlm,
    KimiK2,
    Laguna,
    Llama3,
    Mellum2,
    Minerva,
    Minicpm5,
    MinimaxM2,
    Mpt,
    Olmo,
    Poro,
    Qwen2,
    Qwen35,
    Refact,
    SarvamMoe,
    SeedCoder,
    Smaug,
    Smollm,
    SolarOpen,
    Spark25,
    Stablelm2,
    Starcoder,
    Superbpe,
    Tekken,
    TinyAya,
    Trillion,
    Ufakzeka,
    Viking,
    Whitespace,
    Youtu,
}

/// What a `tokenizer.ggml.pre` name sets, beyond the BPE defaults.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PreSettings {
    pub clean_spaces_off: bool,
    pub ignore_merges: bool,
    pub add_bos: bool,
    pub add_sep: bool,
    pub bos_null: bool,
    pub escape_whitespaces: bool,
    pub lowercase_off: bool,
}

/// The pre-tokenizer type and settings of a name, or `None` for a name
/// llama.cpp does not know (`unknown pre-tokenizer type: '<name>'`). An
/// empty name is the default type (llama.cpp warns).
pub(crate) fn from_name(name: &str) -> Option<(PreType, PreSettings)> {
    let s = PreSettings::default();
    let no_clean = PreSettings {
        clean_spaces_off: true,
        ..s
    };
    Some(match name {
        "" | "default" => (PreType::Default, s),
        "minicpm5" => (
            PreType::Minicpm5,
            PreSettings {
                ignore_merges: true,
                ..s
            },
        ),
        "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "falcon-h1" | "pixtral" | "midm-2.0"
        | "lfm2" | "jina-v5-nano" => (
            PreType::Llama3,
            PreSettings {
                ignore_merges: true,
                add_bos: true,
                ..s
            },
        ),
        "deepseek-llm" => (PreType::DeepseekLlm, no_clean),
        "deepseek-coder" => (PreType::DeepseekCoder, no_clean),
        "deepseek-v3" => (PreType::Deepseek3Llm, no_clean),
        "spark2_5" => (PreType::Spark25, no_clean),
        "youtu" => (
            PreType::Youtu,
            PreSettings {
                ignore_merges: true,
                ..no_clean
            },
        ),
        "falcon" => (PreType::Falcon, s),
        "mpt" => (PreType::Mpt, s),
        "starcoder" => (PreType::Starcoder, s),
        "gpt-2" | "phi-2" | "jina-es" | "jina-de" | "gigachat" | "jina-v2-es" | "jina-v2-de"
        | "a.x-4.0" | "mellum" | "modern-bert" => (PreType::Gpt2, s),
        "jais-2" => (PreType::Jais2, s),
        "gemma4" | "granite-embed-multi-311m" => (
            PreType::Gemma4,
            PreSettings {
                escape_whitespaces: true,
                ..s
            },
        ),
        "sarvam-moe" => (
            PreType::SarvamMoe,
            PreSettings {
                escape_whitespaces: true,
                ..no_clean
            },
        ),
        "jina-v1-en" | "jina-v2-code" | "roberta-bpe" => {
            (PreType::Gpt2, PreSettings { add_sep: true, ..s })
        }
        "whitespace" => (
            PreType::Whitespace,
            PreSettings {
                lowercase_off: true,
                ..s
            },
        ),
        "refact" => (PreType::Refact, s),
        "command-r" => (PreType::CommandR, no_clean),
        "qwen2" | "deepseek-r1-qwen" | "kormo" | "f2llmv2" => (PreType::Qwen2, no_clean),
        "qwen35" => (PreType::Qwen35, no_clean),
        "stablelm2" => (PreType::Stablelm2, s),
        "olmo" => (PreType::Olmo, s),
        "dbrx" => (PreType::Dbrx, s),
        "smaug-bpe" => (PreType::Smaug, s),
        "poro-chat" => (PreType::Poro, no_clean),
        "chatglm-bpe" => (
            PreType::Chatglm4,
            PreSettings {
                bos_null: true,
                ..s
            },
        ),
        "glm4" | "glm5" => (
            PreType::Chatglm4,
            PreSettings {
                bos_null: true,
                ignore_merges: true,
                ..s
            },
        ),
        "viking" => (PreType::Viking, no_clean),
        "jais" => (PreType::Jais, s),
        "tekken" => (
            PreType::Tekken,
            PreSettings {
                ignore_merges: true,
                add_bos: true,
                ..no_clean
            },
        ),
        "smollm" => (PreType::Smollm, no_clean),
        "codeshell" => (PreType::Codeshell, s),
        "bloom" => (PreType::Bloom, s),
        "gpt3-finnish" => (PreType::Gpt3Finnish, s),
        "exaone" => (PreType::Exaone, s),
        "exaone4" => (PreType::Gpt2, s),
        "exaone-moe" => (PreType::ExaoneMoe, s),
        "chameleon" => (
            PreType::Chameleon,
            PreSettings {
                add_bos: true,
                ..no_clean
            },
        ),
        "minerva-7b" => (PreType::Minerva, s),
        "megrez" => (PreType::Qwen2, s),
        "gpt-4o" | "llama4" | "kanana2" | "talkie" => (PreType::Gpt4o, no_clean),
        "granite-embed-multi-97m" => (
            PreType::GraniteEmbMulti,
            PreSettings {
                ignore_merges: true,
                ..no_clean
            },
        ),
        "tiny_aya" | "cohere2moe" => (PreType::TinyAya, no_clean),
        "superbpe" => (PreType::Superbpe, no_clean),
        "trillion" => (PreType::Trillion, no_clean),
        "granite-docling" => (PreType::GraniteDocling, no_clean),
        "bailingmoe" | "bailingmoe2" | "llada-moe" => (PreType::Bailingmoe, no_clean),
        "seed-coder" => (PreType::SeedCoder, no_clean),
        "hunyuan" => (PreType::Hunyuan, no_clean),
        "hunyuan-dense" => (PreType::HunyuanDense, no_clean),
        "hy_v4" => (PreType::HyV4, no_clean),
        "joyai-llm" => (PreType::JoyaiLlm, no_clean),
        "kimi-k2" => (PreType::KimiK2, no_clean),
        "ufakzeka" => (PreType::Ufakzeka, no_clean),
        "grok-2" => (PreType::Grok2, no_clean),
        "afmoe" => (PreType::Afmoe, no_clean),
        "laguna" => (PreType::Laguna, no_clean),
        "minimax-m2" => (PreType::MinimaxM2, no_clean),
        "solar-open" => (PreType::SolarOpen, no_clean),
        "mellum2" => (PreType::Mellum2, s),
        _ => return None,
    })
}

/// The pattern list of a type and whether words are GPT-2 byte-encoded.
pub(crate) fn patterns(pre: PreType) -> (&'static [&'static str], bool) {
    match pre {
        PreType::Llama3 => (
            &[
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Jais2 => (
            &[
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s{512}(?!\\S)|\\s{256}(?!\\S)|\\s{128}(?!\\S)|\\s{64}(?!\\S)|\\s{32}(?!\\S)|\\s{16}(?!\\S)|\\s{8}(?!\\S)|\\s{4}(?!\\S)|\\s{1,2}(?!\\S)|\\s{1}",
            ],
            true,
        ),
        PreType::Dbrx | PreType::Smaug => (
            &[
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::DeepseekLlm => (
            &[
                "[\r\n]",
                "\\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+",
                "\\s?[!-/:-~！-／：-～‘-‟　-。]+",
                "\\s+$",
                "[一-龥ࠀ-一가-퟿]+",
                "\\p{N}+",
            ],
            true,
        ),
        PreType::Deepseek3Llm | PreType::HunyuanDense | PreType::JoyaiLlm | PreType::HyV4 => (
            &[
                "\\p{N}{1,3}",
                "[一-龥぀-ゟ゠-ヿ]+",
                "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Spark25 => (
            &[
                "\\p{N}{1,3}",
                "[一-龥぀-ゟ゠-ヿ]+",
                "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+|[\r\n]|\\s+(?!\\S)|\\s+",
                "\\p{N}",
            ],
            true,
        ),
        PreType::Youtu => (
            &[
                "[가-힣ㄱ-ㆎ]+|[！…“”‘’—：；，、-〿︰-﹏]+|[ㄅ-ㄯ]+|[一-龥぀-ゟ゠-ヿ]+",
                "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::DeepseekCoder => (
            &[
                "[\r\n]",
                "\\s?\\p{L}+",
                "\\s?\\p{P}+",
                "[一-龥ࠀ-一가-퟿]+",
                "\\p{N}",
            ],
            true,
        ),
        PreType::Falcon => (
            &[
                "[\\p{P}\\$\\+<=>\\^~\\|`]+",
                "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)",
                "[0-9][0-9][0-9]",
            ],
            true,
        ),
        PreType::Starcoder | PreType::Refact | PreType::CommandR | PreType::Smollm | PreType::Codeshell | PreType::Exaone | PreType::Minerva | PreType::Mellum2 => (
            &[
                "\\p{N}",
                "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)",
            ],
            true,
        ),
        PreType::Gpt2 | PreType::Mpt | PreType::Olmo | PreType::Jais | PreType::Trillion | PreType::GraniteDocling => (
            &[
                "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)",
            ],
            true,
        ),
        PreType::Stablelm2 | PreType::Qwen2 | PreType::Hunyuan | PreType::SolarOpen => (
            &[
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Qwen35 => (
            &[
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?[\\p{L}\\p{M}]+|\\p{N}| ?[^\\s\\p{L}\\p{M}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Poro | PreType::Bloom | PreType::Gpt3Finnish => (
            &[
                " ?[^(\\s|.,!?…。，、।۔،)]+",
            ],
            true,
        ),
        PreType::Chatglm4 => (
            &[
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Viking => (
            &[
                " ?[^(\\s|.,!?…。，、।۔،)]+",
                "\\p{N}",
            ],
            true,
        ),
        PreType::Tekken => (
            &[
                "[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}])([^a-z]))*((?=[\\p{L}])([^A-Z]))+|[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}])([^a-z]))+((?=[\\p{L}])([^A-Z]))*|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Chameleon => (
            &[
                "<sentinel:[0-9]+>",
                "(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z",
                "([\\t\\n]|    |  )",
                "\\p{N}",
                "[\\p{P}!-/:-@\\[-`{-~]",
                "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)",
            ],
            true,
        ),
        PreType::Gpt4o | PreType::MinimaxM2 => (
            &[
                "[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}])([^a-z]))*((?=[\\p{L}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}])([^a-z]))+((?=[\\p{L}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::GraniteEmbMulti => (
            &[
                "[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}\\p{M}])([^a-z]))*((?=[\\p{L}\\p{M}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}\\p{M}])([^a-z]))+((?=[\\p{L}\\p{M}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::TinyAya => (
            &[
                "\\d{1,3}(?=(?:\\d{3})*\\b)",
                "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::KimiK2 => (
            &[
                "\\p{Han}+",
            ],
            true,
        ),
        PreType::Superbpe => (
            &[
                "\\p{N}+",
                "(?=(\\d{3})+(?!\\d))",
            ],
            true,
        ),
        PreType::Bailingmoe => (
            &[
                "'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::SeedCoder => (
            &[
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1}| ?[^\\s\\p{L}\\p{N}\\r\\n]+|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Ufakzeka => (
            &[
                "[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Grok2 => (
            &[
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Afmoe => (
            &[
                "\\p{AFMoE_digits}",
                "[一-鿿㐀-䶿豈-﫿぀-ゟ゠-ヿ･-ﾟ⼀-⿟เ-๿຀-໿ក-៿က-႟ꩠ-ꩿꧠ-꧿가-힯ᄀ-ᇿ]+",
                "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\\r\\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Laguna => (
            &[
                "[^\\n]+|[\\n]+",
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::ExaoneMoe => (
            &[
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?(?:\\p{L}\\p{M}*(?: \\p{L}\\p{M}*)*)+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]?|\\s*[\\r\\n]|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Gemma4 => (
            &[
                "[^\\n]+|[\\n]+",
            ],
            false,
        ),
        PreType::SarvamMoe => (
            &[
                "[^\\n]+|[\\n]+",
            ],
            false,
        ),
        PreType::Minicpm5 => (
            &[
                "\\p{N}{1,3}",
                "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}+| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
            ],
            true,
        ),
        PreType::Whitespace => (
            &[
                "\\S+",
            ],
            false,
        ),
        _ => (
            &[
                "[\\p{P}\\$\\+<=>\\^~\\|]+",
                "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)",
                "\\p{N}+",
                "[0-9][0-9][0-9]",
            ],
            true,
        ),
    }
}
