//! One scan of the reference: a resumable depth-first search over the placements, cell by
//! cell in a given order, with its candidate tables (flat lists per step and colour key, and
//! piece sets on boards of up to `MASK_PIECES` pieces). The portfolio that runs several scans,
//! and what their results mean, is in `mod.rs`.

use std::collections::HashSet;

use super::joints::JointBudgets;
use super::turned_form;
use crate::puzzle::edge_matching::encode::Placements;
use crate::puzzle::edge_matching::{Colours, EdgeMatching, rotated};

/// A candidate in a step's table: its placement, its piece and the colours it shows.
#[derive(Clone, Copy)]
struct Candidate {
    place: u32,
    piece: u32,
    colours: Colours,
    /// The same piece's next turn under the same key (`NO_CANDIDATE` at the end of the chain).
    next: u32,
}

/// The end of a chain of turns.
const NO_CANDIDATE: u32 = u32::MAX;

/// No piece: a piece with no twin before it in the list.
const NO_PIECE: u32 = u32::MAX;

/// One step of a scan: the cell it fills, where its table's key comes from, and the placed
/// neighbours beyond the anchors that each candidate must still agree with.
struct Step {
    cell: usize,
    /// Up to two anchors, each (neighbour cell, the neighbour's side facing this cell): the
    /// colours they show pick the table. A missing anchor reads the blank past the board
    /// (`Search::shown`'s last entry, all zeros), so every step computes its key alike.
    anchors: [(usize, usize); 2],
    /// Further neighbours placed before this step, as (neighbour cell, this cell's side facing
    /// it): none in a scan, some in the orders of a repair window.
    extra: Vec<(usize, usize)>,
}

/// When a scan checks the joint budgets (`joints.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum JointChecks {
    /// Once, before the first piece: free pieces that cannot give the open cells the colours
    /// asked of them leave no tiling to search for. The reference's scans stop there: in a
    /// row scan a piece's sides rarely commit more joints of a colour than are left (random
    /// 8×8 boards, 4 frame and 6 inner colours: 20–25 % fewer pieces placed to the same
    /// point, at 10–25 % more time per piece).
    AtStart,
    /// Also at every piece placed: a repair window's cells, each with placed neighbours all
    /// round its edge, run out of a colour early (windows of 39 cells freed from tilings of
    /// random 8×8 boards: 1.3–2.9× fewer pieces placed, 1.1–2.8× less time, and 5 of 8
    /// within the repair's 2·10⁶ nodes against 2).
    EveryPiece,
}

/// Where one scan's search stands after a slice of work.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Stand {
    /// It may go on.
    Paused,
    /// It found as many solutions as asked for.
    Enough,
    /// It went through its whole tree: its solutions are all there are.
    Exhausted,
    /// Its node budget ran out.
    Spent,
}

/// Table entries (offsets) a scan may hold before its steps are keyed by one anchor's colour
/// instead of two (colours² keys per step: a hostile 64×64 file with 255 colours would need
/// 2.7·10⁸); the second anchor is then checked per candidate.
const MAX_TABLE_KEYS: usize = 1 << 23;

/// Boards of at most this many pieces search by piece sets (`Masks`): four words a set
/// (Eternity II has 256 pieces).
const MASK_PIECES: usize = 256;

/// Memory the piece sets of one scan may take (a set per step and key).
const MASK_BYTES: usize = 64 << 20;

/// A scan's candidates as sets of pieces, one bit each, `words` 64-bit words a set; no words
/// (and no sets) where the board is too large, and the scan walks its lists.
struct Masks {
    words: usize,
    /// Per step and key: the pieces its list holds (each once: a piece's other turns under
    /// the same key are chained to it, `Candidate::next`).
    by_key: Vec<u64>,
    /// Per step: its pieces still to try, free when the step was entered.
    pending: Vec<u64>,
    /// Pieces whose identical piece before them in the list is not in use.
    locked: Vec<u64>,
    /// Per piece: the next identical piece (the one whose `twin_before` it is).
    twin_after: Vec<u32>,
}

