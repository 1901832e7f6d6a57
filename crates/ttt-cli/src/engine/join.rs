//! `ttt join`: the parts of a proof (`ttt solve --part N`, or a `--resume`
//! journal) joined into one certificate, which is then checked.
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::common::{grouped, input_error};
use crate::engine::parts;
use crate::interrupt::Interrupt;
use crate::output_file::{same_file, OutputFile};

const AFTER_HELP: &str = "\
Reads part files written by `ttt solve --part N --certificate FILE` (or a
journal of `ttt solve --resume FILE`), picks the sections the board's value
needs (X wins: one part that says so; a draw: every first move's part and part
0), and writes them as one certificate, checked as `ttt verify` checks it, one
section at a time, while it is written. The output is written as `ttt solve
--certificate` writes it: a regular file is replaced only by a certificate that
holds. Exit status 0: the certificate holds; 2: a part is missing, cut off, of
another board, or wrong (the reason is printed), or Ctrl-C (or SIGTERM, SIGHUP,
SIGQUIT) stopped the join; no file is then put in place.

Examples:
  ttt solve --size 6x6 -k 5 --list-parts | \\
    parallel ttt solve --size 6x6 -k 5 --threads 1 --part {} --certificate 665-{}.part
  ttt join --output 665.cert 665-*.part && ttt verify 665.cert";

/// Arguments of `ttt join`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct JoinArgs {
    /// The part files.
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<PathBuf>,
    /// The certificate to write.
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
}

/// Runs `ttt join`.
pub fn run(args: &JoinArgs) -> anyhow::Result<()> {
    if let Some(part) = args.parts.iter().find(|p| same_file(p, &args.output)) {
        return Err(input_error(format!(
            "--output {}: the same file as the part {}: the certificate would replace it",
            args.output.display(),
            part.display()
        )));
    }
    let output = OutputFile::prepare(&args.output, "--output")?;
    let inputs: Vec<&Path> = args.parts.iter().map(PathBuf::as_path).collect();
    // Ctrl-C and the like stop the join cleanly: no file put in place.
    let interrupt = Interrupt::default();
    let handlers = interrupt.on_signals()?;
    let joined = parts::join(&inputs, output, interrupt.flag());
    drop(handlers);
    let joined = joined.map_err(|e| input_error(format!("{e:#}")))?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{}: valid proof: {} {} ({} of {} sections, {} entries, {} positions checked, {} bytes; \
         written and checked in {:.3} s)",
        args.output.display(),
        joined.checked.rules,
        joined.claim,
        joined.sections,
        joined.sections_read,
        grouped(joined.checked.entries as u64),
        grouped(joined.checked.positions),
        grouped(joined.bytes),
        joined.seconds
    )?;
    Ok(())
}
