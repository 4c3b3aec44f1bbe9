//! "Open my Ollama models folder": the folder chosen with
//! `showDirectoryPicker` (its handle remembered in IndexedDB, so that a
//! reload re-grants it with one click) or with `<input webkitdirectory>`
//! elsewhere, its models listed as `ollama list` lists them, and one loaded
//! into the model fields, with its model blob attached as a dropped GGUF
//! is. What is read is planned by `store::plan` (`promptscope_app::modelstore`):
//! manifests, small layers, and only the header of each model blob.

use std::cell::RefCell;
use std::collections::HashMap;

use js_sys::{Array, Object, Promise, Reflect};
use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use promptscope_app::gguf::human_bytes;
use promptscope_app::modelstore::{
    self, apply_stored, is_manifest_path, models_root, ms_to_ns, strip_first, FileInfo, Folder,
    Reader, Row,
};
use promptscope_app::upgrade::{self, ModelResult};
use store::manifest::ENTRY_LIMIT;

use crate::ui::gguf_pane;
use crate::ui::help::Help;
use crate::ui::store::{Store, StoreModel};

fn get(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn call(o: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: js_sys::Function = get(o, method)
        .dyn_into()
        .map_err(|_| JsValue::from_str(&format!("{method} is not available here")))?;
    f.apply(o, &args.iter().collect::<Array>())
}

/// Calls a method that returns a promise, and awaits it.
async fn call_async(o: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let p = call(o, method, args)?;
    JsFuture::from(Promise::resolve(&p)).await
}

fn error_name(e: &JsValue) -> String {
    get(e, "name").as_string().unwrap_or_default()
}

fn error_text(e: &JsValue) -> String {
    match (error_name(e), get(e, "message").as_string()) {
        (n, Some(m)) if !n.is_empty() => format!("{n}: {m}"),
        (_, Some(m)) => m,
        _ => e.as_string().unwrap_or_else(|| format!("{e:?}")),
    }
}

/// A missing file or folder (or one of the other kind), for the folder
/// handle API.
fn is_missing(e: &JsValue) -> bool {
    matches!(
        error_name(e).as_str(),
        "NotFoundError" | "TypeMismatchError" | "TypeError"
    )
}

fn options(pairs: &[(&str, &str)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&o, &JsValue::from_str(k), &JsValue::from_str(v));
    }
    o.into()
}

/// `window.showDirectoryPicker`, where the browser has it.
fn has_picker() -> bool {
    web_sys::window().is_some_and(|w| get(&w, "showDirectoryPicker").is_function())
}

/// A folder's entries: (name, `file` or `directory`, handle), counting
/// against `budget`.
async fn children(
    dir: &JsValue,
    budget: &mut usize,
) -> Result<Vec<(String, String, JsValue)>, String> {
    let it = call(dir, "values", &[]).map_err(|e| error_text(&e))?;
    let mut out = Vec::new();
    loop {
        let step = call_async(&it, "next", &[])
            .await
            .map_err(|e| error_text(&e))?;
        if get(&step, "done").is_truthy() {
            return Ok(out);
        }
        if *budget == 0 {
            return Err(format!("more than {ENTRY_LIMIT} entries"));
        }
        *budget -= 1;
        let h = get(&step, "value");
        let name = get(&h, "name").as_string().unwrap_or_default();
        let kind = get(&h, "kind").as_string().unwrap_or_default();
        out.push((name, kind, h));
    }
}

/// Where the files come from.
enum Source {
    /// A folder handle (the models directory).
    Handle(JsValue),
    /// The files of `<input webkitdirectory>`, by path in the models
    /// directory.
    Files(HashMap<String, web_sys::File>),
}

/// The chosen models folder, as the reader sees it.
pub struct BrowserFolder {
    source: Source,
    /// Files already looked up (`None`: not there).
    cache: RefCell<HashMap<String, Option<web_sys::File>>>,
}

impl BrowserFolder {
    fn new(source: Source) -> BrowserFolder {
        BrowserFolder {
            source,
            cache: RefCell::new(HashMap::new()),
        }
    }

