//! Parsing whole scripts: what each line becomes, and the errors bad lines
//! give (with their line numbers).

use super::value::parse_u32;
use super::*;
use crate::expect::screen::ScreenChanges;
use crate::expect::text::{CountOp, TextExpect};
use std::path::PathBuf;

fn err_line(src: &str) -> (usize, String) {
    let e = Script::parse(src).expect_err("should fail");
    (e.line, e.message)
}

#[test]
fn full_example_parses() {
    let src = r#"
# title screen
rom target/tictactoe.z64
cpu dynarec
unplug 4
at 120 press A on 1
at 130 press A+START on 2 for 3
at 140 hold Z on 1
at 150 release all on 1
at 160 stick 80 -40 on 1
at 10 unplug 3
at 20 plug 3
shot title.png at 200
expect "screen title" by 300
expect "heartbeat" from 200 by 290
expect pixel 56,202 is #a0a0a0 at 150
expect pixel 0,0 is #102040 within 0 at 150
expect u32 0x80000300 is 1 at 5
expect no "panic"
peek 0xA0000318 at 3
run 600
"#;
    let s = Script::parse(src).unwrap();
    assert_eq!(s.rom, Some(PathBuf::from("target/tictactoe.z64")));
    assert_eq!(s.cpu, Some(CpuMode::Dynarec));
    assert_eq!(s.run, Some(600));
    assert_eq!(s.length(), Some(600));
    assert_eq!(s.expectation_count(), 6);
    let a = Button::A.mask();
    assert!(s.events.contains(&Event {
        frame: 120,
        line: 6,
        action: Action::Hold { port: 0, mask: a }
    }));
    assert!(s.events.contains(&Event {
        frame: 120 + DEFAULT_PRESS_FRAMES,
        line: 6,
        action: Action::Release { port: 0, mask: a }
    }));
    let a_start = a | Button::Start.mask();
    assert!(s.events.contains(&Event {
        frame: 133,
        line: 7,
        action: Action::Release {
            port: 1,
            mask: a_start
        }
    }));
    assert!(s.events.contains(&Event {
        frame: 0,
        line: 5,
        action: Action::Unplug { port: 3 }
    }));
    assert!(s.events.contains(&Event {
        frame: 150,
        line: 9,
        action: Action::Release {
            port: 0,
            mask: ALL_BUTTONS_MASK
        }
    }));
    assert!(s.events.contains(&Event {
        frame: 160,
        line: 10,
        action: Action::Stick {
            port: 0,
            x: 80,
            y: -40
        }
    }));
    assert!(s.events.contains(&Event {
        frame: 150,
        line: 16,
        action: Action::ExpectPixel {
            x: 56,
            y: 202,
            rgb: [0xa0, 0xa0, 0xa0],
            tolerance: DEFAULT_PIXEL_TOLERANCE
        }
    }));
    assert!(s.events.contains(&Event {
        frame: 5,
        line: 18,
        action: Action::ExpectU32 {
            addr: 0x8000_0300,
            value: 1
        }
    }));
    assert_eq!(
        s.texts[1],
        TextExpect::Seen {
            text: "heartbeat".into(),
            from: 200,
            by: 290,
            line: 15
        }
    );
    assert_eq!(
        s.texts[2],
        TextExpect::Never {
            text: "panic".into(),
            line: 19
        }
    );
}

#[test]
fn rect_expectations() {
    let s = Script::parse(
        "expect rect 32,190 48x24 is #a0a0a0 at 9\nexpect rect 0,20 320x25 has #ffffff within 0 at 9",
    )
    .unwrap();
    assert_eq!(
        s.events[0].action,
        Action::ExpectRect {
            x: 32,
            y: 190,
            w: 48,
            h: 24,
            all: true,
            rgb: [0xa0; 3],
            tolerance: DEFAULT_PIXEL_TOLERANCE
        }
    );
    assert_eq!(
        s.events[1].action,
        Action::ExpectRect {
            x: 0,
            y: 20,
            w: 320,
            h: 25,
            all: false,
            rgb: [0xff; 3],
            tolerance: 0
        }
    );
    assert_eq!(s.expectation_count(), 2);
}

