//! What both Web Workers (`generate-worker`, `engine-worker`) need: the
//! worker scope, posting `{type, ...}` messages, and a GGUF `File` read
//! synchronously (`FileReaderSync`, allowed in workers).

use std::io;

use gloo_events::EventListener;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, FileReaderSync, MessageEvent};

/// This worker's global scope.
pub fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts an object with these fields to the page.
pub fn post(fields: &[(&str, JsValue)]) {
    let o = js_sys::Object::new();
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
    }
    let _ = scope().post_message(&o);
}

/// Posts `{type: "error", message}`.
pub fn error(message: &str) {
    post(&[("type", "error".into()), ("message", message.into())]);
}

/// A string field of a message's data.
pub fn field(data: &JsValue, name: &str) -> Option<String> {
    js_sys::Reflect::get(data, &name.into())
        .ok()
        .and_then(|v| v.as_string())
}

/// The `file` field of a message's data.
pub fn file_field(data: &JsValue) -> Option<web_sys::File> {
    js_sys::Reflect::get(data, &"file".into())
        .ok()
        .and_then(|f| f.dyn_into::<web_sys::File>().ok())
}

/// Installs `handler` for the page's messages, then posts `{type: "ready"}`
/// (messages posted before the handler existed were dropped: the page
/// waits for this one before sending any).
pub fn serve(handler: impl FnMut(MessageEvent) + 'static) {
    console_error_panic_hook::set_once();
    let mut handler = handler;
    // for the worker's whole life
    EventListener::new(&scope(), "message", move |ev| {
        handler(ev.unchecked_ref::<MessageEvent>().clone())
    })
    .forget();
    post(&[("type", "ready".into())]);
}

/// A `File` as a GGUF byte source: each read is one synchronous slice
/// read, so only the bytes the parser asks for are read.
pub struct FileSource {
    file: web_sys::File,
    reader: FileReaderSync,
}

impl FileSource {
    /// A source over `file`.
    pub fn new(file: web_sys::File) -> Result<FileSource, String> {
        let reader = FileReaderSync::new().map_err(|e| format!("{e:?}"))?;
        Ok(FileSource { file, reader })
    }

    /// Reads `[start, end)` of the file.
    pub fn read_range(&self, start: u64, end: u64) -> io::Result<js_sys::Uint8Array> {
        let part = self
            .file
            .slice_with_f64_and_f64(start as f64, end as f64)
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        let ab = self
            .reader
            .read_as_array_buffer(&part)
            .map_err(|e| io::Error::other(format!("cannot read the file: {e:?}")))?;
        Ok(js_sys::Uint8Array::new(&ab))
    }
}

impl gguf_meta::ReadAt for FileSource {
    fn size(&mut self) -> io::Result<u64> {
        Ok(self.file.size() as u64)
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let end = (offset + buf.len() as u64).min(self.file.size() as u64);
        if offset >= end {
            return Ok(0);
        }
        let bytes = self.read_range(offset, end)?;
        let n = bytes.length() as usize;
        bytes.copy_to(&mut buf[..n]);
        Ok(n)
    }
}
