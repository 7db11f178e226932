//! The exact reference: paths grown one cell at a time from each pair's first endpoint,
//! always extending the pair with the fewest moves left (a forced move first), under three
//! prunings checked after every move: every unfinished pair's head still reaches its other
//! endpoint through free cells; under the fill rule, no free cell is left with fewer than two
//! ways in or out; and, under the fill rule, a path never runs alongside itself (a cell next to
//! its own path other than where it came from) — the rule forbids it (see `Rule::Fill`), and it
//! cuts the search a lot. Counting stops at `limit` solutions or at the node budget.

use super::check::NumberlinkSolution;
use super::{Numberlink, Rule};

/// What the search found.
#[derive(Clone, Debug)]
pub struct Search {
    /// Up to `limit` solutions.
    pub solutions: Vec<NumberlinkSolution>,
    /// Nodes visited.
    pub nodes: u64,
    /// The budget ran out before the search finished.
    pub gave_up: bool,
}

struct State<'a> {
    p: &'a Numberlink,
    /// Per cell: 0 free, else the pair covering it.
    owner: Vec<u16>,
    /// Per pair (index k − 1): its head cell and whether it reached its other end.
    head: Vec<usize>,
    done: Vec<bool>,
    edges: NumberlinkSolution,
    nodes: u64,
    budget: u64,
    limit: usize,
    found: Vec<NumberlinkSolution>,
    gave_up: bool,
    /// Forbid paths running alongside themselves (the fill rule).
    no_alongside: bool,
}

impl State<'_> {
    /// The cells pair k's head may move to: free cells, or its own other endpoint.
    fn moves(&self, k: u16) -> Vec<usize> {
        let p = self.p;
        let h = self.head[k as usize - 1];
        let target = p.ends(k)[1];
        // Beside its other end, a path must step onto it (else it would run alongside).
        if self.no_alongside && p.neighbours(h).any(|j| j == target) {
            return vec![target];
        }
        p.neighbours(h)
            .filter(|&j| {
                if j == target {
                    return true;
                }
                if self.owner[j] != 0 {
                    return false;
                }
                // Not alongside its own path: j's other owned neighbours must not be k's.
                !self.no_alongside
                    || !p
                        .neighbours(j)
                        .any(|m| m != h && self.owner[m] == k && m != target)
            })
            .collect()
    }

    /// Whether every unfinished pair can still join up, and (fill) every free cell can be
    /// covered.
    fn feasible(&self) -> bool {
        let p = self.p;
        let n = p.width() * p.height();
        // Free regions, labelled by flood fill.
        let mut region = vec![usize::MAX; n];
        let mut next = 0;
        for s in 0..n {
            if self.owner[s] != 0 || region[s] != usize::MAX {
                continue;
            }
            let mut stack = vec![s];
            region[s] = next;
            while let Some(i) = stack.pop() {
                for j in p.neighbours(i) {
                    if self.owner[j] == 0 && region[j] == usize::MAX {
                        region[j] = next;
                        stack.push(j);
                    }
                }
            }
            next += 1;
        }
        for k in 1..=p.num_pairs() as u16 {
            if self.done[k as usize - 1] {
                continue;
            }
            let h = self.head[k as usize - 1];
            let t = p.ends(k)[1];
            if p.neighbours(h).any(|j| j == t) {
                continue;
            }
            let from: Vec<usize> = p
                .neighbours(h)
                .filter(|&j| self.owner[j] == 0)
                .map(|j| region[j])
                .collect();
            let ok = p
                .neighbours(t)
                .filter(|&j| self.owner[j] == 0)
                .any(|j| from.contains(&region[j]));
            if !ok {
                return false;
            }
        }
        if p.rule() == Rule::Fill {
            // Every free region must be touched by some unfinished head (else nothing covers it),
            // and every free cell needs two ways through it (or one, next to a head or an end).
            let mut touched = vec![false; next];
            for k in 1..=p.num_pairs() as u16 {
                if self.done[k as usize - 1] {
                    continue;
                }
                for c in [self.head[k as usize - 1], p.ends(k)[1]] {
                    for j in p.neighbours(c) {
                        if self.owner[j] == 0 {
                            touched[region[j]] = true;
                        }
                    }
                }
            }
            if touched.iter().any(|&t| !t) {
                return false;
            }
            for i in 0..n {
                if self.owner[i] != 0 {
                    continue;
                }
                let mut ways = 0;
                for j in p.neighbours(i) {
                    // A free neighbour, or the head or the far end of an unfinished pair.
                    let o = self.owner[j];
                    let open = o == 0
                        || (!self.done[o as usize - 1]
                            && (self.head[o as usize - 1] == j || p.ends(o)[1] == j));
                    ways += open as usize;
                }
                if ways < 2 {
                    return false;
                }
            }
        }
        true
    }

    fn go(&mut self) {
        if self.found.len() >= self.limit || self.gave_up {
            return;
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            self.gave_up = true;
            return;
        }
        // The unfinished pair with the fewest moves.
        let mut best: Option<(u16, Vec<usize>)> = None;
        for k in 1..=self.p.num_pairs() as u16 {
            if self.done[k as usize - 1] {
                continue;
            }
            let m = self.moves(k);
            if best.as_ref().is_none_or(|(_, b)| m.len() < b.len()) {
                let dead = m.is_empty();
                best = Some((k, m));
                if dead {
                    break;
                }
            }
        }
        let Some((k, moves)) = best else {
            // Every pair joined: under the fill rule, every cell must be covered too.
            if self.p.rule() == Rule::NoFill || self.owner.iter().all(|&o| o != 0) {
                self.found.push(self.edges.clone());
            }
            return;
        };
        let ki = k as usize - 1;
        let h = self.head[ki];
        let target = self.p.ends(k)[1];
        for j in moves {
            let p = self.p;
            self.edges.set(p, h, j, k);
            self.head[ki] = j;
            let reached = j == target;
            if reached {
                self.done[ki] = true;
            } else {
                self.owner[j] = k;
            }
            if self.feasible() {
                self.go();
            }
            if reached {
                self.done[ki] = false;
            } else {
                self.owner[j] = 0;
            }
            self.head[ki] = h;
            self.edges.set(p, h, j, 0);
            if self.found.len() >= self.limit || self.gave_up {
                return;
            }
        }
    }
}

