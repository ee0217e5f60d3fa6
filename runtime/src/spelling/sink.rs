//! Where formatters write: a `Vec<u8>` (growing, one capacity check per write), or a
//! [`Reserved`] region of capacity set aside beforehand for a whole row segment, where a write
//! is a store and a bounds check against a length held in a register, and the vector's length
//! is updated once at the end. Row code (generated, and the dynamic encoder's column programs)
//! writes runs of scalar fields into the latter; nested values go into the former.
use std::mem::MaybeUninit;

/// An append-only byte output.
pub trait ByteSink {
    fn put(&mut self, bytes: &[u8]);

    /// Appends the first `keep` bytes of `chunk` (`keep <= N`). Writing all `N` and keeping
    /// fewer is a fixed-size store, where appending exactly `keep` bytes would call `memcpy`;
    /// the bytes past `keep` are overwritten by the next write.
    fn put_chunk<const N: usize>(&mut self, chunk: &[u8; N], keep: usize);

    #[inline(always)]
    fn put_byte(&mut self, byte: u8) {
        self.put_chunk(&[byte], 1);
    }

    /// Appends `src[from..to]` (`from <= to`). The sinks copy it in [`RUN_STORE`]-byte stores,
    /// the last one cut back, when `src` holds [`RUN_STORE`] bytes past `to` and the sink
    /// has room for [`RUN_STORE`] bytes past the run's end (a reservation must cover them),
    /// with the two checked once per run rather than per store; otherwise exactly.
    #[inline(always)]
    fn put_run(&mut self, src: &[u8], from: usize, to: usize) {
        self.put(&src[from..to]);
    }

    /// Appends `src[from..to]` with a backslash before each byte at `marks` (ascending
    /// positions; those at or after `to` are ignored) that is `\` or `"`, and stops before the
    /// first mark at another byte. Returns where it stopped (`to` when no mark stopped it) and
    /// how many marks it backslashed. A [`Reserved`] sink needs `2 * (to - from)` +
    /// [`RUN_STORE`] bytes of room for its fast path (the runs between the marks in blind
    /// stores, one check per call); otherwise, and in a `Vec`, it goes run by run.
    #[inline(always)]
    fn put_backslashed(&mut self, src: &[u8], from: usize, to: usize, marks: &[usize]) -> (usize, usize) {
        backslashed_by_runs(self, src, from, to, marks)
    }

    /// Lets `text` write itself into a window of `N` uninitialized bytes and appends the first
    /// `keep` of them (its result, `<= N`). By default the window is a stack buffer then [`put`];
    /// a `Vec` or a [`Reserved`] sink hands out its own spare capacity, which saves the copy (and
    /// no byte is zeroed first: the text stores whole words and keeps a prefix of them).
    ///
    /// [`put`]: ByteSink::put
    #[inline(always)]
    fn put_window<const N: usize>(&mut self, text: impl WindowText<N>) {
        let mut window = [MaybeUninit::uninit(); N];
        let keep = text.write_into(&mut window);
        self.put(initialized_prefix(&window, keep));
    }
}

/// A value that writes its text into a window of uninitialized bytes ([`ByteSink::put_window`]).
/// A trait with an always-inlined method, not a closure: closures are not inlined into every
/// caller.
///
/// # Safety
///
/// `write_into` returns at most `N`, and it has initialized the first bytes of `window`, as many
/// as it returns: the sinks take that prefix as written output without checking it.
pub unsafe trait WindowText<const N: usize> {
    /// Writes the text at the start of `window` and returns its length (`<= N`).
    fn write_into(self, window: &mut [MaybeUninit<u8>; N]) -> usize;
}

/// The first `keep` bytes of a window that a [`WindowText`] wrote.
#[inline(always)]
fn initialized_prefix<const N: usize>(window: &[MaybeUninit<u8>; N], keep: usize) -> &[u8] {
    let prefix = &window[..keep.min(N)];
    // SAFETY: a `WindowText` initializes as many leading bytes as it returns (its contract), and
    // `MaybeUninit<u8>` has the layout of `u8`.
    unsafe { &*(prefix as *const [MaybeUninit<u8>] as *const [u8]) }
}

