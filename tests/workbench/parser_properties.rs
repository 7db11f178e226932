//! Property tests over every parser: random and mutated inputs never panic, never make a large
//! allocation, and either parse or give an error that names where the input came from.
//!
//! Every new puzzle kind and model format joins `PARSERS` (its instances in `puzzles/`,
//! subfolders included, seed the mutations, with one seed per published form); dimod's binary
//! `.bqm` is mutated byte by byte on its own. The `cargo fuzz` targets in `fuzz/` run the same entry points for
//! longer; a crash they find becomes a case in `tests/bad-inputs/`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use qubo_workbench::gui::settings::Settings;
use qubo_workbench::puzzle::{Kind, parse_puzzles};
use qubo_workbench::qubo::formats::{Format, parse_model};

/// Records the largest single allocation, so a test can assert that no input (a header
/// declaring 10⁹ variables, say) made the parser reserve memory its size does not justify.
struct Recording;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Recording {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Recording = Recording;

/// No single allocation for an input of a few KiB may exceed this. The format's own limits
/// (isolated variables per file, `MAX_VARIABLES`) allow up to ~10⁶ variables from a short
/// header, 8 MiB per f64 vector; this leaves room for that and catches 10⁸-sized ones.
const ALLOCATION_LIMIT: usize = 64 << 20;

/// Where a parser's errors must say they come from.
const ORIGIN: &str = "input.txt";

/// One parser: its name and a function that parses text, returning the error text on failure.
type Parser = (&'static str, fn(&str) -> Result<(), String>);

fn model(format: Format) -> impl Fn(&str) -> Result<(), String> {
    move |text| {
        parse_model(text, format, ORIGIN)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

fn puzzles(kind: Option<Kind>, text: &str) -> Result<(), String> {
    let parsed = parse_puzzles(text, kind, ORIGIN).map_err(|e| e.to_string())?;
    // What parses must also draw, encode and describe without panicking.
    for located in parsed.iter().take(3) {
        let p = &located.puzzle;
        let _ = p.describe();
        let _ = p.draw(None);
        let _ = p.to_text();
        let _ = p.conflicts();
    }
    Ok(())
}

const PARSERS: &[Parser] = &[
    ("qbsolv", |t| model(Format::Qbsolv)(t)),
    ("coo", |t| model(Format::Coo)(t)),
    ("dimod json", |t| model(Format::DimodJson)(t)),
    ("dimod binary bqm", |t| model(Format::DimodBqm)(t)),
    ("puzzle file, any kind", |t| puzzles(None, t)),
    ("sudoku", |t| puzzles(Some(Kind::Sudoku), t)),
    ("edge-matching", |t| puzzles(Some(Kind::EdgeMatching), t)),
    ("minesweeper", |t| puzzles(Some(Kind::Minesweeper), t)),
    ("numberlink", |t| puzzles(Some(Kind::Numberlink), t)),
    ("constrained (LP, QPLIB)", |t| {
        puzzles(Some(Kind::Constrained), t)
    }),
    ("sample set json", |t| samples(t, false)),
    ("sample set csv", |t| samples(t, true)),
];

/// `compare`'s reading of saved sample sets; what reads must also overlay.
fn samples(text: &str, csv: bool) -> Result<(), String> {
    let (run, _) =
        qubo_workbench::compare::RunSummary::parse(text, ORIGIN, csv).map_err(|e| e.to_string())?;
    let _ = qubo_workbench::compare::overlay(&[&run], Default::default(), Default::default(), "");
    Ok(())
}

/// Runs one parser on one input under the invariants.
fn check(name: &str, parse: fn(&str) -> Result<(), String>, text: &str) {
    LARGEST.store(0, Ordering::Relaxed);
    let result = parse(text);
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(
        largest <= ALLOCATION_LIMIT.max(text.len() * 64),
        "{name}: an allocation of {largest} bytes for an input of {} bytes: {text:?}",
        text.len()
    );
    if let Err(message) = result {
        assert!(
            message.starts_with(ORIGIN),
            "{name}: the error does not say where: {message:?} for {text:?}"
        );
        assert!(!message.contains('\n'), "{name}: one line: {message:?}");
    }
}

/// Valid inputs to mutate: one per model format, and every registered kind's small instances.
fn seeds() -> Vec<String> {
    let mut out = vec![
        "c a model\nc offset 1.5\nc label 0 = \"a\"\np qubo 0 3 2 2\n0 0 -1\n1 1 2\n0 1 3\n1 2 -4\n"
            .to_string(),
        "# vartype=BINARY\n# n=3 offset=2\n0 0 -1\n0 1 2.5\n1 2 -3\n".to_string(),
        "energy,num_occurrences,\"x[0]\",x1\n-1,3,1,0\n2.5,1,0,1\n".to_string(),
        r#"{"type":"SampleSet","version":{"sampleset_schema":"3.2.0"},"num_variables":3,"num_rows":2,"sample_data":{"type":"array","data":[[5],[2]],"data_type":"uint32","shape":[2,1],"use_bytes":false},"sample_type":"int8","sample_packed":true,"vectors":{"energy":{"type":"array","data":[-1,0.5],"data_type":"float64","shape":[2],"use_bytes":false},"num_occurrences":{"type":"array","data":[3,1],"data_type":"int64","shape":[2],"use_bytes":false},"valid":{"type":"array","data":[true,false],"data_type":"bool","shape":[2],"use_bytes":false}},"variable_labels":["a","b","c"],"variable_type":"BINARY","info":{"sampler":"sa","sample_s":0.01,"ground_energy":-1}}"#.to_string(),
        r#"{"type":"BinaryQuadraticModel","version":{"bqm_schema":"3.0.0"},"use_bytes":false,"index_type":"int32","bias_type":"float64","num_variables":2,"num_interactions":1,"variable_labels":["a",["t",1]],"variable_type":"SPIN","offset":0.5,"info":{},"linear_biases":[1.0,-1.0],"quadratic_biases":[2.0],"quadratic_head":[0],"quadratic_tail":[1]}"#.to_string(),
    ];
    // The published forms the readers take, each at least once: ADC 2025 hex Minesweeper,
    // Le Bail's ID T R B L pieces, an ADC Numberlink with its line list.
    out.push("01 01 01\n01 0F 01\n01 01 01".to_string());
    out.push("size 2 2\n1 0 1 2 0\n2 0 0 2 1\n3 2 1 0 0\n4 2 0 0 1\nfixed 1 1 1 0".to_string());
    out.push("SIZE 3X3X1\nLINE_NUM 2\nLINE#1 (0,0,1) (2,0,1)\nLINE#2 (0,2,1) (2,2,1)".to_string());
    // A QPLIB file whole: its sections depend on each other's counts, so mutations need them all.
    let toy = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cqm/toy.qplib");
    out.push(std::fs::read_to_string(toy).expect("the QPLIB fixture"));
    // Every registered kind's shipped instances, subfolders included (ADC, official sets).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut dirs: Vec<std::path::PathBuf> = Kind::ALL.iter().map(|k| root.join(k.name())).collect();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "txt" || e == "json" || e == "lp")
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                // A few lines are enough to seed mutations.
                out.push(text.lines().take(4).collect::<Vec<_>>().join("\n"));
            }
        }
    }
    out
}

/// One edit of a text: delete, insert or replace a span, duplicate a line, or splice in a
/// token that parsers find interesting.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, String),
    Replace(usize, String),
    DuplicateLine(usize),
    Token(usize, usize),
}

