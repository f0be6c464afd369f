//! The JSON lines a driver prints on stdout: the serve dialogue's events and
//! the result line (the last line on success).

use serde::Serialize;

use crate::model::Notes;
use crate::paced::Paced;
use crate::rounds::Round;

/// One answer of the dialogue, `{"event": ..., ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Event {
    Ready {
        load_ns: u64,
        warmup_calls: u64,
        warmup_ns: u64,
    },
    Round {
        calls: u64,
        ns: u64,
        cpu_ns: u64,
        start_ns: u64,
        end_ns: u64,
        /// Contract 4, at N > 1 callers: N, and each caller's span.
        #[serde(skip_serializing_if = "Option::is_none")]
        callers: Option<usize>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        caller_ns: Vec<u64>,
    },
    Latencies {
        calls: u64,
    },
    /// Contract 6's paced round.
    Paced(Paced),
}

impl From<&Round> for Event {
    fn from(t: &Round) -> Self {
        Event::Round {
            calls: t.calls,
            ns: t.ns,
            cpu_ns: t.cpu_ns,
            start_ns: t.start_ns,
            end_ns: t.end_ns(),
            callers: (!t.caller_ns.is_empty()).then_some(t.caller_ns.len()),
            caller_ns: t.caller_ns.clone(),
        }
    }
}

/// The result line, fields in the contract's order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultLine<'a> {
    pub driver: &'a str,
    pub calls: u64,
    pub batch: u64,
    pub threads: u64,
    /// Contract 4: echoed beside `threads` when more than one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub callers: Option<u64>,
    pub runtime_version: String,
    pub load_ns: u64,
    pub peak_rss_bytes: Option<u64>,
    pub rounds: &'a [Round],
    #[serde(skip_serializing_if = "Notes::is_empty")]
    pub notes: Notes,
}

/// Serialises one line of JSON (no newline inside).
pub fn json_line<T: Serialize>(value: &T) -> String {
    // Serialising these plain structs cannot fail.
    serde_json::to_string(value).expect("plain data serialises")
}

/// The process's peak resident memory: `VmHWM` in /proc/self/status, in bytes.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    vm_hwm_bytes(&status)
}

fn vm_hwm_bytes(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let mut fields = line["VmHWM:".len()..].split_whitespace();
    let value: u64 = fields.next()?.parse().ok()?;
    match fields.next()? {
        "kB" => Some(value * 1024),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_as_the_contract_spells_them() {
        assert_eq!(
            json_line(&Event::Ready { load_ns: 5, warmup_calls: 7, warmup_ns: 8 }),
            r#"{"event":"ready","load_ns":5,"warmup_calls":7,"warmup_ns":8}"#
        );
        let round =
            Event::from(&Round { calls: 3, ns: 40, cpu_ns: 39, start_ns: 1000, caller_ns: vec![] });
        assert_eq!(
            json_line(&round),
            r#"{"event":"round","calls":3,"ns":40,"cpu_ns":39,"start_ns":1000,"end_ns":1040}"#
        );
        assert_eq!(json_line(&Event::Latencies { calls: 2 }), r#"{"event":"latencies","calls":2}"#);
    }

    #[test]
    fn a_round_of_callers_says_how_many_and_each_ones_span() {
        let round = Round { calls: 3, ns: 40, cpu_ns: 70, start_ns: 1000, caller_ns: vec![38, 36] };
        assert_eq!(
            json_line(&Event::from(&round)),
            concat!(
                r#"{"event":"round","calls":3,"ns":40,"cpu_ns":70,"start_ns":1000,"end_ns":1040,"#,
                r#""callers":2,"caller_ns":[38,36]}"#
            )
        );
        assert_eq!(
            json_line(&round),
            r#"{"calls":3,"ns":40,"cpu_ns":70,"start_ns":1000,"callers":2,"caller_ns":[38,36]}"#
        );
    }

    #[test]
    fn result_line_fields_in_order() {
        let rounds = [Round { calls: 2, ns: 10, cpu_ns: 9, start_ns: 5, caller_ns: vec![] }];
        let line = ResultLine {
            driver: "rust-x",
            calls: 2,
            batch: 1,
            threads: 1,
            callers: None,
            runtime_version: "1.0".into(),
            load_ns: 7,
            peak_rss_bytes: None,
            rounds: &rounds,
            notes: Notes::new().with("call", "f"),
        };
        assert_eq!(
            json_line(&line),
            concat!(
                r#"{"driver":"rust-x","calls":2,"batch":1,"threads":1,"runtime_version":"1.0","#,
                r#""load_ns":7,"peak_rss_bytes":null,"#,
                r#""rounds":[{"calls":2,"ns":10,"cpu_ns":9,"start_ns":5}],"#,
                r#""notes":{"call":"f"}}"#
            )
        );
        let bare = ResultLine { notes: Notes::new(), ..line };
        assert!(!json_line(&bare).contains("notes"));
    }

    #[test]
    fn peak_rss_from_status() {
        assert_eq!(vm_hwm_bytes("Name:\tx\nVmHWM:\t  1234 kB\n"), Some(1234 * 1024));
        assert_eq!(vm_hwm_bytes("Name:\tx\n"), None);
        assert!(peak_rss_bytes().unwrap() > 0);
    }
}
