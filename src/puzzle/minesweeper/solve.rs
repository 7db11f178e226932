//! Classical answers: one consistent configuration by depth-first search over the frontier
//! (the reference a QUBO run is measured against), and the design facts — consistent or not,
//! how many full layouts fit, which cells are safe — from the exact engine.

use super::check::MineSolution;
use super::probability::exact_probabilities;
use super::{Cell, Minesweeper, count_of};
use crate::puzzle::{DesignFacts, Reference, SolutionCount};

/// One configuration consistent with every number and the mine count: frontier cells decided,
/// the others undecided. Depth-first over frontier cells in reading order, each number's
/// remaining need and room checked after every choice.
pub(super) fn first_configuration(p: &Minesweeper, node_budget: u64) -> Reference<MineSolution> {
    if !super::check::conflicts(p).is_empty() {
        return Reference::NoSolution;
    }
    let n = p.width() * p.height();
    let hints = p.hints();
    let mut hints_of = vec![Vec::<usize>::new(); n];
    for (h, hint) in hints.iter().enumerate() {
        for &j in &hint.unknown {
            hints_of[j].push(h);
        }
    }
    let cells: Vec<usize> = (0..n).filter(|&k| !hints_of[k].is_empty()).collect();
    let unconstrained = p.cells().iter().filter(|&&c| c == Cell::Unopened).count() - cells.len();
    let remaining = p.mines() as i64 - p.num_flags() as i64;
    let mut need: Vec<i64> = hints.iter().map(|h| h.need).collect();
    let mut room: Vec<i64> = hints.iter().map(|h| h.unknown.len() as i64).collect();
    let mut assign = vec![false; cells.len()];
    let mut nodes = 0u64;
    struct Search<'a> {
        cells: &'a [usize],
        hints_of: &'a [Vec<usize>],
        need: &'a mut Vec<i64>,
        room: &'a mut Vec<i64>,
        assign: &'a mut Vec<bool>,
        nodes: &'a mut u64,
        budget: u64,
        remaining: i64,
        unconstrained: i64,
    }
    impl Search<'_> {
        /// Some(true): found; Some(false): none below; None: out of budget.
        fn go(&mut self, i: usize, mines: i64) -> Option<bool> {
            *self.nodes += 1;
            if *self.nodes > self.budget {
                return None;
            }
            if i == self.cells.len() {
                let rest = self.remaining - mines;
                return Some(rest >= 0 && rest <= self.unconstrained);
            }
            let k = self.cells[i];
            for mine in [false, true] {
                let t = mine as i64;
                if mines + t > self.remaining {
                    continue;
                }
                let mut ok = true;
                for &h in &self.hints_of[k] {
                    self.need[h] -= t;
                    self.room[h] -= 1;
                    ok &= self.need[h] >= 0 && self.need[h] <= self.room[h];
                }
                if ok {
                    self.assign[i] = mine;
                    if self.go(i + 1, mines + t)? {
                        return Some(true);
                    }
                }
                for &h in &self.hints_of[k] {
                    self.need[h] += t;
                    self.room[h] += 1;
                }
            }
            Some(false)
        }
    }
    let mut search = Search {
        cells: &cells,
        hints_of: &hints_of,
        need: &mut need,
        room: &mut room,
        assign: &mut assign,
        nodes: &mut nodes,
        budget: node_budget,
        remaining,
        unconstrained: unconstrained as i64,
    };
    match search.go(0, 0) {
        None => Reference::GaveUp {
            spent: crate::puzzle::Spent::Nodes(nodes),
        },
        Some(false) => Reference::NoSolution,
        Some(true) => {
            let mut mines = vec![None; n];
            for (i, &k) in cells.iter().enumerate() {
                mines[k] = Some(assign[i]);
            }
            Reference::Solved(MineSolution { mines })
        }
    }
}

/// Consistent or not, the number of full layouts, the safe cells, from the exact engine.
pub(super) fn design_facts(p: &Minesweeper, node_budget: u64) -> DesignFacts<MineSolution> {
    let mut conflicts = super::check::conflicts(p);
    let mut facts: Vec<(String, serde_json::Value)> = vec![
        (
            "board".into(),
            format!("{}×{}", p.width(), p.height()).into(),
        ),
        ("mines".into(), p.mines().into()),
        ("opened".into(), p.num_opened().into()),
    ];
    let reference = first_configuration(p, node_budget);
    let mut probabilities = None;
    let solutions = match exact_probabilities(p, node_budget) {
        Ok(prob) => {
            probabilities = Some(prob.cells());
            let layouts = 10f64.powf(prob.log10_layouts);
            facts.push((
                "layouts".into(),
                if prob.log10_layouts < 15.0 {
                    format!("{}", layouts.round()).into()
                } else {
                    format!("10^{:.1}", prob.log10_layouts).into()
                },
            ));
            let safe = (0..prob.p.len())
                .filter(|&k| p.cells()[k] == Cell::Unopened && prob.p[k] < 1e-12)
                .count();
            facts.push(("safe cells".into(), safe.into()));
            let best = prob.safest(p);
            if let Some(&k) = best.first() {
                facts.push((
                    "safest".into(),
                    format!("{} ({:.1} %)", p.place(k), 100.0 * prob.p[k]).into(),
                ));
            }
            // With the layout known, whether logic alone clears the board from here.
            if p.layout().is_some()
                && let Ok((_, logic)) = super::logic::clear_by_logic(p, node_budget)
            {
                facts.push(("logic".into(), logic.verdict().into()));
            }
            count_of(layouts)
        }
        Err(_) if !conflicts.is_empty() => SolutionCount::Zero,
        Err(e) => {
            // Too large a group, or no layout fits: say why the board has no probabilities
            // (the GUI then shows the sampled ones).
            facts.push(("exact probabilities".into(), e.to_string().into()));
            match &reference {
                Reference::NoSolution => {
                    // Inconsistent: say so where conflicts are read, not "no conflicts".
                    conflicts.push(crate::puzzle::Violation {
                        constraint: "position".into(),
                        detail: "no mine layout fits the numbers and the mine count".into(),
                    });
                    SolutionCount::Zero
                }
                Reference::GaveUp { spent } => SolutionCount::Unknown { spent: *spent },
                Reference::Solved(_) => SolutionCount::Unknown {
                    spent: crate::puzzle::Spent::Nodes(node_budget),
                },
            }
        }
    };
    DesignFacts {
        solutions,
        conflicts,
        facts,
        solution: reference.solution().cloned(),
        second_solution: None,
        probabilities,
    }
}
