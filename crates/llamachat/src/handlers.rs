//! The dedicated handlers llama.cpp tries before its autoparser
//! (`common_chat_try_specialized_template`, common/chat.cpp, and
//! common/parsers/*.cpp): each is detected from the template source, may
//! reshape the messages, and builds the prompt — the template's output,
//! plus, when the last assistant message is continued, the generation
//! prompt the handler writes itself. Only that part of each handler is
//! ported; their output parsers are not.

use serde_json::{Map, Value as Json};

use crate::apply::{nonempty_array, ChatParams, Continuation, GenParams};
use crate::template::{direct_apply, generation_prompt, Template};
use crate::Error;

/// Renders with the handler's overrides and fills `prompt` and
/// `generation_prompt`.
struct Render<'a> {
    tmpl: &'a Template,
    inputs: &'a GenParams,
    messages: Option<Json>,
    context: Option<Json>,
}

impl Render<'_> {
    fn prompt(&self) -> Result<String, Error> {
        direct_apply(
            self.tmpl,
            self.inputs,
            self.messages.as_ref(),
            None,
            self.context.as_ref(),
        )
    }

    fn generation_prompt(&self) -> Result<String, Error> {
        generation_prompt(
            self.tmpl,
            self.inputs,
            self.messages.as_ref(),
            None,
            self.context.as_ref(),
        )
    }

    fn params(&self, handler: &'static str, supports_thinking: bool) -> Result<ChatParams, Error> {
        Ok(ChatParams {
            prompt: self.prompt()?,
            generation_prompt: self.generation_prompt()?,
            supports_thinking,
            handler,
        })
    }
}

/// Appends the continuation `gp` to the prompt, as every handler does.
fn continue_with(data: &mut ChatParams, gp: String) {
    data.generation_prompt = gp;
    data.prompt.push_str(&data.generation_prompt);
}

fn content_continues(inputs: &GenParams) -> bool {
    inputs.continue_final_message == Continuation::Content
}

/// The usual continuation: `prefix + start + reasoning`, then
/// `end + mid + content` when the content is continued.
fn think_continuation(
    inputs: &GenParams,
    prefix: &str,
    start: &str,
    end: &str,
) -> Result<String, Error> {
    let m = &inputs.continue_msg;
    let mut gp = format!("{prefix}{start}{}", m.reasoning_content);
    if content_continues(inputs) {
        gp.push_str(end);
        gp.push_str(&m.render_content("\n\n")?);
    }
    Ok(gp)
}

fn simple(
    tmpl: &Template,
    inputs: &GenParams,
    name: &'static str,
    supports_thinking: bool,
) -> Result<ChatParams, Error> {
    Render {
        tmpl,
        inputs,
        messages: None,
        context: None,
    }
    .params(name, supports_thinking)
}

/// Messages with `thinking` copied from a string `reasoning_content`
/// (gpt-oss also drops `content` beside tool calls).
fn with_thinking(messages: &Json, drop_content_with_calls: bool) -> Json {
    let mut out = Vec::new();
    if let Json::Array(list) = messages {
        for msg in list {
            let mut msg = msg.clone();
            if let Json::Object(o) = &mut msg {
                if let Some(Json::String(r)) = o.get("reasoning_content").cloned() {
                    o.insert("thinking".into(), Json::String(r));
                    if drop_content_with_calls && o.get("tool_calls").is_some_and(nonempty_array) {
                        o.shift_remove("content");
                    }
                }
            }
            out.push(msg);
        }
    }
    Json::Array(out)
}

