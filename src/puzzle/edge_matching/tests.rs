//! Tests of `edge_matching`.

use super::*;

/// The seed article's 4×4 in its own notation [left, top, right, bottom].
pub(crate) const SEED_LTRB: [[u8; 4]; 16] = [
    [0, 0, 1, 2],
    [0, 0, 3, 6],
    [0, 0, 5, 4],
    [0, 0, 6, 3],
    [0, 4, 3, 1],
    [0, 6, 1, 4],
    [0, 4, 2, 6],
    [0, 3, 5, 2],
    [0, 2, 1, 5],
    [0, 6, 5, 3],
    [0, 2, 5, 4],
    [0, 4, 1, 6],
    [2, 6, 5, 3],
    [1, 5, 3, 2],
    [4, 3, 2, 1],
    [5, 1, 6, 4],
];

#[test]
fn the_shipped_seed_instance_is_the_articles_in_our_side_order() {
    let text = include_str!("../../../puzzles/edge-matching/seed-article-4x4.txt");
    let p = parse(text, "seed", &ParseHints::default()).unwrap();
    assert_eq!((p.rows(), p.cols()), (4, 4));
    for (k, [l, t, r, b]) in SEED_LTRB.iter().copied().enumerate() {
        assert_eq!(p.pieces()[k], [t, r, b, l], "piece {}", k + 1);
    }
}

