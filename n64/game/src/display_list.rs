//! A [`Canvas`] that records the calls: a frame whose list equals the one a
//! framebuffer already shows needs no drawing, and two lists tell what
//! changed ([`ShownFrames`](crate::shown::ShownFrames)).

use embedded_graphics::pixelcolor::Rgb555;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::Alignment;
use ttt_core::Mark;

use crate::canvas::{Canvas, Font, Panel};
use crate::geometry;
use crate::layout;

/// The whole screen.
fn screen_area() -> Rectangle {
    Rectangle::new(Point::zero(), Size::new(layout::WIDTH, layout::HEIGHT))
}

/// Most calls one frame makes: a 15x15 board with every cell marked (225
/// marks), its grid (28 lines), coordinates (30) and panels needs about
/// 320; a frame with more is drawn directly.
const MAX_OPS: usize = 512;
/// Bytes of text one frame draws, at most.
const MAX_TEXT: usize = 2048;

/// Makes the canvas clip to `areas[k]` unless it already does.
fn set_clip<C: Canvas>(canvas: &mut C, clip: &mut Option<usize>, areas: &[Rectangle], k: usize) {
    if *clip != Some(k) {
        canvas.set_clip(areas.get(k).copied());
        *clip = Some(k);
    }
}

/// One recorded call.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Op {
    Clear(Rgb555),
    Fill(Rectangle, Rgb555),
    Panel(Panel),
    Text {
        /// Byte range in the list's text.
        start: u16,
        len: u16,
        at: Point,
        font: Font,
        color: Rgb555,
        align: Alignment,
    },
    Line {
        from: Point,
        to: Point,
        width: u32,
        color: Rgb555,
    },
    RoundedFrame {
        area: Rectangle,
        radius: u32,
        width: u32,
        color: Rgb555,
    },
    Mark(Rectangle, Mark),
}

/// A frame's drawing calls, recorded (fixed size, no allocator). A frame
/// that does not fit is marked incomplete and must be drawn directly.
#[derive(Clone)]
pub struct DisplayList {
    ops: [Op; MAX_OPS],
    /// A hash of each call (with its text): calls with different keys
    /// differ, so the diff rejects most pairs with one comparison.
    keys: [u32; MAX_OPS],
    len: usize,
    text: [u8; MAX_TEXT],
    text_len: usize,
    complete: bool,
}

impl DisplayList {
    /// An empty list.
    pub const fn new() -> Self {
        Self {
            ops: [Op::Clear(Rgb555::new(0, 0, 0)); MAX_OPS],
            keys: [0; MAX_OPS],
            len: 0,
            text: [0; MAX_TEXT],
            text_len: 0,
            complete: true,
        }
    }

    /// Empties the list for the next frame.
    pub fn reset(&mut self) {
        self.len = 0;
        self.text_len = 0;
        self.complete = true;
    }

    /// Everything drawn since [`reset`](Self::reset) was recorded.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Number of recorded calls.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Nothing recorded.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The recorded calls' keys (hashes: calls with different keys differ).
    pub(crate) fn keys(&self) -> &[u32] {
        &self.keys[..self.len]
    }

    /// Both lists are complete and draw the same calls (so the same pixels).
    pub fn same_as(&self, other: &DisplayList) -> bool {
        self.complete
            && other.complete
            && self.ops[..self.len] == other.ops[..other.len]
            && self.text[..self.text_len] == other.text[..other.text_len]
    }

    /// Draws the recorded calls on `canvas`. A screen clear leaves out
    /// what the panels drawn after it cover (they would paint it over:
    /// most of the screen is panels).
    pub fn replay<C: Canvas>(&self, canvas: &mut C) {
        let screen = screen_area();
        for (i, op) in self.ops[..self.len].iter().enumerate() {
            match *op {
                Op::Clear(color) => {
                    let holes = self.covered_after(i);
                    geometry::for_each_gap(screen, &holes.0[..holes.1], |r| canvas.fill(r, color));
                }
                _ => self.replay_op(op, canvas),
            }
        }
    }

    /// Draws, in order, the recorded calls whose pixels may fall inside
    /// `area` (the others cannot change a pixel there), on a canvas that
    /// clips to it ([`Canvas::set_clip`], left unset afterwards). A
    /// screen clear leaves out what the panels drawn after it cover.
    pub fn replay_within<C: Canvas>(&self, canvas: &mut C, area: &Rectangle) {
        self.replay_clipped(canvas, core::slice::from_ref(area));
    }

