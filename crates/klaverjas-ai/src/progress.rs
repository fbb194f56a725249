//! The player's progress: what the game keeps of every deal and match one
//! seat played, per rules and bots, and the learning curve from the
//! reviews (the points each deal's cards gave away against perfect play,
//! beside what the expert's choices gave away in the same places). Pure
//! data: the game stores it beside the save, `kj stats` reads it.

use crate::Level;
use crate::coach::Review;
use klaverjas::{Action, DealResult, Game, KeptSheet, Match, Players, Preset, Rules, Seat, Team};

/// The version of the profile's file; a newer one is kept aside unread.
pub const PROFILE_FORMAT: u32 = 1;

/// How a deal counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Kind {
    /// Played without help.
    Counted,
    /// A practice game's deal where a hint or undo was used.
    Helped,
    /// Four bots played and the seat was watched (`--demo`).
    Watched,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Counted, Kind::Helped, Kind::Watched];

    pub const fn name(self) -> &'static str {
        match self {
            Kind::Counted => "counted",
            Kind::Helped => "helped",
            Kind::Watched => "watched",
        }
    }
}

/// Everything counted at one kind of table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct Tally {
    pub matches: u32,
    pub matches_won: u32,
    pub matches_lost: u32,
    pub deals: u32,
    pub deals_won: u32,
    pub deals_lost: u32,
    /// The other side went *nat*.
    pub nat_for: u32,
    /// The seat's side went nat.
    pub nat_against: u32,
    /// The seat's side took every trick (*pit*, *mars*).
    pub pit_for: u32,
    pub pit_against: u32,
    /// Roem points of the seat's side's tricks that counted.
    pub roem_called: u32,
    /// Where roem is called: roem in the seat's side's tricks that nobody
    /// called.
    pub roem_missed: u32,
    /// The sheet's points and roem of the seat's side, all deals together.
    pub points: u64,
    /// Deals won in a row, now and at best.
    pub run: u32,
    pub longest_run: u32,
    /// The seat chose to play (not made to).
    pub played: u32,
    /// ...and went nat.
    pub played_nat: u32,
}

impl Tally {
    /// A deal won or lost, the run of deals won, and nat either way.
    fn count(&mut self, out: Outcome) {
        self.deals += 1;
        if out.won {
            self.deals_won += 1;
            self.run += 1;
            self.longest_run = self.longest_run.max(self.run);
        } else {
            self.deals_lost += 1;
            self.run = 0;
        }
        match (out.nat, out.declaring) {
            (true, true) => self.nat_against += 1,
            (true, false) => self.nat_for += 1,
            _ => {}
        }
    }

    pub fn points_per_deal(&self) -> Option<f64> {
        (self.deals > 0).then(|| self.points as f64 / self.deals as f64)
    }
}

/// One table's tally: the rules' preset, the bots' level and the kind.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Row {
    pub preset: Preset,
    pub bots: Level,
    pub kind: Kind,
    pub tally: Tally,
}

/// One deal of the learning curve, reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DealLoss {
    /// The deal's code (`kj deal`, New game's replay).
    pub code: String,
    pub preset: Preset,
    pub kind: Kind,
    /// To review the deal again; kept for the last deals and the costliest
    /// only ([`KEPT_REPLAYS`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub replay: Option<Replay>,
    /// What the seat's cards gave away against perfect play.
    pub loss: i32,
    /// What the expert's choices would have given away at the same moments.
    pub expert: i32,
    /// The seed the review's expert sampled with: the same review again.
    #[cfg_attr(feature = "serde", serde(default))]
    pub seed: u64,
}

/// A deal's rules and every action: the deal played again from its code.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Replay {
    pub rules: Rules,
    pub actions: Vec<Action>,
}

/// How many of the latest deals keep their [`Replay`], beside each kind's
/// five costliest: older deals keep their code and figures only, so the
/// profile stays small however long the player plays.
pub const KEPT_REPLAYS: usize = 50;

