//! Every rule option of `docs/RULES.md` (sections 3-7, four players, table
//! roem) as data, and the named presets of section 9.
//!
//! Seeds are the rule texts `docs/RULES.md` lists: 000/004 is a Dutch
//! player's blog, 001 a description with the Amsterdam and Rotterdam rules.

use crate::card::CardValues;
use crate::seat::{Direction, Players};
use std::fmt;

/// How trump is chosen (RULES section 3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Bidding {
    /// A card is turned from the pile of twenty 2-6 cards; from the dealer's
    /// left each player says pass or play. If all four pass the next pile
    /// card is turned and the team on the dealer's left must play it.
    ///
    /// Seed 000/004: "the next card from the pile of cards numbered 2-6 is
    /// turned and the suit of this card will be used instead as trump". The
    /// seed does not exclude the refused suit, so the second card may turn
    /// up the same suit again; the engine follows the seed.
    TurnedCard,
    /// From the dealer's left each player names a suit or passes; after three
    /// passes the dealer must name one (001 standard).
    FreeChoice,
    /// The dealer speaks first, then the others clockwise; if all four pass
    /// the dealer must choose (001 variant, the NKU order).
    DealerFirst,
    /// *Verplicht*: the player on the dealer's left must name trump (001).
    Mandatory,
    /// The dealer's last card is dealt face up and its suit is trump:
    /// nobody bids and no team plays against the other (002, South African
    /// Klawerjas: "the last card dealt determines trumps"; "there is no
    /// bidding for trumps"). The card stays in the dealer's hand, seen by
    /// all until played.
    LastCardDealt,
    /// Klaberjass for two (003): the card turned from the stock proposes
    /// its suit, which the non-dealer and then the dealer accept or pass;
    /// if both pass, each in the same order may name another suit or pass
    /// ("If the dealer also passes, both players get a chance to declare
    /// which suit they want as trump with the non-dealer deciding first");
    /// four passes throw the cards in ("If both players pass on calling a
    /// trump suit, the cards are collected and redealt"), whatever
    /// `redeal_on_all_pass` says. The suit refused
    /// in the first round cannot be named in the second: that is what
    /// "another" suit means.
    TwoRounds,
}

impl Bidding {
    pub const ALL: [Bidding; 6] = [
        Bidding::TurnedCard,
        Bidding::FreeChoice,
        Bidding::DealerFirst,
        Bidding::Mandatory,
        Bidding::LastCardDealt,
        Bidding::TwoRounds,
    ];
}

/// What a player may do who cannot beat the highest trump on the table
/// (RULES section 4, option `undertrump`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Undertrump {
    /// *Ondertroeven verboden* (Amsterdam per NKU): no lower trump unless the
    /// hand holds nothing but trumps, so a plain card is discarded.
    Forbidden,
    /// Any card (seed 000/004: "If you don't have a higher trump card, you
    /// don't need to play a trump card here and play any card you like").
    Allowed,
    /// A trump must still be played (Rotterdam per 001: "if a player is
    /// unable to follow suit, but does have a card in the trump suit he must
    /// play that card").
    Forced,
}