    /// The file at `path` (relative to the models directory).
    pub async fn file(&self, path: &str) -> Result<Option<web_sys::File>, String> {
        if let Some(f) = self.cache.borrow().get(path) {
            return Ok(f.clone());
        }
        let f = match &self.source {
            Source::Files(files) => files.get(path).cloned(),
            Source::Handle(root) => handle_file(root, path).await?,
        };
        self.cache.borrow_mut().insert(path.to_string(), f.clone());
        Ok(f)
    }
}

async fn handle_file(root: &JsValue, path: &str) -> Result<Option<web_sys::File>, String> {
    let parts: Vec<&str> = path.split('/').collect();
    let Some((last, dirs)) = parts.split_last() else {
        return Ok(None);
    };
    let mut dir = root.clone();
    for d in dirs {
        match call_async(&dir, "getDirectoryHandle", &[JsValue::from_str(d)]).await {
            Ok(h) => dir = h,
            Err(e) if is_missing(&e) => return Ok(None),
            Err(e) => return Err(error_text(&e)),
        }
    }
    let fh = match call_async(&dir, "getFileHandle", &[JsValue::from_str(last)]).await {
        Ok(h) => h,
        Err(e) if is_missing(&e) => return Ok(None),
        Err(e) => return Err(error_text(&e)),
    };
    let f = call_async(&fh, "getFile", &[])
        .await
        .map_err(|e| error_text(&e))?;
    Ok(f.dyn_into::<web_sys::File>().ok())
}

impl Folder for BrowserFolder {
    async fn manifests(&self) -> Result<Vec<String>, String> {
        let root = match &self.source {
            Source::Files(files) => {
                let mut out: Vec<String> = files
                    .keys()
                    .filter(|p| is_manifest_path(p))
                    .cloned()
                    .collect();
                out.sort();
                return Ok(out);
            }
            Source::Handle(root) => root,
        };
        let top = match call_async(
            root,
            "getDirectoryHandle",
            &[JsValue::from_str("manifests")],
        )
        .await
        {
            Ok(h) => h,
            Err(e) if is_missing(&e) => return Ok(Vec::new()),
            Err(e) => return Err(error_text(&e)),
        };
        // level by level, every folder of a level asked at once (each
        // call is a round trip)
        let mut budget = ENTRY_LIMIT;
        let mut level = vec![(String::from("manifests"), top)];
        let mut files = Vec::new();
        for depth in 1..=4usize {
            let listed = futures_util::future::join_all(level.iter().map(|(_, dir)| async {
                let mut own = ENTRY_LIMIT;
                children(dir, &mut own).await
            }))
            .await;
            let mut next = Vec::new();
            for ((base, _), got) in level.iter().zip(listed) {
                let got = got?;
                budget = budget
                    .checked_sub(got.len())
                    .ok_or_else(|| format!("more than {ENTRY_LIMIT} entries"))?;
                for (name, kind, h) in got {
                    let path = format!("{base}/{name}");
                    match (depth, kind.as_str()) {
                        (1..=3, "directory") => next.push((path, h)),
                        (4, "file") => files.push((path, h)),
                        _ => {}
                    }
                }
            }
            level = next;
        }
        let got = futures_util::future::join_all(files.iter().map(|(_, h)| async {
            call_async(h, "getFile", &[])
                .await
                .ok()
                .and_then(|f| f.dyn_into::<web_sys::File>().ok())
        }))
        .await;
        let mut out = Vec::with_capacity(files.len());
        for ((path, _), f) in files.into_iter().zip(got) {
            self.cache.borrow_mut().insert(path.clone(), f);
            out.push(path);
        }
        out.sort();
        Ok(out)
    }

    async fn info(&self, path: &str) -> Result<Option<FileInfo>, String> {
        Ok(self.file(path).await?.map(|f| FileInfo {
            size: f.size() as u64,
            modified_ns: ms_to_ns(f.last_modified()),
        }))
    }

