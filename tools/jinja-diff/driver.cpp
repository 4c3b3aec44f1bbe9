#include "jinja/runtime.h"
#include "jinja/parser.h"
#include "jinja/lexer.h"
#include "jinja/caps.h"
#include "json.h"
#include <iostream>
#include <string>
static std::string hx(const std::string&s){static const char*d="0123456789abcdef";std::string o;for(unsigned char c:s){o+=d[c>>4];o+=d[c&15];}return o;}
using json = common_json;
int main(int argc, char**argv) {
    bool caps = argc > 1 && std::string(argv[1]) == "caps";
    bool dump = argc > 1 && std::string(argv[1]) == "dump";
    std::string line;
    while (std::getline(std::cin, line)) {
        json in = json::parse(line);
        std::string tmpl = in["template"].get<std::string>();
        json out = json::object();
        try {
            jinja::lexer lexer;
            auto lr = lexer.tokenize(tmpl);
            jinja::program ast = jinja::parse_from_tokens(lr);
            if (dump) {
                out["got"] = hx(jinja::runtime::debug_dump_program(ast, tmpl));
            } else if (caps) {
                auto c = jinja::caps_get(ast);
                json m = json::object();
                for (auto & [k, v] : c.to_map()) m[k] = v;
                out["caps"] = m;
            } else {
                jinja::context ctx(tmpl);
                // a fixed moment (2026-12-01 12:00 UTC) for strftime_now, as
                // crates/jinja/tests/golden_cpp.rs renders with
                ctx.current_time = 1796126400;
                jinja::global_from_json(ctx, in["vars"], true);
                jinja::runtime rt(ctx);
                auto res = rt.execute(ast);
                auto parts = rt.gather_string_parts(res);
                std::string r;
                for (auto & p : parts->as_string().parts) r += p.val;
                out["got"] = hx(r);
            }
        } catch (const jinja::not_implemented_exception & e) {
            out["skip"] = hx(e.what());
        } catch (const std::exception & e) {
            out["error"] = hx(e.what());
        }
        std::string s;
        try { s = out.dump(); } catch (...) { s = "{\"error\":\"<dump failed: invalid utf8>\"}"; }
        std::cout << s << "\n" << std::flush;
    }
}