/// Up to `limit` solutions of `p` within `node_budget` nodes.
/// Each node costs a flood fill over the grid, so the nodes are also capped by
/// `WORK_BUDGET` / cells (a few seconds on any grid).
pub fn search(p: &Numberlink, limit: usize, node_budget: u64) -> Search {
    let cells = (p.width() * p.height()).max(1) as u64;
    let budget = node_budget.min(WORK_BUDGET / cells);
    run(p, limit, budget, p.rule() == Rule::Fill)
}

/// Cell visits (nodes × cells) one search may spend.
const WORK_BUDGET: u64 = 200_000_000;

/// One search, with or without the alongside rule.
fn run(p: &Numberlink, limit: usize, node_budget: u64, no_alongside: bool) -> Search {
    let n = p.width() * p.height();
    let mut owner = p.endpoints().to_vec();
    let head: Vec<usize> = (1..=p.num_pairs() as u16).map(|k| p.ends(k)[0]).collect();
    for k in 1..=p.num_pairs() as u16 {
        owner[p.ends(k)[0]] = k;
        owner[p.ends(k)[1]] = k;
    }
    let mut s = State {
        p,
        owner,
        head,
        done: vec![false; p.num_pairs()],
        edges: NumberlinkSolution::empty(n),
        nodes: 0,
        budget: node_budget,
        limit,
        found: Vec::new(),
        gave_up: false,
        no_alongside,
    };
    if s.feasible() {
        s.go();
    }
    Search {
        solutions: s.found,
        nodes: s.nodes,
        gave_up: s.gave_up,
    }
}

#[cfg(test)]
mod tests {
    use super::super::check::check;
    use super::super::parse;
    use super::*;

    #[test]
    fn solves_small_puzzles_and_the_referee_agrees() {
        let p = parse("5 5\n..RGB\n..Y..\n..G..\n.....\n..RYB\n", "generated 5x5")
            .unwrap()
            .remove(0);
        let found = search(&p, 2, 1_000_000);
        assert!(!found.gave_up);
        assert_eq!(found.solutions.len(), 1, "generated with one solution");
        assert!(check(&p, &found.solutions[0]).is_empty());
        // The empty candidate breaks every pair and (fill) every free cell.
        let empty = NumberlinkSolution::empty(25);
        let v = check(&p, &found.solutions[0].clone());
        assert!(v.is_empty());
        assert!(
            check(&p, &empty)
                .iter()
                .any(|v| v.constraint.starts_with("pair"))
        );
        // A crossing: no solution.
        let cross = parse("3 3\n.A.\nB.B\n.A.\n", "cross").unwrap().remove(0);
        let found = search(&cross, 2, 100_000);
        assert!(found.solutions.is_empty() && !found.gave_up);
    }

    #[test]
    fn solves_a_generated_8x8() {
        let text =
            "8 8\nA.......\n..BC...D\n........\nA...E...\n.....C..\nDF..B...\n..E.....\nFG.....G\n";
        let p = parse(text, "generated").unwrap().remove(0);
        let found = search(&p, 2, 5_000_000);
        assert!(!found.gave_up, "{} nodes", found.nodes);
        assert_eq!(found.solutions.len(), 1);
        assert!(check(&p, &found.solutions[0]).is_empty());
    }