    async fn read(&self, path: &str, len: u64) -> Result<Vec<u8>, String> {
        let f = self
            .file(path)
            .await?
            .ok_or_else(|| "no such file".to_string())?;
        let end = len.min(f.size() as u64);
        let part = f
            .slice_with_f64_and_f64(0.0, end as f64)
            .map_err(|e| error_text(&e))?;
        let ab = JsFuture::from(part.array_buffer())
            .await
            .map_err(|e| error_text(&e))?;
        Ok(js_sys::Uint8Array::new(&ab).to_vec())
    }
}

/// The folder handle remembered between visits, in IndexedDB (where the
/// browser allows it; everything fails soft).
mod remembered {
    use super::*;
    use web_sys::{IdbDatabase, IdbOpenDbRequest, IdbRequest, IdbTransactionMode};

    const DB: &str = "promptscope";
    const STORE: &str = "handles";
    const KEY: &str = "models";

    async fn done(req: &IdbRequest) -> Result<JsValue, JsValue> {
        let p = Promise::new(&mut |resolve, reject| {
            let r = req.clone();
            let ok = Closure::once_into_js(move || {
                let _ = resolve.call1(&JsValue::NULL, &r.result().unwrap_or(JsValue::UNDEFINED));
            });
            let bad = Closure::once_into_js(move || {
                let _ = reject.call1(&JsValue::NULL, &JsValue::from_str("IndexedDB failed"));
            });
            req.set_onsuccess(Some(ok.unchecked_ref()));
            req.set_onerror(Some(bad.unchecked_ref()));
        });
        JsFuture::from(p).await
    }

    async fn open() -> Result<IdbDatabase, JsValue> {
        let factory = web_sys::window()
            .ok_or(JsValue::NULL)?
            .indexed_db()?
            .ok_or(JsValue::NULL)?;
        let req: IdbOpenDbRequest = factory.open_with_u32(DB, 1)?;
        let r = req.clone();
        let upgrade = Closure::once_into_js(move || {
            if let Ok(db) = r.result().and_then(|d| d.dyn_into::<IdbDatabase>()) {
                let _ = db.create_object_store(STORE);
            }
        });
        req.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
        done(&req).await?.dyn_into::<IdbDatabase>()
    }

    /// Remembers `handle`.
    pub async fn save(handle: &JsValue) {
        let _ = async {
            let db = open().await?;
            let tx = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)?;
            let req = tx
                .object_store(STORE)?
                .put_with_key(handle, &JsValue::from_str(KEY))?;
            done(&req).await?;
            db.close();
            Ok::<_, JsValue>(())
        }
        .await;
    }

    /// The remembered handle, if any.
    pub async fn load() -> Option<JsValue> {
        let got = async {
            let db = open().await?;
            let tx = db.transaction_with_str(STORE)?;
            let req = tx.object_store(STORE)?.get(&JsValue::from_str(KEY))?;
            let v = done(&req).await?;
            db.close();
            Ok::<_, JsValue>(v)
        }
        .await;
        got.ok().filter(|v| v.is_object())
    }
}

/// The pane's signals.
#[derive(Clone, Copy)]
struct Ui {
    store: Store,
    reader: StoredValue<Option<Reader<BrowserFolder>>, LocalStorage>,
    busy: RwSignal<bool>,
    name: RwSignal<String>,
    rows: RwSignal<Option<Vec<Row>>>,
    skipped: RwSignal<Vec<String>>,
    note: RwSignal<Option<(String, u64)>>,
    error: RwSignal<Option<String>>,
    saved: StoredValue<Option<JsValue>, LocalStorage>,
    saved_name: RwSignal<Option<String>>,
    /// The upgrade check: the two releases (tags), its results so far,
    /// and whether it runs.
    upgrade_from: RwSignal<String>,
    upgrade_to: RwSignal<String>,
    upgrade: RwSignal<Vec<ModelResult>>,
    upgrading: RwSignal<bool>,
}

impl Ui {
    fn fail(&self, text: String) {
        self.error.set(Some(text));
        self.note.set(None);
        self.busy.set(false);
    }

