//! Reading a script: one command per line, `#` starts a comment. The
//! first bad line is an error naming its number.

use super::model::{Action, RandomInput, Script, ScriptError, DEFAULT_PRESS_FRAMES, MAX_FRAME};
use super::names::{CpuMode, ALL_BUTTONS_MASK};
use super::parse_expect::parse_expect;
use super::token::{tokenize, Cursor, Token};
use super::value::{parse_axis, parse_buttons, parse_frame, parse_pak, parse_port, parse_u32};
use std::path::PathBuf;

impl Script {
    /// Parse a script. The first bad line is an error naming its number.
    pub fn parse(source: &str) -> Result<Script, ScriptError> {
        let mut script = Script::default();
        for (index, raw) in source.lines().enumerate() {
            let line = index + 1;
            let err = |message: String| ScriptError { line, message };
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let tokens = tokenize(trimmed).map_err(err)?;
            script.parse_line(line, &tokens).map_err(err)?;
        }
        Ok(script)
    }

    fn parse_line(&mut self, line: usize, tokens: &[Token]) -> Result<(), String> {
        let mut t = Cursor::new(tokens);
        let command = t.word("a command")?;
        match command.as_str() {
            "rom" => {
                let path = t.any("a ROM path")?;
                t.end()?;
                self.rom = Some(PathBuf::from(path));
            }
            "cpu" => {
                let name = t.word("a CPU mode")?;
                t.end()?;
                let mode = CpuMode::from_name(&name).ok_or_else(|| {
                    format!("unknown CPU mode `{name}` (expected pure, cached or dynarec)")
                })?;
                self.cpu = Some(mode);
            }
            "run" => {
                let n = parse_frame(&t.word("a frame count")?)?;
                t.end()?;
                if n == 0 {
                    return Err("`run` needs at least 1 frame".into());
                }
                self.run = Some(n);
            }
            "at" => {
                let frame = parse_frame(&t.word("a frame number")?)?;
                self.parse_at(line, frame, &mut t)?;
            }
            "plug" | "unplug" => {
                // Without `at`: the state at power-on.
                let port = parse_port(&t.word("a port (1-4)")?)?;
                t.end()?;
                let action = if command == "plug" {
                    Action::Plug { port }
                } else {
                    Action::Unplug { port }
                };
                self.push(0, line, action);
            }
            "pak" => {
                // Without `at`: the state at power-on.
                let action = parse_pak_action(&mut t)?;
                self.push(0, line, action);
            }
            "shot" => {
                let path = t.any("a PNG file name")?;
                t.keyword("at")?;
                let frame = parse_frame(&t.word("a frame number")?)?;
                t.end()?;
                if path.is_empty() {
                    return Err("empty file name".into());
                }
                self.push(
                    frame,
                    line,
                    Action::Shot {
                        path: PathBuf::from(path),
                    },
                );
            }
            "peek" => {
                let addr = parse_u32(&t.word("an address")?)?;
                t.keyword("at")?;
                let frame = parse_frame(&t.word("a frame number")?)?;
                t.end()?;
                self.push(frame, line, Action::Peek { addr });
            }
            "expect" => parse_expect(self, line, &mut t)?,
            "random" => self.parse_random(line, &mut t)?,
            "trace" => {
                let path = t.any("a log file name")?;
                t.end()?;
                if path.is_empty() {
                    return Err("empty file name".into());
                }
                self.trace = Some(PathBuf::from(path));
            }
            other => return Err(format!("unknown command `{other}`")),
        }
        Ok(())
    }

