//! The static playground's engine: the playground's API ([`pathsmooth_playground`]) in
//! WebAssembly, for the page's module Web Worker (`worker.js` of the static build).
//!
//! One call, [`request`], answers the routes `pathsmooth serve` answers, with the same
//! JSON in and out and the same errors, over one [`Playground`] held for the module's life
//! (the uploaded maps are kept there, as the server keeps them), and the live crowd's
//! ([`live`]: `POST /api/crowd/live` starts one, `POST /api/crowd/live/step` steps it):
//! the worker holds one live crowd, the player's (the server numbers its clients'). A request runs to its end
//! on the worker's thread; the page cancels one by ending the worker and starting a new
//! one, whose playground starts empty of uploads (the page's requests carry a map's text,
//! so none has to be sent again).
//!
//! Cost: the module is the whole playground (every grid method, the layered navmeshes and
//! their two bundled examples, the crowd): 1.82 MB (649 KB gzipped), loaded and compiled
//! once per worker, so a cancel costs a new compile (the page's cancel test answers its next
//! plan within about half a second). No threads: rayon is off, the crowd runs on one.

use std::sync::{Mutex, OnceLock};

use pathsmooth::Cancel;
use pathsmooth_playground::live::{self, LiveCrowd};
use pathsmooth_playground::{route, Playground};
use wasm_bindgen::prelude::*;

/// The playground of this module: the embedded worlds, the uploads kept.
fn playground() -> Result<&'static Playground, JsValue> {
    static PLAYGROUND: OnceLock<Result<Playground, String>> = OnceLock::new();
    PLAYGROUND
        .get_or_init(|| Playground::new(Vec::new()).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| error(500, &format!("internal error (please report it): {e}")))
}

/// A JavaScript `Error` with `message` and a `status` property (the HTTP status the
/// server would send).
fn error(status: u16, message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&e, &"status".into(), &status.into());
    e.into()
}

/// Answers `method` (`GET` or `POST`) on `path` (`/api/plan`, `/api/worlds/demo`…) with
/// `body` (the request's JSON text, empty for `GET`): the answer's JSON text, as
/// `pathsmooth serve` sends it. Throws an `Error` whose `message` is the server's error
/// message and whose `status` is its status (400 bad input, 404 unknown route or name, 405
/// wrong method, 413 past a limit, 422 cannot be planned). Never panics on bad input.
#[wasm_bindgen]
pub fn request(method: &str, path: &str, body: &str) -> Result<String, JsValue> {
    /// The live crowd shown, if any.
    static LIVE: Mutex<Option<LiveCrowd>> = Mutex::new(None);
    let p = playground()?;
    let (body, cancel) = (body.as_bytes(), Cancel::new());
    // A panic aborts the module (the worker answers `fatal` and the page starts another),
    // so the lock is never poisoned; were it, the crowd would be dropped, not trusted.
    let mut slot = LIVE.lock().unwrap_or_else(|poisoned| {
        let mut slot = poisoned.into_inner();
        *slot = None;
        slot
    });
    let answer = live::request(&mut slot, p, method, path, body, &cancel)
        .unwrap_or_else(|| route::request(p, method, path, body, &cancel))
        .map_err(|e| error(e.status(), e.message()))?;
    String::from_utf8(answer).map_err(|e| error(500, &format!("internal error: {e}")))
}