#[test]
fn trailing_comments() {
    let s = Script::parse(
        "at 5 press A on 1 # tap A\nexpect pixel 1,2 is #a0a0a0 at 9 #grey\nrun 10 #\nexpect \"a # b\" by 9 # x",
    )
    .unwrap();
    assert_eq!(s.run, Some(10));
    assert_eq!(s.events.len(), 3);
    assert_eq!(
        s.texts[0],
        TextExpect::Seen {
            text: "a # b".into(),
            from: 0,
            by: 9,
            line: 4
        }
    );
    let e = Script::parse("expect pixel 1,2 is #a0a0 at 9").unwrap_err();
    assert!(e.message.contains("expected a colour"), "{}", e.message);
}

#[test]
fn length_defaults_to_last_frame() {
    let s = Script::parse("at 10 press A on 1\nexpect \"x\" by 40\n").unwrap();
    assert_eq!(s.length(), Some(40));
    let s = Script::parse("at 40 press A on 1 for 20\n").unwrap();
    assert_eq!(s.length(), Some(60));
    let s = Script::parse("expect no \"panic\"\n").unwrap();
    assert_eq!(s.length(), None);
    let s = Script::parse("at 700 press A on 1\nrun 600\n").unwrap();
    let e = s.check_length(600).unwrap_err();
    assert_eq!(e.line, 1);
    assert!(s.check_length(800).is_ok());
}

