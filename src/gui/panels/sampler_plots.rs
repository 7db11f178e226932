//! Small plots in the solver panel that show what a sampler does: the SQA schedule (s, the
//! transverse field and the slice coupling over the run, from the parameters being edited),
//! the tempering ladder with its swap rates (from the last run's info) and the best energy
//! over time while a run goes.

use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints};

use crate::params::ParamValues;
use crate::sampler::{QuantumAnnealing, SqaPlan};

/// Grid marks at round steps (1, 2 or 5 × 10^k) about `ROUND_TICK_POINTS` apart, each one
/// labelled (see `round_axes`): egui_plot's default grid labels only its coarsest marks, which
/// on a narrow histogram is a single tick.
pub fn round_grid(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    let (lo, hi) = input.bounds;
    // base_step_size is the plot's smallest grid spacing (8 points) in data units.
    let per_point = input.base_step_size / GRID_SPACING_MIN as f64;
    let target =
        (((hi - lo) / (per_point * ROUND_TICK_POINTS as f64)).round() as usize).clamp(2, 12);
    let ticks = crate::render::chart::nice_ticks(lo, hi, target);
    let step = ticks
        .windows(2)
        .map(|w| w[1] - w[0])
        .next()
        .unwrap_or((hi - lo).abs().max(1e-12));
    ticks
        .into_iter()
        .map(|value| egui_plot::GridMark {
            value,
            step_size: step,
        })
        .collect()
}

/// The axes for `round_grid`: labels shown from 24 points apart (egui_plot hides x labels
/// closer than 60).
pub fn round_axes<'a>(
    x_label: &str,
    y_label: &str,
) -> (egui_plot::AxisHints<'a>, egui_plot::AxisHints<'a>) {
    // As many decimals as the step needs (egui_plot's own rounds 0.5 to "0").
    let format = |mark: egui_plot::GridMark, _: &std::ops::RangeInclusive<f64>| {
        let decimals = (-mark.step_size.abs().log10().floor()).max(0.0) as usize;
        let text = format!("{:.*}", decimals.min(12), mark.value);
        match text.strip_prefix('-') {
            Some(rest) if rest.trim_start_matches(['0', '.']).is_empty() => rest.to_string(),
            _ => text,
        }
    };
    (
        egui_plot::AxisHints::new_x()
            .label(x_label)
            .formatter(format)
            .label_spacing(24.0..=32.0),
        egui_plot::AxisHints::new_y()
            .label(y_label)
            .formatter(format)
            .label_spacing(16.0..=24.0),
    )
}

/// egui_plot's smallest grid spacing (its default), which `round_grid` relies on.
pub const GRID_SPACING_MIN: f32 = 8.0;
/// About how far apart `round_grid` puts its marks, in points.
const ROUND_TICK_POINTS: f32 = 36.0;

/// Points per schedule curve: enough for a smooth line at any run length.
const SCHEDULE_POINTS: usize = 200;

/// The SQA schedule these parameters give, or why they give none.
pub fn sqa_plan(params: &ParamValues) -> Result<SqaPlan, String> {
    let set: ParamValues = params
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    serde_json::from_value::<QuantumAnnealing>(serde_json::Value::Object(set))
        .map(|q| q.plan())
        .map_err(|e| e.to_string())
}

