//! The save format.
use ttt64_game::save::BLOCK;
use ttt64_game::save::{crc32, SAVE_MAGIC, SAVE_VERSION, SAVE_VERSION_1, SAVE_VERSION_2};
use ttt64_game::{
    First, Mode, SaveBlocks, SaveData, SaveError, SaveProgress, SaveWriter, Score, Settings,
    SAVE_SIZE,
};
use ttt_core::WinCondition;

#[test]
fn round_trip_and_layout() {
    let mut d = SaveData::default();
    d.scores[Mode::TwoPads.index()] = Score {
        wins: 1,
        losses: 65_536,
        draws: u32::MAX,
    };
    d.settings = Settings {
        mode: Mode::ComputerVsComputer,
        size: 9,
        k: 5,
        win: WinCondition::AtLeastK,
        computer: 10,
        computer2: 0,
        think: 0,
        first: First::Alternate,
        rumble: false,
    };
    let b = d.encode();
    assert_eq!(b.len(), SAVE_SIZE);
    assert_eq!(SAVE_SIZE % 8, 0, "whole EEPROM blocks");
    assert_eq!(b[0..4], SAVE_MAGIC);
    assert_eq!(b[4], SAVE_VERSION);
    assert_eq!(b[62], 0, "rumble off");
    assert_eq!(SaveData::decode(&b), Ok(d));
    d.settings.rumble = true;
    let b = d.encode();
    assert_eq!(b[62], 1, "rumble on");
    assert_eq!(SaveData::decode(&b), Ok(d));
    // The gomoku boards, their rules and the think time (version 3).
    for (size, k, win, byte) in [
        (15, 5, WinCondition::Renju, 2),
        (12, 5, WinCondition::ExactlyK, 1),
        (10, 4, WinCondition::AtLeastK, 0),
    ] {
        for think in 0..3 {
            d.settings.size = size;
            d.settings.k = k;
            d.settings.win = win;
            d.settings.think = think;
            let b = d.encode();
            assert_eq!(b[57..59], [size, k]);
            assert_eq!(b[64..66], [byte, think], "rules and think time");
            assert_eq!(SaveData::decode(&b), Ok(d));
        }
    }
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
}

#[test]
fn every_single_bit_flip_is_detected() {
    let b = SaveData::default().encode();
    for i in 0..SAVE_SIZE * 8 {
        let mut c = b;
        c[i / 8] ^= 1 << (i % 8);
        assert!(SaveData::decode(&c).is_err(), "bit {i}");
    }
}

#[test]
fn blank_short_and_garbage() {
    assert_eq!(SaveData::decode(&[0; SAVE_SIZE]), Err(SaveError::Blank));
    assert_eq!(SaveData::decode(&[0xFF; SAVE_SIZE]), Err(SaveError::Blank));
    assert_eq!(SaveData::decode(&[0; 10]), Err(SaveError::Short));
    let mut rng = ttt_core::rng::Rng::new(1);
    for _ in 0..10_000 {
        let mut b = [0u8; SAVE_SIZE];
        for x in b.iter_mut() {
            *x = rng.next_u64() as u8;
        }
        b[..4].copy_from_slice(&SAVE_MAGIC);
        b[4] = SAVE_VERSION;
        b[5] = 4;
        let _ = SaveData::decode(&b);
    }
}

#[test]
fn out_of_range_settings_fall_back_to_defaults() {
    let mut d = SaveData::default();
    d.scores[0].wins = 5;
    let mut b = d.encode();
    b[57] = 16; // size 16: not offered
    let crc = crc32(&b[..68]);
    b[68..72].copy_from_slice(&crc.to_be_bytes());
    let got = SaveData::decode(&b).unwrap();
    assert_eq!(got.scores[0].wins, 5);
    assert_eq!(got.settings, Settings::default());
}

/// `bytes` with a fresh checksum.
fn resealed(mut b: [u8; SAVE_SIZE]) -> [u8; SAVE_SIZE] {
    let crc = crc32(&b[..68]);
    b[68..72].copy_from_slice(&crc.to_be_bytes());
    b
}

/// A save as the version 1 ROM wrote it (byte 62 reserved, 0): scores and
/// settings as in `d`, without the Rumble setting.
fn version_1_save(d: &SaveData) -> [u8; SAVE_SIZE] {
    let mut b = d.encode();
    b[4] = SAVE_VERSION_1;
    b[62] = 0;
    resealed(b)
}

