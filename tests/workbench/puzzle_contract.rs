//! The conformance suite every puzzle kind must pass, the twin of `sampler_contract.rs`: every
//! kind in the registry, on its small instances (the files directly in `puzzles/<kind>/` whose
//! presolved model is small enough to enumerate; larger sets live in subfolders), is held to the
//! same contract:
//!
//! - text form and JSON round-trip (puzzle and solution);
//! - encode → exact sampler → decode → referee finds a valid solution at the ground energy;
//! - a known (classical) solution's sample has exactly the exact ground energy;
//! - the referee rejects a corrupted solution;
//! - `draw` works with and without a solution, and the solution changes the picture;
//! - exported pictures: the blank, the solved puzzle and the answer key as chosen, a title line
//!   above, a transparent background; a picture of a solution needs one;
//! - generated instances are consistent and solvable, deterministic in their seed, and unique
//!   where the kind promises it.
//!
//! A new kind is added to the registry; this suite then covers it with no edit here.

use std::path::Path;

use qubo_workbench::outcome::ground_energy;
use qubo_workbench::params::{ParamValues, defaults};
use qubo_workbench::puzzle::{
    AnyPuzzle, EncodeOptions, Kind, REFERENCE_NODE_BUDGET, Reference, SolutionCount, load_puzzles,
};
use qubo_workbench::qubo::{Model, StoredModel};
use qubo_workbench::sampler::{ExactSolver, RunControl, Sampler};

/// Largest model the exact sampler enumerates in these tests (2²² states is well under a second).
const SMALL: usize = 22;

/// The kind's shipped instances whose presolved model is small.
fn small_instances(kind: Kind) -> Vec<AnyPuzzle> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(kind.name());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            !name.starts_with("LICENSE") && !name.ends_with(".md")
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let puzzles = load_puzzles(&f, Some(kind))
            .unwrap_or_else(|e| panic!("{kind}: every shipped file parses: {e}"));
        for p in puzzles {
            let enc = p.puzzle.encode(&EncodeOptions::presolved(true)).unwrap();
            if enc.num_variables() <= SMALL {
                out.push(p.puzzle);
            }
        }
    }
    out
}

#[test]
fn every_kind_ships_small_instances() {
    for &kind in Kind::ALL {
        assert!(
            !small_instances(kind).is_empty(),
            "{kind}: ship at least one instance whose presolved model has ≤ {SMALL} variables"
        );
    }
}

#[test]
fn text_and_json_forms_round_trip() {
    for &kind in Kind::ALL {
        for p in small_instances(kind) {
            let back = kind.parse_text(&p.to_text(), "round-trip").unwrap();
            assert_eq!(back.len(), 1, "{kind}");
            assert_eq!(back[0].puzzle, p, "{kind}: parse ∘ to_text");
            let json = serde_json::to_string(&p).unwrap();
            let again: AnyPuzzle = serde_json::from_str(&json).unwrap();
            assert_eq!(again, p, "{kind}: JSON");
            let Reference::Solved(s) = p.solve_classically(REFERENCE_NODE_BUDGET) else {
                panic!("{kind}: small instances are solvable: {}", p.describe());
            };
            let as_json = p.solution_to_json(&s).to_string();
            assert_eq!(
                p.parse_solution(&as_json).unwrap(),
                s,
                "{kind}: solution JSON"
            );
            let as_line = p.solution_to_string(&s);
            assert_eq!(
                p.parse_solution(&as_line).unwrap(),
                s,
                "{kind}: solution line"
            );
        }
    }
}

#[test]
fn exact_ground_states_are_valid_and_known_solutions_are_ground_states() {
    for &kind in Kind::ALL {
        for p in small_instances(kind) {
            let enc = p.encode(&EncodeOptions::presolved(true)).unwrap();
            let weights = enc.default_weights();
            let model = StoredModel::new(enc.qubo(&weights).unwrap());
            let set = ExactSolver { num_reads: 1 }
                .sample(&model, &RunControl::new())
                .unwrap();
            let best = &set.rows[0];
            let decoded = p.decode(&enc, &best.sample);
            assert!(
                p.check(&decoded).is_empty(),
                "{kind}: the exact ground state of {} decodes to a valid solution",
                p.describe()
            );
            let reference = p.solve_classically(REFERENCE_NODE_BUDGET);
            let known = reference.solution().unwrap();
            let sample = p
                .solution_sample(&enc, known)
                .expect("a known solution has a sample");
            // A kind with an objective has no ground known from its constraints alone: its
            // reference is the optimum, whose energy must be the exact minimum.
            let ground = match p.objective(known) {
                Some(_) => model.energy(&sample),
                None => ground_energy(&enc, &weights, &reference).expect("known ground energy"),
            };
            assert!(
                (best.energy - ground).abs() < 1e-9,
                "{kind}: exact minimum {} vs ground {ground}",
                best.energy
            );
            assert!(
                (model.energy(&sample) - best.energy).abs() < 1e-9,
                "{kind}: the known solution's energy is the ground energy"
            );
            assert_eq!(&p.decode(&enc, &sample), known, "{kind}: decode ∘ sample");
        }
    }
}

