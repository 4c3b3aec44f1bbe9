//! What the Generate pane sends its worker and how the worker's answers are
//! shaped: a [`Job`] (the rendered prompt and the request's settings) and
//! Ollama's response chunks (`ollama::response`). Leptos-free, tested
//! natively.

use ollama::answer::Out;
use ollama::response::{self, Chunk, Metrics};
use ollama::server::Endpoint;
use serde_json::{json, Value};

/// What a wasm32 worker can address: 4 GiB.
pub const WASM_MEMORY_BYTES: u64 = 4 << 30;

/// What the worker holds besides the file and the KV cache: its code and
/// stack, the metadata and vocabulary, one step's activations and logits.
pub const WORKING_SET_BYTES: u64 = 256 << 20;

/// Bytes per cached K or V element. The engine's cache rounds K and V
/// through f16, as llama.cpp's f16 cache does, but keeps them as f32
/// (`inference::attention::KvCache` holds `Vec<f32>`), so 4 bytes each.
pub const KV_ELEMENT_BYTES: u64 = 4;

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

fn mib(bytes: u64) -> String {
    format!("{:.0} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// Refuses, with a message, a file the worker could not hold at all (the
/// file and the working set; no KV cache), when its header is not read yet.
pub fn check_memory(file_size: u64) -> Result<(), String> {
    MemoryNeed::new(file_size, None, 0).check()
}

/// The shapes the KV cache and the memory check need, from a GGUF's header.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelShape {
    /// `general.architecture`.
    pub arch: String,
    /// `<arch>.block_count`.
    pub n_layer: u64,
    /// `<arch>.context_length` (0 when absent).
    pub n_ctx_train: u64,
    /// `<arch>.attention.head_count_kv` (else `head_count`).
    pub n_kv_head: u64,
    /// `<arch>.attention.key_length` (else `embedding_length / head_count`).
    pub k_len: u64,
    /// `<arch>.attention.value_length` (else the key length).
    pub v_len: u64,
}

impl ModelShape {
    /// Reads the shapes from a parsed header.
    pub fn from_gguf(file: &gguf_meta::GgufFile) -> Result<ModelShape, String> {
        let arch = file
            .architecture()
            .ok_or("the GGUF has no general.architecture")?
            .to_string();
        let get = |k: &str| file.arch_get(k).and_then(|v| v.as_u64());
        let need = |k: &str| get(k).ok_or_else(|| format!("the GGUF has no {arch}.{k}"));
        let n_layer = need("block_count")?;
        let n_head = need("attention.head_count")?;
        let n_kv_head = get("attention.head_count_kv").unwrap_or(n_head);
        let k_len = match get("attention.key_length") {
            Some(k) => k,
            None => need("embedding_length")? / n_head.max(1),
        };
        Ok(ModelShape {
            n_layer,
            n_ctx_train: get("context_length").unwrap_or(0),
            n_kv_head,
            k_len,
            v_len: get("attention.value_length").unwrap_or(k_len),
            arch,
        })
    }

    /// The context a job asking for `num_ctx` gets, as
    /// `inference::generate::effective_ctx` computes it: 4096 when not
    /// positive, at most the trained length, at least 1.
    pub fn ctx_for(&self, num_ctx: i64) -> u64 {
        let n = if num_ctx <= 0 { 4096 } else { num_ctx as u64 };
        let n = if self.n_ctx_train > 0 {
            n.min(self.n_ctx_train)
        } else {
            n
        };
        n.max(1)
    }

    /// The KV cache's bytes for `n_ctx` tokens: K and V for every layer,
    /// KV head and position ([`KV_ELEMENT_BYTES`] each).
    pub fn kv_bytes(&self, n_ctx: u64) -> u64 {
        self.n_layer
            .saturating_mul(n_ctx)
            .saturating_mul(self.n_kv_head)
            .saturating_mul(self.k_len + self.v_len)
            .saturating_mul(KV_ELEMENT_BYTES)
    }
}

/// What generating with a file takes in the worker at its peak.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryNeed {
    /// The file, read into memory and used in place (every architecture
    /// runs on the file's bytes: no copy while loading).
    pub file: u64,
    /// The KV cache for `n_ctx` tokens.
    pub kv: u64,
    /// The context the KV cache is for (0: not known yet).
    pub n_ctx: u64,
    /// [`WORKING_SET_BYTES`].
    pub working: u64,
}

impl MemoryNeed {
    /// The need of a file of `file_size` bytes with this header's shapes
    /// (`None`: not read yet) and a context of `n_ctx` tokens.
    pub fn new(file_size: u64, shape: Option<&ModelShape>, n_ctx: u64) -> MemoryNeed {
        MemoryNeed {
            file: file_size,
            kv: shape.map_or(0, |s| s.kv_bytes(n_ctx)),
            n_ctx: if shape.is_some() { n_ctx } else { 0 },
            working: WORKING_SET_BYTES,
        }
    }

    /// The sum.
    pub fn total(&self) -> u64 {
        self.file
            .saturating_add(self.kv)
            .saturating_add(self.working)
    }