fn ministral_3(tmpl: &Template, inputs: &GenParams) -> Result<ChatParams, Error> {
    let mut adjusted = Vec::new();
    if let Json::Array(list) = &inputs.messages {
        for msg in list {
            let role = msg.get("role").and_then(Json::as_str).unwrap_or("");
            if role != "system" && role != "assistant" {
                adjusted.push(msg.clone());
                continue;
            }
            let mut content = Vec::new();
            if let Some(Json::String(r)) = msg.get("reasoning_content") {
                let mut b = Map::new();
                b.insert("type".into(), Json::String("thinking".into()));
                b.insert("thinking".into(), Json::String(r.clone()));
                content.push(Json::Object(b));
            }
            match msg.get("content") {
                Some(Json::String(s)) => {
                    let mut b = Map::new();
                    b.insert("type".into(), Json::String("text".into()));
                    b.insert("text".into(), Json::String(s.clone()));
                    content.push(Json::Object(b));
                }
                Some(Json::Array(blocks)) => content.extend(blocks.iter().cloned()),
                _ => {}
            }
            let mut a = msg.clone();
            if let Json::Object(o) = &mut a {
                o.insert("content".into(), Json::Array(content));
                o.shift_remove("reasoning_content");
            }
            adjusted.push(a);
        }
    }
    let r = Render {
        tmpl,
        inputs,
        messages: Some(Json::Array(adjusted)),
        context: None,
    };
    let mut data = r.params("ministral-3", true)?;
    if inputs.has_continuation() {
        let gp = think_continuation(inputs, "", "[THINK]", "[/THINK]")?;
        continue_with(&mut data, gp);
    }
    Ok(data)
}

fn gpt_oss(tmpl: &Template, inputs: &GenParams) -> Result<ChatParams, Error> {
    let r = Render {
        tmpl,
        inputs,
        messages: Some(with_thinking(&inputs.messages, true)),
        context: None,
    };
    let mut prompt = r.prompt()?;
    if inputs.is_inference && !inputs.add_generation_prompt {
        if let Some(pos) = prompt.rfind("<|return|>") {
            prompt.replace_range(pos..pos + "<|return|>".len(), "<|end|>");
        }
    }
    let mut data = ChatParams {
        prompt,
        generation_prompt: r.generation_prompt()?,
        supports_thinking: true,
        handler: "gpt-oss",
    };
    if inputs.has_continuation() {
        let gp = think_continuation(
            inputs,
            "<|start|>assistant<|channel|>analysis<|message|>",
            "",
            "<|end|><|start|>assistant<|channel|>final<|message|>",
        )?;
        continue_with(&mut data, gp);
    }
    Ok(data)
}

fn muse_glimmer(tmpl: &Template, inputs: &GenParams) -> Result<ChatParams, Error> {
    let mut data = ChatParams {
        prompt: direct_apply(tmpl, inputs, None, None, None)?,
        generation_prompt: "<|start|>assistant".into(),
        supports_thinking: true,
        handler: "muse-glimmer",
    };
    if inputs.has_continuation() {
        let gp = think_continuation(
            inputs,
            "<|start|>assistant to=self<|message|>",
            "",
            "<|eom|><|start|>assistant to=user<|message|>",
        )?;
        continue_with(&mut data, gp);
    }
    Ok(data)
}

/// A handler whose continuation is `prefix + content`, never reasoning.
fn content_only(
    tmpl: &Template,
    inputs: &GenParams,
    name: &'static str,
    prefix: &str,
) -> Result<ChatParams, Error> {
    let mut data = simple(tmpl, inputs, name, false)?;
    if inputs.has_continuation() {
        let gp = format!("{prefix}{}", inputs.continue_msg.render_content("\n\n")?);
        continue_with(&mut data, gp);
    }
    Ok(data)
}

/// A handler whose continuation is [`think_continuation`] with fixed
/// markers.
fn thinking(
    tmpl: &Template,
    inputs: &GenParams,
    name: &'static str,
    prefix: &str,
    start: &str,
    end: &str,
) -> Result<ChatParams, Error> {
    let mut data = simple(tmpl, inputs, name, true)?;
    if inputs.has_continuation() {
        let gp = think_continuation(inputs, prefix, start, end)?;
        continue_with(&mut data, gp);
    }
    Ok(data)
}

fn lfm2(tmpl: &Template, inputs: &GenParams, name: &'static str) -> Result<ChatParams, Error> {
    // before `lfm2_thinking_field` the messages are rendered as given
    // (noted where a message has a reasoning_content to copy)
    let thinking = with_thinking(&inputs.messages, false);
    let messages = (thinking == inputs.messages
        || tmpl.rules().on(&changes::llamacpp::LFM2_THINKING_FIELD))
    .then_some(thinking);
    let r = Render {
        tmpl,
        inputs,
        messages,
        context: None,
    };
    let mut data = r.params(name, true)?;
    if inputs.has_continuation() {
        let gp = think_continuation(inputs, "<|im_start|>assistant\n", "<think>", "</think>")?;
        continue_with(&mut data, gp);
    }
    Ok(data)
}

