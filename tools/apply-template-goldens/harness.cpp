// apply-template-goldens harness: what llama-server answers to POST /apply-template.
//
// Reads cases (JSONL) on stdin, one per line:
//   {"template": "<file name>", "case": "...", "bos_token": "...", "eos_token": "...", "body": {...}
//    [, "server": {"allow_image": true, "allow_audio": true, "allow_video": true}]}
// argv[1] is the directory holding the template files. Writes one JSONL row per case on stdout:
//   {..., "prompt": "..."}  or  {..., "error": {"status": N, "body": {...}, "what": "..."}}
//
// The request path is llama-server's own code: oaicompat_chat_params_parse() and format_error_response()
// from libllama-server-impl.so (tools/server/server-common.cpp), wrapped the way server.cpp's ex_wrapper()
// and server-context.cpp's post_apply_template do. The server state (server_chat_params) is built the way
// the linked build's llama-server builds it: its own common_params_parse() (common/arg.cpp, with that build's
// defaults and post-processing) run on the command line Ollama launches llama-server with, then
// server-context.cpp load_model()'s "populate chat template params"; see load_chat_params() below.
// The optional "server" object of a case stands for a loaded mmproj (allow_image/audio/video).
//
// Builds with llama.cpp's common_json wrapper (b11312: common/json.h) and builds on plain
// nlohmann::ordered_json (b10488) both compile: record.sh defines PROMPTSCOPE_COMMON_JSON for the former.
//
// The clock is fixed (PROMPTSCOPE_NOW, epoch seconds, default 1768472430 = 2026-01-15 10:20:30 UTC; run with
// TZ=UTC): time(), clock_gettime(CLOCK_REALTIME*) and gettimeofday() are interposed, since llama.cpp reads
// the wall clock directly (jinja context current_time = std::time(nullptr) for strftime_now, and
// common_chat_extra_context() uses system_clock::now() for datetime/date_string; inputs.now is not used for
// either).

#include "server-common.h"

#include "arg.h"
#include "chat.h"
#include "common.h"
#include "log.h"

#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

// ---- fixed clock: fixed_clock.c is linked into this program (and LD_PRELOADed into llama-server by verify_server.py) ----

