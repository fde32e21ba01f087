//! Win, draw or loss: the answer of a search whose window is only the sign of the score
//! (`engine solve --wld`, `dfpn wld`).

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Wld {
    /// A positive final score.
    Win,
    /// Zero.
    Draw,
    /// A negative final score.
    Loss,
}

impl Wld {
    /// The outcome of a final score.
    pub fn of_score(score: i32) -> Wld {
        match score.signum() {
            1 => Wld::Win,
            0 => Wld::Draw,
            _ => Wld::Loss,
        }
    }

    /// +1, 0 or -1.
    pub fn sign(self) -> i32 {
        match self {
            Wld::Win => 1,
            Wld::Draw => 0,
            Wld::Loss => -1,
        }
    }
}

impl std::fmt::Display for Wld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Wld::Win => "win",
            Wld::Draw => "draw",
            Wld::Loss => "loss",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_and_words() {
        for (score, wld, word) in [
            (12, Wld::Win, "win"),
            (0, Wld::Draw, "draw"),
            (-2, Wld::Loss, "loss"),
        ] {
            assert_eq!(Wld::of_score(score), wld);
            assert_eq!(wld.sign(), score.signum());
            assert_eq!(wld.to_string(), word);
        }
    }
}
