//! Seats and teams (RULES.md R0, R2.2, R3.5, R5.1): four seats 0-3 in playing order. Play, the
//! auction and the deal pass to the left, that is to the next seat; seats `s` and `s + 2` are
//! partners, and seat `s` plays for team `s % 2`. Every seat computation of the core goes
//! through these helpers, so the arithmetic "mod 4" lives in one place.

/// The number of seats at the table (R0).
pub const SEATS: u8 = 4;

/// The number of teams (R0): seats 0 and 2 are team 0, seats 1 and 3 team 1.
pub const TEAMS: usize = 2;

/// The seat `steps` places to the left of seat 0, i.e. `steps mod 4`: the dealer of game
/// `steps` of a batch, the seat of the `steps`-th card of a trick led by seat 0.
///
/// ```
/// assert_eq!(tarabish::seat_of(6), 2);
/// ```
#[inline]
pub const fn seat_of(steps: u64) -> u8 {
    (steps % SEATS as u64) as u8
}

/// The seat `steps` places to the left of `seat`.
///
/// ```
/// assert_eq!(tarabish::seat_after(3, 2), 1);
/// ```
#[inline]
pub const fn seat_after(seat: u8, steps: usize) -> u8 {
    seat_of(seat as u64 + steps as u64)
}

/// The next seat to the left: who speaks or plays after `seat` (R3.1, R5.1), and the next
/// dealer (R2.2).
#[inline]
pub const fn next_seat(seat: u8) -> u8 {
    seat_after(seat, 1)
}

/// The eldest hand, left of the dealer: first to speak (R3.1) and to lead (R3.5).
#[inline]
pub const fn eldest(dealer: u8) -> u8 {
    next_seat(dealer)
}

/// The partner of `seat`, across the table (R0).
///
/// ```
/// assert_eq!(tarabish::partner(1), 3);
/// ```
#[inline]
pub const fn partner(seat: u8) -> u8 {
    seat_after(seat, 2)
}

/// The seat to the right of `seat`: the last to speak before it comes round again (the
/// dealer's right is the forced player of R3.4).
#[inline]
pub const fn right_of(seat: u8) -> u8 {
    seat_after(seat, 3)
}

/// The team of `seat`: 0 for seats 0 and 2, 1 for seats 1 and 3 (R0).
#[inline]
pub const fn team_of(seat: u8) -> usize {
    (seat % 2) as usize
}
