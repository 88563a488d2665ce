//! Path files: JSON and CSV, 2D or 3D.
//!
//! - JSON: `{"points": [[x, y], …]}` or a bare array `[[x, y], …]`; 3D points have three
//!   coordinates. Written as the object form.
//! - CSV: one point per line, `x,y` or `x,y,z`, with an optional header line: the first
//!   non-blank line is a header when every field is a name (an identifier such as `x`,
//!   `pos_y` or `Z1`, not a number). Any other line that does not parse, the first one
//!   included, is an error with its line and column. Blank lines are ignored.
//!
//! A file's points must all have the same dimension ([`Error::MixedDimensions`]); every
//! coordinate must be finite ([`Error::NonFinite`] names the point). Syntax errors are
//! [`Error::Parse`] with the line and column.
//!
//! Writing: [`write_path_to`] streams a path to any [`std::io::Write`] (a file, stdout, a
//! `Vec<u8>`) point by point, with no intermediate tree or string, so writing needs no
//! memory beyond the caller's buffer; [`write_path`] is the `String` form. Coordinates are
//! written in the shortest form that reads back to the same `f64` (`0.1`, `2.5`,
//! `1e-300`), so a path survives a write and a read bit for bit.
//!
//! ```
//! use pathsmooth::io::{parse_path, write_path, Format, PathData};
//! let data = parse_path("x,y\n0,0\n1,2.5\n", Format::Csv, "p.csv")?;
//! let PathData::D2(points) = &data else { unreachable!() };
//! assert_eq!(points[1], glam::DVec2::new(1.0, 2.5));
//! assert_eq!(write_path(points, Format::Json), "{\"points\":[[0.0,0.0],[1.0,2.5]]}\n");
//! # Ok::<(), pathsmooth::Error>(())
//! ```

use std::io::Write;

use glam::{DVec2, DVec3};
use serde::Deserialize;

use crate::error::{excerpt, Error, Result};
use crate::geometry::Point;

/// A path file's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `{"points": [[x, y], …]}` (a bare array is accepted on input).
    Json,
    /// `x,y[,z]` lines with an optional header.
    Csv,
}

impl Format {
    /// The format a file name implies: `.csv` is CSV, `.json` is JSON, anything else `None`.
    ///
    /// ```
    /// use pathsmooth::io::Format;
    /// assert_eq!(Format::from_extension("a/b.CSV"), Some(Format::Csv));
    /// assert_eq!(Format::from_extension("-"), None);
    /// ```
    pub fn from_extension(name: &str) -> Option<Format> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            _ => None,
        }
    }

    /// Guesses the format from the text: JSON starts with `{` or `[`, anything else is CSV.
    pub fn sniff(text: &str) -> Format {
        match text.trim_start().chars().next() {
            Some('{' | '[') => Format::Json,
            _ => Format::Csv,
        }
    }
}

/// The points of a path file, in the dimension the file has.
#[derive(Debug, Clone, PartialEq)]
pub enum PathData {
    /// Every point had two coordinates.
    D2(Vec<DVec2>),
    /// Every point had three coordinates.
    D3(Vec<DVec3>),
}

impl PathData {
    /// Number of points.
    pub fn len(&self) -> usize {
        match self {
            PathData::D2(p) => p.len(),
            PathData::D3(p) => p.len(),
        }
    }

    /// True when the file held no points.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The points as 2D (z dropped from 3D files).
    pub fn to_2d(&self) -> Vec<DVec2> {
        match self {
            PathData::D2(p) => p.clone(),
            PathData::D3(p) => p.iter().map(|v| v.truncate()).collect(),
        }
    }
}

