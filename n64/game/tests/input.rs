//! The input tracker: edges, auto-repeat, the stick as a D-pad.
use ttt64_game::{Buttons, InputTracker, RawPort, Refresh};

const NTSC: Refresh = Refresh::hz(60);

/// Port 1 with `buttons` held since the last reading, and the stick at
/// (`x`, `y`).
fn port(buttons: Buttons, x: i8, y: i8) -> [RawPort; 4] {
    let mut raw = [RawPort::default(); 4];
    raw[0] = RawPort {
        connected: true,
        buttons,
        pressed: Buttons::NONE,
        stick_x: x,
        stick_y: y,
        rumble_pak: false,
    };
    raw
}

/// Port 1 with `buttons` pressed since the last reading.
fn pressed(buttons: Buttons) -> [RawPort; 4] {
    let mut raw = port(buttons, 0, 0);
    raw[0].pressed = buttons;
    raw
}

#[test]
fn a_rumble_pak_is_reported_only_while_connected() {
    let mut t = InputTracker::new(NTSC);
    let mut raw = port(Buttons::NONE, 0, 0);
    raw[0].rumble_pak = true;
    let input = t.update(&raw);
    assert!(input.ports[0].rumble_pak);
    assert!(!input.ports[1].rumble_pak);
    assert!(input.merged().rumble_pak);
    raw[0].connected = false;
    let input = t.update(&raw);
    assert!(!input.ports[0].rumble_pak, "no controller, no pak");
    assert!(!input.merged().rumble_pak);
}

#[test]
fn presses_are_the_readings_edges_and_never_repeat() {
    let mut t = InputTracker::new(NTSC);
    let a = t.update(&pressed(Buttons::A));
    assert!(a.ports[0].pressed.contains(Buttons::A));
    assert!(a.ports[0].held.contains(Buttons::A));
    let b = t.update(&port(Buttons::A, 0, 0));
    assert!(!b.ports[0].pressed.contains(Buttons::A));
    assert!(b.ports[0].held.contains(Buttons::A));
    // A is never auto-repeated.
    for _ in 0..100 {
        assert!(!t.update(&port(Buttons::A, 0, 0)).ports[0]
            .repeated
            .contains(Buttons::A));
    }
    assert!(!a.ports[1].connected);
}

fn repeat_frames(mut frame: impl FnMut(&mut InputTracker) -> bool, frames: usize) -> Vec<usize> {
    let mut t = InputTracker::new(NTSC);
    (0..frames).filter(|_| frame(&mut t)).collect::<Vec<_>>()
}

#[test]
fn dpad_repeats_after_a_delay() {
    let fired = repeat_frames(
        |t| {
            t.update(&port(Buttons::DRIGHT, 0, 0)).ports[0]
                .repeated
                .contains(Buttons::DRIGHT)
        },
        60,
    );
    let repeat = InputTracker::new(NTSC).repeat();
    let d = repeat.delay as usize;
    let r = repeat.interval as usize;
    let want: Vec<usize> = std::iter::once(0).chain((d..60).step_by(r)).collect();
    assert_eq!(fired, want);
}

#[test]
fn stick_maps_to_directions_with_threshold_and_repeat() {
    // Below the threshold: nothing.
    let none = repeat_frames(
        |t| {
            !t.update(&port(Buttons::NONE, 20, -20)).ports[0]
                .repeated
                .is_empty()
        },
        60,
    );
    assert!(none.is_empty());
    // Up (positive y) and left (negative x), repeating like the D-pad.
    let up = repeat_frames(
        |t| {
            t.update(&port(Buttons::NONE, 0, 80)).ports[0]
                .repeated
                .contains(Buttons::DUP)
        },
        60,
    );
    assert_eq!(up[0], 0);
    assert_eq!(up[1], InputTracker::new(NTSC).repeat().delay as usize);
    let left = repeat_frames(
        |t| {
            t.update(&port(Buttons::NONE, -80, 0)).ports[0]
                .repeated
                .contains(Buttons::DLEFT)
        },
        2,
    );
    assert_eq!(left, [0]);
    // Stick directions are not button edges.
    let mut t = InputTracker::new(NTSC);
    assert!(t.update(&port(Buttons::NONE, 0, -80)).ports[0]
        .pressed
        .is_empty());
}

#[test]
fn stick_hysteresis_does_not_chatter() {
    let mut t = InputTracker::new(NTSC);
    let mut fires = 0;
    // Hovering around the threshold (between off and on) fires once.
    for i in 0..10 {
        let x = if i % 2 == 0 { 41 } else { 30 };
        if t.update(&port(Buttons::NONE, x, 0)).ports[0]
            .repeated
            .contains(Buttons::DRIGHT)
        {
            fires += 1;
        }
    }
    assert_eq!(fires, 1);
}

#[test]
fn unplugging_clears_the_state() {
    let mut t = InputTracker::new(NTSC);
    t.update(&port(Buttons::B, 0, 0));
    let mut raw = port(Buttons::B, 0, 0);
    raw[0].connected = false;
    let off = t.update(&raw);
    assert_eq!(off.ports[0], Default::default());
    // Back with B held: the reading's new edge.
    assert!(t.update(&pressed(Buttons::B)).ports[0]
        .pressed
        .contains(Buttons::B));
}

#[test]
fn buttons_layout_is_the_wire_format() {
    assert_eq!(Buttons::A.0, 0x8000);
    assert_eq!(Buttons::START.0, 0x1000);
    assert_eq!(Buttons::DRIGHT.0, 0x0100);
    assert_eq!(Buttons::L.0, 0x0020);
    assert_eq!(Buttons::CRIGHT.0, 0x0001);
    assert!(Buttons(0x9000).contains(Buttons::A | Buttons::START));
    assert!(!Buttons(0x8000).contains(Buttons::NONE));
}
