//! The dice notation parser: a hand-written scanner over bytes.
//!
//! It never panics and never allocates in proportion to the numbers it reads: counts, sides and
//! constants are range-checked as they are read (with saturating arithmetic, so a thousand-digit
//! number is just "too large"). Grammar, with optional ASCII spaces around terms and signs:
//!
//! ```text
//! expr  := sign? term (sign term)*
//! term  := number? 'd' die keep? | number
//! die   := number | '%' | '[' name ']'
//! keep  := 'k' ('h' | 'l') number
//! ```

use super::expr::{DiceExpr, DiceGroup, Die, Keep, Part, Term, check_count, check_sides};
use super::{DiceError, DiceSet, MAX_CONSTANT, MAX_DICE, MAX_TERMS};

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn skip_spaces(&mut self) {
        while self
            .bytes
            .get(self.pos)
            .is_some_and(u8::is_ascii_whitespace)
        {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).map(u8::to_ascii_lowercase)
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Reads a run of digits, saturating at `u64::MAX` (any such value is over every limit).
    fn number(&mut self) -> Option<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(b) = self.bytes.get(self.pos).filter(|b| b.is_ascii_digit()) {
            value = value.saturating_mul(10).saturating_add(u64::from(b - b'0'));
            self.pos += 1;
        }
        (self.pos > start).then_some(value)
    }

    fn error(&self, expected: &'static str) -> DiceError {
        DiceError::Syntax {
            pos: self.pos,
            expected,
        }
    }
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b':' | b'.')
}

pub(super) fn parse(text: &str, set: Option<&DiceSet>) -> Result<DiceExpr, DiceError> {
    let mut s = Scanner {
        bytes: text.as_bytes(),
        pos: 0,
    };
    let mut terms = Vec::new();
    let mut total_dice: u64 = 0;
    let mut named_at: Option<usize> = None;
    s.skip_spaces();
    if s.peek().is_none() {
        return Err(s.error("a dice expression"));
    }
    let mut negative = if s.eat(b'-') {
        true
    } else {
        s.eat(b'+');
        false
    };
    loop {
        s.skip_spaces();
        let term_pos = s.pos;
        if terms.len() >= MAX_TERMS {
            return Err(DiceError::TooManyTerms {
                pos: term_pos,
                max: MAX_TERMS,
            });
        }
        let count = s.number();
        let part = if s.eat(b'd') {
            let count = check_count(term_pos, count.unwrap_or(1))?;
            total_dice += u64::from(count);
            if total_dice > u64::from(MAX_DICE) {
                return Err(DiceError::DiceCount {
                    pos: term_pos,
                    count: total_dice,
                    max: MAX_DICE,
                });
            }
            let die_pos = s.pos;
            let die = if s.eat(b'%') {
                Die::Numeric(100)
            } else if s.eat(b'[') {
                let name_start = s.pos;
                while s.bytes.get(s.pos).copied().is_some_and(is_name_byte) {
                    s.pos += 1;
                }
                if s.pos == name_start {
                    return Err(s.error("a die name after 'd['"));
                }
                let name = &text[name_start..s.pos];
                if !s.eat(b']') {
                    return Err(s.error("']' to close the die name"));
                }
                let named =
                    set.and_then(|set| set.get(name))
                        .ok_or_else(|| DiceError::UnknownDie {
                            pos: name_start,
                            name: name.to_owned(),
                        })?;
                named_at = Some(term_pos);
                Die::Named(named.clone())
            } else if let Some(sides) = s.number() {
                Die::Numeric(check_sides(die_pos, sides)?)
            } else {
                return Err(s.error("a number of sides after 'd'"));
            };
            let keep_pos = s.pos;
            let keep = if s.eat(b'k') {
                let highest = if s.eat(b'h') {
                    true
                } else if s.eat(b'l') {
                    false
                } else {
                    return Err(s.error("'h' or 'l' after 'k'"));
                };
                let n_pos = s.pos;
                let Some(n) = s.number() else {
                    return Err(s.error("a number of dice to keep"));
                };
                if n == 0 || n > u64::from(count) {
                    return Err(DiceError::Keep {
                        pos: n_pos,
                        keep: n,
                        count,
                    });
                }
                if matches!(die, Die::Named(_)) {
                    return Err(DiceError::NamedDiceMixed { pos: keep_pos });
                }
                let n = n as u32;
                Some(if highest {
                    Keep::Highest(n)
                } else {
                    Keep::Lowest(n)
                })
            } else {
                None
            };
            Part::Dice(DiceGroup { count, die, keep })
        } else if let Some(c) = count {
            if c > MAX_CONSTANT as u64 {
                return Err(DiceError::Constant {
                    pos: term_pos,
                    max: MAX_CONSTANT,
                });
            }
            Part::Constant(c as i64)
        } else {
            return Err(s.error("a number or a die ('d')"));
        };
        terms.push(Term { negative, part });
        s.skip_spaces();
        match s.peek() {
            None => break,
            Some(b'+') => negative = false,
            Some(b'-') => negative = true,
            Some(_) => return Err(s.error("'+', '-' or the end")),
        }
        s.pos += 1;
    }
    if let Some(pos) = named_at
        && (terms.len() > 1 || terms[0].negative)
    {
        return Err(DiceError::NamedDiceMixed { pos });
    }
    Ok(DiceExpr { terms })
}