/// Parses a path file's text; `file` names it in errors.
pub fn parse_path(text: &str, format: Format, file: &str) -> Result<PathData> {
    let rows = match format {
        Format::Json => parse_json_rows(text, file)?,
        Format::Csv => parse_csv_rows(text, file)?,
    };
    rows_to_points(&rows, file)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PointsObject {
    points: Vec<Vec<f64>>,
}

fn parse_json_rows(text: &str, file: &str) -> Result<Vec<(usize, Vec<f64>)>> {
    let to_err = |e: serde_json::Error| Error::parse(file, e.line(), e.column(), e);
    let rows: Vec<Vec<f64>> = if text.trim_start().starts_with('[') {
        serde_json::from_str(text).map_err(to_err)?
    } else {
        serde_json::from_str::<PointsObject>(text)
            .map_err(to_err)?
            .points
    };
    // JSON has no line per point: number points from 1 so errors can name them.
    Ok(rows
        .into_iter()
        .enumerate()
        .map(|(i, r)| (i + 1, r))
        .collect())
}

fn parse_csv_rows(text: &str, file: &str) -> Result<Vec<(usize, Vec<f64>)>> {
    let mut rows = Vec::new();
    let mut seen_data_or_header = false;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let first_line = !seen_data_or_header;
        seen_data_or_header = true;
        let mut coords = Vec::with_capacity(3);
        let mut column = 1;
        let mut bad = None;
        for field in raw.split(',') {
            match field.trim().parse::<f64>() {
                Ok(v) => coords.push(v),
                Err(_) => {
                    bad = Some((column, field.trim()));
                    break;
                }
            }
            column += field.len() + 1;
        }
        match bad {
            None => rows.push((line_no, coords)),
            // A first line of names is a header; a malformed first row is not.
            Some(_) if first_line && is_header(raw) => {}
            Some((column, field)) => {
                return Err(Error::parse(
                    file,
                    line_no,
                    column,
                    format_args!("expected a number, found `{}`", excerpt(field)),
                ))
            }
        }
    }
    Ok(rows)
}

/// True when every field of `line` is an identifier (a letter or `_`, then letters, digits
/// and `_`) that does not parse as a number (`nan`, `inf` do).
fn is_header(line: &str) -> bool {
    line.split(',').all(|field| {
        let f = field.trim();
        let mut chars = f.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
            && f.parse::<f64>().is_err()
    })
}

fn rows_to_points(rows: &[(usize, Vec<f64>)], file: &str) -> Result<PathData> {
    let dim = rows.first().map_or(2, |(_, r)| r.len());
    for (index, (line, r)) in rows.iter().enumerate() {
        if r.len() != 2 && r.len() != 3 {
            return Err(Error::parse(
                file,
                *line,
                0,
                format_args!("point {index} has {} coordinates; expected 2 or 3", r.len()),
            ));
        }
        if r.len() != dim {
            return Err(Error::MixedDimensions {
                line: *line,
                got: r.len(),
                expected: dim,
            });
        }
        if r.iter().any(|v| !v.is_finite()) {
            return Err(Error::NonFinite { index });
        }
    }
    Ok(if dim == 3 {
        PathData::D3(
            rows.iter()
                .filter_map(|(_, r)| DVec3::from_coords(r))
                .collect(),
        )
    } else {
        PathData::D2(
            rows.iter()
                .filter_map(|(_, r)| DVec2::from_coords(r))
                .collect(),
        )
    })
}

/// Writes a path in `format` to a `String`: JSON as `{"points": [[x, y], …]}` on one
/// line, CSV with a header; see [`write_path_to`] for the number format. A non-finite
/// coordinate, which no file format can hold, is written as in Rust (`NaN`, `inf`);
/// [`write_path_to`] refuses it instead.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::io::{write_path, Format};
/// let p = [DVec2::new(0.1, 1e-300), DVec2::new(-3.0, 7.25)];
/// assert_eq!(write_path(&p, Format::Csv), "x,y\n0.1,1e-300\n-3,7.25\n");
/// ```
pub fn write_path<P: Point>(points: &[P], format: Format) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail, and the only other error is a non-finite point.
    let _ = write_points(points, format, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Streams a path in `format` to `out`: JSON as `{"points": [[x, y], …]}` on one line,
/// CSV with an `x,y[,z]` header, one point at a time (no value tree, no string of the
/// whole file; wrap a file in a [`std::io::BufWriter`]). Numbers are written in the
/// shortest form that reads back to the same `f64`: JSON always with a `.` or an
/// exponent (`1.0`, `2.5`, `1e-300`), CSV plainly where that is short (`1`, `2.5`) and
/// with an exponent for magnitudes below 10⁻⁴ or from 10¹⁶ (`1e-300`, `1e20`).
///
/// Errors: [`Error::NonFinite`] for a NaN or infinite coordinate (checked before anything
/// is written), [`Error::Io`] naming `file` when `out` fails.
///
/// Cost: O(n) time, O(1) memory.
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::io::{parse_path, write_path_to, Format, PathData};
/// let p = vec![DVec3::new(0.0, 1.0, 2e-305), DVec3::new(1e20, -0.5, 3.0)];
/// let mut bytes = Vec::new();
/// write_path_to(&p, Format::Json, &mut bytes, "p.json")?;
/// let text = String::from_utf8(bytes).unwrap();
/// assert_eq!(text, "{\"points\":[[0.0,1.0,2e-305],[1e20,-0.5,3.0]]}\n");
/// assert_eq!(parse_path(&text, Format::Json, "p.json")?, PathData::D3(p));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn write_path_to<P: Point, W: Write>(
    points: &[P],
    format: Format,
    mut out: W,
    file: &str,
) -> Result<()> {
    if let Some(index) = points.iter().position(|p| !p.is_finite()) {
        return Err(Error::NonFinite { index });
    }
    write_points(points, format, &mut out)
        .and_then(|()| out.flush())
        .map_err(|e| Error::Io {
            path: file.to_string(),
            message: e.to_string(),
        })
}

