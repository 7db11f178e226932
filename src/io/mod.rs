//! File helpers shared by every reader and writer: bounded reads and atomic writes.
//!
//! Every failure is a [`FileError`] that names the file, so callers never have to re-attach
//! the path to a message.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file that could not be read or written, and why.
#[derive(Debug, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct FileError {
    /// The file concerned.
    pub path: PathBuf,
    /// What went wrong with it.
    pub problem: FileProblem,
}

/// What went wrong with a file (the path is in [`FileError`]).
#[derive(Debug, thiserror::Error)]
pub enum FileProblem {
    /// The operating system refused the read.
    #[error("cannot read: {0}")]
    Read(std::io::Error),
    /// The operating system refused the write (or the rename over the target).
    #[error("cannot write: {0}")]
    Write(std::io::Error),
    /// A directory was given where a file was expected.
    #[error("is a directory, not a file")]
    IsDirectory,
    /// An output that exists but is no regular file (a device such as /dev/stdout, a FIFO, a
    /// socket): replacing it would break it, so nothing is written.
    #[error("is not a regular file (a device, FIFO or socket): write to a file")]
    NotRegularFile,
    /// A chain of symbolic links that does not end (a loop, or longer than 40 links).
    #[error("too many levels of symbolic links")]
    LinkLoop,
    /// The path has no file-name component (e.g. `..` or `/`).
    #[error("not a file name")]
    NotAFileName,
    /// Larger than the reader's budget.
    #[error("file is {size} bytes, larger than the {limit} bytes this reader accepts")]
    TooLarge {
        /// The file's size in bytes.
        size: u64,
        /// The reader's limit in bytes.
        limit: u64,
    },
    /// Holds a NUL byte: binary data, not text.
    #[error("not a text file (NUL byte at offset {offset})")]
    NotText {
        /// Byte offset of the first NUL.
        offset: usize,
    },
    /// Not valid UTF-8.
    #[error("not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
    /// The reader's own check of what was read so far refused it (wrong magic bytes, a size
    /// past the memory budget): reading stopped there.
    #[error("{0}")]
    Refused(String),
    /// The extension does not name a format this writer knows.
    #[error("unknown {what} format: use the extension {expected}")]
    UnknownExtension {
        /// What kind of file was being written ("model", "image", "samples").
        what: &'static str,
        /// The extensions accepted, as a phrase.
        expected: &'static str,
    },
}

impl FileError {
    /// A problem with `path`.
    pub fn new(path: &Path, problem: FileProblem) -> Self {
        FileError {
            path: path.to_path_buf(),
            problem,
        }
    }
}

/// Reads a UTF-8 text file, refusing files larger than `limit` bytes.
///
/// The reported length is never trusted (`/dev/zero` and pipes report 0): the file is read in
/// chunks and refused as soon as it passes `limit`, holds a NUL byte (not text) or stops being
/// UTF-8, so a hostile file costs at most `limit` bytes and stops early when it is binary.
/// A leading UTF-8 byte-order mark is dropped.
pub fn read_text_limited(path: &Path, limit: u64) -> Result<String, FileError> {
    let fail = |problem| FileError::new(path, problem);
    let mut checked = 0; // bytes[..checked] is known to be valid UTF-8
    let bytes = read_limited(path, limit, |bytes, new| {
        if let Some(k) = bytes[new..].iter().position(|&b| b == 0) {
            return Err(FileProblem::NotText { offset: new + k });
        }
        match std::str::from_utf8(&bytes[checked..]) {
            Ok(_) => checked = bytes.len(),
            // Only an error with a length is invalid; otherwise a character straddles chunks.
            Err(e) if e.error_len().is_some() => {
                return Err(FileProblem::NotUtf8 {
                    offset: checked + e.valid_up_to(),
                });
            }
            Err(e) => checked += e.valid_up_to(),
        }
        Ok(())
    })?;
    if checked < bytes.len() {
        return Err(fail(FileProblem::NotUtf8 { offset: checked }));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        fail(FileProblem::NotUtf8 {
            offset: e.utf8_error().valid_up_to(),
        })
    })?;
    // Byte-order marks at the start, however many (a file written twice over has two): they
    // are invisible, so a reader that kept one would count a character nobody can see.
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.trim_start_matches('\u{feff}').to_string(),
        None => text,
    })
}

/// Reads a binary file, refusing files larger than `limit` bytes (the length is checked as the
/// bytes arrive, as for text).
pub fn read_bytes_limited(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    read_limited(path, limit, |_, _| Ok(()))
}