// ---- server state ----
// The command line Ollama (llm/llama_server.go, v0.33.0-rc2) starts llama-server with, without the flags that
// only matter with a real model (--mmproj, -ngl, ...): no --jinja/--reasoning/--chat-template-kwargs, so every
// chat default is the build's own. PROMPTSCOPE_SERVER_ARGS (space-separated) appends more flags.
static common_params parse_server_args() {
    std::vector<std::string> args = {
        "llama-server", "--model", "/nonexistent/model.gguf", "--port", "0", "--host", "127.0.0.1", "--no-webui",
        "--offline", "-c", "4096", "-np", "1", "--log-verbosity", "4", "--no-log-prefix", "--no-log-timestamps",
    };
    if (const char * extra = std::getenv("PROMPTSCOPE_SERVER_ARGS")) {
        std::istringstream ss(extra);
        std::string a;
        while (ss >> a) {
            args.push_back(a);
        }
    }
    std::vector<char *> argv;
    for (auto & a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    common_params params;
    if (!common_params_parse((int) args.size(), argv.data(), params, LLAMA_EXAMPLE_SERVER)) {
        fprintf(stderr, "harness: common_params_parse refused the llama-server command line\n");
        exit(2);
    }
    common_log_set_verbosity_thold(-1);
    return params;
}

// server-context.cpp load_model(): "populate chat template params" from params_base (as parsed above)
static server_chat_params load_chat_params(const common_params & params_base, const std::string & src,
                                           const std::string & bos, const std::string & eos,
                                           const json & server, bool & enable_thinking_out) {
    common_chat_templates_ptr chat_templates;
    bool enable_thinking = false;
    // the server reads the model's vocab for bos/eos; here they come from the case
    chat_templates = common_chat_templates_init(nullptr, src, bos, eos);
    const bool template_supports_thinking = params_base.use_jinja && common_chat_templates_support_enable_thinking(chat_templates.get());
    enable_thinking = params_base.enable_reasoning != 0 && template_supports_thinking;
    enable_thinking_out = enable_thinking;

    // mtmd_support_vision/audio, mtmd_helper_support_video of a loaded mmproj
    auto allow = [&](const char * key) { return server.is_object() && server.contains(key) && server.at(key).get<bool>(); };

    return server_chat_params {
        /* use_jinja             */ params_base.use_jinja,
        /* prefill_assistant     */ params_base.prefill_assistant,
        /* reasoning_format      */ params_base.reasoning_format,
        /* chat_template_kwargs  */ params_base.default_template_kwargs,
        /* tmpls                 */ std::move(chat_templates),
        /* allow_image           */ allow("allow_image"),
        /* allow_audio           */ allow("allow_audio"),
#ifndef PROMPTSCOPE_NO_ALLOW_VIDEO // b9509 and older: server_chat_params has no allow_video (video input came in b9510-b9621)
        /* allow_video           */ allow("allow_video"),
#endif
        /* enable_thinking       */ enable_thinking,
        /* reasoning_budget      */ params_base.sampling.reasoning_budget_tokens,
        /* reasoning_budget_msg  */ params_base.sampling.reasoning_budget_message,
        /* media_path            */ params_base.media_path,
        /* force_pure_content    */ params_base.force_pure_content_parser
    };
}

static std::string dump_row(const json & j) {
#ifdef PROMPTSCOPE_COMMON_JSON
    return j.dump_safe();
#else
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
#endif
}

static std::string read_file(const std::string & path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        throw std::runtime_error("cannot read " + path);
    }
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

int main(int argc, char ** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s TEMPLATES_DIR < cases.jsonl > rows.jsonl\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const common_params params_base = parse_server_args();
    {
        json kw = json::object();
        for (const auto & [k, v] : params_base.default_template_kwargs) {
            kw[k] = v;
        }
        fprintf(stderr, "harness: llama-server defaults: use_jinja=%d prefill_assistant=%d reasoning_format=%s "
                        "enable_reasoning=%d chat_template_kwargs=%s\n",
                (int) params_base.use_jinja, (int) params_base.prefill_assistant,
                common_reasoning_format_name(params_base.reasoning_format), (int) params_base.enable_reasoning,
                kw.dump().c_str());
    }

    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty()) {
            continue;
        }
        json c = json::parse(line);
        const std::string tname = c.at("template").get<std::string>();
        const std::string bos   = c.at("bos_token").get<std::string>();
        const std::string eos   = c.at("eos_token").get<std::string>();

        json row = json::object();
        row["template"]  = tname;
        row["case"]      = c.at("case");
        row["bos_token"] = bos;
        row["eos_token"] = eos;
        row["body"]      = c.at("body");
        const json server = c.contains("server") ? c.at("server") : json();
        if (server.is_object()) {
            row["server"] = server;
        }

        const std::string src = read_file(dir + "/" + tname);

        // startup: a template that fails here keeps llama-server from starting (load_model returns false)
        server_chat_params chat_params;
        bool enable_thinking = false;
        try {
            chat_params = load_chat_params(params_base, src, bos, eos, server, enable_thinking);
        } catch (const std::exception & e) {
            json err = json::object();
            err["status"] = nullptr;
            err["stage"]  = "startup";
            err["what"]   = std::string(e.what());
            row["error"]  = err;
            std::cout << dump_row(row) << "\n" << std::flush;
            continue;
        }
        row["enable_thinking_default"] = enable_thinking;

        // server.cpp ex_wrapper() around server-context.cpp post_apply_template
        json body = c.at("body");
        std::string message;
        error_type error;
        bool ok = false;
        std::string exc_type;
        try {
            std::vector<raw_buffer> files; // dummy, unused
            json data = oaicompat_chat_params_parse(body, chat_params, files);
            json res = json::object();
            res["prompt"] = data.at("prompt");
            row["prompt"] = res.at("prompt");
            // PROMPTSCOPE_DELIMITERS=1 (tools/slot-goldens): also the message delimiters the handler declared,
            // which server-context.cpp tokenizes to find the user-message starts it checkpoints at
            if (getenv("PROMPTSCOPE_DELIMITERS") != nullptr) {
                row["message_delimiters"] = data.contains("message_delimiters") ? data.at("message_delimiters") : json();
            }
            ok = true;
        } catch (const std::invalid_argument & e) {
            error    = ERROR_TYPE_INVALID_REQUEST;
            message  = e.what();
            exc_type = "std::invalid_argument";
        } catch (const std::exception & e) {
            error    = ERROR_TYPE_SERVER;
            message  = e.what();
            exc_type = "std::exception";
        } catch (...) {
            error    = ERROR_TYPE_SERVER;
            message  = "unknown error";
            exc_type = "unknown";
        }
        if (!ok) {
            int status = 500;
            std::string data;
            try {
                json error_data = format_error_response(message, error);
                status = json_value(error_data, "code", 500);
                json wrapped = json::object();
                wrapped["error"] = error_data;
                data = safe_json_to_str(wrapped);
            } catch (const std::exception & e) {
                data = "Internal Server Error";
            }
            json err = json::object();
            err["status"] = status;
            try {
                err["body"] = json::parse(data);
            } catch (const std::exception &) {
                err["body"] = data;
            }
            err["body_text"] = data;
            err["what"]      = message;
            err["exception"] = exc_type;
            row["error"]     = err;
        }
        std::cout << dump_row(row) << "\n" << std::flush;
    }
    return 0;
}
