//! File helpers shared by every reader and writer: bounded reads and atomic writes.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Reads a UTF-8 text file, refusing files larger than `limit` bytes.
pub fn read_text_limited(path: &Path, limit: u64) -> Result<String, String> {
    let meta = fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if meta.is_dir() {
        return Err("is a directory, not a file".into());
    }
    if meta.len() > limit {
        return Err(format!(
            "file is {} bytes, larger than the {} bytes this reader accepts",
            meta.len(),
            limit
        ));
    }
    let bytes = fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, flushed, then renamed over
/// the target, so a crash never leaves a half-written file where a good one was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let tmp = dir.join(format!(
        ".{}.tmp-{}-{}",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(format!("{}: cannot write: {e}", path.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        write_atomic(&p, b"first").unwrap();
        write_atomic(&p, b"second").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "second");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        let e = write_atomic(&dir.path().join("missing/out.txt"), b"x").unwrap_err();
        assert!(e.contains("cannot write"), "{e}");
    }

    #[test]
    fn reads_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.txt");
        fs::write(&p, vec![b'a'; 100]).unwrap();
        assert!(
            read_text_limited(&p, 99)
                .unwrap_err()
                .contains("larger than")
        );
        assert_eq!(read_text_limited(&p, 100).unwrap().len(), 100);
        fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(
            read_text_limited(&p, 100)
                .unwrap_err()
                .contains("not UTF-8")
        );
    }
}
