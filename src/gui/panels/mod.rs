//! The window's panels. Each is a state struct with a `ui(ui, shared)` function; cross-panel
//! actions go through `Shared` (state) and `Command`s (actions the app applies after layout).

mod campaign;
mod campaign_form;
mod inspector;
mod puzzle;
mod remote;
mod results;
mod sampler_plots;
mod solver;
mod sweep;
mod sweep_axes;

pub use campaign::{CampaignChart, CampaignView};
pub use campaign_form::CampaignForm;
pub use inspector::InspectorPanel;
pub use puzzle::PuzzlePanel;
pub use remote::RemoteSection;
pub use results::ResultsPanel;
pub use solver::SolverPanel;
pub use sweep::SweepPanel;