    /// What the sum is made of, in words.
    pub fn parts(&self) -> String {
        let mut parts = vec![format!("the file {}", gib(self.file))];
        if self.n_ctx > 0 {
            parts.push(format!(
                "the KV cache for num_ctx {} {}",
                self.n_ctx,
                gib(self.kv)
            ));
        }
        parts.push(format!("{} working set", mib(self.working)));
        parts.join(" + ")
    }

    /// Refuses, with the figures, a need above wasm32's 4 GiB.
    pub fn check(&self) -> Result<(), String> {
        if self.total() > WASM_MEMORY_BYTES {
            let hint = if self.kv > 0 && self.file + self.working < WASM_MEMORY_BYTES {
                "; a smaller num_ctx fits"
            } else {
                ""
            };
            return Err(format!(
                "generating with this GGUF in the browser needs {} ({}), more than wasm32's {} of memory{hint}",
                gib(self.total()),
                self.parts(),
                gib(WASM_MEMORY_BYTES)
            ));
        }
        Ok(())
    }
}

/// Bytes in MB (10^6) with one decimal, as the pane's progress shows them.
pub fn megabytes(bytes: f64) -> String {
    format!("{:.1}", bytes / 1e6)
}

/// One generation request for the worker.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// `chat` or `generate`.
    pub endpoint: Endpoint,
    /// `model` as the request names it.
    pub model: String,
    /// The rendered prompt.
    pub prompt: String,
    /// The renderer's leading BOS string, if any.
    pub leading_bos: Option<String>,
    /// What the handler reads the model's output with
    /// ([`ollama::answer::Setup::to_spec`]; `null`: content only).
    pub answer: Value,
    /// The request's `options` object.
    pub options: Value,
    /// The request's `truncate` (default true).
    pub truncate: bool,
    /// The request's `shift` (absent: the release's default for the model
    /// and `num_ctx`).
    pub shift: Option<bool>,
    /// `/api/generate` with `raw: true` (no `context` in the answer).
    pub raw: bool,
    /// Promptscope's opt-in debug output on the first chunk.
    pub debug: bool,
    /// `num_ctx` when the request gives none.
    pub default_num_ctx: i64,
    /// The Ollama release whose defaults apply (`0.32.9`; empty: the
    /// newest).
    pub release: String,
    /// Post the logits of the prompt's last token (`{type: "logits",
    /// values}`) before the answer: the tests compare the GPU path's with
    /// the CPU's without evaluating the prompt a second time.
    pub first_logits: bool,
}

impl Job {
    /// A job from the request body and the rendered prompt.
    pub fn new(
        endpoint: Endpoint,
        request: &Value,
        prompt: String,
        leading_bos: Option<String>,
        debug: bool,
    ) -> Job {
        let flag = |k: &str| request.get(k).and_then(Value::as_bool);
        Job {
            endpoint,
            model: request["model"].as_str().unwrap_or("").to_string(),
            prompt,
            leading_bos,
            answer: Value::Null,
            options: request.get("options").cloned().unwrap_or(Value::Null),
            truncate: flag("truncate") != Some(false),
            shift: flag("shift"),
            raw: endpoint == Endpoint::Generate && flag("raw") == Some(true),
            debug,
            default_num_ctx: 4096,
            release: String::new(),
            first_logits: false,
        }
    }

    /// The `num_ctx` the job asks for: its options' (an integer, or a
    /// float, truncated, as the engine reads options), else
    /// `default_num_ctx`.
    pub fn num_ctx(&self) -> i64 {
        let v = &self.options["num_ctx"];
        v.as_i64()
            .or_else(|| v.as_f64().map(|f| f.trunc() as i64))
            .unwrap_or(self.default_num_ctx)
    }

    /// The Ollama release whose defaults apply.
    pub fn release(&self) -> changes::Release {
        changes::Release::parse(&self.release).unwrap_or_default()
    }

    /// Whether the final chunk carries `context` (`/api/generate`, not raw).
    pub fn wants_context(&self) -> bool {
        self.endpoint == Endpoint::Generate && !self.raw
    }

    /// The job as the JSON posted to the worker.
    pub fn to_json(&self) -> String {
        json!({
            "endpoint": if self.endpoint == Endpoint::Chat { "chat" } else { "generate" },
            "model": self.model,
            "prompt": self.prompt,
            "leading_bos": self.leading_bos,
            "answer": self.answer,
            "options": self.options,
            "truncate": self.truncate,
            "shift": self.shift,
            "raw": self.raw,
            "debug": self.debug,
            "default_num_ctx": self.default_num_ctx,
            "release": self.release,
            "first_logits": self.first_logits,
        })
        .to_string()
    }

    /// Reads [`Job::to_json`]'s output.
    pub fn from_json(text: &str) -> Result<Job, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("bad job: {e}"))?;
        let s = |k: &str| v[k].as_str().map(str::to_string);
        let b = |k: &str| v[k].as_bool().unwrap_or(false);
        Ok(Job {
            endpoint: match v["endpoint"].as_str() {
                Some("generate") => Endpoint::Generate,
                _ => Endpoint::Chat,
            },
            model: s("model").unwrap_or_default(),
            prompt: s("prompt").ok_or("bad job: no prompt")?,
            leading_bos: s("leading_bos"),
            answer: v["answer"].clone(),
            options: v["options"].clone(),
            truncate: b("truncate"),
            shift: v["shift"].as_bool(),
            raw: b("raw"),
            debug: b("debug"),
            default_num_ctx: v["default_num_ctx"].as_i64().unwrap_or(4096),
            release: s("release").unwrap_or_default(),
            first_logits: b("first_logits"),
        })
    }
}