    #[test]
    fn under_the_fill_rule_paths_do_not_touch_themselves() {
        // Both pairs in the corners: every covering makes a path run alongside itself.
        let p = parse("4 4\nA..A\n....\n....\nB..B\n", "corners")
            .unwrap()
            .remove(0);
        let found = search(&p, 2, 1_000_000);
        assert!(!found.gave_up && found.solutions.is_empty());
        // Under no-fill they may, and the middle can stay empty.
        let p = parse("rule no-fill\n4 4\nA..A\n....\n....\nB..B\n", "corners")
            .unwrap()
            .remove(0);
        let found = search(&p, 1, 1_000_000);
        assert!(check(&p, &found.solutions[0]).is_empty());
    }

    #[test]
    fn the_no_fill_rule_leaves_cells_empty() {
        let p = parse("rule no-fill\n4 3\nA..A\n....\nB..B\n", "adc-like")
            .unwrap()
            .remove(0);
        let found = search(&p, 1, 100_000);
        let s = &found.solutions[0];
        assert!(check(&p, s).is_empty());
        // The same grid under the fill rule has to use the middle row.
        let fill = parse("4 3\nA..A\n....\nB..B\n", "fill").unwrap().remove(0);
        let v = check(&fill, s);
        assert!(
            v.iter()
                .any(|v| v.detail.contains("every cell must be on a path")),
            "{v:?}"
        );
    }
}

/// The corpus beside the project (not shipped): `cargo test --release -- --ignored
/// numberlink_corpus --nocapture` prints how the solver does on it.
#[cfg(test)]
mod corpus {
    use super::super::check::check;
    use super::super::parse;
    use super::*;

    #[test]
    #[ignore = "reads ../shared/corpus, which a fresh clone does not have"]
    fn numberlink_corpus() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/numberlink");
        let mut files: Vec<std::path::PathBuf> =
            vec![root.join("thomasahle_numberlink/puzzles/janko")];
        if let Ok(dir) = std::fs::read_dir(root.join("mzucker_flow_solver/puzzles")) {
            let mut more: Vec<_> = dir.map(|e| e.unwrap().path()).collect();
            more.sort();
            files.extend(more);
        }
        for f in files {
            let Ok(text) = std::fs::read_to_string(&f) else {
                continue;
            };
            let Ok(puzzles) = parse(&text, &f.display().to_string()) else {
                println!("{}: does not parse", f.display());
                continue;
            };
            let mut by_size: std::collections::BTreeMap<(usize, usize), (usize, usize, f64, f64)> =
                Default::default();
            for p in puzzles.iter().filter(|p| p.width() * p.height() <= 225) {
                let t = std::time::Instant::now();
                let s = search(p, 1, 300_000);
                let dt = t.elapsed().as_secs_f64();
                let e = by_size.entry((p.width(), p.height())).or_default();
                e.0 += 1;
                if let Some(sol) = s.solutions.first() {
                    assert!(check(p, sol).is_empty());
                    e.1 += 1;
                }
                e.2 += dt;
                e.3 = e.3.max(dt);
            }
            for ((w, h), (n, ok, total, max)) in by_size {
                println!(
                    "{} {w}×{h}: solved {ok}/{n}, mean {:.3} s, max {:.3} s",
                    f.file_name().unwrap().to_string_lossy(),
                    total / n as f64,
                    max
                );
            }
        }
    }
}

/// What the reference found, whichever search ran.
pub struct ReferenceFound {
    /// Up to the number asked for.
    pub solutions: Vec<NumberlinkSolution>,
    /// The budget spent when it gave up.
    pub gave_up: Option<crate::puzzle::Spent>,
    /// The search's size, as a design fact.
    pub how: (String, serde_json::Value),
}

/// Seconds the SAT reference may spend per call for a node budget: one per 5·10⁵ nodes (the
/// default 5·10⁶ gives 10 s), 1 to 60.
fn sat_seconds(node_budget: u64) -> u64 {
    (node_budget / 500_000).clamp(1, 60)
}

/// The exact reference: the path search under the fill rule (its prunings are the rule's own),
/// SAT under no-fill (`sat`), up to `limit` solutions.
pub fn reference(p: &Numberlink, limit: usize, node_budget: u64) -> ReferenceFound {
    match p.rule() {
        Rule::Fill => {
            let found = search(p, limit, node_budget);
            ReferenceFound {
                solutions: found.solutions,
                gave_up: found
                    .gave_up
                    .then_some(crate::puzzle::Spent::Nodes(found.nodes)),
                how: ("search nodes".into(), found.nodes.into()),
            }
        }
        Rule::NoFill => {
            let seconds = sat_seconds(node_budget);
            let found = super::sat::search(p, limit, seconds);
            ReferenceFound {
                solutions: found.solutions,
                gave_up: found
                    .gave_up
                    .then_some(crate::puzzle::Spent::Seconds(seconds)),
                how: (
                    "SAT".into(),
                    format!("{} variables, {} clauses", found.size.0, found.size.1).into(),
                ),
            }
        }
    }
}
