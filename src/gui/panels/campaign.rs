//! A campaign's table in its own window (File ▸ Open campaign table…): the two charts the CLI
//! writes beside the table — TTS99 against the swept value per instance with the optima, the
//! median and quartiles, and the optimum against the problem size with the fitted exponent —
//! with a read-out under the pointer and *Save plot…* (PNG/SVG).

use std::path::{Path, PathBuf};

use crate::campaign::CampaignRow;
use crate::gui::file_actions::FileAction;
use crate::gui::shared::{Command, Shared};
use crate::sweep::Metric;

/// Largest campaign table the window reads (about 100 000 rows).
const MAX_TABLE_BYTES: u64 = 256 << 20;

/// Which of the campaign's charts is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CampaignChart {
    /// TTS99 against the swept value, per instance.
    #[default]
    PerInstance,
    /// The optimum against the problem size.
    Scaling,
}

/// The open campaign: its rows, its axis, and the chart shown.
#[derive(Default)]
pub struct CampaignView {
    /// The table's rows (table order).
    pub rows: Vec<CampaignRow>,
    /// The swept axis's name.
    pub axis: String,
    /// The file it came from.
    pub path: Option<PathBuf>,
    /// The chart shown.
    pub chart: CampaignChart,
    /// The metric drawn (TTS99 in seconds, or in sweeps).
    pub metric: Option<Metric>,
    /// The window is open.
    pub open: bool,
    /// The chart last drawn and what it was drawn for (built once per choice, not per frame:
    /// a large table's grouping and quartiles are not frame work).
    drawn: Option<(
        (CampaignChart, Metric),
        crate::render::chart::LineChart,
        crate::render::Drawing,
    )>,
}

impl CampaignView {
    /// Reads a campaign's `campaign.json` (its axis from the `settings.json` beside it, else
    /// from the rows), or says why not.
    pub fn load(&mut self, path: &Path) -> Result<(), String> {
        let bytes = crate::io::read_bytes_checked(path, MAX_TABLE_BYTES, |_| Ok(()))
            .map_err(|e| e.to_string())?;
        let rows: Vec<CampaignRow> = serde_json::from_slice(&bytes).map_err(|e| {
            format!(
                "{}: not a campaign table (campaign.json): {}",
                path.display(),
                crate::io::plain_serde_message(&e.to_string())
            )
        })?;
        if rows.is_empty() {
            return Err(format!("{}: the campaign has no rows yet", path.display()));
        }
        let settings = path.with_file_name("settings.json");
        let axis = std::fs::read_to_string(&settings)
            .ok()
            .and_then(|t| serde_json::from_str::<crate::campaign::CampaignSettings>(&t).ok())
            .map(|s| s.axis)
            .or_else(|| rows[0].point.params.keys().next().cloned())
            .unwrap_or_else(|| "value".into());
        let in_sweeps = rows.iter().any(|r| r.point.tts99_sweeps.is_some());
        *self = CampaignView {
            rows,
            axis,
            path: Some(path.to_path_buf()),
            chart: CampaignChart::PerInstance,
            metric: Some(if in_sweeps {
                Metric::Tts99Sweeps
            } else {
                Metric::Tts99
            }),
            open: true,
            drawn: None,
        };
        Ok(())
    }

    fn metric(&self) -> Metric {
        self.metric.unwrap_or(Metric::Tts99)
    }

    /// The chart shown, as a line chart.
    pub fn line_chart(&self) -> crate::render::chart::LineChart {
        match self.chart {
            CampaignChart::PerInstance => {
                crate::campaign::tts_chart(&self.rows, &self.axis, self.metric())
            }
            CampaignChart::Scaling => crate::campaign::scaling_chart(&self.rows, self.metric()),
        }
    }

    /// The chart shown, as a drawing (for *Save plot…*).
    pub fn plot_drawing(&self) -> crate::render::Drawing {
        self.line_chart().drawing()
    }