/// The following rules of RULES section 4. Following suit with any card of
/// the led suit is always required and is not an option.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Following {
    /// With the partner winning the trick, a player void in the led suit
    /// need not trump. Seed 000/004: "If your partner already played the
    /// highest card in this round, you don't need to play a trump card".
    /// Rotterdam (001) has no such exemption.
    pub partner_exemption: bool,
    pub undertrump: Undertrump,
    /// On a trump lead, a player must go over the highest trump on the table
    /// when able, even over the partner (001, NKU). Without it any trump
    /// will do: seed 000/004, "you must also play a trump card if you have
    /// one, even if it's a lower one".
    pub trump_lead_overtrump: bool,
    /// A trump may be played instead of following suit (South African,
    /// 002, SAKBOC rule 3.3: "Every player must play one of the same suit
    /// which is called, if s/he has one, unless s/he uses trumps"). The
    /// undertrump rule still holds for that trump.
    #[cfg_attr(feature = "serde", serde(default))]
    pub trump_instead_of_following: bool,
    /// Void in the led suit, any card may be played: nothing obliges a
    /// trump (002: with a void "one would be exempt from having to follow
    /// suit"), though a lower trump stays an undertrump.
    #[cfg_attr(feature = "serde", serde(default))]
    pub free_when_void: bool,
    /// The jack of trumps is never forced out: a player whose only trump
    /// it is need not play it on a trump lead (SAKBOC rule 3.2: "Jack of
    /// trumps need not be played when trumps are called").
    #[cfg_attr(feature = "serde", serde(default))]
    pub jack_never_forced: bool,
    /// Following a plain suit, a card that beats the led suit's best must
    /// be played when held (Klaberjass, 003: "Essentially, the player going
    /// second must win the trick if they can"). With the trump rules of a
    /// void and of a trump lead, the second player always wins if able. Set
    /// on a table of three or four, where 003 says nothing, every follower
    /// must head the led suit's best card while no trump is in the trick.
    #[cfg_attr(feature = "serde", serde(default))]
    pub win_if_able: bool,
}

impl Following {
    /// Dutch following, the three Dutch options given; the South African
    /// freedoms off.
    pub const fn dutch(partner_exemption: bool, undertrump: Undertrump, trump_lead_overtrump: bool) -> Following {
        Following {
            partner_exemption,
            undertrump,
            trump_lead_overtrump,
            trump_instead_of_following: false,
            free_when_void: false,
            jack_never_forced: false,
            win_if_able: false,
        }
    }

    /// Klaberjass following (003): follow suit and win the trick if able;
    /// void, trump; on a trump lead, a higher trump if able ("If a trump
    /// card was led, the second player must play a higher ranking trump
    /// card if they can").
    pub const fn klaberjass() -> Following {
        Following { win_if_able: true, ..Following::dutch(false, Undertrump::Forced, true) }
    }

    /// South African following (002, SAKBOC rules 3.2-3.4): follow suit or
    /// trump at will, no obligation to trump when void, no undertrump
    /// unless holding only trumps, the jack of trumps never forced, no
    /// obligation to go over a trump on a trump lead.
    pub const fn south_african() -> Following {
        Following {
            partner_exemption: false,
            undertrump: Undertrump::Forbidden,
            trump_lead_overtrump: false,
            trump_instead_of_following: true,
            free_when_void: true,
            jack_never_forced: true,
            win_if_able: false,
        }
    }
}

/// Which values table roem uses (RULES section 5).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RoemTable {
    /// Seed 000/004: runs 20 / 50, stuk 20, "4 of the same cards, different
    /// suits (e.g. 7♤, 7♧, 7♡, 7♢): 50 points", any rank.
    Blog,
    /// Seed 001: four aces, kings, queens or tens 100, four jacks 200; four
    /// nines, eights or sevens score nothing ("These must be in the
    /// denomination of Ace, King, Queen, or ten").
    Cards001,
    /// NKU tournament values: four of a kind 100, any rank.
    Nku,
    /// South African roemtes (002, SAKBOC): a twenty (three in sequence)
    /// 20, a fifty (four) 50, sturk 20; *vyf-eenderse* (five in sequence)
    /// and four jacks, aces, kings or queens win the game outright, which
    /// only counts in a boem match. Their values here rank them: four
    /// jacks 200 (always good: SAKBOC 8.7 excepts them from being
    /// overcalled), a five-run 150, four aces, kings or queens 100 (a
    /// five-run over these is our reading: 002 lets only "a higher Vyf
    /// enerse" beat a five-run). Four tens, nines, eights or sevens score
    /// nothing.
    SouthAfrican,
    /// *Zonder roem*: no roem at all, only the cards' points and the last
    /// trick (a common house rule, and Belote's card play without its
    /// announcements; `docs/RULES.md` section 5). Nothing is called.
    None,
    /// Klaberjass (003): runs from the hand, three 20 and four or more 50,
    /// of which only the best single run scores ("If both players have a
    /// sequence in their hand, the best sequence earns the points"); no
    /// four of a kind; Bella, king and queen of trumps, 20, shown as the
    /// second of them is played ("Declare it only when you play the second
    /// card").
    Klaberjass,
}