impl ByteSink for Vec<u8> {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }

    #[inline(always)]
    fn put_chunk<const N: usize>(&mut self, chunk: &[u8; N], keep: usize) {
        let at = self.len();
        self.extend_from_slice(chunk);
        self.truncate(at + keep);
    }

    #[inline(always)]
    fn put_byte(&mut self, byte: u8) {
        self.push(byte);
    }

    #[inline(always)]
    fn put_run(&mut self, src: &[u8], from: usize, to: usize) {
        let len = src[from..to].len();
        self.reserve(len + RUN_STORE);
        let at = self.len();
        let written = copy_run(&mut self.spare_capacity_mut()[..len + RUN_STORE], src, from, to);
        // SAFETY: `copy_run` initialized the first `written` bytes of the spare capacity.
        unsafe { self.set_len(at + written) };
    }

    #[inline(always)]
    fn put_window<const N: usize>(&mut self, text: impl WindowText<N>) {
        self.reserve(N);
        let len = self.len();
        let window: &mut [MaybeUninit<u8>; N] = (&mut self.spare_capacity_mut()[..N]).try_into().unwrap();
        let keep = text.write_into(window);
        debug_assert!(keep <= N);
        // SAFETY: `reserve` made the `N` bytes of the window spare capacity, and a `WindowText`
        // initializes as many of its leading bytes as it returns, at most `N` (its contract).
        unsafe { self.set_len(len + keep) };
    }
}

/// Capacity reserved for one row segment (see [`with_reserved`]). Writes past the reservation
/// panic (a wrong bound is a bug, never memory corruption).
pub struct Reserved<'v> {
    spare: &'v mut [MaybeUninit<u8>],
    /// Bytes written; everything before it is initialized.
    pos: usize,
}

impl ByteSink for Reserved<'_> {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        let end = self.pos + bytes.len();
        copy_into(&mut self.spare[self.pos..end], bytes);
        self.pos = end;
    }

    #[inline(always)]
    fn put_chunk<const N: usize>(&mut self, chunk: &[u8; N], keep: usize) {
        debug_assert!(keep <= N);
        copy_into(&mut self.spare[self.pos..self.pos + N], chunk);
        self.pos += keep.min(N);
    }

    #[inline(always)]
    fn put_run(&mut self, src: &[u8], from: usize, to: usize) {
        self.pos += copy_run(&mut self.spare[self.pos..], src, from, to);
    }

    #[inline(always)]
    fn put_backslashed(&mut self, src: &[u8], from: usize, to: usize, marks: &[usize]) -> (usize, usize) {
        let len = src[from..to].len();
        let room = self.spare.len() - self.pos;
        if src.len() - to < RUN_STORE || 2 * len + RUN_STORE > room {
            return backslashed_by_runs(self, src, from, to, marks);
        }
        let (read, write) = (src.as_ptr(), self.spare[self.pos..].as_mut_ptr().cast::<u8>());
        // `out`: bytes written; `run`: where the current run starts; `next`: the least position a
        // mark may have (the marks backslashed so far are distinct positions in `from..next`).
        let (mut out, mut run, mut next) = (0, from, from);
        let mut stop = (to, marks.len());
        for (used, &mark) in marks.iter().enumerate() {
            if mark >= to {
                stop.1 = used;
                break;
            }
            assert!(mark >= next, "escape positions out of order");
            let gap = mark - run;
            // SAFETY: `run <= mark < to`, and `src` holds `RUN_STORE` bytes past `to` (checked
            // above); `out` is `run - from` plus the marks so far, at most `2 * (run - from) + 1`,
            // so the stores end before `2 * len + RUN_STORE`, inside the room checked above.
            unsafe { blind_copy(read.add(run), write.add(out), gap) };
            out += gap;
            if src[mark] != b'\\' && src[mark] != b'"' {
                stop = (mark, used);
                break;
            }
            // SAFETY: `out < 2 * len + 1` (as above), inside the room checked above.
            unsafe { write.add(out).write(b'\\') };
            (out, run, next) = (out + 1, mark, mark + 1);
        }
        if stop.0 == to {
            // SAFETY: as for the runs above, with `to` for `mark`.
            unsafe { blind_copy(read.add(run), write.add(out), to - run) };
            out += to - run;
        }
        self.pos += out;
        stop
    }

    #[inline(always)]
    fn put_window<const N: usize>(&mut self, text: impl WindowText<N>) {
        let window: &mut [MaybeUninit<u8>; N] = (&mut self.spare[self.pos..self.pos + N]).try_into().unwrap();
        let keep = text.write_into(window);
        debug_assert!(keep <= N);
        // Not clamped to `N`: a `WindowText` returns at most `N` (its contract).
        self.pos += keep;
    }
}