impl Masks {
    /// No sets: the scan walks its lists.
    fn none() -> Masks {
        Masks {
            words: 0,
            by_key: Vec::new(),
            pending: Vec::new(),
            locked: Vec::new(),
            twin_after: Vec::new(),
        }
    }

    /// The sets for `steps` × `keys` lists (`offsets` into `candidates`), where the board is
    /// small enough; a piece is locked while its twin before it is not `used`.
    fn of(
        (steps, keys): (usize, usize),
        offsets: &[u32],
        candidates: &[Candidate],
        twin_before: &[u32],
        used: &[u64],
    ) -> Masks {
        let pieces = twin_before.len();
        let tables = steps * keys;
        let words = pieces.div_ceil(64).max(1);
        if pieces > MASK_PIECES || tables.saturating_mul(words * 8) > MASK_BYTES {
            return Masks::none();
        }
        let mut by_key = vec![0u64; tables * words];
        for at in 0..tables {
            let list = &candidates[offsets[at] as usize..offsets[at + 1] as usize];
            debug_assert!(
                list.windows(2).all(|w| w[0].piece < w[1].piece),
                "a list holds each piece once, by piece"
            );
            for c in list {
                by_key[at * words + c.piece as usize / 64] |= 1 << (c.piece % 64);
            }
        }
        let mut twin_after = vec![NO_PIECE; pieces];
        let mut locked = vec![0u64; words];
        for (piece, &before) in twin_before.iter().enumerate() {
            if before != NO_PIECE {
                twin_after[before as usize] = piece as u32;
                if used[before as usize / 64] >> (before % 64) & 1 == 0 {
                    locked[piece / 64] |= 1 << (piece % 64);
                }
            }
        }
        Masks {
            words,
            by_key,
            pending: vec![0; steps * words],
            locked,
            twin_after,
        }
    }
}

/// One scan's depth-first search, resumable: `run` places up to a slice of pieces and returns,
/// and the next call goes on from the same node (so a portfolio of scans can take turns).
///
/// The hot loop reads flat arrays only: each step's candidates lie in one slice of
/// `candidates` per key (`offsets`), carrying their piece and colours, and the colours each
/// placed cell shows are kept in `shown`. On boards of up to `MASK_PIECES` pieces a key also
/// has the set of its pieces as bits (`Masks`), so entering a step finds its free candidates
/// with one AND per 64 pieces, and each node takes the lowest pending bit without looking at
/// used ones; otherwise a step walks its list and skips pieces in use. Both visit the same
/// tree in the same order. Measured on random 8×8 boards (4 frame, 6 inner colours), two scans
/// on 2 cores, pieces placed a second: 2.2·10⁷ for the first version, which looked pieces and
/// colours up in `Placements` and rechecked every neighbour of each candidate; 2.9·10⁷ with
/// flat lists; 4.0–4.6·10⁷ with sets (263 instructions a node against 313 for the lists, one
/// mispredicted branch against 2.7: the lists' test of each candidate's piece is a coin toss
/// deep in the tree). Without `popcnt` (baseline x86-64) the sets were slower than the lists.
pub(super) struct Search {
    steps: Vec<Step>,
    /// Keys per step: colours² with pair tables, colours with one anchor's.
    keys: usize,
    /// Colours in use: a key is first anchor × colours + second anchor.
    colours: usize,
    /// Step k's candidates for key q are `candidates[offsets[k·keys + q]..offsets[k·keys + q + 1]]`.
    offsets: Vec<u32>,
    candidates: Vec<Candidate>,
    /// Per cell (and one blank past the board): the colours its placed piece shows, zeros
    /// where none is placed.
    shown: Vec<Colours>,
    board: Vec<Option<u32>>,
    /// Pieces in use, one bit each.
    used: Vec<u64>,
    /// Per piece: the previous identical piece in the list, which must be used first.
    twin_before: Vec<u32>,
    /// Steps placed so far; per step, where its key's candidates stand: walking a list, the
    /// next to try and the list's end; with sets, the key's table (`k·keys + q`), whose
    /// untried pieces are in `Masks::pending`.
    depth: usize,
    cursor: Vec<u32>,
    end: Vec<u32>,
    /// Per step: the candidate placed there (valid below `depth`), and the next turn of its
    /// piece to try there (`Candidate::next`).
    placed: Vec<u32>,
    chain: Vec<u32>,
    /// Candidates below this index are in the keys' lists, the rest in chains.
    lists: u32,
    /// The pieces as bits, where the board is small enough (`MASK_PIECES`).
    masks: Masks,
    /// Joints left per kind and colour: a candidate that would need more is refused, where
    /// `every_piece` (`JointChecks::EveryPiece`; the scans without it run a loop compiled
    /// without the checks).
    pub(super) joints: JointBudgets,
    every_piece: bool,
    stand: Stand,
    pub(super) nodes: u64,
    budget: u64,
    want: usize,
    /// The solutions found, each with its colour board (`Search::shown_board`), and those boards.
    pub(super) found: Vec<(Vec<Colours>, Vec<Option<u32>>)>,
    seen: HashSet<Vec<Colours>>,
    /// The board's (rows, cols) when its turns are symmetries of the puzzle (nothing fixed):
    /// a solution that is a turn of one found is the same solution.
    turns: Option<(usize, usize)>,
}