#[test]
fn numbers_travel_with_swapped_pieces_through_files_solutions_and_the_model() {
    let mut p = EdgeMatching::blank(3, 3).unwrap();
    p.set_fixed(0, 0, Some((0, 0))).unwrap();
    p.swap_pieces(1, 7).unwrap();
    assert_eq!((p.number(1), p.number(7)), (8, 2));
    assert!(!p.numbered_in_order());
    // The picture labels each cell with its piece's number.
    let texts: Vec<String> = draw::draw_with(&p, None, true, false, false)
        .shapes
        .iter()
        .filter_map(|s| match s {
            crate::render::Shape::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(texts[1], "8", "{texts:?}");
    // The text form writes ids, and reading it back gives the same instance.
    let text = p.to_text_form();
    assert!(text.contains("\n8 "), "{text}");
    assert_eq!(parse(&text, "t", &ParseHints::default()).unwrap(), p);
    // So does JSON, with the fixed piece named by number.
    let json = serde_json::to_string(&p).unwrap();
    assert_eq!(serde_json::from_str::<EdgeMatching>(&json).unwrap(), p);
    // Solutions name pieces by number, both ways.
    let s = p.layout_solution();
    let line = s.to_line(&p);
    assert!(line.starts_with("1/0 8/0 3/0"), "{line}");
    assert_eq!(EdgeSolution::parse(&line, &p).unwrap(), s);
    // The model's labels use numbers, and decoding maps them back to the pieces.
    let enc = encode::encode(&p, &EncodeOptions::default()).unwrap();
    assert!(
        enc.labels()
            .iter()
            .any(|l| l.to_string().starts_with("x[8]["))
    );
    // A solved board with two pieces swapped in the list: its solution puts index 7 on
    // cell 1; sampled and decoded through the numbered labels it comes back the same.
    let mut q = EdgeMatching::blank(3, 3).unwrap();
    q.swap_pieces(1, 7).unwrap();
    let cells: Vec<Option<Placed>> = (0..9)
        .map(|k| {
            Some(Placed {
                piece: [0, 7, 2, 3, 4, 5, 6, 1, 8][k],
                rotation: 0,
            })
        })
        .collect();
    let truth = EdgeSolution::from_single(3, 3, &cells);
    assert!(check::check(&q, &truth).violations.is_empty());
    let enc = encode::encode(&q, &EncodeOptions::default()).unwrap();
    let sample = encode::sample_of(&q, &enc, &truth).unwrap();
    assert_eq!(encode::decode(&q, &enc, &sample), truth);
    let w = enc.default_weights();
    assert!(enc.report(&sample, &w, true).unwrap().is_empty());
}

#[test]
fn fixed_lines_are_checked_where_they_are_written() {
    let seed = include_str!("../../../puzzles/edge-matching/seed-article-4x4.txt");
    for (lines, says) in [
        (
            "fixed 1 1 1 0\nfixed 1 1 1 0\n",
            "t:2: fixed: piece 1 is fixed already (line 1)",
        ),
        (
            "fixed 1 1 1 300\n",
            "t:1: fixed: rotation 300: rotations are 0 to 3",
        ),
        (
            "fixed 17 1 1 0\n",
            "t:1: fixed: there is no piece 17 (pieces are 1 to 16)",
        ),
        (
            "fixed 2 1 1 0\nfixed 1 1 1 0\n",
            "t:2: fixed: row 1, column 1 is held already",
        ),
    ] {
        let text = format!("{lines}{seed}");
        let e = parse(&text, "t", &ParseHints::default())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(says), "{e}");
    }
}

#[test]
fn piece_numbers_that_are_not_a_permutation_are_refused() {
    let p = EdgeMatching::blank(2, 2).unwrap();
    assert!(p.clone().with_numbers(vec![1, 2, 2, 4]).is_err());
    assert!(p.clone().with_numbers(vec![0, 1, 2, 3]).is_err());
    assert!(p.clone().with_numbers(vec![1, 2, 3]).is_err());
    // 0-based ids in a file only name pieces; the numbers stay in list order.
    let q = parse(
        "0 0 1 1 0\n1 0 0 1 1\n2 1 0 0 1\n3 1 1 0 0\nfixed 2 2 2 0\n",
        "t",
        &ParseHints::default(),
    )
    .unwrap();
    assert!(q.numbered_in_order());
    assert_eq!(q.fixed()[0].piece, 2);
}

#[test]
fn rotation_moves_the_top_colour_clockwise() {
    assert_eq!(rotated([1, 2, 3, 4], 1), [4, 1, 2, 3]);
    assert_eq!(rotated([1, 2, 3, 4], 2), [3, 4, 1, 2]);
    // Eternity II's starter piece 139 (8 9 9 12) at rotation 2.
    assert_eq!(rotated([8, 9, 9, 12], 2), [9, 12, 8, 9]);
    for r in 0..4 {
        assert_eq!(rotated(rotated([1, 2, 3, 4], r), 4 - r), [1, 2, 3, 4]);
    }
}

#[test]
fn classes_and_shape_inference() {
    assert_eq!(class_of([0, 0, 1, 2]), PieceClass::Corner);
    assert_eq!(class_of([1, 0, 0, 2]), PieceClass::Corner);
    assert_eq!(class_of([0, 2, 1, 0]), PieceClass::Corner);
    assert_eq!(class_of([0, 1, 0, 2]), PieceClass::Misfit);
    assert_eq!(class_of([3, 1, 0, 2]), PieceClass::Edge);
    assert_eq!(class_of([3, 1, 4, 2]), PieceClass::Inner);
    for (r, c) in [(2, 2), (2, 5), (4, 4), (6, 12), (16, 16), (3, 7)] {
        let p = EdgeMatching::blank(r, c).unwrap();
        assert_eq!(
            infer_shape(p.pieces()),
            Some((r.min(c), r.max(c))),
            "{r}×{c}"
        );
    }
}

#[test]
fn parse_errors_name_the_line_and_what_to_do() {
    let h = ParseHints::default();
    let e = parse("1 2 3 4\n1 2 x 4\n", "f.txt", &h)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("f.txt:2: '1 2 x 4' is not a piece"), "{e}");
    let e = parse("1 2 3\n", "f.txt", &h).unwrap_err().to_string();
    assert!(e.starts_with("f.txt:1: a piece line has 4 colours"), "{e}");
    let e = parse("0 0 1 1\n0 0 1 1\n1 2 3 4\n", "f.txt", &h)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("cannot tell the board size") && e.contains("rows and cols"),
        "{e}"
    );
    let e = parse("size 3 3\n0 0 1 1\n", "f.txt", &h)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "f.txt:1: a 3×3 board needs 9 pieces; there are 1");
    let e = parse("0 0 1 999\n", "f.txt", &h).unwrap_err().to_string();
    assert!(e.contains("colour 999 is too large"), "{e}");
}