fn write_points<P: Point>(
    points: &[P],
    format: Format,
    out: &mut impl Write,
) -> std::io::Result<()> {
    match format {
        Format::Json => {
            out.write_all(b"{\"points\":[")?;
            for (k, p) in points.iter().enumerate() {
                out.write_all(if k == 0 { b"[" } else { b",[" })?;
                for i in 0..P::DIM {
                    if i > 0 {
                        out.write_all(b",")?;
                    }
                    // Debug is Rust's shortest round-trip form, with `.0` or an exponent.
                    write!(out, "{:?}", p.coord(i))?;
                }
                out.write_all(b"]")?;
            }
            out.write_all(b"]}\n")
        }
        Format::Csv => {
            out.write_all(if P::DIM == 3 { b"x,y,z\n" } else { b"x,y\n" })?;
            for p in points {
                for i in 0..P::DIM {
                    if i > 0 {
                        out.write_all(b",")?;
                    }
                    let v = p.coord(i);
                    // Display and Debug print the same shortest digits; Display never
                    // uses an exponent (1e-300 would take 302 characters), Debug switches
                    // to one exactly outside [1e-4, 1e16).
                    let a = v.abs();
                    if a != 0.0 && !(1e-4..1e16).contains(&a) {
                        write!(out, "{v:?}")?;
                    } else {
                        write!(out, "{v}")?;
                    }
                }
                out.write_all(b"\n")?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_forms_and_dimensions() {
        let a = parse_path("{\"points\": [[1, 2], [3, 4]]}", Format::Json, "f").unwrap();
        let b = parse_path("[[1, 2], [3, 4]]", Format::Json, "f").unwrap();
        assert_eq!(a, b);
        let c = parse_path("[[1, 2, 3]]", Format::Json, "f").unwrap();
        assert_eq!(c, PathData::D3(vec![DVec3::new(1.0, 2.0, 3.0)]));
        assert_eq!(
            parse_path("[[1, 2], [1, 2, 3]]", Format::Json, "f"),
            Err(Error::MixedDimensions {
                line: 2,
                got: 3,
                expected: 2
            })
        );
    }

    #[test]
    fn json_syntax_error_has_line_and_column() {
        match parse_path("{\"points\": [[1, 2],\n [3, x]]}", Format::Json, "p.json") {
            Err(Error::Parse {
                file, line, column, ..
            }) => {
                assert_eq!((file.as_str(), line), ("p.json", 2));
                assert!(column > 0);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn csv_header_errors_and_round_trip() {
        let p = parse_path("x,y,z\n1,2,3\n\n4, 5 ,6\n", Format::Csv, "f").unwrap();
        let PathData::D3(v) = &p else { panic!() };
        assert_eq!(v.len(), 2);
        let text = write_path(v, Format::Csv);
        assert_eq!(parse_path(&text, Format::Csv, "f").unwrap(), p);
        assert_eq!(
            parse_path("1,2\n3,oops\n", Format::Csv, "c.csv"),
            Err(Error::Parse {
                file: "c.csv".into(),
                line: 2,
                column: 3,
                message: "expected a number, found `oops`".into()
            })
        );
        assert_eq!(
            parse_path("1,2\n3,4,5\n", Format::Csv, "f"),
            Err(Error::MixedDimensions {
                line: 2,
                got: 3,
                expected: 2
            })
        );
        assert_eq!(
            parse_path("1,2\nNaN,4\n", Format::Csv, "f"),
            Err(Error::NonFinite { index: 1 })
        );
    }

    #[test]
    fn malformed_first_row_is_an_error_not_a_header() {
        // `0,0x` used to be taken as a header, silently dropping point 0.
        assert_eq!(
            parse_path("0,0x\n1,1\n2,2\n", Format::Csv, "h.csv"),
            Err(Error::Parse {
                file: "h.csv".into(),
                line: 1,
                column: 3,
                message: "expected a number, found `0x`".into()
            })
        );
        assert_eq!(
            parse_path("\n1,,2\n", Format::Csv, "f"),
            Err(Error::Parse {
                file: "f".into(),
                line: 2,
                column: 3,
                message: "expected a number, found ``".into()
            })
        );
        for bad in ["x,1", "x,", "x y,z", "1e,y", "#x,y", "x-y,z"] {
            let text = format!("{bad}\n1,2\n");
            assert!(
                matches!(
                    parse_path(&text, Format::Csv, "f"),
                    Err(Error::Parse { line: 1, .. })
                ),
                "{bad}"
            );
        }
        // Headers: names only, in any case, with optional spaces.
        for header in ["x,y", "X, Y", "pos_x,pos_y", "_a,b2"] {
            let text = format!("{header}\n1,2\n");
            let got = parse_path(&text, Format::Csv, "f").unwrap();
            assert_eq!(got, PathData::D2(vec![DVec2::new(1.0, 2.0)]), "{header}");
        }
        // `nan` and `inf` are numbers, not names.
        assert_eq!(
            parse_path("nan,inf\n1,2\n", Format::Csv, "f"),
            Err(Error::NonFinite { index: 0 })
        );
    }

    #[test]
    fn json_round_trip_is_exact() {
        let v = vec![DVec2::new(0.1, 1e-300), DVec2::new(-3.25, 7.0)];
        let text = write_path(&v, Format::Json);
        assert_eq!(
            parse_path(&text, Format::Json, "f").unwrap(),
            PathData::D2(v)
        );
    }

    /// Deterministic awkward numbers: every exponent, random mantissas, signs, the
    /// extremes and the format's switch points.
    fn awkward() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            1.0,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e-4,
            9.999999999999999e-5,
            1e16,
            9999999999999998.0,
            0.1,
            2e-305,
            123456789.125,
        ];
        let mut seed = 0x9e3779b97f4a7c15u64;
        for _ in 0..4000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = f64::from_bits(seed);
            if x.is_finite() {
                v.push(x);
            }
        }
        v
    }

    #[test]
    fn streamed_paths_are_valid_and_round_trip_exactly() {
        let nums = awkward();
        let d2: Vec<DVec2> = nums.chunks(2).filter_map(DVec2::from_coords).collect();
        let d3: Vec<DVec3> = nums.chunks(3).filter_map(DVec3::from_coords).collect();
        for format in [Format::Json, Format::Csv] {
            let mut bytes = Vec::new();
            write_path_to(&d2, format, &mut bytes, "f").unwrap();
            let text = String::from_utf8(bytes).unwrap();
            assert_eq!(text, write_path(&d2, format));
            let back = parse_path(&text, format, "f").unwrap();
            assert_eq!(back, PathData::D2(d2.clone()), "{format:?}");
            let text = write_path(&d3, format);
            assert_eq!(
                parse_path(&text, format, "f").unwrap(),
                PathData::D3(d3.clone())
            );
            // Never the 300-digit plain form of a tiny or huge number.
            assert!(text.split([',', '\n']).all(|t| t.len() < 40), "{format:?}");
        }
        // JSON is a valid document with the same numbers serde_json reads.
        let text = write_path(&d2, Format::Json);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let rows = value["points"].as_array().unwrap();
        assert_eq!(rows.len(), d2.len());
        for (row, p) in rows.iter().zip(&d2) {
            assert_eq!(row[0].as_f64(), Some(p.x));
            assert_eq!(row[1].as_f64(), Some(p.y));
        }
        // Empty paths are valid files too.
        assert_eq!(write_path::<DVec2>(&[], Format::Json), "{\"points\":[]}\n");
        assert_eq!(write_path::<DVec3>(&[], Format::Csv), "x,y,z\n");
    }

    #[test]
    fn streaming_errors_name_the_point_or_the_file() {
        let nan = [DVec2::ZERO, DVec2::new(1.0, f64::INFINITY)];
        let mut bytes = Vec::new();
        assert_eq!(
            write_path_to(&nan, Format::Csv, &mut bytes, "f"),
            Err(Error::NonFinite { index: 1 })
        );
        assert!(bytes.is_empty(), "nothing is written before the check");
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        assert_eq!(
            write_path_to(&[DVec2::ZERO], Format::Json, Full, "out.json"),
            Err(Error::Io {
                path: "out.json".into(),
                message: "disk full".into()
            })
        );
    }
}