impl RoemTable {
    pub const ALL: [RoemTable; 6] = [
        RoemTable::Blog,
        RoemTable::Cards001,
        RoemTable::Nku,
        RoemTable::SouthAfrican,
        RoemTable::None,
        RoemTable::Klaberjass,
    ];

    /// Whether stuk counts as the second of king and queen is played
    /// (Klaberjass's Bella) rather than the first.
    pub const fn stuk_on_the_second(self) -> bool {
        matches!(self, RoemTable::Klaberjass)
    }

    /// Whether only the best combination of the hands scores, not all of
    /// its side's.
    pub const fn best_only(self) -> bool {
        matches!(self, RoemTable::Klaberjass)
    }
}

/// Where roem comes from (RULES section 5, option `roem_source`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RoemSource {
    /// Combinations among the four cards of a trick, for the team that
    /// wins it (Dutch, seeds 000, 001, 004).
    #[default]
    Table,
    /// Combinations held in a hand as dealt, announced before the seat's
    /// first card; only the team with the best single combination scores
    /// (seed 001's Wilde Boom: "The team which has announced the highest
    /// single scoring combination is entitled to score for all such
    /// combinations ... while the opposing team scores nothing"). Stuk
    /// counts for its holder when the first of king and queen of trumps is
    /// played.
    Hand,
}

/// Whether table roem must be called to count (RULES section 5).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RoemClaim {
    /// The team winning a trick *may* call its roem; uncalled roem does not
    /// count. Seed 000/004: "calling Roem is not required, and the team
    /// winning the round may decide not to if they think they will lose the
    /// game and they are playing".
    Manual,
    /// Roem counts for the trick's winner without a call.
    Automatic,
}

/// How long a match lasts (RULES section 7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MatchLength {
    /// A fixed number of deals (16 is a Dutch *boompje*); highest total wins.
    Deals(u16),
    /// Until a team's total reaches the target at the end of a deal; if both
    /// do, the higher total wins (and a tie plays on).
    Points(u32),
    /// The South African *boem* (002): each game is a race to 100 points,
    /// hands following each other (*old play*, the points carried) until a
    /// side gets there, in the middle of a hand if need be; the winners go
    /// on two strokes if the others have under 50, else one; the first side
    /// to this many strokes (five) wins the boem.
    Boem(u8),
}

impl MatchLength {
    /// The standard match by deals: 16, a Dutch *boompje*. Seed 001: "A
    /// full game session consists of exactly 16 hands"; seed 000/004:
    /// "Normally game sets are played over 16 games".
    pub const STANDARD_DEALS: MatchLength = MatchLength::Deals(16);
    /// The standard match by points: 1500, RULES section 7 ("1500 is
    /// common online"). No seed text sets a target for four players; the
    /// 500 of seed 003 is two-player Klaberjass.
    pub const STANDARD_POINTS: MatchLength = MatchLength::Points(1500);
    /// Five strokes win a boem (002: "The first team to go on 5 strokes
    /// wins the boem").
    pub const STANDARD_BOEM: MatchLength = MatchLength::Boem(5);

    pub const fn is_by_points(self) -> bool {
        matches!(self, MatchLength::Points(_))
    }

    /// The standard length by points or by deals: what a form switching
    /// between the two kinds starts from.
    pub const fn standard(by_points: bool) -> MatchLength {
        if by_points { MatchLength::STANDARD_POINTS } else { MatchLength::STANDARD_DEALS }
    }
}

