//! End-to-end tests of `pathsmooth crowd`: the summary's last line, determinism across
//! threads, bad input, the animated SVG.

use std::path::PathBuf;
use std::process::Output;

use crate::support;
use support::{assert_clean_failure, run, stdout};

/// The CLI's own example map (80 × 80, the one `demo` embeds).
fn demo_map() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("assets/demo.map")
        .to_string_lossy()
        .into_owned()
}

/// The last line's fields, checked against the exact format
/// `agents N frames F mean_ms X p99_ms Y replans_per_s Z invalid K`.
fn last_line(text: &str) -> Vec<(String, String)> {
    let line = text.trim_end().lines().last().expect("some output");
    let words: Vec<&str> = line.split(' ').collect();
    let keys = [
        "agents",
        "frames",
        "mean_ms",
        "p99_ms",
        "replans_per_s",
        "invalid",
    ];
    assert_eq!(words.len(), 12, "{line}");
    for (i, key) in keys.iter().enumerate() {
        assert_eq!(words[2 * i], *key, "{line}");
    }
    let decimals = |w: &str, n: usize| {
        let (int, frac) = w.split_once('.').unwrap_or_else(|| panic!("{w} in {line}"));
        assert!(
            int.parse::<u64>().is_ok() && frac.len() == n,
            "{w} in {line}"
        );
        assert!(frac.chars().all(|c| c.is_ascii_digit()), "{w} in {line}");
    };
    for (i, n) in [(5, 3), (7, 3), (9, 1)] {
        decimals(words[i], n);
    }
    for i in [1, 3, 11] {
        assert!(words[i].parse::<u64>().is_ok(), "{line}");
    }
    keys.iter()
        .enumerate()
        .map(|(i, k)| (k.to_string(), words[2 * i + 1].to_string()))
        .collect()
}

fn field(fields: &[(String, String)], key: &str) -> String {
    fields.iter().find(|(k, _)| k == key).unwrap().1.clone()
}

fn crowd(extra: &[&str]) -> Output {
    let map = demo_map();
    let mut args = vec![
        "crowd",
        "--map",
        &map,
        "--agents",
        "50",
        "--seconds",
        "2",
        "--doors",
        "1",
    ];
    args.extend_from_slice(extra);
    run(args)
}

#[test]
fn crowd_prints_the_summary_line_and_is_the_same_on_two_threads() {
    let one = stdout(&crowd(&[]));
    let f1 = last_line(&one);
    assert_eq!(field(&f1, "agents"), "50");
    assert_eq!(field(&f1, "frames"), "120");
    assert_eq!(field(&f1, "invalid"), "0");
    assert!(one.contains("re-plans per s"), "{one}");
    let two = stdout(&crowd(&["--threads", "2"]));
    let f2 = last_line(&two);
    assert_eq!(field(&f2, "frames"), "120");
    assert_eq!(field(&f2, "invalid"), "0");
    // The simulation is deterministic: the same re-plans on any number of threads.
    assert_eq!(field(&f1, "replans_per_s"), field(&f2, "replans_per_s"));
    // (Words only: the table pads to its widest value, a timing that varies by run.)
    let replans = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("re-plans "))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
    };
    assert_eq!(replans(&one), replans(&two));
    assert!(replans(&one).is_some(), "{one}");
}

#[test]
fn crowd_takes_the_other_options() {
    let out = crowd(&[
        "--goal-range",
        "anywhere",
        "--method",
        "shortest",
        "--seed",
        "7",
        "--radius",
        "0.4",
        "--speed",
        "2",
        "--retarget",
        "1",
        "--plan-budget",
        "1",
    ]);
    let text = stdout(&out);
    let fields = last_line(&text);
    assert_eq!(field(&fields, "invalid"), "0");
    assert!(text.contains("agent-frames waiting for a plan"), "{text}");
}

#[test]
fn crowd_bad_input_fails_cleanly() {
    let map = demo_map();
    let cases: [(&[&str], &str); 19] = [
        (&["--agents", "0"], "agents"),
        (&["--agents", "1000000000"], "agents"),
        (&["--doors", "1000000000"], "doors"),
        (&["--seconds", "-1"], "--seconds"),
        (&["--seconds", "NaN"], "--seconds"),
        (&["--seconds", "inf"], "--seconds"),
        (&["--radius", "-0.5"], "radius"),
        (&["--speed", "-1"], "speed"),
        (&["--threads", "0"], "threads"),
        (&["--goal-range", "-3"], "goal-range"),
        (&["--frames-every", "0"], "--frames-every"),
        (&["--plan-budget", "0"], "plan-budget"),
        (&["--time-horizon", "1"], "--avoid"),
        (&["--avoid", "--time-horizon", "0"], "--time-horizon"),
        (&["--avoid", "--max-neighbours", "0"], "--max-neighbours"),
        (
            &["--avoid", "--wall-time-horizon", "NaN"],
            "--wall-time-horizon",
        ),
        (
            &["--avoid", "--neighbour-distance", "-1"],
            "--neighbour-distance",
        ),
        (&["--max-accel", "1"], "--speed-profile"),
        (&["--speed-profile", "--max-brake", "0"], "--max-brake"),
    ];
    for (extra, word) in cases {
        let mut args = vec!["crowd", "--map", &map, "--agents", "5", "--seconds", "1"];
        args.extend_from_slice(extra);
        let err = assert_clean_failure(&run(&args));
        assert!(err.contains(word), "{extra:?}: {err}");
    }
    let err = assert_clean_failure(&run([
        "crowd",
        "--map",
        "/nonexistent/no.map",
        "--seconds",
        "1",
    ]));
    assert!(err.contains("no.map"), "{err}");
}

