//! Double-buffered drawing that redraws only what changed: each of the two
//! framebuffers remembers the display list it shows; the next frame's list
//! is compared with it call by call, and only the rectangles the differing
//! calls cover are redrawn (the whole new list, clipped to them). A frame
//! the buffer already shows is not drawn at all.
//!
//! Why this gives the same pixels as a full redraw: the lists are matched
//! in order (equal calls paired, never crossing). A pixel outside every
//! damaged rectangle is covered, in both lists, only by paired calls, in
//! the same order, so it already has its new value; a pixel inside is
//! drawn by every call of the new list that may reach it, in order.
//! `tests/raster.rs` checks it on every frame of many screen sequences.

use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;

use crate::canvas::Canvas;
use crate::display_list::DisplayList;
use crate::layout;

/// Something that draws a whole frame on any canvas.
pub trait Frame {
    /// Draws the whole frame.
    fn draw_on<C: Canvas>(&self, canvas: &mut C);
}

impl Frame for DisplayList {
    fn draw_on<C: Canvas>(&self, canvas: &mut C) {
        self.replay(canvas);
    }
}

/// How [`ShownFrames::draw`] brought a framebuffer up to date.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Redraw {
    /// It already showed this frame: nothing drawn.
    Skipped,
    /// Drawn whole from the recorded list.
    Replayed,
    /// The frame did not fit a list: drawn directly.
    Direct,
    /// Only the changed rectangles were drawn.
    Partial,
    /// A frame to be drawn whole was drawn only in its top half
    /// ([`ShownFrames::draw_in_halves`]): do not show the buffer yet, draw
    /// the next frame into it again.
    FirstHalf,
    /// The rest of a frame begun with [`Redraw::FirstHalf`]: the bottom half
    /// and what changed in the top half since. The buffer is complete.
    SecondHalf,
}

/// Rectangles kept apart at most; more are merged.
const MAX_RECTS: usize = 6;
/// Calls looked ahead in each list to pair them up again after a change.
const LOOKAHEAD: usize = 12;
/// A partial redraw covering more than this share of the screen (in
/// 1/16ths) is done as a full one (clipping costs a little per call).
const PARTIAL_MAX_SIXTEENTHS: u32 = 5;

/// The screen's area, as the changed rectangles are clipped to it.
const SCREEN: Rectangle = Rectangle::new(Point::zero(), Size::new(layout::WIDTH, layout::HEIGHT));
/// The halves of a frame drawn in two parts.
const TOP: Rectangle = Rectangle::new(Point::zero(), Size::new(layout::WIDTH, layout::HEIGHT / 2));
const BOTTOM: Rectangle = Rectangle::new(
    Point::new(0, (layout::HEIGHT / 2) as i32),
    Size::new(layout::WIDTH, layout::HEIGHT - layout::HEIGHT / 2),
);

/// A few rectangles covering the changed pixels (overlapping ones merged).
#[derive(Clone, Debug, Default)]
pub struct Damage {
    rects: [Option<Edges>; MAX_RECTS],
}

/// A rectangle of the screen by its edges: columns `x0..x1`, rows
/// `y0..y1`, not empty (the diff merges many of them a frame: plain
/// comparisons, no overflow to mind).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Edges {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

impl Edges {
    /// The part of `r` on the screen, if any.
    fn on_screen(r: &Rectangle) -> Option<Edges> {
        let end = |start: i32, len: u32| start.saturating_add(len.min(i32::MAX as u32) as i32);
        let e = Edges {
            x0: r.top_left.x.max(0),
            y0: r.top_left.y.max(0),
            x1: end(r.top_left.x, r.size.width).min(layout::WIDTH as i32),
            y1: end(r.top_left.y, r.size.height).min(layout::HEIGHT as i32),
        };
        (e.x0 < e.x1 && e.y0 < e.y1).then_some(e)
    }

    fn area(&self) -> u32 {
        ((self.x1 - self.x0) * (self.y1 - self.y0)) as u32
    }

    /// The smallest rectangle holding both.
    fn union(&self, o: &Edges) -> Edges {
        Edges {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }

    /// Overlapping or side by side, corners included (merging those costs
    /// nothing extra).
    fn touches(&self, o: &Edges) -> bool {
        self.x0 <= o.x1 && o.x0 <= self.x1 && self.y0 <= o.y1 && o.y0 <= self.y1
    }

    fn rect(&self) -> Rectangle {
        Rectangle::new(
            Point::new(self.x0, self.y0),
            Size::new((self.x1 - self.x0) as u32, (self.y1 - self.y0) as u32),
        )
    }
}

impl Damage {
    /// No change.
    pub const fn new() -> Self {
        Self {
            rects: [None; MAX_RECTS],
        }
    }

    /// The rectangles.
    pub fn rects(&self) -> impl Iterator<Item = Rectangle> + '_ {
        self.rects.iter().flatten().map(Edges::rect)
    }

