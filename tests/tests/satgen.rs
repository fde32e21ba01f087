//! satgen's SAT/UNSAT boundary against retro's brute-force maximum mobility (independent:
//! enumeration of every reachable position), with every model decoded and replayed.

use satgen::{decode, encode, Encoding, Question, SideFilter};

#[test]
fn boundary_matches_the_enumerated_maximum() {
    for (encoding, plies) in Encoding::ALL.into_iter().flat_map(|e| [(e, 5u32), (e, 6)]) {
        let most = retro::max_mobility(plies, 1 << 20).unwrap().mobility as usize;
        for (mobility, sat) in [(most, true), (most + 1, false)] {
            let q = Question {
                plies: plies as usize,
                mobility,
                side: SideFilter::Any,
                symmetry_break: true,
                encoding,
                exact_ply: false,
            };
            let encoded = encode(&q);
            let model = satgen::solve::varisat(&encoded.formula);
            assert_eq!(
                model.is_some(),
                sat,
                "{encoding:?}, {plies} plies, mobility {mobility}"
            );
            if let Some(model) = model {
                let game =
                    decode(&encoded.layout, &model, mobility as u32, SideFilter::Any).unwrap();
                assert_eq!(game.mobility as usize, most);
                let replayed = engine::Game::replay(
                    engine::Position::START,
                    &engine::game::format_moves(&game.moves),
                )
                .unwrap();
                assert_eq!(replayed.last().board.mobility() as usize, most);
            }
        }
    }
}
