//! The small directory abstraction the store reader works on: list a
//! folder, stat a file, read a small file whole (with a cap), read a slice.
//! Paths are `/`-separated and relative to the models directory; the
//! reader builds them only from validated name parts and sha256 digests, so
//! they never hold `..`, a leading `/` or a NUL. [`MemDir`] holds a store in
//! memory (the browser fills one from a folder handle; tests build broken
//! stores with it); `FsDir` (native only) reads a real folder and refuses
//! anything that resolves outside it.

use std::collections::BTreeMap;
use std::fmt;

/// What a path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A folder.
    Dir,
    /// Anything else (a socket, a dangling link).
    Other,
}

/// One folder entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The entry's name (no `/`).
    pub name: String,
    /// What it is.
    pub kind: Kind,
}

/// What `stat` tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    /// What it is.
    pub kind: Kind,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, nanoseconds since the Unix epoch, where known.
    pub modified_ns: Option<i128>,
}

/// Why a directory operation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirErrorKind {
    /// No such file or folder.
    NotFound,
    /// The path leaves the models directory (a link pointing out).
    Escapes,
    /// The file is bigger than the reader allows for it.
    TooLarge {
        /// Its size.
        size: u64,
        /// The cap.
        limit: u64,
    },
    /// A folder has more entries than the reader allows.
    TooManyEntries {
        /// The cap.
        limit: usize,
    },
    /// Not the kind of thing expected (a folder where a file should be).
    WrongKind,
    /// Any other I/O failure, in words.
    Io(String),
}

/// A failed directory operation, naming the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirError {
    /// The path, relative to the models directory.
    pub path: String,
    /// What went wrong.
    pub kind: DirErrorKind,
}

impl DirError {
    /// An error for `path`.
    pub fn new(path: &str, kind: DirErrorKind) -> DirError {
        DirError {
            path: path.to_string(),
            kind,
        }
    }

    /// Whether the path does not exist (Ollama's `os.IsNotExist`).
    pub fn is_not_found(&self) -> bool {
        self.kind == DirErrorKind::NotFound
    }
}

impl fmt::Display for DirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.path;
        match &self.kind {
            DirErrorKind::NotFound => write!(f, "{p}: no such file or directory"),
            DirErrorKind::Escapes => write!(f, "{p}: resolves outside the models directory"),
            DirErrorKind::TooLarge { size, limit } => write!(
                f,
                "{p}: {size} bytes, more than the {limit} bytes a file of this kind may have"
            ),
            DirErrorKind::TooManyEntries { limit } => {
                write!(f, "{p}: more than {limit} entries")
            }
            DirErrorKind::WrongKind => write!(f, "{p}: not a regular file"),
            DirErrorKind::Io(e) => write!(f, "{p}: {e}"),
        }
    }
}

impl std::error::Error for DirError {}

/// A models directory.
pub trait Dir {
    /// The entries of the folder at `path` (`""` is the root), in any order,
    /// at most `limit` of them (more is [`DirErrorKind::TooManyEntries`]).
    fn entries(&self, path: &str, limit: usize) -> Result<Vec<Entry>, DirError>;
    /// What `path` is.
    fn stat(&self, path: &str) -> Result<Stat, DirError>;
    /// The whole file, if it has at most `limit` bytes.
    fn read(&self, path: &str, limit: u64) -> Result<Vec<u8>, DirError>;
    /// `len` bytes from `offset` (fewer at the end of the file).
    fn read_at(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, DirError>;
}

/// Joins `/`-separated parts.
pub fn join(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("/")
}

/// A store held in memory: files with their bytes (or only their size, for
/// model blobs that were not read) and modification times.
#[derive(Clone, Debug, Default)]
pub struct MemDir {
    files: BTreeMap<String, MemFile>,
}

#[derive(Clone, Debug)]
struct MemFile {
    /// The bytes read: the whole file, or its first bytes (a model blob's
    /// header), or none.
    bytes: Option<Vec<u8>>,
    size: u64,
    modified_ns: Option<i128>,
}

impl MemDir {
    /// An empty store.
    pub fn new() -> MemDir {
        MemDir::default()
    }

    /// Adds a file with its bytes.
    pub fn insert(&mut self, path: &str, bytes: Vec<u8>, modified_ns: Option<i128>) {
        let size = bytes.len() as u64;
        self.files.insert(
            path.to_string(),
            MemFile {
                bytes: Some(bytes),
                size,
                modified_ns,
            },
        );
    }

    /// Adds a file whose bytes were not read (a model blob): only its size.
    pub fn insert_unread(&mut self, path: &str, size: u64, modified_ns: Option<i128>) {
        self.files.insert(
            path.to_string(),
            MemFile {
                bytes: None,
                size,
                modified_ns,
            },
        );
    }