/// What the game keeps of the player's deals and matches.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Profile {
    pub format: u32,
    #[cfg_attr(feature = "serde", serde(default))]
    pub rows: Vec<Row>,
    /// The reviewed deals, oldest first.
    #[cfg_attr(feature = "serde", serde(default))]
    pub curve: Vec<DealLoss>,
    /// The deals of the day played for the record, in the order played.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub days: Vec<crate::daily::Played>,
    /// The days begun for the record: a day begun is not begun again for
    /// it, however that play ends.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub days_begun: Vec<(crate::daily::Day, Preset)>,
    /// Matches played with real cards and kept on the score sheet, per
    /// preset, as the sheet's keeper's team (Wij) ended them.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub real_cards: Vec<(Preset, Tally)>,
}

impl Default for Profile {
    fn default() -> Profile {
        Profile {
            format: PROFILE_FORMAT,
            rows: Vec::new(),
            curve: Vec::new(),
            days: Vec::new(),
            days_begun: Vec::new(),
            real_cards: Vec::new(),
        }
    }
}

/// A finished deal as one seat's side takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The side won the deal: scored more than the other (where each plays
    /// alone: made its contract, or set another's).
    pub won: bool,
    /// The side played the deal (its player or partner chose trump).
    pub declaring: bool,
    pub nat: bool,
}

/// How `seat`'s side fared in a deal.
pub fn outcome(result: &DealResult, players: Players, seat: Seat) -> Outcome {
    let alone = players == Players::Three;
    let declaring =
        if alone { result.contract.declarer == seat } else { result.contract.playing_team() == seat.team() };
    let won = if alone || result.nat {
        declaring != result.nat
    } else {
        let total = |team: Team| result.sheet_points[team] + result.sheet_roem[team];
        total(seat.team()) > total(seat.team().other())
    };
    Outcome { won, declaring, nat: result.nat }
}

/// The preset a match's rules belong to: the one they are, or the one
/// they differ least from (house rules), among those for as many players.
pub fn preset_of(rules: &Rules) -> Preset {
    let agreement = |p: &Preset| {
        let r = p.rules();
        [
            r.bidding == rules.bidding,
            r.following == rules.following,
            r.roem_table == rules.roem_table,
            r.roem_claim == rules.roem_claim,
            r.roem_source == rules.roem_source,
            r.card_values == rules.card_values,
            r.match_length == rules.match_length,
            r.kraken == rules.kraken,
            r.spades_double == rules.spades_double,
            r.direction == rules.direction,
            r.pit_for_defenders == rules.pit_for_defenders,
        ]
        .iter()
        .filter(|&&same| same)
        .count()
    };
    Preset::ALL
        .into_iter()
        .filter(|p| p.rules().players == rules.players)
        .max_by_key(|p| (agreement(p), std::cmp::Reverse(Preset::ALL.iter().position(|q| q == p))))
        .unwrap_or(Preset::Classic)
}

/// Adds each named counter of `$t` to `$sum`'s.
macro_rules! add_up {
    ($sum:ident, $t:ident: $($field:ident),*) => {
        $($sum.$field += $t.$field;)*
    };
}

impl Profile {
    fn row(&mut self, preset: Preset, bots: Level, kind: Kind) -> &mut Tally {
        let i = match self.rows.iter().position(|r| (r.preset, r.bots, r.kind) == (preset, bots, kind)) {
            Some(i) => i,
            None => {
                self.rows.push(Row { preset, bots, kind, tally: Tally::default() });
                self.rows.len() - 1
            }
        };
        &mut self.rows[i].tally
    }

    /// Counts a finished deal as `seat` played it. A deal thrown in (all
    /// passed) has no result and counts nothing.
    pub fn note_deal(&mut self, game: &Game, seat: Seat, bots: Level, kind: Kind) {
        let Some(result) = game.result() else { return };
        let rules = game.rules();
        let players = rules.players;
        let ours = |s: Seat| if players == Players::Three { s == seat } else { s.team() == seat.team() };
        let out = outcome(result, players, seat);
        let t = self.row(preset_of(rules), bots, kind);
        t.count(out);
        if let Some(team) = result.pit {
            let pit_ours = if players == Players::Three {
                game.tricks().iter().all(|tr| tr.winner == seat)
            } else {
                team == seat.team()
            };
            if pit_ours {
                t.pit_for += 1;
            } else {
                t.pit_against += 1;
            }
        }
        for trick in game.tricks().iter().filter(|tr| ours(tr.winner)) {
            t.roem_called += u32::from(trick.credited);
            if rules.roem_is_called() {
                t.roem_missed += u32::from(trick.roem.points.saturating_sub(trick.credited));
            }
        }
        t.points += match &result.players {
            Some(alone) if players == Players::Three => {
                u64::from(alone.points[seat.index()]) + u64::from(alone.roem[seat.index()])
            }
            _ => u64::from(result.sheet_points[seat.team()]) + u64::from(result.sheet_roem[seat.team()]),
        };
        if result.contract.declarer == seat && !result.contract.forced {
            t.played += 1;
            if result.nat {
                t.played_nat += 1;
            }
        }
    }

