//! Loop repair, under the no-fill rule: the one defect both formulations leave at their ground
//! energy there is an isolated cycle, and its cells may simply stay empty, so removing it keeps
//! every other cell's degree and leaves a valid answer. (Under the fill rule a cycle's cells
//! must be covered; splicing a cycle into a path always makes that path run alongside itself,
//! which the rule forbids, so the fill rule has cycle cuts only.) The repaired answer is
//! reported as repaired, never as a sample (`Outcome` counts samples as they are).

use super::check::{NumberlinkSolution, cycles};
use super::{Numberlink, Rule};

/// `s` without its isolated cycles, under the no-fill rule; `None` when it has none or the
/// rule is fill.
pub fn repair(p: &Numberlink, s: &NumberlinkSolution) -> Option<NumberlinkSolution> {
    let found = cycles(p, s);
    if p.rule() != Rule::NoFill || found.is_empty() {
        return None;
    }
    let mut s = s.clone();
    for (_, ring) in found {
        for i in 0..ring.len() {
            s.set(p, ring[i], ring[(i + 1) % ring.len()], 0);
        }
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::super::check::check;
    use super::super::parse;
    use super::*;

    #[test]
    fn under_no_fill_a_cycle_is_removed_and_under_fill_left() {
        let text = "4 4\nA..A\n....\n....\n....\n";
        let p = parse(&format!("rule no-fill\n{text}"), "t")
            .unwrap()
            .remove(0);
        let mut s = NumberlinkSolution::empty(16);
        for (x, y) in [(0, 1), (1, 2), (2, 3)] {
            s.set(&p, x, y, 1);
        }
        for (x, y) in [(9, 10), (10, 14), (14, 13), (13, 9)] {
            s.set(&p, x, y, 1);
        }
        assert!(!check(&p, &s).is_empty());
        let fixed = repair(&p, &s).unwrap();
        assert!(check(&p, &fixed).is_empty());
        assert!(repair(&p, &fixed).is_none(), "nothing left to repair");
        let fill = parse(text, "t").unwrap().remove(0);
        assert!(repair(&fill, &s).is_none());
    }
}
