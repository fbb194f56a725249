//! A progress bar on standard error, drawn only when it is a terminal so
//! that piped output and tests stay clean.

use std::io::{IsTerminal, Write};

pub struct Bar {
    total: u64,
    shown: u64,
    visible: bool,
}

impl Bar {
    pub fn new(total: u64) -> Bar {
        Bar { total, shown: u64::MAX, visible: std::io::stderr().is_terminal() && total > 0 }
    }

    pub fn tick(&mut self, done: u64) {
        if !self.visible {
            return;
        }
        let percent = done * 100 / self.total;
        if percent == self.shown {
            return;
        }
        self.shown = percent;
        let filled = (percent / 2) as usize;
        let mut err = std::io::stderr();
        let _ =
            write!(err, "\r[{}{}] {percent:>3}% {done}/{}", "#".repeat(filled), " ".repeat(50 - filled), self.total);
        let _ = err.flush();
    }

    pub fn finish(&mut self) {
        if self.visible {
            eprintln!();
        }
    }
}