    /// Counts a match that is over, as `seat`'s side ended it.
    pub fn note_match(&mut self, m: &Match, seat: Seat, bots: Level, kind: Kind) {
        if !m.is_over() {
            return;
        }
        let won = if m.rules().players == Players::Three {
            m.winning_player() == Some(seat)
        } else {
            m.winner() == Some(seat.team())
        };
        let t = self.row(preset_of(m.rules()), bots, kind);
        t.matches += 1;
        if won {
            t.matches_won += 1;
        } else {
            t.matches_lost += 1;
        }
    }

    /// Adds a deal, reviewed with `seed`, to the learning curve.
    pub fn note_review(&mut self, game: &Game, review: &Review, kind: Kind, seed: u64) {
        self.curve.push(DealLoss {
            code: game.deal().code(),
            preset: preset_of(game.rules()),
            kind,
            replay: Some(Replay { rules: *game.rules(), actions: game.actions().to_vec() }),
            loss: review.total_loss(),
            expert: expert_loss(review),
            seed,
        });
        let costliest: Vec<usize> = Kind::ALL.iter().flat_map(|&k| self.costliest(k, 5)).collect();
        let recent = self.curve.len().saturating_sub(KEPT_REPLAYS);
        for (i, d) in self.curve.iter_mut().enumerate().take(recent) {
            if !costliest.contains(&i) {
                d.replay = None;
            }
        }
    }

    /// The day's deals under `preset` as played for the record, if they were.
    pub fn day(&self, day: crate::daily::Day, preset: Preset) -> Option<&crate::daily::Played> {
        self.days.iter().find(|p| p.result.day == day && p.result.preset == preset)
    }

    /// Whether the day's deals under `preset` may still be played for the
    /// record: neither begun nor kept for it.
    pub fn day_open(&self, day: crate::daily::Day, preset: Preset) -> bool {
        self.day(day, preset).is_none() && !self.days_begun.contains(&(day, preset))
    }

    /// Notes a day begun for the record.
    pub fn begin_day(&mut self, day: crate::daily::Day, preset: Preset) {
        if !self.days_begun.contains(&(day, preset)) {
            self.days_begun.push((day, preset));
        }
    }

    /// Keeps a day played for the record; a day is recorded once.
    pub fn note_day(&mut self, played: crate::daily::Played) -> bool {
        let fresh = self.day(played.result.day, played.result.preset).is_none();
        if fresh {
            self.days.push(played);
        }
        fresh
    }

    /// The days in a row played up to `today`.
    pub fn streak(&self, today: crate::daily::Day) -> u32 {
        crate::daily::streak(self.days.iter().map(|p| &p.result.day), today)
    }

    /// Counts a score sheet whose match is over, kept at a table with
    /// real cards, as `team` ended it: every deal as the sheet scored it.
    /// Returns what it added, for [`Profile::forget_sheet`] should the
    /// sheet change after.
    pub fn note_sheet(&mut self, sheet: &KeptSheet, team: Team) -> Option<Tally> {
        if !sheet.is_over() {
            return None;
        }
        let mut t = Tally { matches: 1, ..Tally::default() };
        if sheet.winner() == Some(team) {
            t.matches_won += 1;
        } else {
            t.matches_lost += 1;
        }
        let seat = if team == Team::NS { Seat::South } else { Seat::West };
        for result in sheet.sheet().rows {
            let out = outcome(&result, sheet.rules.players, seat);
            t.count(out);
            match result.pit {
                Some(p) if p == team => t.pit_for += 1,
                Some(_) => t.pit_against += 1,
                None => {}
            }
            t.roem_called += u32::from(result.roem[team]);
            t.points += u64::from(result.total(team));
            if out.declaring {
                t.played += 1;
                t.played_nat += u32::from(out.nat);
            }
        }
        let sum = self.real_cards_row(preset_of(&sheet.rules));
        add_up!(sum, t: matches, matches_won, matches_lost, deals, deals_won, deals_lost, nat_for, nat_against,
            pit_for, pit_against, roem_called, roem_missed, points, played, played_nat);
        sum.longest_run = sum.longest_run.max(t.longest_run);
        Some(t)
    }