fn minimax_m3(tmpl: &Template, inputs: &GenParams) -> Result<ChatParams, Error> {
    let mut data = simple(tmpl, inputs, "minimax-m3", true)?;
    if inputs.has_continuation() {
        let gen = data.generation_prompt.clone();
        let gp = think_continuation(inputs, &gen, "<mm:think>", "</mm:think>")?;
        continue_with(&mut data, gp);
    }
    Ok(data)
}

/// `deepseek_v4_sort_tool_results`: each run of user/tool messages has
/// its tool results in the order of the preceding assistant's calls.
fn deepseek_v4_sort_tool_results(messages: &Json) -> Json {
    let mut adjusted = messages.clone();
    let Json::Array(list) = &mut adjusted else {
        return adjusted;
    };
    let role = |m: &Json| {
        m.get("role")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string()
    };
    let mut call_order: std::collections::BTreeMap<String, usize> = Default::default();
    let mut i = 0;
    while i < list.len() {
        let r = role(&list[i]);
        if r == "assistant" && list[i].get("tool_calls").is_some_and(nonempty_array) {
            call_order.clear();
            if let Some(Json::Array(calls)) = list[i].get("tool_calls") {
                for (idx, tc) in calls.iter().enumerate() {
                    let id = tc.get("id").and_then(Json::as_str).unwrap_or("");
                    if !id.is_empty() {
                        call_order.insert(id.to_string(), idx);
                    }
                }
            }
            i += 1;
            continue;
        }
        if r != "user" && r != "tool" {
            i += 1;
            continue;
        }
        let mut tool_positions = Vec::new();
        let mut run_end = i;
        while run_end < list.len() {
            let rr = role(&list[run_end]);
            if rr == "tool" {
                tool_positions.push(run_end);
            } else if rr != "user" {
                break;
            }
            run_end += 1;
        }
        if tool_positions.len() > 1 && !call_order.is_empty() {
            let mut results: Vec<Json> = tool_positions.iter().map(|&p| list[p].clone()).collect();
            let order = |m: &Json| {
                let id = m.get("tool_call_id").and_then(Json::as_str).unwrap_or("");
                call_order.get(id).copied().unwrap_or(0)
            };
            results.sort_by_key(order);
            for (k, &p) in tool_positions.iter().enumerate() {
                list[p] = results[k].clone();
            }
        }
        i = run_end;
    }
    adjusted
}

fn deepseek_v3_2(tmpl: &Template, inputs: &GenParams) -> Result<ChatParams, Error> {
    let is_v4 = !tmpl.source().contains("function_calls");
    let has_response_format = inputs.json_schema.is_object();
    let context = if is_v4
        && has_response_format
        && tmpl
            .rules()
            .on(&changes::llamacpp::DEEPSEEK_V4_RESPONSE_FORMAT)
    {
        let mut o = Map::new();
        o.insert("response_format".into(), inputs.json_schema.clone());
        Some(Json::Object(o))
    } else {
        None
    };
    let r = Render {
        tmpl,
        inputs,
        messages: is_v4.then(|| deepseek_v4_sort_tool_results(&inputs.messages)),
        context,
    };
    let mut data = r.params("deepseek-v3.2", true)?;
    if inputs.has_continuation() {
        let m = &inputs.continue_msg;
        let gen = "<｜Assistant｜>";
        let gp = if is_v4
            && m.reasoning_content.is_empty()
            && tmpl
                .rules()
                .on(&changes::llamacpp::DEEPSEEK_V4_CONTINUATION_AFTER_THINK)
        {
            let mut gp = format!("{gen}</think>");
            if content_continues(inputs) {
                gp.push_str(&m.render_content("\n\n")?);
            }
            gp
        } else {
            think_continuation(inputs, gen, "<think>", "</think>")?
        };
        continue_with(&mut data, gp);
    }
    Ok(data)
}

