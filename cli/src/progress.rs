//! A progress line for long CLI work: rows done and rows/s, redrawn in place on stderr. Shown
//! only when stderr is a terminal and `--quiet` is not given, so that logs, pipes and tests stay
//! clean; short runs (under a second) never show it.
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often the line is redrawn, and how long a run goes before it first appears.
const REDRAW_EVERY: Duration = Duration::from_secs(1);

/// Sets the redraw interval in milliseconds instead (0: at every update), so that a test can
/// make a redraw due without a run that lasts a second.
const REDRAW_ENV: &str = "KJSON_PROGRESS_REDRAW_MS";

pub struct Progress {
    /// `kjson nexmark q0`, `kjson encode`.
    label: String,
    /// Rows the work will produce, when known up front.
    total: Option<usize>,
    started: Instant,
    last_drawn: Instant,
    redraw_every: Duration,
    /// None: quiet.
    out: Option<Box<dyn Write>>,
    drawn: bool,
}

impl Progress {
    /// On stderr unless `quiet` or stderr is not a terminal.
    pub fn on_stderr(label: impl Into<String>, total: Option<usize>, quiet: bool) -> Progress {
        let out: Option<Box<dyn Write>> =
            (!quiet && std::io::stderr().is_terminal()).then(|| Box::new(std::io::stderr()) as Box<dyn Write>);
        Progress::to(label, total, out)
    }

    fn to(label: impl Into<String>, total: Option<usize>, out: Option<Box<dyn Write>>) -> Progress {
        let now = Instant::now();
        let redraw_every =
            std::env::var(REDRAW_ENV).ok().and_then(|ms| ms.parse().ok()).map_or(REDRAW_EVERY, Duration::from_millis);
        Progress { label: label.into(), total, started: now, last_drawn: now, redraw_every, out, drawn: false }
    }

    /// Redraws the line if a redraw is due; `done` counts rows finished so far.
    pub fn update(&mut self, done: usize) {
        if self.out.is_some() && self.last_drawn.elapsed() >= self.redraw_every {
            let line = self.line(done, self.started.elapsed());
            self.draw(&line);
            self.last_drawn = Instant::now();
        }
    }

    /// Clears the line, so that what the command prints next starts on a clean line.
    pub fn finish(&mut self) {
        if self.drawn {
            self.draw("");
            self.drawn = false;
        }
    }

    fn line(&self, done: usize, elapsed: Duration) -> String {
        let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
        match self.total {
            Some(total) if total > 0 => {
                let percent = done as f64 * 100.0 / total as f64;
                format!("{}: {done}/{total} rows ({percent:.0}%), {} rows/s", self.label, si(rate))
            }
            _ => format!("{}: {done} rows, {} rows/s", self.label, si(rate)),
        }
    }

    /// Carriage return, the text, then erase to the end of the line (ANSI `EL`).
    fn draw(&mut self, text: &str) {
        if let Some(out) = self.out.as_mut() {
            // A progress line that cannot be written is not worth failing the work for.
            let _ = write!(out, "\r{text}\x1b[K").and_then(|()| out.flush());
            self.drawn = !text.is_empty();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// 1234567.0 -> `1.23M`: short enough to redraw every second.
fn si(value: f64) -> String {
    match value {
        v if v >= 1e9 => format!("{:.2}G", v / 1e9),
        v if v >= 1e6 => format!("{:.2}M", v / 1e6),
        v if v >= 1e3 => format!("{:.1}k", v / 1e3),
        v => format!("{v:.0}"),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A `Write` whose bytes the test can read after the `Progress` owns it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_line_names_rows_done_the_total_and_the_rate() {
        let progress = Progress::to("kjson nexmark q0", Some(4_000_000), None);
        let line = progress.line(1_000_000, Duration::from_millis(500));
        assert_eq!(line, "kjson nexmark q0: 1000000/4000000 rows (25%), 2.00M rows/s");
        let progress = Progress::to("kjson encode", None, None);
        assert_eq!(progress.line(1500, Duration::from_secs(1)), "kjson encode: 1500 rows, 1.5k rows/s");
    }

    #[test]
    fn a_due_redraw_draws_in_place_and_finish_clears_it() {
        let sink = Shared::default();
        let mut progress = Progress::to("kjson encode", None, Some(Box::new(sink.clone())));
        progress.update(10);
        assert!(sink.0.lock().unwrap().is_empty(), "nothing before the first second");
        progress.last_drawn -= REDRAW_EVERY;
        progress.update(20);
        progress.finish();
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        assert!(text.starts_with("\rkjson encode: 20 rows, ") && text.ends_with("rows/s\x1b[K\r\x1b[K"), "{text:?}");
    }
}