    /// Takes back what [`Profile::note_sheet`] added for a sheet of
    /// `preset` that has changed since (the longest run stays: it was).
    pub fn forget_sheet(&mut self, preset: Preset, added: &Tally) {
        let sum = self.real_cards_row(preset);
        macro_rules! take_back {
            ($($field:ident),*) => { $(sum.$field = sum.$field.saturating_sub(added.$field);)* };
        }
        take_back!(
            matches,
            matches_won,
            matches_lost,
            deals,
            deals_won,
            deals_lost,
            nat_for,
            nat_against,
            pit_for,
            pit_against,
            roem_called,
            roem_missed,
            points,
            played,
            played_nat
        );
    }

    fn real_cards_row(&mut self, preset: Preset) -> &mut Tally {
        let i = match self.real_cards.iter().position(|(p, _)| *p == preset) {
            Some(i) => i,
            None => {
                self.real_cards.push((preset, Tally::default()));
                self.real_cards.len() - 1
            }
        };
        &mut self.real_cards[i].1
    }

    /// What the score sheets of one preset (or all) counted.
    pub fn real_cards(&self, preset: Option<Preset>) -> Tally {
        let mut sum = Tally::default();
        for (_, t) in self.real_cards.iter().filter(|(p, _)| preset.is_none_or(|q| *p == q)) {
            add_up!(sum, t: matches, matches_won, matches_lost, deals, deals_won, deals_lost, nat_for, nat_against,
                pit_for, pit_against, roem_called, roem_missed, points, played, played_nat);
            sum.longest_run = sum.longest_run.max(t.longest_run);
        }
        sum
    }

    /// The tallies of one preset, all bots and kinds given, added up.
    pub fn total(&self, preset: Option<Preset>, kind: Kind) -> Tally {
        let mut sum = Tally::default();
        for r in self.rows.iter().filter(|r| r.kind == kind && preset.is_none_or(|p| r.preset == p)) {
            let t = &r.tally;
            add_up!(sum, t: matches, matches_won, matches_lost, deals, deals_won, deals_lost, nat_for, nat_against,
                pit_for, pit_against, roem_called, roem_missed, points, played, played_nat);
            sum.longest_run = sum.longest_run.max(t.longest_run);
        }
        sum
    }

    /// The reviewed deals of one kind, oldest first.
    pub fn curve_of(&self, kind: Kind) -> impl Iterator<Item = &DealLoss> {
        self.curve.iter().filter(move |d| d.kind == kind)
    }

    /// The average given away per deal over the last `last` reviewed deals
    /// of `kind` (all of them with `None`): the player's and the expert's.
    pub fn average(&self, kind: Kind, last: Option<usize>) -> Option<(f64, f64)> {
        average(&self.curve_of(kind).collect::<Vec<_>>(), last)
    }

    /// The number of reviewed deal `i` of the curve among those of its
    /// kind, from 1: the deal as the player counts them.
    pub fn number_in_kind(&self, i: usize) -> usize {
        let Some(kind) = self.curve.get(i).map(|d| d.kind) else { return 0 };
        self.curve[..=i].iter().filter(|d| d.kind == kind).count()
    }

    /// The costliest reviewed deals of `kind`, costliest first: indices
    /// into [`Profile::curve`].
    pub fn costliest(&self, kind: Kind, n: usize) -> Vec<usize> {
        let mut costly: Vec<usize> =
            (0..self.curve.len()).filter(|&i| self.curve[i].kind == kind && self.curve[i].loss > 0).collect();
        costly.sort_by_key(|&i| (std::cmp::Reverse(self.curve[i].loss), std::cmp::Reverse(i)));
        costly.truncate(n);
        costly
    }
}