impl Search {
    fn is_used(&self, piece: u32) -> bool {
        self.used[piece as usize / 64] >> (piece % 64) & 1 == 1
    }

    /// Marks a piece in use or free; with sets, its next twin is free to go down exactly
    /// while it is down.
    #[inline(always)]
    fn set_used<const W: usize>(&mut self, piece: u32, on: bool) {
        let (word, bit) = (piece as usize / 64, 1u64 << (piece % 64));
        if on {
            self.used[word] |= bit;
        } else {
            self.used[word] &= !bit;
        }
        if W > 0 {
            let after = self.masks.twin_after[piece as usize];
            if after != NO_PIECE {
                let (word, bit) = (after as usize / 64, 1u64 << (after % 64));
                if on {
                    self.masks.locked[word] &= !bit;
                } else {
                    self.masks.locked[word] |= bit;
                }
            }
        }
    }

    /// A piece may go down: it is not in use, and an identical piece before it in the list is.
    fn free(&self, piece: u32) -> bool {
        let twin = self.twin_before[piece as usize];
        !self.is_used(piece) && (twin == NO_PIECE || self.is_used(twin))
    }

    /// The colour board as placed, in its least turn where turns are symmetries: one key for a
    /// solution however it was found.
    fn shown_board(&self) -> Vec<Colours> {
        let shown = self.shown[..self.board.len()].to_vec();
        match self.turns {
            Some((rows, cols)) => turned_form(rows, cols, &shown),
            None => shown,
        }
    }

    /// Step k is entered: its list is the one for the colours its anchors show (with sets:
    /// that list's free pieces are its pending candidates).
    #[inline(always)]
    fn enter<const W: usize>(&mut self, k: usize) {
        if k == self.steps.len() {
            return;
        }
        let [(a, sa), (b, sb)] = self.steps[k].anchors;
        let key = if self.keys == self.colours {
            self.shown[a][sa] as usize
        } else {
            self.shown[a][sa] as usize * self.colours + self.shown[b][sb] as usize
        };
        let at = k * self.keys + key;
        self.chain[k] = NO_CANDIDATE;
        if W > 0 {
            let m = &mut self.masks;
            let list = &m.by_key[at * W..at * W + W];
            let pending = &mut m.pending[k * W..k * W + W];
            for i in 0..W {
                pending[i] = list[i] & !(self.used[i] | m.locked[i]);
            }
            self.cursor[k] = at as u32;
        } else {
            self.cursor[k] = self.offsets[at];
            self.end[k] = self.offsets[at + 1];
        }
    }

    /// Takes back the last step's piece; false at the root (the tree is done).
    #[inline(always)]
    fn back<const W: usize, const J: bool>(&mut self) -> bool {
        if self.depth == 0 {
            return false;
        }
        self.depth -= 1;
        let k = self.depth;
        let Candidate { piece, colours, .. } = self.candidates[self.placed[k] as usize];
        if J {
            self.joints.release(k, &colours);
        }
        let cell = self.steps[k].cell;
        self.board[cell] = None;
        self.shown[cell] = [0; 4];
        self.set_used::<W>(piece, false);
        true
    }