    /// Pixels covered (overlaps are merged, so this is exact).
    pub fn area(&self) -> u32 {
        self.rects.iter().flatten().map(Edges::area).sum()
    }

    /// Adds `r` (clipped to the screen), merging rectangles that overlap
    /// or touch, and the cheapest pair when there are too many.
    pub fn add(&mut self, r: Rectangle) {
        if let Some(r) = Edges::on_screen(&r) {
            self.add_edges(r);
        }
    }

    fn add_edges(&mut self, mut r: Edges) {
        // Absorb every rectangle it meets, again after each growth.
        while let Some(slot) = self
            .rects
            .iter_mut()
            .find(|s| s.is_some_and(|s| s.touches(&r)))
        {
            if let Some(s) = slot.take() {
                r = r.union(&s);
            }
        }
        if let Some(slot) = self.rects.iter_mut().find(|s| s.is_none()) {
            *slot = Some(r);
            return;
        }
        // Full: merge `r` into the rectangle it grows least, then re-add.
        let mut best = (u32::MAX, 0);
        for (i, s) in self.rects.iter().enumerate() {
            if let Some(s) = s {
                best = best.min((s.union(&r).area() - s.area(), i));
            }
        }
        if let Some(s) = self.rects[best.1].take() {
            r = r.union(&s);
        }
        self.add_edges(r);
    }

    /// The calls of `new` that differ from `old`'s, as rectangles: calls
    /// are paired in order (equal ones), unpaired calls of either list are
    /// damage (the whole screen when the lists stop pairing up).
    pub fn between(old: &DisplayList, new: &DisplayList) -> Damage {
        Self::at_most(old, new, u32::MAX).unwrap_or_else(|| {
            let mut all = Damage::new();
            all.add(SCREEN);
            all
        })
    }

    /// [`between`](Self::between), or `None` as soon as the damage covers
    /// more than `max_area` pixels, or when, after a difference, no pair
    /// of equal calls follows within [`LOOKAHEAD`] calls and the lists do
    /// not both end within it (a screen change: the diff stops early, the
    /// caller redraws everything).
    pub fn at_most(old: &DisplayList, new: &DisplayList, max_area: u32) -> Option<Damage> {
        let mut damage = Damage::new();
        let (n_old, n_new) = (old.len(), new.len());
        let (keys_old, keys_new) = (old.keys(), new.keys());
        let (mut i, mut j) = (0, 0);
        while i < n_old && j < n_new {
            if old.same_op(i, new, j) {
                i += 1;
                j += 1;
                continue;
            }
            // The nearest pair (fewest calls skipped in both lists).
            let mut found = None;
            'search: for skip in 1..=2 * LOOKAHEAD {
                for a in skip.saturating_sub(LOOKAHEAD)..=skip.min(LOOKAHEAD) {
                    let b = skip - a;
                    // Calls with different keys differ: one comparison
                    // rejects most of the pairs looked at.
                    let keys_meet = matches!(
                        (keys_old.get(i + a), keys_new.get(j + b)),
                        (Some(x), Some(y)) if x == y
                    );
                    if keys_meet && old.same_op(i + a, new, j + b) {
                        found = Some((a, b));
                        break 'search;
                    }
                }
            }
            let (a, b) = match found {
                Some(pair) => pair,
                // Nothing pairs up again, but both lists end within the
                // lookahead (a change among the last calls, such as the
                // pause menu's last row): the rest of both is the damage.
                None if n_old - i <= LOOKAHEAD && n_new - j <= LOOKAHEAD => (n_old - i, n_new - j),
                // Nothing pairs up again: the screen changed, redraw it all.
                None => return None,
            };
            damage.add_calls(old, i..i + a, max_area)?;
            damage.add_calls(new, j..j + b, max_area)?;
            (i, j) = (i + a, j + b);
        }
        damage.add_calls(old, i..n_old, max_area)?;
        damage.add_calls(new, j..n_new, max_area)?;
        Some(damage)
    }

    /// Adds the bounds of `list`'s calls `calls`; `None` if the area then
    /// passes `max_area` (it never shrinks as rectangles are added).
    fn add_calls(
        &mut self,
        list: &DisplayList,
        calls: core::ops::Range<usize>,
        max_area: u32,
    ) -> Option<()> {
        for k in calls {
            self.add(list.bounds(k));
        }
        (self.area() <= max_area).then_some(())
    }
}

/// What each of two (double-buffered) framebuffers shows, as display lists,
/// so a frame is drawn into a buffer only where that buffer differs.
pub struct ShownFrames {
    /// Two lists for the buffers, one for the frame being recorded.
    lists: [DisplayList; 3],
    /// Which list each buffer shows (`None`: unknown, e.g. drawn directly).
    shown: [Option<usize>; 2],
    /// The list the next frame is recorded into.
    scratch: usize,
    /// The buffer whose frame is drawn only in its top half (its `shown`
    /// list is right for those rows only).
    half_drawn: Option<usize>,
}

