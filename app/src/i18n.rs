//! The interface's message catalogue: English, Spanish and Russian.
//!
//! Every string the UI shows goes through [`t`] or [`tf`] (`{name}`
//! placeholders). Texts that come from Ollama or the engine (errors, rules,
//! notes) are shown as they are: they are what Ollama says.

/// An interface language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Spanish.
    Es,
    /// Russian.
    Ru,
}

impl Lang {
    /// Every language, in switcher order.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Es, Lang::Ru];

    /// The BCP 47 code (`en`, `es`, `ru`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
            Lang::Ru => "ru",
        }
    }

    /// The language's name in itself.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Es => "Español",
            Lang::Ru => "Русский",
        }
    }

    /// The language of a tag such as `es-419` or `ru_RU`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag
            .trim()
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "es" => Some(Lang::Es),
            "ru" => Some(Lang::Ru),
            _ => None,
        }
    }
}

/// The first supported language among the browser's preferences, else English.
pub fn negotiate(tags: &[String]) -> Lang {
    tags.iter()
        .find_map(|t| Lang::from_tag(t))
        .unwrap_or_default()
}

/// `(key, English, Spanish, Russian)`.
type Entry = (&'static str, &'static str, &'static str, &'static str);

#[rustfmt::skip]
const CATALOGUE: &[Entry] = &[
    ("app.tagline",
     "See exactly what prompt Ollama builds. Everything runs in your browser; nothing is sent anywhere.",
     "Mira exactamente qué prompt construye Ollama. Todo se ejecuta en tu navegador; nada se envía a ningún sitio.",
     "Точный промпт, который собирает Ollama. Всё работает в браузере; ничего никуда не отправляется."),
    ("app.skip", "Skip to the prompt", "Ir al prompt", "Перейти к промпту"),
    ("sources.label", "Model from:", "Modelo desde:", "Модель из:"),
    ("sources.folder", "Ollama folder", "Carpeta de Ollama", "Папка Ollama"),
    ("sources.gguf", "GGUF file", "Archivo GGUF", "Файл GGUF"),
    ("sources.modelfile", "Modelfile or /api/show", "Modelfile o /api/show", "Modelfile или /api/show"),
    ("model.release", "Ollama release", "Versión de Ollama", "Версия Ollama"),
    ("sources.config", "tokenizer_config.json", "tokenizer_config.json", "tokenizer_config.json"),
    ("sources.template", "Your TEMPLATE", "Su TEMPLATE", "Свой TEMPLATE"),
    ("nav.label", "Go to", "Ir a", "Перейти к"),
    ("model.gguf_keys_region", "GGUF metadata keys", "Claves de metadatos del GGUF", "Ключи метаданных GGUF"),
    ("model.gguf_tensors_region", "GGUF tensors", "Tensores del GGUF", "Тензоры GGUF"),
    ("nav.gguf", "GGUF metadata", "Metadatos GGUF", "Метаданные GGUF"),
    ("model.more", "More: MESSAGE, PARAMETER, RENDERER, PARSER, family, OLLAMA_GO_TEMPLATE, date, capabilities", "Más: MESSAGE, PARAMETER, RENDERER, PARSER, familia, OLLAMA_GO_TEMPLATE, fecha, capacidades", "Ещё: MESSAGE, PARAMETER, RENDERER, PARSER, семейство, OLLAMA_GO_TEMPLATE, дата, возможности"),
    ("model.more_set", "({n} set)", "({n} definidos)", "(задано: {n})"),
    ("app.footer",
     "Ollama's Go templates run in a pure-Rust port of Go's text/template that aims for Go's exact output and error messages.",
     "Las plantillas Go de Ollama se ejecutan en una versión en Rust puro de text/template de Go, que busca la salida y los mensajes de error exactos de Go.",
     "Go-шаблоны Ollama выполняются переносом text/template из Go на чистый Rust, который стремится к точному выводу и сообщениям об ошибках Go."),

    ("settings.language", "Language", "Idioma", "Язык"),
    ("settings.theme", "Theme", "Tema", "Тема"),
    ("settings.theme_system", "System theme", "Tema del sistema", "Системная тема"),
    ("settings.theme_light", "Light", "Claro", "Светлая"),
    ("settings.theme_dark", "Dark", "Oscuro", "Тёмная"),

    ("examples.label", "Examples", "Ejemplos", "Примеры"),
    ("examples.undo", "Undo: bring back what the example replaced", "Deshacer: recuperar lo que el ejemplo reemplazó", "Отменить: вернуть то, что заменил пример"),
    ("ex.chatml", "ChatML: <|im_start|>role … <|im_end|>", "ChatML: <|im_start|>rol … <|im_end|>", "ChatML: <|im_start|>роль … <|im_end|>"),
    ("ex.llama3", "Llama 3 headers and <|eot_id|>", "Cabeceras de Llama 3 y <|eot_id|>", "Заголовки Llama 3 и <|eot_id|>"),
    ("ex.mistral", "Mistral [INST] turns, system prompt in the first one", "Turnos [INST] de Mistral, el sistema en el primero", "Реплики [INST] Mistral, системный промпт в первой"),
    ("ex.gemma", "Gemma <start_of_turn> turns (no system role)", "Turnos <start_of_turn> de Gemma (sin rol de sistema)", "Реплики <start_of_turn> Gemma (без роли system)"),
    ("ex.phi", "Phi <|user|> / <|assistant|> turns", "Turnos <|user|> / <|assistant|> de Phi", "Реплики Phi <|user|> / <|assistant|>"),
    ("ex.qwen", "Qwen-style tools, tool calls, tool responses and thinking", "Herramientas, llamadas, respuestas y razonamiento al estilo de Qwen", "Инструменты, вызовы, ответы инструментов и рассуждения в стиле Qwen"),
    ("ex.legacy", "A legacy template: one .Prompt/.Response run per turn", "Una plantilla antigua: una ejecución de .Prompt/.Response por turno", "Старый шаблон: по одному запуску .Prompt/.Response на реплику"),
    ("ex.fim", "Fill in the middle: /api/generate with a suffix", "Relleno intermedio: /api/generate con sufijo", "Заполнение середины: /api/generate с suffix"),
    ("ex.renderer", "A built-in Go renderer instead of the template", "Un renderizador Go integrado en lugar de la plantilla", "Встроенный рендерер Go вместо шаблона"),
    ("ex.gguf", "The GGUF chat template has more capabilities, so Ollama prefers it", "La plantilla de chat del GGUF tiene más capacidades, así que Ollama la prefiere", "У шаблона чата из GGUF больше возможностей, поэтому Ollama выбирает его"),
    ("ex.openai_tools", "POST /v1/chat/completions from an OpenAI SDK: tools, a tool call with string arguments and the tool's answer", "POST /v1/chat/completions desde un SDK de OpenAI: herramientas, una llamada con argumentos en texto y la respuesta de la herramienta", "POST /v1/chat/completions из SDK OpenAI: инструменты, вызов со строковыми аргументами и ответ инструмента"),
    ("ex.claude_code", "POST /v1/messages as Claude Code sends it: cached system blocks, many tools, tool_use and tool_result blocks", "POST /v1/messages como lo envía Claude Code: bloques de sistema en caché, muchas herramientas, bloques tool_use y tool_result", "POST /v1/messages так, как его шлёт Claude Code: кэшируемые системные блоки, много инструментов, блоки tool_use и tool_result"),
    ("ex.responses", "POST /v1/responses: instructions, message items, a function_call and its function_call_output", "POST /v1/responses: instructions, elementos de mensaje, un function_call y su function_call_output", "POST /v1/responses: instructions, элементы-сообщения, function_call и его function_call_output"),

    ("toolbar.label", "State", "Estado", "Состояние"),
    ("toolbar.share", "Share link", "Enlace para compartir", "Ссылка"),
    ("toolbar.share_url", "Share link address", "Dirección del enlace", "Адрес ссылки"),
    ("toolbar.export", "Export JSON", "Exportar JSON", "Экспорт JSON"),
    ("toolbar.import", "Import JSON", "Importar JSON", "Импорт JSON"),

    ("notice.copied", "Copied.", "Copiado.", "Скопировано."),
    ("notice.copy_failed", "The clipboard is not available here; select the text and copy it.", "El portapapeles no está disponible aquí; selecciona el texto y cópialo.", "Буфер обмена здесь недоступен; выделите текст и скопируйте его."),
    ("notice.link_copied", "Share link copied. It holds the whole state; nothing is uploaded.", "Enlace copiado. Contiene todo el estado; no se sube nada.", "Ссылка скопирована. В ней всё состояние; ничего не загружается на сервер."),
    ("notice.link_ready", "Share link ready below. It holds the whole state; nothing is uploaded.", "El enlace está abajo. Contiene todo el estado; no se sube nada.", "Ссылка ниже. В ней всё состояние; ничего не загружается на сервер."),
    ("notice.imported", "State imported.", "Estado importado.", "Состояние импортировано."),
    ("notice.import_failed", "Could not import: {why}", "No se pudo importar: {why}", "Не удалось импортировать: {why}"),
    ("notice.bad_link", "This share link could not be read: {why}", "No se pudo leer este enlace: {why}", "Не удалось прочитать ссылку: {why}"),
    ("notice.filled_curl", "Filled from the curl command ({path}).", "Rellenado desde el comando curl ({path}).", "Заполнено из команды curl ({path})."),
    ("notice.filled_body", "Filled from the request body.", "Rellenado desde el cuerpo de la petición.", "Заполнено из тела запроса."),
    ("notice.filled_body_as", "Filled from the request body ({path}).", "Rellenado desde el cuerpo de la petición ({path}).", "Заполнено из тела запроса ({path})."),
    ("notice.example_loaded", "Example loaded: {name}.", "Ejemplo cargado: {name}.", "Пример загружен: {name}."),
    ("notice.example_undone", "Your template and request are back.", "Su plantilla y su petición han vuelto.", "Ваш шаблон и запрос возвращены."),
    ("notice.example_system_dropped", "The example's SYSTEM went with its TEMPLATE: your template gets no system prompt you did not write.", "El SYSTEM del ejemplo se fue con su TEMPLATE: su plantilla no recibe un prompt de sistema que usted no escribió.", "SYSTEM примера ушёл вместе с его TEMPLATE: ваш шаблон не получит системный промпт, которого вы не писали."),

    ("editor.go_to_line", "Go to the error (line {line})", "Ir al error (línea {line})", "К ошибке (строка {line})"),

    ("model.title", "Model", "Modelo", "Модель"),
    ("model.has_template", "The Modelfile has a TEMPLATE", "El Modelfile tiene TEMPLATE", "В Modelfile есть TEMPLATE"),
    ("model.template", "TEMPLATE (Go text/template)", "TEMPLATE (text/template de Go)", "TEMPLATE (Go text/template)"),
    ("model.template_hint", "As in a Modelfile. Without one Ollama uses {{ .Prompt }} or the GGUF chat template.", "Como en un Modelfile. Sin ella Ollama usa {{ .Prompt }} o la plantilla de chat del GGUF.", "Как в Modelfile. Без него Ollama использует {{ .Prompt }} или шаблон чата из GGUF."),
    ("model.messages", "MESSAGE lines (JSON list)", "Líneas MESSAGE (lista JSON)", "Строки MESSAGE (список JSON)"),
    ("model.messages_hint", "The Modelfile's MESSAGE lines as /api/chat messages; they come before the request's.", "Las líneas MESSAGE del Modelfile como mensajes de /api/chat; van antes que los de la petición.", "Строки MESSAGE из Modelfile как сообщения /api/chat; они идут перед сообщениями запроса."),
    ("model.renderer", "RENDERER", "RENDERER", "RENDERER"),
    ("model.parser", "PARSER", "PARSER", "PARSER"),
    ("model.none", "(none)", "(ninguno)", "(нет)"),
    ("model.family", "Family", "Familia", "Семейство"),
    ("model.env_unset", "unset", "sin definir", "не задана"),
    ("model.env_other", "other value…", "otro valor…", "другое значение…"),
    ("model.env_value", "Value", "Valor", "Значение"),
    ("model.date", "Server date", "Fecha del servidor", "Дата сервера"),
    ("model.capabilities", "Extra capabilities (model configuration)", "Capacidades adicionales (configuración del modelo)", "Дополнительные возможности (конфигурация модели)"),
    ("model.chat_template", "GGUF chat template (Jinja)", "Plantilla de chat del GGUF (Jinja)", "Шаблон чата из GGUF (Jinja)"),
    ("model.chat_template_hint", "tokenizer.chat_template. Ollama may render with it instead of the TEMPLATE (native mode).", "tokenizer.chat_template. Ollama puede usarla en lugar de TEMPLATE (modo nativo).", "tokenizer.chat_template. Ollama может использовать его вместо TEMPLATE (нативный режим)."),

    ("model.options", "PARAMETERs (option defaults, JSON object)", "PARAMETERs (opciones por defecto, objeto JSON)", "PARAMETER (параметры по умолчанию, объект JSON)"),
    ("model.options_hint", "The Modelfile's PARAMETERs (a stored model's params layer); the request's options win key by key.", "Los PARAMETER del Modelfile (la capa params de un modelo guardado); las options de la petición ganan clave a clave.", "PARAMETER из Modelfile (слой params сохранённой модели); options запроса побеждают по каждому ключу."),

    ("import.title", "Paste a Modelfile, an /api/show body or a tokenizer_config.json", "Pegar un Modelfile, una respuesta de /api/show o un tokenizer_config.json", "Вставить Modelfile, ответ /api/show или tokenizer_config.json"),
    ("import.hint", "The output of `ollama show --modelfile`, any Modelfile, the JSON `/api/show` answers, or a Hugging Face tokenizer_config.json, pasted, opened or dropped here: read as Ollama's parser reads it, it replaces the model fields (a tokenizer_config.json gives the Jinja chat template and special tokens). A Modelfile's FROM is a file on the machine that wrote it: attach the GGUF below. A tokenizer.json dropped here counts transformers' tokens.", "La salida de `ollama show --modelfile`, cualquier Modelfile, el JSON que responde `/api/show` o un tokenizer_config.json de Hugging Face, pegado, abierto o soltado aquí: leído como lo lee el analizador de Ollama, sustituye los campos del modelo (un tokenizer_config.json da la plantilla de chat Jinja y los tokens especiales). El FROM de un Modelfile es un archivo de la máquina que lo escribió: adjunte el GGUF abajo. Un tokenizer.json soltado aquí cuenta los tokens de transformers.", "Вывод `ollama show --modelfile`, любой Modelfile, JSON-ответ `/api/show` или tokenizer_config.json Hugging Face — вставленный, открытый или перетащенный сюда: он читается так же, как его читает парсер Ollama, и заменяет поля модели (tokenizer_config.json даёт шаблон чата Jinja и специальные токены). FROM в Modelfile — файл на машине, где он создан: прикрепите GGUF ниже. Перетащенный сюда tokenizer.json считает токены transformers."),
    ("import.button", "Use this model", "Usar este modelo", "Использовать эту модель"),
    ("import.file", "Or open a file", "O abre un archivo", "Или откройте файл"),
    ("import.tokenizer", "tokenizer.json, for transformers' token counts", "tokenizer.json, para contar los tokens de transformers", "tokenizer.json, чтобы считать токены transformers"),
    ("import.tokenizer_loading", "Reading {name}…", "Leyendo {name}…", "Читается {name}…"),
    ("import.tokenizer_loaded", "{name}: {vocab} tokens in its vocabulary; Compare counts transformers' prompt with it.", "{name}: {vocab} tokens en su vocabulario; Comparar cuenta con él el prompt de transformers.", "{name}: {vocab} токенов в словаре; «Сравнение» считает им промпт transformers."),
    ("import.tokenizer_failed", "Not loaded: {why}", "No cargado: {why}", "Не загружен: {why}"),
    ("import.done", "Model fields taken from the {kind} (FROM {from}).", "Campos del modelo tomados del {kind} (FROM {from}).", "Поля модели взяты из {kind} (FROM {from})."),
    ("import.done_config", "Chat template and special tokens taken from the tokenizer_config.json: Ollama renders it as a GGUF converted from this model would (native mode), and Compare can set it beside transformers.", "Plantilla de chat y tokens especiales tomados del tokenizer_config.json: Ollama la muestra como lo haría con un GGUF convertido de este modelo (modo nativo), y Comparar puede ponerla junto a transformers.", "Шаблон чата и специальные токены взяты из tokenizer_config.json: Ollama отображает его так, как для GGUF, сконвертированного из этой модели (нативный режим), а «Сравнение» может поставить его рядом с transformers."),
    ("import.failed", "Not imported: {why}", "No importado: {why}", "Не импортировано: {why}"),
    ("store.open", "Open my Ollama models folder", "Abrir mi carpeta de modelos de Ollama", "Открыть мою папку моделей Ollama"),
    ("store.reopen", "Reopen {name}", "Volver a abrir {name}", "Снова открыть {name}"),
    ("store.choose", "Choose the Ollama models folder", "Elegir la carpeta de modelos de Ollama", "Выбрать папку моделей Ollama"),
    ("store.hint", "Read in this browser: the manifests, the small layers and the model files' metadata, never their weights. Nothing is uploaded.", "Se lee en este navegador: los manifiestos, las capas pequeñas y los metadatos de los modelos, nunca sus pesos. No se sube nada.", "Читается в этом браузере: манифесты, небольшие слои и метаданные файлов моделей, но не их веса. Ничего не загружается на сервер."),
    ("store.reading", "Reading {name}…", "Leyendo {name}…", "Чтение {name}…"),
    ("store.no_manifests", "{name} has no manifests/ folder with models in it: choose the Ollama models folder (or the .ollama folder above it).", "{name} no tiene una carpeta manifests/ con modelos: elige la carpeta de modelos de Ollama (o la carpeta .ollama que la contiene).", "В {name} нет папки manifests/ с моделями: выберите папку моделей Ollama (или папку .ollama над ней)."),
    ("store.listed", "{n} model(s) in {name} · read {read} from the folder; nothing uploaded", "{n} modelo(s) en {name} · leídos {read} de la carpeta; no se sube nada", "моделей в {name}: {n} · прочитано из папки {read}; ничего не загружается"),
    ("store.failed", "Could not read {name}: {why}", "No se pudo leer {name}: {why}", "Не удалось прочитать {name}: {why}"),
    ("store.denied", "Reading {name} was not allowed.", "No se permitió leer {name}.", "Чтение {name} не разрешено."),
    ("store.models", "Models", "Modelos", "Модели"),
    ("store.col_name", "Name", "Nombre", "Имя"),
    ("store.col_size", "Size", "Tamaño", "Размер"),
    ("store.col_family", "Family", "Familia", "Семейство"),
    ("store.col_params", "Parameters", "Parámetros", "Параметры"),
    ("store.col_quant", "Quantization", "Cuantización", "Квантование"),
    ("store.col_caps", "Capabilities", "Capacidades", "Возможности"),
    ("store.load", "Load {name} into the model fields", "Cargar {name} en los campos del modelo", "Загрузить {name} в поля модели"),
    ("store.loading", "Loading {name}…", "Cargando {name}…", "Загрузка {name}…"),
    ("store.loaded", "{name} loaded · read {read} from the folder in all", "{name} cargado · leídos {read} de la carpeta en total", "{name} загружена · всего прочитано из папки {read}"),
    ("store.no_gguf", "{name} has no GGUF model layer: tokens are not counted.", "{name} no tiene capa de modelo GGUF: no se cuentan los tokens.", "У {name} нет слоя модели GGUF: токены не считаются."),
    ("store.model_blob_missing", "The model file {path} is not in the folder: tokens are not counted.", "El archivo del modelo {path} no está en la carpeta: no se cuentan los tokens.", "Файла модели {path} нет в папке: токены не считаются."),
    ("store.skipped", "Skipped ({n})", "Omitidos ({n})", "Пропущено ({n})"),
    ("store.upgrade", "Upgrade check: every model under two releases", "Comprobar una actualización: cada modelo con dos versiones", "Проверка обновления: каждая модель в двух версиях"),
    ("store.upgrade_hint", "Each model renders five standard conversations (plain, system, multi-turn, tools, thinking) under both releases, as promptscope diff --models does. A line says whether the prompts are the same, where the first one differs and which rules explain it, or which release fails.", "Cada modelo genera cinco conversaciones estándar (simple, sistema, varios turnos, herramientas, razonamiento) con ambas versiones, como promptscope diff --models. Cada línea dice si los prompts son iguales, dónde difiere el primero y qué reglas lo explican, o qué versión falla.", "Каждая модель строит пять стандартных диалогов (простой, системный, многоходовый, с инструментами, с рассуждением) в обеих версиях, как promptscope diff --models. Строка говорит, одинаковы ли промпты, где расходится первый и какие правила это объясняют, или какая версия выдаёт ошибку."),
    ("store.upgrade_from", "From", "De", "С"),
    ("store.upgrade_to", "to", "a", "на"),
    ("store.upgrade_run", "Check every model", "Comprobar todos los modelos", "Проверить все модели"),
    ("store.upgrade_done", "{same} model(s) the same, {other} changed or failing.", "{same} modelo(s) iguales, {other} con cambios o errores.", "Без изменений: {same}; с изменениями или ошибками: {other}."),
    ("store.busy", "Still reading the folder…", "Aún se está leyendo la carpeta…", "Папка ещё читается…"),

    ("request.title", "Request", "Petición", "Запрос"),
    ("request.endpoint", "Endpoint", "Endpoint", "Эндпоинт"),
    ("request.endpoint_native", "Ollama's API", "API de Ollama", "API Ollama"),
    ("request.endpoint_compat", "Compatibility routes (converted to /api/chat or /api/generate)", "Rutas de compatibilidad (convertidas a /api/chat o /api/generate)", "Маршруты совместимости (преобразуются в /api/chat или /api/generate)"),
    ("request.route_openai_chat", "OpenAI chat completions", "OpenAI chat completions", "OpenAI chat completions"),
    ("request.route_openai_completions", "OpenAI completions", "OpenAI completions", "OpenAI completions"),
    ("request.route_openai_responses", "OpenAI Responses", "OpenAI Responses", "OpenAI Responses"),
    ("request.route_openai_embeddings", "OpenAI embeddings", "Embeddings de OpenAI", "Эмбеддинги OpenAI"),
    ("request.endpoint_embed", "Embeddings (each input goes to the model as text, no prompt)", "Embeddings (cada entrada llega al modelo como texto, sin prompt)", "Эмбеддинги (каждый вход идёт в модель как текст, без промпта)"),
    ("request.embed_input_hint", "A string (one input) or a list of strings: each is embedded on its own.", "Una cadena (una entrada) o una lista de cadenas: cada una se procesa por separado.", "Строка (один вход) или список строк: каждый обрабатывается отдельно."),
    ("form.embed_inputs", "Inputs, one per line", "Entradas, una por línea", "Входы, по одному в строке"),
    ("form.embed_inputs_hint", "Each line is one input of the list; use the input editor for inputs with line breaks.", "Cada línea es una entrada de la lista; use el editor de input para entradas con saltos de línea.", "Каждая строка — один вход списка; для входов с переводами строк используйте редактор input."),
    ("form.embed_inputs_json", "This input is not a list of one-line strings: edit it in the input or body editor.", "Este input no es una lista de cadenas de una línea: edítelo en el editor de input o del cuerpo.", "Этот input — не список однострочных строк: правьте его в редакторе input или тела."),
    ("form.truncate", "cut to the context (Ollama's default)", "recortar al contexto (por defecto en Ollama)", "обрезать до контекста (по умолчанию в Ollama)"),
    ("embed.input", "Input {n}", "Entrada {n}", "Вход {n}"),
    ("embed.tokens", "{n} tokens evaluated", "{n} tokens evaluados", "токенов обработано: {n}"),
    ("embed.tokens_unknown", "tokens: load the model's GGUF to count them", "tokens: cargue el GGUF del modelo para contarlos", "токены: загрузите GGUF модели, чтобы их посчитать"),
    ("embed.truncated", "truncated: {from} → {to} tokens", "recortada: {from} → {to} tokens", "обрезан: {from} → {to} токенов"),
    ("embed.changed", "the model gets this text, not the one sent", "el modelo recibe este texto, no el enviado", "модель получает этот текст, а не отправленный"),
    ("embed.original", "The input as sent", "La entrada tal como se envió", "Вход в отправленном виде"),
    ("embed.summary", "{n} inputs · prompt_eval_count {count} · each embedding {dims} values", "{n} entradas · prompt_eval_count {count} · cada embedding {dims} valores", "входов: {n} · prompt_eval_count {count} · в каждом эмбеддинге {dims} значений"),
    ("embed.summary_count", "{n} inputs · prompt_eval_count {count}", "{n} entradas · prompt_eval_count {count}", "входов: {n} · prompt_eval_count {count}"),
    ("embed.summary_inputs", "{n} inputs", "{n} entradas", "входов: {n}"),
    ("embed.none", "No input: Ollama loads the model and answers with no embeddings.", "Sin entradas: Ollama carga el modelo y responde sin embeddings.", "Входов нет: Ollama загружает модель и отвечает без эмбеддингов."),
    ("embed.explain_title", "Embedding request ({route})", "Petición de embeddings ({route})", "Запрос эмбеддингов ({route})"),
    ("embed.runner", "num_ctx {num_ctx}, num_batch {num_batch}: Ollama truncates to {context} tokens (the training context, capped by num_ctx) less the BOS/EOS it expects the runner to add; llama-server runs with a {slot}-token slot, a physical batch of {ubatch} and {embedding}", "num_ctx {num_ctx}, num_batch {num_batch}: Ollama recorta a {context} tokens (el contexto de entrenamiento, limitado por num_ctx) menos los BOS/EOS que espera que añada el runner; llama-server usa un slot de {slot} tokens, un lote físico de {ubatch} y {embedding}", "num_ctx {num_ctx}, num_batch {num_batch}: Ollama обрезает до {context} токенов (контекст обучения, ограниченный num_ctx) минус BOS/EOS, которые, как он ожидает, добавит раннер; llama-server работает со слотом {slot} токенов, физическим пакетом {ubatch} и {embedding}"),
    ("embed.no_embedding_flag", "without --embedding (the GGUF has no pooling_type)", "sin --embedding (el GGUF no tiene pooling_type)", "без --embedding (в GGUF нет pooling_type)"),
    ("embed.api_request", "The /api/embed request the middleware hands on", "La petición /api/embed que entrega el middleware", "Запрос /api/embed, который передаёт middleware"),
    ("embed.truncate_true", "truncate: on (absent or true): an input over the limit is cut to its first tokens", "truncate: activado (ausente o true): una entrada sobre el límite se corta a sus primeros tokens", "truncate: вкл. (не задан или true): вход сверх лимита обрезается до первых токенов"),
    ("embed.truncate_false", "truncate: false: an input over the limit is refused", "truncate: false: una entrada sobre el límite se rechaza", "truncate: false: вход сверх лимита отклоняется"),
    ("request.route_anthropic_messages", "Anthropic Messages", "Anthropic Messages", "Anthropic Messages"),
    ("request.route_hint", "The body is what a client sends to POST {path}; Ollama converts it to an {native} request before it renders (Explain shows the conversion).", "El cuerpo es lo que un cliente envía a POST {path}; Ollama lo convierte en una petición {native} antes de renderizar (Explicación muestra la conversión).", "Тело — то, что клиент отправляет в POST {path}; перед рендером Ollama превращает его в запрос {native} (преобразование показано в «Пояснении»)."),
    ("request.paste", "Paste a request body or a curl command", "Pega un cuerpo de petición o un comando curl", "Вставьте тело запроса или команду curl"),
    ("request.paste_hint", "It fills the endpoint and the whole request, e.g. curl http://localhost:11434/api/chat -d '{…}', or a call to /v1/chat/completions, /v1/completions, /v1/responses or /v1/messages; a bare body's endpoint is guessed from its shape.", "Rellena el endpoint y toda la petición, p. ej. curl http://localhost:11434/api/chat -d '{…}', o una llamada a /v1/chat/completions, /v1/completions, /v1/responses o /v1/messages; el endpoint de un cuerpo suelto se deduce de su forma.", "Заполняет эндпоинт и весь запрос, например curl http://localhost:11434/api/chat -d '{…}' или вызов /v1/chat/completions, /v1/completions, /v1/responses или /v1/messages; эндпоинт голого тела угадывается по его форме."),
    ("request.json_editors", "Edit as JSON", "Editar como JSON", "Редактировать как JSON"),
    ("request.body", "Request body (JSON)", "Cuerpo de la petición (JSON)", "Тело запроса (JSON)"),
    ("request.body_hint", "Exactly what a client sends to Ollama.", "Exactamente lo que un cliente envía a Ollama.", "Ровно то, что клиент отправляет в Ollama."),
    ("request.messages_json", "messages (JSON)", "messages (JSON)", "messages (JSON)"),
    ("request.messages_hint", "role, content, thinking, images, tool_calls, tool_name…", "role, content, thinking, images, tool_calls, tool_name…", "role, content, thinking, images, tool_calls, tool_name…"),
    ("request.route_messages_hint", "The route's own message shapes: content as a string or a list of typed parts or blocks, its tool calls and tool results.", "Los mensajes en la forma de la ruta: content como texto o lista de partes o bloques con tipo, sus llamadas y resultados de herramientas.", "Сообщения в формате маршрута: content строкой или списком типизированных частей или блоков, вызовы и результаты инструментов."),
    ("request.input_json", "input (JSON)", "input (JSON)", "input (JSON)"),
    ("request.input_hint", "Responses input items: message, function_call, function_call_output, reasoning…", "Elementos de input de Responses: message, function_call, function_call_output, reasoning…", "Элементы input в Responses: message, function_call, function_call_output, reasoning…"),
    ("request.tools_json", "tools (JSON)", "tools (JSON)", "tools (JSON)"),
    ("request.tools_hint", "Function definitions with JSON-schema parameters.", "Definiciones de funciones con parámetros en JSON Schema.", "Описания функций с параметрами в JSON Schema."),
    ("request.options_json", "options (JSON)", "options (JSON)", "options (JSON)"),
    ("request.options_hint", "Runner options; num_ctx matters for truncation.", "Opciones del ejecutor; num_ctx importa para el recorte.", "Параметры исполнителя; для усечения важен num_ctx."),
    ("request.fix_body_first", "The request body is not valid JSON; fix it first.", "El cuerpo de la petición no es JSON válido; corrígelo primero.", "Тело запроса — не корректный JSON; сначала исправьте его."),

    ("form.title", "Quick edits", "Edición rápida", "Быстрая правка"),
    ("form.model", "Model name", "Nombre del modelo", "Имя модели"),
    ("form.think", "think", "think", "think"),
    ("form.think_unset", "unset", "sin definir", "не задано"),
    ("form.messages", "Messages", "Mensajes", "Сообщения"),
    ("form.messages_not_list", "messages is not a list; edit it as JSON.", "messages no es una lista; edítalo como JSON.", "messages — не список; правьте его как JSON."),
    ("form.parts", "{n} content part(s) ({types}): edit them as JSON", "{n} parte(s) de contenido ({types}): edítalas como JSON", "частей содержимого: {n} ({types}); правьте их как JSON"),
    ("form.instructions", "instructions", "instructions", "instructions"),
    ("form.role_of", "Role of message {n}", "Rol del mensaje {n}", "Роль сообщения {n}"),
    ("form.content_of", "Content of message {n}", "Contenido del mensaje {n}", "Текст сообщения {n}"),
    ("form.remove_n", "Remove message {n}", "Quitar el mensaje {n}", "Удалить сообщение {n}"),
    ("form.add_tool_call", "+ tool call", "+ llamada", "+ вызов"),
    ("form.attach_image", "+ image", "+ imagen", "+ картинка"),
    ("form.clear_images", "Remove images", "Quitar imágenes", "Убрать картинки"),
    ("form.n_tool_calls", "{n} tool call(s)", "{n} llamada(s)", "вызовов: {n}"),
    ("form.n_images", "{n} image(s)", "{n} imagen(es)", "картинок: {n}"),
    ("form.new_role", "Role of the new message", "Rol del mensaje nuevo", "Роль нового сообщения"),
    ("form.add_message", "Add message", "Añadir mensaje", "Добавить сообщение"),
    ("form.prompt", "prompt", "prompt", "prompt"),
    ("form.suffix", "suffix", "suffix", "suffix"),
    ("form.system", "system", "system", "system"),
    ("form.template", "template (overrides the model's)", "template (sustituye la del modelo)", "template (заменяет шаблон модели)"),
    ("form.template_hint", "A request template runs directly: no image tags, no truncation.", "Una plantilla en la petición se ejecuta tal cual: sin etiquetas de imagen ni recorte.", "Шаблон из запроса выполняется напрямую: без меток картинок и без усечения."),
    ("form.raw", "(the prompt is sent as is)", "(el prompt se envía tal cual)", "(промпт отправляется как есть)"),

    ("prompt.title", "Prompt", "Prompt", "Промпт"),
    ("prompt.whitespace", "Show whitespace", "Mostrar espacios", "Показать пробелы"),
    ("prompt.copy", "Copy", "Copiar", "Копировать"),
    ("prompt.download", "Download", "Descargar", "Скачать"),
    ("prompt.stats", "{chars} characters, {bytes} bytes", "{chars} caracteres, {bytes} bytes", "символов: {chars}, байт: {bytes}"),
    ("model.gguf_pick", "GGUF file (only its metadata is read)", "Archivo GGUF (solo se leen sus metadatos)", "Файл GGUF (читаются только метаданные)"),
    ("model.gguf_hint", "Choose or drop a .gguf: it fills the chat template, BOS/EOS and the tokenizer. It stays in memory only: re-drop the file after a reload.", "Elige o suelta un .gguf: rellena la plantilla de chat, BOS/EOS y el tokenizador. Solo queda en memoria: vuelve a soltar el archivo tras recargar.", "Выберите или перетащите .gguf: он заполнит шаблон чата, BOS/EOS и токенизатор. Файл хранится только в памяти: после перезагрузки перетащите его снова."),
    ("model.gguf_reading", "Reading {name}…", "Leyendo {name}…", "Чтение {name}…"),
    ("model.gguf_loaded", "{name}: read {read} of {size}", "{name}: leídos {read} de {size}", "{name}: прочитано {read} из {size}"),
    ("model.gguf_forget", "Forget the GGUF", "Olvidar el GGUF", "Забыть GGUF"),
    ("model.vocab_loading", "Loading the vocabulary…", "Cargando el vocabulario…", "Загрузка словаря…"),
    ("model.gguf_metadata", "GGUF metadata and tensors", "Metadatos y tensores del GGUF", "Метаданные и тензоры GGUF"),
    ("model.gguf_search", "Search keys and tensors", "Buscar claves y tensores", "Поиск ключей и тензоров"),
    ("model.gguf_summary", "{params} parameters · memory at num_ctx {ctx}: {total} (weights {weights}, KV cache {kv}, compute {compute})", "{params} parámetros · memoria con num_ctx {ctx}: {total} (pesos {weights}, caché KV {kv}, cálculo {compute})", "параметров: {params} · память при num_ctx {ctx}: {total} (веса {weights}, KV-кэш {kv}, вычисления {compute})"),
    ("prompt.tokens", "{n} tokens (prompt_eval_count)", "{n} tokens (prompt_eval_count)", "токенов: {n} (prompt_eval_count)"),
    ("prompt.tokens_error", "tokens: {why}", "tokens: {why}", "токены: {why}"),
    ("prompt.token_view", "Tokens", "Tokens", "Токены"),
    ("explain.tokens", "Tokens", "Tokens", "Токены"),
    ("explain.dropped", "dropped by num_ctx {n}", "descartado por num_ctx {n}", "отброшено из-за num_ctx {n}"),
    ("model.gguf_key", "Key", "Clave", "Ключ"),
    ("model.gguf_type", "Type", "Tipo", "Тип"),
    ("model.gguf_value", "Value", "Valor", "Значение"),
    ("model.gguf_tensor", "Tensor", "Tensor", "Тензор"),
    ("model.gguf_shape", "Shape", "Forma", "Форма"),
    ("model.gguf_size", "Size", "Tamaño", "Размер"),
    ("prompt.tokens_placeholder", "— tokens (load a GGUF)", "— tokens (carga un GGUF)", "— токенов (загрузите GGUF)"),
    ("prompt.counting", "counting tokens…", "contando tokens…", "подсчёт токенов…"),
    ("prompt.counting_cancel", "Cancel", "Cancelar", "Отменить"),
    ("prompt.counting_resume", "Token counting is off: count again", "El recuento de tokens está desactivado: volver a contar", "Подсчёт токенов выключен: считать снова"),
    ("prompt.specials", "{n} special tokens (tinted, by a heuristic)", "{n} tokens especiales (resaltados, heurística)", "спецтокенов: {n} (подсвечены эвристически)"),
    ("prompt.images", "{n} image(s) for the runner", "{n} imagen(es) para el ejecutor", "картинок для исполнителя: {n}"),
    ("prompt.error_heading", "Ollama answers HTTP {status}", "Ollama responde HTTP {status}", "Ollama отвечает HTTP {status}"),
    ("prompt.no_prompt", "No prompt: with no messages (or an empty prompt) Ollama only loads the model and answers done_reason \"load\".", "Sin prompt: sin mensajes (o con un prompt vacío) Ollama solo carga el modelo y responde done_reason \"load\".", "Промпта нет: без сообщений (или с пустым prompt) Ollama только загружает модель и отвечает done_reason \"load\"."),
    ("prompt.truncated", "Only the first {kib} KiB are shown; copy and download give all of it.", "Solo se muestran los primeros {kib} KiB; copiar y descargar dan todo.", "Показаны только первые {kib} КиБ; копирование и скачивание дают всё."),

    ("field.request", "Request body:", "Cuerpo de la petición:", "Тело запроса:"),
    ("field.model_messages", "MESSAGE lines:", "Líneas MESSAGE:", "Строки MESSAGE:"),
    ("field.model_options", "PARAMETERs:", "PARAMETERs:", "PARAMETER:"),
    ("field.date", "Server date:", "Fecha del servidor:", "Дата сервера:"),

    ("compare.title", "Compare", "Comparar", "Сравнение"),
    ("generate.thinking", "Thinking", "Razonamiento", "Рассуждение"),
    ("generate.title", "Generate", "Generar", "Генерация"),
    ("generate.run", "Generate", "Generar", "Сгенерировать"),
    ("generate.stop", "Stop", "Detener", "Остановить"),
    ("generate.debug", "Debug output", "Salida de depuración", "Отладочный вывод"),
    ("generate.engine", "Engine:", "Motor:", "Движок:"),
    ("generate.engine.auto", "Auto", "Automático", "Авто"),
    ("generate.engine.webgpu", "WebGPU", "WebGPU", "WebGPU"),
    ("generate.engine.cpu-threads", "CPU, threads", "CPU, hilos", "CPU, потоки"),
    ("generate.engine.cpu-relaxed", "CPU, relaxed SIMD", "CPU, SIMD relajado", "CPU, relaxed SIMD"),
    ("generate.engine.cpu-simd128", "CPU, SIMD128", "CPU, SIMD128", "CPU, SIMD128"),
    ("generate.help", "Runs the chosen GGUF in your browser (on the CPU, on several threads where the page is cross-origin isolated; nothing leaves the page) and answers with Ollama's response chunks. Small models only: SmolLM2, Qwen, Llama 3.2 1B.", "Ejecuta el GGUF elegido en su navegador (en la CPU, con varios hilos donde la página está aislada entre orígenes; nada sale de la página) y responde con los fragmentos de respuesta de Ollama. Solo modelos pequeños: SmolLM2, Qwen, Llama 3.2 1B.", "Запускает выбранный GGUF в браузере (на CPU, в нескольких потоках, если страница изолирована от других источников; ничего не покидает страницу) и отвечает фрагментами ответа Ollama. Только небольшие модели: SmolLM2, Qwen, Llama 3.2 1B."),
    ("generate.idle", "Choose a GGUF in the Model pane, then Generate.", "Elija un GGUF en el panel Modelo y pulse Generar.", "Выберите GGUF в панели «Модель» и нажмите «Сгенерировать»."),
    ("generate.ready", "{name} is chosen in the Model pane: Generate runs it on this request.", "{name} está elegido en el panel Modelo: Generar lo ejecuta con esta petición.", "{name} выбран в панели «Модель»: «Сгенерировать» запустит его на этом запросе."),
    ("generate.loading", "Loading the model: read {done} of {total} MB ({pct}%)", "Cargando el modelo: leídos {done} de {total} MB ({pct} %)", "Загрузка модели: прочитано {done} из {total} МБ ({pct}%)"),
    ("generate.running", "Generating…", "Generando…", "Генерация…"),
    ("generate.finished", "done_reason {reason} · prompt_eval_count {prompt} ({pps} tokens/s) · eval_count {eval} ({tps} tokens/s)", "done_reason {reason} · prompt_eval_count {prompt} ({pps} tokens/s) · eval_count {eval} ({tps} tokens/s)", "done_reason {reason} · prompt_eval_count {prompt} ({pps} токенов/с) · eval_count {eval} ({tps} токенов/с)"),
    ("generate.no_gguf", "Choose a GGUF file in the Model pane first.", "Primero elija un archivo GGUF en el panel Modelo.", "Сначала выберите файл GGUF в панели «Модель»."),
    ("generate.no_prompt", "There is no prompt to generate from.", "No hay un prompt a partir del cual generar.", "Нет промпта для генерации."),
    ("generate.json", "Response (NDJSON)", "Respuesta (NDJSON)", "Ответ (NDJSON)"),
    ("generate.route_answer", "What {path} answers", "Lo que responde {path}", "Что отвечает {path}"),
    ("answer.title", "Answer", "Respuesta", "Ответ"),
    ("answer.help", "What Ollama answers for what the model wrote: the handler's parsers (the model's PARSER, the generic thinking parser, the TEMPLATE's tool-call parser) run over the raw output exactly as /api/chat or /api/generate runs them, with this model and request.", "Lo que Ollama responde a lo que escribió el modelo: los analizadores del manejador (el PARSER del modelo, el analizador genérico de razonamiento, el de llamadas a herramientas de la TEMPLATE) se ejecutan sobre la salida en bruto exactamente como lo hace /api/chat o /api/generate, con este modelo y esta petición.", "Что Ollama ответит на то, что написала модель: парсеры обработчика (PARSER модели, общий парсер рассуждений, парсер вызовов инструментов из TEMPLATE) разбирают сырой вывод точно так же, как /api/chat или /api/generate, с этой моделью и этим запросом."),
    ("answer.mode", "How the output is given", "Cómo se da la salida", "Как задан вывод"),
    ("answer.mode_output", "One piece", "Un solo fragmento", "Одним куском"),
    ("answer.mode_chunks", "Streamed pieces (JSON array)", "Fragmentos del stream (array JSON)", "Потоковые куски (массив JSON)"),
    ("answer.input", "What the model wrote", "Lo que escribió el modelo", "Что написала модель"),
    ("answer.input_hint_output", "The raw text as the runner returns it, special tokens included.", "El texto en bruto tal como lo devuelve el runner, con los tokens especiales.", "Сырой текст так, как его возвращает раннер, вместе со спецтокенами."),
    ("answer.input_hint_chunks", "A JSON array of strings: the pieces the runner streamed, in order (a parser can depend on where they break).", "Un array JSON de cadenas: los fragmentos que envió el runner, en orden (un analizador puede depender de dónde se cortan).", "JSON-массив строк: куски, которые выдал раннер, по порядку (парсер может зависеть от того, где они разрезаны)."),
    ("answer.take", "Take the Generate pane's output", "Tomar la salida del panel Generar", "Взять вывод из панели «Генерация»"),
    ("answer.take_hint", "The exact pieces the last generation produced, before Ollama's parsers.", "Los fragmentos exactos que produjo la última generación, antes de los analizadores de Ollama.", "Точные куски последней генерации, до парсеров Ollama."),
    ("answer.taken", "Took the {n} pieces the model wrote in the Generate pane.", "Se tomaron los {n} fragmentos que escribió el modelo en el panel Generar.", "Взяты куски, которые модель написала в панели «Генерация»: {n}."),
    ("answer.empty", "Paste what the model wrote to see what Ollama answers.", "Pega lo que escribió el modelo para ver qué responde Ollama.", "Вставьте то, что написала модель, чтобы увидеть ответ Ollama."),
    ("answer.no_request", "Nothing to answer while the input cannot be read: {why}", "Nada que responder mientras no se pueda leer la entrada: {why}", "Отвечать нечего, пока ввод не читается: {why}"),
    ("answer.rejected", "Ollama rejects the request before the model runs (HTTP {status}): this is its answer", "Ollama rechaza la petición antes de ejecutar el modelo (HTTP {status}): esta es su respuesta", "Ollama отклоняет запрос до запуска модели (HTTP {status}): вот её ответ"),
    ("answer.no_setup", "Promptscope cannot say what the handler does with the output: {why}", "Promptscope no puede decir qué hace el manejador con la salida: {why}", "Promptscope не может сказать, что обработчик сделает с выводом: {why}"),
    ("answer.diagnosis", "Why the tool call stayed content", "Por qué la llamada a herramienta quedó como contenido", "Почему вызов инструмента остался текстом"),
    ("answer.error", "The parser fails: Ollama answers HTTP 500", "El analizador falla: Ollama responde HTTP 500", "Парсер падает: Ollama отвечает HTTP 500"),
    ("answer.message", "The message Ollama answers with", "El mensaje con el que responde Ollama", "Сообщение, которым отвечает Ollama"),
    ("answer.response", "The response Ollama answers with", "La respuesta con la que responde Ollama", "Ответ, который даёт Ollama"),
    ("answer.message_json", "message as Ollama writes it", "message tal como lo escribe Ollama", "message так, как его пишет Ollama"),
    ("answer.response_json", "response fields as Ollama writes them", "campos de la respuesta tal como los escribe Ollama", "поля ответа так, как их пишет Ollama"),
    ("answer.parser", "Which parser ran", "Qué analizador se ejecutó", "Какой парсер сработал"),
    ("answer.kind", "Parsers", "Analizadores", "Парсеры"),
    ("answer.thinking_tags", "Thinking tags", "Etiquetas de razonamiento", "Теги рассуждений"),
    ("answer.tool_tag", "Tool-call opening", "Apertura de llamada a herramienta", "Начало вызова инструмента"),
    ("answer.preserved", "Tokens kept in the text", "Tokens que se conservan en el texto", "Токены, сохраняемые в тексте"),
    ("answer.repeat", "The runner stops after piece {n}: more than 30 identical pieces in a row. No final response follows.", "El runner se detiene tras el fragmento {n}: más de 30 fragmentos idénticos seguidos. No sigue ninguna respuesta final.", "Раннер останавливается после куска {n}: больше 30 одинаковых кусков подряд. Финального ответа не будет."),
    ("answer.route_hint", "The route's own shape for this answer, as if the model stopped by itself (done_reason stop).", "La forma propia de la ruta para esta respuesta, como si el modelo se hubiera detenido solo (done_reason stop).", "Этот ответ в собственном формате маршрута, как если бы модель остановилась сама (done_reason stop)."),
    ("answer.stream", "The stream: {n} responses (pieces fed: {pieces})", "El stream: {n} respuestas (fragmentos recibidos: {pieces})", "Поток: ответов {n} (кусков на входе: {pieces})"),

    ("compare.mode", "Compare", "Comparar", "Сравнить"),
    ("compare.mode_engines", "Go TEMPLATE vs GGUF chat template", "TEMPLATE de Go vs plantilla de chat GGUF", "Go TEMPLATE и шаблон чата GGUF"),
    ("compare.mode_version", "This template vs a saved version", "Esta plantilla vs una versión guardada", "Этот шаблон и сохранённая версия"),
    ("compare.mode_runtimes", "Two runtimes (Ollama, llama-server, transformers)", "Dos runtimes (Ollama, llama-server, transformers)", "Две среды (Ollama, llama-server, transformers)"),
    ("compare.side_a", "A", "A", "A"),
    ("compare.side_b", "B", "B", "B"),
    ("compare.needs_chat", "llama-server and transformers render conversations: switch the endpoint to /api/chat.", "llama-server y transformers muestran conversaciones: cambia el endpoint a /api/chat.", "llama-server и transformers отображают диалоги: переключите endpoint на /api/chat."),
    ("compare.bad_request", "The request is not a valid /api/chat body yet.", "La petición aún no es un cuerpo /api/chat válido.", "Запрос пока не является корректным телом /api/chat."),
    ("compare.first_byte", "First difference at byte {n}.", "Primera diferencia en el byte {n}.", "Первое различие в байте {n}."),
    ("compare.causes", "Why they differ", "Por qué difieren", "Почему они различаются"),
    ("compare.first_token", "In {name}'s tokens, the first difference is token {n}.", "En los tokens de {name}, la primera diferencia es el token {n}.", "В токенах {name} первое различие — токен {n}."),
    ("compare.hf_tokens", "{side}: {n} tokens ({name}, as transformers' apply_chat_template(tokenize=True) counts)", "{side}: {n} tokens ({name}, como los cuenta apply_chat_template(tokenize=True) de transformers)", "{side}: токенов {n} ({name}, как считает apply_chat_template(tokenize=True) в transformers)"),
    ("compare.keep", "Keep this version as B", "Guardar esta versión como B", "Сохранить эту версию как B"),
    ("compare.kept", "Template kept as version B.", "Plantilla guardada como versión B.", "Шаблон сохранён как версия B."),
    ("compare.closed", "Open to compare.", "Abre para comparar.", "Откройте, чтобы сравнить."),
    ("compare.needs_both", "This needs both a Go TEMPLATE and a GGUF chat template.", "Hace falta un TEMPLATE de Go y una plantilla de chat GGUF.", "Нужны и Go TEMPLATE, и шаблон чата GGUF."),
    ("compare.no_version", "No saved version yet: press \"Keep this version as B\", then edit the template.", "Aún no hay versión guardada: pulsa \"Guardar esta versión como B\" y edita la plantilla.", "Сохранённой версии ещё нет: нажмите «Сохранить эту версию как B» и измените шаблон."),
    ("compare.a_go", "A: OLLAMA_GO_TEMPLATE=true", "A: OLLAMA_GO_TEMPLATE=true", "A: OLLAMA_GO_TEMPLATE=true"),
    ("compare.b_gguf", "B: OLLAMA_GO_TEMPLATE=false", "B: OLLAMA_GO_TEMPLATE=false", "B: OLLAMA_GO_TEMPLATE=false"),
    ("compare.a_current", "A: this template", "A: esta plantilla", "A: этот шаблон"),
    ("compare.b_kept", "B: saved version", "B: versión guardada", "B: сохранённая версия"),
    ("compare.same", "The two prompts are identical.", "Los dos prompts son idénticos.", "Промпты совпадают."),
    ("compare.legend", "Struck out: only in A; underlined: only in B; whitespace shown in changes.", "Tachado: solo en A; subrayado: solo en B; espacios visibles en los cambios.", "Зачёркнуто: только в A; подчёркнуто: только в B; пробелы в изменениях видны."),
    ("compare.tokens", "Tokens", "Tokens", "Токены"),
    ("compare.token_counts", "A: {a} tokens, B: {b} tokens", "A: {a} tokens, B: {b} tokens", "A: токенов {a}, B: токенов {b}"),
    ("explain.title", "Explain", "Explicación", "Пояснение"),
    ("explain.path", "Path", "Camino", "Путь"),
    ("explain.no_path", "Not decided: the model's template did not load.", "Sin decidir: la plantilla del modelo no se cargó.", "Не определён: шаблон модели не загрузился."),
    ("explain.model", "Model", "Modelo", "Модель"),
    ("explain.branch", "Execution", "Ejecución", "Выполнение"),
    ("explain.response_appended", "The template uses neither .Messages nor .Response, so Ollama appended {{ .Response }}.", "La plantilla no usa .Messages ni .Response, así que Ollama añadió {{ .Response }}.", "Шаблон не использует ни .Messages, ни .Response, поэтому Ollama дописала {{ .Response }}."),
    ("explain.vars", "Names the template uses", "Nombres que usa la plantilla", "Имена в шаблоне"),
    ("explain.capabilities", "Capabilities", "Capacidades", "Возможности"),
    ("explain.requested", "The request needs:", "La petición necesita:", "Запросу нужны:"),
    ("explain.bos", "Leading BOS", "BOS inicial", "Начальный BOS"),
    ("explain.renames", "Tool renames", "Herramientas renombradas", "Переименованные инструменты"),
    ("explain.truncation", "Truncation", "Recorte", "Усечение"),
    ("explain.runner", "Runner's cut", "Corte del runner", "Обрезка в раннере"),
    ("explain.cache", "KV cache from the previous turn", "Caché KV del turno anterior", "KV-кэш предыдущего хода"),
    ("model.rendered_by", "Rendered by", "Generado por", "Отрисовано"),
    ("model.native_mode", "native mode on", "modo nativo en", "нативный режим на"),
    ("explain.llamacpp", "llama-server build", "Versión de llama-server", "Сборка llama-server"),
    ("explain.llamacpp_rule", "native mode renders on llama.cpp {build}, the build this Ollama release compiles", "el modo nativo se genera con llama.cpp {build}, la versión que compila esta versión de Ollama", "нативный режим рендерится на llama.cpp {build} — сборке, которую компилирует этот выпуск Ollama"),
    ("explain.build_rules", "Rules of this build", "Reglas de esta versión", "Правила этой сборки"),
    ("explain.build_rule_since", "changed in llama.cpp {first} ({upstream})", "cambió en llama.cpp {first} ({upstream})", "изменено в llama.cpp {first} ({upstream})"),
    ("explain.release_rules", "Rules of this Ollama release", "Reglas de esta versión de Ollama", "Правила этого выпуска Ollama"),
    ("explain.release_rule_since", "changed in Ollama {first} ({upstream})", "cambió en Ollama {first} ({upstream})", "изменено в Ollama {first} ({upstream})"),
    ("explain.rejection", "Ollama rejects the request (HTTP {status})", "Ollama rechaza la petición (HTTP {status})", "Ollama отклоняет запрос (HTTP {status})"),
    ("explain.messages", "Messages on their way in", "Los mensajes por el camino", "Что стало с сообщениями"),
    ("explain.no_messages", "No messages were rendered.", "No se renderizó ningún mensaje.", "Сообщения не выводились."),
    ("explain.role", "Role", "Rol", "Роль"),
    ("explain.origin", "From", "Origen", "Откуда"),
    ("explain.what", "What happened", "Qué pasó", "Что произошло"),
    ("explain.origins", "From the models folder", "De la carpeta de modelos", "Из папки моделей"),
    ("explain.check", "Check against your Ollama", "Compruébalo con tu Ollama", "Проверка на вашей Ollama"),
    ("explain.check_hint", "Create the model from this Modelfile, then ask Ollama for the prompt it renders; _debug_render_only returns it without running the model.", "Crea el modelo con este Modelfile y pide a Ollama el prompt que genera; _debug_render_only lo devuelve sin ejecutar el modelo.", "Создайте модель из этого Modelfile и запросите у Ollama собранный промпт; _debug_render_only возвращает его, не запуская модель."),
    ("explain.modelfile", "Modelfile", "Modelfile", "Modelfile"),
    ("explain.curl", "curl with _debug_render_only", "curl con _debug_render_only", "curl с _debug_render_only"),
    ("explain.route", "Compatibility route", "Ruta de compatibilidad", "Маршрут совместимости"),
    ("explain.route_body", "Body sent to {path}", "Cuerpo enviado a {path}", "Тело, отправленное в {path}"),
    ("explain.api_request", "Converted request for {native}", "Petición convertida para {native}", "Преобразованный запрос для {native}"),
    ("explain.route_refused", "The route refused the body before converting it.", "La ruta rechazó el cuerpo antes de convertirlo.", "Маршрут отклонил тело до преобразования."),
    ("explain.fields", "What the route did with each field", "Qué hizo la ruta con cada campo", "Что маршрут сделал с каждым полем"),
    ("explain.field", "Field", "Campo", "Поле"),
    ("explain.fate", "Fate", "Destino", "Судьба"),
    ("explain.detail", "Where it went, or why", "Adónde fue, o por qué", "Куда попало или почему"),
    ("explain.fate_mapped", "mapped", "convertido", "перенесено"),
    ("explain.fate_defaulted", "defaulted", "por defecto", "по умолчанию"),
    ("explain.fate_dropped", "dropped", "descartado", "отброшено"),
    ("explain.fate_response", "response only", "solo respuesta", "только для ответа"),
    ("explain.route_answer", "The route's answer body", "El cuerpo de la respuesta de la ruta", "Тело ответа маршрута"),
    ("explain.no_debug_embed", "Ollama's {path} has no _debug_render_only: this command loads the model and embeds; compare the answer's prompt_eval_count with the one above.", "{path} de Ollama no tiene _debug_render_only: este comando carga el modelo y calcula los embeddings; compare el prompt_eval_count de la respuesta con el de arriba.", "У {path} в Ollama нет _debug_render_only: эта команда загружает модель и считает эмбеддинги; сравните prompt_eval_count ответа с указанным выше."),
    ("explain.curl_route", "curl to {path}", "curl a {path}", "curl в {path}"),
    ("explain.debug_passes", "On {path} Ollama hands _debug_render_only on to the native handler: it renders the prompt and runs nothing.", "En {path} Ollama pasa _debug_render_only al manejador nativo: renderiza el prompt y no ejecuta nada.", "На {path} Ollama передаёт _debug_render_only обработчику нативного API: он собирает промпт и ничего не запускает."),
    ("explain.no_debug", "Ollama's {path} has no _debug_render_only: this command runs the model. To get the prompt without running it, send the converted request to {native} with _debug_render_only (the same prompt, except that {native} does not relax think for a model that cannot think).", "{path} de Ollama no tiene _debug_render_only: este comando ejecuta el modelo. Para obtener el prompt sin ejecutarlo, envía la petición convertida a {native} con _debug_render_only (el mismo prompt, salvo que {native} no relaja think en un modelo que no razona).", "У {path} в Ollama нет _debug_render_only: эта команда запускает модель. Чтобы получить промпт без запуска, отправьте преобразованный запрос в {native} с _debug_render_only (промпт тот же, только {native} не ослабляет think для модели, которая не умеет рассуждать)."),
    ("explain.curl_native", "curl of the converted request to {native}, with _debug_render_only", "curl de la petición convertida a {native}, con _debug_render_only", "curl преобразованного запроса в {native} с _debug_render_only"),

    ("branch.messages", "the template ran once over all messages (.Messages)", "la plantilla se ejecutó una vez sobre todos los mensajes (.Messages)", "шаблон выполнен один раз над всеми сообщениями (.Messages)"),
    ("branch.legacy", "legacy: the template ran once per turn with .System, .Prompt and .Response", "antigua: la plantilla se ejecutó una vez por turno con .System, .Prompt y .Response", "старый режим: шаблон выполнен по разу на реплику с .System, .Prompt и .Response"),
    ("branch.insert", "fill in the middle: .Prompt and .Suffix", "relleno intermedio: .Prompt y .Suffix", "заполнение середины: .Prompt и .Suffix"),
    ("branch.renderer", "a built-in Go renderer wrote the prompt", "un renderizador Go integrado escribió el prompt", "промпт написал встроенный рендерер Go"),
    ("branch.raw", "raw: the prompt is passed through", "raw: el prompt pasa tal cual", "raw: промпт передаётся как есть"),
    ("branch.load", "no render: the model is only loaded", "sin render: solo se carga el modelo", "без рендера: модель только загружается"),
    ("branch.native", "llama-server renders the GGUF chat template", "llama-server renderiza la plantilla de chat del GGUF", "llama-server выводит шаблон чата из GGUF"),

    ("embed.open", "Open in Promptscope", "Abrir en Promptscope", "Открыть в Promptscope"),

    ("help.function.q", "Why does {{ .Function }} print Go syntax?", "¿Por qué {{ .Function }} imprime sintaxis de Go?", "Почему {{ .Function }} печатает синтаксис Go?"),
    ("help.function.a",
     "In Ollama's template values a tool (`{{ . }}` inside `range .Tools`) and `.Function.Arguments` have a String method that writes JSON, but `.Function` itself has none, so Go prints the struct with %v: `{get_weather Current weather… {object …}}`. Write `{{ . }}` for the whole tool as JSON, or `{{ json .Function }}`.",
     "En los valores de plantilla de Ollama una herramienta (`{{ . }}` dentro de `range .Tools`) y `.Function.Arguments` tienen un método String que escribe JSON, pero `.Function` no, así que Go imprime la estructura con %v: `{get_weather Current weather… {object …}}`. Usa `{{ . }}` para la herramienta entera en JSON, o `{{ json .Function }}`.",
     "В значениях шаблонов Ollama у инструмента (`{{ . }}` внутри `range .Tools`) и у `.Function.Arguments` есть метод String, который пишет JSON, а у самого `.Function` его нет, поэтому Go печатает структуру через %v: `{get_weather Current weather… {object …}}`. Пишите `{{ . }}` для всего инструмента в JSON или `{{ json .Function }}`."),
    ("help.gguf_wins.q", "Why might the GGUF template win over the TEMPLATE?", "¿Por qué puede ganar la plantilla del GGUF sobre TEMPLATE?", "Почему шаблон из GGUF может победить TEMPLATE?"),
    ("help.gguf_wins.a",
     "With `OLLAMA_GO_TEMPLATE` unset, no RENDERER and no PARSER, Ollama compares capabilities: when the GGUF chat template offers more (tools, thinking) than the Go TEMPLATE, or the same with a better tool round trip, llama-server renders the GGUF template instead (native mode). Set `OLLAMA_GO_TEMPLATE` to true to force the TEMPLATE, or false to force the GGUF template. The Explain pane names the rule that decided.",
     "Con `OLLAMA_GO_TEMPLATE` sin definir, sin RENDERER y sin PARSER, Ollama compara capacidades: si la plantilla de chat del GGUF ofrece más (herramientas, razonamiento) que la TEMPLATE de Go, o lo mismo con un mejor ciclo de herramientas, llama-server usa la plantilla del GGUF (modo nativo). Pon `OLLAMA_GO_TEMPLATE` a true para forzar la TEMPLATE o a false para forzar la del GGUF. El panel Explicación indica la regla que decidió.",
     "Если `OLLAMA_GO_TEMPLATE` не задана и нет RENDERER и PARSER, Ollama сравнивает возможности: когда шаблон чата из GGUF умеет больше (инструменты, рассуждения), чем Go TEMPLATE, или столько же, но с лучшим циклом вызова инструментов, llama-server выводит шаблон из GGUF (нативный режим). `OLLAMA_GO_TEMPLATE`=true принудительно включает TEMPLATE, false — шаблон из GGUF. Панель «Пояснение» называет сработавшее правило."),
    ("help.dates.q", "Which date do currentDate and yesterdayDate give?", "¿Qué fecha dan currentDate y yesterdayDate?", "Какую дату дают currentDate и yesterdayDate?"),
    ("help.dates.a",
     "Ollama uses the server's local date. The browser cannot know the server's time zone, so Promptscope uses the server date you set here, or today in UTC.",
     "Ollama usa la fecha local del servidor. El navegador no puede saber la zona horaria del servidor, así que Promptscope usa la fecha que pongas aquí, o la de hoy en UTC.",
     "Ollama берёт локальную дату сервера. Браузер не знает часовой пояс сервера, поэтому Promptscope использует дату, заданную здесь, или сегодняшнюю по UTC."),
    ("help.store.q", "Where is my Ollama models folder?", "¿Dónde está mi carpeta de modelos de Ollama?", "Где моя папка моделей Ollama?"),
    ("help.store.a",
     "Usually `~/.ollama/models` (macOS and Linux), `/usr/share/ollama/.ollama/models` for the Linux service installed by the install script, and `%USERPROFILE%\\.ollama\\models` on Windows; `OLLAMA_MODELS` moves it. Choosing the `.ollama` folder above it works too. Hidden folders: press Cmd+Shift+. in the macOS picker, or type the path. Everything is read in this browser and nothing is uploaded; only the manifests, the small layers (template, system, params, messages) and each model file's metadata are read, never the weights.",
     "Normalmente `~/.ollama/models` (macOS y Linux), `/usr/share/ollama/.ollama/models` para el servicio de Linux que instala el script, y `%USERPROFILE%\\.ollama\\models` en Windows; `OLLAMA_MODELS` la cambia de sitio. También vale elegir la carpeta `.ollama` que la contiene. Carpetas ocultas: pulsa Cmd+Mayús+. en el selector de macOS, o escribe la ruta. Todo se lee en este navegador y no se sube nada; solo se leen los manifiestos, las capas pequeñas (template, system, params, messages) y los metadatos de cada archivo de modelo, nunca los pesos.",
     "Обычно `~/.ollama/models` (macOS и Linux), `/usr/share/ollama/.ollama/models` для службы Linux, установленной скриптом, и `%USERPROFILE%\\.ollama\\models` в Windows; `OLLAMA_MODELS` меняет это место. Можно выбрать и папку `.ollama` над ней. Скрытые папки: нажмите Cmd+Shift+. в окне выбора macOS или введите путь. Всё читается в этом браузере, ничего не загружается на сервер; читаются только манифесты, небольшие слои (template, system, params, messages) и метаданные каждого файла модели, но не веса."),
    ("help.heap.q", "Why do I see addresses like 0xc000010000?", "¿Por qué veo direcciones como 0xc000010000?", "Откуда адреса вроде 0xc000010000?"),
    ("help.heap.a",
     "Printing `{{ .Messages }}` or nested tool properties makes Go print pointers, which in Ollama are real heap addresses that change on every run. Promptscope prints stable stand-ins in Go's style (`0xc000010000`, increasing), so these bytes will not match your server's.",
     "Al imprimir `{{ .Messages }}` o propiedades anidadas de herramientas, Go imprime punteros, que en Ollama son direcciones reales del heap y cambian en cada ejecución. Promptscope imprime sustitutos estables al estilo de Go (`0xc000010000`, crecientes), así que esos bytes no coincidirán con los de tu servidor.",
     "При выводе `{{ .Messages }}` или вложенных свойств инструментов Go печатает указатели; в Ollama это настоящие адреса в куче, меняющиеся от запуска к запуску. Promptscope печатает стабильные заменители в стиле Go (`0xc000010000`, по возрастанию), поэтому эти байты не совпадут с вашим сервером."),
];

