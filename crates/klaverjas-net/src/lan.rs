//! Finding a table on the home network by its code alone: a UDP question
//! broadcast to [`PORT`], answered by the table server that has the table
//! with the port its WebSocket listens on (the answer's own address says
//! which computer). Both are one short line of text; the answer is never
//! longer than the question, so nobody can use a server to flood a third.

use crate::TableCode;

/// The UDP port table servers answer on (the port a desktop's own table
/// server prefers for its WebSocket too).
pub const PORT: u16 = 7878;

const QUESTION: &str = "klaverjas where is";
const ANSWER: &str = "klaverjas at";

/// The question for the table `code`.
pub fn question(code: TableCode) -> String {
    format!("{QUESTION} {code}")
}

/// The table a datagram asks for, if it is a question.
pub fn read_question(datagram: &[u8]) -> Option<TableCode> {
    let text = std::str::from_utf8(datagram).ok()?;
    text.strip_prefix(QUESTION)?.strip_prefix(' ')?.parse().ok()
}

/// The answer: `code` is here, its WebSocket on `port`.
pub fn answer(code: TableCode, port: u16) -> String {
    format!("{ANSWER} {code} {port}")
}

/// The WebSocket port in an answer about `code`; `None` for anything else
/// (another table's answer, a stray datagram).
pub fn read_answer(datagram: &[u8], code: TableCode) -> Option<u16> {
    let text = std::str::from_utf8(datagram).ok()?;
    let (told, port) = text.strip_prefix(ANSWER)?.strip_prefix(' ')?.split_once(' ')?;
    (told.parse::<TableCode>().ok()? == code).then_some(())?;
    port.parse().ok().filter(|&p| p != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_and_its_answer_are_read_back() {
        let code: TableCode = "K2ERA6".parse().unwrap();
        assert_eq!(read_question(question(code).as_bytes()), Some(code));
        assert_eq!(read_answer(answer(code, 40123).as_bytes(), code), Some(40123));
        assert!(answer(code, u16::MAX).len() <= question(code).len());
    }

    #[test]
    fn stray_datagrams_and_other_tables_are_not_answers() {
        let code: TableCode = "K2ERA6".parse().unwrap();
        let other: TableCode = "HNXQ3T".parse().unwrap();
        assert_eq!(read_answer(answer(other, 7878).as_bytes(), code), None);
        for stray in [
            &b""[..],
            b"klaverjas at",
            b"klaverjas at K2ERA6",
            b"klaverjas at K2ERA6 0",
            b"klaverjas at K2ERA6 99999",
            b"\xff\xfe",
            b"klaverjas where is K2ERA6",
        ] {
            assert_eq!(read_answer(stray, code), None, "{:?}", String::from_utf8_lossy(stray));
        }
        for stray in [&b""[..], b"klaverjas where is", b"klaverjas where is K2ERA", b"klaverjas at K2ERA6 7878"] {
            assert_eq!(read_question(stray), None, "{:?}", String::from_utf8_lossy(stray));
        }
    }
}
