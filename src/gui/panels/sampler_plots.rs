//! Small plots in the solver panel that show what a sampler does: the SQA schedule (s, the
//! transverse field and the slice coupling over the run, from the parameters being edited),
//! the tempering ladder with its swap rates (from the last run's info) and the best energy
//! over time while a run goes.

use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints};

use crate::params::ParamValues;
use crate::sampler::{QuantumAnnealing, SqaPlan};

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
        .x_axis_label("sweep")
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
        .x_axis_label("replica pair (hot → cold)")
        .y_axis_label("swap rate")
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
        .x_axis_label("s")
        .y_axis_label("best E")
        .allow_scroll(false)
        .allow_drag(false)
        .show(ui, |plot| {
            plot.line(Line::new("best energy", PlotPoints::from(history.to_vec())));
        });
}