#[test]
fn a_version_1_save_loads_with_rumble_on() {
    let mut d = SaveData::default();
    d.scores[Mode::OnePlayer.index()] = Score {
        wins: 3,
        losses: 2,
        draws: 1,
    };
    d.settings = Settings {
        mode: Mode::TwoPads,
        size: 5,
        k: 4,
        win: WinCondition::AtLeastK,
        computer: 2,
        computer2: 7,
        think: Settings::default().think,
        first: First::Random,
        rumble: false,
    };
    let got = SaveData::decode(&version_1_save(&d)).unwrap();
    assert_eq!(got.scores, d.scores);
    assert_eq!(
        got.settings,
        Settings {
            rumble: true,
            ..d.settings
        },
        "version 1 had no Rumble setting: on, the default"
    );
    // Written again, it is a version 3 save that keeps everything.
    let again = got.encode();
    assert_eq!(again[4], SAVE_VERSION);
    assert_eq!(SaveData::decode(&again), Ok(got));
}

#[test]
fn unknown_versions_and_bad_rumble_bytes() {
    let d = SaveData::default();
    for version in [0, 4, 0xFF] {
        let mut b = d.encode();
        b[4] = version;
        assert_eq!(
            SaveData::decode(&resealed(b)),
            Err(SaveError::Version),
            "version {version}"
        );
    }
    // A save whose Rumble byte is neither 0 nor 1, whose rules or think
    // time are out of range, or whose rules do not fit its board (renju
    // off 15x15 k=5, exactly k on the seeds' boards): settings reset to the
    // defaults, scores kept.
    let mut scored = d;
    scored.scores[1].draws = 9;
    let mut bad = Vec::new();
    let mut b = scored.encode();
    b[62] = 2;
    bad.push(b);
    for (offset, value) in [(64, 3), (65, 3)] {
        let mut b = scored.encode();
        b[offset] = value;
        bad.push(b);
    }
    for (size, k, win) in [(14, 5, 2), (15, 4, 2), (9, 5, 1), (9, 5, 2)] {
        let mut b = scored.encode();
        b[57..59].copy_from_slice(&[size, k]);
        b[64] = win;
        bad.push(b);
    }
    for b in bad {
        let got = SaveData::decode(&resealed(b)).unwrap();
        assert_eq!(got.scores[1].draws, 9);
        assert_eq!(got.settings, Settings::default(), "{:?}", &b[56..66]);
    }
}

#[test]
fn a_version_2_save_loads_with_freestyle_and_the_default_think_time() {
    // Written byte by byte as the version 2 ROM did: bytes 64..68
    // reserved (0); 1 player vs computer 4-0-2; settings cvc, 9x9, k=5,
    // computers 10 and 3, alternate, rumble off.
    let mut b = [0u8; SAVE_SIZE];
    b[..6].copy_from_slice(b"T64S\x02\x04");
    b[8..20].copy_from_slice(&[0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 2]);
    b[56..64].copy_from_slice(&[3, 9, 5, 10, 3, 3, 0, 0]);
    assert_eq!(b[4], SAVE_VERSION_2);
    let got = SaveData::decode(&resealed(b)).unwrap();
    assert_eq!(got.scores[Mode::OnePlayer.index()].to_string(), "4-0-2");
    let want = Settings {
        mode: Mode::ComputerVsComputer,
        size: 9,
        k: 5,
        win: WinCondition::AtLeastK,
        computer: 10,
        computer2: 3,
        think: Settings::default().think,
        first: First::Alternate,
        rumble: false,
    };
    assert_eq!(got.settings, want);
    // Written again: version 3, the think time stored, the rest as it was.
    let again = got.encode();
    assert_eq!(again[4], SAVE_VERSION);
    assert_eq!(again[56..66], [3, 9, 5, 10, 3, 3, 0, 0, 0, want.think]);
    assert_eq!(again[8..56], b[8..56]);
    assert_eq!(SaveData::decode(&again), Ok(got));
}

