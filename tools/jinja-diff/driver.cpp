// jinja-diff driver: llama.cpp's own common/jinja (linked from libllama-common.so) on JSON lines.
//
// in:  {"template": ..., "vars": {...}[, "mode": "render"|"caps"|"dump"][, "runs_vars": [{...}, ...]]}
// out: {"got": HEX} | {"error": HEX} | {"skip": HEX} (not_implemented_exception) | {"caps": {...}}
//      with "runs_vars" (render only): {"runs": [{...}, ...]}, the template parsed once and rendered once per
//      entry, each on a fresh context, as llama-server reuses one parsed template across requests.
// argv[1] "caps" / "dump" sets the mode of lines without one. Hex keeps invalid UTF-8 intact.
//
// Compiles against b11312 (common_json, common/json.h: define PROMPTSCOPE_COMMON_JSON) and b10488
// (nlohmann::ordered_json). Builds without runtime::debug_dump_program (b9781: it came in b9831-b9837) compile
// with PROMPTSCOPE_NO_DEBUG_DUMP, and their "dump" lines answer {"skip": hex("PROMPTSCOPE_NO_DEBUG_DUMP")}.
#include "jinja/runtime.h"
#include "jinja/parser.h"
#include "jinja/lexer.h"
#include "jinja/caps.h"
#ifdef PROMPTSCOPE_COMMON_JSON
#include "json.h"
using json = common_json;
#else
#include <nlohmann/json.hpp>
using json = nlohmann::ordered_json;
#endif
#include <iostream>
#include <string>

static std::string hx(const std::string & s) {
    static const char * d = "0123456789abcdef";
    std::string o;
    for (unsigned char c : s) {
        o += d[c >> 4];
        o += d[c & 15];
    }
    return o;
}

// a fixed moment (2026-12-01 12:00 UTC) for strftime_now, as crates/jinja/tests/golden_cpp.rs renders with
static const std::time_t RECORDED_AT = 1796126400;

static json render_once(jinja::program & ast, const std::string & tmpl, const json & vars) {
    json out = json::object();
    try {
        jinja::context ctx(tmpl);
        ctx.current_time = RECORDED_AT;
        jinja::global_from_json(ctx, vars, true);
        jinja::runtime rt(ctx);
        auto res = rt.execute(ast);
        auto parts = rt.gather_string_parts(res);
        std::string r;
        for (auto & p : parts->as_string().parts) {
            r += p.val;
        }
        out["got"] = hx(r);
    } catch (const jinja::not_implemented_exception & e) {
        out["skip"] = hx(e.what());
    } catch (const std::exception & e) {
        out["error"] = hx(e.what());
    }
    return out;
}

int main(int argc, char ** argv) {
    const std::string default_mode = argc > 1 ? std::string(argv[1]) : std::string("render");
    std::string line;
    while (std::getline(std::cin, line)) {
        json in = json::parse(line);
        std::string tmpl = in["template"].get<std::string>();
        std::string mode = in.contains("mode") ? in["mode"].get<std::string>() : default_mode;
        json runs_vars = in.contains("runs_vars") ? in["runs_vars"] : json();
        json vars = in.contains("vars") ? in["vars"] : json::object();
        json out = json::object();
        try {
            jinja::lexer lexer;
            auto lr = lexer.tokenize(tmpl);
            jinja::program ast = jinja::parse_from_tokens(lr);
            if (mode == "dump") {
#ifdef PROMPTSCOPE_NO_DEBUG_DUMP
                // b9781 and older have no runtime::debug_dump_program (record.py leaves generated-dump out)
                out["skip"] = hx("PROMPTSCOPE_NO_DEBUG_DUMP");
#else
                out["got"] = hx(jinja::runtime::debug_dump_program(ast, tmpl));
#endif
            } else if (mode == "caps") {
                auto c = jinja::caps_get(ast);
                json m = json::object();
                for (auto & [k, v] : c.to_map()) {
                    m[k] = v;
                }
                out["caps"] = m;
            } else if (runs_vars.is_array()) {
                json runs = json::array();
                for (const auto & v : runs_vars) {
                    runs.push_back(render_once(ast, tmpl, v));
                }
                out["runs"] = runs;
            } else {
                out = render_once(ast, tmpl, vars);
            }
        } catch (const jinja::not_implemented_exception & e) {
            out["skip"] = hx(e.what());
        } catch (const std::exception & e) {
            out["error"] = hx(e.what());
        }
        std::string s;
        try {
            s = out.dump();
        } catch (...) {
            s = "{\"error\":\"<dump failed: invalid utf8>\"}";
        }
        std::cout << s << "\n" << std::flush;
    }
}