    fn start(&self, name: &str) -> bool {
        if self.busy.get_untracked() {
            return false;
        }
        self.busy.set(true);
        self.error.set(None);
        self.name.set(name.to_string());
        self.note
            .set(Some((self.store.tf("store.reading", &[("name", name)]), 0)));
        true
    }

    /// Reads the manifests and what the list needs, and shows the list.
    async fn open(self, folder: BrowserFolder, name: String) {
        let store = self.store;
        self.rows.set(None);
        self.skipped.set(Vec::new());
        self.reader.set_value(None);
        let mut r = match Reader::open(folder).await {
            Ok(r) => r,
            Err(why) => {
                return self.fail(store.tf("store.failed", &[("name", &name), ("why", &why)]))
            }
        };
        match r.list().await {
            Ok((models, skipped)) => {
                let mut lines: Vec<String> = skipped
                    .iter()
                    .map(|s| format!("{}: {}", s.path, s.why))
                    .collect();
                lines.extend(r.errors.iter().cloned());
                self.skipped.set(lines);
                self.note.set(Some((
                    store.tf(
                        "store.listed",
                        &[
                            ("n", &models.len().to_string()),
                            ("name", &name),
                            ("read", &human_bytes(r.bytes_read)),
                        ],
                    ),
                    r.bytes_read,
                )));
                self.rows.set(Some(modelstore::rows(&models)));
                self.reader.set_value(Some(r));
                self.busy.set(false);
            }
            Err(why) => self.fail(store.tf("store.failed", &[("name", &name), ("why", &why)])),
        }
    }

    /// A folder handle: its `manifests/`, or its `models/manifests/`.
    async fn open_handle(self, picked: JsValue) {
        let store = self.store;
        let name = get(&picked, "name").as_string().unwrap_or_default();
        if !self.start(&name) {
            return;
        }
        let has = |dir: JsValue, sub: &'static str| async move {
            call_async(&dir, "getDirectoryHandle", &[JsValue::from_str(sub)])
                .await
                .ok()
        };
        let root = if has(picked.clone(), "manifests").await.is_some() {
            Some(picked)
        } else {
            match has(picked, "models").await {
                Some(models) if has(models.clone(), "manifests").await.is_some() => Some(models),
                _ => None,
            }
        };
        match root {
            Some(root) => {
                self.open(BrowserFolder::new(Source::Handle(root)), name)
                    .await
            }
            None => self.fail(store.tf("store.no_manifests", &[("name", &name)])),
        }
    }

    /// The files of `<input webkitdirectory>`.
    fn open_files(self, list: web_sys::FileList) {
        let store = self.store;
        let mut files: Vec<(String, web_sys::File)> = Vec::new();
        let mut name = String::new();
        for i in 0..list.length() {
            let Some(f) = list.get(i) else { continue };
            let rel = get(&f, "webkitRelativePath")
                .as_string()
                .unwrap_or_default();
            if name.is_empty() {
                name = rel.split('/').next().unwrap_or("").to_string();
            }
            if let Some(p) = strip_first(&rel) {
                files.push((p.to_string(), f));
            }
        }
        if files.is_empty() {
            return;
        }
        if !self.start(&name) {
            return;
        }
        let Some(prefix) = models_root(files.iter().map(|(p, _)| p.as_str())) else {
            return self.fail(store.tf("store.no_manifests", &[("name", &name)]));
        };
        let map: HashMap<String, web_sys::File> = files
            .into_iter()
            .filter_map(|(p, f)| Some((p.strip_prefix(&prefix)?.to_string(), f)))
            .collect();
        spawn_local(self.open(BrowserFolder::new(Source::Files(map)), name));
    }

    /// Loads a listed model into the fields, and its model blob as the GGUF.
    async fn load(self, model: String) {
        let store = self.store;
        if self.busy.get_untracked() {
            return self.note.set(Some((store.t("store.busy").to_string(), 0)));
        }
        let Some(mut r) = self.reader.try_update_value(Option::take).flatten() else {
            return;
        };
        self.busy.set(true);
        self.error.set(None);
        let before = self.note.get_untracked();
        self.note.set(Some((
            store.tf("store.loading", &[("name", &model)]),
            r.bytes_read,
        )));
        match r.load(&model).await {
            Err(refusal) => {
                self.error.set(Some(refusal.message));
                self.note.set(before);
            }
            Ok(m) => {
                let blob =
                    match &m.model {
                        Some(b) => r.folder.file(&b.path).await.ok().flatten().ok_or_else(|| {
                            store.tf("store.model_blob_missing", &[("path", &b.path)])
                        }),
                        None => Err(store.tf("store.no_gguf", &[("name", &model)])),
                    };
                // the previous model's GGUF goes first, so that no render
                // mixes the two
                gguf_pane::forget(store);
                store.update(|s| apply_stored(&mut s.model, &m));
                let name = model.clone();
                store.edit_body(move |b| {
                    if let Some(o) = b.as_object_mut() {
                        o.insert("model".into(), name.into());
                    }
                });
                store.store_model.set(Some(StoreModel {
                    name: model.clone(),
                    origins: modelstore::origin_lines(&m),
                }));
                let mut text = store.tf(
                    "store.loaded",
                    &[("name", &model), ("read", &human_bytes(r.bytes_read))],
                );
                match blob {
                    Ok(file) => gguf_pane::load_file(store, file, store.gguf_status),
                    Err(why) => text = format!("{text}. {why}"),
                }
                self.note.set(Some((text, r.bytes_read)));
            }
        }
        self.reader.set_value(Some(r));
        self.busy.set(false);
    }
}

