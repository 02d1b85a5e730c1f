//! Background jobs: loading, comparing and exporting never run on the UI thread.
//!
//! A job is a closure run on its own thread with a cancel flag; its result comes back through a
//! channel and the UI is asked to repaint so it is picked up at once. Each job carries a label and
//! its start time for the status bar, which offers a cancel button.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

/// A job's identity, to match results with the job that produced them.
pub type JobId = u64;

/// A job still running.
#[derive(Debug)]
pub struct RunningJob {
    pub id: JobId,
    pub label: String,
    pub started: Instant,
    cancel: Arc<AtomicBool>,
}

impl RunningJob {
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Starts jobs and collects their results of type `R`.
pub struct Jobs<R> {
    next_id: JobId,
    sender: Sender<(JobId, R)>,
    receiver: Receiver<(JobId, R)>,
    running: Vec<RunningJob>,
}

impl<R: Send + 'static> Default for Jobs<R> {
    fn default() -> Self {
        let (sender, receiver) = channel();
        Jobs {
            next_id: 0,
            sender,
            receiver,
            running: Vec::new(),
        }
    }
}

impl<R: Send + 'static> Jobs<R> {
    /// Runs `work` on a new thread. `repaint` is called when it finishes.
    pub fn spawn(
        &mut self,
        label: impl Into<String>,
        repaint: impl Fn() + Send + 'static,
        work: impl FnOnce(&AtomicBool) -> R + Send + 'static,
    ) -> JobId {
        let id = self.next_id;
        self.next_id += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let sender = self.sender.clone();
        let label = label.into();
        let spawned = std::thread::Builder::new()
            .name(format!("simdoc job {id}"))
            .spawn(move || {
                let result = work(&flag);
                // The receiver lives as long as the app; if it is gone, nobody waits.
                let _ = sender.send((id, result));
                repaint();
            });
        if spawned.is_ok() {
            self.running.push(RunningJob {
                id,
                label,
                started: Instant::now(),
                cancel,
            });
        }
        id
    }

    /// Results of finished jobs since the last call.
    pub fn finished(&mut self) -> Vec<(JobId, R)> {
        let done: Vec<(JobId, R)> = self.receiver.try_iter().collect();
        self.running
            .retain(|job| !done.iter().any(|(id, _)| *id == job.id));
        done
    }

    pub fn running(&self) -> &[RunningJob] {
        &self.running
    }

    pub fn is_busy(&self) -> bool {
        !self.running.is_empty()
    }

    /// Asks every job whose label satisfies `which` to stop.
    pub fn cancel_where(&self, which: impl Fn(&RunningJob) -> bool) {
        for job in self.running.iter().filter(|j| which(j)) {
            job.cancel();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_and_cancel_reaches_the_job() {
        let mut jobs: Jobs<u32> = Jobs::default();
        let id = jobs.spawn("add", || {}, |_| 1 + 1);
        let slow = jobs.spawn(
            "slow",
            || {},
            |cancel| {
                while !cancel.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                7
            },
        );
        jobs.cancel_where(|j| j.label == "slow");
        let mut got = Vec::new();
        while got.len() < 2 {
            got.extend(jobs.finished());
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        got.sort();
        assert_eq!(got, vec![(id, 2), (slow, 7)]);
        assert!(!jobs.is_busy());
    }
}