/// A complete rule set. Start from a preset and change single fields.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    pub bidding: Bidding,
    pub following: Following,
    pub roem_table: RoemTable,
    pub roem_claim: RoemClaim,
    #[cfg_attr(feature = "serde", serde(default))]
    pub roem_source: RoemSource,
    /// Whether defenders who take all eight tricks earn the 100 of pit on
    /// top of the 162 and all roem. Seed 000 gives pit to "a team" without
    /// restriction; some houses give it to the playing team only.
    pub pit_for_defenders: bool,
    /// Points for the last trick (10 in Dutch play).
    pub last_trick_bonus: u16,
    pub match_length: MatchLength,
    /// Once trump is chosen the defenders may double the deal, the playing
    /// team may double it again and the defenders once more (*kraken*:
    /// kraak, rekraak, superkraak; RULES section 8, seed 001's Wilde Boom:
    /// "This challenge automatically causes all scores earned at the end of
    /// the hand to be doubled"). The team that doubled last must then score
    /// more than the other, which takes everything if it does not.
    #[cfg_attr(feature = "serde", serde(default))]
    pub kraken: bool,
    /// A deal with spades as trump counts double (seed 001's Wilde Boom:
    /// "If the suit of spades ends up the trump suit for the hand, all
    /// scores for that hand are doubled").
    #[cfg_attr(feature = "serde", serde(default))]
    pub spades_double: bool,
    /// The cards' order and points: Dutch, or South African (RULES
    /// section 1).
    #[cfg_attr(feature = "serde", serde(default))]
    pub card_values: CardValues,
    /// Which way the deal, the bidding and the play go round.
    #[cfg_attr(feature = "serde", serde(default))]
    pub direction: Direction,
    /// How many sit at the table: four in partnerships, or three each
    /// playing alone with a talon (RULES section 8).
    #[cfg_attr(feature = "serde", serde(default))]
    pub players: Players,
    /// When everyone passes, the cards are thrown in and the same dealer
    /// deals again, instead of the last to speak being made to choose
    /// (001, three players: "if it occurs that all three players elect to
    /// Pass (including the dealer who bids last), the cards are thrown in
    /// and a new hand re-dealt by the same dealer"). For the methods in
    /// which a suit is named.
    #[cfg_attr(feature = "serde", serde(default))]
    pub redeal_on_all_pass: bool,
}

/// The named presets of RULES section 9 that this engine plays.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Preset {
    Classic,
    Amsterdam,
    Rotterdam,
    WildeBoom,
    Klawerjas,
    Three,
    Klaberjass,
}