impl Ui {
    /// Renders every listed model's standard conversations under the two
    /// chosen releases, one model at a time, each result shown as it comes.
    async fn check_upgrade(self) {
        let store = self.store;
        if self.busy.get_untracked() {
            return self.note.set(Some((store.t("store.busy").to_string(), 0)));
        }
        let Some(rows) = self.rows.get_untracked() else {
            return;
        };
        let Some(mut r) = self.reader.try_update_value(Option::take).flatten() else {
            return;
        };
        let release = |t: String| changes::Release::parse(&t).unwrap_or_default();
        let releases = [
            release(self.upgrade_from.get_untracked()),
            release(self.upgrade_to.get_untracked()),
        ];
        self.busy.set(true);
        self.upgrading.set(true);
        self.upgrade.set(Vec::new());
        let base = store.state.get_untracked();
        let today = crate::ui::browser::today();
        for row in rows {
            let result = match r.load(&row.name).await {
                Err(refusal) => upgrade::refused(&row.name, &refusal.message),
                Ok(m) => {
                    let file = match &m.model {
                        Some(b) => r.folder.file(&b.path).await.ok().flatten(),
                        None => None,
                    };
                    let gguf = match file {
                        Some(f) => gguf_pane::read_metadata(f).await.ok(),
                        None => None,
                    };
                    upgrade::check_model(&base, &row.name, &m, gguf.as_ref(), releases, &today)
                }
            };
            self.upgrade.update(|v| v.push(result));
        }
        self.reader.set_value(Some(r));
        self.upgrading.set(false);
        self.busy.set(false);
    }
}

