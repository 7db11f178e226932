//! Embeddings kept between runs: a found embedding is stored under a key made of the model's
//! interaction graph and the solver's working graph (and the method asked for), so the next
//! run of the same model on the same QPU — in this process, another window, or tomorrow —
//! skips the search. Files live in the user's cache folder: `$QUBO_WORKBENCH_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/qubo-workbench`, else `~/.cache/qubo-workbench`, under `embeddings/`.
//!
//! Invariant: a cached embedding is used only after `Embedding::verify` passes on the current
//! working graph (a qubit that died since is caught), and files are written atomically.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::chains::EmbeddingError;
use super::dwave_config::Environment;
use super::embedding::Embedding;
use super::topology::WorkingGraph;

/// Largest cache file read (a P16 embedding is tens of kilobytes).
const MAX_CACHE_FILE_BYTES: u64 = 16 << 20;

/// FNV-1a over 64-bit words.
fn fnv(words: impl Iterator<Item = u64>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The cache key of a model's interaction graph (`n` variables, `edges`) on `graph` by
/// `method`: `MODEL-GRAPH-METHOD`, hashes in hex.
pub fn key(n: usize, edges: &[(usize, usize)], graph: &WorkingGraph, method: &str) -> String {
    let mut sorted: Vec<(usize, usize)> =
        edges.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let model =
        fnv(std::iter::once(n as u64)
            .chain(sorted.iter().map(|&(a, b)| ((a as u64) << 32) | b as u64)));
    let working = fnv(graph
        .qubits
        .iter()
        .map(|&q| u64::from(q))
        .chain(std::iter::once(u64::MAX))
        .chain(
            graph
                .couplers
                .iter()
                .map(|&(a, b)| (u64::from(a) << 32) | u64::from(b)),
        ));
    format!("{model:016x}-{working:016x}-{method}")
}

/// The cache folder, from the environment (see the module's header); `None` with no home.
pub fn folder(env: &dyn Environment) -> Option<PathBuf> {
    let base = env
        .var("QUBO_WORKBENCH_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            env.var("XDG_CACHE_HOME")
                .map(|x| Path::new(&x).join("qubo-workbench"))
        })
        .or_else(|| {
            env.var("HOME")
                .map(|h| Path::new(&h).join(".cache/qubo-workbench"))
        })?;
    Some(base.join("embeddings"))
}

/// The embedding stored under `key`, when there is one that still fits (`edges` on `graph`),
/// with the method that found it.
pub fn load(
    folder: &Path,
    key: &str,
    edges: &[(usize, usize)],
    graph: &WorkingGraph,
    n: usize,
) -> Option<(Embedding, String)> {
    let path = folder.join(format!("{key}.json"));
    let text = crate::io::read_text_limited(&path, MAX_CACHE_FILE_BYTES).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    let embedding = super::chains::embedding_from_json(&v["chains"], n).ok()?;
    embedding.verify(edges, graph).ok()?;
    // Only a method we name is printed back; anything else in the file is just "cached".
    let method = v["method"]
        .as_str()
        .filter(|m| matches!(*m, "clique" | "heuristic"))
        .unwrap_or("cached")
        .to_string();
    Some((embedding, method))
}

/// Stores `embedding` under `key` (atomically; a failure only costs the next run a search).
pub fn store(
    folder: &Path,
    key: &str,
    embedding: &Embedding,
    method: &str,
) -> Result<(), EmbeddingError> {
    let cache = |path: &Path, why: String| EmbeddingError::Cache {
        path: path.display().to_string(),
        why,
    };
    std::fs::create_dir_all(folder).map_err(|e| cache(folder, e.to_string()))?;
    let v = json!({
        "chains": chains_json(embedding),
        "method": method,
        "qubits": embedding.num_qubits(),
        "max_chain_length": embedding.max_chain_length(),
    });
    let entry = folder.join(format!("{key}.json"));
    crate::io::write_atomic(&entry, v.to_string().as_bytes())
        .map_err(|e| cache(&entry, e.to_string()))
}

/// Chains as minorminer returns them (`{"0": [qubits], …}`), the shape `embedding_file` reads.
pub fn chains_json(embedding: &Embedding) -> Value {
    Value::Object(
        embedding
            .chains
            .iter()
            .enumerate()
            .map(|(v, c)| (v.to_string(), json!(c)))
            .collect(),
    )
}

/// Removes every cached embedding; how many files went.
pub fn clear(folder: &Path) -> Result<usize, EmbeddingError> {
    let cache = |why: String| EmbeddingError::Cache {
        path: folder.display().to_string(),
        why,
    };
    let entries = match std::fs::read_dir(folder) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(cache(e.to_string())),
    };
    // Every entry is tried (one that cannot go, a folder named *.json say, no longer stops
    // the rest); the ones left are named.
    let mut removed = 0;
    let mut left = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "json") {
            match std::fs::remove_file(&path) {
                Ok(()) => removed += 1,
                Err(e) => left.push(format!("{}: {e}", path.display())),
            }
        }
    }
    if !left.is_empty() {
        return Err(cache(format!(
            "removed {removed} entries, but not {}: {}",
            left.len(),
            left.join("; ")
        )));
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::remote::topology::pegasus;

    #[test]
    fn a_stored_embedding_comes_back_only_while_it_fits() {
        let dir = tempfile::tempdir().unwrap();
        let graph = pegasus(3);
        let edges = [(0, 1), (1, 2)];
        let k = key(3, &edges, &graph, "heuristic");
        assert_eq!(
            k,
            key(3, &[(2, 1), (1, 0), (0, 1)], &graph, "heuristic"),
            "order-free"
        );
        assert_ne!(k, key(3, &edges, &graph, "clique"));
        assert!(load(dir.path(), &k, &edges, &graph, 3).is_none());
        let e = crate::remote::embedding::find_embedding(
            3,
            &edges,
            &graph,
            1,
            std::time::Duration::from_secs(5),
            &|| false,
        )
        .unwrap();
        store(dir.path(), &k, &e, "heuristic").unwrap();
        let (back, method) = load(dir.path(), &k, &edges, &graph, 3).unwrap();
        assert_eq!((back, method.as_str()), (e.clone(), "heuristic"));
        // A qubit of the embedding died: the entry no longer fits and is not used.
        let dead = e.chains[0][0];
        let fewer: Vec<u32> = graph
            .qubits
            .iter()
            .copied()
            .filter(|&q| q != dead)
            .collect();
        let damaged = WorkingGraph::new(fewer, graph.couplers.clone());
        assert!(load(dir.path(), &k, &edges, &damaged, 3).is_none());
        assert_eq!(clear(dir.path()).unwrap(), 1);
        assert!(load(dir.path(), &k, &edges, &graph, 3).is_none());
    }
}