/// A streamed chunk: what the handler sends for one piece.
pub fn text_chunk(job: &Job, created_at: &str, out: &Out, debug: Option<Value>) -> Value {
    response::chunk(
        job.endpoint,
        &Chunk {
            model: &job.model,
            created_at,
            content: &out.content,
            thinking: &out.thinking,
            tool_calls: &out.tool_calls,
            debug,
            ..Chunk::default()
        },
    )
}

/// The final chunk: what the handler makes of the end (`last`),
/// `done_reason`, counts and durations (nanoseconds).
pub fn final_chunk(
    job: &Job,
    created_at: &str,
    last: &Out,
    done_reason: &str,
    metrics: Metrics,
    context: Option<&[u32]>,
) -> Value {
    response::chunk(
        job.endpoint,
        &Chunk {
            model: &job.model,
            created_at,
            content: &last.content,
            thinking: &last.thinking,
            tool_calls: &last.tool_calls,
            done: Some(done_reason),
            metrics,
            context,
            ..Chunk::default()
        },
    )
}

/// What the pane shows from the NDJSON lines received so far: the text,
/// and from the final chunk the counts and tokens per second.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The streamed text.
    pub text: String,
    /// The streamed thinking (split out by the thinking parser).
    pub thinking: String,
    /// `done_reason` once done.
    pub done_reason: Option<String>,
    /// `prompt_eval_count`.
    pub prompt_eval_count: u64,
    /// `eval_count`.
    pub eval_count: u64,
    /// Generation speed, from `eval_count` / `eval_duration`.
    pub tokens_per_second: Option<f64>,
    /// Prompt speed, from `prompt_eval_count` / `prompt_eval_duration`.
    pub prompt_tokens_per_second: Option<f64>,
}

/// What a compatibility route writes back for the native response chunks
/// the worker produced (the `/api/chat` or `/api/generate` NDJSON lines):
/// the route's writer (`ollama::compat::reply`) fed each chunk as the
/// native handler writes it, or, when the client asked for no stream, the
/// one aggregated response. `body` is the body the client sent; `now` the
/// Unix seconds and `seed` the draw for the ids Ollama takes from the clock
/// and at random; `release` the Ollama release whose middleware converts
/// and writes. `None` when the route refuses the body.
pub fn route_answer(
    route: &str,
    body: &Value,
    lines: &[String],
    (now, seed): (i64, u64),
    release: changes::Release,
) -> Option<String> {
    use ollama::compat::{self, reply::Writer, Route};
    let route = Route::from_name(route)?;
    let env = compat::Env {
        no_cloud: false,
        release,
    };
    let conv = compat::convert_with(route, body, env).ok()?;
    let ids = compat::reply::random_ids(route, seed);
    let text = body.to_string();
    let mut w = Writer::for_route(
        route,
        body,
        conv.stream,
        conv.include_usage,
        (&ids.0, &ids.1),
        now,
        seed,
    )
    .with_release(release)
    .with_body_text(body, &text);
    let chunks: Vec<Value> = lines
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .collect();
    let status = |v: &Value| {
        if v.get("error").is_some() && v.get("model").is_none() {
            500
        } else {
            200
        }
    };
    let mut out = String::new();
    if conv.stream {
        for c in &chunks {
            out.push_str(&w.write(status(c), c));
        }
    } else if let Some(e) = chunks.iter().find(|c| status(c) != 200) {
        out.push_str(&w.write(500, e));
    } else if let Some(one) = response::aggregate(conv.endpoint, has_tools(&conv.request), &chunks)
    {
        if one["done"] == true {
            out.push_str(&w.write(200, &one));
        }
    }
    Some(out)
}

/// Whether a native request has tools (the chat answer then keeps every
/// chunk's tool calls).
pub fn has_tools(request: &Value) -> bool {
    request
        .get("tools")
        .and_then(Value::as_array)
        .is_some_and(|t| !t.is_empty())
}

/// Folds response chunks into a [`Summary`].
pub fn summarize(lines: &[String]) -> Summary {
    let mut s = Summary::default();
    for line in lines {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if let Some(t) = v["message"]["content"].as_str().or(v["response"].as_str()) {
            s.text.push_str(t);
        }
        if let Some(t) = v["message"]["thinking"].as_str().or(v["thinking"].as_str()) {
            s.thinking.push_str(t);
        }
        if v["done"] == true {
            s.done_reason = v["done_reason"].as_str().map(str::to_string);
            let n = |k: &str| v[k].as_u64().unwrap_or(0);
            s.prompt_eval_count = n("prompt_eval_count");
            s.eval_count = n("eval_count");
            let rate = |count: u64, ns: u64| (ns > 0).then(|| count as f64 / (ns as f64 / 1e9));
            s.tokens_per_second = rate(n("eval_count"), n("eval_duration"));
            s.prompt_tokens_per_second = rate(n("prompt_eval_count"), n("prompt_eval_duration"));
        }
    }
    s
}

