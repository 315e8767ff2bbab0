//! Bounds that settle a position of the double-dummy search without searching it (docs/SOLVER.md
//! "Quick bounds", "Neighbour bounds"): quick bounds at a trick start (the sure trumps and the
//! masters the leader can cash, R5.1, R5.2), and neighbour bounds: two cards of one seat with no
//! other seat's card between them in trick order (R1.2) give values at most their points'
//! difference (R1.3) apart, for a move tried beside such a neighbour and for every trick start
//! under it (its twin).

use super::lanes::{
    PLAIN_BY_STRENGTH, PLAIN_POINTS_BY_STRENGTH, PLAIN_RANK_OF_STRENGTH, TRUMP_BY_STRENGTH,
    TRUMP_POINTS_BY_STRENGTH, TRUMP_RANK_OF_STRENGTH,
};
use super::search::{Position, Search, Tried, Twin, ALL_CARDS};
use crate::seats::{next_seat, partner, team_of};
use crate::tricks::{LANE, STRENGTH};

impl Search<'_> {
    /// [`Search::value`] of `pos`, reached by playing `card` beside `neighbour` (an earlier
    /// play from the same position, one of [`Search::neighbours`], already searched on this
    /// table): every trick start under it has a twin under the neighbour (Search::settled).
    pub(super) fn value_beside(
        &mut self,
        pos: &Position,
        guess: i32,
        card: u8,
        neighbour: u8,
    ) -> i32 {
        let outer = self.twin;
        self.twin = Some(self.twin_of(card, neighbour));
        let value = self.value(pos, guess);
        self.twin = outer;
        value
    }

    /// The [`Twin`] of `card` played beside `neighbour`, one of its [`Search::neighbours`].
    #[inline(always)]
    pub(super) fn twin_of(&self, card: u8, neighbour: u8) -> Twin {
        Twin {
            cards: 1 << card | 1 << neighbour,
            gap: (self.points[card as usize] as i32 - self.points[neighbour as usize] as i32).abs(),
        }
    }

    /// Quick bounds on team 0's value at a trick start, each a strategy's sure gain:
    /// - a trump stronger than every trump the other team holds wins its trick for its team
    ///   whenever it is played (R5.2; only a partner's trump can beat it), so each team is sure
    ///   of those trumps' own points;
    /// - the leader can cash the cards of a plain suit that beat every card the three others
    ///   hold in it, one trick each, as long as no opponent can trump them: an opponent with
    ///   no trump never can, one with trump must follow suit (R5.1a) while it holds the suit,
    ///   so the leader's team is sure of the points of as many such cards as the shortest
    ///   holding of that suit among the opponents with trump, and the partner if it has trump
    ///   and `partner_exempt` is off (void, it would have to ruff and take the lead, R5.1b).
    ///   Cashing one suit never makes an opponent with trump discard another suit, and no one
    ///   trumps, so the suits and the sure trumps add up.
    #[inline(always)]
    pub(super) fn sure_bounds(&self, pos: &Position, total: i32) -> (i32, i32) {
        let lane = |cards: u64, suit: u32| ((cards >> (9 * suit)) & LANE) as usize;
        let trump = self.trump as u32;
        let team0 = TRUMP_BY_STRENGTH[lane(self.hand(pos, 0) | self.hand(pos, 2), trump)];
        let team1 = TRUMP_BY_STRENGTH[lane(self.hand(pos, 1) | self.hand(pos, 3), trump)];
        let sure_trumps =
            |own: u16, other: u16| TRUMP_POINTS_BY_STRENGTH[above(own, other) as usize] as i32;
        let opponents = [
            self.hand(pos, next_seat(pos.leader)),
            self.hand(pos, partner(next_seat(pos.leader))),
        ];
        // R5.1b: a partner void in the suit led with trump must ruff its partner's master (unless
        // `partner_exempt`): the ruff wins the trick but takes the lead, so the cashing is sure
        // only while such a partner still follows suit, as for the opponents with trump.
        let partner_hand = self.hand(pos, partner(pos.leader));
        let partner_may_ruff = if self.rules.partner_exempt {
            0
        } else {
            partner_hand
        };
        // A seat with no trump can never ruff: it counts as holding every card of each suit.
        let may_ruff = [opponents[0], opponents[1], partner_may_ruff].map(|hand| {
            if lane(hand, trump) != 0 {
                hand
            } else {
                ALL_CARDS
            }
        });
        // The partner's cards count as the other team's: a stronger one would take the trick
        // and the lead (it must follow suit, and under `head_plain` head the trick, R5.1a).
        let others = opponents[0] | opponents[1] | partner_hand;
        let mut cashed = 0;
        for suit in (0..4).filter(|&suit| suit != trump) {
            let own = PLAIN_BY_STRENGTH[lane(self.hand(pos, pos.leader), suit)];
            let other = PLAIN_BY_STRENGTH[lane(others, suit)];
            let mut masters = above(own, other);
            if masters == 0 {
                continue;
            }
            let [first, second, third] = may_ruff.map(|hand| lane(hand, suit).count_ones());
            let safe = first.min(second).min(third);
            while masters.count_ones() > safe {
                masters &= masters - 1; // keep the strongest: they carry the most points
            }
            cashed += PLAIN_POINTS_BY_STRENGTH[masters as usize] as i32;
        }
        // The leader's trumps stronger than every other trump win the tricks it leads them
        // to, and each opponent holding trumps must follow with one (R5.1a) for as many
        // rounds: at least its cheapest ones, which are its weakest (R1.2, R1.3: trump
        // strength and points go in the same order).
        let leader_trumps = TRUMP_BY_STRENGTH[lane(self.hand(pos, pos.leader), trump)];
        let drawn = above(leader_trumps, TRUMP_BY_STRENGTH[lane(others, trump)]).count_ones();
        if drawn > 0 {
            for opponent in opponents {
                let mut weakest = TRUMP_BY_STRENGTH[lane(opponent, trump)];
                while weakest.count_ones() > drawn {
                    weakest &= !(1 << (15 - weakest.leading_zeros()));
                }
                cashed += TRUMP_POINTS_BY_STRENGTH[weakest as usize] as i32;
            }
        }
        let (sure0, sure1) = (sure_trumps(team0, team1), sure_trumps(team1, team0));
        if team_of(pos.leader) == 0 {
            (sure0 + cashed, total - sure1)
        } else {
            (sure0, total - sure1 - cashed)
        }
    }

    /// A bound on the value of playing `card` that cannot refute the null window below
    /// `beta`, from a card of the same suit already tried at this node (its value in `tried`,
    /// which did not refute the window either) with no live card (held, or in the trick)
    /// between them in trick order (R1.2): whatever is played afterwards, the two cards win
    /// and lose the same tricks and are legal in the same positions (R5.1), so swapping them
    /// changes only which of two tricks each one's points (R1.3) land in, and their values
    /// differ by at most the difference of their points. `Err` when no such bound exists:
    /// the card must be searched, with its [`Twin`] when it has such a neighbour.
    #[inline(always)]
    pub(super) fn neighbour_bound(
        &self,
        pos: &Position,
        beta: i32,
        tried: &Tried,
        card: u8,
    ) -> Result<i32, Option<Twin>> {
        let start = 9 * (card / 9) as u32;
        if tried.cards & (LANE << start) == 0 {
            return Err(None);
        }
        let neighbours = self.neighbours(pos, card, tried.cards);
        let maximizing = team_of(pos.to_move) == 0;
        let mut candidates = neighbours & tried.cards;
        let mut twin = None;
        while candidates != 0 {
            let other = candidates.trailing_zeros() as u8;
            candidates &= candidates - 1;
            let pair = self.twin_of(card, other);
            let value = tried.value_of(other);
            let bound = if maximizing {
                value + pair.gap
            } else {
                value - pair.gap
            };
            if (bound >= beta) != maximizing {
                return Ok(bound);
            }
            twin = Some(pair);
        }
        Err(twin)
    }

    /// The cards of `candidates` (the seat to move's) with no card of another seat (held, or
    /// played to this trick) between them and `card` in trick order (R1.2): a seat's own cards
    /// never meet in a trick, so such cards win and lose the same tricks as `card` whatever is
    /// played, and are legal in the same positions (R5.1).
    #[inline(always)]
    pub(super) fn neighbours(&self, pos: &Position, card: u8, candidates: u64) -> u64 {
        let start = 9 * (card / 9) as u32;
        let trump = self.trump as usize;
        let is_trump = card as u32 / 9 == trump as u32;
        // The cards another seat holds or has played to this trick: only those ever meet
        // this seat's cards in a trick.
        let others = pos.held & !self.owners[pos.to_move as usize] | pos.trick_cards;
        let lane = |cards: u64| ((cards >> start) & LANE) as usize;
        let (others, candidates, rank_of) = if is_trump {
            (
                TRUMP_BY_STRENGTH[lane(others)],
                TRUMP_BY_STRENGTH[lane(candidates)],
                &TRUMP_RANK_OF_STRENGTH,
            )
        } else {
            (
                PLAIN_BY_STRENGTH[lane(others)],
                PLAIN_BY_STRENGTH[lane(candidates)],
                &PLAIN_RANK_OF_STRENGTH,
            )
        };
        let strength = STRENGTH[trump][card as usize] as u32;
        // The strengths between the other seats' nearest cards above and below this one.
        let stronger = others >> (strength + 1);
        let below_next = if stronger != 0 {
            (1u16 << (strength + 1 + stronger.trailing_zeros())) - 1
        } else {
            u16::MAX
        };
        let weaker = others & ((1 << strength) - 1);
        let above_previous = if weaker != 0 {
            !((2u16 << (15 - weaker.leading_zeros())) - 1)
        } else {
            u16::MAX
        };
        let mut block = candidates & below_next & above_previous;
        let mut neighbours = 0u64;
        while block != 0 {
            let next = block.trailing_zeros();
            block &= block - 1;
            neighbours |= 1 << (start + rank_of[next as usize] as u32);
        }
        neighbours
    }
}

/// The cards of `own` (a lane in strength order, bit = strength) stronger than every card of
/// `other`.
#[inline(always)]
fn above(own: u16, other: u16) -> u16 {
    if other == 0 {
        own
    } else {
        own & !((2u16 << (15 - other.leading_zeros())) - 1)
    }
}