    /// [`replay_within`](Self::replay_within) for each of `areas` (they
    /// may overlap), in one pass over the calls: each call's bounds are
    /// worked out once, and the call is drawn into each area it reaches,
    /// the canvas clipping to that area. Every pixel ends as if the areas
    /// were drawn one after the other: inside each area, its calls come in
    /// their order, and where areas overlap a call drawn twice in a row
    /// leaves what it left the first time.
    pub fn replay_clipped<C: Canvas>(&self, canvas: &mut C, areas: &[Rectangle]) {
        let screen = screen_area();
        // The area the canvas clips to now (an index into `areas`).
        let mut clip = None;
        for (i, op) in self.ops[..self.len].iter().enumerate() {
            if let Op::Clear(color) = *op {
                let holes = self.covered_after(i);
                for (k, area) in areas.iter().enumerate() {
                    let area = area.intersection(&screen);
                    if area.is_zero_sized() {
                        continue;
                    }
                    set_clip(canvas, &mut clip, areas, k);
                    geometry::for_each_gap(area, &holes.0[..holes.1], |r| canvas.fill(r, color));
                }
                continue;
            }
            let bounds = self.bounds(i);
            for (k, area) in areas.iter().enumerate() {
                if geometry::overlaps(&bounds, area) {
                    set_clip(canvas, &mut clip, areas, k);
                    self.replay_op(op, canvas);
                }
            }
        }
        canvas.set_clip(None);
    }

    /// Rectangles that large panels and fills after call `i` paint
    /// entirely (a panel: all but its four 2x2 corners), at most
    /// [`geometry::MAX_HOLES`], up to the next screen clear.
    fn covered_after(&self, i: usize) -> ([Rectangle; geometry::MAX_HOLES], usize) {
        /// Smaller areas are not worth a band of their own.
        const MIN_AREA: u32 = 1024;
        let mut holes = [Rectangle::zero(); geometry::MAX_HOLES];
        let mut n = 0;
        let mut add = |r: Rectangle| {
            if r.size.width * r.size.height >= MIN_AREA && n < holes.len() {
                holes[n] = r;
                n += 1;
            }
        };
        for op in self.ops[..self.len].iter().skip(i + 1) {
            match *op {
                Op::Clear(_) => break,
                Op::Fill(r, _) => add(r),
                Op::Panel(p) => {
                    let (w, h) = (p.area.size.width, p.area.size.height);
                    if w < 6 || h < 6 {
                        add(p.area);
                    } else {
                        let at = |x, y| p.area.top_left + Point::new(x, y);
                        add(Rectangle::new(at(2, 0), Size::new(w - 4, h)));
                        add(Rectangle::new(at(0, 2), Size::new(w, h - 4)));
                    }
                }
                _ => {}
            }
        }
        (holes, n)
    }

    /// The bytes of a recorded text call's text (compared, hashed and
    /// measured as bytes: checking them as UTF-8 each time was about a
    /// quarter of the work of comparing two lists, counted on the host).
    fn text_bytes(&self, start: u16, len: u16) -> &[u8] {
        let (start, end) = (usize::from(start), usize::from(start) + usize::from(len));
        self.text.get(start..end).unwrap_or(&[])
    }

    /// The text of a recorded text call, to draw it.
    fn text_of(&self, start: u16, len: u16) -> &str {
        core::str::from_utf8(self.text_bytes(start, len)).unwrap_or("")
    }

    /// A rectangle holding every pixel call `i` draws (empty if there is
    /// no such call).
    pub(crate) fn bounds(&self, i: usize) -> Rectangle {
        let screen = screen_area();
        let Some(op) = self.ops[..self.len].get(i) else {
            return Rectangle::zero();
        };
        match *op {
            Op::Clear(_) => screen,
            Op::Fill(area, _) => area,
            Op::Panel(p) => match p.inner {
                Some((r, _)) => geometry::union(p.area, r),
                None => p.area,
            },
            Op::Text {
                start,
                len,
                at,
                font,
                align,
                ..
            } => {
                // One pass over the bytes: the characters (the bytes that
                // do not continue one), and whether there are line breaks.
                let (mut chars, mut breaks) = (0, false);
                for &b in self.text_bytes(start, len) {
                    chars += usize::from(b & 0xC0 != 0x80);
                    breaks |= b == b'\n' || b == b'\r';
                }
                if breaks {
                    geometry::text_bounds(self.text_of(start, len), at, font, align)
                } else {
                    geometry::one_line_text_bounds(chars, at, font, align)
                }
            }
            Op::Line {
                from, to, width, ..
            } => geometry::line_bounds(from, to, width),
            // The stroke is centred on the area's edge.
            Op::RoundedFrame { area, width, .. } => area.offset(width.min(1 << 16) as i32),
            Op::Mark(cell, _) => geometry::mark_bounds(cell),
        }
    }

