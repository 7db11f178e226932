//! How hard a Numberlink is to reason out: the least depth of deduction (`presolve`) that
//! decides every edge. Bands:
//! - **rules**: the local rules and reachability alone decide it;
//! - **probing**: one level of cases (assume an edge on or off, a cell on one pair; keep what
//!   every surviving case agrees on);
//! - **nested**: cases within cases (each case probes again);
//! - **search**: deductions to that depth leave edges open; trial and error decides.

use serde::Serialize;

use super::Numberlink;
use super::presolve::deduce_to_depth;

/// The deduction depth a Numberlink needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Band {
    /// Rules alone.
    Rules,
    /// One level of cases.
    Probing,
    /// Cases within cases.
    Nested,
    /// Beyond: search.
    Search,
}

impl Band {
    /// Every band, shallowest first.
    pub const ALL: [Band; 4] = [Band::Rules, Band::Probing, Band::Nested, Band::Search];

    /// The word flags and reports use.
    pub fn name(self) -> &'static str {
        match self {
            Band::Rules => "rules",
            Band::Probing => "probing",
            Band::Nested => "nested",
            Band::Search => "search",
        }
    }

    /// From its word.
    pub fn parse(word: &str) -> Option<Band> {
        Band::ALL.into_iter().find(|b| b.name() == word)
    }
}

/// The least depth whose deductions decide every edge of `p` (`Search` when none does, or the
/// instance is too large for the deductions).
pub fn deduction_band(p: &Numberlink) -> Band {
    for (depth, band) in [(0, Band::Rules), (1, Band::Probing), (2, Band::Nested)] {
        let Some(d) = deduce_to_depth(p, depth) else {
            return Band::Search;
        };
        let (done, all) = d.decided_edges(p);
        if done == all {
            return band;
        }
    }
    Band::Search
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::GenerateControl;
    use crate::puzzle::numberlink::generate::generate_band;
    use crate::puzzle::numberlink::solve::search;

    /// A band's instance needs that depth and no less, read off the deductions themselves.
    #[test]
    fn generated_bands_need_their_depth_and_no_less() {
        for (band, depth) in [(Band::Rules, 0), (Band::Probing, 1)] {
            let p = generate_band(7, 7, 6, Some(band), 1, &GenerateControl::new()).unwrap();
            let found = search(&p, 2, 1_000_000);
            assert_eq!(found.solutions.len(), 1, "unique");
            let decided = |d: u32| {
                let x = deduce_to_depth(&p, d).unwrap();
                let (done, all) = x.decided_edges(&p);
                done == all
            };
            assert!(decided(depth), "{band:?} decided at depth {depth}");
            if depth > 0 {
                assert!(
                    !decided(depth - 1),
                    "{band:?} not decided at depth {}",
                    depth - 1
                );
            }
            assert_eq!(deduction_band(&p), band);
        }
        assert_eq!(Band::parse("nested"), Some(Band::Nested));
    }
}