#[test]
fn who_goes_first_and_the_scores_read_as_saves_wrote_them() {
    // A version 3 save written byte by byte by the layout: 1 player vs
    // computer 3-2-1, cvc 0-1-7; settings 2p, 5x5, k=4, computers 2 and 7,
    // rumble on, freestyle, 8 s, and each way of going first as saves
    // store it (0 you, 1 computer, 2 random, 3 alternate).
    for (byte, first) in [
        (0, First::You),
        (1, First::Computer),
        (2, First::Random),
        (3, First::Alternate),
    ] {
        let mut b = [0u8; SAVE_SIZE];
        b[..6].copy_from_slice(b"T64S\x03\x04");
        b[8..20].copy_from_slice(&[0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1]);
        b[44..56].copy_from_slice(&[0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 7]);
        b[56..66].copy_from_slice(&[1, 5, 4, 2, 7, byte, 1, 0, 0, 2]);
        let b = resealed(b);
        let got = SaveData::decode(&b).unwrap();
        assert_eq!(got.settings.first, first, "byte {byte}");
        assert_eq!(
            (got.settings.mode, got.settings.size, got.settings.k),
            (Mode::TwoPads, 5, 4)
        );
        assert_eq!(
            got.scores[Mode::OnePlayer.index()],
            Score {
                wins: 3,
                losses: 2,
                draws: 1
            }
        );
        assert_eq!(
            got.scores[Mode::ComputerVsComputer.index()].to_string(),
            "0-1-7"
        );
        assert_eq!(got.encode(), b, "written back unchanged");
    }
}

/// A 4 Kbit EEPROM that writes a block for 15 ms and answers nothing
/// meanwhile (a read or write then fails), with a clock the test moves.
struct Chip {
    bytes: [u8; 512],
    now_us: u64,
    busy_until: u64,
    reads: usize,
    writes: Vec<(u64, u8)>,
    /// Blocks that keep their old bytes when written (a worn cell).
    stuck: Option<u8>,
}

impl Chip {
    fn new() -> Chip {
        Chip {
            bytes: [0xFF; 512],
            now_us: 0,
            busy_until: 0,
            reads: 0,
            writes: Vec::new(),
            stuck: None,
        }
    }
}

impl SaveBlocks for Chip {
    fn block_count(&self) -> u8 {
        64
    }

    fn read_block(&mut self, index: u8) -> Option<[u8; BLOCK]> {
        if self.now_us < self.busy_until || index >= 64 {
            return None;
        }
        self.reads += 1;
        let start = usize::from(index) * BLOCK;
        Some(self.bytes[start..start + BLOCK].try_into().unwrap())
    }

    fn write_block(&mut self, index: u8, data: &[u8; BLOCK]) -> bool {
        if self.now_us < self.busy_until || index >= 64 {
            return false;
        }
        self.writes.push((self.now_us, index));
        if self.stuck != Some(index) {
            let start = usize::from(index) * BLOCK;
            self.bytes[start..start + BLOCK].copy_from_slice(data);
        }
        self.busy_until = self.now_us + SaveWriter::WRITE_US;
        true
    }
}

/// Steps `writer` once a frame (`frame_us` apart) until the save is no
/// longer being written; the frames it took.
fn write_over_frames(writer: &mut SaveWriter, chip: &mut Chip, frame_us: u64) -> usize {
    for frame in 1..=100 {
        chip.now_us += frame_us;
        let now = chip.now_us;
        if writer.step(now, chip) != SaveProgress::Writing {
            return frame;
        }
    }
    panic!("still writing after 100 frames");
}

#[test]
fn a_save_is_written_a_block_a_frame_and_reads_back_whole() {
    for frame_us in [16_716, 20_032] {
        // A blank chip: all nine blocks, one a frame, never while the chip
        // is busy, then the last one read back.
        let mut chip = Chip::new();
        let mut writer = SaveWriter::new();
        let first = SaveData::default().encode();
        assert_eq!(writer.start(&first, 64), SaveProgress::Writing);
        let frames = write_over_frames(&mut writer, &mut chip, frame_us);
        assert_eq!(writer.progress(), SaveProgress::Written);
        assert_eq!(chip.writes.len(), SAVE_SIZE / BLOCK);
        assert_eq!(frames, SAVE_SIZE / BLOCK + 1);
        let blocks: Vec<u8> = chip.writes.iter().map(|&(_, b)| b).collect();
        assert_eq!(blocks, (0..9).collect::<Vec<u8>>());
        assert!(chip
            .writes
            .windows(2)
            .all(|w| w[1].0 - w[0].0 >= SaveWriter::WRITE_US));
        assert_eq!(chip.bytes[..SAVE_SIZE], first);

        // A game's end: only the blocks that changed (the mode's scores
        // and the checksum), and the EEPROM (a "reset": read afresh)
        // holds the new save.
        let mut data = SaveData::default();
        data.scores[Mode::OnePlayer.index()].wins = 1;
        let second = data.encode();
        chip.writes.clear();
        chip.reads = 0;
        writer.start(&second, 64);
        let frames = write_over_frames(&mut writer, &mut chip, frame_us);
        let changed: Vec<u8> = (0..9u8)
            .filter(|&b| {
                let r = usize::from(b) * BLOCK..usize::from(b) * BLOCK + BLOCK;
                first[r.clone()] != second[r]
            })
            .collect();
        let blocks: Vec<u8> = chip.writes.iter().map(|&(_, b)| b).collect();
        assert_eq!(blocks, changed);
        assert!(changed.len() <= 3, "{changed:?}");
        assert_eq!(frames, changed.len() + 1);
        assert_eq!(SaveData::decode(&chip.bytes), Ok(data));
        // What the chip holds is known: only the written blocks are read
        // (back).
        assert_eq!(chip.reads, changed.len());

        // The same save again: nothing to write or read, done at once.
        chip.writes.clear();
        chip.reads = 0;
        writer.start(&second, 64);
        assert_eq!(write_over_frames(&mut writer, &mut chip, frame_us), 1);
        assert!(chip.writes.is_empty());
        assert_eq!(chip.reads, 0);
    }
}

