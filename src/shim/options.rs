//! `new Simulator(options)`: turning a JavaScript options object into an engine [`Config`].
//!
//! The options mirror the native server's flags (`--feature-gates`, `--clock`, `--seed`) plus
//! what only a library can offer (an initial state, a start time). Unknown keys are an error:
//! a misspelt `cacheLagMs` would otherwise silently give a cluster without lag, and a test that
//! passes for the wrong reason.

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::engine::Config;
use crate::features::FeatureGates;

/// The keys `new Simulator(options)` understands.
const KNOWN: &[&str] = &[
    "featureGates",
    "clock",
    "seed",
    "cacheLagMs",
    "initialState",
    "startMs",
    "serverAddress",
    "user",
    "tokens",
    "anonymousAuth",
    "authorizationMode",
    "gcDelayMs",
    "namespaceDelayMs",
];

/// Where the simulator's time comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockMode {
    /// Follows `Date.now()`; a timer drives bookmarks, timeouts and cache lag.
    Wall,
    /// Simulated: moves only with `advance(ms)`, so runs are reproducible.
    Manual,
}

/// Parsed options: the engine config plus what is applied after the engine exists.
pub struct Options {
    pub config: Config,
    pub clock: ClockMode,
    /// An `exportState()` result to start from.
    pub initial_state: Option<serde_json::Value>,
}

fn type_error(msg: &str) -> JsValue {
    js_sys::TypeError::new(&format!("kubesim: {msg}")).into()
}

/// Reads `options` (an object, or `undefined`/`null` for all defaults).
pub fn parse(options: &JsValue) -> Result<Options, JsValue> {
    let mut config = Config::default();
    let mut clock = ClockMode::Wall;
    let mut initial_state = None;
    if options.is_undefined() || options.is_null() {
        return Ok(Options {
            config,
            clock,
            initial_state,
        });
    }
    let obj: &Object = options
        .dyn_ref()
        .ok_or_else(|| type_error("Simulator options must be an object"))?;
    for key in Object::keys(obj).iter() {
        let key = key.as_string().unwrap_or_default();
        if !KNOWN.contains(&key.as_str()) {
            return Err(type_error(&format!(
                "unknown Simulator option {key:?} (known: {})",
                KNOWN.join(", ")
            )));
        }
        let value = Reflect::get(obj, &JsValue::from_str(&key))?;
        if value.is_undefined() {
            continue;
        }
        match key.as_str() {
            "featureGates" => config.feature_gates = feature_gates(&value)?,
            "clock" => {
                clock = match value.as_string().as_deref() {
                    Some("wall") => ClockMode::Wall,
                    Some("manual") => ClockMode::Manual,
                    _ => return Err(type_error("clock must be \"wall\" or \"manual\"")),
                }
            }
            "seed" => config.seed = seed(&value)?,
            "cacheLagMs" => config.cache.lag_ms = integer(&value, "cacheLagMs")?,
            "startMs" => config.start_ms = integer(&value, "startMs")?,
            "serverAddress" => {
                config.server_address = value
                    .as_string()
                    .ok_or_else(|| type_error("serverAddress must be a string"))?
            }
            "initialState" => initial_state = Some(json_value(&value)?),
            "user" => config.auth.default_user = user(&value)?,
            "tokens" => {
                let text = value
                    .as_string()
                    .ok_or_else(|| type_error("tokens must be a token file's text"))?;
                let file =
                    crate::auth::TokenFile::parse("tokens", &text).map_err(|e| type_error(&e))?;
                config.auth.tokens = crate::auth::with_admin_token(file);
            }
            "gcDelayMs" => config.gc_delay_ms = integer(&value, "gcDelayMs")?,
            "namespaceDelayMs" => config.namespace_delay_ms = integer(&value, "namespaceDelayMs")?,
            "anonymousAuth" => {
                config.auth.anonymous = value
                    .as_bool()
                    .ok_or_else(|| type_error("anonymousAuth must be true or false"))?
            }
            "authorizationMode" => {
                config.authorization = match value.as_string().as_deref() {
                    Some("RBAC") => crate::registry::AuthorizationMode::Rbac,
                    Some("AlwaysAllow") => crate::registry::AuthorizationMode::AlwaysAllow,
                    _ => {
                        return Err(type_error(
                            "authorizationMode must be \"RBAC\" or \"AlwaysAllow\"",
                        ))
                    }
                }
            }
            _ => unreachable!("checked against KNOWN"),
        }
    }
    Ok(Options {
        config,
        clock,
        initial_state,
    })
}

