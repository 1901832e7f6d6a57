//! Seeded pseudo-random controller input (`random on 1,2 from A to B seed S`).
//!
//! Each port has its own generator, seeded from the script's seed and the
//! port number, and advanced exactly once per frame of the window, so the
//! input of a frame depends only on the seed and the frame: the same in
//! every CPU mode and on every run.
//!
//! What it does, per port and frame, when the port is idle: about one frame
//! in nine starts a short press (1-2 buttons, 1-8 frames), one in seventy a
//! hold (1-2 buttons, 20-180 frames); independently, one frame in thirty
//! moves the stick (to the centre, one of eight directions, or anywhere).
//! With `with-unplug`, one idle frame in five hundred pulls the controller
//! out for 10-300 frames. At the last frame everything is released, the
//! sticks centred and pulled controllers plugged back in.

use crate::script::RandomInput;

/// One change the generator makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Set the port's held buttons to exactly this mask.
    Buttons {
        port: u8,
        mask: u32,
    },
    Stick {
        port: u8,
        x: i8,
        y: i8,
    },
    Plug {
        port: u8,
    },
    Unplug {
        port: u8,
    },
}

/// splitmix64: small, fast, and well mixed from any seed.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-enough in `0..n` (n > 0).
    fn below(&mut self, n: u32) -> u32 {
        (((self.next() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// In `lo..=hi`.
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(hi - lo + 1)
    }
}

#[derive(Clone, Debug)]
struct PortGen {
    port: u8,
    rng: Rng,
    /// Frames left of the current press or hold (0: idle).
    hold_left: u32,
    /// Frames left unplugged (0: plugged in).
    unplugged_left: u32,
    /// Whether this generator pulled the controller out.
    pulled: bool,
}

/// The generator of one `random` line.
#[derive(Clone, Debug)]
pub struct Generator {
    spec: RandomInput,
    /// The buttons it may press, one bit each.
    choices: Vec<u32>,
    ports: Vec<PortGen>,
}

impl Generator {
    pub fn new(spec: &RandomInput) -> Generator {
        let choices: Vec<u32> = (0..14)
            .map(|b| 1u32 << b)
            .filter(|m| spec.buttons & m != 0)
            .collect();
        let ports = spec
            .ports
            .iter()
            .map(|&port| PortGen {
                port,
                rng: Rng(spec.seed ^ (u64::from(port) + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)),
                hold_left: 0,
                unplugged_left: 0,
                pulled: false,
            })
            .collect();
        Generator {
            spec: spec.clone(),
            choices,
            ports,
        }
    }

    pub fn line(&self) -> usize {
        self.spec.line
    }

    /// The changes at `frame` (call once per frame, frames in order).
    /// Nothing outside `from..=to`.
    pub fn step(&mut self, frame: u32, out: &mut Vec<Change>) {
        if frame < self.spec.from || frame > self.spec.to {
            return;
        }
        let end = frame == self.spec.to;
        for g in &mut self.ports {
            let port = g.port;
            if end {
                out.push(Change::Buttons { port, mask: 0 });
                if self.spec.stick {
                    out.push(Change::Stick { port, x: 0, y: 0 });
                }
                if g.pulled {
                    g.pulled = false;
                    out.push(Change::Plug { port });
                }
                continue;
            }
            if g.unplugged_left > 0 {
                g.unplugged_left -= 1;
                if g.unplugged_left == 0 {
                    g.pulled = false;
                    out.push(Change::Plug { port });
                }
                continue;
            }
            if g.hold_left > 0 {
                g.hold_left -= 1;
                if g.hold_left == 0 {
                    out.push(Change::Buttons { port, mask: 0 });
                }
            } else {
                let r = g.rng.below(1000);
                if r < 125 {
                    if !self.choices.is_empty() {
                        let long = r >= 110;
                        let mut mask =
                            self.choices[g.rng.below(self.choices.len() as u32) as usize];
                        if g.rng.below(5) == 0 {
                            mask |= self.choices[g.rng.below(self.choices.len() as u32) as usize];
                        }
                        g.hold_left = if long {
                            g.rng.range(20, 180)
                        } else {
                            g.rng.range(1, 8)
                        };
                        out.push(Change::Buttons { port, mask });
                    }
                } else if r < 127 && self.spec.unplug {
                    g.unplugged_left = g.rng.range(10, 300);
                    g.pulled = true;
                    out.push(Change::Buttons { port, mask: 0 });
                    out.push(Change::Unplug { port });
                    continue;
                }
            }
            if self.spec.stick && g.rng.below(30) == 0 {
                let (x, y) = match g.rng.below(5) {
                    0 | 1 => (0, 0),
                    2 | 3 => {
                        const DIRS: [(i8, i8); 8] = [
                            (0, 1),
                            (1, 1),
                            (1, 0),
                            (1, -1),
                            (0, -1),
                            (-1, -1),
                            (-1, 0),
                            (-1, 1),
                        ];
                        let (dx, dy) = DIRS[g.rng.below(8) as usize];
                        let amount = if g.rng.below(2) == 0 { 80 } else { 127 };
                        (dx * amount, dy * amount)
                    }
                    _ => (
                        (g.rng.below(256) as i32 - 128) as i8,
                        (g.rng.below(256) as i32 - 128) as i8,
                    ),
                };
                out.push(Change::Stick { port, x, y });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::{Button, Script, ALL_BUTTONS_MASK};

    fn spec(src: &str) -> RandomInput {
        Script::parse(src).unwrap().randoms.remove(0)
    }

    fn run(spec: &RandomInput) -> Vec<(u32, Change)> {
        let mut g = Generator::new(spec);
        let mut all = Vec::new();
        let mut out = Vec::new();
        for f in 0..=spec.to + 10 {
            out.clear();
            g.step(f, &mut out);
            all.extend(out.iter().map(|c| (f, *c)));
        }
        all
    }

    #[test]
    fn same_seed_same_input_other_seed_other_input() {
        let a = spec("random on 1,2,3,4 from 100 to 5100 seed 7 with-unplug");
        let b = spec("random on 1,2,3,4 from 100 to 5100 seed 8 with-unplug");
        assert_eq!(run(&a), run(&a));
        assert_ne!(run(&a), run(&b));
    }

    #[test]
    fn stays_in_window_and_releases_at_the_end() {
        let s = spec("random on 2,4 from 100 to 2100 seed 1 with-unplug");
        let changes = run(&s);
        assert!(changes.iter().all(|(f, _)| (100..=2100).contains(f)));
        // Replay: at the end both ports are released, centred, plugged in.
        let mut buttons = [0u32; 4];
        let mut stick = [(0i8, 0i8); 4];
        let mut present = [true; 4];
        let (mut presses, mut unplugs) = (0, 0);
        for (_, c) in &changes {
            match *c {
                Change::Buttons { port, mask } => {
                    assert!(port == 1 || port == 3);
                    if mask != 0 {
                        presses += 1;
                    }
                    buttons[port as usize] = mask
                }
                Change::Stick { port, x, y } => stick[port as usize] = (x, y),
                Change::Plug { port } => present[port as usize] = true,
                Change::Unplug { port } => {
                    unplugs += 1;
                    present[port as usize] = false
                }
            }
        }
        assert_eq!(buttons, [0; 4]);
        assert_eq!(stick, [(0, 0); 4]);
        assert_eq!(present, [true; 4]);
        // 2000 frames, 2 ports: lots of presses, a few unplugs.
        assert!(presses > 80, "{presses}");
        assert!((1..40).contains(&unplugs), "{unplugs}");
    }

    #[test]
    fn only_the_chosen_buttons_no_stick_no_unplug() {
        let s = spec("random on 1 from 1 to 3001 seed 3 buttons A+START no-stick");
        let allowed = Button::A.mask() | Button::Start.mask();
        let changes = run(&s);
        let mut durations = Vec::new();
        let mut pressed_at = None;
        for (f, c) in &changes {
            match *c {
                Change::Buttons { mask, .. } => {
                    assert_eq!(mask & !allowed, 0);
                    if mask != 0 {
                        pressed_at = Some(*f);
                    } else if let Some(p) = pressed_at.take() {
                        durations.push(f - p);
                    }
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        let short = durations.iter().filter(|d| **d <= 8).count();
        let long = durations.len() - short;
        assert!(short > 5 * long && long > 0, "{short} short, {long} long");
        assert_eq!(s.buttons & ALL_BUTTONS_MASK, allowed);
    }
}
