//! Model files: every format round-trips a real encoded model exactly (through the file
//! system, atomically), Ising conversions keep energies, and bad files name file and line.

use qubo_workbench::puzzle::{AnyPuzzle, EncodeOptions, Sudoku};
use qubo_workbench::qubo::formats::{Format, model_to_bytes, parse_model, read_model, write_model};
use qubo_workbench::qubo::{Qubo, StoredModel};

fn sudoku_model(presolve: bool) -> (Qubo, Vec<String>) {
    let line = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
    let p = AnyPuzzle::Sudoku(Sudoku::from_line(line).unwrap());
    let enc = p.encode(&EncodeOptions::presolved(presolve)).unwrap();
    let w = enc.default_weights().with("hint", 2.75).unwrap();
    let labels = enc.labels().iter().map(|l| l.to_string()).collect();
    (enc.qubo(&w).unwrap(), labels)
}

/// Zero couplings carry no information in files; compare without them.
fn without_zero_couplings(q: &Qubo) -> Qubo {
    Qubo::new(
        q.linear().to_vec(),
        q.couplings()
            .iter()
            .filter(|c| c.value != 0.0)
            .map(|c| (c.i as usize, c.j as usize, c.value)),
        q.offset(),
    )
    .unwrap()
}

#[test]
fn encoded_models_round_trip_through_every_file_format() {
    let dir = tempfile::tempdir().unwrap();
    for presolve in [false, true] {
        let (q, labels) = sudoku_model(presolve);
        for ext in ["qubo", "coo", "json", "bqm"] {
            let path = dir.path().join(format!("model.{ext}"));
            write_model(&path, &q, Some(&labels)).unwrap();
            let back = read_model(&path).unwrap();
            assert_eq!(back.qubo, without_zero_couplings(&q), "{ext}");
            assert!(back.warnings.is_empty(), "{ext}: {:?}", back.warnings);
            if ext != "coo" {
                assert_eq!(back.labels.as_deref(), Some(&labels[..]), "{ext}");
            }
        }
    }
    // Nothing but the four models is left behind (no temporary files).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4);
}

#[test]
fn coo_is_what_the_peer_harness_reads() {
    let (q, _) = sudoku_model(false);
    let text = String::from_utf8(model_to_bytes(&q, None, Format::Coo)).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("# vartype=BINARY"));
    assert_eq!(lines.next(), Some("# n=729 offset=324"));
    let mut count = 0;
    for line in lines {
        let t: Vec<&str> = line.split(' ').collect();
        assert_eq!(t.len(), 3);
        let (i, j): (usize, usize) = (t[0].parse().unwrap(), t[1].parse().unwrap());
        assert!(i <= j);
        // dimod's regex: [+-]?\d*(\.\d+)? — no exponents.
        assert!(
            t[2].chars()
                .all(|c| c.is_ascii_digit() || c == '-' || c == '.'),
            "{line}"
        );
        count += 1;
    }
    assert_eq!(count, 729 + 10206);
}

#[test]
fn ising_round_trip_keeps_every_energy() {
    let (q, _) = sudoku_model(true);
    let ising = q.to_ising();
    let back = Qubo::from_ising(&ising).unwrap();
    let n = q.num_variables();
    let mut state = 3u64;
    for _ in 0..100 {
        let x: Vec<u8> = (0..n)
            .map(|_| (qubo_workbench::rng::splitmix64(&mut state) & 1) as u8)
            .collect();
        let s: Vec<i8> = x.iter().map(|&b| if b == 1 { 1 } else { -1 }).collect();
        let e = q.energy(&x).unwrap();
        assert!((ising.energy(&s) - e).abs() < 1e-9);
        assert!((back.energy(&x).unwrap() - e).abs() < 1e-9);
    }
}

#[test]
fn pyqubo_example_converts_exactly() {
    // H = 2·x_b·x_a − 3·x_a + 5·x_b·x_c + 5 (docs/qubo-formats.md §0), variables a, b, c.
    let q = Qubo::new(vec![-3.0, 0.0, 0.0], vec![(1, 0, 2.0), (1, 2, 5.0)], 5.0).unwrap();
    let ising = q.to_ising();
    assert_eq!(ising.h, vec![-1.0, 1.75, 1.25]);
    assert_eq!(
        ising.j.iter().map(|c| c.value).collect::<Vec<_>>(),
        vec![0.5, 1.25]
    );
    assert_eq!(ising.offset, 5.25);
}

#[test]
fn bad_model_files_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let cases = [
        (
            write("a.coo", "0 0 1\n0 1 two\n"),
            "a.coo:2: value 'two' is not a number",
        ),
        (
            write("b.qubo", "p qubo 0 3 1 1\n0 0 1\n2 1 5\n"),
            "b.qubo:3: coupler 2 1 is below the diagonal",
        ),
        (
            write("c.json", "{\"type\": \"BinaryQuadraticModel\""),
            "c.json:1: invalid JSON",
        ),
        (write("d.coo", "0 0 NaN\n"), "d.coo:1: value is NaN"),
        (write("e.bin", "whatever"), "e.bin: unknown model format"),
    ];
    for (path, want) in cases {
        let e = read_model(&path).unwrap_err().to_string();
        let expected = format!("{}/{want}", dir.path().display());
        assert!(
            e.starts_with(&expected),
            "{e:?} should start with {expected:?}"
        );
    }
    let missing = read_model(&dir.path().join("missing.coo"))
        .unwrap_err()
        .to_string();
    assert!(missing.contains("missing.coo: cannot read"), "{missing}");
    // A file read through parse_model names the origin it was given.
    let e = parse_model("1 1\n", Format::Coo, "inline")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "inline:1: expected 'i j value', found '1 1'");
    // Reading a good model and sampling it works end to end.
    let (q, _) = sudoku_model(true);
    let p = dir.path().join("ok.coo");
    write_model(&p, &q, None).unwrap();
    let m = StoredModel::new(read_model(&p).unwrap().qubo);
    assert_eq!(qubo_workbench::qubo::Model::num_variables(&m), 159);
}

#[test]
fn a_binary_bqm_is_refused_at_its_first_bytes_not_after_reading_it_whole() {
    // An endless device named like a BQM file: refused after one chunk, by its magic bytes.
    let dir = tempfile::tempdir().unwrap();
    let zero = dir.path().join("zero.bqm");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let e = read_model(&zero).unwrap_err().to_string();
    assert!(e.contains("not a DIMODBQM file"), "{e}");
    let text = dir.path().join("text.bqm");
    std::fs::write(&text, "hello, this is not a binary model").unwrap();
    let e = read_model(&text).unwrap_err().to_string();
    assert!(e.contains("not a DIMODBQM file"), "{e}");
}