impl ShownFrames {
    /// Both buffers' contents unknown.
    pub const fn new() -> Self {
        Self {
            lists: [DisplayList::new(), DisplayList::new(), DisplayList::new()],
            shown: [None, None],
            scratch: 2,
            half_drawn: None,
        }
    }

    /// Brings framebuffer `buffer` (0 or 1), drawn on `canvas` (a
    /// [`Raster`](crate::Raster) over it), up to date with `game`'s frame
    /// (the [`Game`](crate::Game)'s).
    pub fn draw<F: Frame, C: Canvas>(&mut self, game: &F, buffer: usize, canvas: &mut C) -> Redraw {
        self.draw_frame(game, buffer, canvas)
    }

    /// [`draw`](Self::draw) for any frame.
    pub fn draw_frame<F: Frame, C: Canvas>(
        &mut self,
        frame: &F,
        buffer: usize,
        canvas: &mut C,
    ) -> Redraw {
        self.bring_up_to_date(frame, buffer, canvas, false)
    }

    /// [`draw_frame`](Self::draw_frame), but a frame that must be drawn
    /// whole (a new screen) is drawn over two calls, half the screen each,
    /// so that no call costs a whole screen: the first draws the top half
    /// and returns [`Redraw::FirstHalf`]; the caller then keeps the buffer
    /// hidden and draws the next frame into the same buffer, which draws
    /// the bottom half and what changed in the top half since
    /// ([`Redraw::SecondHalf`]). The new screen shows one frame later.
    pub fn draw_in_halves<F: Frame, C: Canvas>(
        &mut self,
        frame: &F,
        buffer: usize,
        canvas: &mut C,
    ) -> Redraw {
        self.bring_up_to_date(frame, buffer, canvas, true)
    }

    fn bring_up_to_date<F: Frame, C: Canvas>(
        &mut self,
        frame: &F,
        buffer: usize,
        canvas: &mut C,
        halves: bool,
    ) -> Redraw {
        let buffer = buffer & 1;
        // A buffer left half drawn for another one is not shown: unknown.
        let half_drawn = match self.half_drawn.take() {
            Some(b) if b == buffer => true,
            Some(b) => {
                self.shown[b] = None;
                false
            }
            None => false,
        };
        let scratch = self.scratch;
        let list = &mut self.lists[scratch];
        list.reset();
        frame.draw_on(list);
        if !list.is_complete() {
            self.shown[buffer] = None;
            frame.draw_on(canvas);
            return Redraw::Direct;
        }
        let new = &self.lists[scratch];
        let max_area = PARTIAL_MAX_SIXTEENTHS * layout::WIDTH * layout::HEIGHT / 16;
        let damage =
            self.shown[buffer].and_then(|i| Damage::at_most(&self.lists[i], new, max_area));
        // Nothing changed (the lists pair up call for call, or differ only
        // off the screen): the buffer already shows the frame.
        if !half_drawn && damage.as_ref().is_some_and(|d| d.area() == 0) {
            canvas.warm_up();
            return Redraw::Skipped;
        }
        let how = match damage {
            Some(damage) if canvas.set_clip(None) => {
                // Half drawn: the top half shows the old list, and the rows
                // the two lists' calls pair up on are right (as for any
                // partial redraw); the bottom half is drawn whole.
                let mut areas = [Rectangle::zero(); MAX_RECTS + 1];
                let mut n = 0;
                if half_drawn {
                    areas[0] = BOTTOM;
                    n = 1;
                }
                for r in damage.rects() {
                    let r = if half_drawn { r.intersection(&TOP) } else { r };
                    if !r.is_zero_sized() {
                        areas[n] = r;
                        n += 1;
                    }
                }
                new.replay_clipped(canvas, &areas[..n]);
                if half_drawn {
                    Redraw::SecondHalf
                } else {
                    // A partial redraw leaves time to spare.
                    canvas.warm_up();
                    Redraw::Partial
                }
            }
            _ if halves && !half_drawn && canvas.set_clip(None) => {
                new.replay_within(canvas, &TOP);
                self.half_drawn = Some(buffer);
                Redraw::FirstHalf
            }
            _ => {
                new.replay(canvas);
                Redraw::Replayed
            }
        };
        // The recorded list is now what the buffer shows; a list no buffer
        // shows becomes the next scratch.
        self.shown[buffer] = Some(scratch);
        self.scratch = (0..3)
            .find(|i| !self.shown.contains(&Some(*i)))
            .unwrap_or(scratch);
        how
    }
}

impl Default for ShownFrames {
    fn default() -> Self {
        Self::new()
    }
}
