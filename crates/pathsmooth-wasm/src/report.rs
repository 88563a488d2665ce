//! The library's reports as plain JavaScript objects (camelCase fields, arrays of
//! numbers), built field by field: what `pipeline.report()` and `crowd.update(dt)` return.

use js_sys::{Array, Object, Reflect};
use pathsmooth::crowd::CrowdFrame;
use pathsmooth::{PipelineReport, ValidationReport};
use wasm_bindgen::prelude::*;

/// The TypeScript shapes of the objects built here.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** How a path measured against the world, for the pipeline's radius. */
export interface Validation {
  valid: boolean;
  radius: number;
  length: number;
  minClearance: number;
  maxTurn: number;
  totalTurn: number;
  blockedSegments: number[];
  blockedBends: number[];
  clearanceViolations: number[];
  firstProblemAt: [number, number] | null;
}

/** What a pipeline's last plan or smooth did. */
export interface PipelineReport {
  /** Steps skipped, with the reason: [step, reason]. */
  skipped: [string, string][];
  repairedSegments: number;
  minClearance: number;
  validation: Validation;
  corners: { index: number; at: [number, number]; turn: number; radius: number; limit: string }[];
  inputCost: number;
  cost: number;
  planLength: number;
  /** Ends moved onto the world: [end, distance]. */
  snapped: [string, number][];
}

/** What a crowd's update did, summed over its agents. */
export interface CrowdFrame {
  moved: number;
  replans: number;
  adjusted: number;
  refused: number;
  failed: number;
  repaired: number;
  stuck: number;
  waiting: number;
}
"#;

/// `obj[key] = value` on a plain object just made (which cannot refuse it).
fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value.into());
}

fn indices(list: &[usize]) -> Array {
    list.iter().map(|&i| JsValue::from(i as f64)).collect()
}

fn validation(v: &ValidationReport) -> Object {
    let o = Object::new();
    set(&o, "valid", v.is_valid());
    set(&o, "radius", v.radius);
    set(&o, "length", v.length);
    set(&o, "minClearance", v.min_clearance);
    set(&o, "maxTurn", v.max_turn);
    set(&o, "totalTurn", v.total_turn);
    set(&o, "blockedSegments", indices(&v.blocked_segments));
    set(&o, "blockedBends", indices(&v.blocked_bends));
    set(&o, "clearanceViolations", indices(&v.clearance_violations));
    let first = match v.first_problem_at {
        Some(p) => Array::of2(&p.x.into(), &p.y.into()).into(),
        None => JsValue::NULL,
    };
    set(&o, "firstProblemAt", first);
    o
}

/// What the last plan or smooth did: steps skipped and why, repaired input segments, the
/// validation of the result, fillet corners, costs, the ends snapped onto the world.
pub(crate) fn pipeline(r: &PipelineReport) -> Object {
    let o = Object::new();
    let skipped: Array = r
        .skipped
        .iter()
        .map(|(step, why)| JsValue::from(Array::of2(&(*step).into(), &why.as_ref().into())))
        .collect();
    set(&o, "skipped", skipped);
    set(&o, "repairedSegments", r.repaired_segments as f64);
    set(&o, "minClearance", r.validation.min_clearance);
    set(&o, "validation", validation(&r.validation));
    let corners: Array = r
        .corners
        .iter()
        .map(|c| {
            let co = Object::new();
            set(&co, "index", c.index as f64);
            set(&co, "at", Array::of2(&c.at.x.into(), &c.at.y.into()));
            set(&co, "turn", c.turn);
            set(&co, "radius", c.radius);
            set(&co, "limit", format!("{:?}", c.limit));
            JsValue::from(co)
        })
        .collect();
    set(&o, "corners", corners);
    set(&o, "inputCost", r.input_cost);
    set(&o, "cost", r.cost);
    set(&o, "planLength", r.plan_length);
    let snapped: Array = r
        .snapped
        .iter()
        .map(|(end, d)| JsValue::from(Array::of2(&(*end).into(), &(*d).into())))
        .collect();
    set(&o, "snapped", snapped);
    o
}

/// What a crowd's update did, summed over its agents.
pub(crate) fn frame(f: &CrowdFrame) -> Object {
    let o = Object::new();
    for (key, n) in [
        ("moved", f.moved),
        ("replans", f.replans),
        ("adjusted", f.adjusted),
        ("refused", f.refused),
        ("failed", f.failed),
        ("repaired", f.repaired),
        ("stuck", f.stuck),
        ("waiting", f.waiting),
    ] {
        set(&o, key, n as f64);
    }
    o
}
