pub fn run(_s: &mut super::session::Session, _p: Option<u64>) -> anyhow::Result<super::Exit> {
    Ok(super::Exit::Done)
}
