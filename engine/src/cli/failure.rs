//! How a command ends: its outcome, and the exit status and one-line message for it.

use std::io::{self, Write};
use std::process::ExitCode;

use super::signal;
use crate::ParseError;

/// What can end a command: bad input (exit 2), answers that disagree with the expected
/// ones or a claim found false (exit 1), an interrupt (exit 130 for Ctrl-C, 143 for
/// SIGTERM), or a failed write (a closed pipe ends quietly).
#[derive(Debug)]
pub enum Failure {
    /// Bad input: the message names the file, line and problem (exit 2).
    Input(String),
    /// This many answers disagree with the expected ones (exit 1).
    Mismatch(usize),
    /// A claim found false: a model, a proof or a witness that does not check (exit 1).
    Invalid(String),
    /// Ctrl-C or SIGTERM (exit 130 or 143).
    Interrupted,
    /// A failed write.
    Io(io::Error),
}

impl Failure {
    /// Bad input, the message being `error`'s (a typed error of a library, or a text).
    pub fn input(error: impl std::fmt::Display) -> Failure {
        Failure::Input(error.to_string())
    }

    /// A claim found false, the message being `error`'s.
    pub fn invalid(error: impl std::fmt::Display) -> Failure {
        Failure::Invalid(error.to_string())
    }
}

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Failure {
        Failure::Input(e.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

/// The exit status (and the one-line message) for the outcome of a command.
pub fn exit_code(program: &str, result: Result<(), Failure>) -> ExitCode {
    match result.and_then(|()| io::stdout().flush().map_err(Failure::from)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            eprintln!("{program}: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Mismatch(n)) => {
            eprintln!("{program}: {n} answers differ from the expected ones");
            ExitCode::from(1)
        }
        Err(Failure::Invalid(message)) => {
            eprintln!("{program}: {message}");
            ExitCode::from(1)
        }
        Err(Failure::Interrupted) => {
            let signal = match signal::stopping_signal() {
                0 => 2,
                s => s,
            };
            ExitCode::from((128 + signal).clamp(0, 255) as u8)
        }
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            eprintln!("{program}: {e}");
            ExitCode::from(2)
        }
    }
}