const TOKENS: &[&str] = &[
    "0",
    "-1",
    "1e308",
    "-1e308",
    "NaN",
    "inf",
    "4294967296",
    "18446744073709551616",
    "49999999",
    "# n=49999999",
    "p qubo 0 49999999 0 0",
    "c offset",
    "\u{feff}",
    "\0",
    "\r\n",
    "[",
    "]",
    "{",
    "}",
    "\"",
    ",",
    "null",
    "true",
    "#",
    "vartype=SPIN",
    "é",
    "16",
    "256",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0usize..16).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), ".{0,8}").prop_map(|(a, s)| Edit::Insert(a, s)),
        (any::<usize>(), ".{1,4}").prop_map(|(a, s)| Edit::Replace(a, s)),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(a, k)| Edit::Token(a, k)),
    ]
}

/// The nearest char boundary at or before `at % (len + 1)`.
fn boundary(text: &str, at: usize) -> usize {
    let mut k = at % (text.len() + 1);
    while !text.is_char_boundary(k) {
        k -= 1;
    }
    k
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut s = text.to_string();
    match edit {
        Edit::Delete(at, n) => {
            let a = boundary(&s, *at);
            let b = boundary(&s, a + n);
            if b >= a {
                s.replace_range(a..b, "");
            }
        }
        Edit::Insert(at, t) => {
            let a = boundary(&s, *at);
            s.insert_str(a, t);
        }
        Edit::Replace(at, t) => {
            let a = boundary(&s, *at);
            let b = boundary(&s, a + t.len());
            if b >= a {
                s.replace_range(a..b, t);
            }
        }
        Edit::DuplicateLine(k) => {
            let lines: Vec<&str> = s.lines().collect();
            if !lines.is_empty() {
                let k = k % lines.len();
                let mut out = lines[..=k].to_vec();
                out.extend_from_slice(&lines[k..]);
                s = out.join("\n");
            }
        }
        Edit::Token(at, k) => {
            let a = boundary(&s, *at);
            s.insert_str(a, TOKENS[*k]);
        }
    }
    s
}

