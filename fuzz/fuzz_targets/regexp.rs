//! Fuzz target: the JavaScript RegExp engine. The input is a flags selector byte, then a
//! pattern and a subject separated by a NUL byte; a program compiles the pattern with
//! `new RegExp` and runs `exec`, `replace`, `split` and `matchAll` over the subject in a
//! `Machine` driven in 2,000-fuel slices, under a 2,000,000 total-fuel bound and a 32 MiB
//! memory cap. Every input must end in `Done` or `Error` (a SyntaxError for a bad pattern)
//! — never a panic, a stack overflow, a slice that runs far past its fuel or memory past
//! the cap.
#![no_main]

use codemode_guest::{Env, StartOptions, Step};
use codemode_js::{Machine, compile};
use libfuzzer_sys::fuzz_target;

const SLICE: u32 = 2_000;
const TOTAL_FUEL: u64 = 2_000_000;
const MEMORY: usize = 32 * 1024 * 1024;
const FLAGS: &[&str] = &[
    "", "g", "i", "m", "s", "u", "v", "y", "d", "gi", "iu", "gmu", "iv", "sy", "dgimsuy", "gv",
];

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let flags = FLAGS[sel as usize % FLAGS.len()];
    let (pattern, subject) = match rest.iter().position(|b| *b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaab"[..]),
    };
    let p = serde_json::to_string(&String::from_utf8_lossy(pattern)).unwrap_or_default();
    let s = serde_json::to_string(&String::from_utf8_lossy(subject)).unwrap_or_default();
    let source = format!(
        "const r = new RegExp({p}, {flags:?}); const s = {s}; const out = [r.exec(s), r.test(s), s.replace(r, '[$&$1$<n>]'), s.split(r, 8), s.search(r)];\n\
         const g = new RegExp(r.source, r.flags.includes('g') ? r.flags : r.flags + 'g');\n\
         for (const m of s.matchAll(g)) out.push(m.index);\n\
         return JSON.stringify(out).length;"
    );
    let Ok(program) = compile(&source) else { return };
    let Ok(mut m) = Machine::new(
        &program,
        &Env::default(),
        &StartOptions { max_memory_bytes: Some(MEMORY), deadline: None },
    ) else {
        return;
    };
    m.set_fuel_limit(TOTAL_FUEL);
    loop {
        let before = m.fuel_used();
        match m.run(SLICE) {
            Step::Yield => {
                // A slice may overrun its fuel only by a bounded amount (one repeat's scan).
                assert!(m.fuel_used() - before < 200_000, "a slice overran its fuel");
            }
            _ => return,
        }
        assert!(m.memory_used() <= MEMORY + MEMORY / 4, "memory accounting exceeded its cap");
    }
});