impl Preset {
    pub const ALL: [Preset; 7] = [
        Preset::Classic,
        Preset::Amsterdam,
        Preset::Rotterdam,
        Preset::WildeBoom,
        Preset::Klawerjas,
        Preset::Three,
        Preset::Klaberjass,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::Amsterdam => "amsterdam",
            Preset::Rotterdam => "rotterdam",
            Preset::WildeBoom => "wilde-boom",
            Preset::Klawerjas => "klawerjas",
            Preset::Three => "three",
            Preset::Klaberjass => "klaberjass",
        }
    }

    pub const fn rules(self) -> Rules {
        match self {
            Preset::Classic => Rules::classic(),
            Preset::Amsterdam => Rules::amsterdam(),
            Preset::Rotterdam => Rules::rotterdam(),
            Preset::WildeBoom => Rules::wilde_boom(),
            Preset::Klawerjas => Rules::klawerjas(),
            Preset::Three => Rules::three(),
            Preset::Klaberjass => Rules::klaberjass(),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Preset {
    type Err = UnknownPreset;
    fn from_str(s: &str) -> Result<Preset, UnknownPreset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownPreset(s.trim().to_string()))
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownPreset(pub String);

impl fmt::Display for UnknownPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> = Preset::ALL.iter().map(|p| p.name()).collect();
        write!(f, "unknown preset '{}' (known: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownPreset {}

impl Rules {
    /// Whether roem is called by the trick's winners: by hand, in a game
    /// that has roem at all, and roem of the table.
    pub const fn roem_is_called(&self) -> bool {
        matches!(self.roem_claim, RoemClaim::Manual)
            && !matches!(self.roem_table, RoemTable::None)
            && matches!(self.roem_source, RoemSource::Table)
    }

    /// The table roem of tricks counts under: none where roem comes from
    /// the hands.
    pub const fn trick_roem_table(&self) -> RoemTable {
        if matches!(self.roem_source, RoemSource::Hand) { RoemTable::None } else { self.roem_table }
    }

    /// Whether a deal's score may be multiplied: by doubling (*kraken*) or
    /// by spades as trump.
    pub const fn multiplies_stakes(&self) -> bool {
        self.kraken || self.spades_double
    }

    /// Seeds 000/004 read literally: a turned card from the 2-6 pile with
    /// pass/play and a forced second card; partner exemption; undertrumping
    /// allowed; any trump on a trump lead; blog roem values (four of a kind
    /// 50); roem counts only when called; pit for either side; 16 deals.
    pub const fn classic() -> Rules {
        Rules {
            bidding: Bidding::TurnedCard,
            following: Following::dutch(true, Undertrump::Allowed, false),
            roem_table: RoemTable::Blog,
            roem_claim: RoemClaim::Manual,
            roem_source: RoemSource::Table,
            pit_for_defenders: true,
            last_trick_bonus: 10,
            match_length: MatchLength::STANDARD_DEALS,
            kraken: false,
            spades_double: false,
            card_values: CardValues::Dutch,
            direction: Direction::Clockwise,
            players: Players::Four,
            redeal_on_all_pass: false,
        }
    }

    /// Amsterdam as the NKU plays it: dealer first and forced, partner
    /// exemption, no undertrumping, overtrump on a trump lead, NKU roem
    /// counted automatically.
    pub const fn amsterdam() -> Rules {
        Rules {
            bidding: Bidding::DealerFirst,
            following: Following::dutch(true, Undertrump::Forbidden, true),
            roem_table: RoemTable::Nku,
            roem_claim: RoemClaim::Automatic,
            ..Rules::classic()
        }
    }

    /// Rotterdam (001): as Amsterdam, but a void player always trumps and
    /// overtrumps, over the partner too, and undertrumps when unable to go
    /// higher.
    pub const fn rotterdam() -> Rules {
        Rules { following: Following::dutch(false, Undertrump::Forced, true), ..Rules::amsterdam() }
    }

    /// Wilde Boom, or Kraken (seed 001, RULES section 8): a suit named in
    /// turn from the dealer's left, the dealer made to name one after three
    /// passes; following as in Amsterdam; roem from the hands at seed 001's
    /// values, a run of five or more 100; the deal may be doubled (kraken),
    /// and spades as trump count double.
    pub const fn wilde_boom() -> Rules {
        Rules {
            bidding: Bidding::FreeChoice,
            roem_table: RoemTable::Cards001,
            roem_source: RoemSource::Hand,
            kraken: true,
            spades_double: true,
            ..Rules::amsterdam()
        }
    }

    /// South African Klawerjas under the SAKBOC rules (002): South African
    /// card values, play to the right, trump by the last card dealt, South
    /// African following, roem from the hands with sizing and sturk, five
    /// for the last trick (*vyf laas trek*), and the boem match.
    pub const fn klawerjas() -> Rules {
        Rules {
            bidding: Bidding::LastCardDealt,
            following: Following::south_african(),
            roem_table: RoemTable::SouthAfrican,
            roem_claim: RoemClaim::Automatic,
            roem_source: RoemSource::Hand,
            pit_for_defenders: false,
            last_trick_bonus: 5,
            match_length: MatchLength::STANDARD_BOEM,
            kraken: false,
            spades_double: false,
            card_values: CardValues::SouthAfrican,
            direction: Direction::AntiClockwise,
            players: Players::Four,
            redeal_on_all_pass: false,
        }
    }

    /// Klaverjas for three (001): East, South and West each play alone,
    /// ten cards each and a talon of two; a suit is named in turn from
    /// the dealer's left and everyone passing throws the cards in; the
    /// trump maker takes the talon and lays two cards away, which go to
    /// the last trick's winner; Amsterdam following (with nobody's partner
    /// at the table); NKU table roem counted automatically; 16 deals.
    pub const fn three() -> Rules {
        Rules { bidding: Bidding::FreeChoice, players: Players::Three, redeal_on_all_pass: true, ..Rules::amsterdam() }
    }

    /// Klaberjass for two (003): South against West, six cards each and a
    /// turned card, two rounds to fix trump, three more cards each, nine
    /// tricks in which the second player must win if able, the best run
    /// in hand and Bella scoring, ten for the last trick, the maker
    /// giving all away unless scoring more, and a game to 500.
    pub const fn klaberjass() -> Rules {
        Rules {
            bidding: Bidding::TwoRounds,
            following: Following::klaberjass(),
            roem_table: RoemTable::Klaberjass,
            roem_claim: RoemClaim::Automatic,
            roem_source: RoemSource::Hand,
            pit_for_defenders: false,
            last_trick_bonus: 10,
            match_length: MatchLength::Points(500),
            kraken: false,
            spades_double: false,
            card_values: CardValues::Dutch,
            direction: Direction::Clockwise,
            players: Players::Two,
            redeal_on_all_pass: true,
        }
    }

    /// Tricks in a deal ([`Players::tricks`]).
    pub const fn tricks_per_deal(&self) -> u8 {
        self.players.tricks()
    }

    /// Cards in each hand as play starts.
    pub const fn hand_size(&self) -> u32 {
        self.tricks_per_deal() as u32
    }

    /// Whether one team plays the deal against the other: not where the
    /// last card dealt makes trump, when both sides simply count.
    pub const fn has_playing_team(&self) -> bool {
        !matches!(self.bidding, Bidding::LastCardDealt)
    }

    /// Whether each game is a race to the boem's target, which ends a
    /// hand as soon as a side reaches it.
    pub const fn races_to_the_boem(&self) -> bool {
        matches!(self.match_length, MatchLength::Boem(_))
    }

    /// All points of the cards plus the last trick: 162 in Dutch play.
    pub const fn deal_points(&self) -> u16 {
        self.card_values.total() + self.last_trick_bonus
    }

    /// The names [`Rules::set`] takes.
    pub const OPTIONS: [&'static str; 20] = [
        "bidding",
        "partner-exemption",
        "undertrump",
        "trump-lead-overtrump",
        "trump-instead-of-following",
        "free-when-void",
        "jack-never-forced",
        "win-if-able",
        "roem",
        "roem-claim",
        "roem-source",
        "pit-for-defenders",
        "match",
        "kraken",
        "spades-double",
        "cards",
        "last-trick",
        "direction",
        "players",
        "all-pass",
    ];

    /// The values option `name` accepts, in words (`yes, no` for a switch).
    pub fn accepted_values(name: &str) -> String {
        accepted(&option_key(name))
    }

    /// Changes options from a list of `name=value` separated by commas
    /// (`undertrump=allowed,roem=none`), each as [`Rules::set`] does. On an
    /// error the options before the bad one stay changed: start again from
    /// the preset.
    pub fn set_all(&mut self, list: &str) -> Result<(), RuleOptionError> {
        for pair in list.split(',').filter(|p| !p.trim().is_empty()) {
            let (name, value) =
                pair.split_once('=').ok_or_else(|| RuleOptionError::NotNameValue(pair.trim().into()))?;
            self.set(name, value)?;
        }
        Ok(())
    }

    /// Changes one option by its name and a value in words, as a player
    /// would set it on top of a preset (`undertrump=allowed`). An unknown
    /// name or value leaves the rules as they were and is named in the
    /// error, with what would have been accepted.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleOptionError> {
        let (name, value) = (name.trim(), value.trim());
        let bad = || RuleOptionError::BadValue { name: name.to_string(), value: value.to_string() };
        match option_key(name).as_str() {
            "bidding" => self.bidding = pick(value, BIDDINGS).ok_or_else(bad)?,
            "partner-exemption" => self.following.partner_exemption = pick(value, YES_NO).ok_or_else(bad)?,
            "undertrump" => self.following.undertrump = pick(value, UNDERTRUMPS).ok_or_else(bad)?,
            "trump-lead-overtrump" => self.following.trump_lead_overtrump = pick(value, YES_NO).ok_or_else(bad)?,
            "trump-instead-of-following" => {
                self.following.trump_instead_of_following = pick(value, YES_NO).ok_or_else(bad)?
            }
            "free-when-void" => self.following.free_when_void = pick(value, YES_NO).ok_or_else(bad)?,
            "jack-never-forced" => self.following.jack_never_forced = pick(value, YES_NO).ok_or_else(bad)?,
            "win-if-able" => self.following.win_if_able = pick(value, YES_NO).ok_or_else(bad)?,
            "roem" => self.roem_table = pick(value, ROEM_TABLES).ok_or_else(bad)?,
            "roem-claim" => self.roem_claim = pick(value, ROEM_CLAIMS).ok_or_else(bad)?,
            "roem-source" => self.roem_source = pick(value, ROEM_SOURCES).ok_or_else(bad)?,
            "pit-for-defenders" => self.pit_for_defenders = pick(value, YES_NO).ok_or_else(bad)?,
            "kraken" => self.kraken = pick(value, YES_NO).ok_or_else(bad)?,
            "spades-double" => self.spades_double = pick(value, YES_NO).ok_or_else(bad)?,
            "cards" => self.card_values = pick(value, CARD_VALUES).ok_or_else(bad)?,
            "direction" => self.direction = pick(value, DIRECTIONS).ok_or_else(bad)?,
            "players" => self.players = pick(value, PLAYERS).ok_or_else(bad)?,
            "all-pass" => self.redeal_on_all_pass = pick(value, ALL_PASS).ok_or_else(bad)?,
            "last-trick" => self.last_trick_bonus = value.parse().ok().filter(|&n: &u16| n <= 100).ok_or_else(bad)?,
            "match" => {
                let (kind, n) = value.split_once(':').ok_or_else(bad)?;
                let n: u32 = n.trim().parse().ok().filter(|&n| n > 0).ok_or_else(bad)?;
                self.match_length = match kind.trim().to_ascii_lowercase().as_str() {
                    "deals" => MatchLength::Deals(u16::try_from(n).map_err(|_| bad())?),
                    "points" => MatchLength::Points(n),
                    "boem" => MatchLength::Boem(u8::try_from(n).map_err(|_| bad())?),
                    _ => return Err(bad()),
                }
            }
            _ => return Err(RuleOptionError::UnknownName(name.to_string())),
        }
        Ok(())
    }
}

/// The words of each option's values, for [`Rules::set`] and its errors.
const BIDDINGS: &[(&str, Bidding)] = &[
    ("turned", Bidding::TurnedCard),
    ("free", Bidding::FreeChoice),
    ("dealer-first", Bidding::DealerFirst),
    ("mandatory", Bidding::Mandatory),
    ("last-card", Bidding::LastCardDealt),
    ("two-rounds", Bidding::TwoRounds),
];
const UNDERTRUMPS: &[(&str, Undertrump)] =
    &[("forbidden", Undertrump::Forbidden), ("allowed", Undertrump::Allowed), ("forced", Undertrump::Forced)];
const ROEM_TABLES: &[(&str, RoemTable)] = &[
    ("blog", RoemTable::Blog),
    ("001", RoemTable::Cards001),
    ("nku", RoemTable::Nku),
    ("south-african", RoemTable::SouthAfrican),
    ("none", RoemTable::None),
    ("klaberjass", RoemTable::Klaberjass),
];
const ROEM_CLAIMS: &[(&str, RoemClaim)] = &[("manual", RoemClaim::Manual), ("automatic", RoemClaim::Automatic)];
const ROEM_SOURCES: &[(&str, RoemSource)] = &[("table", RoemSource::Table), ("hand", RoemSource::Hand)];
const CARD_VALUES: &[(&str, CardValues)] = &[("dutch", CardValues::Dutch), ("south-african", CardValues::SouthAfrican)];
const DIRECTIONS: &[(&str, Direction)] =
    &[("clockwise", Direction::Clockwise), ("anti-clockwise", Direction::AntiClockwise)];
const PLAYERS: &[(&str, Players)] = &[("4", Players::Four), ("3", Players::Three), ("2", Players::Two)];
const ALL_PASS: &[(&str, bool)] = &[("choose", false), ("redeal", true)];
const YES_NO: &[(&str, bool)] =
    &[("yes", true), ("no", false), ("true", true), ("false", false), ("on", true), ("off", false)];

/// An option's name as [`Rules::OPTIONS`] spells it: `_` and `-` alike.
fn option_key(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('_', "-")
}

fn pick<T: Copy>(value: &str, words: &[(&str, T)]) -> Option<T> {
    words.iter().find(|(w, _)| w.eq_ignore_ascii_case(value)).map(|&(_, v)| v)
}

fn listed<T>(words: &[(&str, T)]) -> String {
    words.iter().map(|(w, _)| *w).collect::<Vec<_>>().join(", ")
}

/// The values an option accepts, in words.
fn accepted(key: &str) -> String {
    match key {
        "bidding" => listed(BIDDINGS),
        "undertrump" => listed(UNDERTRUMPS),
        "roem" => listed(ROEM_TABLES),
        "roem-claim" => listed(ROEM_CLAIMS),
        "roem-source" => listed(ROEM_SOURCES),
        "match" => "deals:N, points:N, boem:STROKES".to_string(),
        "cards" => listed(CARD_VALUES),
        "direction" => listed(DIRECTIONS),
        "players" => listed(PLAYERS),
        "all-pass" => listed(ALL_PASS),
        "last-trick" => "0 to 100 (points)".to_string(),
        _ => listed(YES_NO),
    }
}

/// Why [`Rules::set`] refused an option.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RuleOptionError {
    NotNameValue(String),
    UnknownName(String),
    BadValue { name: String, value: String },
}

impl fmt::Display for RuleOptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleOptionError::NotNameValue(pair) => write!(f, "'{pair}' is not name=value"),
            RuleOptionError::UnknownName(name) => {
                write!(f, "unknown rule option '{name}' (known: {})", Rules::OPTIONS.join(", "))
            }
            RuleOptionError::BadValue { name, value } => {
                write!(f, "'{value}' is not a value of {name} (accepted: {})", accepted(&option_key(name)))
            }
        }
    }
}

