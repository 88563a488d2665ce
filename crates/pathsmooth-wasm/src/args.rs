//! JavaScript arguments checked before the library sees them: whole numbers that
//! wasm-bindgen would otherwise wrap (`-1` as an index becomes 4294967295), flat coordinate
//! arrays of the right length, step lists. Each check's message names the argument.

use glam::DVec2;
use pathsmooth::{Preset, Step};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::arg_error;

/// A count or an index given as a JavaScript number: a whole number in 0..=`max`.
pub(crate) fn whole(what: &'static str, name: &str, v: f64, max: usize) -> Result<usize, JsError> {
    if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= max as f64 {
        Ok(v as usize)
    } else {
        Err(arg_error(
            what,
            format!("{name} = {v}: expected a whole number from 0 to {max}"),
        ))
    }
}

/// `[x0, y0, x1, y1, …]` as points; an odd length is an error (NaN is the library's to
/// refuse, with its own message).
pub(crate) fn points2(what: &'static str, name: &str, flat: &[f64]) -> Result<Vec<DVec2>, JsError> {
    if !flat.len().is_multiple_of(2) {
        return Err(arg_error(
            what,
            format!(
                "{name}: expected x, y pairs ([x0, y0, x1, y1, …]), got {} numbers",
                flat.len()
            ),
        ));
    }
    Ok(flat
        .chunks_exact(2)
        .map(|c| DVec2::new(c[0], c[1]))
        .collect())
}

/// Points as one flat array `[x0, y0, x1, y1, …]` (a `Float64Array` in JavaScript).
pub(crate) fn flat2(points: &[DVec2]) -> Vec<f64> {
    points.iter().flat_map(|p| [p.x, p.y]).collect()
}

/// Polygons given as a flat index array and each polygon's vertex count (as Recast lists
/// them): the counts must add up to the indices' length.
pub(crate) fn polygons(
    what: &'static str,
    indices: &[u32],
    counts: &[u32],
) -> Result<Vec<Vec<u32>>, JsError> {
    let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    if total != indices.len() as u64 {
        return Err(arg_error(
            what,
            format!(
                "the polygon counts add up to {total} vertex indices, and {} were given",
                indices.len()
            ),
        ));
    }
    let mut rest = indices;
    Ok(counts
        .iter()
        .map(|&c| {
            let (polygon, tail) = rest.split_at(c as usize);
            rest = tail;
            polygon.to_vec()
        })
        .collect())
}

/// A pipeline's steps as JavaScript gives them: a preset's name (`"smooth"`), or an array
/// whose items are step names (`"shortcut"`) or `[name, value]` pairs (`["fillet", 1.5]`);
/// `undefined` is the Smooth preset. Each step is checked now ([`Step::validate`]), so that
/// a bad one is refused when the pipeline is made, not at its first plan.
pub(crate) fn steps(what: &'static str, spec: &JsValue) -> Result<Vec<Step>, JsError> {
    if spec.is_undefined() || spec.is_null() {
        return Ok(Preset::Smooth.steps());
    }
    if let Some(name) = spec.as_string() {
        return Preset::named(&name)
            .map(Preset::steps)
            .map_err(|e| arg_error(what, e));
    }
    if !js_sys::Array::is_array(spec) {
        return Err(arg_error(
            what,
            "steps: expected a preset's name or an array of steps (names or [name, value] pairs)",
        ));
    }
    let mut out = Vec::new();
    for (i, item) in js_sys::Array::from(spec).iter().enumerate() {
        let (name, value) = if let Some(name) = item.as_string() {
            (name, None)
        } else if let Some(pair) = item
            .dyn_ref::<js_sys::Array>()
            .filter(|pair| pair.length() == 2)
        {
            match (pair.get(0).as_string(), pair.get(1).as_f64()) {
                (Some(name), Some(v)) => (name, Some(v)),
                _ => {
                    return Err(arg_error(
                        what,
                        format!("step {i}: expected [name, number]"),
                    ))
                }
            }
        } else {
            return Err(arg_error(
                what,
                format!("step {i}: each step is a name or a [name, number] pair"),
            ));
        };
        let step =
            Step::named(&name, value).map_err(|e| arg_error(what, format!("step {i}: {e}")))?;
        step.validate()
            .map_err(|e| arg_error(what, format!("step {i}: {e}")))?;
        out.push(step);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_points_round_trip() {
        let p = [DVec2::new(1.0, 2.0), DVec2::new(-3.5, 4.0)];
        assert_eq!(flat2(&p), vec![1.0, 2.0, -3.5, 4.0]);
    }

    #[test]
    fn polygons_split_by_their_counts() {
        let lists = polygons("t", &[0, 1, 2, 2, 1, 3, 4], &[3, 4]).ok().unwrap();
        assert_eq!(lists, vec![vec![0, 1, 2], vec![2, 1, 3, 4]]);
    }
}