/// The spans the learning curve is averaged over: the last 10 deals, the
/// last 50, and all of them.
pub const SPANS: [Option<usize>; 3] = [Some(10), Some(50), None];

/// Whether a span is worth showing beside "all": there are more deals.
pub fn span_shown(last: Option<usize>, deals: usize) -> bool {
    last.is_none_or(|n| deals > n)
}

/// The average given away per deal over the last `last` of `deals` (all
/// of them with `None`): the player's and the expert's.
pub fn average(deals: &[&DealLoss], last: Option<usize>) -> Option<(f64, f64)> {
    let deals = &deals[last.map_or(0, |n| deals.len().saturating_sub(n))..];
    let n = deals.len() as f64;
    (!deals.is_empty()).then(|| {
        (deals.iter().map(|d| d.loss as f64).sum::<f64>() / n, deals.iter().map(|d| d.expert as f64).sum::<f64>() / n)
    })
}

/// What the expert's choices, from the seat's view, would have given away
/// at the moments of the review.
pub fn expert_loss(review: &Review) -> i32 {
    review
        .cards
        .iter()
        .map(|c| {
            let best = c.values.iter().map(|(_, v)| *v).max().unwrap_or(0);
            match c.expert.action {
                Action::Play(card) => c.value(card).map_or(0, |v| best - v),
                _ => 0,
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use klaverjas::{Bid, Deal};

    /// A deal of `rules` played to its end: every seat takes its first
    /// legal action (on even seeds the first bidder chooses to play), and
    /// nobody calls roem.
    fn played(rules: Rules, seed: u64) -> Option<Game> {
        let mut game = Game::new(rules, Deal::shuffled_for(&rules, seed, Seat::West)).ok()?;
        while game.result().is_none() {
            let legal = game.legal_actions();
            let chooses = |a: &&Action| matches!(a, Action::Bid(b) if *b != Bid::Pass && *b != Bid::Double);
            let pick = legal
                .iter()
                .find(|a| matches!(a, Action::PassRoem))
                .or_else(|| legal.iter().find(chooses).filter(|_| seed.is_multiple_of(2)))
                .or_else(|| legal.iter().find(|a| !matches!(a, Action::ClaimRoem | Action::Bid(Bid::Double))))
                .or(legal.first())?;
            game.apply(*pick).ok()?;
        }
        Some(game)
    }

    fn first(rules: Rules, wanted: impl Fn(&Game) -> bool) -> Game {
        (0..2000).filter_map(|seed| played(rules, seed)).find(|g| wanted(g)).expect("a deal like that")
    }

    fn tally_of(game: &Game, seat: Seat) -> Tally {
        let mut p = Profile::default();
        p.note_deal(game, seat, Level::Expert, Kind::Counted);
        assert_eq!(p.rows.len(), 1);
        assert_eq!((p.rows[0].preset, p.rows[0].bots, p.rows[0].kind), (Preset::Classic, Level::Expert, Kind::Counted));
        p.rows[0].tally.clone()
    }

    #[test]
    fn a_nat_deal_counts_against_the_side_that_played_and_for_the_other() {
        let game = first(Preset::Classic.rules(), |g| g.result().unwrap().nat);
        let r = *game.result().unwrap();
        let declarer = r.contract.declarer;
        let against = tally_of(&game, declarer);
        assert_eq!((against.nat_against, against.nat_for, against.deals_lost, against.deals_won), (1, 0, 1, 0));
        assert_eq!((against.run, against.longest_run), (0, 0));
        assert_eq!(against.played_nat, u32::from(!r.contract.forced));
        let other = tally_of(&game, declarer.next());
        assert_eq!((other.nat_for, other.nat_against, other.deals_won), (1, 0, 1));
        assert_eq!(
            other.points,
            u64::from(r.sheet_points[declarer.next().team()] + r.sheet_roem[declarer.next().team()])
        );
        assert_eq!(other.played, 0);
    }

    #[test]
    fn a_made_contract_is_won_by_the_players_side() {
        let game = first(Preset::Classic.rules(), |g| !g.result().unwrap().nat && !g.result().unwrap().contract.forced);
        let r = *game.result().unwrap();
        let t = tally_of(&game, r.contract.declarer);
        assert_eq!((t.deals, t.deals_won, t.run, t.longest_run, t.played, t.played_nat), (1, 1, 1, 1, 1, 0));
        let partner = tally_of(&game, r.contract.declarer.partner());
        assert_eq!((partner.deals_won, partner.played), (1, 0), "the partner won, but did not choose");
    }

    #[test]
    fn a_pit_counts_for_the_side_that_took_every_trick() {
        let game = first(Preset::Classic.rules(), |g| g.result().unwrap().pit.is_some());
        let team = game.result().unwrap().pit.unwrap();
        let seat = Seat::ALL.into_iter().find(|s| s.team() == team).unwrap();
        assert_eq!((tally_of(&game, seat).pit_for, tally_of(&game, seat).pit_against), (1, 0));
        assert_eq!((tally_of(&game, seat.next()).pit_for, tally_of(&game, seat.next()).pit_against), (0, 1));
    }

    #[test]
    fn roem_left_uncalled_in_classic_is_missed() {
        let game = first(Preset::Classic.rules(), |g| g.tricks().iter().any(|t| t.roem.points > 0));
        let trick = game.tricks().iter().find(|t| t.roem.points > 0).unwrap();
        let winner = trick.winner;
        let roem_of = |team: Team| -> u32 {
            game.tricks().iter().filter(|t| t.winner.team() == team).map(|t| u32::from(t.roem.points)).sum()
        };
        let t = tally_of(&game, winner);
        assert_eq!((t.roem_called, t.roem_missed), (0, roem_of(winner.team())));
        assert!(t.roem_missed > 0);
        // Where roem counts by itself, nothing is missed.
        let auto = first(Preset::Amsterdam.rules(), |g| g.tricks().iter().any(|t| t.roem.points > 0));
        let mut p = Profile::default();
        let winner = auto.tricks().iter().find(|t| t.roem.points > 0).unwrap().winner;
        p.note_deal(&auto, winner, Level::Heuristic, Kind::Helped);
        assert_eq!(p.rows[0].preset, Preset::Amsterdam);
        assert!(p.rows[0].tally.roem_called > 0);
        assert_eq!(p.rows[0].tally.roem_missed, 0);
    }

    #[test]
    fn runs_break_on_a_lost_deal_and_the_longest_stays() {
        let won = first(Preset::Classic.rules(), |g| !g.result().unwrap().nat);
        let seat = won.result().unwrap().contract.declarer;
        let lost = first(Preset::Classic.rules(), |g| {
            let r = g.result().unwrap();
            r.nat && r.contract.declarer == seat
        });
        let mut p = Profile::default();
        for g in [&won, &won, &lost, &won] {
            p.note_deal(g, seat, Level::Expert, Kind::Counted);
        }
        let t = &p.rows[0].tally;
        assert_eq!((t.deals, t.deals_won, t.deals_lost, t.run, t.longest_run), (4, 3, 1, 1, 2));
        // Against other bots, another row; the total adds both up.
        p.note_deal(&lost, seat, Level::Heuristic, Kind::Counted);
        assert_eq!(p.rows.len(), 2);
        let all = p.total(Some(Preset::Classic), Kind::Counted);
        assert_eq!((all.deals, all.deals_won, all.deals_lost, all.nat_against, all.longest_run), (5, 3, 2, 2, 2));
        assert_eq!(all.points, p.rows[0].tally.points + p.rows[1].tally.points);
        assert_eq!(p.total(Some(Preset::Amsterdam), Kind::Counted), Tally::default());
        assert_eq!(p.total(None, Kind::Helped), Tally::default());
    }

    #[test]
    fn house_rules_belong_to_the_nearest_preset() {
        for p in Preset::ALL {
            assert_eq!(preset_of(&p.rules()), p);
        }
        let mut rules = Preset::Rotterdam.rules();
        rules.set("last-trick", "20").unwrap();
        rules.set("kraken", "yes").unwrap();
        assert_eq!(preset_of(&rules), Preset::Rotterdam);
    }

    #[test]
    fn averages_take_the_last_deals_and_the_costliest_come_first() {
        let game = played(Preset::Classic.rules(), 1).unwrap();
        let mut p = Profile::default();
        for (loss, expert) in [(30, 0), (10, 5), (0, 0), (20, 10)] {
            p.note_review(&game, &Review::default(), Kind::Counted, 1);
            let last = p.curve.last_mut().unwrap();
            (last.loss, last.expert) = (loss, expert);
        }
        p.note_review(&game, &Review::default(), Kind::Helped, 1);
        assert_eq!(p.average(Kind::Counted, None), Some((15.0, 3.75)));
        assert_eq!(p.average(Kind::Counted, Some(2)), Some((10.0, 5.0)));
        assert_eq!(p.average(Kind::Helped, None), Some((0.0, 0.0)));
        assert_eq!(p.average(Kind::Watched, None), None);
        assert_eq!(p.costliest(Kind::Counted, 2), vec![0, 3]);
        assert_eq!((p.number_in_kind(3), p.number_in_kind(4)), (4, 1), "counted apart by kind");
        assert_eq!(p.curve[0].code, game.deal().code());
        assert_eq!(p.curve[0].replay.as_ref().unwrap().actions, game.actions());
    }

    #[test]
    fn old_deals_keep_their_figures_and_only_the_costliest_their_replay() {
        let game = played(Preset::Classic.rules(), 1).unwrap();
        let mut p = Profile::default();
        for i in 0..KEPT_REPLAYS + 20 {
            p.note_review(&game, &Review::default(), Kind::Counted, 1);
            p.curve.last_mut().unwrap().loss = if i == 3 { 90 } else { i as i32 % 7 };
        }
        let kept: Vec<usize> = (0..p.curve.len()).filter(|&i| p.curve[i].replay.is_some()).collect();
        assert!(kept.contains(&3), "the costliest keeps its replay");
        assert_eq!(kept.iter().filter(|&&i| i >= 20).count(), KEPT_REPLAYS, "the latest keep theirs");
        assert!(kept.len() <= KEPT_REPLAYS + 5);
        assert_eq!(p.curve.len(), KEPT_REPLAYS + 20, "every deal keeps its figures");
        assert_eq!(
            p.average(Kind::Counted, None).unwrap().0,
            p.curve.iter().map(|d| d.loss as f64).sum::<f64>() / 70.0
        );
    }

    #[test]
    fn a_finished_score_sheet_counts_as_a_match_with_real_cards() {
        let mut kept = KeptSheet::new(Rules::classic(), Seat::West).unwrap();
        let mut p = Profile::default();
        let deal = |line: &str| line.parse::<klaverjas::EnteredDeal>().unwrap();
        kept.enter(deal("S H 102 roem 20/0")).unwrap();
        p.note_sheet(&kept, Team::NS);
        assert_eq!(p.real_cards(None), Tally::default(), "not over yet");
        kept.enter(deal("W S 60")).unwrap(); // nat: NS takes 162
        for _ in 0..13 {
            kept.enter(deal("S C 100")).unwrap();
        }
        kept.enter(deal("S D 162 pit")).unwrap();
        let added = p.note_sheet(&kept, Team::NS).unwrap();
        let t = p.real_cards(Some(Preset::Classic));
        assert_eq!((t.matches, t.matches_won, t.deals, t.deals_won), (1, 1, 16, 16));
        assert_eq!((t.nat_for, t.pit_for, t.played, t.roem_called), (1, 1, 15, 20));
        assert_eq!(t.points, u64::from(kept.sheet().totals().ns));
        // The rows of games with bots are not touched.
        assert!(p.rows.is_empty());
        // The last deal undone and entered again as lost: counted anew.
        p.forget_sheet(Preset::Classic, &added);
        assert_eq!(p.real_cards(None).matches, 0);
        kept.undo();
        kept.enter(deal("S D 60")).unwrap();
        p.note_sheet(&kept, Team::NS);
        let t = p.real_cards(None);
        assert_eq!((t.matches, t.deals, t.deals_won, t.nat_against, t.pit_for), (1, 16, 15, 1, 0));
    }
}