/// `dst.write_copy_of_slice(src)`, which is only stable from Rust 1.93 (a per-byte
/// `MaybeUninit::write` loop costs 10% more instructions on q0).
#[inline(always)]
fn copy_into(dst: &mut [MaybeUninit<u8>], src: &[u8]) {
    assert_eq!(dst.len(), src.len());
    // SAFETY: `src` is readable and `dst` writable for `src.len()` bytes (the assert), a shared
    // and a unique borrow cannot overlap, and `MaybeUninit<u8>` has the layout of `u8`.
    unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast::<u8>(), src.len()) }
}

/// The width of [`ByteSink::put_run`]'s stores: a run is copied without a `memcpy` call.
pub const RUN_STORE: usize = 32;

/// Copies `src[from..to]` to the start of `dst` and returns its length. With [`RUN_STORE`]
/// readable bytes past `to` and [`RUN_STORE`] bytes of room past the run in `dst` (both checked
/// here, once), in whole stores of [`RUN_STORE`] bytes; otherwise exactly.
#[inline(always)]
fn copy_run(dst: &mut [MaybeUninit<u8>], src: &[u8], from: usize, to: usize) -> usize {
    let run = &src[from..to];
    let len = run.len();
    if src.len() - to < RUN_STORE || len + RUN_STORE > dst.len() {
        copy_into(&mut dst[..len], run);
        return len;
    }
    // SAFETY: the stores read `src[from..]` up to `RUN_STORE` bytes past `to`, inside `src`,
    // and write `dst` up to `RUN_STORE` bytes past `len`, inside `dst` (both checked above);
    // `src` is shared and `dst` unique, so they do not overlap.
    unsafe { blind_copy(run.as_ptr(), dst.as_mut_ptr().cast::<u8>(), len) };
    len
}

/// Copies `len` bytes from `read` to `write` in [`RUN_STORE`]-byte stores, at least one.
///
/// # Safety
///
/// `read` is readable and `write` writable for `len` rounded up to a whole number of stores
/// (at least one), and the two do not overlap.
#[inline(always)]
unsafe fn blind_copy(read: *const u8, write: *mut u8, len: usize) {
    let mut done = 0;
    loop {
        // SAFETY: `done < len` rounded up to whole stores (or the first store), which the
        // caller promises readable at `read` and writable at `write`.
        unsafe { std::ptr::copy_nonoverlapping(read.add(done), write.add(done), RUN_STORE) };
        done += RUN_STORE;
        if done >= len {
            break;
        }
    }
}

/// [`ByteSink::put_backslashed`] a run and a backslash at a time.
#[inline(always)]
fn backslashed_by_runs<S: ByteSink + ?Sized>(
    out: &mut S,
    src: &[u8],
    from: usize,
    to: usize,
    marks: &[usize],
) -> (usize, usize) {
    let mut run = from;
    for (used, &mark) in marks.iter().enumerate() {
        if mark >= to {
            out.put_run(src, run, to);
            return (to, used);
        }
        out.put_run(src, run, mark);
        if src[mark] != b'\\' && src[mark] != b'"' {
            return (mark, used);
        }
        out.put_byte(b'\\');
        run = mark;
    }
    out.put_run(src, run, to);
    (to, marks.len())
}