/// The identity requests without credentials act as: `null` for none (anonymous), or
/// `{ name, uid?, groups? }` (authenticated: `system:authenticated` is added).
pub fn user(value: &JsValue) -> Result<Option<crate::resources::rbac::UserInfo>, JsValue> {
    if value.is_null() {
        return Ok(None);
    }
    let v = json_value(value)?;
    let name = v["name"]
        .as_str()
        .filter(|n| !n.is_empty())
        .ok_or_else(|| type_error("user must be null or { name, uid?, groups? }"))?;
    let mut u = crate::resources::rbac::UserInfo::new(name, &[]);
    u.uid = v["uid"].as_str().unwrap_or("").to_string();
    u.groups = crate::resources::meta::strings(v.get("groups"));
    Ok(Some(u.with_authenticated_group()))
}

/// `"A=true,B=false"` (kube-apiserver's flag format) or `{ A: true, B: false }`.
fn feature_gates(value: &JsValue) -> Result<FeatureGates, JsValue> {
    if let Some(s) = value.as_string() {
        return FeatureGates::parse(&s).map_err(|e| type_error(&e));
    }
    let obj: &Object = value
        .dyn_ref()
        .ok_or_else(|| type_error("featureGates must be a string or an object"))?;
    let mut gates = FeatureGates::default();
    for entry in Object::entries(obj).iter() {
        let pair: js_sys::Array = entry.unchecked_into();
        let name = pair.get(0).as_string().unwrap_or_default();
        let enabled = pair
            .get(1)
            .as_bool()
            .ok_or_else(|| type_error(&format!("feature gate {name} must be true or false")))?;
        gates.set(&name, enabled).map_err(|e| type_error(&e))?;
    }
    Ok(gates)
}

/// A seed as a number, a bigint or a decimal string (u64 does not fit a JS number).
fn seed(value: &JsValue) -> Result<u64, JsValue> {
    if let Some(n) = value.as_f64() {
        if n >= 0.0 && n.fract() == 0.0 && n <= u64::MAX as f64 {
            return Ok(n as u64);
        }
    } else if value.is_bigint() {
        if let Ok(n) = u64::try_from(value.clone()) {
            return Ok(n);
        }
    } else if let Some(s) = value.as_string() {
        if let Ok(n) = s.parse::<u64>() {
            return Ok(n);
        }
    }
    Err(type_error(
        "seed must be a non-negative integer (number, bigint or string)",
    ))
}

/// A whole number of milliseconds.
pub fn integer(value: &JsValue, what: &str) -> Result<i64, JsValue> {
    match value.as_f64() {
        Some(n) if n.is_finite() && n.fract() == 0.0 => Ok(n as i64),
        _ => Err(type_error(&format!("{what} must be a whole number"))),
    }
}

/// A JSON document given as a string or as a plain object.
pub fn json_value(value: &JsValue) -> Result<serde_json::Value, JsValue> {
    let text = match value.as_string() {
        Some(s) => s,
        None => js_sys::JSON::stringify(value)?
            .as_string()
            .ok_or_else(|| type_error("state must be JSON"))?,
    };
    crate::engine::parse_state(text.as_bytes())
        .map_err(|e| type_error(&format!("state is not JSON: {e}")))
}

/// A Rust JSON value as a plain JavaScript value (objects stay objects, not `Map`s).
pub fn to_js(value: &serde_json::Value) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&value.to_string())
}