#[test]
fn a_save_read_at_boot_spares_the_reads_of_unchanged_blocks() {
    let mut chip = Chip::new();
    let old = SaveData::default().encode();
    chip.bytes[..SAVE_SIZE].copy_from_slice(&old);
    let mut writer = SaveWriter::new();
    writer.know(&old);
    let mut data = SaveData::default();
    data.scores[Mode::TwoPads.index()].losses = 2;
    writer.start(&data.encode(), 64);
    write_over_frames(&mut writer, &mut chip, 16_716);
    assert_eq!(writer.progress(), SaveProgress::Written);
    assert_eq!(SaveData::decode(&chip.bytes), Ok(data));
    assert_eq!(chip.reads, chip.writes.len(), "only the read-backs");

    // Without it, the blocks are read one a frame, each step at most one
    // block read, one read back and one write.
    let mut chip = Chip::new();
    chip.bytes[..SAVE_SIZE].copy_from_slice(&old);
    let mut writer = SaveWriter::new();
    writer.start(&data.encode(), 64);
    let mut steps = 0;
    loop {
        chip.now_us += 16_716;
        let reads = chip.reads;
        let writes = chip.writes.len();
        steps += 1;
        let now = chip.now_us;
        let progress = writer.step(now, &mut chip);
        assert!(chip.reads - reads <= 2 && chip.writes.len() - writes <= 1);
        if progress != SaveProgress::Writing {
            break;
        }
    }
    assert_eq!(SaveData::decode(&chip.bytes), Ok(data));
    assert!(steps > SAVE_SIZE / BLOCK, "{steps} steps");
}

#[test]
fn a_save_started_while_another_is_written_replaces_it() {
    let mut chip = Chip::new();
    let mut writer = SaveWriter::new();
    writer.start(&SaveData::default().encode(), 64);
    chip.now_us += 16_716;
    assert_eq!(writer.step(chip.now_us, &mut chip), SaveProgress::Writing);
    chip.now_us += 16_716;
    writer.step(chip.now_us, &mut chip);
    // Two blocks sent; a new save comes while the second is being written.
    let mut data = SaveData::default();
    data.scores[Mode::ComputerVsComputer.index()].draws = 9;
    writer.start(&data.encode(), 64);
    // The chip is still busy for this step: nothing is sent.
    chip.now_us += 1_000;
    let sent = chip.writes.len();
    assert_eq!(writer.step(chip.now_us, &mut chip), SaveProgress::Writing);
    assert_eq!(chip.writes.len(), sent);
    write_over_frames(&mut writer, &mut chip, 16_716);
    assert_eq!(writer.progress(), SaveProgress::Written);
    assert_eq!(SaveData::decode(&chip.bytes), Ok(data));
}

#[test]
fn a_block_that_does_not_read_back_fails_the_save() {
    let mut chip = Chip::new();
    chip.stuck = Some(8);
    let mut writer = SaveWriter::new();
    writer.start(&SaveData::default().encode(), 64);
    write_over_frames(&mut writer, &mut chip, 16_716);
    assert_eq!(writer.progress(), SaveProgress::Failed);
    // It stops there: no more writes however often it is stepped.
    let sent = chip.writes.len();
    chip.now_us += 100_000;
    assert_eq!(writer.step(chip.now_us, &mut chip), SaveProgress::Failed);
    assert_eq!(chip.writes.len(), sent);
    // Too small an EEPROM, or not a save's size: refused, nothing written.
    let mut writer = SaveWriter::new();
    assert_eq!(
        writer.start(&SaveData::default().encode(), 8),
        SaveProgress::Failed
    );
    assert_eq!(writer.start(&[0; 8], 64), SaveProgress::Failed);
}