/// What this browser offers the generation workers, as the Generate pane
/// reads it once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Browser {
    /// `WebAssembly.validate` accepts relaxed SIMD ([`relaxed_simd_probe`]).
    pub relaxed_simd: bool,
    /// `crossOriginIsolated` is true and `SharedArrayBuffer` exists: a
    /// wasm module's memory can be shared between Web Workers.
    pub shared_memory: bool,
    /// `navigator.hardwareConcurrency` (0: not reported).
    pub cores: u32,
}

impl Browser {
    /// Whether the threaded worker can start here: shared memory, and
    /// relaxed SIMD, which it is compiled with.
    pub fn has_threads(self) -> bool {
        self.shared_memory && self.relaxed_simd
    }
}

/// The most threads the threaded worker's pool gets: generating one token
/// reads every weight once, so past a few cores memory bandwidth, not
/// arithmetic, bounds it, and each thread is a Web Worker holding its own
/// stack.
pub const MAX_THREADS: usize = 8;

/// The threaded worker's pool for a machine of `cores` logical cores
/// (`navigator.hardwareConcurrency`; 0 when not reported): one thread a
/// core, at least 1 and at most [`MAX_THREADS`]. The worker that asks the
/// pool to multiply waits meanwhile, so it takes no core of its own.
pub fn pool_threads(cores: u32) -> usize {
    (cores as usize).clamp(1, MAX_THREADS)
}

/// The pool size the threaded worker starts with: `threads=N` in its
/// URL's query (`search`, as `location.search` gives it; the pane and the
/// tests set it), between 1 and [`MAX_THREADS`], else [`pool_threads`] of
/// `cores`.
pub fn threads_from_query(search: &str, cores: u32) -> usize {
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("threads="))
        .and_then(|n| n.parse::<usize>().ok())
        .map_or_else(|| pool_threads(cores), |n| n.clamp(1, MAX_THREADS))
}

/// The worker to start: its loader's URL and whether it is a module
/// worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerStart {
    /// Relative to the page.
    pub url: String,
    /// A module worker (`{type: "module"}`): the threaded worker is
    /// wasm-bindgen's `--target web` output; Trunk's loaders are classic.
    pub module: bool,
}

/// Which build of the generation worker runs a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// The fastest this browser has: WebGPU where `navigator.gpu` gives a
    /// hardware adapter (a software one, such as SwiftShader, is slower
    /// than the CPU; the CPU runs where the model cannot run there), else
    /// threads where the page is cross-origin isolated, else relaxed SIMD
    /// where it validates, else simd128.
    #[default]
    Auto,
    /// WebGPU only, on any adapter (an error where it cannot run).
    WebGpu,
    /// The relaxed-SIMD kernels with the matrix products split over a
    /// pool of Web Workers (wasm threads), each output computed as on one
    /// thread. Offered only where [`Browser::has_threads`].
    CpuThreads,
    /// The CPU kernels with relaxed SIMD (fused multiply-adds, byte dot
    /// products); where the machine's `relaxed_madd` is not fused the
    /// worker runs the simd128 kernels itself.
    CpuRelaxed,
    /// The CPU kernels with simd128 only (every current browser).
    CpuSimd128,
}

impl Engine {
    /// Every choice, in the order the pane lists them.
    pub const ALL: [Engine; 5] = [
        Engine::Auto,
        Engine::WebGpu,
        Engine::CpuThreads,
        Engine::CpuRelaxed,
        Engine::CpuSimd128,
    ];

    /// The choices the pane lists in `browser`: the threaded engine only
    /// where it can start.
    pub fn offered(browser: Browser) -> Vec<Engine> {
        Engine::ALL
            .into_iter()
            .filter(|e| *e != Engine::CpuThreads || browser.has_threads())
            .collect()
    }

    /// The key the pane's select and its saved setting use.
    pub fn key(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::WebGpu => "webgpu",
            Engine::CpuThreads => "cpu-threads",
            Engine::CpuRelaxed => "cpu-relaxed",
            Engine::CpuSimd128 => "cpu-simd128",
        }
    }

    /// The engine whose [`Engine::key`] is `key`.
    pub fn from_key(key: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.key() == key)
    }

    /// The worker to start in `browser`; an engine the browser lacks falls
    /// back to the best one it has (a saved choice of threads, in a page
    /// that is not isolated, such as an iframe in a plain page, runs as
    /// Auto does there).
    pub fn worker(self, browser: Browser) -> WorkerStart {
        let classic = |url: &str| WorkerStart {
            url: url.to_string(),
            module: false,
        };
        match self {
            // the GPU path runs in a single-threaded worker
            Engine::WebGpu if browser.relaxed_simd => {
                classic("./generate-worker-relaxed_loader.js")
            }
            Engine::Auto | Engine::CpuThreads if browser.has_threads() => WorkerStart {
                url: format!(
                    "./generate-worker-threads_loader.js?threads={}",
                    pool_threads(browser.cores)
                ),
                module: true,
            },
            Engine::Auto | Engine::CpuThreads | Engine::CpuRelaxed if browser.relaxed_simd => {
                classic("./generate-worker-relaxed_loader.js")
            }
            _ => classic("./generate-worker_loader.js"),
        }
    }

    /// What the worker does with WebGPU.
    pub fn gpu(self) -> GpuChoice {
        match self {
            Engine::Auto => GpuChoice::Prefer,
            Engine::WebGpu => GpuChoice::Require,
            Engine::CpuThreads | Engine::CpuRelaxed | Engine::CpuSimd128 => GpuChoice::Off,
        }
    }
}

