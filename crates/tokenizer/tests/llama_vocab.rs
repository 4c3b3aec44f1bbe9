//! llama.cpp's own tokenizer tests (tests/test-tokenizer-0.cpp) on its own
//! vocabularies (models/ggml-vocab-*.gguf with their `.inp` and `.out`,
//! from the llama-cpp-python 0.3.36 sdist, which `scripts/fetch-upstream.sh`
//! downloads into the upstream cache): each input, tokenized with
//! `add_special = false` and `parse_special = false` as the test does,
//! must give the recorded ids, at each supported build (its loader and the
//! test data of its own tree). Llama 3's and Qwen 2's tests run on the
//! corpus files of the same vocabularies.

mod common;

use std::path::PathBuf;

/// `read_tests`: inputs separated by `\n__ggml_vocab_test__\n`, one output
/// line (space-separated ids) per input.
fn read_tests(inp: &str, out: &str) -> Vec<(String, Vec<u32>)> {
    let sep = "\n__ggml_vocab_test__\n";
    let mut inputs = Vec::new();
    let mut pos = 0;
    while pos < inp.len() {
        match inp[pos..].find(sep) {
            Some(n) => {
                inputs.push(inp[pos..pos + n].to_string());
                pos += n + sep.len();
            }
            None => {
                inputs.push(inp[pos..].to_string());
                break;
            }
        }
    }
    let outputs: Vec<Vec<u32>> = out
        .lines()
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect();
    assert_eq!(
        inputs.len(),
        outputs.len(),
        "input and output files have different numbers of tests"
    );
    inputs.into_iter().zip(outputs).collect()
}

/// llama.cpp's test of vocabulary `name` on `gguf`, at each supported
/// build (its loader, and the `.inp`/`.out` of that build's own tree).
fn run(name: &str, gguf: PathBuf) {
    for &build in changes::Build::SUPPORTED {
        let file = |ext: &str| {
            testkit::llama_cpp_at(
                &testkit::models_tree(&build.to_string()),
                &format!("models/ggml-vocab-{name}.gguf.{ext}"),
            )
        };
        let inp = std::fs::read_to_string(file("inp")).unwrap();
        let out = std::fs::read_to_string(file("out")).unwrap();
        let vocab = common::load_path_at(&gguf, build);
        let tests = read_tests(&inp, &out);
        let mut bad = Vec::new();
        for (text, want) in &tests {
            let got = vocab.tokenize_bytes(text.as_bytes(), false, false).unwrap();
            if &got != want {
                bad.push(format!("{text:?}: got {got:?}, want {want:?}"));
            }
        }
        assert!(
            bad.is_empty(),
            "{name} ({build}): {} of {} differ:\n{}",
            bad.len(),
            tests.len(),
            bad.join("\n")
        );
        eprintln!("{name} ({build}): {} inputs equal", tests.len());
    }
}

#[test]
fn bert_bge_wordpiece() {
    run(
        "bert-bge",
        common::corpus_file("llama-vocab/ggml-vocab-bert-bge.gguf"),
    );
}

#[test]
fn llama_spm() {
    run("llama-spm", common::corpus_file("llama-spm.gguf"));
}

#[test]
fn gemma_4() {
    run("gemma-4", common::corpus_file("gemma4.gguf"));
}

/// The vocabularies whose GGUF is here as llama.cpp ships it.
#[test]
fn byte_pair_vocabularies() {
    for name in [
        "phi-3",
        "deepseek-coder",
        "refact",
        "starcoder",
        "gpt-2",
        "mpt",
        "falcon",
    ] {
        run(
            name,
            common::corpus_file(&format!("llama-vocab/ggml-vocab-{name}.gguf")),
        );
    }
}

/// llama.cpp's tests for vocabularies the corpus holds under another name:
/// the same tokens, types and merges.
#[test]
fn llama_bpe_and_qwen2_on_the_corpus_files() {
    run("llama-bpe", common::corpus_file("llama3.gguf"));
    run("qwen2", common::corpus_file("qwen3.gguf"));
}

/// The three larger BPE vocabularies: Command R's own
/// pre-tokenizer, DeepSeek LLM's, and Qwen 3.5's (the Qwen 2 vocabulary
/// with `tokenizer.ggml.pre = "qwen35"`).
#[test]
fn larger_byte_pair_vocabularies() {
    for name in ["command-r", "deepseek-llm", "qwen35"] {
        run(
            name,
            common::corpus_file(&format!("llama-vocab/ggml-vocab-{name}.gguf")),
        );
    }
}