    /// The candidate agrees with step k's extra neighbours (a scan has none).
    fn agrees(&self, k: usize, c: &Candidate) -> bool {
        (self.steps[k].extra.iter())
            .all(|&(nb, side)| self.shown[nb][(side + 2) % 4] == c.colours[side])
    }

    /// Step k's next candidate, as its index in `candidates`: the placed piece's next turn
    /// under the same key, else the first free piece of the key's list, that agrees with the
    /// step's extra neighbours. It stays pending until `take`, so a pause before it tries it
    /// first on the next call.
    #[inline(always)]
    fn next_candidate<const W: usize>(&mut self, k: usize) -> Option<u32> {
        while self.chain[k] != NO_CANDIDATE {
            let i = self.chain[k];
            if self.agrees(k, &self.candidates[i as usize]) {
                return Some(i);
            }
            self.chain[k] = self.candidates[i as usize].next;
        }
        loop {
            let i = if W == 0 {
                let mut i = self.cursor[k];
                while i < self.end[k] && !self.free(self.candidates[i as usize].piece) {
                    i += 1;
                }
                self.cursor[k] = i;
                if i == self.end[k] {
                    return None;
                }
                i
            } else {
                let pending = &self.masks.pending[k * W..k * W + W];
                let word = pending.iter().position(|&bits| bits != 0)?;
                let bit = pending[word].trailing_zeros();
                // Its place in the key's list, which holds each of its pieces once, by piece.
                let at = self.cursor[k] as usize;
                let list = &self.masks.by_key[at * W..at * W + W];
                let below: u32 = (list[..word].iter().map(|b| b.count_ones())).sum::<u32>()
                    + (list[word] & ((1u64 << bit) - 1)).count_ones();
                self.offsets[at] + below
            };
            if self.steps[k].extra.is_empty() || self.agrees(k, &self.candidates[i as usize]) {
                return Some(i);
            }
            // This turn disagrees with an extra neighbour; another turn of the piece may not.
            self.take::<W>(k, i);
            while self.chain[k] != NO_CANDIDATE {
                let j = self.chain[k];
                if self.agrees(k, &self.candidates[j as usize]) {
                    return Some(j);
                }
                self.chain[k] = self.candidates[j as usize].next;
            }
        }
    }

    /// Step k takes candidate `i` (from `next_candidate`): it is no longer pending there.
    #[inline(always)]
    fn take<const W: usize>(&mut self, k: usize, i: u32) {
        let Candidate { piece, next, .. } = self.candidates[i as usize];
        self.chain[k] = next;
        if i >= self.lists {
            return; // a turn in a chain: its piece was taken from the list already
        }
        if W > 0 {
            self.masks.pending[k * W + piece as usize / 64] &= !(1u64 << (piece % 64));
        } else {
            self.cursor[k] = i + 1;
        }
    }