#[test]
fn crowd_threads_beyond_the_cores_are_clamped_and_said_so() {
    let out = crowd(&["--threads", "1000000"]);
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        err.contains(&format!(
            "--threads 1000000 is more than the {cores} core(s) here"
        )),
        "{err}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("{cores} thread(s)")), "{text}");
}

#[test]
fn crowd_animates_the_agents_and_doors() {
    let dir = std::env::temp_dir().join(format!("pathsmooth-crowd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("crowd.svg");
    let file = svg.to_string_lossy().into_owned();
    let fields = last_line(&stdout(&crowd(&["--animate", &file])));
    assert_eq!(field(&fields, "invalid"), "0");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    assert_eq!(text.matches(r#"<circle class="agent""#).count(), 50);
    assert_eq!(text.matches(r#"<rect class="door""#).count(), 1);
    assert!(text.contains("<animate"));
    // 2 s at 10 pictures a second: 21 samples, the loop 2 s long.
    assert!(text.contains(r#"dur="2.000s""#), "loop length");
    let values = text
        .split(r#"attributeName="cx""#)
        .nth(1)
        .and_then(|t| t.split("values=\"").nth(1))
        .and_then(|t| t.split('"').next())
        .unwrap();
    assert_eq!(values.split(';').count(), 21);
    // Balanced elements: every opened circle, rect and g is closed.
    for tag in ["circle", "g"] {
        let open =
            text.matches(&format!("<{tag} ")).count() + text.matches(&format!("<{tag}>")).count();
        let closed = text.matches(&format!("</{tag}>")).count() + self_closed(&text, tag);
        assert_eq!(open, closed, "<{tag}>");
    }
    // More agents than drawn: the first 500 only.
    let many = stdout(&run([
        "crowd",
        "--map",
        &demo_map(),
        "--agents",
        "600",
        "--seconds",
        "0.1",
        "--doors",
        "0",
        "--animate",
        &file,
    ]));
    assert_eq!(field(&last_line(&many), "agents"), "600");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches(r#"<circle class="agent""#).count(), 500);
    let _ = std::fs::remove_dir_all(&dir);
}

/// How many `<tag …/>` elements close themselves.
fn self_closed(text: &str, tag: &str) -> usize {
    text.split(&format!("<{tag}"))
        .skip(1)
        .filter(|rest| {
            let end = rest.find('>').unwrap();
            rest[..end].ends_with('/')
        })
        .count()
}

/// The contact line `overlaps K wall_hits W arrived A/N` before the last line, and the
/// same on two threads; without --avoid the agents overlap, with it they never touch one
/// another nor come within their radius of a wall.
#[test]
fn crowd_counts_contacts_and_avoid_lowers_them() {
    let contacts = |text: &str| -> (u64, u64, u64) {
        let line = text.trim_end().lines().rev().nth(1).expect("two lines");
        let w: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            (w.len(), w[0], w[2], w[4]),
            (6, "overlaps", "wall_hits", "arrived"),
            "{line}"
        );
        let (arrived, of) = w[5].split_once('/').unwrap();
        assert_eq!(of, "200", "{line}");
        (
            w[1].parse().unwrap(),
            w[3].parse().unwrap(),
            arrived.parse().unwrap(),
        )
    };
    let map = demo_map();
    let dense = |extra: &[&str]| {
        let mut args = vec!["crowd", "--map", &map, "--agents", "200", "--seconds", "3"];
        args.extend(["--doors", "1", "--goal-range", "6"]);
        args.extend(extra);
        contacts(&stdout(&run(args)))
    };
    let through = dense(&[]);
    let avoiding = dense(&["--avoid"]);
    let on_two = dense(&["--avoid", "--threads", "2"]);
    assert_eq!(avoiding, on_two);
    // The defaults spelt out walk the same agents; a shorter horizon keeps apart too.
    let spelt = [
        "--time-horizon",
        "2",
        "--max-neighbours",
        "10",
        "--wall-time-horizon",
        "1",
    ];
    assert_eq!(dense(&[&["--avoid"][..], &spelt].concat()), avoiding);
    let late = dense(&["--avoid", "--time-horizon", "0.5", "--max-neighbours", "4"]);
    assert_eq!((late.0, late.1), (0, 0), "{late:?}");
    assert!(through.0 > 0, "{through:?}");
    assert_eq!((avoiding.0, avoiding.1), (0, 0), "{avoiding:?}");
    assert!(avoiding.2 > 0, "{avoiding:?}");
    println!("without {through:?}, with --avoid {avoiding:?}");
}

/// `--trace FILE`: every agent at the start and after every frame, `frame,agent,x,y` in
/// cells; the overlaps counted from it here (pairs closer than 0.99 × 2 × radius, frames
/// 1 on) are the contact line's.
#[test]
fn crowd_trace_holds_every_agent_every_frame_and_the_overlaps_follow_from_it() {
    let dir = support::tmp_dir("crowd", "trace");
    let file = dir.join("trace.csv");
    let file_arg = file.to_str().unwrap().to_string();
    let map = demo_map();
    let args = [
        "crowd",
        "--map",
        &map,
        "--agents",
        "200",
        "--seconds",
        "1",
        "--doors",
        "1",
    ];
    let out = stdout(&run([
        &args[..],
        &["--goal-range", "6", "--trace", &file_arg],
    ]
    .concat()));
    let line = out.trim_end().lines().rev().nth(1).unwrap().to_string();
    let overlaps: usize = line.split(' ').nth(1).unwrap().parse().unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("frame,agent,x,y"));
    let mut frames: Vec<Vec<(f64, f64)>> = vec![Vec::new(); 61];
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        let (frame, agent): (usize, usize) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        assert_eq!(agent, frames[frame].len(), "{l}");
        frames[frame].push((f[2].parse().unwrap(), f[3].parse().unwrap()));
    }
    assert!(frames.iter().all(|f| f.len() == 200));
    let near = 0.99 * 2.0 * 0.3; // the default radius
    let counted: usize = frames[1..]
        .iter()
        .map(|at| {
            let mut n = 0;
            for i in 0..at.len() {
                for j in i + 1..at.len() {
                    let (dx, dy) = (at[i].0 - at[j].0, at[i].1 - at[j].1);
                    n += usize::from((dx * dx + dy * dy).sqrt() < near);
                }
            }
            n
        })
        .sum();
    assert_eq!(counted, overlaps, "{line}");
    assert!(overlaps > 0, "{line}");
    let refused = support::assert_clean_failure(&run([&args[..], &["--trace", "-"]].concat()));
    assert!(refused.contains("--trace -"), "{refused}");
}

/// `--speed-profile`: every agent's first step, read from `--trace`, is one from rest at
/// the acceleration given (a·dt over dt, in cells), where without it each steps its full
/// speed at once; no step is ever longer than the speed's.
#[test]
fn crowd_speed_profile_starts_the_agents_from_rest() {
    let dir = support::tmp_dir("crowd", "speed-profile");
    let map = demo_map();
    let first_steps = |extra: &[&str], name: &str| -> (Vec<f64>, f64) {
        let file = dir.join(name);
        let file_arg = file.to_str().unwrap().to_string();
        let mut args = vec!["crowd", "--map", &map, "--agents", "20", "--seconds", "1"];
        args.extend(["--doors", "1", "--trace", &file_arg]);
        args.extend(extra);
        stdout(&run(args));
        let text = std::fs::read_to_string(&file).unwrap();
        let mut at: Vec<Vec<(f64, f64)>> = vec![Vec::new(); 61];
        for l in text.lines().skip(1) {
            let f: Vec<&str> = l.split(',').collect();
            let frame: usize = f[0].parse().unwrap();
            at[frame].push((f[2].parse().unwrap(), f[3].parse().unwrap()));
        }
        let step = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
        let first = at[0]
            .iter()
            .zip(&at[1])
            .map(|(&a, &b)| step(a, b))
            .collect();
        let longest = at
            .windows(2)
            .flat_map(|w| w[0].iter().zip(&w[1]).map(|(&a, &b)| step(a, b)))
            .fold(0.0, f64::max);
        (first, longest)
    };
    let dt = 1.0 / 60.0;
    let (limited, longest) = first_steps(&["--speed-profile", "--max-accel", "2"], "on.csv");
    assert!(
        limited.iter().all(|&d| d <= 2.0 * dt * dt + 1e-12),
        "{limited:?}"
    );
    assert!(limited.iter().any(|&d| d > 0.0), "{limited:?}");
    assert!(longest <= 1.5 * dt + 1e-9, "{longest}");
    let (free, _) = first_steps(&[], "off.csv");
    assert!(
        free.iter()
            .filter(|&&d| (d - 1.5 * dt).abs() < 1e-9)
            .count()
            > 10,
        "{free:?}"
    );
}
