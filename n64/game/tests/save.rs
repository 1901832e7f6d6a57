//! The save format.
use ttt64_game::save::{crc32, SAVE_MAGIC, SAVE_VERSION, SAVE_VERSION_1};
use ttt64_game::{First, Mode, SaveData, SaveError, Score, Settings, SAVE_SIZE};

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
        computer: 10,
        computer2: 0,
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
    b[57] = 12; // size 12: not offered
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
        computer: 2,
        computer2: 7,
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
    // Written again, it is a version 2 save that keeps everything.
    let again = got.encode();
    assert_eq!(again[4], SAVE_VERSION);
    assert_eq!(SaveData::decode(&again), Ok(got));
}

#[test]
fn unknown_versions_and_bad_rumble_bytes() {
    let d = SaveData::default();
    for version in [0, 3, 0xFF] {
        let mut b = d.encode();
        b[4] = version;
        assert_eq!(
            SaveData::decode(&resealed(b)),
            Err(SaveError::Version),
            "version {version}"
        );
    }
    // A version 2 save whose Rumble byte is neither 0 nor 1: settings
    // reset to the defaults, scores kept.
    let mut scored = d;
    scored.scores[1].draws = 9;
    let mut b = scored.encode();
    b[62] = 2;
    let got = SaveData::decode(&resealed(b)).unwrap();
    assert_eq!(got.scores[1].draws, 9);
    assert_eq!(got.settings, Settings::default());
}

#[test]
fn who_goes_first_and_the_scores_read_as_saves_wrote_them() {
    // A version 2 save written byte by byte by the layout: 1 player vs
    // computer 3-2-1, cvc 0-1-7; settings 2p, 5x5, k=4, computers 2 and 7,
    // rumble on, and each way of going first as saves store it (0 you,
    // 1 computer, 2 random, 3 alternate).
    for (byte, first) in [
        (0, First::You),
        (1, First::Computer),
        (2, First::Random),
        (3, First::Alternate),
    ] {
        let mut b = [0u8; SAVE_SIZE];
        b[..6].copy_from_slice(b"T64S\x02\x04");
        b[8..20].copy_from_slice(&[0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1]);
        b[44..56].copy_from_slice(&[0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 7]);
        b[56..64].copy_from_slice(&[1, 5, 4, 2, 7, byte, 1, 0]);
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