    /// Goes on for up to `slice` more pieces placed (or to the end of its budget).
    pub(super) fn run(&mut self, slice: u64) -> Stand {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            #[target_feature(enable = "popcnt")]
            fn with_popcnt(s: &mut Search, slice: u64) -> Stand {
                s.run_words(slice)
            }
            // SAFETY: the CPU has popcnt (checked just above).
            return unsafe { with_popcnt(self, slice) };
        }
        self.run_words(slice)
    }

    /// `run` with the scan's set width as a constant, so the sets' loops unroll.
    #[inline(always)]
    fn run_words(&mut self, slice: u64) -> Stand {
        match (self.masks.words, self.every_piece) {
            (0, false) => self.run_with::<0, false>(slice),
            (1, false) => self.run_with::<1, false>(slice),
            (2, false) => self.run_with::<2, false>(slice),
            (3, false) => self.run_with::<3, false>(slice),
            (_, false) => self.run_with::<4, false>(slice),
            (0, true) => self.run_with::<0, true>(slice),
            (1, true) => self.run_with::<1, true>(slice),
            (2, true) => self.run_with::<2, true>(slice),
            (3, true) => self.run_with::<3, true>(slice),
            (_, true) => self.run_with::<4, true>(slice),
        }
    }

    #[inline(always)]
    fn run_with<const W: usize, const J: bool>(&mut self, slice: u64) -> Stand {
        debug_assert_eq!(W, self.masks.words);
        if self.stand != Stand::Paused {
            return self.stand;
        }
        let limit = self.budget.min(self.nodes.saturating_add(slice));
        self.stand = loop {
            let k = self.depth;
            if k == self.steps.len() {
                let key = self.shown_board();
                // A turn of a board already found (the held corner's twin took its place).
                if self.seen.insert(key.clone()) {
                    self.found.push((key, self.board.clone()));
                    if self.found.len() >= self.want {
                        break Stand::Enough;
                    }
                }
                if !self.back::<W, J>() {
                    break Stand::Exhausted;
                }
                continue;
            }
            match self.next_candidate::<W>(k) {
                // Paused before this candidate: the next call tries it first.
                Some(_) if self.nodes >= limit => {
                    break if self.nodes >= self.budget {
                        Stand::Spent
                    } else {
                        Stand::Paused
                    };
                }
                Some(i) => {
                    self.take::<W>(k, i);
                    self.nodes += 1;
                    let c = self.candidates[i as usize];
                    if J && !self.joints.commit(k, &c.colours) {
                        continue;
                    }
                    self.placed[k] = i;
                    self.set_used::<W>(c.piece, true);
                    let cell = self.steps[k].cell;
                    self.board[cell] = Some(c.place);
                    self.shown[cell] = c.colours;
                    self.depth += 1;
                    self.enter::<W>(k + 1);
                }
                None => {
                    if !self.back::<W, J>() {
                        break Stand::Exhausted;
                    }
                }
            }
        };
        self.stand
    }
}