#[test]
fn a_line_break_in_a_cqm_label_is_escaped_in_the_message() {
    // Found by `mutated_cqm_files_never_panic`: one byte of a constraint's directory name in
    // the zip's central directory became a line break, and the message quoted it raw.
    use qubo_workbench::puzzle::constrained::cqm_file;
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cqm/mixed-deflate.cqm");
    let mut bytes = std::fs::read(path).unwrap();
    let name = b"constraints/\"capacity\"/lhs";
    let central = bytes.windows(name.len()).rposition(|w| w == name).unwrap();
    bytes[central + "constraints/".len()] = b'\n';
    let message = cqm_file::parse(&bytes, ORIGIN).unwrap_err().to_string();
    assert!(message.starts_with(ORIGIN), "{message}");
    assert!(!message.contains('\n'), "{message:?}");
    assert!(
        message.contains("\\ncapacity"),
        "the label is still named: {message}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "(?s).{0,300}") {
        for (name, parse) in PARSERS {
            check(name, *parse, &text);
        }
    }

    #[test]
    fn mutated_valid_inputs_never_panic(seed in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 1..6)) {
        let seeds = seeds();
        let mut text = seeds[seed.index(seeds.len())].clone();
        for e in &edits {
            text = apply(&text, e);
        }
        for (name, parse) in PARSERS {
            check(name, *parse, &text);
        }
    }

    #[test]
    fn mutated_binary_bqm_files_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8), cut in any::<prop::sample::Index>(), truncate in any::<bool>()) {
        // dimod's binary form (not text: mutated byte by byte), with labels, as the hybrid
        // upload writes it.
        use qubo_workbench::qubo::formats::{model_to_bytes, parse_model_bytes};
        let q = qubo_workbench::qubo::Qubo::new(vec![1.0, -2.0, 0.5], [(0, 1, 3.0), (1, 2, -1.5)], 0.25).unwrap();
        let labels: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let mut bytes = model_to_bytes(&q, Some(&labels), Format::DimodBqm);
        for (at, value) in &flips {
            let k = at.index(bytes.len());
            bytes[k] = *value;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        LARGEST.store(0, Ordering::Relaxed);
        let result = parse_model_bytes(&bytes, Format::DimodBqm, ORIGIN);
        prop_assert!(LARGEST.load(Ordering::Relaxed) <= ALLOCATION_LIMIT);
        if let Err(e) = result {
            let message = e.to_string();
            prop_assert!(message.starts_with(ORIGIN), "{}", message);
            prop_assert!(!message.contains('\n'), "{}", message);
        }
    }

    #[test]
    fn mutated_cqm_files_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8), cut in any::<prop::sample::Index>(), truncate in any::<bool>(), deflated in any::<bool>()) {
        // dimod's CQM file (a header, then a zip of sections): mutated byte by byte.
        use qubo_workbench::puzzle::constrained::cqm_file;
        let name = if deflated { "mixed-deflate.cqm" } else { "mixed.cqm" };
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cqm").join(name);
        let mut bytes = std::fs::read(path).unwrap();
        for (at, value) in &flips {
            let k = at.index(bytes.len());
            bytes[k] = *value;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        LARGEST.store(0, Ordering::Relaxed);
        let result = cqm_file::parse(&bytes, ORIGIN);
        prop_assert!(LARGEST.load(Ordering::Relaxed) <= ALLOCATION_LIMIT);
        if let Err(e) = result {
            let message = e.to_string();
            prop_assert!(message.starts_with(ORIGIN), "{}", message);
            prop_assert!(!message.contains('\n'), "{}", message);
        }
    }

    #[test]
    fn stored_settings_of_any_shape_come_back_usable(json in "(?s)\\{.{0,200}\\}", steps in any::<usize>(), from in any::<f64>()) {
        // Whatever a damaged settings store holds, what the GUI uses after `sanitized` is in range.
        let mut s: Settings = serde_json::from_str(&json).unwrap_or_default();
        s.sweep.setup.steps = steps;
        s.sweep.from = from;
        let s = s.sanitized();
        prop_assert!(qubo_workbench::sweep::values(s.sweep.from, s.sweep.to, s.sweep.setup.steps).is_ok());
        let task = qubo_workbench::samplers::Task {
            num_variables: 100,
            has_target: true,
            stored: true,
            marginals: false,
        };
        let (name, _) = qubo_workbench::samplers::resolve(&s.sampler, task);
        prop_assert!(qubo_workbench::samplers::sampler_from_params(&name, &s.sampler_params(&name)).is_ok());
    }
}
