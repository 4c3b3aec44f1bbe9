#!/usr/bin/env python3
"""Copy llama.cpp's tests/test-chat-template.cpp and make its jinja paths write JSONL rows.

usage: patch.py LLAMA_CPP_DIR OUT_CPP

Recorded (to $PROMPTSCOPE_CHAT_TABLE, one JSON line each):
  - main_automated_tests(): each test case of the "(jinja)" loop (format_using_common ->
    common_chat_templates_apply), before its assert;
  - run_single() with use_common (what `test-chat-template DIR` / `--with-tools` runs per .jinja file).
Asserts stay as upstream has them (the file keeps `#undef NDEBUG`), so a mismatch still aborts, after
its row is written. Works on the test file of b11312 (common_json) and of b10488 (nlohmann::ordered_json).
"""
import sys

src_dir, out = sys.argv[1], sys.argv[2]
text = open(f"{src_dir}/tests/test-chat-template.cpp", encoding="utf-8").read()


def replace_once(text, old, new):
    n = text.count(old)
    if n != 1:
        sys.exit(f"patch.py: expected exactly one occurrence of {old!r}, found {n}")
    return text.replace(old, new)


# b11312 wraps nlohmann in common_json; b10488 uses nlohmann::ordered_json directly
if text.count("using json = common_json;\n") == 1:
    using, safe, jtype = "using json = common_json;\n", "row.dump_safe()", "common_json"
else:
    using, safe, jtype = ("using json = nlohmann::ordered_json;\n",
                          "row.dump(-1, ' ', false, json::error_handler_t::replace)", "nlohmann::ordered_json")
text = replace_once(text, using, using + '''

// --- promptscope chat-template-tables recorder ---
static std::ofstream * g_table = nullptr;
static std::string g_template_file; // set by run_multiple()
static std::string g_input_name;    // PROMPTSCOPE_CHAT_INPUT: "default" or "with_tools"

static void table_write(json row) {
    if (g_table) {
        *g_table << @SAFE@ << "\\n";
        g_table->flush();
    }
}

static json msgs_to_json(const std::vector<common_chat_msg> & msgs) {
    json arr = json::array();
    for (const auto & m : msgs) {
        json o = json::object();
        o["role"]    = m.role;
        o["content"] = m.content;
        arr.push_back(o);
    }
    return arr;
}
// --- end recorder ---
'''.replace("@SAFE@", safe))

text = replace_once(text, '''    std::vector<std::string> args(argv, argv + argc);
''', '''    std::vector<std::string> args(argv, argv + argc);
    if (const char * table = std::getenv("PROMPTSCOPE_CHAT_TABLE")) {
        g_table = new std::ofstream(table, std::ios::binary | std::ios::app);
    }
    if (const char * in = std::getenv("PROMPTSCOPE_CHAT_INPUT")) {
        g_input_name = in;
    }
''')

# run_multiple: remember the file name
text = replace_once(text, '''            std::cout << "\\n\\n=== RUNNING TEMPLATE FILE: " << entry.path().string() << " ===\\n";
''', '''            std::cout << "\\n\\n=== RUNNING TEMPLATE FILE: " << entry.path().string() << " ===\\n";
            g_template_file = entry.path().filename().string();
''')

# run_single (use_common): record prompt or error (@JTYPE@: the json type the file spells out there)
text = text.replace(f"{jtype} msgs_json", "@JTYPE@ msgs_json").replace(f"{jtype} tools_json", "@JTYPE@ tools_json")
text = replace_once(text, '''        @JTYPE@ msgs_json = input["messages"];
        @JTYPE@ tools_json = input["tools"];
        auto messages = common_chat_msgs_parse_oaicompat(msgs_json);
        auto tools = common_chat_tools_parse_oaicompat(tools_json);
        auto output = format_using_common(contents, bos_token, eos_token, messages, tools);
''', '''        @JTYPE@ msgs_json = input["messages"];
        @JTYPE@ tools_json = input["tools"];
        json row = json::object();
        row["source"]    = "run_single";
        row["template"]  = g_template_file;
        row["case"]      = g_input_name;
        row["bos_token"] = bos_token;
        row["eos_token"] = eos_token;
        row["messages"]  = msgs_json;
        row["tools"]     = tools_json;
        std::string output;
        try {
            auto messages = common_chat_msgs_parse_oaicompat(msgs_json);
            auto tools = common_chat_tools_parse_oaicompat(tools_json);
            output = format_using_common(contents, bos_token, eos_token, messages, tools);
            row["prompt"] = output;
            table_write(row);
        } catch (const std::exception & e) {
            row["error"] = std::string(e.what());
            table_write(row);
            throw;
        }
''')

# automated jinja loop
text = replace_once(text, '''        std::cout << "\\n\\n=== " << test_case.name << " (jinja) ===\\n\\n";
''', '''        std::cout << "\\n\\n=== " << test_case.name << " (jinja) ===\\n\\n";
        {
            auto msgs = messages;
            for (const auto & msg : test_case.extra_conversation) {
                msgs.push_back(simple_msg(msg.role, msg.content));
            }
            json row = json::object();
            row["source"]    = "automated";
            row["template"]  = test_case.template_str;
            row["case"]      = test_case.name;
            row["bos_token"] = test_case.bos_token;
            row["eos_token"] = test_case.eos_token;
            row["messages"]  = msgs_to_json(msgs);
            row["expect"]    = normalize_newlines(test_case.expected_output_jinja.empty() ? test_case.expected_output : test_case.expected_output_jinja);
            try {
                row["prompt"] = format_using_common(test_case.template_str, test_case.bos_token, test_case.eos_token, msgs);
            } catch (const std::exception & e) {
                row["error"] = std::string(e.what());
            }
            table_write(row);
        }
''')

open(out, "w", encoding="utf-8").write(text.replace("@JTYPE@", jtype))