    /// Whether call `i` of this list draws what call `j` of `other` draws.
    pub(crate) fn same_op(&self, i: usize, other: &DisplayList, j: usize) -> bool {
        if self.keys.get(i) != other.keys.get(j) {
            return false;
        }
        match (self.ops[..self.len].get(i), other.ops[..other.len].get(j)) {
            (
                Some(&Op::Text {
                    start,
                    len,
                    at,
                    font,
                    color,
                    align,
                }),
                Some(&Op::Text {
                    start: start2,
                    len: len2,
                    at: at2,
                    font: font2,
                    color: color2,
                    align: align2,
                }),
            ) => {
                (at, font, color, align) == (at2, font2, color2, align2)
                    && self.text_bytes(start, len) == other.text_bytes(start2, len2)
            }
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    fn replay_op<C: Canvas>(&self, op: &Op, canvas: &mut C) {
        match *op {
            Op::Clear(c) => canvas.fill_screen(c),
            Op::Fill(r, c) => canvas.fill(r, c),
            Op::Panel(p) => canvas.panel(p),
            Op::Text {
                start,
                len,
                at,
                font,
                color,
                align,
            } => canvas.text(self.text_of(start, len), at, font, color, align),
            Op::Line {
                from,
                to,
                width,
                color,
            } => canvas.line(from, to, width, color),
            Op::RoundedFrame {
                area,
                radius,
                width,
                color,
            } => canvas.rounded_frame(area, radius, width, color),
            Op::Mark(r, m) => canvas.mark(r, m),
        }
    }

    fn push(&mut self, op: Op) {
        let key = match op {
            Op::Text { start, len, .. } => op_key(&op, self.text_bytes(start, len)),
            _ => op_key(&op, &[]),
        };
        match (self.ops.get_mut(self.len), self.keys.get_mut(self.len)) {
            (Some(slot), Some(key_slot)) if self.complete => {
                *slot = op;
                *key_slot = key;
                self.len += 1;
            }
            _ => self.complete = false,
        }
    }
}

/// FNV-1a over a call's fields (and its text's length and a few bytes).
fn op_key(op: &Op, text: &[u8]) -> u32 {
    fn color(c: Rgb555) -> u32 {
        (u32::from(c.r()) << 10) | (u32::from(c.g()) << 5) | u32::from(c.b())
    }
    fn rect(r: Rectangle) -> [u32; 4] {
        [
            r.top_left.x as u32,
            r.top_left.y as u32,
            r.size.width,
            r.size.height,
        ]
    }
    let mut h: u32 = 0x811C_9DC5;
    let mut mix = |v: u32| {
        h = (h ^ v).wrapping_mul(0x0100_0193);
    };
    match *op {
        Op::Clear(c) => {
            mix(0);
            mix(color(c));
        }
        Op::Fill(r, c) => {
            mix(1);
            rect(r).into_iter().for_each(&mut mix);
            mix(color(c));
        }
        Op::Panel(p) => {
            mix(2);
            rect(p.area).into_iter().for_each(&mut mix);
            mix(color(p.fill) << 16 | color(p.edge));
            if let Some((r, c)) = p.inner {
                rect(r).into_iter().for_each(&mut mix);
                mix(color(c));
            }
        }
        Op::Text {
            at,
            font,
            color: c,
            align,
            ..
        } => {
            mix(3);
            mix(at.x as u32);
            mix(at.y as u32);
            mix((font as u32) << 8 | align as u32);
            mix(color(c));
            // The length and a few bytes: enough to tell most texts apart
            // (equal keys are compared in full anyway).
            mix(text.len() as u32);
            for &b in text.iter().take(2).chain(text.last()) {
                mix(u32::from(b));
            }
        }
        Op::Line {
            from,
            to,
            width,
            color: c,
        } => {
            mix(4);
            [from.x, from.y, to.x, to.y]
                .into_iter()
                .for_each(|v| mix(v as u32));
            mix(width);
            mix(color(c));
        }
        Op::RoundedFrame {
            area,
            radius,
            width,
            color: c,
        } => {
            mix(5);
            rect(area).into_iter().for_each(&mut mix);
            mix(radius);
            mix(width);
            mix(color(c));
        }
        Op::Mark(r, m) => {
            mix(6);
            rect(r).into_iter().for_each(&mut mix);
            mix(m as u32);
        }
    }
    h
}

impl Default for DisplayList {
    fn default() -> Self {
        Self::new()
    }
}

impl Canvas for DisplayList {
    fn fill_screen(&mut self, color: Rgb555) {
        self.push(Op::Clear(color));
    }

    fn fill(&mut self, area: Rectangle, color: Rgb555) {
        self.push(Op::Fill(area, color));
    }

    fn panel(&mut self, panel: Panel) {
        self.push(Op::Panel(panel));
    }

    fn text(&mut self, text: &str, at: Point, font: Font, color: Rgb555, align: Alignment) {
        let start = self.text_len;
        let end = start + text.len();
        match self.text.get_mut(start..end) {
            Some(dst) if end <= usize::from(u16::MAX) => {
                dst.copy_from_slice(text.as_bytes());
                self.text_len = end;
                self.push(Op::Text {
                    start: start as u16,
                    len: text.len() as u16,
                    at,
                    font,
                    color,
                    align,
                });
            }
            _ => self.complete = false,
        }
    }

    fn line(&mut self, from: Point, to: Point, width: u32, color: Rgb555) {
        self.push(Op::Line {
            from,
            to,
            width,
            color,
        });
    }

    fn rounded_frame(&mut self, area: Rectangle, radius: u32, width: u32, color: Rgb555) {
        self.push(Op::RoundedFrame {
            area,
            radius,
            width,
            color,
        });
    }

    fn mark(&mut self, cell: Rectangle, mark: Mark) {
        self.push(Op::Mark(cell, mark));
    }
}