/// `gemma4_model_turn_builder`: an assistant turn with tool calls, the
/// tool results after it and a final assistant answer folded into one
/// message with `tool_responses`.
fn convert_tool_responses_gemma4(messages: &mut Json) {
    let Json::Array(list) = messages else {
        return;
    };
    let role = |m: &Json| {
        m.get("role")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string()
    };
    let has_calls = |m: &Json| m.get("tool_calls").is_some_and(nonempty_array);
    let has_content = |m: &Json| match m.get("content") {
        Some(Json::String(s)) => !s.is_empty(),
        Some(Json::Array(a)) => !a.is_empty(),
        _ => false,
    };
    let mut result = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let msg = &list[i];
        if role(msg) != "assistant" || !has_calls(msg) {
            result.push(msg.clone());
            i += 1;
            continue;
        }
        let mut reasoning = Json::Null;
        if let Some(Json::String(r)) = msg.get("reasoning_content") {
            reasoning = Json::String(r.clone());
        }
        let mut tool_calls = Vec::new();
        if let Some(Json::Array(calls)) = msg.get("tool_calls") {
            tool_calls.extend(calls.iter().cloned());
        }
        i += 1;
        let mut responses = Vec::new();
        while i < list.len() && role(&list[i]) == "tool" {
            let cur = &list[i];
            let response = match cur.get("content") {
                Some(Json::String(s)) => {
                    serde_json::from_str::<Json>(s).unwrap_or_else(|_| Json::String(s.clone()))
                }
                Some(other) => other.clone(),
                None => Json::Null,
            };
            let mut name = String::new();
            if let Some(tc) = tool_calls.get(responses.len()) {
                if let Some(f) = tc.get("function") {
                    name = f
                        .get("name")
                        .and_then(Json::as_str)
                        .unwrap_or("")
                        .to_string();
                }
            }
            if name.is_empty() {
                name = cur
                    .get("tool_call_id")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string();
            }
            let mut r = Map::new();
            r.insert("name".into(), Json::String(name));
            r.insert("response".into(), response);
            responses.push(Json::Object(r));
            i += 1;
        }
        let mut content = Json::Null;
        if i < list.len() && role(&list[i]) == "assistant" {
            let next = &list[i];
            if !has_calls(next) && has_content(next) {
                content = next.get("content").cloned().unwrap_or(Json::Null);
                i += 1;
            }
        }
        let mut m = Map::new();
        m.insert("role".into(), Json::String("assistant".into()));
        m.insert("tool_calls".into(), Json::Array(tool_calls));
        if !responses.is_empty() {
            m.insert("tool_responses".into(), Json::Array(responses));
        }
        if !content.is_null() {
            m.insert("content".into(), content);
        }
        if !reasoning.is_null() {
            m.insert("reasoning_content".into(), reasoning);
        }
        result.push(Json::Object(m));
    }
    *list = result;
}

fn gemma4(tmpl: &Template, inputs: &GenParams) -> Result<ChatParams, Error> {
    let mut data = simple(tmpl, inputs, "gemma4", true)?;
    if inputs.add_generation_prompt && data.prompt.ends_with("<turn|>\n") {
        data.generation_prompt = "<|turn>model\n".into();
        data.prompt.push_str("<|turn>model\n");
    }
    if inputs.has_continuation() {
        let prefix = if data.prompt.ends_with("<turn|>\n") {
            "<|turn>model\n"
        } else {
            ""
        };
        let gp = think_continuation(inputs, prefix, "<|channel>thought\n", "<channel|>")?;
        continue_with(&mut data, gp);
    }
    Ok(data)
}

fn qwen3_coder(tmpl: &Template, inputs: &GenParams) -> Result<ChatParams, Error> {
    let supports_reasoning = tmpl.source().contains("<think>");
    let mut data = simple(tmpl, inputs, "qwen3-coder", supports_reasoning)?;
    if inputs.has_continuation() {
        let m = &inputs.continue_msg;
        let mut gp = String::from("<|im_start|>assistant\n");
        if supports_reasoning {
            gp.push_str("<think>\n");
            gp.push_str(&m.reasoning_content);
            if content_continues(inputs) {
                gp.push_str("\n</think>\n\n");
            }
        }
        if content_continues(inputs) {
            gp.push_str(&m.render_content("\n\n")?);
        }
        continue_with(&mut data, gp);
    }
    Ok(data)
}

