//! The `registry!` macro: from one line per kind, `Kind`, `AnyPuzzle`, `AnySolution` and every
//! dispatch `match` (invoked once, in `registry.rs`).

/// The registry: one line per kind — `Variant = "name" => type, example "FILE"` (the example a
/// path below `puzzles/`, compiled in). Generates `Kind` (with `ALL`, in menu order, and its
/// names), `AnyPuzzle`, `AnySolution` and every dispatch, so a new kind is its folder plus one
/// line here, and no arm can be forgotten.
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident = $name:literal => $ty:ty, example $example:literal;)+) => {
        /// The puzzle families this build has, named as in files and on the command line.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum Kind {
            $(
                $(#[$doc])*
                #[serde(rename = $name)]
                $variant,
            )+
        }

        impl Kind {
            /// Every registered family, in menu order.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant),+];

            /// The name in files and on the command line.
            pub fn name(self) -> &'static str {
                match self { $(Kind::$variant => $name,)+ }
            }

            /// The kind's example instance (File ▸ New ▸ Example; the window's first document is
            /// the first kind's): the file's first puzzle.
            pub fn example(self) -> AnyPuzzle {
                match self {
                    $(Kind::$variant => {
                        let text = include_str!(concat!("../../puzzles/", $example));
                        let origin = concat!("puzzles/", $example);
                        <$ty>::parse_text(text, origin, &ParseHints::default())
                            .ok()
                            .and_then(|mut all| (!all.is_empty()).then(|| all.swap_remove(0)))
                            .map(|l| AnyPuzzle::$variant(l.puzzle))
                            .expect("the registry's example parses (tests/puzzle_contract.rs)")
                    })+
                }
            }

            /// The example's file, below `puzzles/`.
            pub fn example_file(self) -> &'static str {
                match self { $(Kind::$variant => $example,)+ }
            }
        }

        /// Any puzzle, as files (`{"kind": "sudoku", …}`), the CLI and the GUI hold it.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "kind", rename_all = "kebab-case")]
        pub enum AnyPuzzle {
            $(
                #[doc = concat!("A ", stringify!($variant), " instance.")]
                $variant($ty),
            )+
        }

        /// A candidate solution of any kind.
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnySolution {
            $(
                #[doc = concat!("A ", stringify!($variant), " candidate.")]
                $variant(<$ty as Puzzle>::Solution),
            )+
        }

        $(
            impl Variant for $ty {
                fn of(puzzle: &AnyPuzzle) -> Option<&Self> {
                    match puzzle {
                        AnyPuzzle::$variant(p) => Some(p),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
                fn of_mut(puzzle: &mut AnyPuzzle) -> Option<&mut Self> {
                    match puzzle {
                        AnyPuzzle::$variant(p) => Some(p),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            }
        )+

        /// A solution of another kind than the puzzle (a caller's mistake, reported, not a panic).
        #[allow(dead_code)]
        fn kind_mismatch() -> Vec<Violation> {
            vec![Violation {
                constraint: "kind".into(),
                detail: "the solution is of another puzzle kind".into(),
            }]
        }

        impl AnyPuzzle {
            /// The family.
            pub fn kind(&self) -> Kind {
                match self { $(AnyPuzzle::$variant(_) => <$ty as Puzzle>::KIND,)+ }
            }
            /// One-line summary.
            pub fn describe(&self) -> String {
                match self { $(AnyPuzzle::$variant(p) => p.describe(),)+ }
            }
            /// The canonical text form (what `generate -o` and Save write).
            pub fn to_text(&self) -> String {
                match self { $(AnyPuzzle::$variant(p) => p.to_text(),)+ }
            }
            /// Contradictions among the givens.
            pub fn conflicts(&self) -> Vec<Violation> {
                match self { $(AnyPuzzle::$variant(p) => p.conflicts(),)+ }
            }
            /// Facts for designers, within `node_budget` search nodes.
            pub fn design_facts(&self, node_budget: u64) -> DesignFacts<AnySolution> {
                match self {
                    $(AnyPuzzle::$variant(p) => p.design_facts(node_budget).map(AnySolution::$variant),)+
                }
            }
            /// The labelled, re-weightable QUBO.
            pub fn encode(&self, options: &EncodeOptions) -> Result<Encoding, PuzzleError> {
                options.formulation_index(self.kind())?;
                match self { $(AnyPuzzle::$variant(p) => p.encode(options),)+ }
            }
            /// A repaired candidate (`Puzzle::repair`).
            pub fn repair(&self, solution: &AnySolution) -> Option<crate::puzzle::Repaired<AnySolution>> {
                match (self, solution) {
                    $((AnyPuzzle::$variant(p), AnySolution::$variant(s)) => p.repair(s).map(|r| crate::puzzle::Repaired {
                        solution: AnySolution::$variant(r.solution),
                        how: r.how,
                    }),)+
                    _ => None,
                }
            }
            /// The nogoods a candidate shows (`Puzzle::cuts`).
            pub fn cuts(&self, solution: &AnySolution) -> Vec<Vec<Label>> {
                match (self, solution) {
                    $((AnyPuzzle::$variant(p), AnySolution::$variant(s)) => p.cuts(s),)+
                    _ => Vec::new(),
                }
            }
            /// A sample decoded into a candidate solution.
            pub fn decode(&self, encoding: &Encoding, sample: &[u8]) -> AnySolution {
                match self {
                    $(AnyPuzzle::$variant(p) => AnySolution::$variant(p.decode(encoding, sample)),)+
                }
            }
            /// The sample that decodes to `solution`.
            pub fn solution_sample(&self, encoding: &Encoding, solution: &AnySolution) -> Option<Vec<u8>> {
                match (self, solution) {
                    $((AnyPuzzle::$variant(p), AnySolution::$variant(s)) => p.solution_sample(encoding, s),)+
                    _ => None,
                }
            }
            /// Whether a violation is unfinished work rather than a conflict (`Puzzle::unfinished`).
            pub fn unfinished(&self, violation: &Violation) -> bool {
                match self { $(AnyPuzzle::$variant(p) => p.unfinished(violation),)+ }
            }
            /// The referee's verdict: every broken rule.
            pub fn check(&self, solution: &AnySolution) -> Vec<Violation> {
                match (self, solution) {
                    $((AnyPuzzle::$variant(p), AnySolution::$variant(s)) => p.check(s),)+
                    _ => kind_mismatch(),
                }
            }
            /// A valid solution's energy, known from the instance alone (`Puzzle::ideal_energy`).
            pub fn ideal_energy(&self, encoding: &Encoding, weights: &Weights) -> Option<f64> {
                match self { $(AnyPuzzle::$variant(p) => p.ideal_energy(encoding, weights),)+ }
            }
            /// The model as a structure priced from counts, when the kind has one.
            pub fn structure(&self, encoding: &Encoding, weights: &Weights) -> Option<GroupedModel> {
                match self { $(AnyPuzzle::$variant(p) => p.structure(encoding, weights),)+ }
            }
            /// The weighted stored model of `encoding`, with its structure attached when the
            /// kind has one (SA then anneals on the structure); for an unstored encoding, the
            /// structure alone (`StoredModel::structure_only`): the kind's, else the encoding's
            /// (`Encoding::structure`).
            pub fn stored_model(&self, encoding: &Encoding, weights: &Weights) -> Result<crate::qubo::StoredModel, crate::qubo::QuboError> {
                let model = match encoding.qubo(weights) {
                    Ok(qubo) => crate::qubo::StoredModel::new(qubo).with_structure(self.structure(encoding, weights)),
                    Err(crate::qubo::QuboError::Unstored(why)) => {
                        encoding.check_weights(weights)?;
                        // The kind's own structure, else the encoding's groups as one (an
                        // encoding without groups has nothing to build it from).
                        match self.structure(encoding, weights) {
                            Some(g) => crate::qubo::StoredModel::structure_only(g),
                            None if encoding.num_groups() > 0 => crate::qubo::StoredModel::structure_only(encoding.structure(weights)?),
                            None => return Err(crate::qubo::QuboError::Unstored(why)),
                        }
                    }
                    Err(e) => return Err(e),
                };
                // The exactly-one groups, for samplers that move inside them: the encoding's,
                // else (an unstored encoding keeps no groups) the structure's.
                let mut one_hot = encoding.one_hot_groups(weights)?;
                if one_hot.is_empty()
                    && let Some(g) = crate::qubo::Model::grouped(&model)
                {
                    one_hot = g.one_hot_groups();
                }
                Ok(model.with_one_hot(one_hot))
            }
            /// The cells a candidate fills as a solution does (`Puzzle::agreement`).
            pub fn agreement(&self, candidate: &AnySolution, solution: &AnySolution) -> Option<crate::puzzle::Agreement> {
                match (self, candidate, solution) {
                    $((AnyPuzzle::$variant(p), AnySolution::$variant(c), AnySolution::$variant(s)) => p.agreement(c, s),)+
                    _ => None,
                }
            }
            /// The solution's score, for kinds scored by degree.
            pub fn score(&self, solution: &AnySolution) -> Option<Score> {
                match (self, solution) {
                    $((AnyPuzzle::$variant(p), AnySolution::$variant(s)) => p.score(s),)+
                    _ => None,
                }
            }
            /// The weight a sweep offers first for this instance: the kind's, where `encoding`
            /// has it, else the encoding's first (a constrained model's families are its own).
            pub fn sweep_weight(&self, encoding: &Encoding) -> String {
                let names = encoding.weight_names();
                let kind = self.kind().default_sweep_weight();
                if names.contains(&kind) {
                    kind.to_string()
                } else {
                    names.first().map_or(kind, |n| n).to_string()
                }
            }
            /// The candidate's objective value, for kinds that optimise one.
            pub fn objective(&self, solution: &AnySolution) -> Option<ObjectiveValue> {
                match (self, solution) {
                    $((AnyPuzzle::$variant(p), AnySolution::$variant(s)) => p.objective(s),)+
                    _ => None,
                }
            }
            /// The labels of the constraints the model states itself (constrained models).
            pub fn constraint_labels(&self) -> Vec<String> {
                match self { $(AnyPuzzle::$variant(p) => p.constraint_labels(),)+ }
            }
            /// Per constraint of `constraint_labels`, whether the candidate satisfies it.
            pub fn satisfied(&self, solution: &AnySolution) -> Vec<bool> {
                match (self, solution) {
                    $((AnyPuzzle::$variant(p), AnySolution::$variant(s)) => p.satisfied(s),)+
                    _ => Vec::new(),
                }
            }
            /// The exact per-cell probabilities (kinds that have them).
            pub fn exact_probabilities(&self, node_budget: u64) -> Option<Result<CellProbabilities, PuzzleError>> {
                match self { $(AnyPuzzle::$variant(p) => p.exact_probabilities(node_budget),)+ }
            }
            /// Per-cell probabilities from decoded samples and their read counts (kinds that
            /// have them; candidates of another kind are ignored).
            pub fn sampled_probabilities(&self, candidates: &[(&AnySolution, u64)]) -> Option<CellProbabilities> {
                match self {
                    $(AnyPuzzle::$variant(p) => {
                        let own: Vec<_> = candidates
                            .iter()
                            .filter_map(|(s, n)| match s {
                                AnySolution::$variant(s) => Some((s, *n)),
                                _ => None,
                            })
                            .collect();
                        p.sampled_probabilities(&own)
                    })+
                }
            }
            /// The picture with per-cell probabilities shown.
            pub fn draw_probabilities(&self, solution: Option<&AnySolution>, probabilities: &CellProbabilities) -> Drawing {
                match (self, solution) {
                    $((AnyPuzzle::$variant(p), Some(AnySolution::$variant(s))) => p.draw_probabilities(Some(s), probabilities),
                    (AnyPuzzle::$variant(p), _) => p.draw_probabilities(None, probabilities),)+
                }
            }
            /// The exact classical solution, within `node_budget`.
            pub fn solve_classically(&self, node_budget: u64) -> Reference<AnySolution> {
                match self {
                    $(AnyPuzzle::$variant(p) => p.solve_classically(node_budget).map(AnySolution::$variant),)+
                }
            }
            /// The solution's one-line form.
            pub fn solution_to_string(&self, solution: &AnySolution) -> String {
                match (self, solution) {
                    $((AnyPuzzle::$variant(p), AnySolution::$variant(s)) => p.solution_to_string(s),)+
                    _ => String::new(),
                }
            }
            /// The solution as JSON.
            pub fn solution_to_json(&self, solution: &AnySolution) -> serde_json::Value {
                match (self, solution) {
                    $((AnyPuzzle::$variant(p), AnySolution::$variant(s)) => p.solution_to_json(s),)+
                    _ => serde_json::Value::Null,
                }
            }
            /// Reads a solution (one-line form or JSON).
            pub fn parse_solution(&self, text: &str) -> Result<AnySolution, PuzzleError> {
                match self {
                    $(AnyPuzzle::$variant(p) => p.parse_solution(text).map(AnySolution::$variant),)+
                }
            }
            /// The picture in a chosen style, with probabilities when given.
            pub fn draw_styled(&self, solution: Option<&AnySolution>, probabilities: Option<&CellProbabilities>, style: &picture::DrawStyle) -> Drawing {
                match (self, solution) {
                    $(
                        (AnyPuzzle::$variant(p), Some(AnySolution::$variant(s))) => p.draw_styled(Some(s), probabilities, style),
                        (AnyPuzzle::$variant(p), _) => p.draw_styled(None, probabilities, style),
                    )+
                }
            }
            /// The picture, with a candidate solution if given (one of another kind is ignored).
            pub fn draw(&self, solution: Option<&AnySolution>) -> Drawing {
                match (self, solution) {
                    $(
                        (AnyPuzzle::$variant(p), Some(AnySolution::$variant(s))) => p.draw(Some(s)),
                        (AnyPuzzle::$variant(p), _) => p.draw(None),
                    )+
                }
            }
        }

        impl Kind {
            /// Reads this kind's text form (see `Puzzle::parse_text`).
            pub fn parse_text(self, text: &str, origin: &str) -> Result<Vec<Located<AnyPuzzle>>, PuzzleError> {
                self.parse_text_with(text, origin, &ParseHints::default())
            }
            /// Reads this kind's text form with hints from outside the file.
            pub fn parse_text_with(self, text: &str, origin: &str, hints: &ParseHints) -> Result<Vec<Located<AnyPuzzle>>, PuzzleError> {
                match self {
                    $(Kind::$variant => <$ty>::parse_text(text, origin, hints).map(|all| all
                        .into_iter()
                        .map(|l| l.map(AnyPuzzle::$variant))
                        .collect()),)+
                }
            }
            /// The first registered kind whose text form `text` looks like.
            pub fn sniff(text: &str) -> Option<Kind> {
                $(if <$ty>::looks_like(text) {
                    return Some(Kind::$variant);
                })+
                None
            }
            /// Blank instances for the New menu.
            pub fn presets(self) -> Vec<(String, AnyPuzzle)> {
                match self {
                    $(Kind::$variant => <$ty>::presets()
                        .into_iter()
                        .map(|(name, p)| (name, AnyPuzzle::$variant(p)))
                        .collect(),)+
                }
            }
            /// The generator's parameters.
            pub fn generator_params(self) -> &'static [ParamSpec] {
                match self {
                    $(Kind::$variant => <$ty>::generator_params(),)+
                }
            }
            /// A generated instance from (unvalidated) parameter values.
            pub fn generate(self, params: &ParamValues) -> Result<AnyPuzzle, PuzzleError> {
                self.generate_with(params, &GenerateControl::new())
            }
            /// A generated instance, the generator steered by `control` (progress, cancel).
            pub fn generate_with(
                self,
                params: &ParamValues,
                control: &GenerateControl,
            ) -> Result<AnyPuzzle, PuzzleError> {
                match self {
                    $(Kind::$variant => {
                        let values = crate::params::validate(<$ty>::generator_params(), params)?;
                        Ok(AnyPuzzle::$variant(<$ty>::generate(&values, control)?))
                    })+
                }
            }
            /// Whether the kind answers with per-cell probabilities.
            pub fn has_probabilities(self) -> bool {
                match self {
                    $(Kind::$variant => <$ty>::HAS_PROBABILITIES,)+
                }
            }
            /// The kind's formulations, the default first (empty: one, unnamed).
            pub fn formulations(self) -> &'static [Formulation] {
                match self {
                    $(Kind::$variant => <$ty>::formulations(),)+
                }
            }
            /// Whether presolve is on by default (`Puzzle::PRESOLVE_BY_DEFAULT`).
            pub fn presolves_by_default(self) -> bool {
                match self {
                    $(Kind::$variant => <$ty>::PRESOLVE_BY_DEFAULT,)+
                }
            }
            /// A puzzle of this kind from our JSON form (without its `kind` field), with the path
            /// of the field at fault in an error (`grid: invalid type …`).
            pub fn from_json(self, value: serde_json::Value) -> Result<AnyPuzzle, String> {
                match self {
                    $(Kind::$variant => serde_path_to_error::deserialize::<_, $ty>(value)
                        .map(AnyPuzzle::$variant)
                        .map_err(|e| {
                            let path = e.path().to_string();
                            let inner = crate::io::plain_serde_message(&e.into_inner().to_string());
                            if path == "." { inner } else { format!("field {path}: {inner}") }
                        }),)+
                }
            }
            /// Whether the kind's text forms read this hint from outside the file.
            pub fn takes_hint(self, hint: Hint) -> bool {
                match self {
                    $(Kind::$variant => <$ty>::HINTS.contains(&hint),)+
                }
            }
            /// Search nodes the exact probabilities may spend (`Puzzle::PROBABILITY_NODE_BUDGET`).
            pub fn probability_budget(self) -> u64 {
                match self {
                    $(Kind::$variant => <$ty>::PROBABILITY_NODE_BUDGET,)+
                }
            }
            /// Whether the generator promises a unique solution.
            pub fn generates_unique(self) -> bool {
                match self {
                    $(Kind::$variant => <$ty>::GENERATES_UNIQUE,)+
                }
            }
            /// The weight a sweep offers first.
            pub fn default_sweep_weight(self) -> &'static str {
                match self {
                    $(Kind::$variant => <$ty>::default_sweep_weight(),)+
                }
            }
        }
    };
}
