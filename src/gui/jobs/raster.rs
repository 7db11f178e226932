//! The inspector's heatmap rasterised on its own thread (`HeatmapJob`).

use super::*;

/// A built heatmap: the raster, the display order it used, and the model's figures.
pub struct Heatmap {
    /// Block maxima, one pixel per block.
    pub raster: Raster,
    /// The texture's pixels, converted on the worker (taken when uploaded).
    pub image: Option<egui::ColorImage>,
    /// Display position → variable index.
    pub order: Vec<u32>,
    /// The figures beside the picture.
    pub stats: heatmap::Stats,
}

/// A heatmap being rasterised for model `version`.
pub struct HeatmapJob {
    /// The document version the heatmap is for (stale results are dropped).
    pub version: u64,
    pub(super) rx: Receiver<Heatmap>,
}

impl HeatmapJob {
    /// Rasterises `model` on a worker thread in `order`; `repaint` wakes the UI when done.
    pub fn start(
        model: Arc<StoredModel>,
        labels: Option<Vec<crate::qubo::Label>>,
        order: Order,
        log: bool,
        version: u64,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let n = model.qubo.num_variables();
            let ord = heatmap::ordering(labels.as_deref(), n, order);
            let raster = heatmap::rasterize(&model.qubo, &ord, log);
            let image =
                egui::ColorImage::from_rgba_unmultiplied([raster.side, raster.side], &raster.rgba);
            let _ = tx.send(Heatmap {
                raster,
                image: Some(image),
                order: ord,
                stats: heatmap::stats(&model.qubo),
            });
            repaint();
        });
        HeatmapJob { version, rx }
    }

    /// The heatmap, once the worker has finished.
    pub fn poll(&self) -> Option<Heatmap> {
        self.rx.try_recv().ok()
    }
}
