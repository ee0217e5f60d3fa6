//! What the CLI test binaries share.
use std::process::Command;

/// The kjson binary, started through `KJSON_CLI_RUNNER` when set (a command prefix such as
/// `qemu-aarch64 -L /usr/aarch64-linux-gnu`, for a cross-built binary under qemu-user).
pub fn kjson_command() -> Command {
    let runner = std::env::var("KJSON_CLI_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    let Some(program) = words.next() else {
        return Command::new(env!("CARGO_BIN_EXE_kjson"));
    };
    let mut command = Command::new(program);
    command.args(words).arg(env!("CARGO_BIN_EXE_kjson"));
    command
}