/// Whether the worker runs the model on WebGPU (the `load` message's
/// `gpu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuChoice {
    /// On the CPU.
    Off,
    /// On WebGPU where the adapter is a hardware one and the model runs
    /// there, else on the CPU (the runner line says why).
    Prefer,
    /// On WebGPU, or an error.
    Require,
}

impl GpuChoice {
    /// The message's value.
    pub fn key(self) -> &'static str {
        match self {
            GpuChoice::Off => "off",
            GpuChoice::Prefer => "prefer",
            GpuChoice::Require => "require",
        }
    }

    /// The choice whose [`GpuChoice::key`] is `key`.
    pub fn from_key(key: &str) -> Option<GpuChoice> {
        [GpuChoice::Off, GpuChoice::Prefer, GpuChoice::Require]
            .into_iter()
            .find(|c| c.key() == key)
    }
}

/// The runner line of a model on WebGPU: the CPU model's line (the graph,
/// the tensor types) with the CPU part replaced by the adapter, the fused
/// multiply-add the kernels use (`gpu::shaders::Fma::describe`), the bytes
/// of weights on the GPU and the context its KV cache holds.
pub fn gpu_runner_line(
    cpu_line: &str,
    adapter: &str,
    fma: &str,
    weight_bytes: u64,
    n_ctx: usize,
) -> String {
    let graph = cpu_line
        .rsplit_once(" · CPU ")
        .map_or(cpu_line, |(head, _)| head);
    format!(
        "{graph} · WebGPU {adapter} · {fma} · {} of weights on the GPU, KV cache for {n_ctx} tokens",
        mib(weight_bytes)
    )
}

/// A wasm module whose one function uses `f32x4.relaxed_madd` and
/// `i32x4.relaxed_dot_i8x16_i7x16_add_s`: `WebAssembly.validate` accepts it
/// exactly where the relaxed-SIMD worker can start.
pub fn relaxed_simd_probe() -> Vec<u8> {
    // v128.const 0
    let konst = |b: &mut Vec<u8>| {
        b.extend([0xFD, 0x0C]);
        b.extend([0u8; 16]);
    };
    let mut body = vec![0x00]; // no locals
    for _ in 0..3 {
        konst(&mut body);
    }
    body.extend([0xFD, 0x85, 0x02]); // f32x4.relaxed_madd
    for _ in 0..2 {
        konst(&mut body);
    }
    body.extend([0xFD, 0x93, 0x02]); // i32x4.relaxed_dot_i8x16_i7x16_add_s
    body.extend([0x1A, 0x0B]); // drop, end
    let mut code = vec![0x01, body.len() as u8];
    code.extend(body);
    let mut module = vec![0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00];
    module.extend([0x01, 0x04, 0x01, 0x60, 0x00, 0x00]); // type 0: [] -> []
    module.extend([0x03, 0x02, 0x01, 0x00]); // function 0: type 0
    module.extend([0x0A, code.len() as u8]);
    module.extend(code);
    module
}

#[cfg(test)]
mod tests {

    #[test]
    fn engines_pick_their_worker_and_fall_back() {
        for e in Engine::ALL {
            assert_eq!(Engine::from_key(e.key()), Some(e));
        }
        assert_eq!(Engine::from_key("gpu"), None);
        let relaxed = "./generate-worker-relaxed_loader.js";
        let plain = "./generate-worker_loader.js";
        let url = |e: Engine, b: Browser| e.worker(b).url;
        let simd_only = Browser::default();
        let with_relaxed = Browser {
            relaxed_simd: true,
            ..Browser::default()
        };
        assert_eq!(url(Engine::Auto, with_relaxed), relaxed);
        assert_eq!(url(Engine::Auto, simd_only), plain);
        assert_eq!(url(Engine::CpuRelaxed, simd_only), plain);
        assert_eq!(url(Engine::CpuSimd128, with_relaxed), plain);
        // no isolation (a plain page, an iframe in one): threads fall back
        assert_eq!(url(Engine::CpuThreads, with_relaxed), relaxed);
        assert_eq!(url(Engine::CpuThreads, simd_only), plain);
        assert_eq!(url(Engine::WebGpu, with_relaxed), relaxed);
        assert_eq!(url(Engine::WebGpu, simd_only), plain);
        for e in Engine::ALL {
            assert!(!e.worker(with_relaxed).module);
        }
        assert_eq!(Engine::Auto.gpu(), GpuChoice::Prefer);
        assert_eq!(Engine::WebGpu.gpu(), GpuChoice::Require);
        assert_eq!(Engine::CpuThreads.gpu(), GpuChoice::Off);
        assert_eq!(Engine::CpuSimd128.gpu(), GpuChoice::Off);
        for c in [GpuChoice::Off, GpuChoice::Prefer, GpuChoice::Require] {
            assert_eq!(GpuChoice::from_key(c.key()), Some(c));
        }
    }

