//! `StrBuf`: text formatted without an allocator, cut at its capacity on
//! a character boundary, never a panic.
use std::fmt::Write;

use ttt64_game::text::StrBuf;

#[test]
fn text_that_fits_is_kept_whole() {
    let s = StrBuf::<16>::format(format_args!("{}x{}, {} to win", 15, 15, 5));
    assert_eq!(s.as_str(), "15x15, 5 to win");
}

#[test]
fn text_past_the_capacity_is_cut_on_a_character_boundary() {
    // 'é' is two bytes: at the third and fourth byte it does not fit.
    let mut s = StrBuf::<4>::new();
    s.write_str("abcé").unwrap();
    assert_eq!(s.as_str(), "abc");
    // A later, shorter character still fits.
    s.write_str("d").unwrap();
    assert_eq!(s.as_str(), "abcd");
    s.write_str("e").unwrap();
    assert_eq!(s.as_str(), "abcd");
    let mut s = StrBuf::<5>::new();
    s.write_str("é").unwrap();
    s.write_str("ééé").unwrap();
    assert_eq!(s.as_str(), "éé");
    s.clear();
    assert_eq!(s.as_str(), "");
    let s = StrBuf::<0>::format(format_args!("{}", 12345));
    assert_eq!(s.as_str(), "");
}

#[test]
fn length_counts_bytes() {
    let mut s = StrBuf::<8>::new();
    assert!(s.is_empty());
    s.write_str("aé").unwrap();
    assert_eq!((s.len(), s.is_empty()), (3, false));
}