/// `read_bytes_limited` with the caller's `check` of everything read so far after each chunk
/// (64 KiB): a refusal stops the read there, so a wrong or oversized file costs one chunk, not
/// its whole length.
pub fn read_bytes_checked(
    path: &Path,
    limit: u64,
    mut check: impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<Vec<u8>, FileError> {
    read_limited(path, limit, |bytes, _| {
        check(bytes).map_err(FileProblem::Refused)
    })
}

/// The chunked, bounded read both readers share; `check(bytes, new)` sees everything read so
/// far after each chunk, `new` the start of the chunk just added.
fn read_limited(
    path: &Path,
    limit: u64,
    mut check: impl FnMut(&[u8], usize) -> Result<(), FileProblem>,
) -> Result<Vec<u8>, FileError> {
    let fail = |problem| FileError::new(path, problem);
    let meta = fs::metadata(path).map_err(|e| fail(FileProblem::Read(e)))?;
    if meta.is_dir() {
        return Err(fail(FileProblem::IsDirectory));
    }
    if meta.len() > limit {
        return Err(fail(FileProblem::TooLarge {
            size: meta.len(),
            limit,
        }));
    }
    let mut file = fs::File::open(path).map_err(|e| fail(FileProblem::Read(e)))?;
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let got = match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(got) => got,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(fail(FileProblem::Read(e))),
        };
        if (bytes.len() + got) as u64 > limit {
            return Err(fail(FileProblem::TooLarge {
                size: (bytes.len() + got) as u64,
                limit,
            }));
        }
        let new = bytes.len();
        bytes.extend_from_slice(&chunk[..got]);
        check(&bytes, new).map_err(fail)?;
    }
    Ok(bytes)
}

/// The temporary file `write_atomic` writes before renaming: a hidden name beside the target,
/// its stem cut short so that a long target name does not make the temporary one too long.
fn temporary_beside(dir: &Path, name: &std::ffi::OsStr, k: u64) -> PathBuf {
    let stem: String = name.to_string_lossy().chars().take(64).collect();
    dir.join(format!(".{stem}.tmp-{}-{k}", std::process::id()))
}

/// Longest file name (bytes) the usual file systems take.
const MAX_NAME_BYTES: usize = 255;

/// Checks up front that `write_atomic(path, …)` can succeed: the name fits, and its folder
/// takes a new file (a probe is created and removed). Commands call it before their work, so
/// a bad output path fails in a moment, not after the sampling.
pub fn check_writable(path: &Path) -> Result<(), FileError> {
    let name = path
        .file_name()
        .ok_or_else(|| FileError::new(path, FileProblem::NotAFileName))?;
    if name.len() > MAX_NAME_BYTES {
        return Err(FileError::new(
            path,
            FileProblem::Refused(format!(
                "the file name is {} bytes long; file systems take at most {MAX_NAME_BYTES}",
                name.len()
            )),
        ));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let probe = temporary_beside(dir, name, u64::MAX);
    // Removed by the signal handler if the process is interrupted while the probe exists (a
    // SIGTERM in that moment once left the hidden probe behind).
    let _pending = interrupted::Pending::new(&probe);
    match fs::File::create(&probe) {
        Ok(_) => {
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(FileError::new(
            path,
            FileProblem::Refused(format!(
                "cannot create a file in {}: {}",
                dir.display(),
                match e.kind() {
                    std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                    std::io::ErrorKind::ReadOnlyFilesystem => "read-only file system".into(),
                    std::io::ErrorKind::NotFound => "it takes no new files".into(),
                    other => other.to_string(),
                }
            )),
        )),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, flushed, then renamed over
/// the target, so a crash never leaves a half-written file where a good one was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    // Through a symbolic link: the link stays and the file it names is replaced (renaming over
    // the link made it a plain file and left its target as it was).
    let target = follow_links(path)?;
    match fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => return Err(FileError::new(path, FileProblem::IsDirectory)),
        Ok(meta) if !meta.is_file() => {
            return Err(FileError::new(path, FileProblem::NotRegularFile));
        }
        _ => {}
    }
    let name = target
        .file_name()
        .ok_or_else(|| FileError::new(path, FileProblem::NotAFileName))?;
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let tmp = temporary_beside(dir, name, COUNTER.fetch_add(1, Ordering::Relaxed));
    // Removed by the signal handler if the process is interrupted meanwhile.
    let _pending = interrupted::Pending::new(&tmp);
    let result = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, &target)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(FileError::new(path, FileProblem::Write(e)));
    }
    Ok(())
}

