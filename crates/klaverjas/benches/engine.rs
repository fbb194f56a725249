//! Criterion benchmarks of the hot paths: legal-move generation and a
//! random playout of a whole deal. Run: `cargo bench -p klaverjas`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use klaverjas::{Deal, PlayState, Preset, Rng, Seat, Suit};
use std::hint::black_box;

/// Positions from random play: every position of 64 deals, so the mix of
/// leads, follows, trumps and discards is that of real play.
fn positions(preset: Preset) -> Vec<PlayState> {
    let mut out = Vec::new();
    let mut rng = Rng::new(1);
    for seed in 0..64u64 {
        let deal = Deal::shuffled(seed, Seat::North);
        let mut s = PlayState::new(deal.hands, Suit::from_index(seed as usize), Seat::East, &preset.rules());
        while !s.is_over() {
            out.push(s);
            s.play_unchecked(rng.pick(s.legal()).unwrap());
        }
    }
    out
}

fn legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal");
    for preset in Preset::ALL {
        let states = positions(preset);
        group.throughput(Throughput::Elements(states.len() as u64));
        group.bench_function(preset.name(), |b| {
            b.iter(|| states.iter().fold(0u32, |acc, s| acc ^ black_box(s).legal().0));
        });
    }
    group.finish();
}

fn random_playout(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    for preset in Preset::ALL {
        let starts: Vec<PlayState> = (0..256u64)
            .map(|seed| {
                let deal = Deal::shuffled(seed, Seat::North);
                PlayState::new(deal.hands, Suit::from_index(seed as usize), Seat::East, &preset.rules())
            })
            .collect();
        let mut rng = Rng::new(7);
        let mut i = 0;
        group.bench_function(preset.name(), |b| {
            b.iter(|| {
                let mut s = starts[i & 255];
                i += 1;
                s.random_playout(&mut rng);
                black_box(s.points)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, legal_moves, random_playout);
criterion_main!(benches);
