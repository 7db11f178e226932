//! The QUBO matrix as a picture: variables ordered by label, entries binned into at most
//! `MAX_SIDE`² pixels (max |Q| per block, sign kept), a diverging colour map with a symmetric
//! range. Pure data (no egui): built off the UI thread, uploaded as a texture once per model.

use crate::qubo::{Label, Qubo};

/// Largest texture side; bigger models are binned.
pub const MAX_SIDE: usize = 2048;

/// How the inspector orders variables along both axes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Order {
    /// As the model numbers them.
    #[default]
    Index,
    /// By label name, then indices (x[r][c][d]: cell blocks).
    Label,
    /// By label name, then the last index first (x[r][c][d]: one block per digit).
    LastIndexFirst,
}

impl Order {
    /// Every order, as the inspector's menu lists them.
    pub const ALL: [Order; 3] = [Order::Index, Order::Label, Order::LastIndexFirst];
    /// The order's name in the menu.
    pub fn name(self) -> &'static str {
        match self {
            Order::Index => "index",
            Order::Label => "label",
            Order::LastIndexFirst => "label, last index first",
        }
    }
}

/// Display position → variable.
pub fn ordering(labels: Option<&[Label]>, n: usize, order: Order) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..n as u32).collect();
    let Some(labels) = labels.filter(|l| l.len() == n) else {
        return idx;
    };
    match order {
        Order::Index => {}
        Order::Label => idx.sort_by(|&a, &b| labels[a as usize].cmp(&labels[b as usize])),
        Order::LastIndexFirst => idx.sort_by_key(|&v| {
            let l = &labels[v as usize];
            let mut key = l.index.clone();
            key.rotate_right(1);
            (l.name.clone(), key)
        }),
    }
    idx
}

/// A rasterised matrix.
pub struct Raster {
    /// Pixels per side.
    pub side: usize,
    /// Variables per pixel (1 = exact).
    pub bin: usize,
    /// RGBA, row-major, `side`² pixels.
    pub rgba: Vec<u8>,
    /// The value each pixel shows (the block's entry of largest magnitude).
    pub values: Vec<f32>,
    /// Largest |Q_ij| (the colour scale's end).
    pub max_abs: f64,
    /// Whether colours follow log(1 + |Q|) rather than |Q|.
    pub log_scale: bool,
}

/// Diverging colour: blue (negative) – white (0) – red (positive); `t` ∈ [−1, 1].
pub fn diverging(t: f32) -> [u8; 3] {
    let t = t.clamp(-1.0, 1.0);
    let (r, g, b) = if t >= 0.0 {
        (1.0, 1.0 - 0.85 * t, 1.0 - 0.9 * t)
    } else {
        let s = -t;
        (1.0 - 0.9 * s, 1.0 - 0.7 * s, 1.0)
    };
    [(r * 255.0) as u8, (g * 255.0) as u8, (b * 255.0) as u8]
}

/// Maps a value to [−1, 1] on a linear or logarithmic scale symmetric around 0.
pub fn scaled(v: f64, max_abs: f64, log: bool) -> f32 {
    if max_abs <= 0.0 || v == 0.0 {
        return 0.0;
    }
    let t = if log {
        (1.0 + v.abs()).ln() / (1.0 + max_abs).ln()
    } else {
        v.abs() / max_abs
    };
    (t.min(1.0) as f32) * v.signum() as f32
}

/// The matrix (upper triangle + diagonal, in display order) as pixels.
pub fn rasterize(q: &Qubo, order: &[u32], log_scale: bool) -> Raster {
    let n = q.num_variables();
    let bin = n.div_ceil(MAX_SIDE).max(1);
    let side = n.div_ceil(bin).max(1);
    let mut pos = vec![0u32; n];
    for (p, &v) in order.iter().enumerate() {
        pos[v as usize] = p as u32;
    }
    // Per block, the entry of largest magnitude (sign kept).
    let mut block = vec![0f64; side * side];
    let mut put = |a: usize, b: usize, v: f64| {
        let (r, c) = (a / bin, b / bin);
        let cell = &mut block[r * side + c];
        if v.abs() > cell.abs() {
            *cell = v;
        }
    };
    for (i, &v) in q.linear().iter().enumerate() {
        let p = pos[i] as usize;
        put(p, p, v);
    }
    for c in q.couplings() {
        let (a, b) = (pos[c.i as usize] as usize, pos[c.j as usize] as usize);
        put(a.min(b), a.max(b), c.value);
    }
    let max_abs = block.iter().fold(0f64, |m, v| m.max(v.abs()));
    let mut rgba = Vec::with_capacity(side * side * 4);
    for &v in &block {
        let [r, g, b] = diverging(scaled(v, max_abs, log_scale));
        rgba.extend_from_slice(&[r, g, b, 255]);
    }
    let values = block.iter().map(|&v| v as f32).collect();
    Raster {
        side,
        bin,
        rgba,
        values,
        max_abs,
        log_scale,
    }
}