impl std::error::Error for RuleOptionError {}

impl Default for Rules {
    fn default() -> Rules {
        Rules::classic()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_set_by_name_on_top_of_a_preset() {
        let mut r = Rules::rotterdam();
        r.set("undertrump", "allowed").unwrap();
        r.set("partner_exemption", "yes").unwrap();
        r.set("roem", "blog").unwrap();
        r.set("match", "points:1000").unwrap();
        assert_eq!(r.following.undertrump, Undertrump::Allowed);
        assert!(r.following.partner_exemption);
        assert_eq!(r.roem_table, RoemTable::Blog);
        assert_eq!(r.match_length, MatchLength::Points(1000));
        // Setting every option of a preset to its own value changes nothing.
        let mut same = Rules::classic();
        for (name, value) in [
            ("bidding", "turned"),
            ("partner-exemption", "yes"),
            ("undertrump", "allowed"),
            ("trump-lead-overtrump", "no"),
            ("trump-instead-of-following", "no"),
            ("free-when-void", "no"),
            ("jack-never-forced", "no"),
            ("win-if-able", "no"),
            ("roem", "blog"),
            ("roem-claim", "manual"),
            ("roem-source", "table"),
            ("pit-for-defenders", "yes"),
            ("match", "deals:16"),
            ("kraken", "no"),
            ("spades-double", "no"),
            ("cards", "dutch"),
            ("last-trick", "10"),
            ("direction", "clockwise"),
            ("players", "4"),
            ("all-pass", "choose"),
        ] {
            same.set(name, value).unwrap();
        }
        assert_eq!(same, Rules::classic());
        assert_eq!(Rules::OPTIONS.len(), 20, "every option named");
    }

    #[test]
    fn a_bad_option_names_the_token_and_changes_nothing() {
        let mut r = Rules::amsterdam();
        let e = r.set("undertrump", "sometimes").unwrap_err();
        assert!(e.to_string().contains("'sometimes'") && e.to_string().contains("forbidden"), "{e}");
        let e = r.set("roemm", "nku").unwrap_err();
        assert!(e.to_string().contains("'roemm'"), "{e}");
        assert!(r.set("match", "deals:0").is_err() && r.set("match", "points").is_err());
        assert!(r.set("match", "deals:70000").is_err(), "more deals than the sheet counts");
        assert_eq!(r, Rules::amsterdam());
    }
}