#[test]
fn the_referee_rejects_a_corrupted_solution() {
    for &kind in Kind::ALL {
        for p in small_instances(kind) {
            let enc = p.encode(&EncodeOptions::default()).unwrap();
            let known = p.solve_classically(REFERENCE_NODE_BUDGET);
            let known = known.solution().unwrap();
            let mut sample = p.solution_sample(&enc, known).unwrap();
            let on = sample
                .iter()
                .position(|&b| b == 1)
                .expect("some variable is on");
            sample[on] = 0;
            let corrupted = p.decode(&enc, &sample);
            // Or, for a kind with an objective (a knapsack's item left out), lose on it.
            let worse = match (p.objective(&corrupted), p.objective(known)) {
                (Some(c), Some(k)) => k.better_than(&c),
                _ => false,
            };
            assert!(
                !p.check(&corrupted).is_empty() || worse,
                "{kind}: switching off {} must break a rule",
                enc.labels()[on]
            );
        }
    }
}

#[test]
fn drawings_with_and_without_a_solution() {
    for &kind in Kind::ALL {
        for p in small_instances(kind) {
            let bare = p.draw(None);
            assert!(bare.width > 0.0 && bare.height > 0.0 && !bare.shapes.is_empty());
            let known = p.solve_classically(REFERENCE_NODE_BUDGET);
            let solved = p.draw(known.solution());
            assert_ne!(
                bare.shapes.len(),
                solved.shapes.len(),
                "{kind}: the solution shows"
            );
        }
    }
}

#[test]
fn pictures_show_what_was_chosen() {
    use qubo_workbench::puzzle::picture::{PictureOptions, Show};
    for &kind in Kind::ALL {
        for p in small_instances(kind) {
            let known = p.solve_classically(REFERENCE_NODE_BUDGET);
            let s = known.solution().expect("small instances are solved");
            let with = |show, title, transparent| PictureOptions {
                show,
                title,
                transparent,
                probabilities: false,
                ..PictureOptions::default()
            };
            let blank = p
                .picture(Some(s), None, &with(Show::Puzzle, false, false), "x")
                .unwrap();
            assert_eq!(
                blank,
                p.draw(None),
                "{kind}: the blank ignores the solution"
            );
            let solved = p
                .picture(Some(s), None, &with(Show::Solved, false, false), "x")
                .unwrap();
            assert_ne!(
                solved, blank,
                "{kind}: the solved picture shows the solution"
            );
            let answer = p
                .picture(Some(s), None, &with(Show::Solution, false, false), "x")
                .unwrap();
            assert_ne!(answer, blank, "{kind}: the answer key shows the solution");
            let err = p
                .picture(None, None, &with(Show::Solved, false, false), "x")
                .unwrap_err();
            assert!(
                err.to_string().contains("needs a solution"),
                "{kind}: {err}"
            );
            let titled = p
                .picture(Some(s), None, &with(Show::Solved, true, true), "name")
                .unwrap();
            // The title band over the picture without the kind's own caption (which would say
            // the same).
            let plain = p.draw_styled(
                Some(s),
                None,
                &qubo_workbench::puzzle::picture::DrawStyle {
                    caption: false,
                    ..Default::default()
                },
            );
            assert!(titled.height > plain.height, "{kind}: a band for the title");
            assert_eq!(titled.shapes.len(), plain.shapes.len() + 1);
            let title = titled.texts().next().unwrap();
            assert!(title.starts_with("name · "), "{kind}: {title}");
            assert_eq!(titled.background.a, 0, "{kind}: transparent");
        }
    }
}

#[test]
fn generated_instances_are_consistent_solvable_and_deterministic() {
    for &kind in Kind::ALL {
        let specs = kind.generator_params();
        assert!(!specs.is_empty(), "{kind}: a generator with parameters");
        let params: ParamValues = defaults(specs);
        let a = kind.generate(&params).unwrap();
        let b = kind.generate(&params).unwrap();
        assert_eq!(a, b, "{kind}: same parameters, same instance");
        assert!(a.conflicts().is_empty(), "{kind}: {:?}", a.conflicts());
        let facts = a.design_facts(REFERENCE_NODE_BUDGET);
        if kind.generates_unique() {
            assert_eq!(facts.solutions, SolutionCount::One, "{kind}");
        } else {
            assert_ne!(facts.solutions, SolutionCount::Zero, "{kind}");
        }
        let solution = a.solve_classically(REFERENCE_NODE_BUDGET);
        assert!(a.check(solution.solution().unwrap()).is_empty(), "{kind}");
    }
}

#[test]
fn every_kind_has_presets_and_a_sweep_weight_it_encodes() {
    for &kind in Kind::ALL {
        let presets = kind.presets();
        assert!(!presets.is_empty(), "{kind}: the New menu offers something");
        for (name, p) in presets {
            // A preset too large to store as a QUBO (the full Eternity II) says so.
            let enc = match p.encode(&EncodeOptions::default()) {
                Ok(enc) => enc,
                Err(e) if e.to_string().contains("couplings") => continue,
                Err(e) => panic!("{kind} ({name}): {e}"),
            };
            assert!(
                enc.weight_names().contains(&p.sweep_weight(&enc).as_str()),
                "{kind} ({name}): the default sweep weight is one of the encoding's"
            );
        }
    }
}

#[test]
fn every_kind_meets_its_encoders_weight_conditions_at_default_weights() {
    for &kind in Kind::ALL {
        for p in small_instances(kind) {
            for presolve in [false, true] {
                let enc = p.encode(&EncodeOptions::presolved(presolve)).unwrap();
                let unmet = enc.unmet_conditions(&enc.default_weights()).unwrap();
                assert!(unmet.is_empty(), "{kind}, {}: {unmet:?}", p.describe());
            }
        }
    }
}