/// s, Γ(1 − s) and the slice coupling K over the sweeps.
pub fn sqa_schedule_ui(ui: &mut egui::Ui, params: &ParamValues) {
    let plan = match sqa_plan(params) {
        Ok(p) => p,
        Err(e) => {
            ui.weak(format!("no schedule to draw: {e}"));
            return;
        }
    };
    let last = plan.num_sweeps.saturating_sub(1);
    let at: Vec<(f64, (f64, f64, f64))> = (0..=SCHEDULE_POINTS)
        .map(|k| {
            let sweep = last * k / SCHEDULE_POINTS;
            (sweep as f64, plan.at(sweep))
        })
        .collect();
    let curve = |f: fn(&(f64, f64, f64)) -> f64| -> PlotPoints {
        at.iter().map(|(x, v)| [*x, f(v)]).collect()
    };
    ui.label("SQA schedule");
    Plot::new("sqa-schedule")
        .height(110.0)
        .legend(Legend::default())
        .custom_x_axes(vec![round_axes("sweep", "").0])
        .custom_y_axes(vec![round_axes("sweep", "").1])
        .x_grid_spacer(round_grid)
        .y_grid_spacer(round_grid)
        .allow_scroll(false)
        .allow_drag(false)
        .show(ui, |plot| {
            plot.line(Line::new("s", curve(|v| v.0)));
            plot.line(Line::new("Γ(1 − s)", curve(|v| v.1)));
            plot.line(Line::new("K (slice coupling)", curve(|v| v.2)));
        });
}

/// The ladder a tempering run used (its β range in words) and each neighbouring pair's swap
/// rate as a bar: even bars mean the pilot placed the β values well.
pub fn pt_ladder_ui(ui: &mut egui::Ui, info: &serde_json::Value) {
    let numbers = |key: &str| -> Vec<f64> {
        info[key]
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_f64()).collect())
            .unwrap_or_default()
    };
    let (betas, swaps) = (numbers("betas"), numbers("swap_acceptance"));
    if betas.is_empty() {
        return;
    }
    ui.label(format!(
        "last run's ladder: β {:.3} … {:.3}, swap rates {:.0}–{:.0} %",
        betas[0],
        betas[betas.len() - 1],
        100.0 * swaps.iter().copied().fold(f64::INFINITY, f64::min),
        100.0 * swaps.iter().copied().fold(0.0, f64::max),
    ));
    Plot::new("pt-ladder")
        .height(90.0)
        .custom_x_axes(vec![round_axes("replica pair (hot → cold)", "swap rate").0])
        .custom_y_axes(vec![round_axes("replica pair (hot → cold)", "swap rate").1])
        .x_grid_spacer(round_grid)
        .y_grid_spacer(round_grid)
        .include_y(0.0)
        .include_y(1.0)
        .allow_scroll(false)
        .allow_drag(false)
        .show(ui, |plot| {
            let bars: Vec<Bar> = swaps
                .iter()
                .enumerate()
                .map(|(k, &a)| Bar::new(k as f64, a).width(0.7))
                .collect();
            plot.bar_chart(BarChart::new("swap rate", bars));
        });
}

/// The best energy seen so far against seconds into the run.
pub fn best_energy_ui(ui: &mut egui::Ui, history: &[[f64; 2]]) {
    if history.len() < 2 {
        return;
    }
    Plot::new("best-energy")
        .height(90.0)
        .custom_x_axes(vec![round_axes("s", "best E").0])
        .custom_y_axes(vec![round_axes("s", "best E").1])
        .x_grid_spacer(round_grid)
        .y_grid_spacer(round_grid)
        .allow_scroll(false)
        .allow_drag(false)
        .show(ui, |plot| {
            plot.line(Line::new("best energy", PlotPoints::from(history.to_vec())));
        });
}

#[cfg(test)]
mod round_grid_tests {
    use super::*;

    /// A narrow histogram (270 points for energies −13…−1) gets several labelled round ticks,
    /// where egui_plot's default grid labelled one.
    #[test]
    fn narrow_axes_get_several_round_ticks() {
        let per_point = 12.0 / 270.0;
        let marks = round_grid(egui_plot::GridInput {
            bounds: (-13.0, -1.0),
            base_step_size: per_point * GRID_SPACING_MIN as f64,
        });
        let values: Vec<f64> = marks.iter().map(|m| m.value).collect();
        assert!(values.len() >= 4, "{values:?}");
        assert!(values.iter().all(|v| v.fract() == 0.0), "{values:?}");
        let step = marks[0].step_size;
        // Every mark is far enough apart for its label to show (round_axes: from 24 points).
        assert!(step / per_point >= 24.0, "{step}");
    }
}
