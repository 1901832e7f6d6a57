//! Script lines checked against what a run produced: the IS-Viewer text
//! expectations and `expect audio` on captured samples. Each test parses
//! the lines as a user writes them, then checks them (no emulator).

use n64_harness::audio::Capture;
use n64_harness::expect::{audio, text};
use n64_harness::script::Script;

fn checked(src: &str, lines: &[(u32, &str)], frames: u32) -> Vec<(bool, String)> {
    let script = Script::parse(src).unwrap();
    let lines: Vec<(u32, String)> = lines.iter().map(|(f, l)| (*f, l.to_string())).collect();
    text::check(&script.texts, &lines, frames)
        .into_iter()
        .map(|c| (c.passed, c.detail))
        .collect()
}

#[test]
fn values_after_a_text() {
    let lines = [
        (10, "perf frames=60 frame_us_max=9000"),
        (70, "perf frames=60 frame_us_max=15000"),
        (130, "perf frames=59 frame_us_max=17000"),
        (140, "perf frame_us_max=none"),
    ];
    let results = checked(
        r#"expect "frame_us_max=" <= 16000 by 100
expect "frame_us_max=" <= 16000 by 130
expect "frames=" >= 60 from 5 by 100
expect "frames=" = 59 from 100 by 135
expect "frame_us_max=" <= 20000 from 135 by 150
expect "frame_us_max=" <= 1 from 300 by 400
"#,
        &lines,
        400,
    );
    assert_eq!(
        results,
        [
            (
                true,
                "2 lines from frame 10, values 9000..15000".to_string()
            ),
            (
                false,
                "frame 130: 17000 (of 3 lines from frame 10)".to_string()
            ),
            (true, "2 lines from frame 10, values 60..60".to_string()),
            (true, "1 lines from frame 130, values 59..59".to_string()),
            (
                false,
                "frame 140: no number after the text: \"perf frame_us_max=none\"".to_string()
            ),
            (false, "no line in frames 300..400".to_string()),
        ]
    );
    let s = Script::parse("expect \"x=\" <= 5 from 3 by 9").unwrap();
    assert_eq!(s.length(), Some(9));
    for bad in [
        "expect \"x=\" <= five by 9",
        "expect \"x=\" <= 5 from 10 by 9",
        "expect \"x=\" <= 5",
    ] {
        assert!(Script::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn bits_of_a_hex_number() {
    let lines = [
        (3, "pif boot-done 00000008"),
        (40, "pif boot-done 0x0000000c"),
        (80, "pif boot-done 00000001"),
        (90, "pif boot-done none"),
    ];
    let results = checked(
        r#"expect "pif boot-done " has bits 0x8 by 50
expect "pif boot-done " has bits 0xC from 30 by 50
expect "pif boot-done " has bits 0x8 by 85
expect "pif boot-done " has bits 0x1 from 85 by 95
expect "pif boot-done " has bits 0x8 from 100 by 200
"#,
        &lines,
        200,
    );
    assert_eq!(
        results,
        [
            (true, "2 lines, each with bits 0x8 set".to_string()),
            (true, "1 lines, each with bits 0xc set".to_string()),
            (false, "frame 80: 0x00000001 lacks bits 0x8".to_string()),
            (
                false,
                "frame 90: no hexadecimal number after the text: \"pif boot-done none\""
                    .to_string()
            ),
            (false, "no line in frames 100..200".to_string()),
        ]
    );
    let s = Script::parse("expect \"x \" has bits 0x8 from 3 by 9").unwrap();
    assert_eq!(s.length(), Some(9));
    for bad in [
        "expect \"x \" has bits eight by 9",
        "expect \"x \" has bits 0x8",
        "expect \"x \" has 0x8 by 9",
        "expect \"x \" has bits 0x8 from 10 by 9",
    ] {
        assert!(Script::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn every_sequence_count_absent() {
    let lines = [
        (0, "boot"),
        (2, "screen menu"),
        (60, "heartbeat 60"),
        (90, "screen game"),
        (95, "move X b2"),
        (100, "move O a1"),
        (120, "heartbeat 120"),
        (200, "heartbeat 200"),
        (210, "result x-wins"),
    ];
    let results = checked(
        r#"expect heartbeat every 80
expect heartbeat every 60
expect "move X b2" after "screen game"
expect "screen game" after "move X b2"
expect sequence "boot" "screen game" "move " "move " "result"
expect sequence "boot" "move " "move " "move "
expect count "move " = 2
expect count "move " >= 3
expect "result" not by 200
expect "result" not by 210
expect no "move" from 101 by 240
expect "heartbeat" every 80 from 100 to 150
"#,
        &lines,
        240,
    );
    let passed: Vec<bool> = results.iter().map(|r| r.0).collect();
    assert_eq!(
        passed,
        [true, false, true, false, true, false, true, false, true, false, true, true],
        "{results:#?}"
    );
    assert!(
        results[1].1.contains("none in frames 120..200"),
        "{}",
        results[1].1
    );
    assert!(results[3].1.contains("only before"), "{}", results[3].1);
    assert_eq!(results[4].1, "at frames 0, 90, 95, 100, 210");
    assert_eq!(results[6].1, "2 lines (frames 95..100)");
    assert!(results[9].1.contains("frame 210"), "{}", results[9].1);
    // A run that ends early cannot prove absence up to a later frame.
    let r = checked("expect \"zzz\" not by 500\n", &lines, 240);
    assert!(!r[0].0 && r[0].1.contains("ended at frame 240"));
}

/// A square wave of `hz` at 32 kHz for `n` samples, stereo.
fn tone(hz: u32, n: usize, level: i16) -> Vec<i16> {
    (0..n)
        .flat_map(|i| {
            let v = if (i as u32 * hz * 2 / 32_000) % 2 == 0 {
                level
            } else {
                -level
            };
            [v, v]
        })
        .collect()
}

fn capture() -> Capture {
    let mut c = Capture {
        keep: true,
        ..Capture::default()
    };
    // 32,006 Hz on NTSC.
    c.rates.push((0, m64p_abi::m64p::SYSTEM_NTSC, 1520));
    for frame in 1..=10 {
        c.push(frame, &vec![0; 1066]);
    }
    // One buffer covering frames 11..=16, reported at its end.
    let mut x = Vec::new();
    for _ in 11..=16 {
        x.extend(tone(1320, 533, 5000));
    }
    c.push(16, &x);
    for frame in 17..=22 {
        c.push(frame, &tone(660, 533, 5000));
    }
    c
}

fn audio_checked(src: &str, lines: &[(u32, &str)]) -> Vec<(bool, String)> {
    let script = Script::parse(src).unwrap();
    let lines: Vec<(u32, String)> = lines.iter().map(|(f, l)| (*f, l.to_string())).collect();
    let c = capture();
    script
        .audio
        .iter()
        .map(|a| audio::check(&a.check, &c, &lines))
        .collect()
}

#[test]
fn rate_silence_sound_and_pitch() {
    let lines = [(10, "sound place-x"), (16, "sound place-o")];
    let r = audio_checked(
        r#"expect audio rate 32000
expect audio rate 31000 within 2%
expect audio silent from 1 to 10
expect audio silent from 5 to 11
expect audio sound after "sound place-x" +1 for 3
expect audio sound from 1 to 10
expect audio pitch 1250..1400 after "sound place-x" +1 for 6
expect audio pitch 600..700 after "sound place-o" +1 for 6
expect audio higher after "sound place-x" for 6 than after "sound place-o" for 6
expect audio higher after "sound place-o" for 6 than after "sound place-x" for 6
expect audio pitch 1..2 from 1 to 10
expect audio silent before "sound place-x" for 9
expect audio silent after "sound win" for 9
expect audio silent from 100 to 200
expect audio continuous from 1 to 22
expect audio continuous from 1 to 26
"#,
        &lines,
    );
    let passed: Vec<bool> = r.iter().map(|x| x.0).collect();
    assert_eq!(
        passed,
        [
            true, false, true, false, true, false, true, true, true, false, false, true, false,
            true, true, false
        ],
        "{r:#?}"
    );
    assert!(r[0].1.starts_with("32006 Hz (NTSC"), "{}", r[0].1);
    assert!(r[10].1.contains("too little sound"), "{}", r[10].1);
    assert!(r[12].1.contains("no line number 1"), "{}", r[12].1);
    assert!(r[13].1.contains("0 samples"), "{}", r[13].1);
}

#[test]
fn windows_parse_and_print_as_written() {
    for line in [
        "expect audio rate 32000 within 0.5%",
        "expect audio silent from 1 to 55",
        "expect audio continuous after \"sound x\" +2 for 60",
        "expect audio sound after \"sound win\" +34 for 10",
        "expect audio silent before 2nd \"ai hard\" for 20",
        "expect audio pitch 80..120 after 3rd \"sound illegal\" +1 for 16",
        "expect audio higher after \"a\" for 8 than before 11th \"b\" for 8",
    ] {
        let script = Script::parse(line).unwrap();
        assert_eq!(audio::describe(&script.audio[0].check), line);
    }
    for bad in [
        "expect audio pitch 120..80 from 1 to 2",
        "expect audio silent before \"x\" +3 for 2",
        "expect audio sound after 0th \"x\" for 2",
        "expect audio sound after \"x\" for 0",
        "expect audio loud from 1 to 2",
        "expect audio rate 32000 within 5",
        "expect audio higher from 1 to 2",
    ] {
        assert!(Script::parse(bad).is_err(), "{bad}");
    }
    // A frame window counts towards the run length.
    let script = Script::parse("expect audio silent from 10 to 400").unwrap();
    assert_eq!(script.length(), Some(400));
}
