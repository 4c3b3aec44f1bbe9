//! Random-access byte sources, sync and async.

use std::future::Future;
use std::io::{self, Read, Seek, SeekFrom};

/// A random-access byte source read synchronously: a byte slice, a file
/// (through [`SeekSource`]), anything that can read bytes at an offset.
pub trait ReadAt {
    /// The total size in bytes.
    fn size(&mut self) -> io::Result<u64>;

    /// Reads bytes at `offset` into `buf`, returning how many were read;
    /// fewer than `buf.len()` only at the end of the source (or as a short
    /// read, after which the parser asks again).
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<usize>;
}

/// A random-access byte source read asynchronously, like a browser `Blob`
/// read through `Blob.slice(start, end).arrayBuffer()`. The futures need not
/// be `Send`.
pub trait AsyncReadAt {
    /// The total size in bytes.
    fn size(&mut self) -> impl Future<Output = io::Result<u64>>;

    /// Reads bytes at `offset` into `buf`, returning how many were read
    /// (see [`ReadAt::read_at`]).
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> impl Future<Output = io::Result<usize>>;
}

impl ReadAt for &[u8] {
    fn size(&mut self) -> io::Result<u64> {
        Ok(self.len() as u64)
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let Ok(start) = usize::try_from(offset) else {
            return Ok(0);
        };
        let Some(rest) = self.get(start..) else {
            return Ok(0);
        };
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        Ok(n)
    }
}

impl<S: ReadAt + ?Sized> ReadAt for &mut S {
    fn size(&mut self) -> io::Result<u64> {
        (**self).size()
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        (**self).read_at(offset, buf)
    }
}

impl<S: AsyncReadAt + ?Sized> AsyncReadAt for &mut S {
    fn size(&mut self) -> impl Future<Output = io::Result<u64>> {
        (**self).size()
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> impl Future<Output = io::Result<usize>> {
        (**self).read_at(offset, buf)
    }
}

/// A [`ReadAt`] over anything that can `Read` and `Seek`, like a
/// `std::fs::File` (native).
#[derive(Debug)]
pub struct SeekSource<R> {
    inner: R,
}

impl<R: Read + Seek> SeekSource<R> {
    /// Wraps a reader.
    pub fn new(inner: R) -> SeekSource<R> {
        SeekSource { inner }
    }

    /// The reader back.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read + Seek> ReadAt for SeekSource<R> {
    fn size(&mut self) -> io::Result<u64> {
        self.inner.seek(SeekFrom::End(0))
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.seek(SeekFrom::Start(offset))?;
        loop {
            match self.inner.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => return other,
            }
        }
    }
}

/// Presents a [`ReadAt`] as an [`AsyncReadAt`] whose futures are always
/// ready, so one parser serves both.
pub(crate) struct Ready<S>(pub(crate) S);

impl<S: ReadAt> AsyncReadAt for Ready<S> {
    fn size(&mut self) -> impl Future<Output = io::Result<u64>> {
        std::future::ready(self.0.size())
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> impl Future<Output = io::Result<usize>> {
        std::future::ready(self.0.read_at(offset, buf))
    }
}
