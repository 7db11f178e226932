//! The editor's operations on an instance: each builds the edited grid and goes through
//! `Numberlink::new`, so the instance's checks hold after every edit.

use super::{Numberlink, Rule};
use crate::puzzle::PuzzleError;

impl Numberlink {
    /// A new pair with endpoints at cells a and b (free, distinct), named by the next unused
    /// number; returns its name.
    pub fn add_pair(&mut self, a: usize, b: usize) -> Result<String, PuzzleError> {
        let n = self.width * self.height;
        if a == b || a >= n || b >= n || self.endpoints[a] != 0 || self.endpoints[b] != 0 {
            return Err(PuzzleError::Invalid(
                "a pair needs two distinct empty cells".into(),
            ));
        }
        let name = (1..)
            .map(|v: u64| v.to_string())
            .find(|v| !self.names.contains(v))
            .unwrap_or_default();
        let mut cells = self.cells();
        cells[a] = Some(name.clone());
        cells[b] = Some(name.clone());
        *self = Numberlink::new(self.width, self.height, &cells, self.rule)?;
        Ok(name)
    }

    /// Removes the pair with an endpoint at cell i (both its endpoints).
    pub fn remove_pair_at(&mut self, i: usize) -> Result<(), PuzzleError> {
        let Some(&k) = self.endpoints.get(i).filter(|&&k| k != 0) else {
            return Err(PuzzleError::Invalid(format!(
                "{}: no endpoint",
                self.place(i)
            )));
        };
        let cells: Vec<Option<String>> = self
            .endpoints
            .iter()
            .map(|&e| (e != 0 && e != k).then(|| self.names[e as usize - 1].clone()))
            .collect();
        *self = Numberlink::new(self.width, self.height, &cells, self.rule)?;
        Ok(())
    }

    /// Moves the endpoint at cell `from` to the empty cell `to`.
    pub fn move_endpoint(&mut self, from: usize, to: usize) -> Result<(), PuzzleError> {
        let n = self.width * self.height;
        if from >= n || to >= n || self.endpoints[from] == 0 || self.endpoints[to] != 0 {
            return Err(PuzzleError::Invalid(
                "an endpoint moves to an empty cell".into(),
            ));
        }
        let mut cells = self.cells();
        cells[to] = cells[from].take();
        *self = Numberlink::new(self.width, self.height, &cells, self.rule)?;
        Ok(())
    }

    /// The grid resized to `width` × `height` (top-left anchored); pairs with an endpoint
    /// outside are dropped.
    pub fn resize(&mut self, width: usize, height: usize) -> Result<(), PuzzleError> {
        let mut cells = vec![None; width * height];
        let old = self.cells();
        for r in 0..height.min(self.height) {
            for c in 0..width.min(self.width) {
                cells[r * width + c] = old[r * self.width + c].clone();
            }
        }
        // Drop names that lost an endpoint.
        let count = |name: &String| cells.iter().filter(|c| c.as_ref() == Some(name)).count();
        let lost: Vec<String> = self
            .names
            .iter()
            .filter(|n| count(n) != 2)
            .cloned()
            .collect();
        for c in cells.iter_mut() {
            if c.as_ref().is_some_and(|n| lost.contains(n)) {
                *c = None;
            }
        }
        *self = Numberlink::new(width, height, &cells, self.rule)?;
        Ok(())
    }

    /// Sets the rule.
    pub fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
    }
}