/// Temporary files being written, removed when the process is interrupted (SIGINT, SIGTERM,
/// SIGHUP): each interrupted write once left a hidden `.NAME.tmp-PID-K` beside its target. The
/// handler may only do async-signal-safe things, so the paths wait in a fixed array of atomic
/// pointers to C strings; it unlinks them and exits as the signal would have.
pub mod interrupted {
    use std::ffi::{CString, c_char};
    use std::path::Path;
    use std::sync::atomic::{AtomicPtr, Ordering};

    /// Writes in flight at once that are cleaned up (more are written, just not cleaned).
    const SLOTS: usize = 16;
    static PENDING: [AtomicPtr<c_char>; SLOTS] =
        [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

    /// A temporary file registered for removal while it lives.
    pub struct Pending(Option<usize>);

    impl Pending {
        /// Registers `path` (when a slot is free).
        pub fn new(path: &Path) -> Self {
            #[cfg(unix)]
            {
                use std::os::unix::ffi::OsStrExt;
                let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
                    return Pending(None);
                };
                let raw = c.into_raw();
                for (k, slot) in PENDING.iter().enumerate() {
                    if slot
                        .compare_exchange(
                            std::ptr::null_mut(),
                            raw,
                            Ordering::SeqCst,
                            Ordering::SeqCst,
                        )
                        .is_ok()
                    {
                        return Pending(Some(k));
                    }
                }
                // SAFETY: `raw` came from `into_raw` above and was stored nowhere.
                drop(unsafe { CString::from_raw(raw) });
            }
            #[cfg(not(unix))]
            let _ = path;
            Pending(None)
        }
    }

    impl Drop for Pending {
        fn drop(&mut self) {
            if let Some(k) = self.0 {
                let raw = PENDING[k].swap(std::ptr::null_mut(), Ordering::SeqCst);
                if !raw.is_null() {
                    // SAFETY: only `Pending::new` stores pointers, each from `into_raw`, and
                    // the swap took this one out for good.
                    drop(unsafe { CString::from_raw(raw) });
                }
            }
        }
    }

    /// Installs the handlers (the command line's `main` calls this once).
    pub fn remove_on_interrupt() {
        #[cfg(unix)]
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: the action only loads atomics and calls unlink and _exit, which are
            // async-signal-safe.
            let _ = unsafe { signal_hook_registry::register(signal, move || on_signal(signal)) };
        }
    }

    #[cfg(unix)]
    fn on_signal(signal: libc::c_int) {
        for slot in &PENDING {
            let raw = slot.load(Ordering::SeqCst);
            if !raw.is_null() {
                // SAFETY: a registered path is a valid C string until its `Pending` drops.
                unsafe { libc::unlink(raw) };
            }
        }
        // SAFETY: ends the process at once, as the signal's default action would.
        unsafe { libc::_exit(128 + signal) };
    }
}

/// Links followed at most (the kernel's own limit is 40).
const MAX_LINKS: usize = 40;

/// The file a path names once its symbolic links are followed (the path itself when it is no
/// link or does not exist yet; a dangling link gives the file it would create).
fn follow_links(path: &Path) -> Result<PathBuf, FileError> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to =
                    fs::read_link(&at).map_err(|e| FileError::new(path, FileProblem::Write(e)))?;
                // /proc's links to pipes and sockets (/dev/stdout in a pipeline) name no file.
                let raw = to.to_string_lossy();
                if ["pipe:", "socket:", "anon_inode:"]
                    .iter()
                    .any(|k| raw.starts_with(k))
                {
                    return Err(FileError::new(path, FileProblem::NotRegularFile));
                }
                at = match at.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(FileError::new(path, FileProblem::LinkLoop))
}

/// JSON text as a value, refusing an object that names a key twice: serde_json keeps the last
/// silently, so a puzzle with `"kind"` twice was read as the second kind and refused for a
/// field that kind lacks. The error has serde_json's line and column.
pub fn json_without_duplicate_keys(text: &str) -> Result<serde_json::Value, serde_json::Error> {
    use serde::Deserialize;
    let mut de = serde_json::Deserializer::from_str(text);
    let value = StrictJson::deserialize(&mut de)?.0;
    de.end()?;
    Ok(value)
}

/// A JSON value built while checking that no object repeats a key.
struct StrictJson(serde_json::Value);

impl<'de> serde::Deserialize<'de> for StrictJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(StrictJson)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(StrictJson(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(items.into())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key \"{}\" appears twice in one object",
                    printable(&key)
                )));
            }
            let StrictJson(v) = map.next_value()?;
            object.insert(key, v);
        }
        Ok(object.into())
    }
}

mod words;
pub use words::{count, number_text, plain_serde_message, printable};

#[cfg(test)]
mod tests {