fn entry(key: &str) -> Option<&'static Entry> {
    CATALOGUE.iter().find(|e| e.0 == key)
}

/// The text of `key` in `lang` (`(missing text)` for an unknown key; a test
/// checks that every key the UI names exists).
pub fn t(lang: Lang, key: &str) -> &'static str {
    match entry(key) {
        Some(&(_, en, es, ru)) => match lang {
            Lang::En => en,
            Lang::Es => es,
            Lang::Ru => ru,
        },
        None => "(missing text)",
    }
}

/// [`t`] with `{name}` placeholders replaced.
pub fn tf(lang: Lang, key: &str, args: &[(&str, &str)]) -> String {
    let mut text = t(lang, key).to_string();
    for (name, value) in args {
        text = text.replace(&format!("{{{name}}}"), value);
    }
    text
}

/// Every key of the catalogue.
pub fn keys() -> impl Iterator<Item = &'static str> {
    CATALOGUE.iter().map(|e| e.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn placeholders(s: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut rest = s;
        while let Some(i) = rest.find('{') {
            let after = &rest[i + 1..];
            match after.find('}') {
                Some(j)
                    if j > 0
                        && after[..j]
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c == '_') =>
                {
                    out.insert(after[..j].to_string());
                    rest = &after[j + 1..];
                }
                _ => rest = after,
            }
        }
        out
    }

    #[test]
    fn every_entry_is_translated_once() {
        let mut seen = BTreeSet::new();
        for (key, en, es, ru) in CATALOGUE {
            assert!(seen.insert(*key), "duplicate key {key}");
            assert!(!en.is_empty() && !es.is_empty() && !ru.is_empty(), "{key}");
            assert_eq!(placeholders(en), placeholders(es), "{key} (es)");
            assert_eq!(placeholders(en), placeholders(ru), "{key} (ru)");
        }
    }

    /// Every key the UI sources name is in the catalogue.
    #[test]
    fn every_key_the_ui_uses_exists() {
        const PREFIXES: [&str; 18] = [
            "answer.",
            "app.",
            "settings.",
            "examples.",
            "ex.",
            "toolbar.",
            "notice.",
            "editor.",
            "model.",
            "request.",
            "form.",
            "prompt.",
            "field.",
            "explain.",
            "branch.",
            "embed.",
            "help.",
            "store.",
        ];
        let dir = std::path::PathBuf::from(
            std::env::var_os("CARGO_MANIFEST_DIR")
                .expect("cargo sets CARGO_MANIFEST_DIR at run time"),
        )
        .join("src");
        let mut files: Vec<_> = std::fs::read_dir(dir.join("ui"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.push(dir.join("examples.rs"));
        files.push(dir.join("ui").join("store.rs"));
        let known: BTreeSet<&str> = keys().collect();
        let mut used = 0;
        for file in files {
            let src = std::fs::read_to_string(&file).unwrap();
            for (i, lit) in src.split('"').enumerate() {
                let is_key = i % 2 == 1
                    && PREFIXES.iter().any(|p| lit.starts_with(p))
                    && lit.len() > 4
                    && lit
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
                    && !lit.ends_with(".txt")
                    && !lit.ends_with(".json");
                if !is_key {
                    continue;
                }
                used += 1;
                if lit.starts_with("help.") {
                    for part in ["q", "a"] {
                        let k = format!("{lit}.{part}");
                        assert!(known.contains(k.as_str()), "{k} ({})", file.display());
                    }
                } else {
                    assert!(known.contains(lit), "{lit} ({})", file.display());
                }
            }
        }
        assert!(used > 100, "only {used} keys found");
    }

    #[test]
    fn languages() {
        assert_eq!(Lang::from_tag("es-419"), Some(Lang::Es));
        assert_eq!(Lang::from_tag("ru_RU"), Some(Lang::Ru));
        assert_eq!(Lang::from_tag("de"), None);
        assert_eq!(
            negotiate(&["de-DE".into(), "ru".into(), "en".into()]),
            Lang::Ru
        );
        assert_eq!(negotiate(&[]), Lang::En);
        assert_eq!(t(Lang::Es, "prompt.copy"), "Copiar");
        assert_eq!(
            tf(Lang::Ru, "prompt.stats", &[("chars", "3"), ("bytes", "4")]),
            "символов: 3, байт: 4"
        );
        assert_eq!(t(Lang::En, "no.such.key"), "(missing text)");
    }
}