    #[test]
    fn the_gpu_runner_line_names_the_adapter() {
        let cpu =
            "gemma3 · Q5_0 ×81, Q4_K ×27 · Promptscope's decoder · CPU wasm simd128, 1 thread";
        assert_eq!(
            gpu_runner_line(
                cpu,
                "google swiftshader fallback (features: subgroups)",
                "the adapter's fused multiply-add (probed exact)",
                200 << 20,
                2048
            ),
            "gemma3 · Q5_0 ×81, Q4_K ×27 · Promptscope's decoder · WebGPU google swiftshader \
             fallback (features: subgroups) · the adapter's fused multiply-add (probed exact) · \
             200 MiB of weights on the GPU, KV cache for 2048 tokens"
        );
    }

    #[test]
    fn an_isolated_page_runs_the_threaded_worker() {
        let isolated = Browser {
            relaxed_simd: true,
            shared_memory: true,
            cores: 4,
        };
        let threads = WorkerStart {
            url: "./generate-worker-threads_loader.js?threads=4".into(),
            module: true,
        };
        assert_eq!(Engine::Auto.worker(isolated), threads);
        assert_eq!(Engine::CpuThreads.worker(isolated), threads);
        // WebGPU runs in the single-threaded relaxed worker
        assert_eq!(
            Engine::WebGpu.worker(isolated).url,
            "./generate-worker-relaxed_loader.js"
        );
        // the single-threaded builds stay chosen where asked for
        assert_eq!(
            Engine::CpuRelaxed.worker(isolated).url,
            "./generate-worker-relaxed_loader.js"
        );
        assert_eq!(
            Engine::CpuSimd128.worker(isolated).url,
            "./generate-worker_loader.js"
        );
        // the threaded build has relaxed SIMD in it: without it, no threads
        let no_relaxed = Browser {
            relaxed_simd: false,
            ..isolated
        };
        assert!(!no_relaxed.has_threads());
        assert_eq!(
            Engine::CpuThreads.worker(no_relaxed).url,
            "./generate-worker_loader.js"
        );
    }

    #[test]
    fn the_threaded_engine_is_offered_only_where_it_starts() {
        let mut b = Browser {
            relaxed_simd: true,
            shared_memory: false,
            cores: 8,
        };
        assert_eq!(
            Engine::offered(b),
            [
                Engine::Auto,
                Engine::WebGpu,
                Engine::CpuRelaxed,
                Engine::CpuSimd128
            ]
        );
        b.shared_memory = true;
        assert_eq!(Engine::offered(b), Engine::ALL);
    }

    #[test]
    fn the_pool_has_a_thread_a_core_within_bounds() {
        assert_eq!(pool_threads(0), 1);
        assert_eq!(pool_threads(1), 1);
        assert_eq!(pool_threads(2), 2);
        assert_eq!(pool_threads(6), 6);
        assert_eq!(pool_threads(64), MAX_THREADS);
        // the worker's query wins, within the same bounds
        assert_eq!(threads_from_query("?threads=2", 16), 2);
        assert_eq!(threads_from_query("?a=b&threads=3", 16), 3);
        assert_eq!(threads_from_query("threads=0", 16), 1);
        assert_eq!(threads_from_query("?threads=99", 2), MAX_THREADS);
        assert_eq!(threads_from_query("", 4), 4);
        assert_eq!(threads_from_query("?threads=x", 4), 4);
        assert_eq!(threads_from_query("?nthreads=2", 4), 4);
    }

    #[test]
    fn the_relaxed_simd_probe_is_a_module_of_one_function() {
        let m = relaxed_simd_probe();
        assert_eq!(&m[..8], b"\0asm\x01\0\0\0");
        // the code section's sizes add up to the module's end
        let code = 8 + 6 + 4;
        assert_eq!(m[code], 0x0A);
        assert_eq!(code + 2 + m[code + 1] as usize, m.len());
        assert_eq!(m[code + 3] as usize, m.len() - code - 4);
        let madd = m.windows(3).position(|w| w == [0xFD, 0x85, 0x02]);
        let dot = m.windows(3).position(|w| w == [0xFD, 0x93, 0x02]);
        assert!(madd.is_some() && dot > madd);
    }
    use super::*;

    #[test]
    fn a_route_answers_in_its_own_shape() {
        let lines = vec![
            r#"{"model":"m","created_at":"2025-06-01T12:00:00Z","message":{"role":"assistant","content":"Hi"},"done":false}"#.to_string(),
            r#"{"model":"m","created_at":"2025-06-01T12:00:01Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":5,"eval_count":1}"#.to_string(),
        ];
        let body = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
        let one = route_answer("openai-chat", &body, &lines, (0, 7), Default::default()).unwrap();
        let v: Value = serde_json::from_str(&one).unwrap();
        assert_eq!(v["object"], "chat.completion");
        assert_eq!(v["id"], "chatcmpl-7");
        assert_eq!(v["choices"][0]["message"]["content"], "Hi");
        assert_eq!(v["usage"]["total_tokens"], 6);
        let body = json!({"model": "m", "max_tokens": 5, "stream": true, "messages": [{"role": "user", "content": "hi"}]});
        let sse = route_answer(
            "anthropic-messages",
            &body,
            &lines,
            (0, 7),
            Default::default(),
        )
        .unwrap();
        assert!(sse.starts_with("event: message_start\n"), "{sse}");
        assert!(
            sse.ends_with("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"),
            "{sse}"
        );
        assert_eq!(
            route_answer(
                "openai-chat",
                &json!({"messages": []}),
                &lines,
                (0, 7),
                Default::default()
            ),
            None
        );
    }

