//! Tests of `numberlink`'s model, file forms and facts.

use super::*;

#[test]
fn json_names_that_would_not_read_back_are_refused() {
    for rows in [
        r#"[[".", null, "."], [null, null, null]]"#,
        r#"[["", null, ""], [null, null, null]]"#,
        r#"[[" ", null, " "], [null, null, null]]"#,
        r#"[["A\nB", null, "A\nB"], [null, null, null]]"#,
    ] {
        let text = format!(r#"{{"kind": "numberlink", "width": 3, "height": 2, "rows": {rows}}}"#);
        let e = crate::puzzle::parse_puzzles(&text, None, "n.json")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("rows[0][0]") && e.contains("is not a pair's name"),
            "{e}"
        );
    }
    // Text forms: an unknown rule line and a spaced row of the wrong width say so.
    let e = parse("rule sometimes\n3 1\nA.A\n", "r")
        .unwrap_err()
        .to_string();
    assert!(e.contains("r:1: `rule sometimes` names no rule"), "{e}");
    let e = parse("3 2\nAB . AB\nC C\n", "s").unwrap_err().to_string();
    assert!(
        e.contains("s:3: 2 space-separated cells, but the grid is 3 wide"),
        "{e}"
    );
}

#[test]
fn number_forms_name_what_is_wrong() {
    let e = parse("4294967296 0 4294967296\n2 0 2\n", "t")
        .unwrap_err()
        .to_string();
    assert!(e.contains("t:1: expected whole numbers from 0"), "{e}");
    let e = parse("SIZE 3X2X1\nLINE_NUM 1\nLINE# (0,0,1) (2,0,1)\n", "q")
        .unwrap_err()
        .to_string();
    assert!(e.contains("q:3: a LINE# line without its name"), "{e}");
}

#[test]
fn a_fill_grid_without_pairs_is_a_conflict_before_sampling() {
    // `1 1` / `.`: `check` found no solution, yet `solve` sampled it.
    let p = &parse("1 1\n.\n", "t").unwrap()[0];
    let c = p.conflicts();
    assert_eq!(c.len(), 1, "{c:?}");
    assert!(c[0].detail.contains("has no pairs"), "{c:?}");
    // Under no-fill an empty grid is solved by leaving it empty.
    let p = &parse("rule no-fill\n1 1\n.\n", "t").unwrap()[0];
    assert!(p.conflicts().is_empty());
}

#[test]
fn the_corpus_forms_read_as_they_are() {
    let ahle = "# a comment\n\n8 8\nA.......\n..BC...D\n........\nA...E...\n.....C..\nDF..B...\n..E.....\nFG.....G\n\n0 0\n";
    let p = parse(ahle, "janko").unwrap();
    assert_eq!((p[0].width(), p[0].height(), p[0].num_pairs()), (8, 8, 7));
    assert_eq!(p[0].rule(), Rule::Fill);
    let zucker = "..RGB\n..Y..\n..G..\n.....\n..RYB\n";
    assert_eq!(parse(zucker, "z").unwrap()[0].num_pairs(), 4);
    assert!(
        <Numberlink as Puzzle>::looks_like(zucker),
        "letters open without --kind"
    );
    assert!(
        !<Numberlink as Puzzle>::looks_like("AB\nAB\nAB\n"),
        "three of a letter"
    );
    let sat = "1 0 2\n0 0 0\n1 0 2\n";
    assert_eq!(parse(sat, "s").unwrap()[0].num_pairs(), 2);
    let adc = "SIZE 3X2X1\r\nLINE_NUM 1\r\nLINE#1 (0,0,1) (2,1,1)\r\n";
    let p = parse(adc, "q").unwrap();
    assert_eq!(p[0].rule(), Rule::NoFill);
    assert_eq!(p[0].ends(1), [0, 5]);
}