/// The least of a colour board's turns (the half turn, and the quarter turns on a square): one
impl Search {
    /// A search from `board` filling the cells of `order` (see `search_from`), checking the
    /// joint budgets as `checks` says.
    pub(super) fn new(
        p: &EdgeMatching,
        pl: &Placements,
        board: Vec<Option<u32>>,
        order: &[usize],
        want: usize,
        node_budget: u64,
        checks: JointChecks,
    ) -> Self {
        let (rows, cols) = (p.rows(), p.cols());
        let cells = rows * cols;
        let blank = cells;
        let mut used = vec![0u64; p.pieces().len().div_ceil(64)];
        let mut shown = vec![[0; 4]; cells + 1];
        for (cell, v) in board.iter().enumerate() {
            if let Some(v) = *v {
                let place = pl.list[v as usize];
                used[place.piece as usize / 64] |= 1 << (place.piece % 64);
                shown[cell] = place.colours;
            }
        }
        debug_assert!(
            (0..board.len()).all(|cell| board[cell].is_some() || order.contains(&cell)),
            "every open cell is in the order"
        );
        let colours = 1 + pl
            .list
            .iter()
            .flat_map(|place| place.colours)
            .max()
            .unwrap_or(0) as usize;
        let open = order.iter().filter(|&&cell| board[cell].is_none()).count();
        let keys = if open.saturating_mul(colours * colours) <= MAX_TABLE_KEYS {
            colours * colours
        } else {
            colours
        };
        let mut placed_before: Vec<bool> = board.iter().map(Option::is_some).collect();
        let mut steps = Vec::with_capacity(open);
        let mut offsets = Vec::with_capacity(open * keys + 1);
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut chained: Vec<Candidate> = Vec::new();
        offsets.push(0);
        for &cell in order {
            if board[cell].is_some() {
                continue;
            }
            // Placed neighbours as (neighbour, this cell's side facing it).
            let placed: Vec<(usize, usize)> = (p.across(cell).into_iter().enumerate())
                .filter_map(|(side, nb)| Some((nb?, side)))
                .filter(|&(nb, _)| placed_before[nb])
                .collect();
            let anchored = if keys == colours { 1 } else { 2 };
            let mut anchors = [(blank, 0); 2];
            let mut sides = [None; 2];
            for (k, &(nb, side)) in placed.iter().take(anchored).enumerate() {
                anchors[k] = (nb, (side + 2) % 4);
                sides[k] = Some(side);
            }
            let key_of = |c: Colours| {
                let [a, b] = sides.map(|s| s.map_or(0, |s| c[s] as usize));
                if keys == colours { a } else { a * colours + b }
            };
            let mut mine: Vec<Candidate> = (pl.by_cell[cell].iter())
                .map(|&v| {
                    let place = pl.list[v as usize];
                    Candidate {
                        place: v,
                        piece: place.piece,
                        colours: place.colours,
                        next: NO_CANDIDATE,
                    }
                })
                .collect();
            // Grouped by key, list order (piece, then turn) kept within a key: a stable sort.
            mine.sort_by_key(|c| key_of(c.colours));
            // A piece's first turn in a key is in the key's list; its other turns there (a
            // piece with three sides alike shows the same pair twice) follow it in a chain,
            // stored after every list (`next` counts in `chained` until then).
            let mut i = 0;
            for key in 0..keys {
                let start = candidates.len();
                // The last entry of the chain of the piece listed last: (in `chained`?, index).
                let mut tail = (false, 0);
                while i < mine.len() && key_of(mine[i].colours) == key {
                    let c = mine[i];
                    i += 1;
                    if candidates.len() > start && candidates[candidates.len() - 1].piece == c.piece
                    {
                        let j = chained.len() as u32;
                        match tail {
                            (false, m) => candidates[m].next = j,
                            (true, t) => chained[t].next = j,
                        }
                        tail = (true, j as usize);
                        chained.push(c);
                    } else {
                        tail = (false, candidates.len());
                        candidates.push(c);
                    }
                }
                offsets.push(candidates.len() as u32);
            }
            steps.push(Step {
                cell,
                anchors,
                extra: placed[anchored.min(placed.len())..].to_vec(),
            });
            placed_before[cell] = true;
        }
        let lists = candidates.len() as u32;
        for c in candidates.iter_mut().chain(chained.iter_mut()) {
            if c.next != NO_CANDIDATE {
                c.next += lists;
            }
        }
        candidates.extend(chained);
        // Twins: the same colours up to rotation, and the same cells open to them (the held
        // first corner is confined to its corner, so a twin of it is not interchangeable).
        let canonical: Vec<([u8; 4], Vec<u32>)> = (p.pieces().iter().enumerate())
            .map(|(piece, &c)| {
                let mut cells: Vec<u32> = (pl.by_piece[piece].iter())
                    .map(|&v| pl.list[v as usize].cell)
                    .collect();
                cells.dedup();
                let turned = (0..4).map(|k| rotated(c, k)).min().unwrap_or(c);
                (turned, cells)
            })
            .collect();
        let twin_before = (0..canonical.len())
            .map(|k| {
                (0..k)
                    .rev()
                    .find(|&q| canonical[q] == canonical[k])
                    .map_or(NO_PIECE, |q| q as u32)
            })
            .collect::<Vec<u32>>();
        let n = steps.len();
        let masks = Masks::of((n, keys), &offsets, &candidates, &twin_before, &used);
        let joints = JointBudgets::new(p, pl, &board, &used, order);
        let stand = if joints.feasible() {
            Stand::Paused
        } else {
            Stand::Exhausted
        };
        debug_assert!(masks.words <= MASK_PIECES.div_ceil(64));
        let mut s = Search {
            masks,
            joints,
            every_piece: checks == JointChecks::EveryPiece,
            placed: vec![0; n],
            chain: vec![NO_CANDIDATE; n],
            lists,
            turns: p.fixed().is_empty().then_some((rows, cols)),
            seen: HashSet::new(),
            twin_before,
            steps,
            keys,
            colours,
            offsets,
            candidates,
            shown,
            board,
            used,
            depth: 0,
            cursor: vec![0; n],
            end: vec![0; n],
            stand,
            nodes: 0,
            budget: node_budget,
            want: want.max(1),
            found: Vec::new(),
        };
        match s.masks.words {
            0 => s.enter::<0>(0),
            1 => s.enter::<1>(0),
            2 => s.enter::<2>(0),
            3 => s.enter::<3>(0),
            _ => s.enter::<4>(0),
        }
        s
    }
}

#[cfg(test)]
mod tests;