    #[test]
    fn jobs_round_trip_through_json() {
        let req = json!({"model": "smollm2", "options": {"temperature": 0}, "stream": true, "truncate": false});
        let mut job = Job::new(Endpoint::Chat, &req, "P".into(), Some("<s>".into()), true);
        assert!(!job.truncate && job.shift.is_none() && !job.raw);
        job.answer = json!({"endpoint": "chat", "parser": "qwen3", "template": ""});
        assert_eq!(Job::from_json(&job.to_json()).unwrap(), job);
        job.first_logits = true;
        assert_eq!(Job::from_json(&job.to_json()).unwrap(), job);
        let raw = Job::new(
            Endpoint::Generate,
            &json!({"model": "m", "raw": true}),
            "p".into(),
            None,
            false,
        );
        assert!(!raw.wants_context());
    }

    #[test]
    fn memory_check_refuses_big_files_with_a_message() {
        assert!(check_memory(98_362_432).is_ok());
        let e = check_memory(4 << 30).unwrap_err();
        assert!(
            e.contains("needs 4.2 GiB (the file 4.0 GiB + 256 MiB working set)")
                && e.contains("wasm32's 4.0 GiB"),
            "{e}"
        );
        // the file is held once: 3.5 GiB fit, where twice the file did not
        assert!(check_memory(3584 << 20).is_ok());
    }

    /// A GGUF header: `kvs` (u32 or string values), then `tensors` (name,
    /// ggml type id), each 256 x 1, data at offset 0.
    fn header(kvs: &[(&str, Result<u32, &str>)], tensors: &[(&str, u32)]) -> Vec<u8> {
        let mut b = b"GGUF".to_vec();
        let string = |b: &mut Vec<u8>, s: &str| {
            b.extend_from_slice(&(s.len() as u64).to_le_bytes());
            b.extend_from_slice(s.as_bytes());
        };
        b.extend_from_slice(&3u32.to_le_bytes());
        b.extend_from_slice(&(tensors.len() as u64).to_le_bytes());
        b.extend_from_slice(&(kvs.len() as u64).to_le_bytes());
        for (k, v) in kvs {
            string(&mut b, k);
            match v {
                Ok(n) => {
                    b.extend_from_slice(&4u32.to_le_bytes());
                    b.extend_from_slice(&n.to_le_bytes());
                }
                Err(s) => {
                    b.extend_from_slice(&8u32.to_le_bytes());
                    string(&mut b, s);
                }
            }
        }
        for (name, ty) in tensors {
            string(&mut b, name);
            b.extend_from_slice(&2u32.to_le_bytes());
            b.extend_from_slice(&256u64.to_le_bytes());
            b.extend_from_slice(&1u64.to_le_bytes());
            b.extend_from_slice(&ty.to_le_bytes());
            b.extend_from_slice(&0u64.to_le_bytes());
        }
        // aligned data for the largest (F32: 1 KiB), shared by all
        b.resize(b.len().next_multiple_of(32) + 1024, 0);
        b
    }

    /// Gemma 3 270M's shapes (18 layers, 1 KV head of 256, 32768 trained).
    fn gemma3() -> gguf_meta::GgufFile {
        let bytes = header(
            &[
                ("general.architecture", Err("gemma3")),
                ("gemma3.block_count", Ok(18)),
                ("gemma3.context_length", Ok(32768)),
                ("gemma3.embedding_length", Ok(640)),
                ("gemma3.attention.head_count", Ok(4)),
                ("gemma3.attention.head_count_kv", Ok(1)),
                ("gemma3.attention.key_length", Ok(256)),
                ("gemma3.attention.value_length", Ok(256)),
            ],
            &[
                ("token_embd.weight", 8),
                ("blk.0.attn_q.weight", 6),
                ("blk.0.attn_k.weight", 6),
                ("blk.0.attn_output.weight", 12),
                ("blk.0.ffn_down.weight", 14),
                ("blk.0.attn_norm.weight", 0),
                ("blk.0.ffn_norm.weight", 0),
                ("blk.1.ffn_down.weight", 12),
            ],
        );
        gguf_meta::parse(bytes.as_slice()).unwrap()
    }

    #[test]
    fn the_kv_cache_is_read_from_the_header() {
        let g = gemma3();
        let s = ModelShape::from_gguf(&g).unwrap();
        assert_eq!(
            (s.n_layer, s.n_kv_head, s.k_len, s.v_len),
            (18, 1, 256, 256)
        );
        // num_ctx: the job's, 4096 when not positive, at most the trained 32768
        assert_eq!(
            (
                s.ctx_for(2048),
                s.ctx_for(0),
                s.ctx_for(-1),
                s.ctx_for(1 << 20)
            ),
            (2048, 4096, 4096, 32768)
        );
        // 18 layers x 4096 positions x 1 head x (256 + 256) x 4 bytes
        assert_eq!(s.kv_bytes(4096), 18 * 4096 * 512 * 4);
        assert_eq!(s.kv_bytes(4096), 150_994_944);
        // key length from the embedding when absent; KV heads from the heads
        let llama = header(
            &[
                ("general.architecture", Err("llama")),
                ("llama.block_count", Ok(30)),
                ("llama.embedding_length", Ok(576)),
                ("llama.attention.head_count", Ok(9)),
            ],
            &[],
        );
        let s = ModelShape::from_gguf(&gguf_meta::parse(llama.as_slice()).unwrap()).unwrap();
        assert_eq!(
            (s.n_kv_head, s.k_len, s.v_len, s.n_ctx_train),
            (9, 64, 64, 0)
        );
        assert_eq!(s.ctx_for(100_000), 100_000);
        let broken = header(&[("general.architecture", Err("llama"))], &[]);
        assert_eq!(
            ModelShape::from_gguf(&gguf_meta::parse(broken.as_slice()).unwrap()).unwrap_err(),
            "the GGUF has no llama.block_count"
        );
    }

