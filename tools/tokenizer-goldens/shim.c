/* Loads a vocabulary-only model through libllama so that record_libllama.py
 * can call llama_tokenize / llama_detokenize / llama_token_to_piece through
 * ctypes without mirroring struct llama_model_params. */
#include "llama.h"
#include <stddef.h>

static void quiet(enum ggml_log_level level, const char * text, void * user) {
    (void) level; (void) text; (void) user;
}

const struct llama_vocab * ps_load_vocab(const char * path) {
    llama_log_set(quiet, NULL);
    llama_backend_init();
    struct llama_model_params p = llama_model_default_params();
    p.vocab_only = true;
    struct llama_model * m = llama_model_load_from_file(path, p);
    if (!m) {
        return NULL;
    }
    return llama_model_get_vocab(m);
}