#[test]
fn bad_files_name_the_line_and_the_problem() {
    let e = parse("3 2\n.A.\n..\n", "f").unwrap_err().to_string();
    assert!(e.contains("f:3") && e.contains("2 characters"), "{e}");
    let e = parse("3 1\nA.B\n", "f").unwrap_err().to_string();
    assert!(e.contains("label 'A' appears 1 time"), "{e}");
    let e = parse("SIZE 4X4X2\nLINE_NUM 0\n", "f")
        .unwrap_err()
        .to_string();
    assert!(e.contains("only single-layer"), "{e}");
    let e = parse("500 1\n", "f").unwrap_err().to_string();
    assert!(e.contains("each side must be 1 to 128"), "{e}");
    // An ADC answer opened as a puzzle is named for what it is, with the way to use it.
    let answer = include_str!("../../../puzzles/numberlink/adc2018/A12.txt");
    let e = parse(answer, "A12.txt").unwrap_err().to_string();
    assert!(
        e.contains("A12.txt:2") && e.contains("answer file") && e.contains("as its solution"),
        "{e}"
    );
}

#[test]
fn oversized_letter_and_number_grids_are_refused_before_their_cells_are_built() {
    // 3000 × 3000 letters: refused by size (the cells would have taken ~500 MB).
    let row = "A".repeat(3000) + "\n";
    let e = parse(&row.repeat(3000), "big").unwrap_err().to_string();
    assert!(
        e.contains("a 3000×3000 grid: each side must be 1 to 128"),
        "{e}"
    );
    // Tall and narrow, and a number grid with one overlong row further down.
    let e = parse(&"AB\n".repeat(200), "tall").unwrap_err().to_string();
    assert!(e.contains("each side must be 1 to 128"), "{e}");
    let numbers = format!("1 0 1\n{}\n", vec!["0"; 500].join(" "));
    let e = parse(&numbers, "n").unwrap_err().to_string();
    assert!(e.contains("n:2") || e.contains("each side must be"), "{e}");
}

/// A shipped fill-rule puzzle and its answer by the path search.
pub(super) fn shipped_7x7() -> (Numberlink, NumberlinkSolution) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/numberlink/generated/7x7-6pairs-seed1.txt"
    );
    let p = parse(&std::fs::read_to_string(path).unwrap(), "7x7")
        .unwrap()
        .remove(0);
    assert_eq!(p.rule(), Rule::Fill);
    let found = solve::search(&p, 1, 10_000_000);
    let answer = found.solutions.into_iter().next().expect("solvable");
    (p, answer)
}

#[test]
fn agreement_counts_the_cells_between_endpoints_on_the_same_path() {
    use crate::puzzle::{Agreement, Puzzle};
    let (p, s) = shipped_7x7();
    let open = (0..49).filter(|&i| p.endpoints()[i] == 0).count();
    assert_eq!(open, 49 - 12);
    let all = Agreement {
        same: open,
        of: open,
    };
    assert_eq!(p.agreement(&s, &s), Some(all));
    // No edges at all: every open cell is off its path.
    let empty = NumberlinkSolution::empty(49);
    assert_eq!(
        p.agreement(&empty, &s),
        Some(Agreement { same: 0, of: open })
    );
    // One open cell's edges dropped: that cell (and no other) leaves its path.
    let cell = (0..49).find(|&i| p.endpoints()[i] == 0).unwrap();
    let mut cut = s.clone();
    for (j, _) in s.edges_at(&p, cell) {
        cut.set(&p, cell, j, 0);
    }
    let a = p.agreement(&cut, &s).unwrap();
    assert!(a.same < open && a.same + 3 >= open, "{a:?}");
    // Under no-fill only routed cells count: empty in both is no agreement on a sparse board.
    let q = parse("rule no-fill\n5 3\nA...A\n.....\n.....\n", "sparse")
        .unwrap()
        .remove(0);
    let mut straight = NumberlinkSolution::empty(15);
    for i in 0..4 {
        straight.set(&q, i, i + 1, 1);
    }
    let mut detour = NumberlinkSolution::empty(15);
    for (x, y) in [(0, 5), (5, 6), (6, 7), (7, 8), (8, 9), (9, 4)] {
        detour.set(&q, x, y, 1);
    }
    assert_eq!(
        q.agreement(&straight, &straight),
        Some(Agreement { same: 3, of: 3 })
    );
    assert_eq!(
        q.agreement(&detour, &straight),
        Some(Agreement { same: 0, of: 3 + 5 })
    );
}