    /// Adds a file of `size` bytes of which only the first ones were read
    /// (a model blob's metadata): reads past them fail.
    pub fn insert_prefix(
        &mut self,
        path: &str,
        prefix: Vec<u8>,
        size: u64,
        modified_ns: Option<i128>,
    ) {
        self.files.insert(
            path.to_string(),
            MemFile {
                bytes: Some(prefix),
                size,
                modified_ns,
            },
        );
    }

    /// Whether a file is there with all its bytes.
    pub fn has_whole(&self, path: &str) -> bool {
        self.files
            .get(path)
            .is_some_and(|f| f.bytes.as_ref().is_some_and(|b| b.len() as u64 == f.size))
    }

    /// Whether a file is there.
    pub fn contains(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    fn is_dir(&self, path: &str) -> bool {
        path.is_empty() || {
            let prefix = format!("{path}/");
            self.files
                .range(prefix.clone()..)
                .next()
                .is_some_and(|(k, _)| k.starts_with(&prefix))
        }
    }

    fn file(&self, path: &str) -> Result<&MemFile, DirError> {
        match self.files.get(path) {
            Some(f) => Ok(f),
            None if self.is_dir(path) => Err(DirError::new(path, DirErrorKind::WrongKind)),
            None => Err(DirError::new(path, DirErrorKind::NotFound)),
        }
    }

    fn bytes<'a>(&self, path: &str, f: &'a MemFile) -> Result<&'a [u8], DirError> {
        f.bytes.as_deref().ok_or_else(|| {
            DirError::new(
                path,
                DirErrorKind::Io("its bytes were not read into this store".into()),
            )
        })
    }
}

impl Dir for MemDir {
    fn entries(&self, path: &str, limit: usize) -> Result<Vec<Entry>, DirError> {
        if !self.is_dir(path) {
            return Err(DirError::new(
                path,
                if self.files.contains_key(path) {
                    DirErrorKind::WrongKind
                } else {
                    DirErrorKind::NotFound
                },
            ));
        }
        let prefix = if path.is_empty() {
            String::new()
        } else {
            format!("{path}/")
        };
        let mut out: Vec<Entry> = Vec::new();
        for k in self.files.range(prefix.clone()..).map(|(k, _)| k) {
            let Some(rest) = k.strip_prefix(&prefix) else {
                break;
            };
            let (name, kind) = match rest.split_once('/') {
                Some((dir, _)) => (dir, Kind::Dir),
                None => (rest, Kind::File),
            };
            if out.last().is_some_and(|e| e.name == name) {
                continue;
            }
            if out.len() == limit {
                return Err(DirError::new(path, DirErrorKind::TooManyEntries { limit }));
            }
            out.push(Entry {
                name: name.to_string(),
                kind,
            });
        }
        Ok(out)
    }

    fn stat(&self, path: &str) -> Result<Stat, DirError> {
        if let Some(f) = self.files.get(path) {
            return Ok(Stat {
                kind: Kind::File,
                size: f.size,
                modified_ns: f.modified_ns,
            });
        }
        if self.is_dir(path) {
            return Ok(Stat {
                kind: Kind::Dir,
                size: 0,
                modified_ns: None,
            });
        }
        Err(DirError::new(path, DirErrorKind::NotFound))
    }

    fn read(&self, path: &str, limit: u64) -> Result<Vec<u8>, DirError> {
        let f = self.file(path)?;
        if f.bytes.as_ref().is_some_and(|b| (b.len() as u64) < f.size) && f.size <= limit {
            return Err(DirError::new(
                path,
                DirErrorKind::Io("only its first bytes were read into this store".into()),
            ));
        }
        if f.size > limit {
            return Err(DirError::new(
                path,
                DirErrorKind::TooLarge {
                    size: f.size,
                    limit,
                },
            ));
        }
        Ok(self.bytes(path, f)?.to_vec())
    }