    fn parse_at(&mut self, line: usize, frame: u32, t: &mut Cursor<'_>) -> Result<(), String> {
        let verb = t.word(
            "an action (press, hold, release, stick, plug, unplug, pak, shot, reset, power-cycle)",
        )?;
        match verb.as_str() {
            "press" | "hold" | "release" => {
                let buttons = t.word("buttons, e.g. A or A+START")?;
                let mask = if verb == "release" && buttons.eq_ignore_ascii_case("all") {
                    ALL_BUTTONS_MASK
                } else {
                    parse_buttons(&buttons)?
                };
                t.keyword("on")?;
                let port = parse_port(&t.word("a port (1-4)")?)?;
                let mut duration = DEFAULT_PRESS_FRAMES;
                if verb == "press" && t.peek_word() == Some("for") {
                    t.keyword("for")?;
                    duration = parse_frame(&t.word("a number of frames")?)?;
                    if duration == 0 {
                        return Err("`press ... for` needs at least 1 frame".into());
                    }
                }
                t.end()?;
                match verb.as_str() {
                    "press" => {
                        let release = frame
                            .checked_add(duration)
                            .filter(|f| *f <= MAX_FRAME)
                            .ok_or_else(|| format!("release frame beyond {MAX_FRAME}"))?;
                        self.push(frame, line, Action::Hold { port, mask });
                        self.push(release, line, Action::Release { port, mask });
                    }
                    "hold" => self.push(frame, line, Action::Hold { port, mask }),
                    _ => self.push(frame, line, Action::Release { port, mask }),
                }
            }
            "stick" => {
                let x = parse_axis(&t.word("a stick X (-128..127)")?)?;
                let y = parse_axis(&t.word("a stick Y (-128..127)")?)?;
                t.keyword("on")?;
                let port = parse_port(&t.word("a port (1-4)")?)?;
                t.end()?;
                self.push(frame, line, Action::Stick { port, x, y });
            }
            "plug" | "unplug" => {
                let port = parse_port(&t.word("a port (1-4)")?)?;
                t.end()?;
                let action = if verb == "plug" {
                    Action::Plug { port }
                } else {
                    Action::Unplug { port }
                };
                self.push(frame, line, action);
            }
            "pak" => {
                let action = parse_pak_action(t)?;
                self.push(frame, line, action);
            }
            "shot" => {
                let path = t.any("a PNG file name")?;
                t.end()?;
                self.push(
                    frame,
                    line,
                    Action::Shot {
                        path: PathBuf::from(path),
                    },
                );
            }
            "reset" | "power-cycle" => {
                t.end()?;
                if frame == 0 {
                    return Err(format!(
                        "`{verb}` needs a frame after power-on (at least 1)"
                    ));
                }
                let hard = verb == "power-cycle";
                self.push(frame, line, Action::Reset { hard });
            }
            other => return Err(format!("unknown action `{other}` after `at {frame}`")),
        }
        Ok(())
    }
    fn parse_random(&mut self, line: usize, t: &mut Cursor<'_>) -> Result<(), String> {
        t.keyword("on")?;
        let list = t.word("ports, e.g. 1,2,3,4")?;
        let mut ports = Vec::new();
        for p in list.split(',') {
            let port = parse_port(p)?;
            if ports.contains(&port) {
                return Err(format!("port {p} listed twice"));
            }
            ports.push(port);
        }
        t.keyword("from")?;
        let from = parse_frame(&t.word("a frame number")?)?;
        t.keyword("to")?;
        let to = parse_frame(&t.word("a frame number")?)?;
        if from >= to {
            return Err(format!("`from {from}` must be before `to {to}`"));
        }
        t.keyword("seed")?;
        let w = t.word("a seed (a number)")?;
        let seed = w
            .parse::<u64>()
            .map_err(|_| format!("bad seed `{w}` (expected a number)"))?;
        let mut random = RandomInput {
            ports,
            from,
            to,
            seed,
            buttons: ALL_BUTTONS_MASK,
            stick: true,
            unplug: false,
            line,
        };
        while let Some(option) = t.peek_word() {
            match option {
                "with-unplug" => random.unplug = true,
                "no-stick" => random.stick = false,
                "buttons" => {
                    t.keyword("buttons")?;
                    random.buttons = parse_buttons(&t.word("buttons, e.g. A+B+START")?)?;
                    continue;
                }
                other => {
                    return Err(format!(
                        "unexpected `{other}` (options: buttons A+B..., no-stick, with-unplug)"
                    ))
                }
            }
            t.skip();
        }
        t.end()?;
        self.randoms.push(random);
        Ok(())
    }
}

/// The rest of `pak KIND on PORT` (after `pak`).
fn parse_pak_action(t: &mut Cursor<'_>) -> Result<Action, String> {
    let pak = parse_pak(&t.word("a pak (rumble or none)")?)?;
    t.keyword("on")?;
    let port = parse_port(&t.word("a port (1-4)")?)?;
    t.end()?;
    Ok(Action::Pak { port, pak })
}
