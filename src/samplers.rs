//! The sampler registry: every sampler the workbench offers, local (`sampler/`) and remote
//! (`remote/`), each by its self-description (`SamplerEntry`), and `auto`, the rule that picks
//! one for a job. It sits above both layers, so neither imports the other's list; the CLI's
//! flags, the window's sampler list and widgets, settings by name and the sampler contract all
//! read `SAMPLERS`.

use crate::params::ParamValues;
use crate::sampler::{self, SampleError, Sampler, SamplerEntry};

/// Every sampler the workbench offers, local then remote, in the order a menu lists them. A new
/// sampler is one file (in `sampler/` or `remote/`) plus one line here.
pub const SAMPLERS: &[SamplerEntry] = &[
    sampler::annealing::ENTRY,
    sampler::tempering::ENTRY,
    sampler::population::ENTRY,
    sampler::sqa::ENTRY,
    sampler::tabu::ENTRY,
    sampler::exact::ENTRY,
    crate::remote::hybrid::ENTRY,
    crate::remote::qpu::ENTRY,
    crate::remote::digital_annealer::ENTRY,
];

/// The sampler name that lets the workbench choose (`choose`): the CLI's and the GUI's default.
pub const AUTO: &str = "auto";

/// A sampler chosen for a model, and why (shown to the user).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// A registered sampler's name.
    pub name: &'static str,
    /// One sentence for the output.
    pub reason: &'static str,
}

/// Models this small are enumerated: exact answers in well under a second.
pub const EXACT_UP_TO: usize = 20;

/// What `auto` weighs when it picks a sampler for a job.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Task {
    /// Variables of the model.
    pub num_variables: usize,
    /// A valid solution's energy is known (a solved puzzle), so a search can stop there.
    pub has_target: bool,
    /// The model is stored (not only a structure: too large to store).
    pub stored: bool,
    /// The job wants per-cell probabilities (Minesweeper): many independent reads, no early
    /// stop.
    pub marginals: bool,
}

/// The default sampler for `task`.
pub fn choose(task: Task) -> Choice {
    if task.marginals {
        Choice {
            name: "sa",
            reason: "probabilities are shares of reads: simulated annealing gives many \
                     independent reads quickly (tempering would stop at the first valid state, \
                     enumeration lists each state once)",
        }
    } else if task.stored && task.num_variables <= EXACT_UP_TO {
        Choice {
            name: "exact",
            reason: "small enough to enumerate every state: exact ground states",
        }
    } else if task.has_target {
        Choice {
            name: "pt",
            reason: "a puzzle: a valid solution's energy is known, and each of parallel \
                     tempering's ladders searches until it reaches it (with two-way moves where \
                     the groups are wide: pieces swap and turn; one-hot moves where no two \
                     families form a permutation: a Numberlink cell changes path); it solves the full Sudoku \
                     models and random 6×6 edge-matching boards that annealing at default \
                     settings does not",
        }
    } else if !task.stored {
        Choice {
            name: "sa",
            reason: "too large to store and no known solution to stop at: annealing on the \
                     model's structure (running sums per group, no stored couplings) gives \
                     many reads quickly",
        }
    } else {
        Choice {
            name: "sa",
            reason: "no known target energy to stop at: simulated annealing gives many \
                     independent reads quickly",
        }
    }
}

/// The sampler a name stands for: `AUTO` resolves by `choose` (with its reason), any other name
/// is itself.
pub fn resolve(name: &str, task: Task) -> (String, Option<&'static str>) {
    if name == AUTO {
        let c = choose(task);
        (c.name.to_string(), Some(c.reason))
    } else {
        (name.to_string(), None)
    }
}

/// The registered sampler of that name.
pub fn entry(name: &str) -> Result<&'static SamplerEntry, SampleError> {
    SAMPLERS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| SampleError::UnknownSampler {
            name: name.to_string(),
            available: SAMPLERS
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Builds a sampler by name from parameter values (checked against its description; missing
/// ones take their defaults).
pub fn sampler_from_params(
    name: &str,
    params: &ParamValues,
) -> Result<Box<dyn Sampler>, SampleError> {
    entry(name)?.build_with(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_chooses_by_size_target_and_storage() {
        let task = |n, has_target, stored| Task {
            num_variables: n,
            has_target,
            stored,
            marginals: false,
        };
        assert_eq!(choose(task(12, true, true)).name, "exact");
        assert_eq!(choose(task(500, true, true)).name, "pt");
        assert_eq!(choose(task(500, false, true)).name, "sa");
        // Probabilities want many independent reads, whatever the size.
        for n in [5, 500] {
            let marginals = Task {
                marginals: true,
                ..task(n, true, true)
            };
            assert_eq!(choose(marginals).name, "sa");
        }
        // A model too large to store runs on its structure: tempering when there is a target,
        // annealing when there is none (the full Eternity II).
        assert_eq!(choose(task(12, true, false)).name, "pt");
        assert_eq!(choose(task(155_253, true, false)).name, "pt");
        assert_eq!(choose(task(155_253, false, false)).name, "sa");
        let (name, reason) = resolve(AUTO, task(155_253, false, false));
        assert_eq!(name, "sa");
        assert!(reason.unwrap().contains("too large to store"));
        assert_eq!(
            resolve("tabu", task(10, true, false)),
            ("tabu".to_string(), None)
        );
    }
}