/// `common_chat_try_specialized_template`: the first handler whose
/// markers the source has, in llama.cpp's order.
pub fn try_specialized(
    tmpl: &Template,
    src: &str,
    params: &mut GenParams,
) -> Result<Option<ChatParams>, Error> {
    let has = |s: &str| src.contains(s);
    let p = &*params;
    let r = if has("[SYSTEM_PROMPT]") && has("[TOOL_CALLS]") && has("[ARGS]") && !has("[CALL_ID]") {
        ministral_3(tmpl, p)?
    } else if has("<|channel|>") {
        gpt_oss(tmpl, p)?
    } else if has("<atem:function_calls>")
        && has("<|eom|>")
        // before: no Muse Glimmer handler (the autoparser takes it)
        && tmpl.rules().on(&changes::llamacpp::HANDLER_MUSE_GLIMMER)
    {
        muse_glimmer(tmpl, p)?
    } else if has(">>>all") && has(">>>${recipient}") {
        content_only(
            tmpl,
            p,
            "functionary-v3.2",
            "<|start_header_id|>assistant<|end_header_id|>\n\n>>>all\n",
        )?
    } else if has("<|tool_calls_section_begin|>") && has("<|tool_call_begin|>") {
        thinking(
            tmpl,
            p,
            "kimi-k2",
            "<|im_assistant|>assistant<|im_middle|>",
            "<think>",
            "</think>",
        )?
    } else if has("<|open|>")
        && has("<|close|>")
        && has("<|end_of_msg|>")
        // before: no Kimi K3 handler (the autoparser takes it)
        && tmpl.rules().on(&changes::llamacpp::HANDLER_KIMI_K3)
    {
        thinking(
            tmpl,
            p,
            "kimi-k3",
            "<|open|>message role=\"assistant\"<|sep|>",
            "<|open|>think<|sep|>",
            "<|close|>think<|sep|><|open|>response<|sep|>",
        )?
    } else if has("<role>ASSISTANT</role>")
        && has("<arg_key>")
        // before: no Ling 3.0 handler (the autoparser takes it)
        && tmpl.rules().on(&changes::llamacpp::HANDLER_LING3)
    {
        thinking(
            tmpl,
            p,
            "ling3",
            "<role>ASSISTANT</role>\n",
            "<think>",
            "</think>",
        )?
    } else if has("<|START_TEXT|>")
        && has("<|START_ACTION|>")
        // before the handler existed: the generic autoparser
        && tmpl.rules().on(&changes::llamacpp::HANDLER_COHERE2MOE)
    {
        thinking(
            tmpl,
            p,
            "cohere2moe",
            "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>",
            "<|START_THINKING|>",
            "<|END_THINKING|><|START_TEXT|>",
        )?
    } else if has("<|tool_list_start|>") && has("<|tool_list_end|>") {
        lfm2(tmpl, p, "lfm2")?
    } else if has("List of tools: [") && !has("<|tool_list_start|>") {
        lfm2(tmpl, p, "lfm2.5")?
    } else if has("<|role_sep|>") && has("<|message_sep|>") && !has("<|function_call|>") {
        content_only(tmpl, p, "gigachat-v3", "assistant<|role_sep|>\n")?
    } else if has("]<]minimax[>[") && has("<tool_call>") && has("<invoke name=") {
        minimax_m3(tmpl, p)?
    } else if has("dsml_token")
        && has("DSML")
        && (has("function_calls")
            // DeepSeek V4's templates (no function_calls), before their
            // handler: the generic autoparser
            || (has("tool_calls") && tmpl.rules().on(&changes::llamacpp::DEEPSEEK_V4_HANDLER)))
    {
        deepseek_v3_2(tmpl, p)?
    } else if has("'<|tool_call>call:'") {
        if !has("{#- OpenAI Chat Completions:") {
            convert_tool_responses_gemma4(&mut params.messages);
        }
        gemma4(tmpl, params)?
    } else if has("Tool usage guidelines:")
        && has("<function name=\"")
        && has("<param name=\"")
        // before the handler existed: the generic autoparser
        && tmpl.rules().on(&changes::llamacpp::HANDLER_MINICPM5)
    {
        thinking(
            tmpl,
            p,
            "minicpm5",
            "<|im_start|>assistant\n<think>\n",
            "",
            "\n</think>\n\n",
        )?
    } else if has("<tool_call>")
        && has("<function=")
        && has("<parameter=")
        // before: templates that glue the tags are routed here too
        && !(has("'<tool_call><function=' ~ tool_call.name ~ '>'")
            && tmpl.rules().on(&changes::llamacpp::QWEN3_CODER_ROUTING))
        // before the handler existed: the generic autoparser
        && tmpl.rules().on(&changes::llamacpp::HANDLER_QWEN3_CODER)
    {
        qwen3_coder(tmpl, p)?
    } else {
        return Ok(None);
    };
    Ok(Some(r))
}