/// The upgrade check's two release pickers, its button and its lines.
fn upgrade_view(ui: Ui) -> impl IntoView {
    let store = ui.store;
    let options = move |chosen: RwSignal<String>| {
        changes::Release::SUPPORTED
            .iter()
            .rev()
            .map(|r| {
                let tag = r.tag;
                view! {
                    <option value=tag selected=move || chosen.get() == tag>
                        {tag}
                    </option>
                }
            })
            .collect_view()
    };
    let picker = move |label: &'static str, testid: &'static str, chosen: RwSignal<String>| {
        view! {
            <label>
                {move || store.t(label)} " "
                <select data-testid=testid on:change=move |ev| chosen.set(event_target_value(&ev))>
                    {options(chosen)}
                </select>
            </label>
        }
    };
    let lines = move || {
        ui.upgrade
            .get()
            .into_iter()
            .map(|m| {
                view! {
                    <li
                        data-testid="upgrade-result"
                        data-model=m.name.clone()
                        data-result=m.verdict.as_str()
                        class=format!("upgrade-{}", m.verdict.as_str())
                    >
                        <code>{m.line}</code>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <details class="upgrade-check" data-testid="upgrade-check">
            <summary>{move || store.t("store.upgrade")}</summary>
            <p class="hint">{move || store.t("store.upgrade_hint")}</p>
            <div class="row wrap">
                {picker("store.upgrade_from", "upgrade-from", ui.upgrade_from)}
                {picker("store.upgrade_to", "upgrade-to", ui.upgrade_to)}
                <button
                    type="button"
                    data-testid="upgrade-run"
                    disabled=move || ui.busy.get()
                    on:click=move |_| spawn_local(ui.check_upgrade())
                >
                    {move || store.t("store.upgrade_run")}
                </button>
            </div>
            <ul class="upgrade-lines" data-testid="upgrade-lines" aria-busy=move || ui.upgrading.get().to_string()>
                {lines}
            </ul>
            {move || {
                (!ui.upgrading.get() && !ui.upgrade.with(Vec::is_empty))
                    .then(|| {
                        let (same, other): (Vec<_>, Vec<_>) = ui
                            .upgrade
                            .get()
                            .into_iter()
                            .partition(|m| m.verdict == runtime::upgrade::Verdict::Same);
                        view! {
                            <p class="note" role="status" data-testid="upgrade-summary">
                                {store.tf(
                                    "store.upgrade_done",
                                    &[("same", &same.len().to_string()), ("other", &other.len().to_string())],
                                )}
                            </p>
                        }
                    })
            }}
        </details>
    }
}

/// The button, the list and its messages.
#[component]
pub fn StorePane() -> impl IntoView {
    let store = expect_context::<Store>();
    let ui = Ui {
        store,
        reader: StoredValue::new_local(None),
        busy: RwSignal::new(false),
        name: RwSignal::new(String::new()),
        rows: RwSignal::new(None),
        skipped: RwSignal::new(Vec::new()),
        note: RwSignal::new(None),
        error: RwSignal::new(None),
        saved: StoredValue::new_local(None),
        saved_name: RwSignal::new(None),
        upgrade_from: RwSignal::new(
            store
                .state
                .with_untracked(|s| changes::Release::parse(&s.ollama).unwrap_or_default())
                .tag
                .to_string(),
        ),
        upgrade_to: RwSignal::new(changes::Release::NEWEST.tag.to_string()),
        upgrade: RwSignal::new(Vec::new()),
        upgrading: RwSignal::new(false),
    };
    let input = NodeRef::<html::Input>::new();
    let picker = has_picker();
    if picker {
        spawn_local(async move {
            if let Some(h) = remembered::load().await {
                ui.saved_name
                    .set(Some(get(&h, "name").as_string().unwrap_or_default()));
                ui.saved.set_value(Some(h));
            }
        });
    }
    let click_input = move || {
        if let Some(i) = input.get_untracked() {
            i.click();
        }
    };
    let on_open = move |_| {
        if !picker {
            return click_input();
        }
        spawn_local(async move {
            let Some(w) = web_sys::window() else { return };
            let opts = options(&[("id", "ollama-models"), ("mode", "read")]);
            match call_async(&w, "showDirectoryPicker", &[opts]).await {
                Ok(h) => {
                    remembered::save(&h).await;
                    ui.saved_name
                        .set(Some(get(&h, "name").as_string().unwrap_or_default()));
                    ui.saved.set_value(Some(h.clone()));
                    ui.open_handle(h).await;
                }
                // the user closed the picker
                Err(e) if error_name(&e) == "AbortError" => {}
                // not allowed here (a cross-origin frame): the file dialog
                Err(_) => click_input(),
            }
        });
    };
    let on_reopen = move |_| {
        let Some(h) = ui.saved.get_value() else {
            return;
        };
        spawn_local(async move {
            let name = get(&h, "name").as_string().unwrap_or_default();
            let asked = call_async(&h, "requestPermission", &[options(&[("mode", "read")])]).await;
            match asked.map(|v| v.as_string()) {
                Ok(Some(s)) if s == "granted" => ui.open_handle(h).await,
                Ok(_) => ui
                    .error
                    .set(Some(store.tf("store.denied", &[("name", &name)]))),
                Err(e) => ui.error.set(Some(
                    store.tf("store.failed", &[("name", &name), ("why", &error_text(&e))]),
                )),
            }
        });
    };
    let on_files = move |ev: web_sys::Event| {
        let el: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(list) = el.files() {
            ui.open_files(list);
        }
        // the same folder can be chosen again
        el.set_value("");
    };

    let table = move || {
        ui.rows.get().map(|rows| {
            let body = rows
                .into_iter()
                .map(|r| {
                    let name = r.name.clone();
                    let title = store.tf("store.load", &[("name", &r.name)]);
                    view! {
                        <tr data-testid="store-model">
                            <td>
                                <button
                                    type="button"
                                    class="link"
                                    data-testid="store-load"
                                    title=title.clone()
                                    aria-label=title
                                    on:click=move |_| spawn_local(ui.load(name.clone()))
                                >
                                    {r.name.clone()}
                                </button>
                            </td>
                            <td>{r.size}</td>
                            <td>{r.family}</td>
                            <td>{r.parameters}</td>
                            <td>{r.quantization}</td>
                            <td>{r.capabilities.join(", ")}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <div class="table-scroll">
                    <table class="meta" data-testid="store-list">
                        <caption class="sr-only">{store.t("store.models")}</caption>
                        <thead>
                            <tr>
                                <th scope="col">{store.t("store.col_name")}</th>
                                <th scope="col">{store.t("store.col_size")}</th>
                                <th scope="col">{store.t("store.col_family")}</th>
                                <th scope="col">{store.t("store.col_params")}</th>
                                <th scope="col">{store.t("store.col_quant")}</th>
                                <th scope="col">{store.t("store.col_caps")}</th>
                            </tr>
                        </thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
            }
        })
    };

    view! {
        <div class="store-pane" data-testid="store-pane">
            <div class="row wrap">
                <button
                    type="button"
                    data-testid="store-open"
                    disabled=move || ui.busy.get()
                    on:click=on_open
                >
                    {move || store.t("store.open")}
                </button>
                {move || {
                    ui.saved_name
                        .get()
                        .map(|name| {
                            let label = store.tf("store.reopen", &[("name", &name)]);
                            view! {
                                <button
                                    type="button"
                                    data-testid="store-reopen"
                                    disabled=move || ui.busy.get()
                                    on:click=on_reopen
                                >
                                    {label}
                                </button>
                            }
                        })
                }}
                <input
                    type="file"
                    class="sr-only"
                    tabindex="-1"
                    multiple=true
                    prop:webkitdirectory=true
                    aria-label=move || store.t("store.choose")
                    data-testid="store-input"
                    node_ref=input
                    on:change=on_files
                />
            </div>
            <p class="hint">{move || store.t("store.hint")}</p>
            <Help key="help.store" />
            {move || {
                ui.error
                    .get()
                    .map(|e| view! { <p class="field-error" role="alert" data-testid="store-error">{e}</p> })
            }}
            {move || {
                ui.note
                    .get()
                    .map(|(text, read)| {
                        view! {
                            <p class="note" role="status" data-testid="store-status" data-bytes-read=read.to_string()>
                                {text}
                            </p>
                        }
                    })
            }}
            {table}
            {move || ui.rows.with(Option::is_some).then(|| upgrade_view(ui))}
            {move || {
                let lines = ui.skipped.get();
                (!lines.is_empty())
                    .then(|| {
                        view! {
                            <details class="store-skipped" data-testid="store-skipped">
                                <summary>{store.tf("store.skipped", &[("n", &lines.len().to_string())])}</summary>
                                <ul>
                                    {lines.into_iter().map(|l| view! { <li><code>{l}</code></li> }).collect_view()}
                                </ul>
                            </details>
                        }
                    })
            }}
        </div>
    }
}