#[test]
fn quoted_strings() {
    let s = Script::parse(r#"expect "say \"hi\" \\ there" by 5"#).unwrap();
    assert_eq!(
        s.texts[0],
        TextExpect::Seen {
            text: r#"say "hi" \ there"#.into(),
            from: 0,
            by: 5,
            line: 1
        }
    );
    let s = Script::parse("shot \"my shot.png\" at 3").unwrap();
    assert_eq!(
        s.events[0].action,
        Action::Shot {
            path: "my shot.png".into()
        }
    );
}

#[test]
fn bad_lines_name_their_line() {
    let cases = [
        ("# ok\n\nfrobnicate 3\n", 3, "unknown command"),
        ("at x press A on 1", 1, "bad frame number"),
        ("at 5 press Q on 1", 1, "unknown button `Q`"),
        ("at 5 press A on 5", 1, "bad port"),
        ("at 5 press A on", 1, "expected a port"),
        ("at 5 press A 1", 1, "expected `on`"),
        ("at 5 press A on 1 extra", 1, "unexpected `extra`"),
        ("at 5 press A on 1 for 0", 1, "at least 1 frame"),
        ("at 5 stick 200 0 on 1", 1, "bad stick value"),
        ("at 5 jump on 1", 1, "unknown action"),
        ("at 5", 1, "expected an action"),
        ("cpu turbo", 1, "unknown CPU mode"),
        ("run 0", 1, "at least 1"),
        ("run -4", 1, "bad frame number"),
        ("\n\nexpect \"unterminated by 5", 3, "unterminated"),
        ("expect \"a\"b by 5", 1, "missing space"),
        ("expect \"\" by 5", 1, "empty text"),
        ("expect \"x\" by", 1, "expected a frame number"),
        ("expect \"x\" from 9 by 5", 1, "is after"),
        ("expect title by 5", 1, "expected `\"text\" by F`"),
        ("expect no panic", 1, "quoted text"),
        ("expect pixel 56 is #a0a0a0 at 5", 1, "bad pixel position"),
        ("expect pixel 1,2 is a0a0a0 at 5", 1, "bad colour"),
        ("expect pixel 1,2 is #a0a0zz at 5", 1, "expected a colour"),
        (
            "expect pixel 1,2 is #a0a0a0 within 300 at 5",
            1,
            "bad tolerance",
        ),
        ("expect u32 0x80000301 is 1 at 5", 1, "not 4-byte aligned"),
        ("expect rect 1,2 48 is #000000 at 5", 1, "bad size"),
        ("expect rect 1,2 0x4 is #000000 at 5", 1, "bad size"),
        ("expect rect 1,2 4x4 are #000000 at 5", 1, "`is` or `has`"),
        ("expect rect 1,2 4x4 is #000000", 1, "expected `at`"),
        ("expect u32 0x1_0000_0000 is 1 at 5", 1, "bad number"),
        ("shot at 5", 1, "expected `at`"),
        ("at 99999999999 press A on 1", 1, "bad frame number"),
        ("at 20000000 press A on 1", 1, "beyond"),
        ("at 9999999 press A on 1 for 5", 1, "release frame"),
        ("unplug 0", 1, "bad port"),
        ("expect \"a\\n\" by 5", 1, "unknown escape"),
    ];
    for (src, line, needle) in cases {
        let (l, msg) = err_line(src);
        assert_eq!(l, line, "{src:?}: {msg}");
        assert!(msg.contains(needle), "{src:?}: `{msg}` lacks `{needle}`");
    }
}

#[test]
fn error_display_has_line_number() {
    let e = Script::parse("run 5\nbogus\n").unwrap_err();
    assert_eq!(e.to_string(), "line 2: unknown command `bogus`");
}

#[test]
fn button_masks_follow_m64p_plugin_h() {
    assert_eq!(Button::DRight.mask(), 1);
    assert_eq!(Button::A.mask(), 0x80);
    assert_eq!(Button::Start.mask(), 0x10);
    assert_eq!(Button::L.mask(), 0x2000);
    let all = Button::ALL.iter().fold(0, |m, b| m | b.mask());
    assert_eq!(all, ALL_BUTTONS_MASK);
    assert_eq!(Button::from_name("start"), Some(Button::Start));
    assert_eq!(Button::from_name("cright"), Some(Button::CRight));
}

#[test]
fn reset_and_power_cycle() {
    let s = Script::parse("at 300 reset\nat 400 power-cycle\n").unwrap();
    assert_eq!(
        s.events[0],
        Event {
            frame: 300,
            line: 1,
            action: Action::Reset { hard: false }
        }
    );
    assert_eq!(s.events[1].action, Action::Reset { hard: true });
    assert_eq!(s.length(), Some(400));
    assert_eq!(s.expectation_count(), 0);
    let (l, msg) = err_line("at 0 reset");
    assert_eq!(l, 1);
    assert!(msg.contains("at least 1"), "{msg}");
    assert!(err_line("at 5 reset now").1.contains("unexpected `now`"));
}

#[test]
fn pak_lines() {
    let s = Script::parse(
        "pak rumble on 1\nat 200 pak none on 1\nat 300 pak Rumble on 4\npak none on 2\nat 0 pak rumble on 3\n",
    )
    .unwrap();
    let paks: Vec<(u32, usize, Action)> = s
        .events
        .iter()
        .map(|e| (e.frame, e.line, e.action.clone()))
        .collect();
    assert_eq!(
        paks,
        [
            (
                0,
                1,
                Action::Pak {
                    port: 0,
                    pak: Pak::Rumble
                }
            ),
            (
                200,
                2,
                Action::Pak {
                    port: 0,
                    pak: Pak::None
                }
            ),
            (
                300,
                3,
                Action::Pak {
                    port: 3,
                    pak: Pak::Rumble
                }
            ),
            (
                0,
                4,
                Action::Pak {
                    port: 1,
                    pak: Pak::None
                }
            ),
            (
                0,
                5,
                Action::Pak {
                    port: 2,
                    pak: Pak::Rumble
                }
            ),
        ]
    );
    // A pak change is input, not a check; it sets the run length like
    // any event.
    assert_eq!(s.expectation_count(), 0);
    assert_eq!(s.length(), Some(300));
    assert_eq!(Pak::Rumble.control_plugin(), 3);
    assert_eq!(Pak::None.control_plugin(), 1);
    for (src, needle) in [
        (
            "pak memory on 1",
            "unknown pak `memory` (expected none or rumble)",
        ),
        ("pak rumble on 5", "bad port `5`"),
        ("pak rumble 1", "expected `on`"),
        ("pak rumble on", "expected a port"),
        ("pak", "expected a pak (rumble or none)"),
        ("pak on 1", "unknown pak `on`"),
        ("pak rumble on 1 at 5", "unexpected `at`"),
        ("at 5 pak rumble on 0", "bad port `0`"),
        ("at 5 pak transfer on 2", "unknown pak `transfer`"),
        ("at 5 pak none on 2 for 3", "unexpected `for`"),
        (
            "at 5",
            "(press, hold, release, stick, plug, unplug, pak, shot",
        ),
    ] {
        let (l, msg) = err_line(src);
        assert_eq!(l, 1);
        assert!(msg.contains(needle), "{src:?}: `{msg}` lacks `{needle}`");
    }
    let e = Script::parse("run 100\nat 150 pak rumble on 2\n")
        .unwrap()
        .check_length(100)
        .unwrap_err();
    assert_eq!(e.line, 2);
}

#[test]
fn random_lines() {
    let s = Script::parse(
        "random on 1,2,3,4 from 100 to 20100 seed 7\nrandom on 2 from 5 to 50 seed 99 buttons A+START no-stick with-unplug\n",
    )
    .unwrap();
    assert_eq!(
        s.randoms[0],
        RandomInput {
            ports: vec![0, 1, 2, 3],
            from: 100,
            to: 20100,
            seed: 7,
            buttons: ALL_BUTTONS_MASK,
            stick: true,
            unplug: false,
            line: 1
        }
    );
    let r = &s.randoms[1];
    assert_eq!(r.ports, vec![1]);
    assert_eq!(r.buttons, Button::A.mask() | Button::Start.mask());
    assert!(!r.stick && r.unplug);
    assert_eq!(s.length(), Some(20100));
    let e = s.check_length(10_000).unwrap_err();
    assert_eq!(e.line, 1);
    for (src, needle) in [
        ("random on 1 from 5 to 5 seed 1", "must be before"),
        ("random on 1,1 from 5 to 9 seed 1", "listed twice"),
        ("random on 5 from 5 to 9 seed 1", "bad port"),
        ("random on 1 from 5 to 9", "expected `seed`"),
        ("random on 1 from 5 to 9 seed x", "bad seed"),
        (
            "random on 1 from 5 to 9 seed 1 sometimes",
            "unexpected `sometimes`",
        ),
        ("random on 1 from 5 to 9 seed 1 buttons Q", "unknown button"),
    ] {
        let (l, msg) = err_line(src);
        assert_eq!(l, 1);
        assert!(msg.contains(needle), "{src:?}: `{msg}` lacks `{needle}`");
    }
}

#[test]
fn liveness_expectations() {
    let s = Script::parse(
        "expect heartbeat every 120\nexpect \"tick\" every 60 from 100 to 900\nexpect screen changes every 600\nexpect screen changes every 30 from 10 to 400\nrun 1000\n",
    )
    .unwrap();
    assert_eq!(
        s.texts[0],
        TextExpect::Every {
            text: "heartbeat".into(),
            period: 120,
            from: 0,
            to: None,
            line: 1
        }
    );
    assert_eq!(
        s.texts[1],
        TextExpect::Every {
            text: "tick".into(),
            period: 60,
            from: 100,
            to: Some(900),
            line: 2
        }
    );
    assert_eq!(
        s.screen,
        vec![
            ScreenChanges {
                period: 600,
                from: 0,
                to: None,
                line: 3
            },
            ScreenChanges {
                period: 30,
                from: 10,
                to: Some(400),
                line: 4
            }
        ]
    );
    assert_eq!(s.expectation_count(), 4);
    // `every` without `to` names no frame: the run length must be given.
    let s = Script::parse("expect heartbeat every 120\n").unwrap();
    assert_eq!(s.length(), None);
    let s = Script::parse("expect screen changes every 10 to 500\n").unwrap();
    assert_eq!(s.length(), Some(500));
    for (src, needle) in [
        ("expect heartbeat every 0", "at least 1 frame"),
        ("expect \"x\" every 10 from 50 to 40", "must be after"),
        ("expect screen changes", "expected `every`"),
        ("expect screen every 5", "expected `changes`"),
        ("expect heartbeat by 5", "after `expect`"),
    ] {
        let (l, msg) = err_line(src);
        assert_eq!(l, 1);
        assert!(msg.contains(needle), "{src:?}: `{msg}` lacks `{needle}`");
    }
}

#[test]
fn order_count_and_absence() {
    let s = Script::parse(
        r#"expect "move X b2" after "screen game"
expect sequence "a" "b" "c"
expect count "move " = 5
expect count "ai " >= 2
expect count "result" <= 1
expect "result" not by 300
expect no "panic" from 10 by 20
expect no "oops" by 20
expect no "panic"
"#,
    )
    .unwrap();
    assert_eq!(
        s.texts[0],
        TextExpect::Sequence {
            texts: vec!["screen game".into(), "move X b2".into()],
            line: 1
        }
    );
    assert_eq!(
        s.texts[1],
        TextExpect::Sequence {
            texts: vec!["a".into(), "b".into(), "c".into()],
            line: 2
        }
    );
    assert_eq!(
        s.texts[2],
        TextExpect::Count {
            text: "move ".into(),
            op: CountOp::Eq,
            n: 5,
            line: 3
        }
    );
    assert!(matches!(
        s.texts[3],
        TextExpect::Count {
            op: CountOp::AtLeast,
            n: 2,
            ..
        }
    ));
    assert!(matches!(
        s.texts[4],
        TextExpect::Count {
            op: CountOp::AtMost,
            n: 1,
            ..
        }
    ));
    assert_eq!(
        s.texts[5],
        TextExpect::Absent {
            text: "result".into(),
            from: 0,
            by: 300,
            line: 6
        }
    );
    assert_eq!(
        s.texts[6],
        TextExpect::Absent {
            text: "panic".into(),
            from: 10,
            by: 20,
            line: 7
        }
    );
    assert!(matches!(
        s.texts[7],
        TextExpect::Absent {
            from: 0,
            by: 20,
            ..
        }
    ));
    assert!(matches!(s.texts[8], TextExpect::Never { .. }));
    assert_eq!(s.length(), Some(300));
    assert!(CountOp::Eq.holds(5, 5) && !CountOp::Eq.holds(4, 5));
    assert!(CountOp::AtLeast.holds(6, 5) && !CountOp::AtMost.holds(6, 5));
    for (src, needle) in [
        ("expect sequence \"a\"", "at least two"),
        ("expect sequence \"a\" b", "quoted text"),
        ("expect count \"a\" > 5", "expected `=`"),
        ("expect count \"a\" = x", "bad number"),
        ("expect \"a\" after b", "quoted text"),
        ("expect \"a\" not 5", "expected `by`"),
        ("expect no \"a\" from 9 by 5", "is after"),
    ] {
        let (l, msg) = err_line(src);
        assert_eq!(l, 1);
        assert!(msg.contains(needle), "{src:?}: `{msg}` lacks `{needle}`");
    }
}

#[test]
fn trace_line() {
    let s = Script::parse("trace soak.log\nrun 5\n").unwrap();
    assert_eq!(s.trace, Some(PathBuf::from("soak.log")));
    assert!(err_line("trace").1.contains("expected a log file name"));
}

#[test]
fn numbers() {
    assert_eq!(parse_u32("0x8000_0300"), Ok(0x8000_0300));
    assert_eq!(parse_u32("42"), Ok(42));
    assert!(parse_u32("0x").is_err());
    assert!(parse_u32("-1").is_err());
    assert_eq!(CpuMode::from_name("DYNAREC"), Some(CpuMode::Dynarec));
    assert_eq!(CpuMode::Cached.r4300_emulator(), 1);
}