    #[test]
    fn the_memory_check_counts_the_file_the_copy_and_the_kv_cache() {
        let s = ModelShape::from_gguf(&gemma3()).unwrap();
        let need = MemoryNeed::new(253_113_024, Some(&s), 4096);
        assert_eq!(need.total(), 253_113_024 + 150_994_944 + WORKING_SET_BYTES);
        assert!(need.check().is_ok());
        // 32768 positions: 1.1 GiB of cache, still fits
        assert!(MemoryNeed::new(253_113_024, Some(&s), 32768)
            .check()
            .is_ok());
        // a 3 GiB file and the full context: too much, and a smaller
        // num_ctx would fit
        let e = MemoryNeed::new(3 << 30, Some(&s), 32768)
            .check()
            .unwrap_err();
        assert_eq!(
            e,
            "generating with this GGUF in the browser needs 4.4 GiB (the file 3.0 GiB + \
             the KV cache for num_ctx 32768 1.1 GiB + 256 MiB working set), more than \
             wasm32's 4.0 GiB of memory; a smaller num_ctx fits"
        );
        // the same file with 4096 positions fits
        assert!(MemoryNeed::new(3 << 30, Some(&s), 4096).check().is_ok());
    }

    #[test]
    fn smollm2s_real_header_gives_its_figure() {
        let path = testkit::smollm2();
        let file = std::fs::File::open(&path).unwrap();
        let g = gguf_meta::parse(gguf_meta::SeekSource::new(file)).unwrap();
        let s = ModelShape::from_gguf(&g).unwrap();
        // SmolLM2-135M: 30 layers, 3 KV heads of 64
        assert_eq!(
            (s.arch.as_str(), s.n_layer, s.n_kv_head, s.k_len),
            ("llama", 30, 3, 64)
        );
        assert_eq!(s.kv_bytes(s.ctx_for(4096)), 30 * 4096 * 3 * 128 * 4);
        let need = MemoryNeed::new(g.file_size(), Some(&s), 4096);
        assert!(
            need.parts()
                .starts_with("the file 0.1 GiB + the KV cache for num_ctx 4096 0.2 GiB"),
            "{}",
            need.parts()
        );
    }

    #[test]
    fn megabytes_have_one_decimal() {
        assert_eq!(
            (megabytes(8_388_608.0), megabytes(98_362_432.0)),
            ("8.4".into(), "98.4".into())
        );
    }

    #[test]
    fn a_jobs_num_ctx_is_its_options_else_the_default() {
        let job = |options: Value| {
            let mut j = Job::new(
                Endpoint::Generate,
                &json!({"model": "m", "options": options}),
                "p".into(),
                None,
                false,
            );
            j.default_num_ctx = 8192;
            j
        };
        assert_eq!(job(json!({"num_ctx": 2048})).num_ctx(), 2048);
        assert_eq!(job(json!({"num_ctx": 1024.7})).num_ctx(), 1024);
        assert_eq!(job(json!({"temperature": 0})).num_ctx(), 8192);
        assert_eq!(job(Value::Null).num_ctx(), 8192);
    }

    #[test]
    fn chunks_fold_into_a_summary() {
        let job = Job::new(
            Endpoint::Chat,
            &json!({"model": "m"}),
            "p".into(),
            None,
            false,
        );
        let out = |content: &str, thinking: &str| Out {
            content: content.into(),
            thinking: thinking.into(),
            ..Out::default()
        };
        let t = Metrics {
            total_duration: 900_000_000,
            prompt_eval_count: 27,
            prompt_eval_duration: 500_000_000,
            eval_count: 8,
            eval_duration: 200_000_000,
            ..Metrics::default()
        };
        let lines = vec![
            text_chunk(&job, "t", &out("", "Hmm."), None).to_string(),
            text_chunk(&job, "t", &out("The", ""), None).to_string(),
            text_chunk(&job, "t", &out(" capital", ""), None).to_string(),
            final_chunk(&job, "t", &Out::default(), "stop", t, None).to_string(),
        ];
        let s = summarize(&lines);
        assert_eq!(s.text, "The capital");
        assert_eq!(s.thinking, "Hmm.");
        assert_eq!(s.done_reason.as_deref(), Some("stop"));
        assert_eq!((s.prompt_eval_count, s.eval_count), (27, 8));
        assert_eq!(s.tokens_per_second, Some(40.0));
        assert_eq!(s.prompt_tokens_per_second, Some(54.0));
    }
}
