//! What a seat may see, defined from the game's own record and not from
//! any view, and the cards a message names: the two halves of the check
//! that no seat is told a hidden card (this crate's tests, the server's
//! over real sockets, and any client that wants to be sure).

use klaverjas::{Card, CardSet, Game, Phase, Rank, Seat};

/// Every card named in a JSON message, as the engine writes cards.
pub fn cards_named(json: &serde_json::Value) -> CardSet {
    let mut named = CardSet::EMPTY;
    collect(json, &mut named);
    named
}

fn collect(json: &serde_json::Value, into: &mut CardSet) {
    match json {
        serde_json::Value::String(s) => {
            if let Ok(card) = s.parse::<Card>()
                && card.to_string() == *s
            {
                into.insert(card);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect(v, into)),
        serde_json::Value::Object(map) => map.values().for_each(|v| collect(v, into)),
        _ => {}
    }
}

/// What `seat` may know at this moment of `game`: its hand and the cards
/// it has laid away, every card played, what lies face up; all of it once
/// the deal is over.
pub fn visible(game: &Game, seat: Seat) -> CardSet {
    if matches!(game.phase(), Phase::Done | Phase::ThrownIn) {
        return CardSet::ALL;
    }
    let mut seen = game.hand(seat);
    for (_, card) in game.plays() {
        seen.insert(card);
    }
    if game.contract().map(|c| c.declarer) == Some(seat) {
        seen = seen.union(game.discards());
    }
    for card in [game.face_up(), game.turned_card(), game.bottom_card()].into_iter().flatten() {
        seen.insert(card);
    }
    if let Some(turned) = game.turned_card() {
        // Klaberjass: the seven of trumps that took the turned card's place.
        seen.insert(Card::new(turned.suit(), Rank::Seven));
    }
    seen
}