#[test]
fn hints_override_the_inferred_shape() {
    let p = EdgeMatching::blank(2, 6).unwrap();
    let text: String = p
        .pieces()
        .iter()
        .map(|c| format!("{} {} {} {}\n", c[0], c[1], c[2], c[3]))
        .collect();
    let inferred = parse(&text, "x", &ParseHints::default()).unwrap();
    assert_eq!((inferred.rows(), inferred.cols()), (2, 6));
    let hinted = parse(
        &text,
        "x",
        &ParseHints {
            rows: Some(6),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!((hinted.rows(), hinted.cols()), (6, 2));
}

#[test]
fn text_form_round_trips_with_fixed_pieces() {
    let mut p = EdgeMatching::blank(3, 3).unwrap();
    p.set_fixed(1, 1, Some((4, 2))).unwrap();
    let back = parse(&p.to_text_form(), "x", &ParseHints::default()).unwrap();
    assert_eq!(back, p);
    assert!(looks_like(&p.to_text_form()));
    assert!(!looks_like(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    ));
}

#[test]
fn the_reference_gives_each_scan_six_placements_per_node_of_the_shared_budget() {
    // Placements are table lookups, several times cheaper than the other kinds' nodes: the
    // facts and the reference spend `scan_budget` per scan, and say so when they give up.
    use crate::puzzle::{Puzzle, Reference, SolutionCount, Spent};
    let text = include_str!("../../../puzzles/edge-matching/official/eternity2.txt");
    let p = parse(text, "e2", &ParseHints::default()).unwrap();
    let budget = 5_000;
    let per_scan = solve::scan_budget(budget);
    assert_eq!(per_scan, 9 * budget);
    let spent = match p.design_facts(budget).solutions {
        SolutionCount::Unknown {
            spent: Spent::Nodes(n),
        } => n,
        other => panic!("{other:?}"),
    };
    assert!(spent >= per_scan && spent % per_scan == 0, "{spent}");
    match p.solve_classically(budget) {
        Reference::GaveUp {
            spent: Spent::Nodes(n),
        } => assert!(n >= per_scan && n % per_scan == 0, "{n}"),
        _ => panic!("Eternity II is not solved in {per_scan} placements"),
    }
}

#[test]
fn agreement_counts_the_cells_showing_the_solutions_colours_in_its_best_turn() {
    use crate::puzzle::{Agreement, Puzzle, Reference};
    let text = include_str!("../../../puzzles/edge-matching/seed-article-4x4.txt");
    let p = parse(text, "seed", &ParseHints::default()).unwrap();
    assert!(p.fixed().is_empty());
    let Reference::Solved(s) = p.solve_classically(100_000) else {
        panic!("the seed article's board has a tiling");
    };
    let all = Agreement { same: 16, of: 16 };
    assert_eq!(p.agreement(&s, &s), Some(all));
    // The tiling turned a quarter clockwise is a tiling too (the referee says so), and the
    // same answer: it agrees everywhere under the turn.
    let n = 4;
    let turned: Vec<Option<check::Placed>> = (0..n * n)
        .map(|k| {
            let (r, c) = (k / n, k % n);
            let placed = s.single(n - 1 - c, r).unwrap();
            Some(check::Placed {
                piece: placed.piece,
                rotation: (placed.rotation + 1) % 4,
            })
        })
        .collect();
    let turned = EdgeSolution::from_single(n, n, &turned);
    assert_eq!(check::check(&p, &turned).score, p.max_score());
    assert_ne!(turned, s);
    assert_eq!(p.agreement(&turned, &s), Some(all));
    // Two inner pieces swapped: the two cells no longer agree, in any turn.
    let mut cells: Vec<Option<check::Placed>> =
        (0..n * n).map(|k| s.single(k / n, k % n)).collect();
    cells.swap(5, 10);
    let swapped = EdgeSolution::from_single(n, n, &cells);
    assert_eq!(
        p.agreement(&swapped, &s),
        Some(Agreement { same: 14, of: 16 })
    );
    // A fixed piece pins the board: no turn is tried, and the fixed cell is not counted.
    let mut pinned = p.clone();
    let corner = s.single(0, 0).unwrap();
    pinned
        .set_fixed(0, 0, Some((corner.piece, corner.rotation)))
        .unwrap();
    assert_eq!(
        pinned.agreement(&s, &s),
        Some(Agreement { same: 15, of: 15 })
    );
    assert!(pinned.agreement(&turned, &s).unwrap().same < 15);
}
