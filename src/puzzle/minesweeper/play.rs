//! The game's rules on a board with a known layout: opening a cell (a 0 floods its
//! neighbourhood), flags, chording (opening a number's other neighbours once its flags match),
//! and the end of a game. Play mode in the GUI and `play` in the CLI move through these only.

use super::{Cell, Minesweeper};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameState {
    /// Safe cells remain unopened.
    Playing,
    /// Every safe cell is open.
    Won,
    /// A mine was opened, at this cell index.
    Lost(usize),
}

impl Minesweeper {
    /// Where the game stands (a board without a layout is always `Playing`).
    pub fn game_state(&self) -> GameState {
        let Some(layout) = &self.layout else {
            return GameState::Playing;
        };
        if let Some(k) = self.exploded {
            return GameState::Lost(k);
        }
        let closed_safe = self
            .cells
            .iter()
            .zip(layout)
            .any(|(c, &mine)| !mine && !matches!(c, Cell::Opened(_)));
        if closed_safe {
            GameState::Playing
        } else {
            GameState::Won
        }
    }

    /// Opens cell (r, c) by the rules: nothing happens on an opened or flagged cell or after
    /// the game ended; a mine ends the game; a 0 opens its neighbours, and so on (iteratively).
    /// Returns the cells opened. Needs the layout (`None` without one); an undealt game is
    /// dealt now, away from (r, c).
    pub fn open(&mut self, r: usize, c: usize) -> Option<Vec<usize>> {
        if let (None, Some(seed)) = (&self.layout, self.deal)
            && r < self.height
            && c < self.width
        {
            let first = self.index(r, c);
            self.layout = Some(super::generate::deal(
                self.width,
                self.height,
                self.mines,
                first,
                seed,
            ));
            self.deal = None;
        }
        let layout = self.layout.clone()?;
        if self.game_state() != GameState::Playing || r >= self.height || c >= self.width {
            return Some(Vec::new());
        }
        let start = self.index(r, c);
        if self.cells[start] != Cell::Unopened {
            return Some(Vec::new());
        }
        if layout[start] {
            self.exploded = Some(start);
            return Some(vec![start]);
        }
        let mut opened = Vec::new();
        let mut stack = vec![start];
        while let Some(k) = stack.pop() {
            if self.cells[k] != Cell::Unopened || layout[k] {
                continue;
            }
            let n = self.count_mines_around(&layout, k);
            self.cells[k] = Cell::Opened(n);
            opened.push(k);
            if n == 0 {
                stack.extend(self.neighbours(k));
            }
        }
        Some(opened)
    }

    /// Chording on an opened number whose flagged neighbours match it: opens every other
    /// unopened neighbour (a wrong flag loses the game, as in the classic game).
    pub fn chord(&mut self, r: usize, c: usize) -> Option<Vec<usize>> {
        self.layout.as_ref()?;
        if r >= self.height || c >= self.width {
            return Some(Vec::new());
        }
        let k = self.index(r, c);
        let Cell::Opened(n) = self.cells[k] else {
            return Some(Vec::new());
        };
        let around = self.neighbours(k);
        let flags = around
            .iter()
            .filter(|&&j| self.cells[j] == Cell::Flagged)
            .count();
        if flags != n as usize {
            return Some(Vec::new());
        }
        let mut opened = Vec::new();
        for j in around {
            if self.cells[j] == Cell::Unopened {
                let (rj, cj) = (j / self.width, j % self.width);
                opened.extend(self.open(rj, cj).unwrap_or_default());
            }
        }
        Some(opened)
    }

    /// Flags an unopened cell or unflags a flagged one; opened cells stay as they are.
    pub fn toggle_flag(&mut self, r: usize, c: usize) {
        if r >= self.height || c >= self.width || self.game_state() != GameState::Playing {
            return;
        }
        let k = self.index(r, c);
        self.cells[k] = match self.cells[k] {
            Cell::Unopened => Cell::Flagged,
            Cell::Flagged => Cell::Unopened,
            other => other,
        };
    }

    fn count_mines_around(&self, layout: &[bool], k: usize) -> u8 {
        self.neighbours(k)
            .into_iter()
            .filter(|&j| layout[j])
            .count() as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 4×3, mines at (0, 3) and (2, 3).
    fn board() -> Minesweeper {
        let mut layout = vec![false; 12];
        layout[3] = true;
        layout[11] = true;
        Minesweeper::with_layout(4, 3, layout).unwrap()
    }

    #[test]
    fn a_zero_floods_its_neighbourhood_and_numbers_stop_it() {
        let mut b = board();
        let opened = b.open(1, 0).unwrap();
        // Columns 0–1 are zeros next to nothing; column 2 holds numbers; column 3 stays shut.
        assert_eq!(opened.len(), 9);
        assert_eq!(b.cell(0, 2), Cell::Opened(1));
        assert_eq!(b.cell(1, 2), Cell::Opened(2));
        assert_eq!(b.cell(1, 1), Cell::Opened(0));
        assert_eq!(b.cell(0, 3), Cell::Unopened);
        assert_eq!(b.game_state(), GameState::Playing);
        // The last safe cell wins.
        b.open(1, 3);
        assert_eq!(b.game_state(), GameState::Won);
    }

    #[test]
    fn the_first_click_of_a_new_game_is_always_safe() {
        for seed in 0..50 {
            for first in [0, 12, 24] {
                // Crowded (20 of 25 cells): only the click itself can be kept clear.
                let mut g = Minesweeper::undealt(5, 5, 20, seed).unwrap();
                assert!(g.is_undealt());
                g.open(first / 5, first % 5);
                assert!(matches!(g.cells()[first], Cell::Opened(_)), "seed {seed}");
                assert_eq!(g.layout().unwrap().iter().filter(|&&m| m).count(), 20);
                // Roomy: the click opens an area (its neighbours are clear too).
                let mut g = Minesweeper::undealt(9, 9, 10, seed).unwrap();
                g.open(first / 5, first % 5);
                assert_eq!(g.cell(first / 5, first % 5), Cell::Opened(0), "seed {seed}");
            }
        }
    }

    #[test]
    fn opening_a_mine_loses_and_nothing_moves_after() {
        let mut b = board();
        b.open(0, 3);
        assert_eq!(b.game_state(), GameState::Lost(3));
        assert!(b.open(1, 0).unwrap().is_empty());
    }

    #[test]
    fn chording_opens_the_rest_once_the_flags_match() {
        let mut b = board();
        b.open(0, 2);
        assert_eq!(b.cell(0, 2), Cell::Opened(1));
        // No flag yet: chording does nothing.
        assert!(b.chord(0, 2).unwrap().is_empty());
        b.toggle_flag(0, 3);
        let opened = b.chord(0, 2).unwrap();
        assert!(opened.contains(&b.index(1, 3)), "{opened:?}");
        // (0, 1) was a 0 and flooded the rest: every safe cell is open.
        assert_eq!(b.game_state(), GameState::Won);
        // A wrong flag makes chording open a mine.
        let mut b = board();
        b.open(1, 2);
        b.toggle_flag(1, 3);
        b.toggle_flag(0, 1);
        b.chord(1, 2);
        assert!(matches!(b.game_state(), GameState::Lost(_)));
    }
}