/// Figures the inspector shows beside the picture.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Variables.
    pub n: usize,
    /// Non-zero couplings.
    pub couplings: usize,
    /// Non-zero couplings / possible pairs.
    pub density: f64,
    /// Smallest and largest linear coefficient.
    pub linear_range: (f64, f64),
    /// Smallest and largest non-zero coupling.
    pub coupling_range: (f64, f64),
    /// Constant term.
    pub offset: f64,
}

/// The inspector's figures for a model (one pass over the couplings).
pub fn stats(q: &Qubo) -> Stats {
    let n = q.num_variables();
    let range = |it: &mut dyn Iterator<Item = f64>| {
        it.fold(None, |acc: Option<(f64, f64)>, v| {
            Some(acc.map_or((v, v), |(a, b)| (a.min(v), b.max(v))))
        })
        .unwrap_or((0.0, 0.0))
    };
    let couplings = q.num_interactions();
    let pairs = (n as f64) * (n as f64 - 1.0) / 2.0;
    Stats {
        n,
        couplings,
        density: if pairs > 0.0 {
            couplings as f64 / pairs
        } else {
            0.0
        },
        linear_range: range(&mut q.linear().iter().copied()),
        coupling_range: range(
            &mut q
                .couplings()
                .iter()
                .filter(|c| c.value != 0.0)
                .map(|c| c.value),
        ),
        offset: q.offset(),
    }
}

/// Q_ij of the model (i = j: the linear term), by binary search in the sorted couplings.
pub fn entry(q: &Qubo, i: usize, j: usize) -> f64 {
    if i == j {
        return q.linear()[i];
    }
    let key = (i.min(j) as u32, i.max(j) as u32);
    q.couplings()
        .binary_search_by(|c| (c.i, c.j).cmp(&key))
        .map_or(0.0, |k| q.couplings()[k].value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_models_map_one_pixel_per_entry() {
        let q = Qubo::new(vec![-2.0, 0.0, 1.0], vec![(0, 2, 4.0)], 0.0).unwrap();
        let r = rasterize(&q, &[0, 1, 2], false);
        assert_eq!((r.side, r.bin, r.max_abs), (3, 1, 4.0));
        let px = |row: usize, col: usize| &r.rgba[(row * 3 + col) * 4..(row * 3 + col) * 4 + 3];
        assert_eq!(px(0, 2), &diverging(1.0));
        assert_eq!(px(2, 0), &[255, 255, 255], "lower triangle stays blank");
        assert!(px(0, 0)[2] > px(0, 0)[0], "negative is blue");
        assert_eq!(entry(&q, 2, 0), 4.0);
        assert_eq!(entry(&q, 1, 2), 0.0);
    }

    #[test]
    fn big_models_are_binned_keeping_the_largest_magnitude() {
        let n = MAX_SIDE * 2 + 1;
        let q = Qubo::new(
            vec![0.0; n],
            vec![(0, 1, -1.0), (1, 3, 7.0), (2, 3, 2.0)],
            0.0,
        )
        .unwrap();
        let order: Vec<u32> = (0..n as u32).collect();
        let r = rasterize(&q, &order, true);
        assert_eq!(r.bin, 3);
        assert_eq!(r.side, n.div_ceil(3));
        assert_eq!(&r.rgba[4..7], &diverging(1.0), "block (0,1) holds the 7");
    }

    #[test]
    fn orderings_group_by_label() {
        let labels: Vec<Label> = [[0, 0, 1], [0, 0, 0], [0, 1, 0], [0, 1, 1]]
            .iter()
            .map(|i| Label::new("x", i))
            .collect();
        assert_eq!(ordering(Some(&labels), 4, Order::Label), vec![1, 0, 2, 3]);
        assert_eq!(
            ordering(Some(&labels), 4, Order::LastIndexFirst),
            vec![1, 2, 0, 3]
        );
        assert_eq!(ordering(None, 4, Order::Label), vec![0, 1, 2, 3]);
    }
}