/// The message delimiters a dedicated handler declares (common/chat.cpp,
/// `data.message_delimiters`), in the order llama-server tries them; `None`
/// for the autoparser, whose delimiters come from the template's analysis.
/// Handlers not listed declare none. [`delimiter_rows`] names the rows that
/// decide.
pub fn message_delimiters(
    handler: &str,
    rules: &changes::Rules,
) -> Option<Vec<(&'static str, &'static str)>> {
    const IM: [(&str, &str); 5] = [
        ("assistant", "<|im_start|>assistant"),
        ("tool", "<|im_start|>user\n<tool_response>"),
        ("tool", "<|im_start|>tool_response"),
        ("user", "<|im_start|>user"),
        ("system", "<|im_start|>system"),
    ];
    Some(match handler {
        "autoparser" => return None,
        // Qwen3-Coder, Qwen3.5, Nemotron Nano 3, StepFun-3.5-Flash
        "qwen3-coder" => IM.to_vec(),
        "minicpm5" => vec![IM[0], IM[1], IM[3], IM[4]],
        "gpt-oss" => vec![
            ("assistant", "<|start|>assistant"),
            ("user", "<|start|>user"),
            ("system", "<|start|>developer"),
            ("system", "<|start|>system"),
            ("tool", "<|start|>functions"),
        ],
        "muse-glimmer" => vec![
            ("assistant", "<|start|>assistant"),
            ("user", "<|start|>user"),
            ("system", "<|start|>system"),
            ("tool", "<|start|>tool"),
        ],
        "gemma4" => vec![("user", "<|turn>user"), ("assistant", "<|turn>model")],
        "kimi-k3" => vec![
            ("assistant", "<|open|>message role=\"assistant\"<|sep|>"),
            ("user", "<|open|>message role=\"user\"<|sep|>"),
            ("tool", "<|open|>message role=\"tool\""),
            ("system", "<|open|>message role=\"system\""),
        ],
        "cohere2moe" => vec![
            ("assistant", "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"),
            ("user", "<|START_OF_TURN_TOKEN|><|USER_TOKEN|>"),
            (
                "tool",
                "<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|><|START_TOOL_RESULT|>",
            ),
            ("system", "<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>"),
        ],
        "ling3" => vec![
            ("assistant", "<role>ASSISTANT</role>"),
            ("user", "<role>HUMAN</role>"),
            ("tool", "<role>OBSERVATION</role>"),
            ("system", "<role>SYSTEM</role>"),
        ],
        // before: none (no user-message checkpoints); not noted among the
        // render's rows: the delimiters do not change the prompt
        "deepseek-v3.2" if rules.has(&changes::llamacpp::DEEPSEEK_MESSAGE_DELIMITERS) => {
            vec![("assistant", "<｜Assistant｜>"), ("user", "<｜User｜>")]
        }
        "minimax-m3" => vec![
            ("assistant", "]~b]ai"),
            ("user", "]~b]user"),
            ("tool", "]~b]tool"),
            ("system", "]~b]developer"),
            ("system", "]~b]system"),
        ],
        _ => Vec::new(),
    })
}

/// The rows of the change table that decide a handler's message
/// delimiters (shown where the delimiters matter: the cache view).
pub fn delimiter_rows(handler: &str) -> Vec<&'static changes::Change> {
    match handler {
        "deepseek-v3.2" => vec![&changes::llamacpp::DEEPSEEK_MESSAGE_DELIMITERS],
        "ling3" => vec![&changes::llamacpp::HANDLER_LING3],
        _ => Vec::new(),
    }
}