    fn read_at(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, DirError> {
        let f = self.file(path)?;
        let b = self.bytes(path, f)?;
        let start = usize::try_from(offset).unwrap_or(usize::MAX).min(b.len());
        let end = start.saturating_add(len).min(b.len());
        if end - start < len && (b.len() as u64) < f.size && offset < f.size {
            return Err(DirError::new(
                path,
                DirErrorKind::Io(format!(
                    "only its first {} bytes were read into this store",
                    b.len()
                )),
            ));
        }
        Ok(b[start..end].to_vec())
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub use fs::FsDir;

#[cfg(not(target_arch = "wasm32"))]
mod fs {
    use super::{Dir, DirError, DirErrorKind, Entry, Kind, Stat};
    use std::io::{Read, Seek, SeekFrom};
    use std::path::{Path, PathBuf};

    /// A models directory on disk. Every path is resolved (links followed)
    /// and must stay under the directory's own resolved path.
    #[derive(Clone, Debug)]
    pub struct FsDir {
        root: PathBuf,
    }

    impl FsDir {
        /// The models directory at `root`, which must exist.
        pub fn open(root: &Path) -> Result<FsDir, DirError> {
            let shown = root.display().to_string();
            let root = std::fs::canonicalize(root).map_err(|e| io_error(&shown, &e))?;
            if !root.is_dir() {
                return Err(DirError::new(
                    &shown,
                    DirErrorKind::Io("not a directory".into()),
                ));
            }
            Ok(FsDir { root })
        }

        /// The resolved root.
        pub fn root(&self) -> &Path {
            &self.root
        }

        /// The real path of `path`, checked to stay inside the root.
        pub fn resolve(&self, path: &str) -> Result<PathBuf, DirError> {
            if path.contains('\0')
                || path.starts_with('/')
                || path.contains('\\')
                || path.split('/').any(|p| p == ".." || p == ".")
            {
                return Err(DirError::new(path, DirErrorKind::Escapes));
            }
            let joined = if path.is_empty() {
                self.root.clone()
            } else {
                self.root.join(path)
            };
            let real = std::fs::canonicalize(&joined).map_err(|e| io_error(path, &e))?;
            if !real.starts_with(&self.root) {
                return Err(DirError::new(path, DirErrorKind::Escapes));
            }
            Ok(real)
        }

        fn open_file(&self, path: &str) -> Result<(std::fs::File, u64), DirError> {
            let real = self.resolve(path)?;
            let f = std::fs::File::open(&real).map_err(|e| io_error(path, &e))?;
            let md = f.metadata().map_err(|e| io_error(path, &e))?;
            if !md.is_file() {
                return Err(DirError::new(path, DirErrorKind::WrongKind));
            }
            Ok((f, md.len()))
        }
    }

    fn io_error(path: &str, e: &std::io::Error) -> DirError {
        DirError::new(
            path,
            match e.kind() {
                std::io::ErrorKind::NotFound => DirErrorKind::NotFound,
                _ => DirErrorKind::Io(e.to_string()),
            },
        )
    }

    fn kind_of(ft: std::fs::FileType) -> Kind {
        if ft.is_file() {
            Kind::File
        } else if ft.is_dir() {
            Kind::Dir
        } else {
            Kind::Other
        }
    }

    impl Dir for FsDir {
        fn entries(&self, path: &str, limit: usize) -> Result<Vec<Entry>, DirError> {
            let real = self.resolve(path)?;
            let rd = std::fs::read_dir(&real).map_err(|e| io_error(path, &e))?;
            let mut out = Vec::new();
            for e in rd {
                let e = e.map_err(|e| io_error(path, &e))?;
                if out.len() == limit {
                    return Err(DirError::new(path, DirErrorKind::TooManyEntries { limit }));
                }
                let Ok(name) = e.file_name().into_string() else {
                    continue;
                };
                // Links are followed (Ollama's os.Stat does); where they
                // lead is checked when the entry is used.
                let kind = match std::fs::metadata(e.path()) {
                    Ok(md) => kind_of(md.file_type()),
                    Err(_) => Kind::Other,
                };
                out.push(Entry { name, kind });
            }
            Ok(out)
        }

        fn stat(&self, path: &str) -> Result<Stat, DirError> {
            let real = self.resolve(path)?;
            let md = std::fs::metadata(&real).map_err(|e| io_error(path, &e))?;
            let modified_ns =
                md.modified()
                    .ok()
                    .map(|t| match t.duration_since(std::time::UNIX_EPOCH) {
                        Ok(d) => d.as_nanos() as i128,
                        Err(e) => -(e.duration().as_nanos() as i128),
                    });
            Ok(Stat {
                kind: kind_of(md.file_type()),
                size: md.len(),
                modified_ns,
            })
        }

        fn read(&self, path: &str, limit: u64) -> Result<Vec<u8>, DirError> {
            let (f, size) = self.open_file(path)?;
            if size > limit {
                return Err(DirError::new(path, DirErrorKind::TooLarge { size, limit }));
            }
            let mut out = Vec::with_capacity(size as usize);
            // A file that grows while read is still capped.
            f.take(limit + 1)
                .read_to_end(&mut out)
                .map_err(|e| io_error(path, &e))?;
            if out.len() as u64 > limit {
                return Err(DirError::new(
                    path,
                    DirErrorKind::TooLarge {
                        size: out.len() as u64,
                        limit,
                    },
                ));
            }
            Ok(out)
        }

        fn read_at(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, DirError> {
            let (mut f, _) = self.open_file(path)?;
            f.seek(SeekFrom::Start(offset))
                .map_err(|e| io_error(path, &e))?;
            let mut out = Vec::with_capacity(len.min(1 << 20));
            f.take(len as u64)
                .read_to_end(&mut out)
                .map_err(|e| io_error(path, &e))?;
            Ok(out)
        }
    }
}