    /// The window, when a campaign is open.
    pub fn ui(&mut self, ctx: &egui::Context, s: &mut Shared) {
        if !self.open || self.rows.is_empty() {
            return;
        }
        let mut open = true;
        let instances = {
            let mut names: Vec<&str> = self.rows.iter().map(|r| r.instance.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            names.len()
        };
        egui::Window::new("Campaign")
            .open(&mut open)
            .default_rect(egui::Rect::from_min_size(
                egui::pos2(300.0, 40.0),
                egui::vec2(780.0, 560.0),
            ))
            .show(ctx, |ui| {
                ui.label(format!(
                    "{} rows: {instances} instances, axis {}{}",
                    self.rows.len(),
                    self.axis,
                    self.path
                        .as_ref()
                        .map_or(String::new(), |p| format!(" — {}", p.display()))
                ));
                ui.horizontal(|ui| {
                    ui.selectable_value(
                        &mut self.chart,
                        CampaignChart::PerInstance,
                        "TTS99 per instance",
                    );
                    ui.selectable_value(&mut self.chart, CampaignChart::Scaling, "scaling");
                    let mut metric = self.metric();
                    egui::ComboBox::from_label("metric")
                        .selected_text(metric.name())
                        .show_ui(ui, |ui| {
                            for m in [Metric::Tts99, Metric::Tts99Sweeps] {
                                ui.selectable_value(&mut metric, m, m.name());
                            }
                        });
                    self.metric = Some(metric);
                    if ui.button("Save plot…").clicked() {
                        s.send(Command::Dialog(FileAction::ExportCampaignPlot));
                    }
                });
                let wanted = (self.chart, self.metric());
                if self.drawn.as_ref().is_none_or(|d| d.0 != wanted) {
                    let chart = self.line_chart();
                    let drawing = chart.drawing();
                    self.drawn = Some((wanted, chart, drawing));
                }
                let Some((_, chart, drawing)) = &self.drawn else {
                    return;
                };
                let size = ui.available_size();
                let height = (size.x * drawing.height / drawing.width).min(size.y.max(200.0));
                let (rect, response) =
                    ui.allocate_exact_size(egui::vec2(size.x, height), egui::Sense::hover());
                response.widget_info(|| {
                    egui::WidgetInfo::labeled(egui::accesskit::Role::Canvas, true, "campaign plot")
                });
                let placed =
                    crate::gui::painter::paint(ui.painter(), drawing, rect, s.fonts_installed);
                if let Some(text) = response
                    .hover_pos()
                    .and_then(|pos| chart.x_at(placed.to_units(pos)))
                    .and_then(|x| self.readout(x))
                {
                    response.on_hover_text_at_pointer(text);
                }
            });
        self.open = open;
    }

    /// What the rows say at the swept value nearest `x` (per instance chart), or about the
    /// instance of size nearest `x` (scaling chart).
    fn readout(&self, x: f64) -> Option<String> {
        let metric = self.metric();
        let near = |a: f64, b: f64| (a - x).abs().total_cmp(&(b - x).abs());
        match self.chart {
            CampaignChart::PerInstance => {
                let v = self
                    .rows
                    .iter()
                    .map(|r| r.point.value)
                    .min_by(|a, b| near(*a, *b))?;
                let at: Vec<String> = self
                    .rows
                    .iter()
                    .filter(|r| r.point.value == v)
                    .map(|r| {
                        format!(
                            "{} ({}): {}",
                            r.instance,
                            r.sampler,
                            metric
                                .of(&r.point)
                                .map_or("no valid read".into(), |t| format!("{t:.4e}"))
                        )
                    })
                    .collect();
                Some(format!(
                    "{} = {}\n{}",
                    self.axis,
                    crate::io::number_text(v),
                    at.join("\n")
                ))
            }
            CampaignChart::Scaling => {
                let best = crate::campaign::optima(&self.rows, metric);
                let (sampler, n, t) = best.iter().min_by(|a, b| near(a.1 as f64, b.1 as f64))?;
                Some(format!("{sampler}: {n} variables, optimal TTS99 {t:.4e}"))
            }
        }
    }
}
