//! `pbrain-ttt`: the Gomocup brain (the same as `ttt pbrain`), named the way
//! Gomocup managers want brains named.
fn main() {
    if let Err(e) = ttt_cli::pbrain::run_stdio(1) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            ttt_cli::common::print_err(format_args!("pbrain-ttt: {e}"));
            std::process::exit(1);
        }
    }
}