    #[test]
    fn json_with_a_key_twice_is_refused_with_its_place() {
        let e = json_without_duplicate_keys("{\"kind\": \"sudoku\",\n \"kind\": \"numberlink\"}")
            .unwrap_err();
        assert!(
            e.to_string().contains("the key \"kind\" appears twice"),
            "{e}"
        );
        assert_eq!(e.line(), 2);
        let v = json_without_duplicate_keys(r#"[{"a": 1, "b": [1.5, null, true, "x"]}, {"a": 2}]"#)
            .unwrap();
        assert_eq!(v[0]["b"][0], 1.5);
        assert_eq!(v[1]["a"], 2);
        assert!(
            json_without_duplicate_keys("{} x").is_err(),
            "trailing text"
        );
    }

    use super::*;

    #[cfg(unix)]
    #[test]
    fn writes_go_through_links_and_never_replace_devices() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::create_dir(&real).unwrap();
        fs::write(real.join("p.txt"), b"OLD").unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink("real/p.txt", &link).unwrap();
        write_atomic(&link, b"NEW").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "the link stays a link"
        );
        assert_eq!(fs::read_to_string(real.join("p.txt")).unwrap(), "NEW");
        // A dangling link creates the file it names.
        let dangling = dir.path().join("new.txt");
        std::os::unix::fs::symlink(real.join("made.txt"), &dangling).unwrap();
        write_atomic(&dangling, b"MADE").unwrap();
        assert_eq!(fs::read_to_string(real.join("made.txt")).unwrap(), "MADE");
        // A device is never replaced by a plain file.
        let e = write_atomic(Path::new("/dev/null"), b"x").unwrap_err();
        assert!(matches!(e.problem, FileProblem::NotRegularFile), "{e}");
        assert!(
            !fs::metadata("/dev/null").unwrap().is_file(),
            "/dev/null is still a device"
        );
        // A loop of links is refused, not followed for ever.
        let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let e = write_atomic(&a, b"x").unwrap_err();
        assert!(matches!(e.problem, FileProblem::LinkLoop), "{e}");
        // A directory is refused by name.
        let e = write_atomic(&real, b"x").unwrap_err();
        assert!(matches!(e.problem, FileProblem::IsDirectory), "{e}");
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        write_atomic(&p, b"first").unwrap();
        write_atomic(&p, b"second").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "second");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        let e = write_atomic(&dir.path().join("missing/out.txt"), b"x").unwrap_err();
        assert!(matches!(e.problem, FileProblem::Write(_)), "{e}");
        assert!(
            e.to_string().contains("missing/out.txt: cannot write"),
            "{e}"
        );
    }

    #[test]
    fn reads_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.txt");
        fs::write(&p, vec![b'a'; 100]).unwrap();
        let e = read_text_limited(&p, 99).unwrap_err();
        assert!(matches!(
            e.problem,
            FileProblem::TooLarge {
                size: 100,
                limit: 99
            }
        ));
        assert!(e.to_string().contains("big.txt: file is 100 bytes"), "{e}");
        assert_eq!(read_text_limited(&p, 100).unwrap().len(), 100);
        fs::write(&p, [0xff, 0xfe]).unwrap();
        let e = read_text_limited(&p, 100).unwrap_err();
        assert!(
            matches!(e.problem, FileProblem::NotUtf8 { offset: 0 }),
            "{e}"
        );
        fs::write(&p, b"ab\xc3").unwrap();
        let e = read_text_limited(&p, 100).unwrap_err();
        assert!(
            matches!(e.problem, FileProblem::NotUtf8 { offset: 2 }),
            "{e}"
        );
    }

    #[test]
    fn a_length_of_zero_is_not_trusted() {
        // /dev/zero reports length 0 and never ends: refused at the first chunk, not hung on.
        let e = read_text_limited(Path::new("/dev/zero"), 1 << 30).unwrap_err();
        assert!(
            matches!(e.problem, FileProblem::NotText { offset: 0 }),
            "{e}"
        );
    }

    #[test]
    fn multibyte_characters_across_chunks_and_a_bom_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("text.txt");
        // 'é' is two bytes; 40 000 of them straddle every 64 KiB chunk boundary.
        let text = "é".repeat(40_000);
        fs::write(&p, format!("\u{feff}{text}")).unwrap();
        assert_eq!(read_text_limited(&p, 1 << 20).unwrap(), text);
        // Two marks (a file written twice over): both go.
        fs::write(&p, "\u{feff}\u{feff}1.3").unwrap();
        assert_eq!(read_text_limited(&p, 1 << 20).unwrap(), "1.3");
    }
}
