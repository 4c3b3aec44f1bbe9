#!/usr/bin/env python3
"""Copy llama.cpp's tests/test-jinja.cpp and make test_template_cpp also write one JSON line per call.

usage: patch.py LLAMA_CPP_DIR OUT_CPP

Works on the test file of b11312 (`using json = common_json;`) and of b10488 (`using json =
nlohmann::ordered_json;`). Only the C++ path is touched (test_template_cpp); the original t.test(...) check
still runs after the row is written, so the program's own PASS/FAIL summary stays as upstream prints it.
"""
import sys

src_dir, out = sys.argv[1], sys.argv[2]
text = open(f"{src_dir}/tests/test-jinja.cpp", encoding="utf-8").read()

def replace_once(text, old, new):
    n = text.count(old)
    if n != 1:
        sys.exit(f"patch.py: expected exactly one occurrence of {old!r}, found {n}")
    return text.replace(old, new)

# 1. the table writer, after `using json = ...;` (common_json in b11312, nlohmann::ordered_json in b10488)
if text.count('using json = common_json;\n') == 1:
    using, safe = 'using json = common_json;\n', 'row.dump_safe()'
else:
    using, safe = 'using json = nlohmann::ordered_json;\n', "row.dump(-1, ' ', false, json::error_handler_t::replace)"
text = replace_once(text, using, using + '''

#include <fstream>

// --- promptscope jinja-tables recorder ---
static std::ofstream * g_table = nullptr;

static std::string to_hex(const std::string & s) {
    static const char * digits = "0123456789abcdef";
    std::string r;
    for (unsigned char c : s) { r += digits[c >> 4]; r += digits[c & 15]; }
    return r;
}

static void record_row(testing & t, const std::string & name, const std::string & tmpl, const json & vars, const std::string & expect) {
    if (!g_table) {
        return;
    }
    json row = json::object();
    row["group"]    = t.full_name();
    row["name"]     = name;
    row["template"] = tmpl;
    row["vars"]     = vars;
    row["expect"]   = expect;
    std::string got;
    bool have_got = false;
    try {
        jinja::lexer lexer;
        auto lexer_res = lexer.tokenize(tmpl);
        jinja::program ast = jinja::parse_from_tokens(lexer_res);
        jinja::context ctx(tmpl);
        jinja::global_from_json(ctx, vars, true);
        jinja::runtime runtime(ctx);
        const jinja::value results = runtime.execute(ast);
        auto parts = runtime.gather_string_parts(results);
        for (const auto & part : parts->as_string().parts) {
            got += part.val;
        }
        have_got = true;
        row["got"] = got;
    } catch (const jinja::not_implemented_exception & e) {
        row["skip"] = std::string(e.what());
    } catch (const std::exception & e) {
        row["error"] = std::string(e.what());
    }
    std::string line;
    try {
        line = row.dump();
    } catch (const std::exception &) {
        // bad UTF-8 somewhere: keep the exact bytes as hex next to the replaced text
        row["bad_utf8"] = true;
        if (have_got) {
            row["got_hex"] = to_hex(got);
        }
        row["expect_hex"] = to_hex(expect);
        line = @SAFE@;
    }
    *g_table << line << "\\n";
    g_table->flush();
}
// --- end recorder ---
'''.replace("@SAFE@", safe))

# 2. the output file: PROMPTSCOPE_JINJA_TABLE=path
text = replace_once(text, '''    testing t(std::cout);
    t.verbose = true;
''', '''    testing t(std::cout);
    t.verbose = true;

    if (const char * table = std::getenv("PROMPTSCOPE_JINJA_TABLE")) {
        g_table = new std::ofstream(table, std::ios::binary | std::ios::trunc);
    }
''')

# 3. record before the upstream check runs
text = replace_once(text, '''static void test_template_cpp(testing & t, const std::string & name, const std::string & tmpl, const json & vars, const std::string & expect) {
''', '''static void test_template_cpp(testing & t, const std::string & name, const std::string & tmpl, const json & vars, const std::string & expect) {
    record_row(t, name, tmpl, vars, expect);
''')

open(out, "w", encoding="utf-8").write(text)