/// Reserves `bound` bytes at the end of `out`, lets `write` fill a prefix of them, and makes
/// what it wrote part of `out`. `bound` must cover every write of `write`, including the full
/// width of each [`ByteSink::put_chunk`].
#[inline(always)]
pub fn with_reserved<R>(out: &mut Vec<u8>, bound: usize, write: impl FnOnce(&mut Reserved<'_>) -> R) -> R {
    fill_reserved(out, bound, Closure(write))
}

/// What [`fill_reserved`] writes. A trait with an always-inlined method, not a closure: a large
/// closure is compiled as a function of its own, which reloads its captures from memory.
pub(crate) trait FillReserved {
    type Output;
    fn fill(self, out: &mut Reserved<'_>) -> Self::Output;
}

struct Closure<F>(F);

impl<R, F: FnOnce(&mut Reserved<'_>) -> R> FillReserved for Closure<F> {
    type Output = R;

    #[inline(always)]
    fn fill(self, out: &mut Reserved<'_>) -> R {
        (self.0)(out)
    }
}

/// [`with_reserved`] with the writer a [`FillReserved`].
#[inline(always)]
pub(crate) fn fill_reserved<F: FillReserved>(out: &mut Vec<u8>, bound: usize, write: F) -> F::Output {
    out.reserve(bound);
    let len = out.len();
    let mut reserved = Reserved { spare: &mut out.spare_capacity_mut()[..bound], pos: 0 };
    let result = write.fill(&mut reserved);
    let written = reserved.pos;
    // SAFETY: `Reserved` only ever advances `pos` over bytes it has just initialized with
    // `copy_into` (`dst` and `src` have the same length) or a `WindowText` has (its contract),
    // and never past `bound`, which `reserve` made spare capacity; so the
    // first `len + written` bytes of the buffer are initialized and within its capacity.
    unsafe { out.set_len(len + written) };
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes all its bytes into the window, and keeps `.1` of them.
    struct Prefix<const N: usize>([u8; N], usize);

    // SAFETY: all `N` bytes are written, and the length kept is at most `N` (asserted).
    unsafe impl<const N: usize> WindowText<N> for Prefix<N> {
        fn write_into(self, window: &mut [MaybeUninit<u8>; N]) -> usize {
            assert!(self.1 <= N);
            *window = self.0.map(MaybeUninit::new);
            self.1
        }
    }

    #[test]
    fn reserved_writes_commit_once_and_chunks_keep_their_prefix() {
        let mut out = b"ab".to_vec();
        let result = with_reserved(&mut out, 40, |w| {
            w.put(b"cd");
            w.put_chunk(b"efghXXXX", 4);
            w.put_byte(b'i');
            w.put_chunk(&[b'j'; 32], 1);
            7
        });
        assert_eq!(result, 7);
        assert_eq!(out, b"abcdefghij");
        with_reserved(&mut out, 8, |w| {
            w.put_window(Prefix(*b"klmX", 2));
            w.put_window(Prefix(*b"noXX", 2));
        });
        assert_eq!(out, b"abcdefghijklno");
        let mut vec_sink = b"ab".to_vec();
        vec_sink.put_chunk(b"cdYY", 2);
        vec_sink.put_byte(b'e');
        vec_sink.put_window(Prefix(*b"fgh", 2));
        assert_eq!(vec_sink, b"abcdefg");
    }

    /// Both sinks, blind stores and run by run (a source without `RUN_STORE` bytes past the
    /// value), stop at the first mark that is not `\\` or `"` and ignore marks past the end.
    #[test]
    fn backslashed_runs_stop_at_other_marks() {
        let padded = format!("{}{}", "a\\b\"cd\u{1}e\\f", ".".repeat(RUN_STORE));
        let cases = [(padded.as_bytes(), 10), (&padded.as_bytes()[..10], 10)];
        for (src, end) in cases {
            let marks = [1, 3, 6, 8, 11];
            let mut vec_sink = b"<".to_vec();
            assert_eq!(vec_sink.put_backslashed(src, 0, end, &marks), (6, 2));
            assert_eq!(vec_sink, br#"<a\\b\"cd"#);
            let mut reserved = b"<".to_vec();
            let stop = with_reserved(&mut reserved, 2 * (end - 7) + RUN_STORE, |w| {
                w.put_backslashed(src, 7, end, &marks[3..])
            });
            assert_eq!((stop, &reserved[..]), ((end, 1), &br#"<e\\f"#[..]));
        }
    }

    #[test]
    #[should_panic]
    fn writing_past_the_bound_panics() {
        let mut out = Vec::new();
        with_reserved(&mut out, 4, |w| w.put(b"12345"));
    }
}
